//! Writing squares and positions as people and tools do: protocol `x,y`, "pos" notation (`h8`,
//! letter = column from the left, number = row counted from the top, as c-gomoku-cli and Rapfi
//! write it), Gomocup "offset" openings, and ASCII boards for tests.

use crate::board::Board;
use crate::types::{is_decisive, Cell, Color, Pos, Value, WIN};

/// A square written as `h8` (column letter from `a`, row number from 1 at the top).
pub fn pos_to_str(p: Pos) -> String {
    format!("{}{}", (b'a' + p.x() as u8) as char, p.y() + 1)
}

/// Parses a run of squares in pos notation, such as `h8i9j10` (also with blanks or commas
/// between squares, and upper-case letters). Returns (x, y) pairs.
pub fn parse_pos_moves(s: &str) -> Result<Vec<(usize, usize)>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' || c == b';' {
            i += 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(format!("unexpected '{}' in move list", c as char));
        }
        let x = (c.to_ascii_lowercase() - b'a') as usize;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return Err(format!("square '{}' has no row number", c as char));
        }
        let row: usize = s[start..i]
            .parse()
            .map_err(|_| "row number too large".to_string())?;
        if row == 0 {
            return Err("row numbers start at 1".into());
        }
        out.push((x, row - 1));
    }
    Ok(out)
}

/// Parses a Gomocup offset opening (`dx,dy, dx,dy, …` relative to the centre `size/2`) for a
/// `width`×`height` board. Returns (x, y) pairs in play order.
pub fn parse_offset_moves(
    s: &str,
    width: usize,
    height: usize,
) -> Result<Vec<(usize, usize)>, String> {
    let nums: Vec<i64> = s
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>()
                .map_err(|_| format!("'{t}' is not a number"))
        })
        .collect::<Result<_, _>>()?;
    if !nums.len().is_multiple_of(2) {
        return Err("an odd count of numbers in an offset opening".into());
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    nums.chunks(2)
        .map(|c| {
            // Saturating: an absurd offset must be rejected, not overflow.
            let (x, y) = (c[0].saturating_add(cx), c[1].saturating_add(cy));
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                Err(format!(
                    "offset {},{} is off a {width}x{height} board",
                    c[0], c[1]
                ))
            } else {
                Ok((x as usize, y as usize))
            }
        })
        .collect()
}

/// Plays a list of moves from the empty position, alternating colours (black first). Fails on
/// an off-board or occupied square.
pub fn play_moves(board: &mut Board, moves: &[(usize, usize)]) -> Result<(), String> {
    for &(x, y) in moves {
        let p = board
            .pos(x as i64, y as i64)
            .ok_or_else(|| format!("{x},{y} is off the board"))?;
        if !board.is_empty(p) {
            return Err(format!("{x},{y} is occupied"));
        }
        board.play(p);
    }
    Ok(())
}

/// A position read from an ASCII diagram.
#[derive(Clone, Debug, Default)]
pub struct Diagram {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Stones as (x, y, colour).
    pub stones: Vec<(usize, usize, Color)>,
    /// Walls (`#`).
    pub walls: Vec<(usize, usize)>,
    /// Any other character on a square (an empty square marked for the test), as (x, y, char).
    pub marks: Vec<(usize, usize, char)>,
}

/// Reads a diagram: one row per non-blank line, top row first; blanks between squares are
/// ignored. `x`/`X`/`●` black, `o`/`O`/`○` white, `.`/`+`/`-` empty, `#` wall; any other character
/// is an empty square with a mark. Lines starting with `//` are comments.
pub fn parse_diagram(text: &str) -> Result<Diagram, String> {
    let mut d = Diagram::default();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let y = d.height;
        let mut x = 0;
        for ch in line.chars().filter(|c| !c.is_whitespace()) {
            match ch {
                'x' | 'X' | '●' => d.stones.push((x, y, Color::Black)),
                'o' | 'O' | '○' => d.stones.push((x, y, Color::White)),
                '.' | '+' | '-' => {}
                '#' => d.walls.push((x, y)),
                c => d.marks.push((x, y, c)),
            }
            x += 1;
        }
        if y == 0 {
            d.width = x;
        } else if x != d.width {
            return Err(format!(
                "row {} has {x} squares, the first row {}",
                y + 1,
                d.width
            ));
        }
        d.height += 1;
    }
    if d.height == 0 {
        return Err("empty diagram".into());
    }
    Ok(d)
}

impl Diagram {
    /// The position on a board of this rule: the stones (in reading order), the walls, and the
    /// side to move inferred from the counts (black when equal).
    pub fn to_board(&self, rule: crate::rules::Rule) -> Result<Board, String> {
        let mut b = Board::new(self.width, self.height, rule).map_err(|e| e.to_string())?;
        for &(x, y) in &self.walls {
            b.put_wall(crate::types::Pos::new(x, y));
        }
        let mut n = [0usize; 2];
        for &(x, y, c) in &self.stones {
            b.put(crate::types::Pos::new(x, y), c);
            n[c.idx()] += 1;
        }
        b.set_side_to_move(if n[0] > n[1] {
            Color::White
        } else {
            Color::Black
        });
        Ok(b)
    }
    /// The squares carrying a mark.
    pub fn marked(&self, mark: char) -> Vec<Pos> {
        self.marks
            .iter()
            .filter(|m| m.2 == mark)
            .map(|m| Pos::new(m.0, m.1))
            .collect()
    }
}

/// The board as rows of `X` (black), `O` (white), `#` (wall) and `.`, one row per line.
pub fn to_ascii(b: &Board) -> String {
    let mut s = String::new();
    for y in 0..b.height() {
        let row: Vec<&str> = (0..b.width())
            .map(|x| match b.cell(Pos::new(x, y)) {
                Cell::Empty => ".",
                Cell::Black => "X",
                Cell::White => "O",
                Cell::Wall => "#",
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// A score as people read it: `+M5` (a win in 5 plies), `-M4`, or the number.
pub fn score_text(v: Value) -> String {
    if is_decisive(v) {
        if v > 0 {
            format!("+M{}", WIN - v)
        } else {
            format!("-M{}", WIN + v)
        }
    } else {
        v.to_string()
    }
}

/// Squares as `h8 i9 j10`.
pub fn pos_line(pv: &[Pos]) -> String {
    let v: Vec<String> = pv
        .iter()
        .filter(|p| !p.is_none())
        .map(|&p| pos_to_str(p))
        .collect();
    v.join(" ")
}

/// Squares as `7,7 8,8 9,9` (protocol coordinates).
pub fn xy_line(pv: &[Pos]) -> String {
    let v: Vec<String> = pv
        .iter()
        .filter(|p| !p.is_none())
        .map(Pos::to_string)
        .collect();
    v.join(" ")
}

/// A board prints as its ASCII diagram (test failures, logs).
impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_ascii(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_notation_round_trip() {
        let m = parse_pos_moves("h8i9j10 A1").unwrap();
        assert_eq!(m, vec![(7, 7), (8, 8), (9, 9), (0, 0)]);
        assert_eq!(pos_to_str(Pos::new(9, 9)), "j10");
        assert!(parse_pos_moves("h").is_err());
        assert!(parse_pos_moves("h0").is_err());
        assert!(parse_pos_moves("8h").is_err());
    }

    #[test]
    fn offset_notation() {
        let m = parse_offset_moves("0,0, 1,-1, -2,3", 15, 15).unwrap();
        assert_eq!(m, vec![(7, 7), (8, 6), (5, 10)]);
        assert_eq!(parse_offset_moves("0,0", 20, 20).unwrap(), vec![(10, 10)]);
        assert!(parse_offset_moves("9,0", 15, 15).is_err());
        assert!(parse_offset_moves("1", 15, 15).is_err());
        // Found by fuzzing: an offset near i64::MAX overflowed.
        assert!(parse_offset_moves("9223372036854775807,0", 15, 15).is_err());
    }

    #[test]
    fn diagram_reading() {
        let d = parse_diagram(
            "
            . . x . .
            . o ! . .
            # . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        assert_eq!((d.width, d.height), (5, 5));
        assert_eq!(d.stones.len(), 2);
        assert_eq!(d.marked('!'), vec![Pos::new(2, 1)]);
        let b = d.to_board(crate::rules::Rule::Freestyle).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.cell(Pos::new(0, 2)), Cell::Wall);
        assert!(parse_diagram("..\n...").is_err());
    }

    #[test]
    fn scores_and_lines_as_people_read_them() {
        use crate::types::{loss_in, win_in};
        assert_eq!(score_text(win_in(5)), "+M5");
        assert_eq!(score_text(loss_in(4)), "-M4");
        assert_eq!(score_text(-35), "-35");
        let line = [Pos::new(7, 7), Pos::NONE, Pos::new(8, 8)];
        assert_eq!(pos_line(&line), "h8 i9");
        assert_eq!(xy_line(&line), "7,7 8,8");
    }
}
