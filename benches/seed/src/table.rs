//! Numbers as the tables show them: times with a precision that suits their size, and
//! ratios with two significant digits however small.

use std::time::Duration;

/// A duration in milliseconds or seconds.
pub fn ms(d: Duration) -> String {
    fmt_ms(d.as_secs_f64() * 1e3)
}

/// Milliseconds, switching to seconds from one second on.
pub fn fmt_ms(v: f64) -> String {
    if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else if v >= 10.0 {
        format!("{v:.0} ms")
    } else if v >= 1.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.3} ms")
    }
}

/// `a / b`, or `-` when it is not a number.
pub fn ratio(a: f64, b: f64) -> String {
    if b <= 0.0 || !a.is_finite() || !b.is_finite() {
        "-".into()
    } else {
        let r = a / b;
        if r >= 10.0 {
            format!("{r:.0}")
        } else if r >= 0.01 {
            format!("{r:.2}")
        } else {
            format!("{r:.1e}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_ratios_read_well() {
        assert_eq!(fmt_ms(0.1234), "0.123 ms");
        assert_eq!(fmt_ms(2.34), "2.3 ms");
        assert_eq!(fmt_ms(123.4), "123 ms");
        assert_eq!(fmt_ms(2345.0), "2.35 s");
        assert_eq!(ratio(1.0, 0.0), "-");
        assert_eq!(ratio(30.0, 2.0), "15");
        assert_eq!(ratio(1.0, 4.0), "0.25");
        assert_eq!(ratio(1.0, 4000.0), "2.5e-4");
    }
}
