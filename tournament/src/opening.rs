//! Openings: reading the two text formats (Gomocup "offset" and "pos" notation), the board
//! symmetries, and checking that an opening is a legal, unfinished position under the rule.

use crate::game::Game;
use crate::rng::SplitMix;
use ahash::AHashSet;
use anyhow::{bail, Context, Result};
use pentad::notation::{parse_offset_moves, parse_pos_moves};
use pentad::Rule;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The notation of an opening file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
pub enum Format {
    /// Decide per line: letters mean pos notation, numbers only mean offsets.
    Auto,
    /// `h8i9j10`: letter = column from the left, number = row from the top (1-based).
    Pos,
    /// `dx,dy, dx,dy, …` relative to the centre (`size/2`), black first.
    Offset,
}

/// One opening: stones in play order (black first), in protocol coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// (x, y) of each stone.
    pub moves: Vec<(usize, usize)>,
    /// Where it came from (`file:line`, plus the symmetry when expanded).
    pub source: String,
}

/// Parses one line of an opening file; `Ok(None)` for a blank or comment (`#`, `//`) line.
pub fn parse_line(
    line: &str,
    format: Format,
    width: usize,
    height: usize,
) -> Result<Option<Vec<(usize, usize)>>, String> {
    let line = line.trim().trim_start_matches('\u{feff}');
    if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
        return Ok(None);
    }
    let format = match format {
        Format::Auto if line.bytes().any(|b| b.is_ascii_alphabetic()) => Format::Pos,
        Format::Auto => Format::Offset,
        f => f,
    };
    let moves = match format {
        Format::Pos => {
            let m = parse_pos_moves(line)?;
            if let Some(&(x, y)) = m.iter().find(|&&(x, y)| x >= width || y >= height) {
                return Err(format!(
                    "square {} is off a {width}x{height} board",
                    pentad::notation::pos_to_str(pentad::Pos::new(x.min(31), y.min(31)))
                ));
            }
            m
        }
        _ => parse_offset_moves(line, width, height)?,
    };
    Ok(Some(moves))
}

/// Parses the text of an opening file (`name` is used in messages and sources).
pub fn parse_text(
    text: &str,
    name: &str,
    format: Format,
    width: usize,
    height: usize,
) -> Result<Vec<Opening>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line, format, width, height) {
            Ok(Some(moves)) => out.push(Opening {
                moves,
                source: format!("{name}:{}", i + 1),
            }),
            Ok(None) => {}
            Err(e) => bail!("{name}:{}: {e}", i + 1),
        }
    }
    Ok(out)
}

/// Reads an opening file.
pub fn load_file(path: &Path, format: Format, width: usize, height: usize) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings {}", path.display()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse_text(&text, &name, format, width, height)
}

/// One of the 8 symmetries of a square board (the first 4 also keep a rectangle's shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Symmetry(pub u8);

impl Symmetry {
    /// No change.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The symmetries that map a `width`×`height` board onto itself.
    pub fn all(width: usize, height: usize) -> Vec<Symmetry> {
        let n = if width == height { 8 } else { 4 };
        (0..n).map(Symmetry).collect()
    }

    /// Short name.
    pub fn name(self) -> &'static str {
        [
            "identity",
            "mirror-x",
            "mirror-y",
            "rotate-180",
            "transpose",
            "rotate-90",
            "rotate-270",
            "anti-transpose",
        ][self.0 as usize & 7]
    }

    /// Where the square (x, y) goes.
    pub fn apply(self, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
        let (mx, my) = (width - 1 - x, height - 1 - y);
        match self.0 {
            0 => (x, y),
            1 => (mx, y),
            2 => (x, my),
            3 => (mx, my),
            // The rest exist on square boards only (width == height).
            4 => (y, x),
            5 => (my, x),
            6 => (y, mx),
            _ => (my, mx),
        }
    }

    /// A move list under this symmetry.
    pub fn apply_all(
        self,
        moves: &[(usize, usize)],
        width: usize,
        height: usize,
    ) -> Vec<(usize, usize)> {
        moves
            .iter()
            .map(|&(x, y)| self.apply(x, y, width, height))
            .collect()
    }
}

/// A set of squares.
pub type Stones = Vec<(usize, usize)>;

/// The position a move list makes, independent of move order: (black stones, white stones),
/// each sorted.
pub fn position_key(moves: &[(usize, usize)]) -> (Stones, Stones) {
    let mut b: Vec<_> = moves.iter().step_by(2).copied().collect();
    let mut w: Vec<_> = moves.iter().skip(1).step_by(2).copied().collect();
    b.sort_unstable();
    w.sort_unstable();
    (b, w)
}

/// Each opening followed by its distinct symmetric images (positions already listed are
/// dropped, so a symmetric opening gives fewer than 8).
pub fn expand_symmetries(openings: &[Opening], width: usize, height: usize) -> Vec<Opening> {
    let mut seen = AHashSet::new();
    let mut out = Vec::new();
    for o in openings {
        for s in Symmetry::all(width, height) {
            let moves = s.apply_all(&o.moves, width, height);
            if seen.insert(position_key(&moves)) {
                let source = if s == Symmetry::IDENTITY {
                    o.source.clone()
                } else {
                    format!("{} {}", o.source, s.name())
                };
                out.push(Opening { moves, source });
            }
        }
    }
    out
}

/// Openings refused, with the reason.
pub type Rejected = Vec<(Opening, String)>;

/// Keeps the openings that are legal, unfinished positions under the rule; returns them and
/// the rejected ones with the reason.
pub fn check_legal(
    openings: Vec<Opening>,
    width: usize,
    height: usize,
    rule: Rule,
    draw_after: Option<usize>,
) -> Result<(Vec<Opening>, Rejected)> {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for o in openings {
        let mut g = Game::new(width, height, rule, draw_after).map_err(anyhow::Error::msg)?;
        match g.play_opening(&o.moves) {
            Ok(()) => ok.push(o),
            Err(e) => bad.push((o, e)),
        }
    }
    Ok((ok, bad))
}

/// Shuffles the openings with a seeded generator (Fisher–Yates).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = SplitMix::new(seed ^ 0x6f70_656e_696e_6773);
    for i in (1..openings.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        openings.swap(i, j);
    }
}

/// The symmetry drawn for the `k`-th pair of games (the same for both games of a pair and for
/// every pairing).
pub fn random_symmetry(seed: u64, k: usize, width: usize, height: usize) -> Symmetry {
    let all = Symmetry::all(width, height);
    let mut rng = SplitMix::new(seed ^ 0x73_796d_6d65_7472 ^ (k as u64).wrapping_mul(0x9E37_79B9));
    all[rng.below(all.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_formats() {
        let text = "# comment\n\nh8i9j10\n0,0, 1,-1, -2,3\n  // another\nA1,b2\n";
        let o = parse_text(text, "t", Format::Auto, 15, 15).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves, vec![(7, 7), (8, 8), (9, 9)]);
        assert_eq!(o[0].source, "t:3");
        assert_eq!(o[1].moves, vec![(7, 7), (8, 6), (5, 10)]);
        assert_eq!(o[2].moves, vec![(0, 0), (1, 1)]);
        // Offsets are relative to size/2: on 20x20 the centre is 10,10.
        let o = parse_text("0,0, 1,1", "t", Format::Offset, 20, 20).unwrap();
        assert_eq!(o[0].moves, vec![(10, 10), (11, 11)]);
        // Errors name the line.
        let e = parse_text("h8\nz99\n", "f.txt", Format::Auto, 15, 15).unwrap_err();
        assert!(e.to_string().starts_with("f.txt:2"), "{e}");
        assert!(parse_text("9,0", "t", Format::Offset, 15, 15).is_err());
        assert!(parse_text("h8", "t", Format::Offset, 15, 15).is_err());
        assert!(parse_text("1,1", "t", Format::Pos, 15, 15).is_err());
        // Pos squares off a small board are refused.
        assert!(parse_text("h8", "t", Format::Pos, 6, 6).is_err());
    }

    #[test]
    fn symmetries_of_a_square_board() {
        let n = 15;
        let p = (2, 5);
        let images: Vec<(usize, usize)> = Symmetry::all(n, n)
            .iter()
            .map(|s| s.apply(p.0, p.1, n, n))
            .collect();
        assert_eq!(
            images,
            vec![
                (2, 5),
                (12, 5),
                (2, 9),
                (12, 9),
                (5, 2),
                (9, 2),
                (5, 12),
                (9, 12)
            ]
        );
        // All 8 are distinct for a generic square, each is a bijection, and the centre is fixed.
        let set: AHashSet<_> = images.iter().collect();
        assert_eq!(set.len(), 8);
        for s in Symmetry::all(n, n) {
            assert_eq!(s.apply(7, 7, n, n), (7, 7));
            let mut all = AHashSet::new();
            for y in 0..n {
                for x in 0..n {
                    all.insert(s.apply(x, y, n, n));
                }
            }
            assert_eq!(all.len(), n * n);
        }
        // The group is closed: composing two symmetries gives one of the eight.
        for a in Symmetry::all(n, n) {
            for b in Symmetry::all(n, n) {
                let comp: Vec<_> = (0..n * n)
                    .map(|i| {
                        let (x, y) = a.apply(i % n, i / n, n, n);
                        b.apply(x, y, n, n)
                    })
                    .collect();
                assert!(Symmetry::all(n, n)
                    .iter()
                    .any(|c| { (0..n * n).all(|i| c.apply(i % n, i / n, n, n) == comp[i]) }));
            }
        }
        // A rectangle has 4.
        assert_eq!(Symmetry::all(20, 15).len(), 4);
        assert_eq!(Symmetry(1).apply(0, 0, 20, 15), (19, 0));
        assert_eq!(Symmetry(3).apply(0, 0, 20, 15), (19, 14));
    }

    #[test]
    fn expansion_keeps_distinct_positions() {
        let asym = Opening {
            moves: vec![(7, 7), (8, 6), (5, 10)],
            source: "a".into(),
        };
        let e = expand_symmetries(std::slice::from_ref(&asym), 15, 15);
        assert_eq!(e.len(), 8);
        assert_eq!(e[0], asym);
        assert!(e[1].source.contains("mirror-x"));
        // A single centre stone is symmetric: one position.
        let centre = Opening {
            moves: vec![(7, 7)],
            source: "c".into(),
        };
        assert_eq!(
            expand_symmetries(std::slice::from_ref(&centre), 15, 15).len(),
            1
        );
        // Black in the centre, white diagonally next to it: 4 distinct images.
        let pair = Opening {
            moves: vec![(7, 7), (8, 8)],
            source: "p".into(),
        };
        assert_eq!(expand_symmetries(&[pair], 15, 15).len(), 4);
        // Duplicates across openings are dropped too.
        let twice = expand_symmetries(&[centre.clone(), centre], 15, 15);
        assert_eq!(twice.len(), 1);
    }

    #[test]
    fn legality_filter() {
        let text = "h8h9\nh8h8\nh8a1i8a3j8a5k8a7l8\nh8a1i8a3j8a5k8a7";
        let o = parse_text(text, "t", Format::Pos, 15, 15).unwrap();
        let (ok, bad) = check_legal(o, 15, 15, Rule::Freestyle, None).unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(bad.len(), 2);
        assert!(bad[0].1.contains("on a stone"));
        assert!(bad[1].1.contains("wins"));
        // Renju: black's double three in an opening is refused, white's is fine.
        let foul = "g8a1h8a3i6a5i7a7i8";
        let white3 = "a1g8a3h8a5i6a7i7o15i8";
        let o = parse_text(&format!("{foul}\n{white3}"), "t", Format::Pos, 15, 15).unwrap();
        let (ok, bad) = check_legal(o.clone(), 15, 15, Rule::Renju, None).unwrap();
        assert_eq!(ok.len(), 1);
        assert!(bad[0].1.contains("foul"));
        let (ok, _) = check_legal(o, 15, 15, Rule::Freestyle, None).unwrap();
        assert_eq!(ok.len(), 2);
    }

    #[test]
    fn shuffles_and_symmetry_draws_are_seeded() {
        let mk = |n: usize| -> Vec<Opening> {
            (0..n)
                .map(|i| Opening {
                    moves: vec![(i % 15, 0)],
                    source: i.to_string(),
                })
                .collect()
        };
        let (mut a, mut b, mut c) = (mk(10), mk(10), mk(10));
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        shuffle(&mut c, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, mk(10));
        let s: Vec<_> = (0..20).map(|k| random_symmetry(3, k, 15, 15)).collect();
        let t: Vec<_> = (0..20).map(|k| random_symmetry(3, k, 15, 15)).collect();
        assert_eq!(s, t);
        assert!(s.iter().any(|x| *x != s[0]));
        assert!((0..50).all(|k| random_symmetry(1, k, 20, 15).0 < 4));
    }
}
