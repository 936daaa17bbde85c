//! Shared helpers of the integration tests: fixture files of ASCII diagrams, board symmetries.
#![allow(dead_code)]

use pentad::notation::{parse_diagram, Diagram};
use pentad::{Board, Color, Pos, Rule};
use std::path::PathBuf;

/// One position of a fixture file.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// The `== title` line, without the `==`.
    pub title: String,
    /// Line of the title in its file (1-based), for messages.
    pub line: usize,
    /// `key: value` lines of the block.
    pub meta: Vec<(String, String)>,
    /// The board.
    pub diagram: Diagram,
}

impl Fixture {
    /// The value of a `key: value` line.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Path of a file under `tests/fixtures`.
pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// Reads a fixture file: blocks that start with a line `== title`, followed by `// notes`,
/// `key: value` lines and the rows of a diagram. Blank lines and anything before the first block
/// are ignored.
pub fn load(name: &str) -> Vec<Fixture> {
    let path = fixture_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    parse_blocks(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A block being read: title, its line, `key: value` lines, diagram rows.
type Block = (String, usize, Vec<(String, String)>, String);

/// Parses the text of a fixture file (see [`load`]).
pub fn parse_blocks(text: &str) -> Result<Vec<Fixture>, String> {
    let mut out = Vec::new();
    let mut cur: Option<Block> = None;
    let finish = |cur: Option<Block>, out: &mut Vec<Fixture>| -> Result<(), String> {
        if let Some((title, line, meta, rows)) = cur {
            let diagram =
                parse_diagram(&rows).map_err(|e| format!("line {line} ({title}): {e}"))?;
            out.push(Fixture {
                title,
                line,
                meta,
                diagram,
            });
        }
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(title) = line.strip_prefix("==") {
            finish(cur.take(), &mut out)?;
            cur = Some((title.trim().to_string(), i + 1, Vec::new(), String::new()));
            continue;
        }
        let Some(c) = cur.as_mut() else { continue };
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        if let Some((k, v)) = line.split_once(':') {
            c.2.push((k.trim().to_string(), v.trim().to_string()));
            continue;
        }
        c.3.push_str(line);
        c.3.push('\n');
    }
    finish(cur, &mut out)?;
    Ok(out)
}

/// The eight symmetries of a square board: `sym` in 0..8 (0 is the identity).
pub fn map_xy(sym: usize, n: usize, x: usize, y: usize) -> (usize, usize) {
    let (x, y) = if sym & 4 != 0 { (y, x) } else { (x, y) };
    let x = if sym & 1 != 0 { n - 1 - x } else { x };
    let y = if sym & 2 != 0 { n - 1 - y } else { y };
    (x, y)
}

/// The diagram seen through a symmetry (square diagrams only; others only with `sym == 0`).
pub fn transform(d: &Diagram, sym: usize) -> Diagram {
    if sym == 0 {
        return d.clone();
    }
    assert_eq!(d.width, d.height, "symmetries need a square board");
    let n = d.width;
    let m = |x, y| map_xy(sym, n, x, y);
    Diagram {
        width: n,
        height: n,
        stones: d
            .stones
            .iter()
            .map(|&(x, y, c)| {
                let (a, b) = m(x, y);
                (a, b, c)
            })
            .collect(),
        walls: d.walls.iter().map(|&(x, y)| m(x, y)).collect(),
        marks: d
            .marks
            .iter()
            .map(|&(x, y, c)| {
                let (a, b) = m(x, y);
                (a, b, c)
            })
            .collect(),
    }
}

/// The diagram with black and white exchanged.
pub fn swap_colors(d: &Diagram) -> Diagram {
    let mut s = d.clone();
    for st in &mut s.stones {
        st.2 = st.2.opp();
    }
    s
}

/// The board of a diagram under a rule.
pub fn board_of(d: &Diagram, rule: Rule) -> Board {
    d.to_board(rule).expect("diagram makes a board")
}

/// The board as text, with `mark` written on one square (for failure messages).
pub fn show(b: &Board, mark: Option<(Pos, char)>) -> String {
    let mut s = String::new();
    for y in 0..b.height() {
        for x in 0..b.width() {
            let p = Pos::new(x, y);
            let c = match mark {
                Some((q, ch)) if q == p => ch,
                _ => match b.cell(p) {
                    pentad::types::Cell::Empty => '.',
                    pentad::types::Cell::Black => 'x',
                    pentad::types::Cell::White => 'o',
                    pentad::types::Cell::Wall => '#',
                },
            };
            s.push(c);
            s.push(' ');
        }
        s.pop();
        s.push('\n');
    }
    s
}

/// Every rule, with the name used in fixture files.
pub const RULES: [(Rule, &str); 5] = [
    (Rule::Freestyle, "freestyle"),
    (Rule::Standard, "standard"),
    (Rule::Renju, "renju"),
    (Rule::Caro, "caro"),
    (Rule::CaroExact, "caro9"),
];

/// Name of a colour.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A small deterministic pseudo-random generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    /// Next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
