//! SVG pictures of labelled boards: one colour per label, square, hexagonal or triangular cells
//! (a cube or prism board is drawn layer by layer, as squares or triangles: the caller lays the
//! layers out).
//!
//! ```
//! use tessera_core::geometry::Lattice;
//! use tessera_game::svg::board_svg;
//! let svg = board_svg(Lattice::Square, &[(0, 0, 'A'), (1, 0, 'A'), (0, 1, 'B')], "two pieces");
//! assert!(svg.starts_with("<svg") && svg.contains("<title>two pieces</title>"));
//! ```

use std::collections::BTreeSet;
use std::fmt::Write;

use tessera_core::geometry::Lattice;

/// Side of a cell in SVG units.
const CELL: f64 = 24.0;

/// Side of a triangle in SVG units (larger than a square's: a label must fit inside).
const TRIANGLE: f64 = 32.0;

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
    drawn(lattice, cells, "", title)
}

/// [`board_svg`] with each piece outlined: `pieces` are the cells of each, so that pieces of one
/// label (one colour) side by side are told apart.
pub fn pieces_svg(lattice: Lattice, cells: &[(i32, i32, char)], pieces: &[Vec<(i32, i32)>], title: &str) -> String {
    drawn(lattice, cells, &outline_path(lattice, pieces), title)
}

/// The outlines of pieces (each the cells `(col, row)` it covers) as SVG path data, in the
/// coordinates of [`board_svg`]: every side of a cell whose neighbour across it is not of the
/// same piece.
pub fn outline_path(lattice: Lattice, pieces: &[Vec<(i32, i32)>]) -> String {
    let mut d = String::new();
    for piece in pieces {
        for &(col, row) in piece {
            let corners = corners(lattice, col, row);
            for (k, neighbour) in neighbours(lattice, col, row).into_iter().enumerate() {
                if !piece.contains(&neighbour) {
                    let ((x1, y1), (x2, y2)) = (corners[k], corners[(k + 1) % corners.len()]);
                    let _ = write!(d, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
                }
            }
        }
    }
    d
}

/// A cell's corners, clockwise (y down); side `k` runs from corner `k` to the next.
fn corners(lattice: Lattice, col: i32, row: i32) -> Vec<(f64, f64)> {
    let (x, y) = centre(lattice, col, row);
    match lattice {
        Lattice::Square | Lattice::Cube => {
            let h = CELL / 2.0;
            vec![(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
        }
        Lattice::Hex => (0..6).map(|k| hexagon_corner(x, y, k)).collect(),
        Lattice::Triangle | Lattice::Prism => {
            let (h, top) = (triangle_height(), triangle_height() * row as f64);
            if points_up(col, row) {
                vec![(x, top), (x + TRIANGLE / 2.0, top + h), (x - TRIANGLE / 2.0, top + h)]
            } else {
                vec![(x - TRIANGLE / 2.0, top), (x + TRIANGLE / 2.0, top), (x, top + h)]
            }
        }
    }
}

/// Whether the triangle at picture cell `(col, row)` points up.
fn points_up(col: i32, row: i32) -> bool {
    (col + row).rem_euclid(2) == 0
}

/// Height of a triangle.
fn triangle_height() -> f64 {
    TRIANGLE * 3f64.sqrt() / 2.0
}

/// The cell across each side of a cell, in the order of [`corners`]' sides.
fn neighbours(lattice: Lattice, col: i32, row: i32) -> Vec<(i32, i32)> {
    match lattice {
        Lattice::Square | Lattice::Cube => vec![(col, row - 1), (col + 1, row), (col, row + 1), (col - 1, row)],
        Lattice::Triangle | Lattice::Prism if points_up(col, row) => {
            vec![(col + 1, row), (col, row + 1), (col - 1, row)]
        }
        Lattice::Triangle | Lattice::Prism => vec![(col, row - 1), (col + 1, row), (col - 1, row)],
        Lattice::Hex => {
            // Odd rows are shifted half a cell right: the cells above and below lie half a cell
            // left (even rows) or right (odd rows).
            let (left, right) = if row.rem_euclid(2) == 1 { (col, col + 1) } else { (col - 1, col) };
            vec![(right, row + 1), (left, row + 1), (col - 1, row), (left, row - 1), (right, row - 1), (col + 1, row)]
        }
    }
}

fn drawn(lattice: Lattice, cells: &[(i32, i32, char)], outline: &str, title: &str) -> String {
    let labels: BTreeSet<char> = cells.iter().map(|c| c.2).filter(|&l| l != '.').collect();
    let colour_of = |l: char| match labels.iter().position(|&x| x == l) {
        Some(k) => label_colour(k),
        None => "#eeeeee".to_string(),
    };
    let centres: Vec<(f64, f64)> = cells.iter().map(|&(c, r, _)| centre(lattice, c, r)).collect();
    // Cells reach half a cell around their centre across, and a hexagon's radius up and down.
    let (half_w, half_h) = match lattice {
        Lattice::Square | Lattice::Cube => (CELL / 2.0, CELL / 2.0),
        Lattice::Hex => (CELL / 2.0, hex_radius()),
        Lattice::Triangle | Lattice::Prism => (TRIANGLE / 2.0, triangle_height() * 2.0 / 3.0),
    };
    let (w, h) = centres.iter().fold((0.0f64, 0.0f64), |(w, h), &(x, y)| (w.max(x), h.max(y)));
    // An outline's stroke reaches a pixel past the cells: room for it at the edges.
    let (origin, pad) = if outline.is_empty() { ("0 0", 0.0) } else { ("-1 -1", 2.0) };
    let (width, height) = (w + half_w + pad, h + half_h + pad);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{origin} {width:.1} {height:.1}" width="{width:.0}" height="{height:.0}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<g stroke="#ffffff" stroke-width="1.5" font-family="monospace" font-size="11" text-anchor="middle">"##
    );
    for (&(col, row, l), &(x, y)) in cells.iter().zip(&centres) {
        let fill = colour_of(l);
        match lattice {
            Lattice::Square | Lattice::Cube => {
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
            Lattice::Triangle | Lattice::Prism => {
                let points: Vec<String> =
                    corners(lattice, col, row).iter().map(|(cx, cy)| format!("{cx:.1},{cy:.1}")).collect();
                let _ = writeln!(out, r#"<polygon points="{}" fill="{fill}"/>"#, points.join(" "));
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
    out.push_str("</g>\n");
    if !outline.is_empty() {
        let _ = writeln!(
            out,
            r##"<path d="{outline}" fill="none" stroke="#1d232a" stroke-width="2" stroke-linecap="round"/>"##
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Radius of a pointy-top hexagon whose width is `CELL`.
fn hex_radius() -> f64 {
    CELL / 3f64.sqrt()
}

/// Centre of a picture cell, so that the board starts at `(0, 0)`. Hex cells are pointy-topped,
/// odd rows shifted half a cell right, rows 1.5 radii apart. Triangles are half a side apart
/// in a row; their centre is a third of the way up from their base.
fn centre(lattice: Lattice, col: i32, row: i32) -> (f64, f64) {
    match lattice {
        Lattice::Square | Lattice::Cube => (CELL * (col as f64 + 0.5), CELL * (row as f64 + 0.5)),
        Lattice::Triangle | Lattice::Prism => {
            let third = if points_up(col, row) { 2.0 / 3.0 } else { 1.0 / 3.0 };
            (TRIANGLE / 2.0 * (col as f64 + 1.0), triangle_height() * (row as f64 + third))
        }
        Lattice::Hex => {
            let shift = if row.rem_euclid(2) == 1 { 0.5 } else { 0.0 };
            (CELL * (col as f64 + shift + 0.5), hex_radius() * (1.0 + 1.5 * row as f64))
        }
    }
}

/// Corner points of a pointy-top hexagon whose width is `CELL`.
fn hexagon(x: f64, y: f64) -> String {
    (0..6)
        .map(|k| {
            let (cx, cy) = hexagon_corner(x, y, k);
            format!("{cx:.1},{cy:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Corner `k` of the hexagon centred at `(x, y)`: at 30 + 60k degrees, clockwise from the
/// bottom right side's top.
fn hexagon_corner(x: f64, y: f64, k: usize) -> (f64, f64) {
    let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
    (x + hex_radius() * a.cos(), y + hex_radius() * a.sin())
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sides of an outline's path, as their two ends.
    fn sides(d: &str) -> Vec<((f64, f64), (f64, f64))> {
        let point = |p: &str| {
            let (x, y) = p.split_once(' ').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        };
        d.split('M').skip(1).map(|s| s.split_once('L').unwrap()).map(|(a, b)| (point(a), point(b))).collect()
    }

    fn corners_sides(lattice: Lattice, (col, row): (i32, i32)) -> Vec<((f64, f64), (f64, f64))> {
        let c = corners(lattice, col, row);
        (0..c.len()).map(|k| (c[k], c[(k + 1) % c.len()])).collect()
    }

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6
    }

    #[test]
    fn outlines_run_round_each_piece() {
        // Two dominoes side by side: 6 sides each, none between their own two cells.
        let pieces = [vec![(0, 0), (1, 0)], vec![(0, 1), (1, 1)]];
        let d = outline_path(Lattice::Square, &pieces);
        let all = sides(&d);
        assert_eq!(all.len(), 12);
        assert!(!all.contains(&((24.0, 0.0), (24.0, 24.0))), "no side inside a domino");
        let between = all.iter().filter(|(a, b)| a.1 == 24.0 && b.1 == 24.0).count();
        assert_eq!(between, 4, "each domino outlines its side of the line between them");
        // Two hexagons side by side: 5 outer sides each; and a hexagon with its six neighbours.
        assert_eq!(sides(&outline_path(Lattice::Hex, &[vec![(0, 0), (1, 0)]])).len(), 10);
        for row in [2, 3] {
            let (l, r) = if row % 2 == 1 { (2, 3) } else { (1, 2) };
            let flower = vec![(2, row), (1, row), (3, row), (l, row - 1), (r, row - 1), (l, row + 1), (r, row + 1)];
            assert_eq!(
                sides(&outline_path(Lattice::Hex, &[flower])).len(),
                18,
                "row {row}: 7 hexagons, 18 outer sides"
            );
        }
        let svg = pieces_svg(Lattice::Square, &[(0, 0, 'A'), (1, 0, 'A')], &pieces[..1], "t");
        assert!(svg.contains(&format!(r#"<path d="{}""#, outline_path(Lattice::Square, &pieces[..1]))));
        assert!(svg.contains(r#"viewBox="-1 -1 50.0 26.0""#), "room for the outline's stroke");
        // Six triangles round a corner: 6 outer sides; every inner side is shared, so a side
        // drawn by one triangle's neighbour list is drawn from the other's too.
        let hexagon = vec![(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)];
        assert_eq!(sides(&outline_path(Lattice::Triangle, &[hexagon])).len(), 6);
        for (col, row) in [(0, 0), (1, 0), (3, 2), (0, 1)] {
            let singles: Vec<Vec<(i32, i32)>> = vec![vec![(col, row)]];
            let corners = corners(Lattice::Triangle, col, row);
            for (k, n) in neighbours(Lattice::Triangle, col, row).into_iter().enumerate() {
                // The side towards a neighbour is one of the neighbour's sides, reversed.
                let side = (corners[k], corners[(k + 1) % 3]);
                let theirs = corners_sides(Lattice::Triangle, n);
                assert!(theirs.iter().any(|&(a, b)| close(a, side.1) && close(b, side.0)), "({col}, {row}) to {n:?}");
            }
            assert_eq!(sides(&outline_path(Lattice::Triangle, &singles)).len(), 3);
        }
        let plain = board_svg(Lattice::Square, &[(0, 0, 'A')], "t");
        assert!(!plain.contains("<path") && plain.contains(r#"viewBox="0 0 24.0 24.0""#));
    }

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
