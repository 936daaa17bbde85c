//! The board's symmetries and the position key that is the same for all of them: the opening
//! book and the Yixin-Board database store a position once, and a mirrored or rotated game finds
//! the same entry. A square board has 8 symmetries (rotations and reflections), a rectangle 4.
//!
//! The key is not the search's Zobrist key (that one depends on the orientation): it is the
//! smallest, over the board's symmetries, of a Zobrist-style key of the transformed stones, the
//! side to move, the rule and the board's size, so entries of different rules and sizes never
//! meet in one file.

use crate::board::Board;
use crate::rules::Rule;
use crate::types::{Color, Pos};

/// One symmetry: transpose (square boards only), then mirror x, then mirror y.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The symmetries of a `width` × `height` board: 8 when square, else 4.
    pub fn all(width: usize, height: usize) -> impl Iterator<Item = Symmetry> {
        let n = if width == height { 8 } else { 4 };
        (0..n).map(Symmetry)
    }

    fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// The square `(x, y)` moved by this symmetry on a `width` × `height` board.
    pub fn apply(self, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
        let (mut x, mut y) = if self.transposes() { (y, x) } else { (x, y) };
        if self.0 & 1 != 0 {
            x = width - 1 - x;
        }
        if self.0 & 2 != 0 {
            y = height - 1 - y;
        }
        (x, y)
    }

    /// The square that this symmetry moves to `(x, y)`.
    pub fn invert(self, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
        let (mut x, mut y) = (x, y);
        if self.0 & 1 != 0 {
            x = width - 1 - x;
        }
        if self.0 & 2 != 0 {
            y = height - 1 - y;
        }
        if self.transposes() {
            (y, x)
        } else {
            (x, y)
        }
    }
}

/// A position's key over its symmetries, and the symmetry that gives it: stored squares are in
/// the transformed (canonical) frame, `sym.invert` brings them back to the board's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The key, the same for every symmetric image of the position.
    pub key: u64,
    /// The symmetry that maps the board to the canonical frame (the first, when several do).
    pub sym: Symmetry,
}

impl Canonical {
    /// A board square in the canonical frame.
    pub fn to_canonical(&self, board: &Board, p: Pos) -> (usize, usize) {
        self.sym.apply(p.x(), p.y(), board.width(), board.height())
    }

    /// A canonical square back on the board (`None` when off it).
    pub fn to_board(&self, board: &Board, x: usize, y: usize) -> Option<Pos> {
        if x >= board.width() || y >= board.height() {
            return None;
        }
        let (x, y) = self.sym.invert(x, y, board.width(), board.height());
        board.pos(x as i64, y as i64)
    }
}

/// The image of `board` under `sym`: the same stones moved, the same side to move (tests).
#[cfg(test)]
pub(crate) fn image(board: &Board, sym: Symmetry) -> Board {
    let (w, h) = (board.width(), board.height());
    let mut image = Board::new(w, h, board.rule()).expect("same size");
    for &(p, color) in board.history() {
        let (x, y) = sym.apply(p.x(), p.y(), w, h);
        image.put(image.pos(x as i64, y as i64).expect("on the board"), color);
    }
    image.set_side_to_move(board.side_to_move());
    image
}

/// A fixed, well-mixed 64-bit value for a number (splitmix64).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn rule_code(rule: Rule) -> u64 {
    match rule {
        Rule::Freestyle => 1,
        Rule::Standard => 2,
        Rule::Renju => 3,
        Rule::Caro => 4,
        Rule::CaroExact => 5,
    }
}

/// The key of `board` over its symmetries.
pub fn canonical(board: &Board) -> Canonical {
    let (w, h) = (board.width(), board.height());
    let stones: Vec<(usize, usize, Color)> = board
        .squares()
        .filter_map(|p| board.cell(p).color().map(|c| (p.x(), p.y(), c)))
        .collect();
    let base = mix(rule_code(board.rule()) << 40
        | (w as u64) << 24
        | (h as u64) << 8
        | board.side_to_move().idx() as u64);
    let mut best = Canonical {
        key: u64::MAX,
        sym: Symmetry::IDENTITY,
    };
    for sym in Symmetry::all(w, h) {
        let mut key = base;
        for &(x, y, c) in &stones {
            let (x, y) = sym.apply(x, y, w, h);
            key ^= mix(0x51_0000 | (c.idx() as u64) << 12 | (y as u64) << 6 | x as u64);
        }
        if key < best.key {
            best = Canonical { key, sym };
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;

    fn board(rule: Rule, text: &str) -> Board {
        parse_diagram(text).unwrap().to_board(rule).unwrap()
    }

    #[test]
    fn every_image_of_a_position_has_one_key_and_maps_back() {
        let b = board(
            Rule::Freestyle,
            "
            . . . . . . .
            . . x . . . .
            . . . o . . .
            . . . x . o .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        );
        let c = canonical(&b);
        let (w, h) = (b.width(), b.height());
        let mut keys = Vec::new();
        for sym in Symmetry::all(w, h) {
            let image = image(&b, sym);
            let ci = canonical(&image);
            assert_eq!(ci.key, c.key, "{sym:?}");
            // The same stone lands on the same canonical square from every image.
            let last = image.last_move().unwrap();
            assert_eq!(
                ci.to_canonical(&image, last),
                c.to_canonical(&b, b.last_move().unwrap())
            );
            let (x, y) = ci.to_canonical(&image, last);
            assert_eq!(ci.to_board(&image, x, y), Some(last));
            keys.push(image.hash());
        }
        // The search's own keys differ between the images.
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 8);
    }

    #[test]
    fn rule_size_and_side_to_move_are_part_of_the_key() {
        let text = "
            . . . . .
            . . x . .
            . . . . .
            . . . . .
            . . . . .";
        let free = board(Rule::Freestyle, text);
        assert_ne!(
            canonical(&free).key,
            canonical(&board(Rule::Renju, text)).key
        );
        let mut other_side = free.clone();
        other_side.set_side_to_move(Color::Black);
        assert_ne!(canonical(&free).key, canonical(&other_side).key);
        let mut wide = Board::new(6, 5, Rule::Freestyle).unwrap();
        wide.play(wide.pos(2, 1).unwrap());
        assert_ne!(canonical(&free).key, canonical(&wide).key);
        // A rectangle has four symmetries: the mirror images of a stone share the key.
        let mut mirrored = Board::new(6, 5, Rule::Freestyle).unwrap();
        mirrored.play(mirrored.pos(3, 3).unwrap());
        assert_eq!(canonical(&wide).key, canonical(&mirrored).key);
    }
}
