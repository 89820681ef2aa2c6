//! A dimension as the emitted C sees it: a number, or a C expression in sizes the C API
//! takes at run time (sizes declared `?`), with its nominal value, at which the sequence
//! was chosen and which the emitter's structural choices (a dimension of 1, a square
//! operand) read. The C API checks at run time that those choices still hold.

use std::fmt;
use std::ops::{Add, Mul, Sub};

/// A dimension: `expr` is `None` for a number (the nominal value itself).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Dim {
    nominal: u64,
    expr: Option<String>,
}

impl Dim {
    /// A number.
    pub(super) fn lit(v: u64) -> Dim {
        Dim {
            nominal: v,
            expr: None,
        }
    }

    /// A size passed at run time as the C variable `var`, `nominal` where the sequence
    /// was chosen.
    pub(super) fn var(var: String, nominal: u64) -> Dim {
        Dim {
            nominal,
            expr: Some(var),
        }
    }

    /// The value the sequence was chosen at (for a number, the number).
    pub(super) fn nominal(&self) -> u64 {
        self.nominal
    }

    /// Whether the dimension is a number, the same in every call.
    pub(super) fn is_lit(&self) -> bool {
        self.expr.is_none()
    }

    /// The dimension, at least 1: sizes passed at run time are checked to be positive,
    /// so a product of them needs no guard.
    pub(super) fn max1(&self) -> Dim {
        if self.is_lit() {
            Dim::lit(self.nominal.max(1))
        } else {
            self.clone()
        }
    }

    /// The larger of two dimensions (`PS_MAX` in C where either is not a number).
    pub(super) fn max(&self, o: &Dim) -> Dim {
        match (self.is_lit(), o.is_lit()) {
            (true, true) => Dim::lit(self.nominal.max(o.nominal)),
            _ if self.is_lit() && self.nominal == 0 => o.clone(),
            _ if o.is_lit() && o.nominal == 0 => self.clone(),
            _ if self == o => self.clone(),
            _ => Dim::var(format!("PS_MAX({self}, {o})"), self.nominal.max(o.nominal)),
        }
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.expr {
            Some(e) => f.write_str(e),
            None => write!(f, "{}", self.nominal),
        }
    }
}

/// Structural comparisons (`== 1`) read the nominal value; the C API checks that a size
/// passed at run time is 1 exactly where it was 1 when the sequence was chosen.
impl PartialEq<u64> for Dim {
    fn eq(&self, o: &u64) -> bool {
        self.nominal == *o
    }
}

impl Mul for &Dim {
    type Output = Dim;
    fn mul(self, o: &Dim) -> Dim {
        match (self.is_lit(), o.is_lit()) {
            (true, true) => Dim::lit(self.nominal * o.nominal),
            (true, false) if self.nominal == 1 => o.clone(),
            (false, true) if o.nominal == 1 => self.clone(),
            _ => Dim::var(format!("({self} * {o})"), self.nominal * o.nominal),
        }
    }
}

impl Mul for Dim {
    type Output = Dim;
    fn mul(self, o: Dim) -> Dim {
        &self * &o
    }
}

impl Add for &Dim {
    type Output = Dim;
    fn add(self, o: &Dim) -> Dim {
        match (self.is_lit(), o.is_lit()) {
            (true, true) => Dim::lit(self.nominal + o.nominal),
            (true, false) if self.nominal == 0 => o.clone(),
            (false, true) if o.nominal == 0 => self.clone(),
            _ => Dim::var(format!("({self} + {o})"), self.nominal + o.nominal),
        }
    }
}

impl Add for Dim {
    type Output = Dim;
    fn add(self, o: Dim) -> Dim {
        &self + &o
    }
}

/// `d - k` for the index reversals of views (`n - 1 - i`); dimensions are at least 1.
impl Sub<u64> for &Dim {
    type Output = Dim;
    fn sub(self, k: u64) -> Dim {
        if self.is_lit() {
            Dim::lit(self.nominal.saturating_sub(k))
        } else if k == 0 {
            self.clone()
        } else {
            Dim::var(format!("({self} - {k})"), self.nominal.saturating_sub(k))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_fold_and_sizes_print() {
        let n = Dim::var("ps_z_n".into(), 1000);
        let two = Dim::lit(2);
        assert_eq!((&two * &Dim::lit(3)).to_string(), "6");
        assert_eq!((&n * &Dim::lit(1)).to_string(), "ps_z_n");
        assert_eq!((&n * &two).to_string(), "(ps_z_n * 2)");
        assert_eq!((&n * &two).nominal(), 2000);
        assert_eq!((&Dim::lit(0) + &n).to_string(), "ps_z_n");
        assert_eq!((&n - 1).to_string(), "(ps_z_n - 1)");
        assert_eq!((&Dim::lit(5) - 1).to_string(), "4");
        assert_eq!(n.max(&Dim::lit(0)), n);
        assert_eq!(n.max(&two).to_string(), "PS_MAX(ps_z_n, 2)");
        assert_ne!(n, Dim::lit(1000), "a size is not its nominal value");
        assert!(n == 1000);
    }
}
