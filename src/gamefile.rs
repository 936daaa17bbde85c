//! Positions and games in files: the two game formats Gomoku tools exchange, Piskvork's `.psq`
//! and SGF (`GM[4]`), and the JSON lines of tactical puzzle sets.
//!
//! * `.psq` (Piskvork, Gomocup results): a first line `Piskvorky WxH, L1:L2, S`, then one move
//!   per line `x,y,ms` with 1-based coordinates, black first, then optional player names and a
//!   result code. Read: the size and the moves (every line of two or three numbers after the first
//!   line, up to the first other line).
//! * SGF: `(;GM[4]FF[4]SZ[15]RU[renju];B[hh];W[ii]…)`. Coordinates are two letters, column then
//!   row from the top-left (`a` = 0, then `A` = 26 for large boards); `SZ[w:h]` for rectangles;
//!   `AB`/`AW` set stones up, `PL` names the side to move after them, `RU` the rule (a name such
//!   as `renju`, `freestyle`, `standard`, `caro`, or an `INFO rule` number). Only the main line
//!   (the first variation) is read.
//! * Puzzles ([`Puzzle`], the shared set's format): one JSON object a line with `task`,
//!   `board_size`, `side_to_move`, `black`, `white` as `[x, y]` lists, optional `moves` in play
//!   order (see the shared data README).

use crate::board::Board;
use crate::rules::Rule;
use crate::types::{Color, Pos};
use anyhow::{anyhow, bail, Context};
use serde::Deserialize;
use std::path::Path;

/// A game: the board, set-up stones, and the moves in order with their colours.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The rule, when the file names one.
    pub rule: Option<Rule>,
    /// Stones placed before the first move (SGF `AB`/`AW`), as (x, y, colour).
    pub setup: Vec<(usize, usize, Color)>,
    /// Side to move after the set-up (SGF `PL`); by default black when the counts are equal.
    pub to_move: Option<Color>,
    /// Moves in order, as (x, y, colour).
    pub moves: Vec<(usize, usize, Color)>,
    /// Black player's name.
    pub black: Option<String>,
    /// White player's name.
    pub white: Option<String>,
    /// The result as SGF writes it (`B+`, `W+`, `0` for a draw).
    pub result: Option<String>,
}

impl GameRecord {
    /// An empty game on a board of this size.
    pub fn new(width: usize, height: usize) -> GameRecord {
        GameRecord {
            width,
            height,
            ..GameRecord::default()
        }
    }

    /// The record of a board: its history as moves (stones whose colours do not alternate become
    /// set-up stones, with the side to move kept).
    pub fn from_board(board: &Board) -> GameRecord {
        let mut g = GameRecord::new(board.width(), board.height());
        g.rule = Some(board.rule());
        let h = board.history();
        let alternate = h.iter().enumerate().all(|(i, &(_, c))| {
            c == if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        });
        let natural = if h.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        if alternate && board.side_to_move() == natural {
            g.moves = h.iter().map(|&(p, c)| (p.x(), p.y(), c)).collect();
        } else {
            g.setup = h.iter().map(|&(p, c)| (p.x(), p.y(), c)).collect();
            g.to_move = Some(board.side_to_move());
        }
        g
    }

    /// The position at the end of the record under `rule` (the record's own rule when it has
    /// one and `rule` is `None`).
    pub fn to_board(&self, rule: Option<Rule>) -> anyhow::Result<Board> {
        let rule = rule.or(self.rule).unwrap_or(Rule::Freestyle);
        let mut b = Board::new(self.width, self.height, rule).map_err(|e| anyhow!("{e}"))?;
        let square = |b: &Board, x: usize, y: usize| -> anyhow::Result<Pos> {
            let p = b
                .pos(x as i64, y as i64)
                .ok_or_else(|| anyhow!("{x},{y} is off the {}x{} board", b.width(), b.height()))?;
            if !b.is_empty(p) {
                bail!("{x},{y} is played twice");
            }
            Ok(p)
        };
        let mut n = [0usize; 2];
        for &(x, y, c) in &self.setup {
            let p = square(&b, x, y)?;
            b.put(p, c);
            n[c.idx()] += 1;
        }
        let side = self.to_move.unwrap_or(if n[0] > n[1] {
            Color::White
        } else {
            Color::Black
        });
        b.set_side_to_move(side);
        for &(x, y, c) in &self.moves {
            let p = square(&b, x, y)?;
            b.set_side_to_move(c);
            b.play(p);
        }
        Ok(b)
    }

    /// Reads a `.psq` or SGF file (told apart by content).
    pub fn read(path: &Path) -> anyhow::Result<GameRecord> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        GameRecord::parse(&text).with_context(|| format!("{}", path.display()))
    }

    /// Parses `.psq` or SGF text.
    pub fn parse(text: &str) -> anyhow::Result<GameRecord> {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('(') {
            parse_sgf(t)
        } else if t.starts_with("Piskvorky") {
            parse_psq(t)
        } else {
            bail!("neither a .psq game (first line 'Piskvorky WxH, …') nor an SGF game ('(;…')")
        }
    }

    /// Writes the record to `path`: SGF when the name ends in `.sgf`, `.psq` otherwise.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let sgf = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
        let text = if sgf { self.to_sgf() } else { self.to_psq() };
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
    }

    /// The `.psq` text. Set-up stones are written as moves first (the format has no set-up).
    pub fn to_psq(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 0:0, 0\n", self.width, self.height);
        for &(x, y, _) in self.setup.iter().chain(&self.moves) {
            s.push_str(&format!("{},{},0\n", x + 1, y + 1));
        }
        s.push_str(self.black.as_deref().unwrap_or("black"));
        s.push('\n');
        s.push_str(self.white.as_deref().unwrap_or("white"));
        s.push('\n');
        s.push_str("-1\n");
        s
    }

    /// The SGF text.
    pub fn to_sgf(&self) -> String {
        let size = if self.width == self.height {
            self.width.to_string()
        } else {
            format!("{}:{}", self.width, self.height)
        };
        let mut s = format!(
            "(;GM[4]FF[4]CA[UTF-8]AP[pentad:{}]SZ[{size}]",
            env!("CARGO_PKG_VERSION")
        );
        if let Some(r) = self.rule {
            s.push_str(&format!("RU[{}]", r.name()));
        }
        if let Some(b) = &self.black {
            s.push_str(&format!("PB[{}]", sgf_escape(b)));
        }
        if let Some(w) = &self.white {
            s.push_str(&format!("PW[{}]", sgf_escape(w)));
        }
        if let Some(r) = &self.result {
            s.push_str(&format!("RE[{}]", sgf_escape(r)));
        }
        for (tag, color) in [("AB", Color::Black), ("AW", Color::White)] {
            let stones: Vec<String> = self
                .setup
                .iter()
                .filter(|s| s.2 == color)
                .map(|&(x, y, _)| format!("[{}]", sgf_point(x, y)))
                .collect();
            if !stones.is_empty() {
                s.push_str(tag);
                s.push_str(&stones.concat());
            }
        }
        if let Some(c) = self.to_move {
            s.push_str(if c == Color::Black { "PL[B]" } else { "PL[W]" });
        }
        for &(x, y, c) in &self.moves {
            let tag = if c == Color::Black { "B" } else { "W" };
            s.push_str(&format!(";{tag}[{}]", sgf_point(x, y)));
        }
        s.push_str(")\n");
        s
    }
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn sgf_letter(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

fn sgf_point(x: usize, y: usize) -> String {
    format!("{}{}", sgf_letter(x), sgf_letter(y))
}

fn sgf_coord(c: u8) -> Option<usize> {
    match c {
        b'a'..=b'z' => Some((c - b'a') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 26),
        _ => None,
    }
}

/// Parses `.psq` text.
pub fn parse_psq(text: &str) -> anyhow::Result<GameRecord> {
    let mut lines = text.lines();
    let head = lines.next().unwrap_or("").trim();
    let dims = head
        .strip_prefix("Piskvorky")
        .map(str::trim)
        .and_then(|r| r.split(|c: char| c == ',' || c.is_whitespace()).next())
        .and_then(|d| d.split_once('x'))
        .and_then(|(w, h)| {
            Some((
                w.trim().parse::<usize>().ok()?,
                h.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or_else(|| anyhow!("bad .psq first line '{head}'"))?;
    let mut g = GameRecord::new(dims.0, dims.1);
    for line in lines {
        let nums: Option<Vec<i64>> = line
            .trim()
            .split(',')
            .map(|t| t.trim().parse::<i64>().ok())
            .collect();
        let Some(nums) = nums.filter(|n| n.len() == 2 || n.len() == 3) else {
            break;
        };
        let (x, y) = (nums[0] - 1, nums[1] - 1);
        if x < 0 || y < 0 {
            bail!("bad .psq move '{}'", line.trim());
        }
        let c = if g.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        g.moves.push((x as usize, y as usize, c));
    }
    Ok(g)
}

/// Parses SGF text (the main line).
pub fn parse_sgf(text: &str) -> anyhow::Result<GameRecord> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut depth = 0i32;
    let mut props: Vec<Vec<(String, Vec<String>)>> = Vec::new();
    let mut done_first_tree = false;
    // Nodes of the main line: descend into the first variation of every tree only.
    let mut skip_depth: Option<i32> = None;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                depth += 1;
                if done_first_tree && skip_depth.is_none() {
                    skip_depth = Some(depth);
                }
                i += 1;
            }
            b')' => {
                if skip_depth == Some(depth) {
                    skip_depth = None;
                }
                depth -= 1;
                // After the first variation closes, later siblings are side lines.
                done_first_tree = true;
                i += 1;
                if depth <= 0 {
                    break;
                }
            }
            b';' => {
                i += 1;
                if skip_depth.is_none() {
                    props.push(Vec::new());
                }
            }
            c if c.is_ascii_uppercase() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let name = text[start..i].to_ascii_uppercase();
                let mut values = Vec::new();
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= b.len() || b[i] != b'[' {
                        break;
                    }
                    i += 1;
                    let mut v = String::new();
                    while i < b.len() && b[i] != b']' {
                        if b[i] == b'\\' && i + 1 < b.len() {
                            i += 1;
                        }
                        let ch = text[i..].chars().next().unwrap_or(' ');
                        v.push(ch);
                        i += ch.len_utf8();
                    }
                    i += 1;
                    values.push(v);
                }
                if skip_depth.is_none() {
                    if let Some(node) = props.last_mut() {
                        node.push((name, values));
                    }
                }
            }
            _ => i += 1,
        }
    }
    if props.is_empty() {
        bail!("no SGF node");
    }
    let mut g = GameRecord::new(15, 15);
    let point = |v: &str| -> anyhow::Result<Option<(usize, usize)>> {
        let v = v.trim().as_bytes();
        if v.is_empty() {
            return Ok(None);
        }
        if v.len() != 2 {
            bail!("bad SGF point '{}'", String::from_utf8_lossy(v));
        }
        match (sgf_coord(v[0]), sgf_coord(v[1])) {
            (Some(x), Some(y)) => Ok(Some((x, y))),
            _ => bail!("bad SGF point '{}'", String::from_utf8_lossy(v)),
        }
    };
    for node in &props {
        for (name, values) in node {
            let first = values.first().map(String::as_str).unwrap_or("");
            match name.as_str() {
                "GM" if first.trim() != "4" && !first.trim().is_empty() => {
                    bail!("SGF game type GM[{first}] is not Gomoku (GM[4])")
                }
                "SZ" => {
                    let (w, h) = match first.split_once(':') {
                        Some((w, h)) => (w, h),
                        None => (first, first),
                    };
                    g.width = w.trim().parse().context("bad SZ")?;
                    g.height = h.trim().parse().context("bad SZ")?;
                }
                "RU" => g.rule = Rule::parse(first),
                "PB" => g.black = Some(first.to_string()),
                "PW" => g.white = Some(first.to_string()),
                "RE" => g.result = Some(first.to_string()),
                "PL" => {
                    g.to_move = match first.trim().to_ascii_uppercase().as_str() {
                        "B" => Some(Color::Black),
                        "W" => Some(Color::White),
                        _ => None,
                    }
                }
                "AB" | "AW" => {
                    let c = if name == "AB" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    for v in values {
                        if let Some((x, y)) = point(v)? {
                            g.setup.push((x, y, c));
                        }
                    }
                }
                "B" | "W" => {
                    let c = if name == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    // An empty value (or `tt` on boards up to 19) is a pass: not a stone.
                    if let Some((x, y)) = point(first)? {
                        if !(x == 19 && y == 19 && g.width <= 19) {
                            g.moves.push((x, y, c));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(g)
}

// ------------------------------------------------------------------------------------------
// Puzzle sets

/// One puzzle as stored in the JSON lines.
#[derive(Deserialize, Debug, Clone)]
pub struct Puzzle {
    /// Identifier.
    #[serde(default)]
    pub id: String,
    /// `VCF`, `VCT3`, `VCT`, `STONES4`, `STONES5`, or a `BASE_*` task.
    #[serde(default, alias = "kind")]
    pub task: String,
    /// Rule name (`renju` in the shared set).
    #[serde(default)]
    pub rule: String,
    /// Board side.
    #[serde(default = "default_size")]
    pub board_size: usize,
    /// `black` or `white`.
    #[serde(default, alias = "attacker")]
    pub side_to_move: Option<String>,
    /// Black stones as [x, y].
    #[serde(default)]
    pub black: Vec<[usize; 2]>,
    /// White stones as [x, y].
    #[serde(default)]
    pub white: Vec<[usize; 2]>,
    /// Play order, when known.
    #[serde(default)]
    pub moves: Option<Vec<[usize; 2]>>,
}

fn default_size() -> usize {
    15
}

impl Puzzle {
    /// The rule the puzzle is played under (renju unless the file says otherwise).
    pub fn rule(&self) -> Rule {
        Rule::parse(&self.rule).unwrap_or(Rule::Renju)
    }

    /// The position, with the side to move set.
    pub fn board(&self, rule: Rule) -> anyhow::Result<Board> {
        let mut b = Board::square(self.board_size, rule)?;
        match &self.moves {
            Some(moves) if !moves.is_empty() => {
                for &[x, y] in moves {
                    let p = b.pos(x as i64, y as i64).context("move off the board")?;
                    if !b.is_empty(p) {
                        bail!("move {x},{y} on an occupied square");
                    }
                    b.play(p);
                }
            }
            _ => {
                for (stones, c) in [(&self.black, Color::Black), (&self.white, Color::White)] {
                    for &[x, y] in stones.iter() {
                        let p = b.pos(x as i64, y as i64).context("stone off the board")?;
                        if !b.is_empty(p) {
                            bail!("two stones on {x},{y}");
                        }
                        b.put(p, c);
                    }
                }
            }
        }
        let side = match self.side_to_move.as_deref() {
            Some("white") => Color::White,
            Some("black") => Color::Black,
            _ if self.black.len() > self.white.len() => Color::White,
            _ => Color::Black,
        };
        b.set_side_to_move(side);
        Ok(b)
    }
}

/// Reads puzzles from JSON lines (blank lines skipped).
pub fn parse_puzzles(text: &str) -> anyhow::Result<Vec<Puzzle>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).with_context(|| format!("line {}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psq_round_trip() {
        let text =
            "Piskvorky 15x15, 11:11, 0\n8,8,120\n9,9,0\n10,8,0\npbrain-a.exe\npbrain-b.exe\n-1\n";
        let g = GameRecord::parse(text).unwrap();
        assert_eq!((g.width, g.height), (15, 15));
        assert_eq!(
            g.moves,
            [
                (7, 7, Color::Black),
                (8, 8, Color::White),
                (9, 7, Color::Black)
            ]
        );
        let again = GameRecord::parse(&g.to_psq()).unwrap();
        assert_eq!(again.moves, g.moves);
        let b = g.to_board(None).unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.stone_count(), 3);
    }

    #[test]
    fn sgf_round_trip_and_setup() {
        let text =
            "(;GM[4]FF[4]SZ[15]RU[renju]PB[x]AB[hh][ii]AW[jj]PL[W];W[aa];B[ob](;W[cc])(;W[dd]))";
        let g = GameRecord::parse(text).unwrap();
        assert_eq!(g.rule, Some(Rule::Renju));
        assert_eq!(g.setup.len(), 3);
        assert_eq!(g.to_move, Some(Color::White));
        assert_eq!(
            g.moves,
            [
                (0, 0, Color::White),
                (14, 1, Color::Black),
                (2, 2, Color::White)
            ]
        );
        let again = GameRecord::parse(&g.to_sgf()).unwrap();
        assert_eq!(again, g);
        let b = g.to_board(None).unwrap();
        assert_eq!(b.stone_count(), 6);
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.rule(), Rule::Renju);
    }

    #[test]
    fn from_board_keeps_the_moves() {
        let mut b = Board::new(20, 18, Rule::Standard).unwrap();
        for (x, y) in [(7, 7), (8, 8), (19, 17), (0, 0)] {
            b.play(Pos::new(x, y));
        }
        let g = GameRecord::from_board(&b);
        assert!(g.setup.is_empty());
        assert_eq!(g.moves.len(), 4);
        let sgf = g.to_sgf();
        assert!(sgf.contains("SZ[20:18]"), "{sgf}");
        let back = GameRecord::parse(&sgf).unwrap().to_board(None).unwrap();
        assert_eq!(back.history(), b.history());
        assert_eq!(back.rule(), Rule::Standard);
        let psq = GameRecord::parse(&g.to_psq())
            .unwrap()
            .to_board(None)
            .unwrap();
        assert_eq!(psq.history(), b.history());
    }

    #[test]
    fn bad_files() {
        assert!(GameRecord::parse("hello").is_err());
        assert!(GameRecord::parse("(;GM[1]SZ[19];B[aa])").is_err());
        let g = GameRecord::parse("Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n").unwrap();
        assert!(g.to_board(None).is_err());
        let g = GameRecord::parse("Piskvorky 15x15, 0:0, 0\n99,8,0\n").unwrap();
        assert!(g.to_board(None).is_err());
    }

    #[test]
    fn rejects_bad_lines() {
        assert!(parse_puzzles("{not json}").is_err());
        let p = parse_puzzles(r#"{"task":"VCF","black":[[0,0],[0,0]],"white":[]}"#).unwrap();
        assert!(p[0].board(Rule::Renju).is_err());
    }
}
