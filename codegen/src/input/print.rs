//! A [`Problem`] back to text in the input language, so that derived problems (tiled
//! domains from `polyscan tile`) can be read by people and by polyscan itself.

use super::ast::Problem;
use cad::formula::{Atom, Formula, Rel};
use polys::Poly;

impl Problem {
    /// The problem as input text: the statements' set, then the context set if there is
    /// one. Schedules are printed as a map.
    ///
    /// ```
    /// use codegen::input::parse_problem;
    /// let p = parse_problem("[n] -> { S[i] : 0 <= i < n }").unwrap();
    /// let again = parse_problem(&p.to_text()).unwrap();
    /// assert_eq!(again.statements[0].domain, p.statements[0].domain);
    /// ```
    pub fn to_text(&self) -> String {
        let vars = self.vars();
        let prefix = if self.params.is_empty() {
            String::new()
        } else {
            format!("[{}] -> ", self.params.join(", "))
        };
        let stmts: Vec<String> = self
            .statements
            .iter()
            .map(|s| {
                let head = format!("{}[{}]", s.name, s.iterators.join(", "));
                // Divisions print as the quantified variables they are: their defining
                // constraints are part of the domain.
                let own = s.domain_vars(&self.params);
                match (&s.domain, s.existentials.as_slice()) {
                    (Formula::True, []) => head,
                    (d, []) => format!("{head} : {}", d.to_text(&own)),
                    (d, quantified) => {
                        let names: Vec<&str> = quantified.iter().map(|e| e.name.as_str()).collect();
                        format!("{head} : exists {} : {}", names.join(", "), d.to_text(&own))
                    }
                }
            })
            .collect();
        let mut out = format!("{prefix}{{ {} }}\n", stmts.join(";\n    "));
        if self.context != Formula::True {
            out.push_str(&format!(
                "{prefix}{{ : {} }}\n",
                self.context.to_text(&vars)
            ));
        }
        if let Some(schedule) = &self.schedule {
            let entries: Vec<String> = schedule
                .iter()
                .map(|e| {
                    let s = &self.statements[e.statement];
                    let own = e.vars(&self.params);
                    let first_output = self.params.len() + e.iterators.len();
                    // A position whose time is its own output variable prints the name
                    // (its definition, if any, is in the constraint); so does one whose
                    // time reads a quantified variable, defined inside the `exists`.
                    let first_q = first_output + e.outputs.len();
                    let mut constraint = vec![e.constraint.clone()];
                    let time: Vec<String> = e
                        .time
                        .iter()
                        .enumerate()
                        .map(|(l, t)| {
                            let o = Poly::var(first_output + l);
                            if *t == o {
                                e.outputs[l].clone()
                            } else if t.vars().iter().any(|&v| v >= first_q) {
                                constraint.push(Formula::Atom(Atom::compare(&o, Rel::Eq, t)));
                                e.outputs[l].clone()
                            } else {
                                t.to_text(&own)
                            }
                        })
                        .collect();
                    let constraint = Formula::and(constraint);
                    let head = format!(
                        "{}[{}] -> [{}]",
                        s.name,
                        e.iterators.join(", "),
                        time.join(", ")
                    );
                    match (&constraint, e.existentials.as_slice()) {
                        (Formula::True, []) => head,
                        (c, []) => format!("{head} : {}", c.to_text(&own)),
                        (c, quantified) => {
                            let names: Vec<&str> =
                                quantified.iter().map(|q| q.name.as_str()).collect();
                            format!("{head} : exists {} : {}", names.join(", "), c.to_text(&own))
                        }
                    }
                })
                .collect();
            out.push_str(&format!("{prefix}{{ {} }}\n", entries.join("; ")));
        }
        out
    }
}
