//! A generated program and what it was generated from: the loop AST with its variables
//! and statements (what the printers and the checks read), the decomposition and the
//! domains (what verification reads).

use crate::ast::Node;
use crate::emit_c::CEmitter;
use cad::formula::Formula;
use cad::Cad;
use polys::{Poly, Vars};

/// A generated program and what it was generated from.
#[derive(Debug)]
pub struct Generated {
    /// Variables in loop order: parameters, then iterators outermost first.
    pub vars: Vars,
    /// Number of parameters: the first `nparams` entries of `vars`.
    pub nparams: usize,
    /// Statement names and iterator counts, in file order.
    pub statements: Vec<(String, usize)>,
    /// The loop AST (what [`Generated::emitter`] and the Rust printer print).
    pub nodes: Vec<Node>,
    /// The decomposition, unless the linear scanner produced the loops.
    pub cad: Option<Cad>,
    /// Per statement: its domain over the loop variables (with schedule equalities).
    pub formulas: Vec<Formula>,
    /// Constraints that hold wherever a domain does (context, caller's pruning).
    pub pruning: Vec<Formula>,
    /// Per statement: its macro's arguments over the loop variables, when they are not
    /// simply its iterators.
    pub calls: Option<Vec<Vec<Poly>>>,
    /// Number of schedule dimensions (loop variables after the parameters).
    pub ntime: usize,
    /// Per statement: the loop variable holding each of its iterators.
    pub stmt_args: Vec<Vec<usize>>,
    /// Per statement: its time vector over the loop variables (empty without a schedule).
    pub times: Vec<Vec<Poly>>,
    /// Where the CAD passed its budget and the guarded scan made the loops (see
    /// `GenOptions::budget`); `None` otherwise.
    pub guarded: Option<cad::StopReason>,
}

impl Generated {
    /// The C printer for this output (its variables and statements).
    pub fn emitter(&self) -> CEmitter<'_> {
        CEmitter {
            vars: &self.vars,
            nparams: self.nparams,
            statements: &self.statements,
        }
    }
}
