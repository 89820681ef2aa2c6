//! Block matrices `[A, B; C, D]` (issue 22) evaluated by block rules rather than by
//! assembling them first: a formula with block matrices is expanded into a grid of ordinary
//! formulas, one per block of its value. Sums and products go blockwise (Rocklin's
//! `[A B; C D][E F; G K] = [AE + BG, AF + BK; CE + DG, CF + DK]`), transposes swap the
//! grid, and the inverse of a 2 x 2 block matrix is written with the Schur complement
//! `S = D - C A^-1 B` of a cheaply invertible A (diagonal, block-diagonal, triangular,
//! orthogonal; else of D if that one is, else of A):
//! `[A^-1 + A^-1 B S^-1 C A^-1, -A^-1 B S^-1; -S^-1 C A^-1, S^-1]`, so the search sees
//! only inverses it solves with (an A^-1 B S^-1 chain is one memoised value). A larger
//! grid is partitioned into 2 x 2 (its first diagonal block against the rest, or the rest
//! against its last when only that one is cheap) and inverted by the same rule, the
//! parts' inverses recursively. Each block of
//! an assignment's value becomes a statement of its own whose value goes to a hidden
//! entity; an [`Assembly`] copies them into the output once the last one is computed.

use super::ast::{Expr, Program};
use super::error::LaError;
use super::infer::sum_props;
use super::norm::{normalise, Env, Sum};
use super::properties::Prop;

/// A formula's value split into blocks: `cells[i][j]` is `rows[i] x cols[j]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Rows of each block row.
    pub rows: Vec<u64>,
    /// Columns of each block column.
    pub cols: Vec<u64>,
    /// The blocks, as formulas without block matrices.
    pub cells: Vec<Vec<Expr>>,
}

/// The copy of the blocks of an assignment's value into its output.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembly {
    /// The output entity.
    pub out: usize,
    /// The hidden entity holding each block, by block row and column.
    pub cells: Vec<Vec<usize>>,
}

impl Assembly {
    /// The entity whose statement comes last: the assembly follows its binding.
    pub fn last(&self) -> Option<usize> {
        self.cells.iter().flatten().copied().max()
    }
}

/// Most formula nodes an expansion may produce: inverses of inverses of block matrices
/// grow geometrically, and are refused beyond this.
const MAX_NODES: usize = 20_000;

/// Number of nodes of a formula, counted up to `limit` (then `limit`), without recursion.
fn nodes(e: &Expr, limit: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        n += 1;
        if n >= limit {
            return limit;
        }
        match e {
            Expr::Operand(_) => {}
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Expr::Neg(a) | Expr::Trans(a) | Expr::Inv(a) => stack.push(a),
            Expr::Block(rows) => stack.extend(rows.iter().flatten()),
        }
    }
    n
}

/// Whether the formula contains a block matrix.
pub fn has_blocks(e: &Expr) -> bool {
    match e {
        Expr::Block(_) => true,
        Expr::Operand(_) => false,
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => has_blocks(a) || has_blocks(b),
        Expr::Neg(a) | Expr::Trans(a) | Expr::Inv(a) => has_blocks(a),
    }
}

fn single(e: Expr, (r, c): (u64, u64)) -> Grid {
    Grid {
        rows: vec![r],
        cols: vec![c],
        cells: vec![vec![e]],
    }
}

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn mul(a: Expr, b: Expr) -> Expr {
    Expr::Mul(bx(a), bx(b))
}

fn sizes(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// Whether a block (a formula without block matrices) is cheap to solve with: its
/// properties make its inverse a diagonal, block-by-block, triangular or transposed solve.
fn cheaply_invertible(p: &Program, env: &Env, e: &Expr) -> bool {
    let (r, c) = p.shape(e);
    if r == 1 && c == 1 {
        return true;
    }
    let Ok(s) = normalise(p, env, e) else {
        return false;
    };
    let q = sum_props(env, &s);
    q.has(Prop::Diagonal)
        || q.has(Prop::BlockDiagonal)
        || q.is_triangular()
        || q.has(Prop::Orthogonal)
}

/// Expands a formula into the grid of its value's blocks (a formula without block
/// matrices is a 1 x 1 grid). Errors say which partitions do not fit, or that the
/// expansion grows beyond [`MAX_NODES`] formula nodes.
pub fn expand(p: &Program, env: &Env, e: &Expr) -> Result<Grid, String> {
    let g = expand_unchecked(p, env, e)?;
    let mut total = 0;
    for x in g.cells.iter().flatten() {
        total += nodes(x, MAX_NODES + 1);
        if total > MAX_NODES {
            return Err(format!(
                "the formula expands to more than {MAX_NODES} nodes by the block rules (nested inverses of block matrices?)"
            ));
        }
    }
    Ok(g)
}

fn expand_unchecked(p: &Program, env: &Env, e: &Expr) -> Result<Grid, String> {
    Ok(match e {
        Expr::Operand(_) => single(e.clone(), p.shape(e)),
        Expr::Block(rows) => {
            let mut cells = Vec::new();
            for row in rows {
                let mut out = Vec::new();
                for x in row {
                    let g = expand(p, env, x)?;
                    if g.rows.len() != 1 || g.cols.len() != 1 {
                        return Err("a block of a block matrix is itself split into blocks".into());
                    }
                    out.extend(g.cells.into_iter().flatten());
                }
                cells.push(out);
            }
            let rows_of: Vec<u64> = cells
                .iter()
                .filter_map(|row| row.first())
                .map(|x| p.shape(x).0)
                .collect();
            let cols_of: Vec<u64> = cells
                .first()
                .map(|row| row.iter().map(|x| p.shape(x).1).collect())
                .unwrap_or_default();
            Grid {
                rows: rows_of,
                cols: cols_of,
                cells,
            }
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => add(
            expand(p, env, a)?,
            expand(p, env, b)?,
            matches!(e, Expr::Sub(..)),
        )?,
        Expr::Neg(a) => neg(expand(p, env, a)?),
        Expr::Trans(a) => {
            let g = expand(p, env, a)?;
            let (nr, nc) = (g.cols.len(), g.rows.len());
            let mut cells: Vec<Vec<Expr>> = Vec::with_capacity(nr);
            for j in 0..nr {
                cells.push(
                    (0..nc)
                        .map(|i| Expr::Trans(bx(g.cells[i][j].clone())))
                        .collect(),
                );
            }
            Grid {
                rows: g.cols,
                cols: g.rows,
                cells,
            }
        }
        Expr::Mul(a, b) => product(expand(p, env, a)?, expand(p, env, b)?)?,
        Expr::Inv(a) => {
            let g = expand(p, env, a)?;
            if g.rows != g.cols {
                return Err(format!(
                    "only block matrices with square diagonal blocks are inverted (by Schur complements); this one has blocks of rows [{}] and columns [{}]",
                    sizes(&g.rows),
                    sizes(&g.cols)
                ));
            }
            inverse(p, env, g)?
        }
    })
}

/// The blockwise sum (or difference, `sub`) of two grids split the same way.
fn add(ga: Grid, gb: Grid, sub: bool) -> Result<Grid, String> {
    if ga.rows != gb.rows || ga.cols != gb.cols {
        return Err(format!(
            "a sum of matrices split differently: blocks of rows [{}] and columns [{}] against rows [{}] and columns [{}]",
            sizes(&ga.rows),
            sizes(&ga.cols),
            sizes(&gb.rows),
            sizes(&gb.cols)
        ));
    }
    let cells = ga
        .cells
        .into_iter()
        .zip(gb.cells)
        .map(|(ra, rb)| {
            ra.into_iter()
                .zip(rb)
                .map(|(x, y)| {
                    if sub {
                        Expr::Sub(bx(x), bx(y))
                    } else {
                        Expr::Add(bx(x), bx(y))
                    }
                })
                .collect()
        })
        .collect();
    Ok(Grid { cells, ..ga })
}

/// Every block negated.
fn neg(g: Grid) -> Grid {
    let cells = g
        .cells
        .into_iter()
        .map(|r| r.into_iter().map(|x| Expr::Neg(bx(x))).collect())
        .collect();
    Grid { cells, ..g }
}

/// The blockwise product (a 1 x 1 side that is a scalar scales every block of the other).
fn product(ga: Grid, gb: Grid) -> Result<Grid, String> {
    let scalar = |g: &Grid| g.rows == [1] && g.cols == [1];
    if scalar(&ga) || scalar(&gb) {
        // A scaling: every block of the other side.
        let (s, g, left) = if scalar(&ga) {
            (ga.cells[0][0].clone(), gb, true)
        } else {
            (gb.cells[0][0].clone(), ga, false)
        };
        let cells = g
            .cells
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|x| {
                        if left {
                            mul(s.clone(), x)
                        } else {
                            mul(x, s.clone())
                        }
                    })
                    .collect()
            })
            .collect();
        return Ok(Grid { cells, ..g });
    }
    if ga.cols != gb.rows {
        return Err(format!(
            "a product of matrices split differently: the left one's blocks of columns [{}] against the right one's blocks of rows [{}]",
            sizes(&ga.cols),
            sizes(&gb.rows)
        ));
    }
    let mut cells = Vec::new();
    for ra in &ga.cells {
        let mut row = Vec::new();
        for j in 0..gb.cols.len() {
            let mut acc: Option<Expr> = None;
            for (k, x) in ra.iter().enumerate() {
                let t = mul(x.clone(), gb.cells[k][j].clone());
                acc = Some(match acc {
                    None => t,
                    Some(s) => Expr::Add(bx(s), bx(t)),
                });
            }
            row.push(acc.ok_or("an empty block matrix")?);
        }
        cells.push(row);
    }
    Ok(Grid {
        rows: ga.rows,
        cols: gb.cols,
        cells,
    })
}

/// The block rows `r` and block columns `c` of a grid.
fn part(g: &Grid, r: std::ops::Range<usize>, c: std::ops::Range<usize>) -> Grid {
    Grid {
        rows: g.rows[r.clone()].to_vec(),
        cols: g.cols[c.clone()].to_vec(),
        cells: g.cells[r]
            .iter()
            .map(|row| row[c.clone()].to_vec())
            .collect(),
    }
}

/// The grid `[X11, X12; X21, X22]` of four grids that fit together.
fn join(x11: Grid, x12: Grid, x21: Grid, x22: Grid) -> Grid {
    let mut cells = Vec::new();
    for (a, b) in x11.cells.into_iter().zip(x12.cells) {
        cells.push(a.into_iter().chain(b).collect());
    }
    for (c, d) in x21.cells.into_iter().zip(x22.cells) {
        cells.push(c.into_iter().chain(d).collect());
    }
    Grid {
        rows: x11.rows.into_iter().chain(x21.rows).collect(),
        cols: x11.cols.into_iter().chain(x12.cols).collect(),
        cells,
    }
}

/// Formula nodes of a whole grid, counted up to `limit`.
fn grid_nodes(g: &Grid, limit: usize) -> usize {
    let mut total = 0;
    for x in g.cells.iter().flatten() {
        total += nodes(x, limit + 1);
        if total > limit {
            return limit + 1;
        }
    }
    total
}

/// The inverse of a grid with square diagonal blocks. A 1 x 1 grid is its block's
/// inverse. A larger one is partitioned into `[A, B; C, D]` with A the first diagonal
/// block and D the rest, or (when only the last diagonal block is cheaply invertible) A
/// all but the last and D the last, and inverted by the Schur complement of the cheap side
/// (see [`schur`]), the inverses of the parts (A or D, and the complement) recursively.
/// A 2 x 2 grid is so the Schur rule of the module's header; a 3 x 3 one, of its first
/// block, `[[A11], [A12, A13]; [A21; A31], [A22, A23; A32, A33]]`.
fn inverse(p: &Program, env: &Env, g: Grid) -> Result<Grid, String> {
    let n = g.rows.len();
    if n == 1 {
        return Ok(single(
            Expr::Inv(bx(g.cells[0][0].clone())),
            (g.rows[0], g.cols[0]),
        ));
    }
    let first = cheaply_invertible(p, env, &g.cells[0][0]);
    let last = cheaply_invertible(p, env, &g.cells[n - 1][n - 1]);
    // The cheap block is the pivot; of the first one when neither is (as for 2 x 2).
    let (k, pivot_d) = if !first && last {
        (n - 1, true)
    } else {
        (1, false)
    };
    let parts = [
        part(&g, 0..k, 0..k),
        part(&g, 0..k, k..n),
        part(&g, k..n, 0..k),
        part(&g, k..n, k..n),
    ];
    let x = schur(p, env, parts, pivot_d)?;
    if grid_nodes(&x, MAX_NODES) > MAX_NODES {
        return Err(format!(
            "the formula expands to more than {MAX_NODES} nodes by the block rules (nested inverses of block matrices, or the inverse of a large grid of blocks by recursive Schur complements)"
        ));
    }
    Ok(x)
}

/// The inverse of `[A, B; C, D]` (grids, A and D with square diagonal blocks) by the
/// Schur complement of A, `S = D - C A^-1 B`: `[A^-1 + A^-1 B S^-1 C A^-1, -A^-1 B S^-1;
/// -S^-1 C A^-1, S^-1]`; or of D (`pivot_d`), `T = A - B D^-1 C`: `[T^-1, -T^-1 B D^-1;
/// -D^-1 C T^-1, D^-1 + D^-1 C T^-1 B D^-1]`.
fn schur(p: &Program, env: &Env, [a, b, c, d]: [Grid; 4], pivot_d: bool) -> Result<Grid, String> {
    // Pivoting on D is pivoting on A of `[D, C; B, A]`, the partition's order reversed:
    // its inverse's blocks in reversed order too.
    let (a, b, c, d) = if pivot_d { (d, c, b, a) } else { (a, b, c, d) };
    let ai = inverse(p, env, a)?;
    let s = add(
        d,
        product(product(c.clone(), ai.clone())?, b.clone())?,
        true,
    )?;
    let si = inverse(p, env, s)?;
    let ai_b_si = product(product(ai.clone(), b)?, si.clone())?;
    let si_c_ai = product(product(si.clone(), c.clone())?, ai.clone())?;
    let x11 = add(
        ai.clone(),
        product(ai_b_si.clone(), product(c, ai)?)?,
        false,
    )?;
    let (x12, x21, x22) = (neg(ai_b_si), neg(si_c_ai), si);
    Ok(if pivot_d {
        join(x22, x21, x12, x11)
    } else {
        join(x11, x12, x21, x22)
    })
}

/// The statements the search starts from: each assignment normalised, those with block
/// matrices expanded into one statement per block of their value, whose hidden entities
/// (named `X[i,j]`) `env` receives together with the [`Assembly`] into the output.
pub fn statements(p: &Program, env: &mut Env) -> Result<Vec<(usize, Sum)>, LaError> {
    let mut out = Vec::new();
    for a in &p.assignments {
        if !has_blocks(&a.rhs) {
            out.push((a.lhs, normalise(p, env, &a.rhs)?));
            continue;
        }
        let g = expand(p, env, &a.rhs).map_err(|m| LaError::at(a.pos.line, a.pos.column, m))?;
        let name = env.entities[a.lhs].name.clone();
        let mut cells = Vec::new();
        for (i, row) in g.cells.iter().enumerate() {
            let mut ids = Vec::new();
            for (j, x) in row.iter().enumerate() {
                let s = normalise(p, env, x)?;
                let props = sum_props(env, &s);
                let id = env.add(
                    format!("{name}[{},{}]", i + 1, j + 1),
                    g.rows[i],
                    g.cols[j],
                    props,
                );
                out.push((id, s));
                ids.push(id);
            }
            cells.push(ids);
        }
        env.assemblies.push(Assembly { out: a.lhs, cells });
    }
    Ok(out)
}
