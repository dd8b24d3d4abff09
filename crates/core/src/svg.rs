//! SVG pictures of labelled boards: one colour per label, square or hexagonal cells.
//!
//! ```
//! use tessera_core::geometry::Lattice;
//! use tessera_core::svg::board_svg;
//! let svg = board_svg(Lattice::Square, &[(0, 0, 'A'), (1, 0, 'A'), (0, 1, 'B')], "two pieces");
//! assert!(svg.starts_with("<svg") && svg.contains("<title>two pieces</title>"));
//! ```

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::geometry::Lattice;

/// Side of a cell in SVG units.
const CELL: f64 = 24.0;

/// A colour for the `k`-th label: hues spread by the golden angle, so neighbours in the label
/// order differ strongly.
pub fn label_colour(k: usize) -> String {
    let hue = (k as f64 * 137.508) % 360.0;
    let light = if k.is_multiple_of(2) { 62 } else { 48 };
    format!("hsl({hue:.0},70%,{light}%)")
}

/// Draws cells `(col, row, label)` given in picture (offset) coordinates. `.` labels an empty
/// board cell (drawn light grey). Labels are written in the cells.
pub fn board_svg(lattice: Lattice, cells: &[(i32, i32, char)], title: &str) -> String {
    let labels: BTreeSet<char> = cells.iter().map(|c| c.2).filter(|&l| l != '.').collect();
    let colour_of = |l: char| match labels.iter().position(|&x| x == l) {
        Some(k) => label_colour(k),
        None => "#eeeeee".to_string(),
    };
    let centres: Vec<(f64, f64)> = cells.iter().map(|&(c, r, _)| centre(lattice, c, r)).collect();
    // Cells reach half a cell around their centre across, and a hexagon's radius up and down.
    let (half_w, half_h) = match lattice {
        Lattice::Square => (CELL / 2.0, CELL / 2.0),
        Lattice::Hex => (CELL / 2.0, hex_radius()),
    };
    let (w, h) = centres.iter().fold((0.0f64, 0.0f64), |(w, h), &(x, y)| (w.max(x), h.max(y)));
    let (width, height) = (w + half_w, h + half_h);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.1} {height:.1}" width="{width:.0}" height="{height:.0}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<g stroke="#ffffff" stroke-width="1.5" font-family="monospace" font-size="11" text-anchor="middle">"##
    );
    for (&(_, _, l), &(x, y)) in cells.iter().zip(&centres) {
        let fill = colour_of(l);
        match lattice {
            Lattice::Square => {
                let _ = writeln!(
                    out,
                    r#"<rect x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#,
                    x - CELL / 2.0,
                    y - CELL / 2.0
                );
            }
            Lattice::Hex => {
                let _ = writeln!(out, r#"<polygon points="{}" fill="{fill}"/>"#, hexagon(x, y));
            }
        }
        if l != '.' {
            let _ = writeln!(
                out,
                r##"<text x="{x:.1}" y="{:.1}" stroke="none" fill="#000">{}</text>"##,
                y + 4.0,
                escape(&l.to_string())
            );
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// Radius of a pointy-top hexagon whose width is `CELL`.
fn hex_radius() -> f64 {
    CELL / 3f64.sqrt()
}

/// Centre of a picture cell, so that the board starts at `(0, 0)`. Hex cells are pointy-topped,
/// odd rows shifted half a cell right, rows 1.5 radii apart.
fn centre(lattice: Lattice, col: i32, row: i32) -> (f64, f64) {
    match lattice {
        Lattice::Square => (CELL * (col as f64 + 0.5), CELL * (row as f64 + 0.5)),
        Lattice::Hex => {
            let shift = if row.rem_euclid(2) == 1 { 0.5 } else { 0.0 };
            (CELL * (col as f64 + shift + 0.5), hex_radius() * (1.0 + 1.5 * row as f64))
        }
    }
}

/// Corner points of a pointy-top hexagon whose width is `CELL`.
fn hexagon(x: f64, y: f64) -> String {
    let r = hex_radius();
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
            format!("{:.1},{:.1}", x + r * a.cos(), y + r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_shape_per_cell_and_distinct_colours() {
        let cells = [(0, 0, 'A'), (1, 0, 'B'), (0, 1, 'B'), (1, 1, '.')];
        let sq = board_svg(Lattice::Square, &cells, "t<1>");
        assert_eq!(sq.matches("<rect").count(), 4);
        assert!(sq.contains("t&lt;1&gt;"));
        assert_eq!(sq.matches("<text").count(), 3, "empty cells carry no label");
        let hex = board_svg(Lattice::Hex, &cells, "hex");
        assert_eq!(hex.matches("<polygon").count(), 4);
        assert_ne!(label_colour(0), label_colour(1));
        // Every point lies inside the view box.
        let view: Vec<f64> = hex
            .split("viewBox=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        for points in hex.split("points=\"").skip(1).map(|p| p.split('"').next().unwrap()) {
            for xy in points.split(' ') {
                let (x, y) = xy.split_once(',').unwrap();
                let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                assert!(
                    x >= -0.05 && y >= -0.05 && x <= view[2] + 0.05 && y <= view[3] + 0.05,
                    "{x},{y} outside {view:?}"
                );
            }
        }
    }
}
