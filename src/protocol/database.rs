//! Yixin-Board's database commands (protocol.md §8), answered in Rapfi's format, and the
//! database file: where it lives, loading it, and saving it so that a process killed in the
//! middle leaves the previous file whole (written beside, flushed to disk, then renamed over).
//!
//! The database is on after `INFO usedatabase 1` (off by default, and after `INFO
//! usedatabase 0`); `INFO database_readonly 1` keeps it from being written. The file is the
//! path `YXSETDATABASE` gave, else `pentad.db` in `INFO folder`, else `pentad.db` in the working
//! directory. It is read when first needed; a file that does not read is reported in one
//! `ERROR` line, left as it is and not used. While the database is off its commands are read
//! to `DONE` and answer nothing, as Rapfi's (Yixin-Board sends a query after every move);
//! `YXSAVEDATABASE` answers one `ERROR` line.
//!
//! Writes: every edit saves at once; a search's result is recorded in memory and saved at most
//! every [`SEARCH_SAVE_INTERVAL`], and at `YXSAVEDATABASE`, a new game and the end.

use super::output::Output;
use crate::board::Board;
use crate::database::{
    Database, Deletion, Mask, Record, BOUND_EXACT, LABEL_BLOCK, LABEL_DRAW, LABEL_LOSE, LABEL_NONE,
    LABEL_NULL, LABEL_WIN,
};
use crate::rules::Rule;
use crate::types::{is_decisive, Depth, Value, WIN};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The file name in `INFO folder` (or the working directory).
pub const FILE_NAME: &str = "pentad.db";
/// A search's record is saved at most this often (edits at once).
pub const SEARCH_SAVE_INTERVAL: Duration = Duration::from_secs(10);

/// The database commands that come with a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    QueryAll,
    QueryOne,
    QueryText,
    QueryAllText,
    EditTvd,
    EditText,
    EditLabel,
    DeleteOne,
    DeleteAll,
}

impl Kind {
    fn of(word: &str) -> Option<Kind> {
        Some(match word {
            "YXQUERYDATABASEALL" => Kind::QueryAll,
            "YXQUERYDATABASEONE" => Kind::QueryOne,
            "YXQUERYDATABASETEXT" => Kind::QueryText,
            "YXQUERYDATABASEALLT" => Kind::QueryAllText,
            "YXEDITTVDDATABASE" => Kind::EditTvd,
            "YXEDITTEXTDATABASE" => Kind::EditText,
            "YXEDITLABELDATABASE" => Kind::EditLabel,
            "YXDELETEDATABASEONE" => Kind::DeleteOne,
            "YXDELETEDATABASEALL" => Kind::DeleteAll,
            _ => return None,
        })
    }
    fn is_query(self) -> bool {
        matches!(
            self,
            Kind::QueryAll | Kind::QueryOne | Kind::QueryText | Kind::QueryAllText
        )
    }
}

/// The database's settings, file and contents.
#[derive(Debug)]
pub struct Db {
    /// `INFO usedatabase`.
    enabled: bool,
    /// `INFO database_readonly`.
    readonly: bool,
    /// `YXSETDATABASE`.
    path: Option<PathBuf>,
    /// `INFO folder`.
    folder: Option<PathBuf>,
    /// The open database and its file.
    open: Option<(PathBuf, Database)>,
    /// A file that did not read: never used nor written over.
    unreadable: Option<PathBuf>,
    dirty: bool,
    last_save: Instant,
}

impl Default for Db {
    fn default() -> Db {
        Db {
            enabled: false,
            readonly: false,
            path: None,
            folder: None,
            open: None,
            unreadable: None,
            dirty: false,
            last_save: Instant::now(),
        }
    }
}

impl Db {
    /// `INFO usedatabase`.
    pub fn set_enabled(&mut self, on: bool, out: &Output) {
        if !on {
            self.flush(out);
        }
        self.enabled = on;
    }
    /// True after `INFO usedatabase 1`.
    pub fn enabled(&self) -> bool {
        self.enabled
    }
    /// `INFO database_readonly`.
    pub fn set_readonly(&mut self, on: bool) {
        self.readonly = on;
    }
    /// `INFO folder`.
    pub fn set_folder(&mut self, folder: &str) {
        self.folder = Some(PathBuf::from(folder));
    }

    /// `YXSETDATABASE path`: saves what is open and opens `path`.
    pub fn set_path(&mut self, path: &str, out: &Output) {
        self.flush(out);
        self.open = None;
        self.unreadable = None;
        self.path = Some(PathBuf::from(path));
        if self.enabled {
            if let Some(db) = self.database(out) {
                let n = db.len();
                out.message(&format!("database {path}: {n} records"));
            }
        }
    }

    fn file(&self) -> PathBuf {
        match (&self.path, &self.folder) {
            (Some(p), _) => p.clone(),
            (None, Some(f)) => f.join(FILE_NAME),
            (None, None) => PathBuf::from(FILE_NAME),
        }
    }

    /// The open database, read from its file on first use; `None` while off or unreadable.
    fn database(&mut self, out: &Output) -> Option<&mut Database> {
        if !self.enabled {
            return None;
        }
        let file = self.file();
        if self.unreadable.as_ref() == Some(&file) {
            return None;
        }
        if self.open.as_ref().is_none_or(|(p, _)| *p != file) {
            match load(&file) {
                Ok(db) => {
                    self.open = Some((file, db));
                    self.dirty = false;
                }
                Err(e) => {
                    out.error(&format!(
                        "database {} not read ({e}): not used, the file is left as it is",
                        file.display()
                    ));
                    self.unreadable = Some(file);
                    self.open = None;
                    return None;
                }
            }
        }
        self.open.as_mut().map(|(_, db)| db)
    }

    /// Writes the database if it changed since it was read or last written.
    pub fn flush(&mut self, out: &Output) {
        if self.dirty {
            if let Err(e) = self.save() {
                out.error(&format!("database not saved: {e}"));
            }
        }
    }

    fn save(&mut self) -> std::io::Result<()> {
        self.dirty = false;
        self.last_save = Instant::now();
        if self.readonly {
            return Ok(());
        }
        match &self.open {
            Some((path, db)) => save_atomically(path, &db.to_bytes()),
            None => Ok(()),
        }
    }

    /// Records a search's result for the side to move of `board` (`value` for it, searched
    /// `depth` plies), unless the record there holds a result or a label someone set, or a
    /// deeper search. The label is the mover's: a won position for the side to move is a
    /// losing move into it.
    pub fn record_search(&mut self, board: &Board, value: Value, depth: Depth, out: &Output) {
        if self.readonly || board.stone_count() == 0 {
            return;
        }
        let Some(db) = self.database(out) else {
            return;
        };
        let label = if !is_decisive(value) {
            LABEL_NONE
        } else if value > 0 {
            LABEL_LOSE
        } else {
            LABEL_WIN
        };
        let old = db.get(board);
        let keep = old.is_some_and(|r| {
            !matches!(r.label, LABEL_NULL | LABEL_NONE) || (r.depth as Depth > depth)
        });
        if keep {
            return;
        }
        let new = Record {
            label,
            value,
            depth: depth.clamp(0, i16::MAX as Depth) as i16,
            bound: BOUND_EXACT,
            ..Record::default()
        };
        db.edit(
            board,
            &new,
            Mask(Mask::LABEL | Mask::VALUE | Mask::DEPTH_BOUND),
        );
        self.dirty = true;
        if self.last_save.elapsed() >= SEARCH_SAVE_INTERVAL {
            self.flush(out);
        }
    }

    /// `YXSAVEDATABASE`.
    pub fn save_command(&mut self, out: &Output) {
        let t = Instant::now();
        if self.database(out).is_none() {
            return out.error("YXSAVEDATABASE: the database is off (INFO usedatabase 1)");
        }
        match self.save() {
            Ok(()) => out.message(&format!(
                "Saved database file using {} ms.",
                t.elapsed().as_millis()
            )),
            Err(e) => out.error(&format!("database not saved: {e}")),
        }
    }

    /// A database command `word` with the rest of its line `args`, on the position made by
    /// playing `moves` from an empty `empty` board (squares off the board or taken are skipped).
    pub fn command(
        &mut self,
        word: &str,
        args: &str,
        empty: &Board,
        moves: &[(i64, i64)],
        out: &Output,
    ) {
        let Some(kind) = Kind::of(word) else {
            return;
        };
        let mut board = empty.clone();
        board.clear();
        for &(x, y) in moves {
            if let Some(p) = board.pos(x, y).filter(|&p| board.is_empty(p)) {
                board.play(p);
            }
        }
        let readonly = self.readonly;
        let Some(db) = self.database(out) else {
            log::debug!("{word}: the database is off");
            return;
        };
        if !kind.is_query() && readonly {
            return out.error(&format!("{word}: the database is read-only"));
        }
        match kind {
            Kind::QueryAll => query_all(db, &board, out),
            Kind::QueryOne => query_one(db, &board, out),
            Kind::QueryText => query_text(db, &board, out),
            Kind::QueryAllText => {
                query_all(db, &board, out);
                query_text(db, &board, out);
            }
            Kind::EditTvd => {
                let Some(new) = parse_tvd(args) else {
                    return out.error(&format!(
                        "{word} expects mask label value depth, got '{}'",
                        super::command::excerpt(args)
                    ));
                };
                db.edit(&board, &new.1, new.0);
                self.dirty = true;
                self.flush(out);
                if let Some(db) = self.database(out) {
                    query_one(db, &board, out);
                }
                return;
            }
            Kind::EditText => {
                let text = unquote(args).replace("\r\n", "\n");
                let new = Record {
                    comment: text.trim().to_string(),
                    ..Record::default()
                };
                db.edit(&board, &new, Mask(Mask::TEXT));
            }
            Kind::EditLabel => {
                let (coord, text) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
                let Some(p) = super::command::parse_xy(coord)
                    .and_then(|(x, y)| board.pos(x, y))
                    .filter(|&p| board.is_empty(p))
                else {
                    return out.error(&format!(
                        "{word} expects an empty square x,y and a text, got '{}'",
                        super::command::excerpt(args)
                    ));
                };
                db.set_board_text(&board, p, text);
            }
            Kind::DeleteOne => {
                db.remove(&board);
            }
            Kind::DeleteAll => {
                let filter = match deletion_filter(args) {
                    Ok(f) => f,
                    Err(e) => return out.error(&format!("{word}: {e}")),
                };
                out.message("Deleting child records, this might take a while...");
                let t = Instant::now();
                let n = db.delete_children(&board, filter.as_deref());
                out.message(&format!(
                    "Done deleting {n} records using {} ms.",
                    t.elapsed().as_millis()
                ));
                query_all(db, &board, out);
            }
        }
        if !kind.is_query() {
            self.dirty = true;
            self.flush(out);
        } else if board.stone_count() > 0 && !readonly {
            // A query of a position not in the database records it as seen (as Rapfi does):
            // Yixin-Board's tree of visited positions grows as one browses.
            self.dirty |= self
                .open
                .as_mut()
                .is_some_and(|(_, db)| db.insert_new(&board, Record::labelled(LABEL_NONE)));
        }
    }
}

/// The database in `path`; an empty one when there is no such file.
fn load(path: &Path) -> Result<Database, String> {
    match std::fs::read(path) {
        Ok(bytes) => Database::parse(&bytes).map_err(|e| e.to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Database::default()),
        Err(e) => Err(e.to_string()),
    }
}

/// Writes `bytes` to `path` so that the file is at every moment either the old one or the new
/// one, whole: a temporary file beside it, flushed to disk, renamed over it (atomic on one file
/// system), then the directory flushed so the rename itself survives a crash.
pub fn save_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// What Yixin-Board draws on a square for a record (Rapfi's display label): the label's
/// character, with the moves to the end for a proven win or loss (`*` when unknown); for an
/// exact value without a label, the mover's win rate in percent.
pub fn display_label(r: &Record, rule: Rule) -> String {
    let mut s = String::new();
    if r.label > 0 {
        s.push(r.label as u8 as char);
        if matches!(r.label, LABEL_WIN | LABEL_LOSE) {
            let mover = -r.value;
            let proven = (r.label == LABEL_WIN && is_decisive(mover) && mover > 0)
                || (r.label == LABEL_LOSE && is_decisive(mover) && mover < 0);
            if proven {
                let plies = WIN - mover.abs();
                s.push_str(&((plies + 1) / 2).to_string());
            } else {
                s.push('*');
            }
        }
    } else if r.label == LABEL_NONE && r.bound == BOUND_EXACT {
        // The mover's win rate, on the curve of `INFO WINRATE`.
        let rate = crate::eval::win_probability(rule, -r.value);
        s = format!("{}%", ((rate * 100.0) as i64).clamp(0, 99));
    }
    s
}

/// The display label as Yixin-Board reads it: up to four characters packed big-endian into
/// an integer, `-1` for none.
pub fn label_code(label: &str) -> i64 {
    if label.is_empty() {
        return -1;
    }
    label.bytes().take(4).fold(0i64, |v, c| (v << 8) | c as i64)
}

/// `MESSAGE DATABASE x y label value depth bound hasText boardText` for each square with a
/// child record or a board text, between `DATABASE REFRESH` and `DATABASE DONE`.
fn query_all(db: &Database, board: &Board, out: &Output) {
    out.message("DATABASE REFRESH");
    let children = db.children(board);
    let texts = db.board_texts(board);
    let mut squares: Vec<_> = children
        .iter()
        .map(|&(p, _)| p)
        .chain(texts.iter().map(|(p, _)| *p))
        .collect();
    squares.sort();
    squares.dedup();
    let empty = Record::default();
    for p in squares {
        let r = children
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(&empty, |(_, r)| *r);
        let text = texts
            .iter()
            .find(|(q, _)| *q == p)
            .map_or("", |(_, t)| t.as_str());
        let mut line = format!(
            "DATABASE {} {} {} {} {} {} {}",
            p.x(),
            p.y(),
            label_code(&display_label(r, board.rule())),
            r.value,
            r.depth,
            r.bound,
            !r.comment.is_empty() as u8,
        );
        // Rapfi ends the line with a blank when there is no text; a line must not end in one.
        if !text.is_empty() {
            line.push(' ');
            line.push_str(text);
        }
        out.message(&line);
    }
    out.message("DATABASE DONE");
}

/// `MESSAGE DATABASE ONE label value depth bound displayLabel`, or `… ONE 0 0 0 0`.
fn query_one(db: &Database, board: &Board, out: &Output) {
    match db.get(board) {
        Some(r) => out.message(&format!(
            "DATABASE ONE {} {} {} {} {}",
            r.label,
            r.value,
            r.depth,
            r.bound,
            display_label(r, board.rule())
        )),
        None => out.message("DATABASE ONE 0 0 0 0"),
    }
}

/// `MESSAGE DATABASE TEXT "comment"`, quoted with `\"` and `\\` escaped.
fn query_text(db: &Database, board: &Board, out: &Output) {
    let text = db.get(board).map_or("", |r| r.comment.as_str());
    out.message(&format!("DATABASE TEXT {}", quote(text)));
}

/// A text in double quotes, `"` and `\` escaped by `\`.
pub fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// The text of a quoted argument (`"…"`, with `\"` and `\\`), or its first word when it is
/// not quoted (as C++'s `std::quoted` reads).
pub fn unquote(s: &str) -> String {
    let s = s.trim_start();
    let Some(body) = s.strip_prefix('"') else {
        return s.split_whitespace().next().unwrap_or("").to_string();
    };
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '"' => break,
            c => out.push(c),
        }
    }
    out
}

/// `mask label value depth` of `YXEDITTVDDATABASE`: the label as a character code (`W`, `L`,
/// `D`, `X` stand for the lower-case result labels).
fn parse_tvd(args: &str) -> Option<(Mask, Record)> {
    let n: Vec<i64> = args
        .split_whitespace()
        .map(|t| t.parse().ok())
        .collect::<Option<Vec<i64>>>()?;
    let &[mask, label, value, depth] = n.as_slice() else {
        return None;
    };
    let label = match u8::try_from(label).ok().map(char::from) {
        Some('W') => LABEL_WIN,
        Some('L') => LABEL_LOSE,
        Some('D') => LABEL_DRAW,
        Some('X') => LABEL_BLOCK,
        _ => i8::try_from(label).ok()?,
    };
    let record = Record {
        label,
        value: i32::try_from(value).ok()?.clamp(-WIN, WIN),
        depth: depth.clamp(0, i16::MAX as i64) as i16,
        bound: BOUND_EXACT,
        ..Record::default()
    };
    Some((Mask(u32::try_from(mask).ok()? & 7), record))
}

type Filter = Box<dyn Fn(&Record) -> Deletion>;

/// The optional type of `YXDELETEDATABASEALL` (Rapfi's): `W`, `L`, `WL`, `WLD` delete the
/// records with those labels and all after them; `NONWL`, `NONWLD` the others; a `RECURSIVE`
/// suffix also looks past the records kept; `WLNOSTEP` / `WLINSTEP n` delete win and loss
/// labels without a proven distance / with one of at most `n` moves. No type: everything.
fn deletion_filter(args: &str) -> Result<Option<Filter>, String> {
    let mut words = args.split_whitespace();
    let Some(kind) = words.next() else {
        return Ok(None);
    };
    let kind = kind.to_ascii_uppercase();
    let (base, recursive) = match kind.strip_suffix("RECURSIVE") {
        Some(b) => (b.to_string(), true),
        None => (kind.clone(), false),
    };
    let miss = if recursive {
        Deletion::KeepAndLookFurther
    } else {
        Deletion::Keep
    };
    let wl = |r: &Record| matches!(r.label, LABEL_WIN | LABEL_LOSE);
    let proven = |r: &Record| is_decisive(r.value);
    let steps = |r: &Record| (WIN - r.value.abs() + 1) / 2;
    let pick: Box<dyn Fn(&Record) -> bool> = match base.as_str() {
        "W" => Box::new(|r: &Record| r.label == LABEL_WIN),
        "L" => Box::new(|r: &Record| r.label == LABEL_LOSE),
        "WL" => Box::new(wl),
        "WLD" => Box::new(|r: &Record| r.is_determined()),
        "NONWL" => Box::new(move |r: &Record| !wl(r)),
        "NONWLD" => Box::new(|r: &Record| !r.is_determined()),
        "WLNOSTEP" => Box::new(move |r: &Record| wl(r) && !proven(r)),
        "WLINSTEP" => {
            let n: i32 = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or("WLINSTEP needs a number of moves")?;
            Box::new(move |r: &Record| wl(r) && proven(r) && steps(r) <= n)
        }
        _ => return Err(format!("unknown delete type {kind}")),
    };
    Ok(Some(Box::new(move |r: &Record| {
        if pick(r) {
            Deletion::Delete
        } else {
            miss
        }
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_as_yixin_board_draws_them() {
        let win = Record {
            label: LABEL_WIN,
            value: -(WIN - 7),
            ..Record::default()
        };
        assert_eq!(display_label(&win, Rule::Freestyle), "w4");
        let unproven = Record {
            value: 0,
            ..win.clone()
        };
        assert_eq!(display_label(&unproven, Rule::Freestyle), "w*");
        let even = Record {
            label: LABEL_NONE,
            bound: BOUND_EXACT,
            ..Record::default()
        };
        assert_eq!(display_label(&even, Rule::Freestyle), "50%");
        assert_eq!(display_label(&Record::default(), Rule::Freestyle), "");
        assert_eq!(label_code("w4"), (b'w' as i64) << 8 | b'4' as i64);
        assert_eq!(label_code(""), -1);
    }

    #[test]
    fn quoted_texts_go_both_ways() {
        for s in ["plain", "two words", "a \"quote\" and a \\ backslash", ""] {
            assert_eq!(unquote(&quote(s)), s);
        }
        assert_eq!(unquote("  word and more"), "word");
    }

    #[test]
    fn edit_numbers_map_result_letters() {
        let (mask, r) = parse_tvd("7 87 -29990 12").unwrap();
        assert_eq!(
            (mask, r.label, r.value, r.depth),
            (Mask(7), LABEL_WIN, -29_990, 12)
        );
        assert!(parse_tvd("7 87 1").is_none());
        assert!(parse_tvd("7 x 1 2").is_none());
    }

    #[test]
    fn a_save_replaces_the_file_whole() {
        let dir = std::env::temp_dir().join(format!("pentad-db-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.db");
        save_atomically(&path, b"first").unwrap();
        save_atomically(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert!(!dir.join("a.db.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
