//! The small vocabulary of the game: colours, board squares, scores.

use std::fmt;

/// Largest side of a board (START/RECTSTART accept 5..=32).
pub const MAX_SIDE: usize = 32;
/// Smallest side of a board.
pub const MIN_SIDE: usize = 5;
/// Empty border around the board inside the cell array, so that a window of five on either side
/// of any square stays inside the array without bounds checks.
pub const PAD: usize = 5;
/// Distance between two rows in the cell array (fixed, so a `Pos` means the same on every size).
pub const STRIDE: usize = MAX_SIDE + 2 * PAD;
/// Size of every per-square array: a power of two above `STRIDE * STRIDE`, so that indexing
/// with a masked `Pos` needs no bounds check.
pub const AREA: usize = 2048;
const _: () = assert!(STRIDE * STRIDE <= AREA && AREA.is_power_of_two());

/// The four line directions as index steps: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A player. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// First player (renju restrictions apply to it).
    Black = 0,
    /// Second player.
    White = 1,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white.
    #[inline]
    pub fn idx(self) -> usize {
        self as usize
    }
    /// Both colours, black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];
}

/// What occupies a square of the cell array.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Cell {
    /// Free square.
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Off the board, or a square blocked for both sides (BOARD field 3 in continuous games).
    Wall = 3,
}

impl Cell {
    /// The stone of a colour.
    #[inline]
    pub fn stone(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
    /// The colour of a stone, if it is one.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// A square, as an index into the padded cell array. Coordinates are protocol coordinates:
/// `x` the column from the left, `y` the row from the top, both from 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub u16);

impl Pos {
    /// No square (e.g. no move found yet).
    pub const NONE: Pos = Pos(0);

    /// The square at column `x`, row `y` (both below `MAX_SIDE`).
    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIDE && y < MAX_SIDE);
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }
    /// Column, from 0 at the left.
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }
    /// Row, from 0 at the top.
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }
    /// Index into per-cell arrays.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize & (AREA - 1)
    }
    /// The square `k` steps along direction `dir` (an entry of `DIRS`); stays in the array for
    /// on-board squares and |k| <= PAD.
    #[inline]
    pub fn step(self, dir: isize, k: isize) -> Pos {
        Pos((self.0 as isize + dir * k) as u16)
    }
    /// Distance in king moves (Chebyshev) to the square `q`.
    #[inline]
    pub fn king_distance(self, q: Pos) -> i32 {
        (self.x() as i32 - q.x() as i32)
            .abs()
            .max((self.y() as i32 - q.y() as i32).abs())
    }
    /// True when this is `Pos::NONE`.
    #[inline]
    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "none")
        } else {
            write!(f, "{},{}", self.x(), self.y())
        }
    }
}

impl fmt::Display for Pos {
    /// Protocol notation `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// A search score in the side to move's view. Wins are `WIN - plies`, so a shorter win scores more.
pub type Value = i32;
/// The score of a win on the board now.
pub const WIN: Value = 30_000;
/// Scores beyond this are forced wins or losses.
pub const WIN_BOUND: Value = WIN - 1_000;
/// Larger than any score.
pub const INFINITE: Value = WIN + 1;

/// Score of a win `ply` plies from the root.
#[inline]
pub fn win_in(ply: i32) -> Value {
    WIN - ply
}
/// Score of a loss `ply` plies from the root.
#[inline]
pub fn loss_in(ply: i32) -> Value {
    -WIN + ply
}
/// True for a score that is a forced win or loss.
#[inline]
pub fn is_decisive(v: Value) -> bool {
    v.abs() >= WIN_BOUND
}

/// Search depth in plies.
pub type Depth = i32;

/// How a stored score bounds the true one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}
