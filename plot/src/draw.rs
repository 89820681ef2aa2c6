//! Renders a [`Scene`] with plotters, to SVG text or PNG bytes: the plot area with equal
//! units on both axes, layers from the CAD walls (bottom) to the point markers (top), and
//! a legend in a panel on the right.
//!
//! Marker and tile colours are public and used nowhere else, so a test can find the point
//! markers (`<circle>` filled with a statement colour) and the tile outlines (`<polyline>`
//! stroked with [`TILE_COLOUR`]) in the SVG.

use super::{Format, PlotError, Scene};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::sync::Once;

/// Marker colours, one per statement (cycled): the "tableau" palette, which stays
/// distinguishable for most colour vision.
pub const STATEMENT_COLOURS: [(u8, u8, u8); 6] = [
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (148, 103, 189),
    (255, 127, 14),
    (23, 190, 207),
];

/// Constraint curves (cycled); none equals a marker or tile colour.
const CURVE_COLOURS: [(u8, u8, u8); 6] = [
    (0, 90, 50),
    (170, 60, 0),
    (90, 40, 140),
    (0, 110, 140),
    (150, 20, 90),
    (120, 110, 0),
];

/// Tile outlines.
pub const TILE_COLOUR: (u8, u8, u8) = (225, 110, 0);
/// CAD lines are thin and dark so that they show inside the wide, pale constraint curves
/// they usually follow.
const CAD_COLOUR: RGBColor = RGBColor(40, 40, 40);
const WALL_COLOUR: RGBColor = RGBColor(90, 90, 90);
const ORDER_COLOUR: RGBColor = RGBColor(90, 90, 230);
/// Opacity of the execution-order path and of the constraint curves.
const ORDER_ALPHA: f64 = 0.45;
const CURVE_ALPHA: f64 = 0.5;
const LATTICE_COLOUR: RGBColor = RGBColor(205, 205, 205);

/// `#RRGGBB` as plotters writes colours into SVG.
pub fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// The marker colour of statement `k`.
pub fn statement_colour(k: usize) -> (u8, u8, u8) {
    STATEMENT_COLOURS[k % STATEMENT_COLOURS.len()]
}

/// DejaVu Sans (Bitstream Vera licence, see `DejaVuSans.LICENSE` beside this file) lays
/// out the text: plotters' ab_glyph backend needs the font's metrics, and shipping it
/// keeps PNG output independent of the fonts installed on the machine.
static FONT: &[u8] = include_bytes!("DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

fn register() -> Result<(), PlotError> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = register_font(FAMILY, FontStyle::Normal, FONT)
            .map_err(|_| PlotError::Draw("the shipped font is not a valid TrueType file".into()));
    });
    result
}

/// Pixel layout, chosen so that one unit has the same length on both axes.
struct Layout {
    width: u32,
    height: u32,
    plot_width: u32,
    unit: f64,
}

const TITLE_H: u32 = 40;
const LEFT: u32 = 60;
const BOTTOM: u32 = 50;
const MARGIN: u32 = 20;
const LEGEND_W: u32 = 330;
const LEGEND_ROW: u32 = 24;

fn layout(scene: &Scene, legend_rows: usize) -> Layout {
    let w = scene.window;
    let unit = (620.0 / w.width()).min(560.0 / w.height()).clamp(3.0, 90.0);
    let pw = (w.width() * unit).round() as u32;
    let ph = (w.height() * unit).round() as u32;
    let plot_width = LEFT + pw + MARGIN;
    let legend_h = 2 * MARGIN + LEGEND_ROW * legend_rows as u32;
    Layout {
        width: plot_width + LEGEND_W,
        height: TITLE_H + (ph + BOTTOM + MARGIN).max(legend_h),
        plot_width,
        unit,
    }
}

/// One legend row: how its sample is drawn and its text.
enum Sample {
    Square(RGBColor),
    Line(RGBColor, u32),
    Dashed(RGBColor),
    Outline(RGBColor),
}

/// A colour at opacity `alpha` over white, for opaque legend samples.
fn over_white(c: RGBColor, alpha: f64) -> RGBColor {
    let f = |v: u8| (255.0 - (255.0 - v as f64) * alpha).round() as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}

fn legend(scene: &Scene) -> Vec<(Sample, String)> {
    let mut rows = Vec::new();
    for (k, s) in scene.statements.iter().enumerate() {
        let n = scene.instances.iter().filter(|i| i.stmt == k).count();
        rows.push((
            Sample::Square(rgb(statement_colour(k))),
            format!("{s}: {n} point{}", if n == 1 { "" } else { "s" }),
        ));
    }
    if scene.instances.len() > 1 {
        rows.push((
            Sample::Line(over_white(ORDER_COLOUR, ORDER_ALPHA), 1),
            "execution order".into(),
        ));
    }
    for (k, c) in scene.curves.iter().enumerate() {
        let mut label = c.label.clone();
        if label.chars().count() > 38 {
            label = label.chars().take(35).collect::<String>() + "...";
        }
        rows.push((
            Sample::Line(
                over_white(rgb(CURVE_COLOURS[k % CURVE_COLOURS.len()]), CURVE_ALPHA),
                4,
            ),
            label,
        ));
    }
    if let Some(cad) = &scene.cad {
        if !cad.sections.is_empty() || !cad.points.is_empty() {
            rows.push((Sample::Line(CAD_COLOUR, 0), "CAD sections".into()));
        }
        if !cad.walls.is_empty() {
            rows.push((Sample::Dashed(WALL_COLOUR), "CAD sector walls".into()));
        }
    }
    if !scene.tiles.is_empty() {
        rows.push((
            Sample::Outline(rgb(TILE_COLOUR)),
            format!("{} ({} tiles)", scene.tile_label, scene.tiles.len()),
        ));
    }
    rows
}

/// Draws the scene in the chosen format: SVG text or PNG bytes.
pub fn render(scene: &Scene, format: Format) -> Result<Vec<u8>, PlotError> {
    register()?;
    let rows = legend(scene);
    let l = layout(scene, rows.len());
    let draw_err = |e: String| PlotError::Draw(e);
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root =
                    SVGBackend::with_string(&mut text, (l.width, l.height)).into_drawing_area();
                paint(&root, scene, &l, &rows).map_err(draw_err)?;
                root.present().map_err(|e| draw_err(e.to_string()))?;
            }
            Ok(text.into_bytes())
        }
        Format::Png => {
            let mut pixels = vec![255u8; l.width as usize * l.height as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, (l.width, l.height))
                    .into_drawing_area();
                paint(&root, scene, &l, &rows).map_err(draw_err)?;
                root.present().map_err(|e| draw_err(e.to_string()))?;
            }
            let mut out = Vec::new();
            use image::ImageEncoder;
            image::codecs::png::PngEncoder::new(&mut out)
                .write_image(&pixels, l.width, l.height, image::ColorType::Rgb8)
                .map_err(|e| PlotError::Encode(e.to_string()))?;
            Ok(out)
        }
    }
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
    l: &Layout,
    rows: &[(Sample, String)],
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let body = root.titled(&scene.title, (FAMILY, 20)).map_err(e)?;
    let (left, right) = body.split_horizontally(l.plot_width);
    let w = scene.window;
    let mut chart = ChartBuilder::on(&left)
        .margin_top(10)
        .margin_right(MARGIN)
        .x_label_area_size(BOTTOM - 10)
        .y_label_area_size(LEFT)
        .build_cartesian_2d(w.x0..w.x1, w.y0..w.y1)
        .map_err(e)?;
    let ticks = |extent: f64| -> usize {
        // At most one label per unit, and no more than about one per 40 pixels.
        (extent.min(extent * l.unit / 40.0)).ceil().max(2.0) as usize + 1
    };
    chart
        .configure_mesh()
        .x_desc(scene.x_name.as_str())
        .y_desc(scene.y_name.as_str())
        .x_labels(ticks(w.width()))
        .y_labels(ticks(w.height()))
        .x_label_formatter(&|v| integer_label(*v))
        .y_label_formatter(&|v| integer_label(*v))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 16))
        .bold_line_style(RGBColor(235, 235, 235))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(e)?;

    let clip = |line: &[(f64, f64)]| super::geometry::clip_polyline(line, &w);
    for (k, c) in scene.curves.iter().enumerate() {
        let colour = rgb(CURVE_COLOURS[k % CURVE_COLOURS.len()]).mix(CURVE_ALPHA);
        for line in c.lines.iter().flat_map(|s| clip(s)) {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    line,
                    colour.stroke_width(4),
                )))
                .map_err(e)?;
        }
    }
    if let Some(cad) = &scene.cad {
        for &x in &cad.walls {
            if w.x0 <= x && x <= w.x1 {
                // Dash and gap in pixels.
                chart
                    .draw_series(DashedLineSeries::new(
                        vec![(x, w.y0), (x, w.y1)],
                        6,
                        5,
                        WALL_COLOUR.stroke_width(1),
                    ))
                    .map_err(e)?;
            }
        }
        for line in cad.sections.iter().flat_map(|s| clip(s)) {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    line,
                    CAD_COLOUR.stroke_width(1),
                )))
                .map_err(e)?;
        }
        let size = (l.unit * 0.12).clamp(2.0, 5.0) as i32;
        chart
            .draw_series(
                cad.points
                    .iter()
                    .filter(|p| w.contains(**p))
                    .map(|&p| Cross::new(p, size, CAD_COLOUR.stroke_width(1))),
            )
            .map_err(e)?;
    }
    for t in &scene.tiles {
        chart
            .draw_series(std::iter::once(PathElement::new(
                t.clone(),
                rgb(TILE_COLOUR).stroke_width(2),
            )))
            .map_err(e)?;
    }
    // Every integer point of the window, faintly, so that excluded points show too.
    if l.unit >= 8.0 {
        let lattice = (w.x0.ceil() as i64..=w.x1.floor() as i64).flat_map(|x| {
            (w.y0.ceil() as i64..=w.y1.floor() as i64).map(move |y| (x as f64, y as f64))
        });
        chart
            .draw_series(lattice.map(|p| Circle::new(p, 2, LATTICE_COLOUR.filled())))
            .map_err(e)?;
    }
    if scene.instances.len() > 1 {
        let path: Vec<(f64, f64)> = scene
            .instances
            .iter()
            .map(|i| (i.x as f64, i.y as f64))
            .collect();
        chart
            .draw_series(std::iter::once(PathElement::new(
                path,
                ORDER_COLOUR.mix(ORDER_ALPHA).stroke_width(1),
            )))
            .map_err(e)?;
    }
    // Later statements get smaller markers, so that a point several statements share
    // shows every colour as a ring around the next.
    let radius = |stmt: usize| {
        let r = (l.unit * 0.16).clamp(2.0, 7.0);
        (r * (1.0 - 0.3 * stmt.min(2) as f64)).round().max(1.0) as i32
    };
    chart
        .draw_series(scene.instances.iter().map(|i| {
            Circle::new(
                (i.x as f64, i.y as f64),
                radius(i.stmt),
                rgb(statement_colour(i.stmt)).filled(),
            )
        }))
        .map_err(e)?;

    // The legend, in its own panel so that it never hides a point.
    for (k, (sample, text)) in rows.iter().enumerate() {
        let y = (MARGIN + LEGEND_ROW * k as u32) as i32 + 10;
        let x = 10;
        match sample {
            Sample::Square(c) => right
                .draw(&Rectangle::new(
                    [(x + 8, y - 6), (x + 20, y + 6)],
                    c.filled(),
                ))
                .map_err(e)?,
            Sample::Line(c, width) => right
                .draw(&PathElement::new(
                    vec![(x, y), (x + 28, y)],
                    c.stroke_width(*width + 1),
                ))
                .map_err(e)?,
            Sample::Dashed(c) => {
                for k in 0..3 {
                    right
                        .draw(&PathElement::new(
                            vec![(x + 11 * k, y), (x + 11 * k + 6, y)],
                            c.stroke_width(1),
                        ))
                        .map_err(e)?;
                }
            }
            Sample::Outline(c) => right
                .draw(&Rectangle::new(
                    [(x + 4, y - 7), (x + 24, y + 7)],
                    c.stroke_width(2),
                ))
                .map_err(e)?,
        }
        right
            .draw(&Text::new(
                text.clone(),
                (x + 38, y - 8),
                (FAMILY, 15).into_font().color(&BLACK),
            ))
            .map_err(e)?;
    }
    Ok(())
}

/// Tick labels at integers only (the set is about integer points).
fn integer_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}
