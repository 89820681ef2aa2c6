//! The equality rules of relational algebra (SPORES' R_EQ, figure 3), with the constant
//! rules saturation needs; each rule's comment states the identity it encodes. `*` is the
//! natural join (element-wise product after broadcasting), `+` the union (sum), `sum i` the
//! aggregation over attribute `i`.

use egg::{rewrite as rw, Id, Rewrite, Subst, Var};

use crate::analysis::{Facts, Graph};
use crate::relation::Rel;

/// Whether attribute `i` is not a free attribute of `a` (the side condition of rules 3 and 5).
fn not_free(i: &str, a: &str) -> impl Fn(&mut Graph, Id, &Subst) -> bool {
    let parse = |v: &str| v.parse::<Var>();
    let (i, a) = (parse(i), parse(a));
    move |g: &mut Graph, _: Id, s: &Subst| {
        let (Ok(i), Ok(a)) = (&i, &a) else {
            return false;
        };
        let (Some(&i), Some(&a)) = (s.get(*i), s.get(*a)) else {
            return false;
        };
        match g[i].data.name {
            Some(name) => !g[a].data.schema.contains(&name),
            None => false,
        }
    }
}

/// Whether `a` has all the attributes `attrs` (pattern variables bound to names).
fn has(a: &str, attrs: &[&str]) -> impl Fn(&mut Graph, Id, &Subst) -> bool {
    let a = a.parse::<Var>();
    let attrs: Vec<Result<Var, _>> = attrs.iter().map(|v| v.parse::<Var>()).collect();
    move |g: &mut Graph, _: Id, s: &Subst| {
        let Ok(a) = &a else { return false };
        let Some(&a) = s.get(*a) else { return false };
        attrs.iter().all(|v| {
            let name = v
                .as_ref()
                .ok()
                .and_then(|v| s.get(*v))
                .and_then(|&i| g[i].data.name);
            name.is_some_and(|n| g[a].data.schema.contains(&n))
        })
    }
}

/// Whether `b` has no attributes.
fn scalar(b: &str) -> impl Fn(&mut Graph, Id, &Subst) -> bool {
    let b = b.parse::<Var>();
    move |g: &mut Graph, _: Id, s: &Subst| {
        let Ok(b) = &b else { return false };
        s.get(*b).is_some_and(|&b| g[b].data.schema.is_empty())
    }
}

/// All rules.
pub fn rules() -> Vec<Rewrite<Rel, Facts>> {
    vec![
        // (1) A * (B + C) = A * B + A * C, in both directions: distributing exposes sparse
        // products (ALS), factoring shares a factor (MLR).
        rw!("distribute"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
        rw!("factor"; "(+ (* ?a ?b) (* ?a ?c))" => "(* ?a (+ ?b ?c))"),
        // (2) sum_i (A + B) = sum_i A + sum_i B.
        rw!("sum-of-union"; "(sum ?i (+ ?a ?b))" => "(+ (sum ?i ?a) (sum ?i ?b))"),
        rw!("union-of-sums"; "(+ (sum ?i ?a) (sum ?i ?b))" => "(sum ?i (+ ?a ?b))"),
        // (3) A * sum_i B = sum_i (A * B) if i is not an attribute of A (attributes bound by
        // aggregates are fresh, so no renaming is needed).
        rw!("sum-out-of-join"; "(* ?a (sum ?i ?b))" => "(sum ?i (* ?a ?b))"
            if not_free("?i", "?a")),
        rw!("sum-into-join"; "(sum ?i (* ?a ?b))" => "(* ?a (sum ?i ?b))"
            if not_free("?i", "?a")),
        // (4) sum_i sum_j A = sum_j sum_i A.
        rw!("sums-commute"; "(sum ?i (sum ?j ?a))" => "(sum ?j (sum ?i ?a))"),
        // (5) sum_i A = A * dim(i) if i is not an attribute of A.
        rw!("sum-of-constant"; "(sum ?i ?a)" => "(* ?a (dim ?i))" if not_free("?i", "?a")),
        // (6) A + B = B + A and A + (B + C) = (A + B) + C.
        rw!("union-commutes"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rw!("union-associates"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rw!("union-associates-back"; "(+ (+ ?a ?b) ?c)" => "(+ ?a (+ ?b ?c))"),
        // (7) A * B = B * A and A * (B * C) = (A * B) * C.
        rw!("join-commutes"; "(* ?a ?b)" => "(* ?b ?a)"),
        rw!("join-associates"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
        rw!("join-associates-back"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"),
        // Constants (the normal form's coefficients): 1 * A = A, A + A = 2 * A. Constant
        // classes are folded by the analysis.
        rw!("join-one"; "(* ?a 1)" => "?a"),
        rw!("union-twice"; "(+ ?a ?a)" => "(* 2 ?a)"),
        // The all-ones relation of a broadcast summed over one of its attributes is the
        // attribute's size: sum_i 1(i) = |i|, sum_i 1(i, j) = |i| 1(j).
        rw!("sum-of-ones"; "(sum ?i (v #ones ?i))" => "(dim ?i)"),
        rw!("sum-of-ones-rows"; "(sum ?i (m #ones ?i ?j))" => "(* (dim ?i) (v #ones ?j))"),
        rw!("sum-of-ones-cols"; "(sum ?j (m #ones ?i ?j))" => "(* (dim ?j) (v #ones ?i))"),
        // A * 1(i) = A and A * 1(i, j) = A when A has the attributes already.
        rw!("join-ones"; "(* ?a (v #ones ?i))" => "?a" if has("?a", &["?i"])),
        rw!("join-ones2"; "(* ?a (m #ones ?i ?j))" => "?a" if has("?a", &["?i", "?j"])),
        // A + A * b = A * (1 + b) for a scalar b (factoring with A = A * 1; a b with
        // attributes would need a matrix of ones, which a union cannot broadcast).
        rw!("factor-one"; "(+ ?a (* ?a ?b))" => "(* ?a (+ 1 ?b))" if scalar("?b")),
    ]
}
