//! The untiled seed domains of section 4.1.2 of the seed thesis (nonconvex2 is D3 of
//! section 2.1.2) and the triangle of the tiled cases, shared by the seed-case tests and the
//! seed benchmark.

/// A conjunction of constraints `lhs REL rhs` over variables listed outermost first.
pub struct Case {
    pub name: &'static str,
    pub vars: &'static [&'static str],
    pub constraints: &'static [&'static str],
    /// Inclusive box per variable for brute-force scans (the benchmark does not scan).
    #[allow(dead_code)]
    pub bx: &'static [(i64, i64)],
}

pub const CASES: &[Case] = &[
    Case {
        name: "nonconvex2 (D3), y above x",
        vars: &["x", "y"],
        constraints: &[
            "1 <= x",
            "x <= 7",
            "1 <= y",
            "y <= 9",
            "(y - 4)^2 - 3x + 12 >= 0",
        ],
        bx: &[(-1, 14), (-3, 12)],
    },
    Case {
        name: "nonconvex",
        vars: &["x", "y"],
        constraints: &[
            "10 <= x",
            "x <= 70",
            "10 <= y",
            "y <= 90",
            "(y - 40)^2 - 30x + 1200 >= 0",
            "(x - 70)^2 + (y - 80)^2 - 100 >= 0",
        ],
        bx: &[(8, 72), (8, 92)],
    },
    Case {
        name: "sphere",
        vars: &["x", "y", "z"],
        constraints: &["x^2 + y^2 + z^2 <= 4"],
        bx: &[(-3, 3), (-3, 3), (-3, 3)],
    },
    Case {
        name: "steinmetz",
        vars: &["a", "x", "y", "z"],
        constraints: &["x^2 + y^2 <= a^2", "y^2 + z^2 <= a^2", "x^2 + z^2 <= a^2"],
        bx: &[(-3, 3), (-4, 4), (-4, 4), (-4, 4)],
    },
    Case {
        name: "tri (untiled, parameter p)",
        vars: &["p", "x", "y"],
        constraints: &["0 <= x", "0 <= y", "y <= p - x"],
        bx: &[(-2, 5), (-2, 7), (-2, 7)],
    },
];

/// The rect-rect tiled system of Table 4.1 written out as a polynomial system with
/// parametric tile sizes w, h: x = w*t1 + o1, y = h*t2 + o2 (rectangular tiles over
/// 1 <= x <= 12, 1 <= y <= 6), tile loops outside point loops.
pub const RECT_RECT: Case = Case {
    name: "rect-rect",
    vars: &["w", "h", "t1", "t2", "o1", "o2"],
    constraints: &[
        "w >= 1",
        "h >= 1",
        "1 <= w*t1 + o1",
        "w*t1 + o1 <= 12",
        "1 <= h*t2 + o2",
        "h*t2 + o2 <= 6",
        "0 <= o1",
        "o1 <= w - 1",
        "0 <= o2",
        "o2 <= h - 1",
    ],
    bx: &[(0, 3), (0, 3), (-1, 5), (-1, 4), (-1, 3), (-1, 3)],
};
