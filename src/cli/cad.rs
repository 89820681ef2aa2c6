//! `polyscan cad`: the projection factors per level and the pruned cell tree of a domain,
//! as text or JSON.

use super::gen::generate_file;
use super::Diagnostic;
use cad::lift::{Bound, Cell, CellKind, Prune};
use clap::Args;
use polys::Vars;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;

/// Show the cylindrical algebraic decomposition behind the generated code.
#[derive(Args, Debug)]
pub struct CadArgs {
    /// Input file (see `polyscan gen --help`).
    pub file: PathBuf,
    #[command(flatten)]
    pub limits: super::gen::Limits,
    /// Decompose the tiled system (as `polyscan gen --engine cad` with these flags, but
    /// with the tile sizes as the outermost variables), with the tiling's
    /// overapproximation (Algorithm 4) as pruning formulas.
    #[command(flatten)]
    pub tiling: super::tile::TileFlags,
    /// Iterator order, outermost first, or `brown` for Brown's heuristic; with tile flags,
    /// the order of the tiled loops (default: each dimension's tile loop with its point
    /// loop inside it, the dimension with the fewest tile coordinates outermost, e.g.
    /// `t2,o2,t1,o1` for `[[1,1],[0,1]]`: far fewer cells than the loops as `--tile-order`
    /// places them, which `cad` does not follow).
    #[arg(long, value_delimiter = ',')]
    pub order: Option<Vec<String>>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print counts of cells, prunings, fallbacks and sign queries to standard error.
    #[arg(long)]
    pub stats: bool,
}

/// What every cell's text and JSON read: the projection factors (bounds name them), the
/// variables and the number of formulas (the all-false truth of cells pruned as false).
struct Tree<'a> {
    levels: &'a [Vec<polys::Poly>],
    vars: &'a Vars,
    nformulas: usize,
}

/// Writes `v` as serde_json's pretty printer does at nesting depth `depth` (its lines
/// after the first indented by the depth): for the small values around the cells.
fn json_at(v: &Value, depth: usize, out: &mut impl Write) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(v).map_err(std::io::Error::other)?;
    let mut lines = text.split('\n');
    if let Some(first) = lines.next() {
        out.write_all(first.as_bytes())?;
    }
    for l in lines {
        write!(out, "\n{:w$}{l}", "", w = 2 * depth)?;
    }
    Ok(())
}

impl<'a> Tree<'a> {
    fn of(cad: &'a cad::Cad, vars: &'a Vars) -> Tree<'a> {
        Tree {
            levels: &cad.projection.levels,
            vars,
            nformulas: cad.formulas.len(),
        }
    }

    /// The projection factors of each level as text.
    fn factor_texts(&self) -> Vec<Vec<String>> {
        self.levels
            .iter()
            .map(|l| l.iter().map(|p| p.to_text(self.vars)).collect())
            .collect()
    }

    /// The JSON form: `variables`, `projection`, `restarts` and the cell tree, as one
    /// object with its keys in order (as `serde_json` prints a map).
    fn write_json(&self, cad: &cad::Cad, out: &mut impl Write) -> std::io::Result<()> {
        write!(out, "{{\n  \"cells\": ")?;
        self.write_cells(&cad.cells, 1, out)?;
        write!(out, ",\n  \"projection\": ")?;
        json_at(&json!(self.factor_texts()), 1, out)?;
        write!(
            out,
            ",\n  \"restarts\": {},\n  \"variables\": ",
            cad.restarts
        )?;
        json_at(&json!(self.vars.names()), 1, out)?;
        writeln!(out, "\n}}")?;
        out.flush()
    }

    /// The text form: projection factors per level, then the cell tree.
    fn write_text(&self, cad: &cad::Cad, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "projection factors (level: variable: polynomials)")?;
        for (k, ps) in self.factor_texts().iter().enumerate() {
            writeln!(out, "  {k}: {}: {}", self.vars.name(k), ps.join(", "))?;
        }
        writeln!(out, "cells")?;
        for c in &cad.cells {
            self.cell_text(c, 1, out)?;
        }
        out.flush()
    }

    fn bound_text(&self, b: &Bound, level: usize) -> String {
        let (levels, vars) = (self.levels, self.vars);
        match b {
            Bound::NegInf => "-oo".into(),
            Bound::PosInf => "+oo".into(),
            Bound::Roots(refs) => {
                let r = refs[0];
                format!("root {} of {}", r.root, levels[level][r.poly].to_text(vars))
            }
        }
    }

    /// Writes the subtree of `c` as the JSON object at nesting depth `depth` that serde_json's
    /// pretty printer gives (keys in order), cell by cell: a `Value` of the whole tree took
    /// about a kilobyte a cell. `nformulas` gives the all-false truth of the cells pruned as
    /// [`Prune::False`] (which do not store it).
    fn cell_json(&self, c: &Cell, depth: usize, out: &mut impl Write) -> std::io::Result<()> {
        let truth = match c.pruned {
            Some(Prune::False) => vec![false; self.nformulas],
            _ => c.truth.clone(),
        };
        let kind = match c.kind {
            CellKind::Section => "section",
            CellKind::Sector => "sector",
        };
        let pruned = c.pruned.map(|p| match p {
            Prune::False => "false",
            Prune::NoIntegers => "no integers",
        });
        let fields = [
            ("kind", json!(kind)),
            ("level", json!(c.level)),
            ("lower", json!(self.bound_text(&c.lower, c.level))),
            ("pruned", json!(pruned)),
            ("sample", json!(c.sample.to_string())),
            ("truth", json!(truth)),
            ("upper", json!(self.bound_text(&c.upper, c.level))),
            ("variable", json!(self.vars.name(c.level))),
        ];
        let pad = 2 * (depth + 1);
        write!(out, "{{\n{:pad$}\"children\": ", "")?;
        self.write_cells(&c.children, depth + 1, out)?;
        for (key, v) in fields {
            write!(out, ",\n{:pad$}\"{key}\": ", "")?;
            json_at(&v, depth + 1, out)?;
        }
        write!(out, "\n{:w$}}}", "", w = 2 * depth)
    }

    /// Writes a stack as a JSON array at nesting depth `depth`.
    fn write_cells(
        &self,
        cells: &[Cell],
        depth: usize,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        if cells.is_empty() {
            return write!(out, "[]");
        }
        write!(out, "[")?;
        for (i, c) in cells.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(out, "{sep}\n{:w$}", "", w = 2 * (depth + 1))?;
            self.cell_json(c, depth + 1, out)?;
        }
        write!(out, "\n{:w$}]", "", w = 2 * depth)
    }

    /// Writes the subtree of `c` as indented lines, straight to `out`: the text of a large
    /// decomposition (718 MB for tri-invpar's 7.2 M cells) is never held in memory, which
    /// building it in one `String` did (a third of the peak RSS, BENCHMARKS.md, issue 23).
    fn cell_text(&self, c: &Cell, depth: usize, out: &mut impl Write) -> std::io::Result<()> {
        let x = self.vars.name(c.level);
        let range = match c.kind {
            CellKind::Section => format!("{x} = {}", self.bound_text(&c.lower, c.level)),
            CellKind::Sector => format!(
                "{} < {x} < {}",
                self.bound_text(&c.lower, c.level),
                self.bound_text(&c.upper, c.level)
            ),
        };
        let status = match (c.pruned, c.children.is_empty()) {
            (Some(Prune::False), _) => "  [pruned: no statement holds]".to_string(),
            (Some(Prune::NoIntegers), _) => "  [pruned: no integer point]".to_string(),
            (None, true) => format!("  truth {:?}", c.truth),
            (None, false) => String::new(),
        };
        let pad = 2 * depth;
        writeln!(
            out,
            "{:pad$}{range}   (sample {x} = {}){status}",
            "", c.sample
        )?;
        for k in &c.children {
            self.cell_text(k, depth + 1, out)?;
        }
        Ok(())
    }
}

pub fn run(args: CadArgs) -> Result<(), Diagnostic> {
    // On a tiled system `--order` names the tiled loops (`t2,o2,t1,o1`).
    let tiled = args.tiling.tile_sizes.is_some();
    let choices = super::gen::Choices {
        order: args.order.clone().filter(|_| !tiled),
        context: None,
        convex: false,
        // The tiled system with the sizes as the outermost parameters and the loops in
        // `Tiled::cad_loop_order` (or `--order`): several times fewer cells on the seed's
        // tilings than the file's order and the placed loops (BENCHMARKS.md, issue 23).
        tiling: super::tile::TileFlags {
            cad_order: true,
            loop_order: args.order.clone().filter(|_| tiled),
            ..args.tiling.clone()
        },
        engine: super::gen::Engine::Cad,
        separate: true,
    };
    let out = generate_file(&args.file, &choices, args.limits)?;
    let (g, stats) = (&out.generated, &out.stats);
    // The CAD engine was forced above, so the decomposition is there.
    let Some(cad) = &g.cad else {
        return Err(Diagnostic::new(
            super::ExitCode::BadInput,
            "no decomposition was built",
        ));
    };
    let tree = Tree::of(cad, &g.vars);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match args.json {
        true => tree.write_json(cad, &mut stdout),
        false => tree.write_text(cad, &mut stdout),
    };
    // A closed pipe (`| head`) ends the output; anything else is reported.
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(Diagnostic::new(
                super::ExitCode::Resource,
                format!("cannot write the decomposition: {e}"),
            ))
        }
        _ => {}
    }
    if args.stats {
        let p = &cad.projection;
        eprintln!(
            "{} cells, {} leaves, {} McCallum restarts; projection factors {} ({} restricted by equations; {} resultants, {} discriminants); {}",
            cad.cell_count(),
            cad.leaf_count(),
            cad.restarts,
            p.len(),
            p.stats.restricted,
            p.stats.resultants,
            p.stats.discriminants,
            cad::stats_summary(stats)
        );
    }
    Ok(())
}
