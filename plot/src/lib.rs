//! Pictures of a 2-D integer set (or a 2-D slice of one) for `polyscan plot`: the scene
//! that is drawn ([`Scene`]), the geometry that turns constraints, a CAD and tiles into
//! lines ([`geometry`]), and the rendering to SVG or PNG with plotters ([`draw`]).
//!
//! The split keeps every decision about points out of the drawing: the points and their
//! order come from the caller (the exact interpreter running the generated loops); the
//! geometry here only produces lines in floating point for the eye.

pub mod draw;
pub mod geometry;

/// The drawn part of the plane, in data coordinates (`x` horizontal, `y` vertical).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

impl Window {
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }

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
    pub x: i64,
    pub y: i64,
}

/// Everything a picture shows.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub title: String,
    /// Axis names (the plotted iterators, outer one on x).
    pub x_name: String,
    pub y_name: String,
    pub window: Window,
    /// Statement names, in file order; they pick the marker colours.
    pub statements: Vec<String>,
    pub curves: Vec<Curve>,
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
    Svg,
    Png,
}

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot draw the picture: {0}")]
    Draw(String),
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
}
