//! The opening book: Pentad's own analysis of the positions reachable from the empty board and
//! from the 26 classic three-stone openings, a few of the best moves of each with their scores,
//! built by `pbrain-pentad book build` (`src/cli/book.rs`) and embedded in the binary.
//!
//! Positions are keyed by their [`canonical`] key over the board's symmetries and moves are
//! stored in the canonical frame, so a mirrored or rotated game finds the same entry. The file
//! (`book/pentad.book`, little-endian, framed and checksummed by [`crate::storage`]):
//!
//! ```text
//! "PENTADBK"  u16 version (1)
//! text        how the book was built (engine, node limit, positions), for people
//! u32         number of positions, then for each, in increasing key order:
//!   u64       canonical key
//!   u8        number of moves (1..=MAX_BOOK_MOVES), best first, each:
//!     u8 x, u8 y   the move in the canonical frame
//!     i16 score    for the side to move, search units (wins are WIN - plies)
//!     u8 depth     the nominal depth the score was searched to
//! u64         FNV-1a checksum of everything before
//! ```
//!
//! A book move is played only when it is still sound: a legal empty square, the side to move
//! has no win by fours that the search would play instead, and after the move the opponent has
//! no win by fours (a short VCF search each way, [`BookMove`] by [`book_move`]).

use crate::board::Board;
use crate::search::vcf::Vcf;
use crate::storage::{FormatError, Reader, Writer};
use crate::symmetry::canonical;
use crate::types::{Depth, Pos, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"PENTADBK";
const VERSION: u16 = 1;
/// Most moves kept per position.
pub const MAX_BOOK_MOVES: usize = 8;
/// Node budget of each VCF check of a book move (a few milliseconds at worst in the opening).
const CONFIRM_VCF_NODES: u64 = 20_000;
/// Plies of each VCF check.
const CONFIRM_VCF_PLIES: i32 = 40;

/// A move of the book, on the board it was probed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square.
    pub pos: Pos,
    /// Score for the side to move.
    pub score: Value,
    /// Nominal depth of the search that scored it.
    pub depth: Depth,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stored {
    x: u8,
    y: u8,
    score: i16,
    depth: u8,
}

/// An opening book: canonical position keys to their best moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    info: String,
    entries: BTreeMap<u64, Vec<Stored>>,
}

impl Book {
    /// An empty book described by `info`.
    pub fn new(info: &str) -> Book {
        Book {
            info: info.to_string(),
            entries: BTreeMap::new(),
        }
    }

    /// How the book was built.
    pub fn info(&self) -> &str {
        &self.info
    }
    /// Replaces the description.
    pub fn set_info(&mut self, info: &str) {
        self.info = info.to_string();
    }
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// True when the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads a book file; a foreign, truncated or damaged file is refused whole.
    pub fn parse(bytes: &[u8]) -> Result<Book, FormatError> {
        let (_, mut r) = Reader::open(bytes, MAGIC, &[VERSION])?;
        let info = r.text()?;
        let count = r.u32()?;
        let mut entries = BTreeMap::new();
        let mut last: Option<u64> = None;
        for _ in 0..count {
            let key = r.key_after(&mut last, "position order")?;
            let at = r.position();
            let n = r.u8()? as usize;
            if n == 0 || n > MAX_BOOK_MOVES {
                return Err(FormatError::Invalid(at, "move count"));
            }
            let mut moves = Vec::with_capacity(n);
            for _ in 0..n {
                moves.push(Stored {
                    x: r.u8()?,
                    y: r.u8()?,
                    score: r.i16()?,
                    depth: r.u8()?,
                });
            }
            entries.insert(key, moves);
        }
        if !r.is_done() {
            return Err(FormatError::Invalid(
                r.position(),
                "data after the positions",
            ));
        }
        Ok(Book { info, entries })
    }

    /// The book as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, VERSION);
        w.text(&self.info);
        w.u32(self.entries.len() as u32);
        for (&key, moves) in &self.entries {
            w.u64(key);
            w.u8(moves.len() as u8);
            for m in moves {
                w.u8(m.x);
                w.u8(m.y);
                w.i16(m.score);
                w.u8(m.depth);
            }
        }
        w.finish()
    }

    /// Stores the moves of `board` (at most [`MAX_BOOK_MOVES`], kept best first by score, ties
    /// by square), replacing what the book had for the position.
    pub fn insert(&mut self, board: &Board, moves: &[BookMove]) {
        let c = canonical(board);
        let mut sorted = moves.to_vec();
        sorted.sort_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
        sorted.dedup_by_key(|m| m.pos);
        let stored: Vec<Stored> = sorted
            .iter()
            .take(MAX_BOOK_MOVES)
            .map(|m| {
                let (x, y) = c.to_canonical(board, m.pos);
                Stored {
                    x: x as u8,
                    y: y as u8,
                    score: m.score.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
                    depth: m.depth.clamp(0, 255) as u8,
                }
            })
            .collect();
        if stored.is_empty() {
            self.entries.remove(&c.key);
        } else {
            self.entries.insert(c.key, stored);
        }
    }

    /// True when the book has the position.
    pub fn contains(&self, board: &Board) -> bool {
        self.entries.contains_key(&canonical(board).key)
    }

    /// The book's moves for `board` that can be played there, best first.
    pub fn probe(&self, board: &Board) -> Vec<BookMove> {
        let c = canonical(board);
        let Some(moves) = self.entries.get(&c.key) else {
            return Vec::new();
        };
        moves
            .iter()
            .filter_map(|m| {
                let pos = c.to_board(board, m.x as usize, m.y as usize)?;
                (board.is_empty(pos) && board.is_legal(pos)).then_some(BookMove {
                    pos,
                    score: m.score as Value,
                    depth: m.depth as Depth,
                })
            })
            .collect()
    }
}

/// The book built into this binary (`book/pentad.book`); empty if that file does not read.
pub fn embedded() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(EMBEDDED).unwrap_or_default())
}

/// The embedded book file's bytes.
pub const EMBEDDED: &[u8] = include_bytes!("../book/pentad.book");

/// The move to play from `book` on `board`: its best move that is still sound, or `None` (then
/// the search decides). Sound: the side to move has no win by fours of its own (the search
/// plays that), and the opponent has none after the move.
pub fn book_move(book: &Book, board: &Board) -> Option<BookMove> {
    let moves = book.probe(board);
    if moves.is_empty() {
        return None;
    }
    let mut b = board.clone();
    if Vcf::new(CONFIRM_VCF_NODES)
        .solve(&mut b, CONFIRM_VCF_PLIES)
        .is_some()
    {
        return None;
    }
    moves.into_iter().find(|m| {
        b.play(m.pos);
        let refuted = Vcf::new(CONFIRM_VCF_NODES)
            .solve(&mut b, CONFIRM_VCF_PLIES)
            .is_some();
        b.undo();
        !refuted
    })
}

/// The 26 classic three-stone openings around the centre of `board` (black in the centre,
/// white next to it orthogonally — the 13 direct openings — or diagonally — the 13 indirect
/// ones —, black within two of the centre), one of each symmetric pair. They are the renju
/// openings, and the Swap2 proposals and book roots of the other rules.
pub fn classic_openings(board: &Board) -> Vec<Vec<Pos>> {
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    let at = |dx: i64, dy: i64| board.pos(cx + dx, cy + dy);
    let mut out = Vec::new();
    // Direct: white above the centre; mirror x -> -x keeps both stones.
    for dy in -2..=2 {
        for dx in 0..=2 {
            if (dx, dy) == (0, 0) || (dx, dy) == (0, -1) {
                continue;
            }
            if let (Some(a), Some(b), Some(c)) = (at(0, 0), at(0, -1), at(dx, dy)) {
                out.push(vec![a, b, c]);
            }
        }
    }
    // Indirect: white up-right; the reflection (x, y) -> (-y, -x) keeps both stones.
    for dy in -2..=2i64 {
        for dx in -2..=2i64 {
            if (dx, dy) == (0, 0) || (dx, dy) == (1, -1) {
                continue;
            }
            let (mx, my) = (-dy, -dx);
            if (mx, my) < (dx, dy) {
                continue;
            }
            if let (Some(a), Some(b), Some(c)) = (at(0, 0), at(1, -1), at(dx, dy)) {
                out.push(vec![a, b, c]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::rules::Rule;
    use crate::symmetry::Symmetry;

    fn opening(rule: Rule) -> Board {
        parse_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . o . . . .
            . . . . x . . . .
            . . . . . x . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap()
        .to_board(rule)
        .unwrap()
    }

    fn sample_book() -> (Book, Board) {
        let b = opening(Rule::Freestyle);
        let mut book = Book::new("test book");
        let m = |x: i64, y: i64, score| BookMove {
            pos: b.pos(x, y).unwrap(),
            score,
            depth: 12,
        };
        book.insert(&b, &[m(3, 3, 40), m(6, 6, 85), m(5, 3, 12)]);
        (book, b)
    }

    #[test]
    fn the_classic_openings_are_26_distinct_positions() {
        let b = Board::square(15, Rule::Standard).unwrap();
        let c = classic_openings(&b);
        assert_eq!(c.len(), 26);
        let mut keys = Vec::new();
        for l in &c {
            assert_eq!(l.len(), 3);
            assert!(l[0] != l[2] && l[1] != l[2]);
            let mut pos = b.clone();
            for &p in l {
                let (dx, dy) = (p.x() as i64 - 7, p.y() as i64 - 7);
                assert!(dx.abs() <= 2 && dy.abs() <= 2);
                pos.play(p);
            }
            keys.push(canonical(&pos).key);
        }
        // No two are images of each other.
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 26);
    }

    #[test]
    fn a_book_file_reads_back_the_same() {
        let (book, b) = sample_book();
        let bytes = book.to_bytes();
        let back = Book::parse(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.info(), "test book");
        let moves = back.probe(&b);
        // Best first.
        assert_eq!(moves[0].pos, b.pos(6, 6).unwrap());
        assert_eq!(
            moves.iter().map(|m| m.score).collect::<Vec<_>>(),
            [85, 40, 12]
        );
    }

    #[test]
    fn a_mirrored_game_finds_the_same_moves_mirrored() {
        let (book, b) = sample_book();
        let (w, h) = (b.width(), b.height());
        for sym in Symmetry::all(w, h) {
            let image = crate::symmetry::image(&b, sym);
            let got: Vec<(usize, usize)> = book
                .probe(&image)
                .iter()
                .map(|m| (m.pos.x(), m.pos.y()))
                .collect();
            let want: Vec<(usize, usize)> = book
                .probe(&b)
                .iter()
                .map(|m| sym.apply(m.pos.x(), m.pos.y(), w, h))
                .collect();
            assert_eq!(got, want, "{sym:?}");
        }
        // Another rule is another book.
        assert!(book.probe(&opening(Rule::Renju)).is_empty());
    }

    #[test]
    fn a_damaged_book_is_refused_whole() {
        let (book, _) = sample_book();
        let bytes = book.to_bytes();
        for n in 0..bytes.len() {
            assert!(Book::parse(&bytes[..n]).is_err());
        }
        assert_eq!(Book::parse(b"not a book at all"), Err(FormatError::Foreign));
    }

    #[test]
    fn the_embedded_book_reads_and_answers_the_empty_board() {
        let book = Book::parse(EMBEDDED).expect("book/pentad.book reads");
        assert_eq!(&book, embedded());
        for (rule, size) in [
            (Rule::Freestyle, 15),
            (Rule::Standard, 15),
            (Rule::Renju, 15),
            (Rule::Freestyle, 20),
        ] {
            let b = Board::square(size, rule).unwrap();
            let m = book_move(&book, &b).unwrap_or_else(|| panic!("{rule:?} {size}"));
            assert_eq!((m.pos.x(), m.pos.y()), (size / 2, size / 2));
        }
    }

    #[test]
    fn a_book_move_that_lets_a_win_by_fours_through_is_not_played() {
        // White has an open three: black must block it; a book entry that says otherwise is
        // not played.
        let b = parse_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . x . . . . . .
            . . . o o o . . .
            . . . . . . . . .
            . . . . x . . . .
            . . . . . . . . .
            . . . . . . . x .
            . . . . . . . . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        assert_eq!(b.side_to_move(), crate::types::Color::Black);
        let mut book = Book::new("");
        let bad = BookMove {
            pos: b.pos(8, 8).unwrap(),
            score: 500,
            depth: 10,
        };
        book.insert(&b, &[bad]);
        assert_eq!(book.probe(&b), vec![bad]);
        assert_eq!(book_move(&book, &b), None);
        // The block is sound.
        let block = BookMove {
            pos: b.pos(6, 3).unwrap(),
            ..bad
        };
        book.insert(&b, &[bad, block]);
        assert_eq!(book_move(&book, &b), Some(block));
    }
}
