//! Rendering of a solution: one kernel per line with operands, properties used and FLOPs,
//! the totals beside the naive cost, and the machine-readable JSON form.

use std::fmt::Write as _;

use super::kernels::Kernel;
// Re-exported so that `la::report::describe` keeps resolving for callers outside `la`.
pub use super::notation::describe;
use super::regions::Regions;
use super::search::Solution;

/// Human-readable report.
pub fn text(sol: &Solution) -> String {
    let env = &sol.lowered.env;
    let mut s = String::new();
    plans(&mut s, sol, true);
    for st in sol
        .lowered
        .steps
        .iter()
        .filter(|s| s.kernel != Kernel::Bind)
    {
        let uses = if st.uses.is_empty() {
            String::new()
        } else {
            format!("  [{}]", st.uses.join(", "))
        };
        let _ = writeln!(
            s,
            "{:<10} {:<40} {:>12.4e} FLOPs{uses}",
            st.kernel.name(),
            describe(env, st),
            st.flops
        );
    }
    for st in sol
        .lowered
        .steps
        .iter()
        .filter(|s| s.kernel == Kernel::Bind)
    {
        let _ = writeln!(s, "{:<10} {}", "", describe(env, st));
    }
    plans(&mut s, sol, false);
    let (total, naive) = totals(sol);
    let _ = writeln!(s, "total:  {total:.4e} FLOPs");
    let ratio = if total > 0.0 { naive / total } else { 1.0 };
    let _ = writeln!(
        s,
        "naive:  {naive:.4e} FLOPs (left to right, explicit inverses{}; {ratio:.2}x)",
        if sol.elementwise.is_empty() {
            ""
        } else {
            ", element-wise statements as written"
        }
    );
    if let Some((poly, nominal)) = &sol.symbolic {
        let at: Vec<String> = nominal.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        let _ = writeln!(s, "symbolic cost: {poly} FLOPs");
        let _ = writeln!(s, "  (sequence chosen at nominal sizes {})", at.join(", "));
    }
    let _ = write!(
        s,
        "search: first solution {:.4e} FLOPs after {:.3} ms, final after {:.3} ms ({} states)",
        sol.first_flops,
        sol.first_solution_s * 1e3,
        sol.final_solution_s * 1e3,
        sol.states
    );
    s
}

/// The element-wise statements' plans that run `before` the kernel sequence (or after it).
fn plans(s: &mut String, sol: &Solution, before: bool) {
    let env = &sol.lowered.env;
    for pl in sol.elementwise.iter().filter(|p| p.before == before) {
        let _ = writeln!(
            s,
            "SUMPRODUCT {} := {}\n{:<10} {:.4e} FLOPs as written, {:.4e} chosen ({} the kernel sequence)",
            env.entities[pl.lhs].name,
            polyscan_sumproduct::show::show(&pl.optimised.plan),
            "",
            pl.optimised.before,
            pl.optimised.after,
            if pl.before { "before" } else { "after" }
        );
        let line = crate::elementwise::kernels::line(&pl.kernels);
        if !line.is_empty() {
            let _ = writeln!(s, "{:<10} {line}", "");
        }
    }
}

/// FLOPs of the chosen sequence and of the naive evaluation, element-wise plans included.
fn totals(sol: &Solution) -> (f64, f64) {
    let ew = |f: fn(&polyscan_sumproduct::Optimised) -> f64| -> f64 {
        sol.elementwise.iter().map(|p| f(&p.optimised)).sum()
    };
    (
        sol.lowered.flops + ew(|o| o.after),
        sol.naive_flops + ew(|o| o.before),
    )
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

/// The `--json` form.
pub fn json(sol: &Solution) -> String {
    let env = &sol.lowered.env;
    let ks: Vec<String> = sol
        .lowered
        .steps
        .iter()
        .filter(|s| s.kernel != Kernel::Bind)
        .map(|st| {
            let uses: Vec<String> = st.uses.iter().map(|u| json_str(u)).collect();
            format!(
                "{{\"name\": {}, \"flops\": {}, \"operation\": {}, \"properties\": [{}]}}",
                json_str(st.kernel.name()),
                json_num(st.flops),
                json_str(&describe(env, st)),
                uses.join(", ")
            )
        })
        .collect();
    let symbolic = match &sol.symbolic {
        Some((poly, nominal)) => {
            let at: Vec<String> = nominal
                .iter()
                .map(|(n, v)| format!("{}: {v}", json_str(n)))
                .collect();
            format!(
                ", \"symbolic_flops\": {}, \"nominal_sizes\": {{{}}}",
                json_str(poly),
                at.join(", ")
            )
        }
        None => String::new(),
    };
    let elementwise = if sol.elementwise.is_empty() {
        String::new()
    } else {
        let st: Vec<String> = sol
            .elementwise
            .iter()
            .map(|p| {
                format!(
                    "{{\"output\": {}, \"plan\": {}, \"flops_as_written\": {}, \"flops\": {}, \"before_kernels\": {}, \"kernels\": {}}}",
                    json_str(&env.entities[p.lhs].name),
                    json_str(&polyscan_sumproduct::show::show(&p.optimised.plan)),
                    json_num(p.optimised.before),
                    json_num(p.optimised.after),
                    p.before,
                    crate::elementwise::kernels::json(&p.kernels)
                )
            })
            .collect();
        format!(", \"elementwise\": [{}]", st.join(", "))
    };
    let (total, naive) = totals(sol);
    format!(
        "{{\"kernels\": [{}], \"flops\": {}, \"naive_flops\": {}, \"first_solution_s\": {}, \"final_solution_s\": {}{symbolic}{elementwise}}}",
        ks.join(", "),
        json_num(total),
        json_num(naive),
        json_num(sol.first_solution_s),
        json_num(sol.final_solution_s)
    )
}

/// The regions of the size space and their cheapest sequences, as text.
pub fn regions_text(r: &Regions) -> String {
    let mut s = String::from("regions of the open sizes (cheapest sequence in each):\n");
    for reg in &r.regions {
        let c = &r.candidates[reg.candidate];
        let _ = writeln!(
            s,
            "  {}: {}   [{} FLOPs]",
            reg.description,
            c.kernels,
            c.cost.to_text()
        );
    }
    s
}

/// The same as JSON: `{"candidates": [...], "regions": [{"where": ..., "candidate": ...}]}`.
pub fn regions_json(r: &Regions) -> String {
    let q = |t: &str| format!("\"{}\"", t.replace('\\', "\\\\").replace('"', "\\\""));
    let cands: Vec<String> = r
        .candidates
        .iter()
        .map(|c| {
            format!(
                "{{\"kernels\": {}, \"flops\": {}}}",
                q(&c.kernels),
                q(&c.cost.to_text())
            )
        })
        .collect();
    let regs: Vec<String> = r
        .regions
        .iter()
        .map(|g| {
            format!(
                "{{\"where\": {}, \"candidate\": {}}}",
                q(&g.description),
                g.candidate
            )
        })
        .collect();
    format!(
        "{{\"candidates\": [{}], \"regions\": [{}]}}",
        cands.join(", "),
        regs.join(", ")
    )
}
