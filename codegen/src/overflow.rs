//! Integer overflow in generated code: the parameter range within which the emitted
//! `int64_t` arithmetic provably cannot overflow ([`safe_parameter_bound`]).
//!
//! The analysis works on the typed C expressions the printer prints its text from
//! ([`CAst`], see `c_ast` and [`CEmitter::c_ast`]), with constants folded as the
//! compiler folds them, so that it sees exactly the operations the C compiler sees; the
//! checked rendering of `--check-overflow` (see `checked`) renders the same trees, so it
//! performs exactly the operations the analysis cleared.
//!
//! The program's sites are enclosed by interval arithmetic (`enclosure`):
//! parameters range over `[-B, B]`, a loop variable over the hull of its bounds'
//! enclosures, a guarded parameter is intersected with its guard; every operation's exact
//! result interval (in `i128`) must lie in `int64_t`, and the `__int128` evaluation inside
//! `ps_root_search` in `__int128`. Every step is inclusion-monotone, so the largest safe
//! `B` is found by bisection. It relies on the generator's documented invariants (divisors
//! positive and root arguments non-negative wherever evaluated); the checked helpers test
//! those at run time too.

use crate::ast::Node;
use crate::emit_c::CEmitter;
use crate::enclosure::{enclose, I64_MAX, I64_MIN};
use crate::generated::Generated;
use std::fmt;

pub use crate::c_ast::{BinOp, CAst, Helper, Lang};
pub use crate::checked::{render_checked, string_literal, CheckedError};
pub use crate::enclosure::Iv;

/// One expression of the program, as the compiler sees it, with a description for
/// messages.
#[derive(Clone, Debug)]
pub struct Site {
    /// The expression as the compiler sees it: the printer's tree, folded.
    pub ast: CAst,
    /// What the expression is, e.g. "upper bound of the loop over j: n - 1".
    pub what: String,
}

/// The loop AST with every expression as the compiler sees it.
#[derive(Clone, Debug)]
pub enum ANode {
    /// `for (var = lower; var <= upper; var += 1) body`.
    Loop {
        /// The iterator's variable index.
        var: usize,
        /// The inclusive lower bound.
        lower: Site,
        /// The inclusive upper bound.
        upper: Site,
        /// The increment.
        step: i64,
        /// The loop's body.
        body: Vec<ANode>,
    },
    /// `if (lower <= var && var <= upper) body` on a parameter; a missing side is
    /// unbounded.
    Guard {
        /// The guarded parameter's variable index.
        var: usize,
        /// The inclusive lower bound, if any.
        lower: Option<Site>,
        /// The inclusive upper bound, if any.
        upper: Option<Site>,
        /// The nodes run when the guard holds.
        body: Vec<ANode>,
    },
    /// `if (cond) body`: the condition's polynomials, each evaluated in full (C's
    /// short-circuit evaluation can only skip some).
    Test {
        /// The atoms' left-hand sides.
        sides: Vec<Site>,
        /// The nodes run when the condition holds.
        body: Vec<ANode>,
    },
    /// A statement instance.
    Stmt {
        /// The statement's arguments.
        args: Vec<Site>,
    },
}

/// The emitted program's expressions, lowered and folded (once) for repeated analysis.
pub struct Program {
    nodes: Vec<ANode>,
    nvars: usize,
    nparams: usize,
}

fn site(c: &CEmitter, e: &crate::expr::Expr, what: String) -> Result<Site, CheckedError> {
    let ast = c.c_ast(e).map_err(|e| CheckedError::Print(e.to_string()))?;
    Ok(Site {
        what: format!("{what}: {}", ast.text(c.vars, Lang::C)),
        ast: ast.folded(),
    })
}

impl Program {
    /// Every expression `c` prints for `nodes`, as the compiler sees it.
    pub fn new(c: &CEmitter, nodes: &[Node]) -> Result<Program, CheckedError> {
        fn walk(c: &CEmitter, nodes: &[Node]) -> Result<Vec<ANode>, CheckedError> {
            nodes
                .iter()
                .map(|n| {
                    Ok(match n {
                        Node::Loop {
                            var,
                            lower,
                            upper,
                            step,
                            body,
                        } => {
                            let x = c.vars.name(*var);
                            ANode::Loop {
                                var: *var,
                                step: *step,
                                lower: site(c, lower, format!("lower bound of the loop over {x}"))?,
                                upper: site(c, upper, format!("upper bound of the loop over {x}"))?,
                                body: walk(c, body)?,
                            }
                        }
                        Node::Guard {
                            var,
                            lower,
                            upper,
                            body,
                        } => {
                            let p = c.vars.name(*var);
                            ANode::Guard {
                                var: *var,
                                lower: lower
                                    .as_ref()
                                    .map(|e| site(c, e, format!("guard {p} >= ...")))
                                    .transpose()?,
                                upper: upper
                                    .as_ref()
                                    .map(|e| site(c, e, format!("guard {p} <= ...")))
                                    .transpose()?,
                                body: walk(c, body)?,
                            }
                        }
                        Node::Test { cond, body } => ANode::Test {
                            sides: cond
                                .exprs()
                                .into_iter()
                                .map(|e| site(c, e, "condition".into()))
                                .collect::<Result<_, _>>()?,
                            body: walk(c, body)?,
                        },
                        Node::Stmt { stmt, args } => {
                            let name = c.statements.get(*stmt).map_or("S", |s| s.0.as_str());
                            ANode::Stmt {
                                args: args
                                    .iter()
                                    .enumerate()
                                    .map(|(k, a)| {
                                        site(c, a, format!("argument {} of {name}", k + 1))
                                    })
                                    .collect::<Result<_, _>>()?,
                            }
                        }
                    })
                })
                .collect()
        }
        Ok(Program {
            nodes: walk(c, nodes)?,
            nvars: c.vars.len(),
            nparams: c.nparams,
        })
    }

    /// Checks that no operation can overflow when every parameter lies in `[-b, b]`; the
    /// error names the first operation that may.
    pub fn check(&self, b: i64) -> Result<(), Overflow> {
        let mut env: Vec<Option<Iv>> = vec![None; self.nvars];
        for v in env.iter_mut().take(self.nparams) {
            *v = Some(Iv::new(-(b as i128), b as i128));
        }
        check_nodes(&self.nodes, &mut env)
    }
}

/// An operation that may overflow, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overflow {
    /// The operation, e.g. "a * b (result in [..] may leave int64_t)".
    pub operation: String,
    /// The expression it belongs to, e.g. "upper bound of the loop over j: n*n".
    pub site: String,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in the {}", self.operation, self.site)
    }
}

fn eval_site(s: &Site, env: &[Option<Iv>]) -> Result<Option<Iv>, Overflow> {
    enclose(&s.ast, env).map_err(|operation| Overflow {
        operation,
        site: s.what.clone(),
    })
}

fn check_nodes(nodes: &[ANode], env: &mut Vec<Option<Iv>>) -> Result<(), Overflow> {
    for n in nodes {
        match n {
            ANode::Stmt { args } => {
                for a in args {
                    eval_site(a, env)?;
                }
            }
            ANode::Test { sides, body } => {
                for s in sides {
                    eval_site(s, env)?;
                }
                check_nodes(body, env)?;
            }
            ANode::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                let (Some(l), Some(u)) = (eval_site(lower, env)?, eval_site(upper, env)?) else {
                    continue; // never reached
                };
                if l.lo > u.hi {
                    continue; // the body never runs
                }
                // `x += step` after the last iteration, at most at x = upper.
                if u.hi > I64_MAX - i128::from(*step) {
                    return Err(Overflow {
                        operation: "loop increment (the upper bound may be INT64_MAX)".into(),
                        site: upper.what.clone(),
                    });
                }
                let saved = env[*var];
                env[*var] = Some(Iv::new(l.lo, u.hi));
                let r = check_nodes(body, env);
                env[*var] = saved;
                r?;
            }
            ANode::Guard {
                var,
                lower,
                upper,
                body,
            } => {
                let Some(mut p) = env[*var] else {
                    return Err(Overflow {
                        operation: format!("guard on unbound variable {var}"),
                        site: String::new(),
                    });
                };
                let mut reached = true;
                for (side, is_lower) in [(lower, true), (upper, false)] {
                    if let Some(s) = side {
                        match eval_site(s, env)? {
                            None => reached = false,
                            Some(v) => {
                                let r = if is_lower {
                                    p.clamp(v.lo, I64_MAX)
                                } else {
                                    p.clamp(I64_MIN, v.hi)
                                };
                                match r {
                                    Some(r) => p = r,
                                    None => reached = false,
                                }
                            }
                        }
                    }
                }
                if !reached {
                    continue;
                }
                let saved = env[*var];
                env[*var] = Some(p);
                let r = check_nodes(body, env);
                env[*var] = saved;
                r?;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The documented range.

/// The parameter range within which a generated program's integer arithmetic cannot
/// overflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SafeRange {
    /// No parameters, and no operation can overflow.
    Safe,
    /// No operation can overflow while every parameter lies in `[-bound, bound]`;
    /// `beyond` is an operation that may overflow for `bound + 1` (`None` when `bound`
    /// is `i64::MAX`).
    Bound {
        /// The largest safe magnitude of every parameter.
        bound: i64,
        /// An operation that may overflow for `bound + 1` (`None` at `i64::MAX`).
        beyond: Option<Overflow>,
    },
    /// An operation may overflow even without parameters, or with all of them 0 (or the
    /// code could not be analysed: `operation` says why).
    Unsafe(Overflow),
}

impl SafeRange {
    /// The one-line C comment for the top of the output.
    pub fn comment(&self) -> String {
        // No `*/` may end the comment early.
        let clean = |s: String| s.replace("*/", "* /");
        match self {
            SafeRange::Safe => {
                "/* integer arithmetic cannot overflow (no parameters) */".to_string()
            }
            SafeRange::Bound { bound, .. } => {
                format!("/* integer arithmetic cannot overflow for parameters in [-{bound}, {bound}] */")
            }
            SafeRange::Unsafe(o) => clean(format!("/* integer arithmetic may overflow: {o} */")),
        }
    }

    /// A sentence for `--stats`.
    pub fn describe(&self) -> String {
        match self {
            SafeRange::Safe => "overflow: no parameters, integer arithmetic cannot overflow".into(),
            SafeRange::Bound { bound, beyond } => {
                let pow = power_of_two(*bound);
                match beyond {
                    Some(o) => format!(
                        "overflow: safe for parameters in [-{bound}, {bound}]{pow}; beyond: {o}"
                    ),
                    None => format!("overflow: safe for parameters in [-{bound}, {bound}]{pow}"),
                }
            }
            SafeRange::Unsafe(o) => format!("overflow: may overflow at every parameter value: {o}"),
        }
    }
}

/// ` (= 2^k)`, ` (= 2^k - 1)` or ` (about 2^x)` with `x` rounded down, for messages.
fn power_of_two(b: i64) -> String {
    if b <= 0 {
        return String::new();
    }
    let v = b as u64;
    let above = v.next_power_of_two();
    let below = if v.is_power_of_two() { v } else { above / 2 };
    if v == below {
        format!(" (= 2^{})", v.trailing_zeros())
    } else if above - v <= 1024 {
        format!(" (= 2^{} - {})", above.trailing_zeros(), above - v)
    } else if v - below <= 1024 {
        format!(" (= 2^{} + {})", below.trailing_zeros(), v - below)
    } else {
        format!(
            " (about 2^{:.2})",
            ((b as f64).log2() * 100.0).floor() / 100.0
        )
    }
}

/// The largest `B` (bisection over `0..=i64::MAX`) such that no `int64_t` operation of
/// the C code emitted for `g` (and no `__int128` step of its root searches) can overflow
/// when every parameter lies in `[-B, B]`. Sound: intervals over-approximate every value
/// the program computes there.
///
/// ```
/// use codegen::{generate, input::parse_problem, GenOptions, overflow::*};
/// let p = parse_problem("[n] -> { S[i] : 0 <= i and i*i <= n }").unwrap();
/// let g = generate(&p, &GenOptions::default(), &cad::LiftStats::default()).unwrap();
/// match safe_parameter_bound(&g) {
///     SafeRange::Bound { bound, .. } => assert!(bound >= 1 << 40),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn safe_parameter_bound(g: &Generated) -> SafeRange {
    let c = g.emitter();
    safe_bound_of(&c, &g.nodes)
}

/// [`safe_parameter_bound`] for the nodes `c` prints.
pub fn safe_bound_of(c: &CEmitter, nodes: &[Node]) -> SafeRange {
    let prog = match Program::new(c, nodes) {
        Ok(p) => p,
        Err(e) => {
            return SafeRange::Unsafe(Overflow {
                operation: e.to_string(),
                site: "the program".into(),
            })
        }
    };
    if let Err(o) = prog.check(0) {
        return SafeRange::Unsafe(o);
    }
    if prog.nparams == 0 {
        return SafeRange::Safe;
    }
    if prog.check(i64::MAX).is_ok() {
        return SafeRange::Bound {
            bound: i64::MAX,
            beyond: None,
        };
    }
    // check(lo) passes, check(hi) fails.
    let (mut lo, mut hi) = (0i64, i64::MAX);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if prog.check(mid).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    SafeRange::Bound {
        bound: lo,
        beyond: prog.check(hi).err(),
    }
}
