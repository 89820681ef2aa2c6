//! [`tiling::Tiled::sizes_first`] and [`tiling::Tiled::with_loop_order`] only rename
//! variables: every formula of the reordered system holds at a point exactly where the
//! original one holds at the same point with its coordinates in the original order
//! (direct evaluation over a box of integer points).

use cad::formula::Formula;
use polys::{Int, Vars};
use tiling::{tile, TileOrder, TileSpec};

/// Every integer point of `[-r, r]^n`.
fn box_points(n: usize, r: i64) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p| {
                (-r..=r).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

fn check(params: &[&str], domain: &str, shape: Option<&str>, order: TileOrder) {
    let np = params.len();
    let mut names: Vec<&str> = params.to_vec();
    names.extend(["x", "y"]);
    let vars = Vars::from_names(names);
    let parts: Vec<&str> = domain.split(" and ").collect();
    let d = Formula::conjunction(&vars, &parts).unwrap();
    let spec = TileSpec::parse(shape, "w,h").unwrap();
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let orig = tile(&params, &[d], &Formula::True, &spec, order).unwrap();
    // Sizes first, and the loops reversed: t1 t2 o1 o2 -> o2 o1 t2 t1 (or interleaved's).
    let reversed: Vec<String> = orig.loops.iter().rev().cloned().collect();
    let moved = orig
        .clone()
        .sizes_first()
        .with_loop_order(&reversed)
        .unwrap();
    assert_eq!(moved.params[..2], ["w".to_string(), "h".to_string()]);
    assert_eq!(moved.params[2..], params[..]);
    assert!(orig.clone().with_loop_order(&reversed[1..]).is_err());
    let formulas = |t: &tiling::Tiled| -> Vec<Formula> {
        let mut f = t.domains.clone();
        f.push(t.context.clone());
        f.extend(t.overapprox.iter().cloned());
        f
    };
    let (fo, fm) = (formulas(&orig), formulas(&moved));
    assert_eq!(fo.len(), fm.len());
    let n = orig.vars.len();
    let mut differing = 0;
    let mut holding = 0;
    for p in box_points(n, 2) {
        let point: Vec<Int> = p.iter().map(|&v| Int::from(v)).collect();
        // Original order: params, w, h, loops; moved: w, h, params, loops.
        let mut permuted = point[np..np + 2].to_vec();
        permuted.extend_from_slice(&point[..np]);
        permuted.extend(point[np + 2..].iter().rev().cloned());
        for (a, b) in fo.iter().zip(&fm) {
            let (x, y) = (a.eval_int(&point), b.eval_int(&permuted));
            differing += usize::from(x != y);
            holding += usize::from(x);
        }
    }
    assert_eq!(differing, 0);
    // The box is not trivially outside every formula.
    assert!(holding > 0);
}

#[test]
fn rectangles_of_a_triangle() {
    check(
        &["p"],
        "x >= 0 and y >= 0 and p - x - y >= 0",
        None,
        TileOrder::TilesOutside,
    );
    check(
        &["p"],
        "x >= 0 and y >= 0 and p - x - y >= 0",
        None,
        TileOrder::Interleaved,
    );
}

#[test]
fn parallelograms_with_two_parameters() {
    check(
        &["n", "m"],
        "x >= 0 and y >= 0 and n - x >= 0 and m - y >= 0",
        Some("[[1,-1],[0,1]]"),
        TileOrder::TilesOutside,
    );
}

/// [`tiling::Tiled::cad_loop_order`]: tile and point loop of a dimension together, the
/// dimension with the fewest tile coordinates in its original coordinate (non-zeros of
/// its row of K) outermost, the later dimension first among equals.
#[test]
fn cad_loop_order_puts_the_dimension_with_fewer_tile_coordinates_outside() {
    let order_of = |shape: Option<&str>, sizes: &str, iterators: &[&str], domain: &str| {
        let mut names = vec!["n"];
        names.extend(iterators);
        let vars = Vars::from_names(names);
        let parts: Vec<&str> = domain.split(" and ").collect();
        let d = Formula::conjunction(&vars, &parts).unwrap();
        let spec = TileSpec::parse(shape, sizes).unwrap();
        let t = tile(
            &["n".to_string()],
            &[d],
            &Formula::True,
            &spec,
            TileOrder::TilesOutside,
        )
        .unwrap();
        let order = t.cad_loop_order();
        // A permutation of the loops, which the system accepts.
        assert!(t.clone().with_loop_order(&order).is_ok());
        order.join(",")
    };
    let square = "0 <= x and x <= n and 0 <= y and y <= n";
    assert_eq!(order_of(None, "w,h", &["x", "y"], square), "t2,o2,t1,o1");
    assert_eq!(
        order_of(Some("[[1,1],[0,1]]"), "w,h", &["x", "y"], square),
        "t2,o2,t1,o1"
    );
    assert_eq!(
        order_of(Some("[[1,0],[1,1]]"), "w,h", &["x", "y"], square),
        "t1,o1,t2,o2"
    );
    assert_eq!(
        order_of(Some("[[1,-1],[0,1]]"), "w,h", &["x", "y"], square),
        "t2,o2,t1,o1"
    );
    let cube = "0 <= x and x <= n and 0 <= y and y <= n and 0 <= z and z <= n";
    assert_eq!(
        order_of(
            Some("[[1,1,1],[0,1,0],[0,1,1]]"),
            "a,b,c",
            &["x", "y", "z"],
            cube
        ),
        "t2,o2,t3,o3,t1,o1"
    );
}
