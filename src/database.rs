//! The position database that Yixin-Board reads and edits (`YXQUERYDATABASE*`, `YXEDIT*`,
//! `YXDELETEDATABASE*`; the commands and their text are the protocol front end's,
//! `protocol/database.rs`): per position a record of a label, a value, a depth and bound, a
//! comment, and short texts shown on the squares of the position's moves. Records carry the
//! meaning Rapfi gives them (protocol.md §8): the record of a position describes the move that
//! led there, so its label is the mover's (`w`: the move wins, `l`: it loses, `d`: draw, `x`:
//! never play it) while its value is for the side to move in the position.
//!
//! Positions are keyed by their [`canonical`] key, so a mirrored game shares the records; the
//! squares of the board texts are stored in the canonical frame. The file (framed and
//! checksummed by [`crate::storage`]):
//!
//! ```text
//! "PENTADDB"  u16 version (1)
//! u32         number of records, then for each, in increasing key order:
//!   u64 key, i8 label, i32 value, i16 depth, u8 bound (0 none, 1 upper, 2 lower, 3 exact)
//!   text comment
//!   u16 number of board texts, each: u8 x, u8 y (canonical), text
//! u64         FNV-1a checksum of everything before
//! ```
//! (`text` is a u32 byte length and UTF-8.)

use crate::board::Board;
use crate::storage::{FormatError, Reader, Writer};
use crate::symmetry::canonical;
use crate::types::Pos;
use ahash::AHashSet;
use std::collections::BTreeMap;

const MAGIC: &[u8; 8] = b"PENTADDB";
const VERSION: u16 = 1;

/// A record that holds only its key (a position seen, nothing known).
pub const LABEL_NULL: i8 = 0;
/// A position with no determined result.
pub const LABEL_NONE: i8 = -1;
/// The move into the position wins.
pub const LABEL_WIN: i8 = b'w' as i8;
/// The move into the position loses.
pub const LABEL_LOSE: i8 = b'l' as i8;
/// The position is a draw.
pub const LABEL_DRAW: i8 = b'd' as i8;
/// The move into the position is never to be played.
pub const LABEL_BLOCK: i8 = b'x' as i8;

/// Bounds, numbered as Yixin-Board and Rapfi show them.
pub const BOUND_NONE: u8 = 0;
/// An upper bound: the true value is at most this.
pub const BOUND_UPPER: u8 = 1;
/// A lower bound.
pub const BOUND_LOWER: u8 = 2;
/// An exact value.
pub const BOUND_EXACT: u8 = 3;

/// What is known about one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// [`LABEL_NULL`], [`LABEL_NONE`], or a character (`w`, `l`, `d`, `x`, or one a person set).
    pub label: i8,
    /// Value for the side to move in the position.
    pub value: i32,
    /// Depth the value was searched to.
    pub depth: i16,
    /// [`BOUND_NONE`] … [`BOUND_EXACT`].
    pub bound: u8,
    /// A comment.
    pub comment: String,
    /// Texts on the squares of this position's moves, in the canonical frame.
    pub board_texts: BTreeMap<(u8, u8), String>,
}

impl Record {
    /// A record with a label and nothing else.
    pub fn labelled(label: i8) -> Record {
        Record {
            label,
            ..Record::default()
        }
    }
    /// True for the labels of a known result (win, loss, draw).
    pub fn is_determined(&self) -> bool {
        matches!(self.label, LABEL_WIN | LABEL_LOSE | LABEL_DRAW)
    }
}

/// Which parts of a record an edit replaces (Yixin-Board's mask bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mask(pub u32);

impl Mask {
    /// The label.
    pub const LABEL: u32 = 1;
    /// The value.
    pub const VALUE: u32 = 2;
    /// Depth and bound.
    pub const DEPTH_BOUND: u32 = 4;
    /// The comment.
    pub const TEXT: u32 = 8;
}

/// What a deletion does with one child record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deletion {
    /// Keep it and everything after it.
    Keep,
    /// Keep it, but look at its own children.
    KeepAndLookFurther,
    /// Delete it and every record after it.
    Delete,
}

/// The database: canonical keys to records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Database {
    records: BTreeMap<u64, Record>,
}

impl Database {
    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }
    /// True when there is no record.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The record of the position.
    pub fn get(&self, board: &Board) -> Option<&Record> {
        self.records.get(&canonical(board).key)
    }

    /// Replaces the parts of the position's record that `mask` names by those of `new`
    /// (a new record starts empty); board texts are kept.
    pub fn edit(&mut self, board: &Board, new: &Record, mask: Mask) {
        let r = self.records.entry(canonical(board).key).or_default();
        if mask.0 & Mask::LABEL != 0 {
            r.label = new.label;
        }
        if mask.0 & Mask::VALUE != 0 {
            r.value = new.value;
        }
        if mask.0 & Mask::DEPTH_BOUND != 0 {
            r.depth = new.depth;
            r.bound = new.bound;
        }
        if mask.0 & Mask::TEXT != 0 {
            r.comment = new.comment.clone();
        }
        // A record that holds text is never a null record.
        if r.label == LABEL_NULL && !(r.comment.is_empty() && r.board_texts.is_empty()) {
            r.label = LABEL_NONE;
        }
    }

    /// Stores `record` for the position unless it has one (returns whether it did).
    pub fn insert_new(&mut self, board: &Board, record: Record) -> bool {
        let key = canonical(board).key;
        if self.records.contains_key(&key) {
            return false;
        }
        self.records.insert(key, record);
        true
    }

    /// Removes the position's record (returns whether there was one).
    pub fn remove(&mut self, board: &Board) -> bool {
        self.records.remove(&canonical(board).key).is_some()
    }

    /// The records of the positions one move after `board`, by square in board order.
    pub fn children(&self, board: &Board) -> Vec<(Pos, &Record)> {
        let mut b = board.clone();
        let mut out = Vec::new();
        for p in board.squares() {
            if !board.is_empty(p) {
                continue;
            }
            b.play(p);
            if let Some(r) = self.records.get(&canonical(&b).key) {
                out.push((p, r));
            }
            b.undo();
        }
        out
    }

    /// The texts on the squares of `board`, by square in board order.
    pub fn board_texts(&self, board: &Board) -> Vec<(Pos, String)> {
        let c = canonical(board);
        let Some(r) = self.records.get(&c.key) else {
            return Vec::new();
        };
        let mut out: Vec<(Pos, String)> = r
            .board_texts
            .iter()
            .filter_map(|(&(x, y), t)| {
                let p = c.to_board(board, x as usize, y as usize)?;
                board.is_empty(p).then(|| (p, t.clone()))
            })
            .collect();
        out.sort_by_key(|&(p, _)| p);
        out
    }

    /// Sets (or, with an empty text, removes) the text on square `p` of `board`. Blanks are
    /// dropped: a board text is one word.
    pub fn set_board_text(&mut self, board: &Board, p: Pos, text: &str) {
        let c = canonical(board);
        let (x, y) = c.to_canonical(board, p);
        let text: String = text.chars().filter(|ch| !ch.is_whitespace()).collect();
        let r = self.records.entry(c.key).or_default();
        if text.is_empty() {
            r.board_texts.remove(&(x as u8, y as u8));
        } else {
            r.board_texts.insert((x as u8, y as u8), text);
            if r.label == LABEL_NULL {
                r.label = LABEL_NONE;
            }
        }
    }

    /// Deletes records after `board` as `decide` says for each child that has one (every one
    /// deleted with all that follows it when `decide` is `None`); returns how many went.
    pub fn delete_children(
        &mut self,
        board: &Board,
        decide: Option<&dyn Fn(&Record) -> Deletion>,
    ) -> usize {
        let mut seen = AHashSet::new();
        let before = self.records.len();
        self.delete_under(&mut board.clone(), decide, &mut seen);
        before - self.records.len()
    }

    fn delete_under(
        &mut self,
        b: &mut Board,
        decide: Option<&dyn Fn(&Record) -> Deletion>,
        seen: &mut AHashSet<u64>,
    ) {
        let empties: Vec<Pos> = b.squares().filter(|&p| b.is_empty(p)).collect();
        for p in empties {
            b.play(p);
            let key = canonical(b).key;
            if seen.insert(key) {
                if let Some(r) = self.records.get(&key) {
                    match decide.map_or(Deletion::Delete, |d| d(r)) {
                        Deletion::Keep => {}
                        Deletion::KeepAndLookFurther => self.delete_under(b, decide, seen),
                        Deletion::Delete => {
                            self.records.remove(&key);
                            self.delete_under(b, None, seen);
                        }
                    }
                }
            }
            b.undo();
        }
    }

    /// Reads a database file; a foreign, truncated or damaged file is refused whole.
    pub fn parse(bytes: &[u8]) -> Result<Database, FormatError> {
        let (_, mut r) = Reader::open(bytes, MAGIC, &[VERSION])?;
        let count = r.u32()?;
        let mut records = BTreeMap::new();
        let mut last: Option<u64> = None;
        for _ in 0..count {
            let key = r.key_after(&mut last, "record order")?;
            let label = r.u8()? as i8;
            let value = r.i32()?;
            let depth = r.i16()?;
            let at = r.position();
            let bound = r.u8()?;
            if bound > BOUND_EXACT {
                return Err(FormatError::Invalid(at, "bound"));
            }
            let comment = r.text()?;
            let mut board_texts = BTreeMap::new();
            for _ in 0..r.u16()? {
                let (x, y) = (r.u8()?, r.u8()?);
                board_texts.insert((x, y), r.text()?);
            }
            records.insert(
                key,
                Record {
                    label,
                    value,
                    depth,
                    bound,
                    comment,
                    board_texts,
                },
            );
        }
        if !r.is_done() {
            return Err(FormatError::Invalid(r.position(), "data after the records"));
        }
        Ok(Database { records })
    }

    /// The database as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, VERSION);
        w.u32(self.records.len() as u32);
        for (&key, r) in &self.records {
            w.u64(key);
            w.u8(r.label as u8);
            w.i32(r.value);
            w.i16(r.depth);
            w.u8(r.bound);
            w.text(&r.comment);
            w.u16(r.board_texts.len().min(u16::MAX as usize) as u16);
            for (&(x, y), t) in r.board_texts.iter().take(u16::MAX as usize) {
                w.u8(x);
                w.u8(y);
                w.text(t);
            }
        }
        w.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn game(moves: &[(i64, i64)]) -> Board {
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.play(b.pos(x, y).unwrap());
        }
        b
    }

    fn win(value: i32) -> Record {
        Record {
            label: LABEL_WIN,
            value,
            depth: 20,
            bound: BOUND_EXACT,
            ..Record::default()
        }
    }

    #[test]
    fn records_come_back_from_a_file_and_through_a_mirror() {
        let mut db = Database::default();
        let b = game(&[(7, 7), (8, 6)]);
        db.edit(&b, &win(-29_990), Mask(Mask::LABEL | Mask::VALUE | 4));
        let text = Record {
            comment: "the \"main\" line".into(),
            ..Record::default()
        };
        db.edit(&b, &text, Mask(Mask::TEXT));
        db.set_board_text(&b, b.pos(9, 5).unwrap(), "A 1");
        let back = Database::parse(&db.to_bytes()).unwrap();
        assert_eq!(back, db);
        // The mirror image x -> 14 - x.
        let m = game(&[(7, 7), (6, 6)]);
        let r = back.get(&m).unwrap();
        assert_eq!(
            (r.label, r.value, r.comment.as_str()),
            (LABEL_WIN, -29_990, "the \"main\" line")
        );
        assert_eq!(
            back.board_texts(&m),
            vec![(m.pos(5, 5).unwrap(), "A1".to_string())]
        );
        // The parent sees the child on each of the four diagonal squares, all one position.
        let parent = game(&[(7, 7)]);
        let kids: Vec<(usize, usize)> = back
            .children(&parent)
            .iter()
            .map(|(p, _)| (p.x(), p.y()))
            .collect();
        assert_eq!(kids, [(6, 6), (8, 6), (6, 8), (8, 8)]);
    }

    #[test]
    fn deletion_follows_the_filter_down_the_tree() {
        let mut db = Database::default();
        let root = game(&[(7, 7)]);
        for (line, label) in [
            (&[(7, 7), (8, 8)][..], LABEL_NONE),
            (&[(7, 7), (8, 8), (9, 9)][..], LABEL_WIN),
            (&[(7, 7), (8, 8), (9, 9), (10, 10)][..], LABEL_NONE),
            (&[(7, 7), (8, 7)][..], LABEL_LOSE),
        ] {
            db.edit(&game(line), &Record::labelled(label), Mask(Mask::LABEL));
        }
        // Delete the wins and all after them, looking past what is kept.
        let wins = |r: &Record| {
            if r.label == LABEL_WIN {
                Deletion::Delete
            } else {
                Deletion::KeepAndLookFurther
            }
        };
        let mut d = db.clone();
        assert_eq!(d.delete_children(&root, Some(&wins)), 2);
        assert_eq!(d.len(), 2);
        // Without looking further, the win two moves on stays.
        let shallow = |r: &Record| {
            if r.label == LABEL_WIN {
                Deletion::Delete
            } else {
                Deletion::Keep
            }
        };
        let mut d = db.clone();
        assert_eq!(d.delete_children(&root, Some(&shallow)), 0);
        // Everything after the root.
        assert_eq!(db.delete_children(&root, None), 4);
        assert!(db.is_empty());
    }

    #[test]
    fn a_damaged_database_is_refused_whole() {
        let mut db = Database::default();
        db.edit(&game(&[(7, 7)]), &win(5), Mask(7));
        let bytes = db.to_bytes();
        for n in 0..bytes.len() {
            assert!(Database::parse(&bytes[..n]).is_err(), "{n}");
        }
        assert_eq!(
            Database::parse(b"PENTADBK and more bytes here"),
            Err(FormatError::Foreign)
        );
    }
}
