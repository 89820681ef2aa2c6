//! Pictures of a 2-D integer set (or a 2-D slice of one) for `polyscan plot`: the scene
//! that is drawn ([`Scene`]), the geometry that turns constraints, a CAD and tiles into
//! lines ([`geometry`]), and the rendering to SVG or PNG with plotters ([`draw`]).
//!
//! The split keeps every decision about points out of the drawing: the points and their
//! order come from the caller (the exact interpreter running the generated loops); the
//! geometry here only produces lines in floating point for the eye.
//!
//! # Example
//!
//! A scene with one statement at three points and the line `x + y = 4` traced over the
//! window, rendered to SVG:
//!
//! ```
//! use polyscan_plot::{draw, geometry, Curve, Format, Instance, Scene, Window};
//!
//! let window = Window { x0: -1.0, x1: 5.0, y0: -1.0, y1: 5.0 };
//! assert_eq!((window.width(), window.height()), (6.0, 6.0));
//! assert!(window.contains((0.0, 0.0)) && !window.contains((6.0, 0.0)));
//!
//! // The zero set of x + y - 4 (marching squares): one polyline, every point on the line.
//! let lines = geometry::zero_set(&|x, y| x + y - 4.0, &window, 24, 24);
//! assert_eq!(lines.len(), 1);
//! assert!(lines[0].iter().all(|&(x, y)| (x + y - 4.0).abs() < 1e-9));
//!
//! // The window cut by the half-plane x >= 2 (1*x + 0*y - 2 >= 0): a closed rectangle.
//! let half = geometry::clip_window(&window, &[(1.0, 0.0, -2.0)]).unwrap();
//! assert_eq!(half.first(), half.last());
//! assert!(half.iter().all(|&(x, _)| x >= 2.0));
//!
//! let scene = Scene {
//!     title: "x + y <= 4".into(),
//!     x_name: "i".into(),
//!     y_name: "j".into(),
//!     window,
//!     statements: vec!["S".into()],
//!     curves: vec![Curve { label: "x + y - 4 = 0".into(), lines }],
//!     instances: [(0, 0), (0, 1), (1, 0)]
//!         .into_iter()
//!         .map(|(x, y)| Instance { stmt: 0, x, y })
//!         .collect(),
//!     ..Scene::default()
//! };
//! let svg = String::from_utf8(draw::render(&scene, Format::Svg).unwrap()).unwrap();
//! assert!(svg.starts_with("<svg"));
//! // The legend counts the points of each statement.
//! assert!(svg.contains("S: 3 points"));
//! ```

#![warn(missing_docs)]

pub mod draw;
pub mod geometry;
pub mod problem;

/// Why a problem with quantified variables (`exists`, integer divisions) is not drawn:
/// its constraints are over variables the picture does not show. The command and the
/// Python package refuse such problems with this message, before any work.
pub const QUANTIFIED_NOT_DRAWN: &str = "plot draws domains without quantified variables or integer divisions (exists, floor, mod) for now; `polyscan gen` and `polyscan verify` take them";

/// The drawn part of the plane, in data coordinates (`x` horizontal, `y` vertical).
#[derive(Clone, Copy, Debug, PartialEq)]
///
/// The bounds are inclusive and expected to satisfy `x0 < x1` and `y0 < y1`; the default
/// is the square `[-1, 1] x [-1, 1]`.
pub struct Window {
    /// Left edge (smallest `x`).
    pub x0: f64,
    /// Right edge (largest `x`).
    pub x1: f64,
    /// Bottom edge (smallest `y`).
    pub y0: f64,
    /// Top edge (largest `y`).
    pub y1: f64,
}

impl Window {
    /// The horizontal extent, `x1 - x0`.
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    /// The vertical extent, `y1 - y0`.
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }

    /// Whether the point lies in the window, edges included.
    pub fn contains(&self, (x, y): (f64, f64)) -> bool {
        self.x0 <= x && x <= self.x1 && self.y0 <= y && y <= self.y1
    }
}

/// A polyline in data coordinates.
pub type Line = Vec<(f64, f64)>;

/// The zero set of one constraint polynomial, traced for drawing.
#[derive(Clone, Debug, Default)]
pub struct Curve {
    /// Shown in the legend, e.g. `(y - 4)^2 - 3x + 12 = 0`.
    pub label: String,
    /// The traced pieces of the zero set; the renderer clips them to the window.
    pub lines: Vec<Line>,
}

/// The cell boundaries of a CAD over the plotted plane.
#[derive(Clone, Debug, Default)]
pub struct CadLines {
    /// x-coordinates of the sections of the outer (x) level: the walls between sectors.
    pub walls: Vec<f64>,
    /// Sections of the inner (y) level over x-sectors: curves `y = root(x)`.
    pub sections: Vec<Line>,
    /// Sections of the inner level over x-sections: single points.
    pub points: Vec<(f64, f64)>,
}

/// One statement instance at an integer point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into [`Scene::statements`].
    pub stmt: usize,
    /// The value of the outer plotted iterator (horizontal axis).
    pub x: i64,
    /// The value of the inner plotted iterator (vertical axis).
    pub y: i64,
}

/// Everything a picture shows.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// The heading drawn above the plot.
    pub title: String,
    /// Axis names (the plotted iterators, outer one on x).
    pub x_name: String,
    /// Name of the vertical axis (the inner plotted iterator).
    pub y_name: String,
    /// The drawn part of the plane; the plot keeps equal units on both axes.
    pub window: Window,
    /// Statement names, in file order; they pick the marker colours.
    pub statements: Vec<String>,
    /// The constraint curves, one per constraint polynomial, each with a legend entry.
    pub curves: Vec<Curve>,
    /// The CAD cell boundaries, when the picture shows the decomposition.
    pub cad: Option<CadLines>,
    /// The instances in execution order (the faint path follows this order).
    pub instances: Vec<Instance>,
    /// One closed outline per non-empty tile.
    pub tiles: Vec<Line>,
    /// Shown in the legend entry of the tile outlines, e.g. `tiles K=[[1,-1],[0,1]], 4x3`.
    pub tile_label: String,
}

impl Default for Window {
    fn default() -> Window {
        Window {
            x0: -1.0,
            x1: 1.0,
            y0: -1.0,
            y1: 1.0,
        }
    }
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SVG text (UTF-8 bytes).
    Svg,
    /// PNG-encoded RGB bitmap.
    Png,
}

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// Plotters failed to draw (or the shipped font could not be registered).
    #[error("cannot draw the picture: {0}")]
    Draw(String),
    /// The PNG encoder failed on the drawn bitmap.
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
}
