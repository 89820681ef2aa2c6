//! A [`Problem`] back to text in the input language, so that derived problems (tiled
//! domains from `polyscan tile`) can be read by people and by polyscan itself.

use super::ast::Problem;
use cad::formula::Formula;

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
                    (d, []) => format!("{head} : {}", d.to_text(&vars)),
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
                    let time: Vec<String> = e.time.iter().map(|t| t.to_text(&vars)).collect();
                    format!(
                        "{}[{}] -> [{}]",
                        s.name,
                        s.iterators.join(", "),
                        time.join(", ")
                    )
                })
                .collect();
            out.push_str(&format!("{prefix}{{ {} }}\n", entries.join("; ")));
        }
        out
    }
}
