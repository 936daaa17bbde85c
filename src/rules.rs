//! The game rules and what they decide: which line of stones wins, and renju's fouls for black.
//!
//! Rule numbers follow `INFO rule` (protocol.md §7.1); the win conditions and the renju foul judge
//! follow what the Gomocup referees (Piskvork, GomocupJudge) actually implement (§7.2–§7.5).

use crate::types::{Cell, Color, Pos, AREA, DIRS, MAX_SIDE, PAD, STRIDE};

/// The rule a game is played under.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Rule 0: five or more in a row wins, for both sides.
    Freestyle,
    /// Rule 1: exactly five wins; an overline (six or more) does not, for either side.
    Standard,
    /// Rule 4 (and Yixin-Board's 2): black wins with exactly five and may not make a double four,
    /// a double three or an overline (a foul loses); white wins with five or more.
    Renju,
    /// Rule 8: five wins unless both squares beyond it hold opponent stones; an overline always
    /// wins. The board edge is not a block (GomocupJudge `ai_match.py`, 2023-06-09).
    Caro,
    /// Rule 9: exactly five that is not blocked at both ends by opponent stones; overlines never win.
    CaroExact,
}

impl Rule {
    /// Decodes an `INFO rule` value (protocol.md §13.2): bit 0 exact five, bit 2 renju, bit 3 caro,
    /// bit 1 (continuous game) ignored except that a lone 2 is Yixin-Board's renju.
    pub fn from_info(v: i64) -> Rule {
        if v == 2 {
            return Rule::Renju;
        }
        let v = v.max(0);
        if v & 4 != 0 {
            Rule::Renju
        } else if v & 8 != 0 {
            if v & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if v & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// The `INFO rule` number a manager sends for this rule.
    pub fn info_value(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// What a run of `len` stones of `color` through the last move, with the squares beyond its two
    /// ends holding `ends`, is worth under this rule: a win or not.
    pub fn run_wins(self, color: Color, len: usize, ends: [Cell; 2]) -> bool {
        let opp = Cell::stone(color.opp());
        let blocked_both = ends[0] == opp && ends[1] == opp;
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
            Rule::Renju => match color {
                Color::Black => len == 5,
                Color::White => len >= 5,
            },
            Rule::Caro => len > 5 || (len == 5 && !blocked_both),
            Rule::CaroExact => len == 5 && !blocked_both,
        }
    }

    /// True when the exact-five shape applies to `color` (no overline counts as five).
    pub fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Caro => false,
            Rule::Standard | Rule::CaroExact => true,
            Rule::Renju => color == Color::Black,
        }
    }

    /// Short name, as used in file names and reports.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro9",
        }
    }

    /// Parses a rule given by name or by its `INFO rule` number.
    pub fn parse(s: &str) -> Option<Rule> {
        let s = s.trim().to_ascii_lowercase();
        if let Ok(v) = s.parse::<i64>() {
            return Some(Rule::from_info(v));
        }
        Some(match s.as_str() {
            "freestyle" | "gomoku" => Rule::Freestyle,
            "standard" | "exact" | "exactfive" => Rule::Standard,
            "renju" => Rule::Renju,
            "caro" | "caro8" => Rule::Caro,
            "caro9" | "caroexact" => Rule::CaroExact,
            _ => return None,
        })
    }
}

/// The squares of a board: a fixed padded array (border squares are walls) and the board's size.
#[derive(Clone)]
pub struct Grid {
    cells: Box<[Cell; AREA]>,
    width: usize,
    height: usize,
}

impl Grid {
    /// An empty `width`×`height` board (sides 1..=MAX_SIDE).
    pub fn new(width: usize, height: usize) -> Grid {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        let mut cells = Box::new([Cell::Wall; AREA]);
        for y in 0..height {
            for x in 0..width {
                cells[Pos::new(x, y).idx()] = Cell::Empty;
            }
        }
        Grid {
            cells,
            width,
            height,
        }
    }
    /// Columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    /// Rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    /// What is on a square of the array (border squares are walls).
    #[inline]
    pub fn get(&self, p: Pos) -> Cell {
        self.cells[p.idx()]
    }
    /// Sets a square. Only on-board squares may be changed.
    #[inline]
    pub fn set(&mut self, p: Pos, c: Cell) {
        debug_assert!(self.on_board(p.x() as isize, p.y() as isize));
        self.cells[p.idx()] = c;
    }
    /// True when (x, y) is on the board.
    #[inline]
    pub fn on_board(&self, x: isize, y: isize) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }
    /// The square at (x, y), a wall when off the board (any distance away).
    #[inline]
    pub fn at(&self, x: isize, y: isize) -> Cell {
        if self.on_board(x, y) {
            self.cells[Pos::new(x as usize, y as usize).idx()]
        } else {
            Cell::Wall
        }
    }
    /// Every on-board square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// The run of `color` stones through `p` along direction `d` (an index of `DIRS`), counting `p`
    /// as that colour: its length and the squares just beyond its two ends.
    pub fn run_through(&self, p: Pos, d: usize, color: Color) -> (usize, [Cell; 2]) {
        let (dx, dy) = dir_xy(d);
        let own = Cell::stone(color);
        let (x0, y0) = (p.x() as isize, p.y() as isize);
        let mut len = 1;
        let mut ends = [Cell::Wall; 2];
        for (side, sgn) in [(0usize, -1isize), (1, 1)] {
            let mut k = 1;
            loop {
                let c = self.at(x0 + sgn * k * dx, y0 + sgn * k * dy);
                if c == own {
                    len += 1;
                    k += 1;
                } else {
                    ends[side] = c;
                    break;
                }
            }
        }
        (len, ends)
    }

    /// True when `color` at `p` (placed or about to be) makes a winning line under `rule`. A renju
    /// black move that makes five wins even if it is also a double four or an overline elsewhere.
    pub fn makes_win(&self, p: Pos, color: Color, rule: Rule) -> bool {
        (0..4).any(|d| {
            let (len, ends) = self.run_through(p, d, color);
            rule.run_wins(color, len, ends)
        })
    }

    /// Renju: true when black at the empty square `p` is a foul (double four, double three or
    /// overline, with no exact five made), judged as Piskvork's and GomocupJudge's referee judge it.
    pub fn is_renju_foul(&self, p: Pos) -> bool {
        if self.get(p) != Cell::Empty {
            return false;
        }
        let mut scratch = self.clone();
        renju::judge(&mut scratch, p, renju::Verdict::Allowed) != renju::Verdict::Allowed
    }
}

/// Direction `d` of `DIRS` as (dx, dy).
#[inline]
pub fn dir_xy(d: usize) -> (isize, isize) {
    match d {
        0 => (1, 0),
        1 => (0, 1),
        2 => (1, 1),
        _ => (-1, 1),
    }
}

// Keep DIRS and dir_xy in step.
const _: () = {
    assert!(DIRS[0] == 1);
    assert!(DIRS[1] == STRIDE as isize);
    assert!(DIRS[2] == STRIDE as isize + 1);
    assert!(DIRS[3] == STRIDE as isize - 1);
    assert!(PAD >= 5);
};

/// The renju foul judge. Definitions from the RIF rules (renju.net/study/rifrules.php): a FOUR is a
/// row to which one stone can be added to make five; a THREE is "a row with three stones to which
/// you, without at the same time a five in a row is made, can add one more stone to attain a
/// straight four". The shapes and the order of the tests are those of the referees' judge
/// (Piskvork `renju.cpp`, GomocupJudge `check_forbid.py`, protocol.md §7.4): an exact five first,
/// then two or more fours (including the same-line double fours `XXX.X.XXX`, `XX.XX.XX`,
/// `X.XXX.X`), then two or more real threes, then an overline. A three is real when at least one
/// of the squares that would make it a straight four is itself allowed, judged recursively with a
/// five counting as not allowed there.
mod renju {
    use super::{dir_xy, Grid};
    use crate::types::{Cell, Pos};

    /// What a black stone on a square amounts to.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Verdict {
        /// Not a foul.
        Allowed,
        /// An exact five (allowed at the top, not a straight-four point inside the recursion).
        Five,
        /// Two or more fours.
        DoubleFour,
        /// Two or more real threes.
        DoubleThree,
        /// Six or more in a row.
        Overline,
    }

    /// Half the length of the line read around the judged square: the farthest shape test looks
    /// nine squares ahead (`XXX.X.XXX` plus its end) and six behind.
    const HALF: usize = 10;
    const LEN: usize = 2 * HALF + 1;
    const C: usize = HALF;

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Empty,
        Black,
        Other,
    }
    type Line = [S; LEN];

    fn read_line(g: &Grid, p: Pos, d: usize) -> Line {
        let (dx, dy) = dir_xy(d);
        let (x0, y0) = (p.x() as isize, p.y() as isize);
        let mut line = [S::Other; LEN];
        for (i, s) in line.iter_mut().enumerate() {
            let k = i as isize - C as isize;
            *s = match g.at(x0 + k * dx, y0 + k * dy) {
                Cell::Empty => S::Empty,
                Cell::Black => S::Black,
                _ => S::Other,
            };
        }
        line
    }

    fn blacks_and_empties(l: &Line, from: usize, n: usize) -> (usize, usize) {
        let mut b = 0;
        let mut e = 0;
        for s in &l[from..from + n] {
            match s {
                S::Black => b += 1,
                S::Empty => e += 1,
                S::Other => {}
            }
        }
        (b, e)
    }

    /// Five black in a window through the centre with no black just beyond either end.
    fn exact_five(l: &Line) -> bool {
        (C - 4..=C).any(|i| {
            blacks_and_empties(l, i, 5).0 == 5 && l[i - 1] != S::Black && l[i + 5] != S::Black
        })
    }

    /// Six black in a row through the centre.
    fn overline(l: &Line) -> bool {
        (C - 5..=C).any(|i| blacks_and_empties(l, i, 6).0 == 6)
    }

    /// Number of fours through the centre on this line: 0, 1, or 2 for a same-line double four.
    fn fours(l: &Line) -> u32 {
        let b = |k: usize| l[k] == S::Black;
        let e = |k: usize| l[k] == S::Empty;
        for i in C - 4..=C {
            if blacks_and_empties(l, i, 5) != (4, 1) || b(i - 1) || b(i + 5) {
                continue;
            }
            // The window holds four black and one empty square, and filling it gives exactly five.
            if e(i + 4) {
                return 1; // XXXX.
            }
            if e(i + 3) {
                // XXX.X, and XXX.X.XXX with the centre on the lone stone: fours both ways.
                let two = C == i + 4 && e(i + 5) && b(i + 6) && b(i + 7) && b(i + 8) && !b(i + 9);
                return if two { 2 } else { 1 };
            }
            if e(i + 2) {
                // XX.XX, and XX.XX.XX with the centre in the middle pair.
                let two =
                    (C == i + 4 || C == i + 3) && e(i + 5) && b(i + 6) && b(i + 7) && !b(i + 8);
                return if two { 2 } else { 1 };
            }
            if e(i + 1) {
                // X.XXX, and X.XXX.X with the centre in the middle three.
                let two =
                    (C == i + 4 || C == i + 3 || C == i + 2) && e(i + 5) && b(i + 6) && !b(i + 7);
                return if two { 2 } else { 1 };
            }
            return 1; // .XXXX
        }
        0
    }

    /// The squares (as offsets from the centre) that would turn a three through the centre into a
    /// straight four: none, one, or two for `..XXX..`. Only the first three shape found from the
    /// left counts, as in the referees' judge.
    fn three_points(l: &Line) -> ([isize; 2], usize) {
        let b = |k: usize| l[k] == S::Black;
        let e = |k: usize| l[k] == S::Empty;
        let off = |k: usize| k as isize - C as isize;
        for i in C - 3..=C {
            if blacks_and_empties(l, i, 4) != (3, 1) || !e(i - 1) || b(i - 2) {
                continue;
            }
            if e(i + 3) {
                // XXX.
                if !b(i + 4) {
                    if e(i - 2) && !b(i - 3) {
                        if e(i + 4) && !b(i + 5) {
                            return ([off(i + 3), off(i - 1)], 2); // ..XXX..
                        }
                        return ([off(i - 1), 0], 1); // ..XXX.
                    }
                    if e(i + 4) && !b(i + 5) {
                        return ([off(i + 3), 0], 1); // .XXX..
                    }
                }
            } else if e(i + 2) {
                if e(i + 4) && !b(i + 5) {
                    return ([off(i + 2), 0], 1); // .XX.X.
                }
            } else if e(i + 1) && e(i + 4) && !b(i + 5) {
                return ([off(i + 1), 0], 1); // .X.XX.
            }
        }
        ([0, 0], 0)
    }

    /// Judges black at `p` with the stones now on `g` (restored before returning). `five` is what
    /// an exact five counts as: `Allowed` for the move itself, `Five` (not allowed) for the
    /// straight-four points examined inside the recursion.
    pub fn judge(g: &mut Grid, p: Pos, five: Verdict) -> Verdict {
        let before = g.get(p);
        if before == Cell::White || before == Cell::Wall {
            return Verdict::Allowed;
        }
        g.set(p, Cell::Black);
        let lines: [Line; 4] = std::array::from_fn(|d| read_line(g, p, d));
        let verdict = if lines.iter().any(exact_five) {
            five
        } else if lines.iter().map(fours).sum::<u32>() >= 2 {
            Verdict::DoubleFour
        } else if real_threes(g, p, &lines) >= 2 {
            Verdict::DoubleThree
        } else if lines.iter().any(overline) {
            Verdict::Overline
        } else {
            Verdict::Allowed
        };
        g.set(p, before);
        verdict
    }

    fn real_threes(g: &mut Grid, p: Pos, lines: &[Line; 4]) -> usize {
        let mut n = 0;
        for (d, l) in lines.iter().enumerate() {
            let (pts, k) = three_points(l);
            let (dx, dy) = dir_xy(d);
            let real = pts[..k].iter().any(|&o| {
                let (x, y) = (p.x() as isize + o * dx, p.y() as isize + o * dy);
                judge(g, Pos::new(x as usize, y as usize), Verdict::Five) == Verdict::Allowed
            });
            if real {
                n += 1;
            }
        }
        n
    }
}
