//! Parameter grids shared by the integration tests: every combination of some values.

/// All `n`-tuples over `values` (one empty tuple for `n = 0`), in lexicographic order of
/// the positions in `values`.
pub fn cartesian(values: &[i64], n: usize) -> Vec<Vec<i64>> {
    let mut sets = vec![vec![]];
    for _ in 0..n {
        sets = sets
            .into_iter()
            .flat_map(|s: Vec<i64>| {
                values.iter().map(move |&v| {
                    let mut t = s.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    sets
}
