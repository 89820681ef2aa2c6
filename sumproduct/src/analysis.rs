//! What every e-class knows about its relations (SPORES' class invariants): the schema (free
//! attributes, equal for all equivalent plans), the constant it denotes if any (constant
//! folding during saturation) and an estimate of its density (nonzeros over entries, the
//! conservative estimate of SPORES' figure 12; merged classes keep the tighter one).

use std::collections::{BTreeMap, BTreeSet};

use egg::{Analysis, DidMerge, EGraph, Id, Symbol};

use crate::expr::Func;
use crate::relation::{Coef, Rel};

/// The facts of the operands: attribute sizes and operand densities.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Values of each attribute.
    pub dims: BTreeMap<Symbol, u64>,
    /// Density of each operand (1 if absent).
    pub density: BTreeMap<Symbol, f64>,
}

/// The data of one e-class.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// Free attributes.
    pub schema: BTreeSet<Symbol>,
    /// The constant value, for classes that denote one.
    pub constant: Option<Coef>,
    /// Estimated nonzeros over the entries of the schema.
    pub density: f64,
    /// For a name leaf, the name.
    pub name: Option<Symbol>,
}

impl Facts {
    /// Entries of a relation with this schema (the product of its attributes' sizes).
    pub fn size(&self, schema: &BTreeSet<Symbol>) -> f64 {
        schema
            .iter()
            .map(|a| self.dims.get(a).copied().unwrap_or(1) as f64)
            .product()
    }

    /// Estimated nonzeros of a class.
    pub fn nnz(&self, info: &Info) -> f64 {
        info.density * self.size(&info.schema)
    }
}

/// The e-graph of relational plans.
pub type Graph = EGraph<Rel, Facts>;

fn leaf(schema: &[Symbol], density: f64) -> Info {
    Info {
        schema: schema.iter().copied().collect(),
        constant: None,
        density,
        name: None,
    }
}

impl Analysis<Rel> for Facts {
    type Data = Info;

    fn make(egraph: &mut Graph, enode: &Rel) -> Info {
        let data = |id: &Id| egraph[*id].data.clone();
        let name = |id: &Id| egraph[*id].data.name.unwrap_or_else(|| Symbol::from("?"));
        let operand_density = |x: Symbol| egraph.analysis.density.get(&x).copied().unwrap_or(1.0);
        match enode {
            Rel::Name(s) => Info {
                name: Some(*s),
                ..leaf(&[], 1.0)
            },
            Rel::Num(c) => Info {
                constant: Some(*c),
                ..leaf(&[], if c.is_zero() { 0.0 } else { 1.0 })
            },
            Rel::Dim(i) => {
                let size = egraph.analysis.dims.get(&name(i)).copied().unwrap_or(1);
                Info {
                    constant: i64::try_from(size).ok().map(Coef::int),
                    ..leaf(&[], 1.0)
                }
            }
            Rel::Matrix([x, i, j]) => leaf(&[name(i), name(j)], operand_density(name(x))),
            Rel::Vector([x, i]) => leaf(&[name(i)], operand_density(name(x))),
            Rel::Scalar(x) => leaf(&[], operand_density(name(x))),
            Rel::Join([a, b]) => {
                let (a, b) = (data(a), data(b));
                Info {
                    schema: a.schema.union(&b.schema).copied().collect(),
                    constant: a
                        .constant
                        .zip(b.constant)
                        .and_then(|(x, y)| x.checked_mul(y)),
                    density: a.density.min(b.density),
                    name: None,
                }
            }
            Rel::Union([a, b]) => {
                let (a, b) = (data(a), data(b));
                let schema: BTreeSet<Symbol> = a.schema.union(&b.schema).copied().collect();
                let size = egraph.analysis.size(&schema);
                let nnz = egraph.analysis.nnz(&a) + egraph.analysis.nnz(&b);
                Info {
                    constant: a
                        .constant
                        .zip(b.constant)
                        .and_then(|(x, y)| x.checked_add(y)),
                    density: if size > 0.0 {
                        (nnz / size).min(1.0)
                    } else {
                        0.0
                    },
                    schema,
                    name: None,
                }
            }
            Rel::Apply([f, x]) => {
                let (f, x) = (name(f), data(x));
                let f = Func::from_name(f.as_str());
                Info {
                    density: match f {
                        Some(f) if f.keeps_zero() => x.density,
                        _ => 1.0,
                    },
                    // Only reciprocals of rationals stay exact.
                    constant: match (f, x.constant) {
                        (Some(Func::Recip), Some(c))
                            if !c.is_zero() && *c.0.numer() != i64::MIN =>
                        {
                            Some(Coef(c.0.recip()))
                        }
                        _ => None,
                    },
                    schema: x.schema,
                    name: None,
                }
            }
            Rel::Agg([i, x]) => {
                let (i, x) = (name(i), data(x));
                let size = egraph.analysis.dims.get(&i).copied().unwrap_or(1);
                let bound = x.schema.contains(&i);
                let mut schema = x.schema.clone();
                schema.remove(&i);
                Info {
                    schema,
                    // Summing a constant over i multiplies it by |i| (rule 5).
                    constant: if bound {
                        None
                    } else {
                        x.constant.and_then(|c| {
                            i64::try_from(size)
                                .ok()
                                .and_then(|s| c.checked_mul(Coef::int(s)))
                        })
                    },
                    density: if bound {
                        (x.density * size as f64).min(1.0)
                    } else {
                        x.density
                    },
                    name: None,
                }
            }
        }
    }

    fn merge(&mut self, a: &mut Info, b: Info) -> DidMerge {
        let mut changed_a = false;
        if a.constant.is_none() && b.constant.is_some() {
            a.constant = b.constant;
            changed_a = true;
        }
        if b.density < a.density {
            a.density = b.density;
            changed_a = true;
        }
        let changed_b = a.constant != b.constant || a.density < b.density;
        DidMerge(changed_a, changed_b)
    }

    fn modify(egraph: &mut Graph, id: Id) {
        let info = &egraph[id].data;
        if let (Some(c), true) = (info.constant, info.schema.is_empty()) {
            let folded = egraph.add(Rel::Num(c));
            egraph.union(id, folded);
        }
    }
}
