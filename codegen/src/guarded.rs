//! The guarded scan: loops from the affine constraints (the union scanner's), the
//! polynomial ones as tests around each statement, as a person writes
//! `for (i = -1; i <= 7; i++) for (j = -1; j <= 8; j++) if (2*i*j - 2*i*i - i == -2) S(i, j);`.
//!
//! Why: where the CAD needs more than its budget (see [`Budget`]), its code would be
//! thousands of cells, bounds from projection factors of degree 30 and more (whose
//! `int64_t` evaluation overflows for parameters of magnitude 4), or nothing at all within
//! a user's patience. The guarded scan needs only the affine constraints to bound every
//! loop; each statement runs where its whole formula holds, so every integer point still
//! runs exactly once, in lexicographic order, for every parameter value. The cost is
//! iterations that fail a test: the affine constraints' points, not the domain's.
//!
//! The relaxation: a statement's formula with every atom that is not affine replaced by
//! the truth value that makes the formula weaker (`true` under an even number of `not`s,
//! `false` under an odd one), so that its set contains the domain; the conjuncts of the
//! formula that are not affine are the test. `None` where the relaxation does not bound
//! every loop (or is not a union scanner's input): the caller keeps the CAD.

use crate::ast::Node;
use crate::cond::Cond;
use crate::linear::LinearInput;
use cad::formula::Formula;
use polys::Coeff;

/// Where the CAD gives way to the guarded scan, when the guarded scan applies: the
/// decomposition's size and its projection factors' total degree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Cells of the decomposition (code with more cells is no longer read by a person,
    /// and a box of a few hundred points scans faster than it branches).
    pub max_cells: u64,
    /// Total degree of a projection factor: a bound from a factor of degree 32 or more
    /// overflows `int64_t` for parameters of magnitude 4 (4^32 = 2^64), and the next
    /// level's resultants of such factors take minutes.
    pub max_degree: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_cells: 2000,
            max_degree: 31,
        }
    }
}

/// The guarded scan's tests evaluate the input's polynomials in `int64_t`; below this
/// parameter magnitude an overflow is not taken (`gen` warns below the same bound): the
/// CAD's bounds may stay exact further (`(n^10 + 1)*i*i <= ...` overflows at |n| = 56 as a
/// test; the CAD's search between sections is safe to 70), so it runs without a budget.
const MIN_SAFE_BOUND: i64 = 1 << 12;

/// Whether `nodes` (a guarded scan printed by `c`) cannot overflow for parameters of
/// magnitude below [`MIN_SAFE_BOUND`].
pub(crate) fn safe_enough(c: &crate::emit_c::CEmitter, nodes: &[Node]) -> bool {
    use crate::overflow::SafeRange;
    match crate::overflow::safe_bound_of(c, nodes) {
        SafeRange::Safe => true,
        SafeRange::Bound { bound, .. } => bound >= MIN_SAFE_BOUND,
        SafeRange::Unsafe(_) => false,
    }
}

/// Loops for the relaxation of `input`'s formulas with each statement's polynomial
/// conjuncts as a test around it, or `None` when no formula has a polynomial atom, or
/// the union scanner does not take the relaxation (unbounded, not affine elsewhere).
pub(crate) fn scan(input: &LinearInput) -> Option<Vec<Node>> {
    let mut relaxed = Vec::with_capacity(input.formulas.len());
    let mut tests = Vec::with_capacity(input.formulas.len());
    for f in input.formulas {
        let mut kept = Vec::new();
        let mut tested = Vec::new();
        for c in crate::existential::conjuncts(f) {
            if affine(c) {
                kept.push(c.clone());
            } else {
                kept.push(relax(c, true));
                tested.push(c.clone());
            }
        }
        relaxed.push(Formula::and(kept));
        tests.push(tested);
    }
    if tests.iter().all(Vec::is_empty) {
        return None;
    }
    // The tests print their coefficients as `int64_t` literals, the constant negated.
    let printable = |f: &Formula| {
        f.atom_polys().iter().all(|p| {
            p.terms()
                .iter()
                .all(|(_, c)| c.to_i64().is_some_and(|v| v != i64::MIN))
        })
    };
    if !tests.iter().flatten().all(printable) {
        return None;
    }
    let relaxed_input = LinearInput {
        formulas: &relaxed,
        ..*input
    };
    let nodes = crate::union::scan(&relaxed_input)?;
    Some(hoist(with_tests(nodes, &tests)))
}

/// Whether every atom of `f` is affine.
fn affine(f: &Formula) -> bool {
    f.atom_polys().iter().all(|p| p.total_degree() <= 1)
}

/// `f` with its polynomial atoms replaced by the truth value that weakens it: `true`
/// where `positive` (an even number of `not`s above), `false` otherwise; constants folded.
fn relax(f: &Formula, positive: bool) -> Formula {
    match f {
        Formula::Atom(a) if a.poly.total_degree() > 1 => {
            if positive {
                Formula::True
            } else {
                Formula::False
            }
        }
        Formula::True | Formula::False | Formula::Atom(_) => f.clone(),
        Formula::Not(g) => match relax(g, !positive) {
            Formula::True => Formula::False,
            Formula::False => Formula::True,
            g => Formula::Not(Box::new(g)),
        },
        Formula::And(fs) | Formula::Or(fs) => {
            // `false` decides a conjunction and drops out of a disjunction, `true` the
            // other way round.
            let and = matches!(f, Formula::And(_));
            let (decides, neutral) = if and {
                (Formula::False, Formula::True)
            } else {
                (Formula::True, Formula::False)
            };
            let mut parts = Vec::with_capacity(fs.len());
            for g in fs {
                match relax(g, positive) {
                    g if g == decides => return g,
                    g if g == neutral => {}
                    g => parts.push(g),
                }
            }
            if and {
                Formula::and(parts)
            } else {
                Formula::or(parts)
            }
        }
    }
}

/// Each statement of `nodes` inside the polynomial conjuncts of its formula
/// (`tests[stmt]`), one test per innermost variable they read, the outermost first, so
/// that [`hoist`] can lift each as far as its variables allow; a statement whose test is
/// false goes.
fn with_tests(nodes: Vec<Node>, tests: &[Vec<Formula>]) -> Vec<Node> {
    nodes
        .into_iter()
        .filter_map(|n| match n {
            Node::Stmt { stmt, args } => {
                let mut conds = Vec::new();
                for f in &tests[stmt] {
                    match Cond::of(f) {
                        Ok(c) => conds.push(c),
                        Err(true) => {}
                        Err(false) => return None,
                    }
                }
                // One test per innermost variable read, outermost first; the last wraps
                // the statement directly.
                conds.sort_by_key(innermost);
                let mut groups: Vec<(usize, Vec<Cond>)> = Vec::new();
                for c in conds {
                    let v = innermost(&c);
                    match groups.last_mut() {
                        Some((w, g)) if *w == v => g.push(c),
                        _ => groups.push((v, vec![c])),
                    }
                }
                let mut node = Node::Stmt { stmt, args };
                for (_, mut group) in groups.into_iter().rev() {
                    let cond = match group.len() {
                        1 => group.swap_remove(0),
                        _ => Cond::And(group),
                    };
                    node = Node::Test {
                        cond,
                        body: vec![node],
                    };
                }
                Some(node)
            }
            n => Some(n.map_body(|b| with_tests(b, tests))),
        })
        .collect()
}

/// The highest variable a condition reads (`0` for none).
fn innermost(c: &Cond) -> usize {
    c.exprs().iter().map(|e| e.nvars()).max().unwrap_or(0)
}

/// A loop whose body is a single test that does not read the loop's variable runs the
/// loop inside the test instead (`for j: if (c(i)) B` is `if (c(i)) for j: B`): the test
/// is evaluated once per outer iteration, not once per inner one.
fn hoist(nodes: Vec<Node>) -> Vec<Node> {
    nodes
        .into_iter()
        .map(|n| {
            let mut n = n.map_body(hoist);
            let Node::Loop { var, body, .. } = &mut n else {
                return n;
            };
            if !matches!(body.as_slice(), [Node::Test { cond, .. }] if !cond.reads(*var)) {
                return n;
            }
            let Some(Node::Test { cond, body: inner }) = body.pop() else {
                unreachable!("the body is a single test")
            };
            *body = inner;
            Node::Test {
                cond,
                body: hoist(vec![n]),
            }
        })
        .collect()
}
