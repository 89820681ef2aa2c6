//! Extraction of the cheapest plan from a saturated e-graph, counting a subexpression that
//! the plan uses several times once (SPORES' figure 10: a tree cost would pay for a shared
//! `U V^T` twice and pick a worse plan). Each class's candidate is the set of classes its
//! best plan evaluates with their costs; a node's set is the union of its children's sets,
//! improved until no class changes (a greedy DAG extraction, not SPORES' ILP: optimal on
//! trees, and never charging a shared class twice).

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use egg::{Id, Language, RecExpr};

use crate::analysis::Graph;
use crate::relation::Rel;

/// FLOPs of evaluating `node` of class `class` once: a join or union produces the estimated
/// nonzeros of the class with one operation each, an aggregation reads its input's nonzeros
/// once; operands, constants and dimensions are free. An aggregate over a join is then
/// `2 m n k` for a dense matrix product, as GEMM counts it.
pub fn node_cost(g: &Graph, class: Id, node: &Rel) -> f64 {
    let f = &g.analysis;
    match node {
        Rel::Join(_) | Rel::Union(_) | Rel::Apply(_) => f.nnz(&g[class].data),
        Rel::Agg([_, x]) => f.nnz(&g[*x].data),
        Rel::Dim(_) | Rel::Matrix(_) | Rel::Vector(_) | Rel::Scalar(_) | Rel::Num(_) => 0.0,
        Rel::Name(_) => 0.0,
    }
}

#[derive(Clone)]
struct Best {
    node: Rel,
    total: f64,
    classes: Rc<BTreeMap<Id, f64>>,
}

/// The cheapest plan of class `root` and its cost, or `None` if no finite plan exists.
pub fn extract(g: &Graph, root: Id) -> Option<(f64, RecExpr<Rel>)> {
    let mut best: HashMap<Id, Best> = HashMap::new();
    // Each pass can only lower a total; a plan has at most one node per class, so the
    // number of classes bounds the passes that matter.
    for _ in 0..=g.number_of_classes() {
        let mut changed = false;
        for class in g.classes() {
            for node in &class.nodes {
                let Some(candidate) = candidate(g, class.id, node, &best) else {
                    continue;
                };
                let better = best
                    .get(&class.id)
                    .is_none_or(|b| candidate.total < b.total * (1.0 - 1e-12));
                if better {
                    best.insert(class.id, candidate);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let root = g.find(root);
    let mut expr = RecExpr::default();
    let mut built = HashMap::new();
    build(g, root, &best, &mut expr, &mut built)?;
    // The cost of the plan as built: each class it evaluates, once.
    let total = built.keys().map(|c| node_cost(g, *c, &best[c].node)).sum();
    Some((total, expr))
}

fn candidate(g: &Graph, class: Id, node: &Rel, best: &HashMap<Id, Best>) -> Option<Best> {
    let mut classes: BTreeMap<Id, f64> = BTreeMap::new();
    for c in node.children() {
        let b = best.get(&g.find(*c))?;
        // A plan that needs this class to compute this class is a cycle.
        if b.classes.contains_key(&class) {
            return None;
        }
        classes.extend(b.classes.iter().map(|(k, v)| (*k, *v)));
    }
    classes.insert(class, node_cost(g, class, node));
    let total = classes.values().sum();
    Some(Best {
        node: node.clone(),
        total,
        classes: Rc::new(classes),
    })
}

fn build(
    g: &Graph,
    class: Id,
    best: &HashMap<Id, Best>,
    expr: &mut RecExpr<Rel>,
    built: &mut HashMap<Id, Id>,
) -> Option<Id> {
    let class = g.find(class);
    if let Some(id) = built.get(&class) {
        return Some(*id);
    }
    let node = best.get(&class)?.node.clone();
    let mut children = Vec::new();
    for c in node.children() {
        children.push(build(g, *c, best, expr, built)?);
    }
    let mut k = 0;
    let node = node.map_children(|_| {
        k += 1;
        children[k - 1]
    });
    let id = expr.add(node);
    built.insert(class, id);
    Some(id)
}
