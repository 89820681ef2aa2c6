//! Tests of the polynomial parser: plain polynomials, and the embedding's divisions.

use super::*;

fn parse(s: &str) -> Result<String, ParseError> {
    let mut v = Vars::new();
    Poly::parse(s, &mut v).map(|p| p.to_text(&v))
}

#[test]
fn implicit_multiplication_and_powers() {
    assert_eq!(parse("2x").unwrap(), "2*x");
    assert_eq!(parse("2(x+1)").unwrap(), "2*x + 2");
    assert_eq!(parse("3x^2").unwrap(), "3*x^2");
    assert_eq!(parse("-x^2").unwrap(), "-x^2");
    assert_eq!(parse("2^10").unwrap(), "1024");
    assert_eq!(parse("x - y - 1").unwrap(), "-y + x - 1");
}

#[test]
fn errors_name_the_column() {
    for (src, col) in [
        ("x +", 4),
        ("x / 2", 3),
        ("1.5x", 2),
        ("x^-1", 3),
        ("x^y", 3),
        ("(x", 3),
        ("x)", 2),
        ("x $ y", 3),
        ("", 1),
        ("x^99999999999", 3),
        ("x y", 3),
        ("x**2", 2),
    ] {
        let e = parse(src).unwrap_err();
        assert_eq!(e.column, col, "{src}: {e}");
    }
}

#[test]
fn big_coefficients_are_exact() {
    assert_eq!(
        parse("123456789012345678901234567890*x").unwrap(),
        "123456789012345678901234567890*x"
    );
}

mod divisions {
    use super::*;

    /// Records each floor and stands a new variable for it.
    struct Record(Vec<(String, Int)>, usize);
    impl Divisions for Record {
        fn floor(&mut self, e: &Poly, d: &Int) -> Result<Poly, String> {
            let vars = Vars::from_names(["i", "j", "q0", "q1", "q2"]);
            self.0.push((e.to_text(&vars), d.clone()));
            self.1 += 1;
            Ok(Poly::var(1 + self.1))
        }
    }

    /// The polynomial's text, each floor's numerator text and divisor, and the end.
    type Read = (String, Vec<(String, Int)>, usize);

    fn read(src: &str) -> Result<Read, ParseError> {
        let mut vars = Vars::from_names(["i", "j", "q0", "q1", "q2"]);
        let mut r = Record(Vec::new(), 0);
        let (p, end) = Poly::parse_prefix_with(src, 0, &mut vars, &[], &mut r)?;
        Ok((p.to_text(&vars), r.0, end))
    }

    #[test]
    fn isl_division_forms() {
        let (p, divs, _) = read("floor((i + j)/4) + [i/2]").unwrap();
        assert_eq!(p, "q1 + q0");
        assert_eq!(divs[0], ("j + i".to_string(), Int::from(4)));
        assert_eq!(divs[1], ("i".to_string(), Int::from(2)));
        // ceil(e/d) = floor((e + d - 1)/d); mod takes the last factor's remainder (isl).
        let (p, divs, _) = read("ceil(i/3)").unwrap();
        assert_eq!((p.as_str(), divs[0].0.as_str()), ("q0", "i + 2"));
        let (p, _, end) = read("j + i % 3 <= 2").unwrap();
        assert_eq!(p, "-3*q0 + j + i");
        assert_eq!(end, 10);
        let (p, divs, _) = read("2*i mod (3)").unwrap();
        assert_eq!((p.as_str(), divs[0].0.as_str()), ("-6*q0 + 2*i", "i"));
        let (p, divs, _) = read("-2i mod 3 + (2i) mod 3").unwrap();
        assert_eq!(p, "-3*q1 + 6*q0");
        assert_eq!((divs[0].0.as_str(), divs[1].0.as_str()), ("i", "2*i"));
    }

    #[test]
    fn bad_divisions_name_the_column() {
        let e = read("floor(i/0)").unwrap_err();
        assert_eq!(e.column, 9);
        assert!(e.message.contains("positive integer constant"), "{e}");
        assert_eq!(read("i mod j").unwrap_err().column, 7);
        let mut vars = Vars::from_names(["i"]);
        struct Refuse;
        impl Divisions for Refuse {
            fn floor(&mut self, _: &Poly, _: &Int) -> Result<Poly, String> {
                Err("no".into())
            }
        }
        // A refused remainder is reported at its operator.
        let e = Poly::parse_prefix_with("i % 2", 0, &mut vars, &[], &mut Refuse).unwrap_err();
        assert_eq!(e.column, 3);
        assert_eq!(read("floor(i/2").unwrap_err().column, 10);
        assert_eq!(read("floor(i/0)").unwrap_err().column, 9);
        // A slash outside floor, ceil and [...] is no division of polynomials.
        let e = read("i/2 + floor(i/2)").unwrap_err();
        assert_eq!(e.column, 2);
        assert!(e.message.contains("integer division"), "{e}");
        // Without the embedding, division stays an error.
        let mut vars = Vars::from_names(["i"]);
        assert!(Poly::parse_prefix("i/2", 0, &mut vars, &[]).is_err());
    }
}
