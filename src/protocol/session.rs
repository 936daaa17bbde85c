//! The session: the position, the manager's settings and the search, driven by input lines and
//! by the search worker's results, all arriving on one channel.
//!
//! How the protocol's open questions are settled here (protocol.md §13):
//! * `START`/`RESTART` reset the position and keep every `INFO` setting; they answer exactly `OK`.
//! * Bad `TURN`/`TAKEBACK`/`PLAY` coordinates: one `ERROR` line, position unchanged, no move.
//! * `BOARD` replaces the position. Bad, duplicate or off-board stone lines are skipped, reported
//!   in one `MESSAGE` line, and a move is still answered (§13.5).
//! * Colours in `BOARD`/`YXBOARD` (field 1 = own, 2 = opponent): I am the side to move, and I am
//!   black when I have at least as many stones as the opponent, white otherwise. That gives the
//!   two normal cases (equal counts: black; opponent one stone ahead: white) and, for
//!   inconsistent counts, makes the side with more stones black.
//! * `TURN` places the opponent's stone for the side to move, then the engine answers for the
//!   other side; a first `TURN` after `START` is therefore black's first stone.
//! * A search ends in exactly one move line, also when stopped by `YXSTOP`, `INFO timeout_turn 0`
//!   or by a command that changes the position (§13.8); `END` ends everything with no output.
//! * Search threads: 1 unless `INFO thread_num` says otherwise. Transposition table:
//!   `HASH_SHARE_PCT` of `max_memory` (350 MiB when 0 or never sent), or `INFO hash_size` KB if
//!   smaller; re-sized when either changes.
//! * Lines that had already been read when a search started (a script piped in one go) do not
//!   interrupt it: they wait for its move. End of input stops every search at once (each still
//!   answers its move) and then ends the session.
//! * Yixin-Board (protocol.md §8): `YXNBEST`, `YXBALANCEONE`/`TWO` and `YXSEARCHDEFEND` run like a
//!   move search (see [`tasks`](super::tasks)) and end in one answer line, played on the board as
//!   Rapfi does; they interrupt a running search like BOARD does. `YXBLOCK` squares stay blocked
//!   for every later search until `YXBLOCKUNDO`/`YXBLOCKRESET`. After `YXSHOWINFO` unknown `YX…`
//!   commands get no answer (Yixin-Board sends many this engine does not know). The realtime lines and
//!   `INFO PV` blocks appear only after `INFO show_detail` asked for them.
//! * `INFO pondering 1`: after each move answered to BEGIN/TURN/BOARD/PLAY, the engine searches
//!   the opponent's position in the background, silently, until the next command (any command
//!   but INFO stops it; YXSTOP stops it without output). The table keeps what it found.
//! * `INFO hash_size` KB sets the table size when no `max_memory` was sent (Yixin-Board sends
//!   none); with both, the smaller limit wins.

use super::command::{
    excerpt, parse_command, parse_int, parse_stone_line, Command, Info, StoneLine,
};
use super::database::Db;
use super::input::Input;
use super::output::Output;
use super::tasks::{self, Answer, Gui, Job, Task};
use crate::board::Board;
use crate::book::Book;
use crate::rules::Rule;
use crate::search::{self, Engine, Limits};
use crate::time::{TimeControl, UNLIMITED_MS};
use crate::types::{Color, Depth, Pos, AREA, MAX_SIDE, MIN_SIDE, PAD, STRIDE};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Memory limit assumed when the manager sets none (`max_memory` 0 or absent): Gomocup's 350 MiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 350 << 20;
/// Share of the memory limit given to the transposition table, in percent.
pub const HASH_SHARE_PCT: u64 = 45;
/// Most search threads accepted from `INFO thread_num`.
pub const MAX_THREADS: usize = 256;
/// Deepest `INFO max_depth` passed on.
pub const MAX_DEPTH: i64 = 1000;
/// Longest search for a Swap2 decision (cases 2 and 3); the move's own time budget applies too.
pub const SWAP2_MAX_TIME: Duration = Duration::from_secs(5);
/// Stack of the search worker thread.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Largest table `INFO hash_size` may ask for, as a power of two of KB (`MESSAGE INFO
/// MAX_HASH_SIZE`): 4 GiB.
pub const MAX_HASH_LOG2_KB: u32 = 22;

/// Engine name in `ABOUT`.
pub const NAME: &str = "pentad";
/// Author in `ABOUT`.
pub const AUTHOR: &str = "Pentad developers";
/// Country in `ABOUT`.
pub const COUNTRY: &str = "International";

/// The `ABOUT` answer: one line of `key="value"` pairs; values hold no `,` `"` `=` (some
/// managers split on them, protocol.md §2.9).
pub fn about_line() -> String {
    let www = [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or("none");
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, ',' | '"' | '=') && !c.is_control())
            .collect()
    };
    format!(
        "name=\"{}\", version=\"{}\", author=\"{}\", country=\"{}\", www=\"{}\"",
        clean(NAME),
        clean(env!("CARGO_PKG_VERSION")),
        clean(AUTHOR),
        clean(COUNTRY),
        clean(www)
    )
}

/// Why the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `END` was received.
    End,
    /// The input ended.
    Eof,
    /// The output could not be written (the manager is gone).
    BrokenPipe,
}

/// What arrives on the session's channel.
pub enum Event<E> {
    /// From the input reader.
    Input(Input),
    /// A search finished.
    Done(Box<Done<E>>),
}

impl<E> From<Input> for Event<E> {
    fn from(i: Input) -> Self {
        Event::Input(i)
    }
}

/// A finished search, handed back by the worker thread.
pub struct Done<E> {
    /// The engine, back for the next search (`None` if it panicked).
    engine: Option<E>,
    /// The answer (`None` if the engine panicked or could not be run).
    answer: Option<Answer>,
    task: Task,
    /// When the command that asked for it arrived.
    start: Instant,
    /// The score and depth of a move's search, for the database.
    found: Option<(crate::types::Value, Depth)>,
}

/// The kind of stone block being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    /// `YXBLOCK`: squares to block.
    Block,
    /// `YXBLOCKUNDO`: squares to unblock.
    Unblock,
    /// A database command's position (its word and arguments are in the block).
    Database,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::Block => "YXBLOCK",
            BlockKind::Unblock => "YXBLOCKUNDO",
            BlockKind::Database => "YXDATABASE",
        }
    }
}

/// A stone block being read (`BOARD` … `DONE`).
struct Block {
    kind: BlockKind,
    /// Stamp of the opening line (the move's budget counts from it).
    start: Instant,
    stones: Vec<(i64, i64, Option<i64>)>,
    /// Rejected lines, with the reason.
    bad: Vec<String>,
    /// A database command's word and the rest of its line.
    command: Option<(String, String)>,
}

/// A line waiting for the running search to end.
struct Pending {
    text: String,
    at: Instant,
    /// Read before the search started (a piped script): its clock starts when it is handled.
    restamp: bool,
}

/// A search in progress.
struct Running {
    stop: Arc<AtomicBool>,
    /// When the command that asked for this search was read.
    asked: Instant,
    started: Instant,
    task: Task,
}

/// The session state.
pub struct Session<E: Engine> {
    out: Output,
    tx: Sender<Event<E>>,
    make_engine: Box<dyn FnMut(usize) -> E>,
    /// Board size from the last START/RECTSTART (`None` before the first one).
    size: Option<(usize, usize)>,
    /// The position; made from `size` when a command first needs it (see `ensure_board`).
    board: Option<Board>,
    rule: Rule,
    tc: TimeControl,
    /// The match clock as our last move left it (for learning an increment nobody sent).
    expected_left: Option<i64>,
    max_memory: i64,
    hash_kb: Option<i64>,
    max_depth: Option<Depth>,
    max_nodes: Option<u64>,
    threads: usize,
    /// The engine while idle (`None` before the first search, or while it searches).
    engine: Option<E>,
    /// Table size the engine was made or last resized for.
    engine_bytes: usize,
    running: Option<Running>,
    block: Option<Block>,
    pending: VecDeque<Pending>,
    /// A queued line opened a stone block whose `DONE` is not queued yet.
    pending_block: bool,
    eof: bool,
    /// `YXSHOWINFO` was received: Yixin-Board's GUI mode.
    gui_mode: bool,
    /// `INFO show_detail`.
    show_detail: i64,
    /// `INFO pondering 1`.
    pondering: bool,
    /// `YXBLOCK` squares, as sent.
    blocked: Vec<(i64, i64)>,
    /// The opening book, if the session has one.
    book: Option<&'static Book>,
    /// The book is used (`INFO usedatabase 0` turns it off).
    use_book: bool,
    /// Yixin-Board's database.
    db: Db,
}

impl<E: Engine> Session<E> {
    /// A session writing to `out`; `tx` is the sending side of the channel the session loop
    /// reads; `make_engine(bytes)` makes the engine when the first search needs it.
    pub fn new(
        out: Output,
        tx: Sender<Event<E>>,
        make_engine: Box<dyn FnMut(usize) -> E>,
        book: Option<&'static Book>,
    ) -> Session<E> {
        Session {
            out,
            tx,
            make_engine,
            size: None,
            board: None,
            rule: Rule::Freestyle,
            tc: TimeControl::default(),
            expected_left: None,
            max_memory: 0,
            hash_kb: None,
            max_depth: None,
            max_nodes: None,
            threads: 1,
            engine: None,
            engine_bytes: 0,
            running: None,
            block: None,
            pending: VecDeque::new(),
            pending_block: false,
            eof: false,
            gui_mode: false,
            show_detail: 0,
            pondering: false,
            blocked: Vec::new(),
            book,
            use_book: true,
            db: Db::default(),
        }
    }

    /// Saves what must outlive the process (the database), once the session has ended.
    pub fn finish(&mut self) {
        self.db.flush(&self.out);
    }

    /// Runs until `END`, the end of input, or a broken output.
    pub fn run(&mut self, rx: &Receiver<Event<E>>) -> Exit {
        loop {
            if self.out.is_broken() {
                self.stop_search();
                return Exit::BrokenPipe;
            }
            if self.running.is_none() {
                if let Some(p) = self.pending.pop_front() {
                    if self.pending.is_empty() {
                        self.pending_block = false;
                    }
                    let at = if p.restamp { Instant::now() } else { p.at };
                    if let Some(exit) = self.handle_line(&p.text, at) {
                        return exit;
                    }
                    continue;
                }
                if self.eof {
                    return Exit::Eof;
                }
            }
            let Ok(event) = rx.recv() else {
                return Exit::Eof;
            };
            match event {
                Event::Input(Input::Line { text, at }) => {
                    let exit = if self.running.is_some() {
                        self.line_while_searching(text, at)
                    } else {
                        self.handle_line(&text, at)
                    };
                    if let Some(exit) = exit {
                        return exit;
                    }
                }
                Event::Input(Input::Eof) => {
                    self.eof = true;
                    self.stop_search();
                }
                Event::Done(done) => self.finish_search(*done),
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Lines

    /// A line that arrived while a search runs.
    fn line_while_searching(&mut self, text: String, at: Instant) -> Option<Exit> {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.task == Task::Ponder)
        {
            return self.line_while_pondering(text, at);
        }
        let (asked, started) = self
            .running
            .as_ref()
            .map_or((at, at), |r| (r.asked, r.started));
        if at <= started {
            // A stop read after the command that asked for this search is meant for it, even
            // when the search took a while to start (building the rule's tables).
            if at > asked {
                match parse_command(&text) {
                    Command::Stop => {
                        self.stop_search();
                        return None;
                    }
                    Command::Info(info @ Info::TimeoutTurn(..=0)) => {
                        self.apply_info(info);
                        return None;
                    }
                    _ => {}
                }
            }
            // Already read when the search started: it waits for the move.
            self.queue(text, at, true);
            return None;
        }
        if self.pending_block {
            // Stone lines of a queued BOARD: only END cuts in.
            if parse_command(&text) == Command::End {
                return Some(self.end());
            }
            self.queue(text, at, false);
            return None;
        }
        let cmd = parse_command(&text);
        match cmd {
            Command::Blank => {}
            Command::YxShowInfo => self.show_info(),
            Command::Stop => self.stop_search(),
            Command::End => return Some(self.end()),
            Command::Info(info) => self.apply_info(info),
            c if c.interrupts_search() => {
                self.stop_search();
                self.queue(text, at, false);
            }
            // ABOUT, YXSHOWFORBID, unknown commands…: answered after the move.
            _ => self.queue(text, at, false),
        }
        None
    }

    /// A line while pondering: INFO applies, YXSTOP ends the ponder silently, END ends all, and
    /// any other command ends the ponder and is handled right after (its clock running).
    fn line_while_pondering(&mut self, text: String, at: Instant) -> Option<Exit> {
        let cmd = parse_command(&text);
        if self.pending_block {
            if cmd == Command::End {
                return Some(self.end());
            }
            self.queue(text, at, false);
            return None;
        }
        match cmd {
            Command::Blank => {}
            Command::End => return Some(self.end()),
            Command::Info(info) => self.apply_info(info),
            Command::Stop => self.stop_search(),
            _ => {
                self.stop_search();
                self.queue(text, at, false);
            }
        }
        None
    }

    fn queue(&mut self, text: String, at: Instant, restamp: bool) {
        if self.pending_block {
            if parse_stone_line(&text) == StoneLine::Done {
                self.pending_block = false;
            }
        } else if parse_command(&text).opens_block() {
            self.pending_block = true;
        }
        self.pending.push_back(Pending { text, at, restamp });
    }

    /// Handles one line while no search runs.
    fn handle_line(&mut self, text: &str, at: Instant) -> Option<Exit> {
        if self.block.is_some() {
            return self.block_line(text);
        }
        let cmd = parse_command(text);
        log::debug!("command {cmd:?}");
        match cmd {
            Command::Blank => {}
            Command::YxShowInfo => self.show_info(),
            Command::Info(info) => self.apply_info(info),
            Command::Start { size } => self.start(size, size),
            Command::RectStart { width, height } => self.start(width, height),
            Command::Restart => {
                if self.size.is_none() {
                    self.out.error("RESTART before START: no board to restart");
                } else {
                    self.expected_left = None;
                    if let Some(b) = &mut self.board {
                        b.clear();
                    }
                    self.db.flush(&self.out);
                    self.out.line("OK");
                }
            }
            Command::Begin => {
                if self.ensure_board() {
                    self.search_move(at);
                } else {
                    self.no_board("BEGIN");
                }
            }
            Command::YxNBest { n } => {
                let n = n.clamp(1, crate::search::multipv::MAX_NBEST as i64) as usize;
                self.analysis("YXNBEST", Task::NBest(n), at);
            }
            Command::YxBalanceOne { bias } => self.analysis(
                "YXBALANCEONE",
                Task::Balance {
                    two: false,
                    bias: bias.clamp(-20_000, 20_000) as i32,
                },
                at,
            ),
            Command::YxBalanceTwo { bias } => self.analysis(
                "YXBALANCETWO",
                Task::Balance {
                    two: true,
                    bias: bias.clamp(-20_000, 20_000) as i32,
                },
                at,
            ),
            Command::YxSearchDefend => self.analysis("YXSEARCHDEFEND", Task::Defend, at),
            Command::YxBlock => self.open_block(BlockKind::Block, at),
            Command::YxBlockUndo => self.open_block(BlockKind::Unblock, at),
            Command::YxBlockReset => self.blocked.clear(),
            Command::YxDatabase { word, args } => {
                self.open_block(BlockKind::Database, at);
                if let Some(b) = &mut self.block {
                    b.command = Some((word, args));
                }
            }
            Command::YxSetDatabase { path } => self.db.set_path(&path, &self.out),
            Command::YxSaveDatabase => self.db.save_command(&self.out),
            Command::YxShowHashUsage => {
                let permille = self.engine.as_ref().map_or(0, |e| e.hash_usage_permille());
                self.out.message(&format!(
                    "Transposition table full: {}.{}%",
                    permille / 10,
                    permille % 10
                ));
            }
            Command::Turn { x, y } => self.turn(x, y, at),
            Command::Board => self.open_block(BlockKind::Board, at),
            Command::YxBoard => self.open_block(BlockKind::YxBoard, at),
            Command::Swap2Board => self.open_block(BlockKind::Swap2, at),
            Command::End => return Some(self.end()),
            Command::About => self.out.line(&about_line()),
            Command::Takeback { x, y } => self.takeback(x, y),
            Command::Play { x, y } => self.play(x, y),
            Command::Stop => {}
            Command::YxShowForbid => self.show_forbid(),
            Command::YxHashClear => {
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
                self.out.message("hash table cleared");
            }
            Command::Malformed { reason, .. } => self.out.error(&reason),
            // Yixin-Board sends many YX commands this engine does not know: silence, as Rapfi.
            Command::Unknown { word } if self.gui_mode && is_yx(&word) => {
                log::debug!("unknown command {word} ignored in GUI mode");
            }
            Command::Unknown { word } => self.out.line(&format!("UNKNOWN command {word}")),
        }
        None
    }

    /// `YXSHOWINFO`: Yixin-Board's GUI mode, and the limits it shows in its settings.
    fn show_info(&mut self) {
        self.gui_mode = true;
        self.out
            .message(&format!("{} {}", NAME, env!("CARGO_PKG_VERSION")));
        self.out
            .message(&format!("INFO MAX_THREAD_NUM {MAX_THREADS}"));
        self.out
            .message(&format!("INFO MAX_HASH_SIZE {MAX_HASH_LOG2_KB}"));
    }

    /// An analysis command of Yixin-Board: a search answered like a move.
    fn analysis(&mut self, name: &str, task: Task, at: Instant) {
        if !self.ensure_board() {
            return self.no_board(name);
        }
        if self.board.as_ref().is_some_and(|b| b.empty_count() == 0) {
            return self.out.error("no move possible: the board is full");
        }
        self.start_search(at, task);
    }

    fn end(&mut self) -> Exit {
        self.stop_search();
        self.db.flush(&self.out);
        self.out.close();
        Exit::End
    }

    fn no_board(&self, command: &str) {
        self.out
            .error(&format!("{command} before START: no board yet"));
    }

    // ---------------------------------------------------------------------------------------
    // Settings

    fn apply_info(&mut self, info: Info) {
        log::debug!("info {info:?}");
        match info {
            Info::TimeoutTurn(v) => {
                self.tc.turn_ms = Some(v);
                if v <= 0 {
                    // Piskvork's "Continue": answer now.
                    self.stop_search();
                }
            }
            Info::TimeoutMatch(v) => self.tc.match_ms = Some(v),
            Info::TimeLeft(v) => {
                // What the clock would show now had nothing been added since our last move.
                if let Some(expected) = self.expected_left.take() {
                    self.tc.learn_increment(expected, v);
                }
                self.tc.left_ms = Some(v);
            }
            Info::TimeIncrement(v) => self.tc.increment_ms = v.max(0),
            Info::MaxMemory(v) => {
                self.max_memory = v;
                self.resize_engine();
            }
            Info::HashSize(v) => {
                self.hash_kb = (v > 0).then_some(v);
                self.resize_engine();
            }
            Info::MaxDepth(v) => {
                self.max_depth = (v > 0).then(|| v.min(MAX_DEPTH) as Depth);
            }
            Info::MaxNode(v) => self.max_nodes = (v > 0).then_some(v as u64),
            Info::Pondering(v) => {
                self.pondering = v == 1;
                if !self.pondering
                    && self
                        .running
                        .as_ref()
                        .is_some_and(|r| r.task == Task::Ponder)
                {
                    self.stop_search();
                }
            }
            Info::ShowDetail(v) => self.show_detail = v,
            Info::ThreadNum(v) => self.threads = v.clamp(1, MAX_THREADS as i64) as usize,
            Info::Rule(v) => {
                self.rule = Rule::from_info(v);
                if let Some(b) = &mut self.board {
                    b.set_rule(self.rule);
                }
                log::debug!("rule {:?}", self.rule);
            }
            Info::Folder(f) => self.db.set_folder(&f),
            Info::Extension {
                key: "usedatabase",
                value,
            } => {
                let on = parse_int(&value).unwrap_or(0);
                self.use_book = on != 0;
                self.db.set_enabled(on == 1, &self.out);
            }
            Info::Extension {
                key: "database_readonly",
                value,
            } => self.db.set_readonly(parse_int(&value).unwrap_or(0) == 1),
            Info::Extension { .. } => {}
            Info::GameType(_)
            | Info::Evaluate { .. }
            | Info::UnknownKey { .. }
            | Info::BadValue { .. } => {}
        }
    }

    /// Bytes for the transposition table: `HASH_SHARE_PCT` of the memory limit, or `hash_size`
    /// if smaller, rounded down to whole MiB (at least 1 MiB).
    pub fn hash_bytes(&self) -> usize {
        const MIB: u64 = 1 << 20;
        let limit = if self.max_memory > 0 {
            self.max_memory as u64
        } else {
            DEFAULT_MEMORY_LIMIT
        };
        let mut bytes = limit / 100 * HASH_SHARE_PCT;
        if let Some(kb) = self.hash_kb {
            let asked = (kb as u64).min(1 << MAX_HASH_LOG2_KB).saturating_mul(1024);
            bytes = if self.max_memory > 0 {
                bytes.min(asked)
            } else {
                asked
            };
        }
        let bytes = (bytes / MIB * MIB).max(MIB);
        bytes.min(usize::MAX as u64) as usize
    }

    fn resize_engine(&mut self) {
        let bytes = self.hash_bytes();
        if let Some(e) = &mut self.engine {
            if bytes != self.engine_bytes {
                log::debug!("hash resized to {bytes} bytes");
                e.resize(bytes);
                self.engine_bytes = bytes;
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Position commands

    fn start(&mut self, width: i64, height: i64) {
        let ok = |s: i64| (MIN_SIDE as i64..=MAX_SIDE as i64).contains(&s);
        if !ok(width) || !ok(height) {
            let size = if width == height {
                format!("{width}")
            } else {
                format!("{width}x{height}")
            };
            self.out.error(&format!(
                "unsupported board size {size}: sides {MIN_SIDE} to {MAX_SIDE}"
            ));
            return;
        }
        self.size = Some((width as usize, height as usize));
        self.board = None;
        self.expected_left = None;
        // A new game: what the last one taught the database goes to disk.
        self.db.flush(&self.out);
        self.out.line("OK");
    }

    /// Makes the board of the last START if it is not made yet, and tells whether there is one.
    /// Making it late matters: building a rule's shape tables takes a while, and managers send
    /// `INFO rule` after START, so a board made at START would often build the wrong ones.
    fn ensure_board(&mut self) -> bool {
        if self.board.is_none() {
            if let Some((w, h)) = self.size {
                match Board::new(w, h, self.rule) {
                    Ok(b) => self.board = Some(b),
                    Err(e) => log::error!("cannot make the board: {e}"),
                }
            }
        }
        self.board.is_some()
    }

    /// The on-board square (x, y) of the current board.
    fn square(&self, x: i64, y: i64) -> Result<Pos, String> {
        let b = self.board.as_ref().ok_or("no board yet")?;
        b.pos(x, y)
            .ok_or_else(|| format!("{x},{y} is off the {}x{} board", b.width(), b.height()))
    }

    fn turn(&mut self, x: i64, y: i64, at: Instant) {
        if !self.ensure_board() {
            return self.no_board("TURN");
        }
        let p = match self.square(x, y) {
            Ok(p) => p,
            Err(e) => return self.out.error(&format!("TURN {e}")),
        };
        let board = self.board.as_mut().expect("checked above");
        if !board.is_empty(p) {
            return self.out.error(&format!("TURN {p} is not empty"));
        }
        board.play(p);
        self.search_move(at);
    }

    fn takeback(&mut self, x: i64, y: i64) {
        if !self.ensure_board() {
            return self.no_board("TAKEBACK");
        }
        let p = match self.square(x, y) {
            Ok(p) => p,
            Err(e) => return self.out.error(&format!("TAKEBACK {e}")),
        };
        let board = self.board.as_mut().expect("checked above");
        let owner = board.cell(p).color();
        match owner {
            Some(c) if board.remove(p) => {
                // The owner of the stone taken back is to move again.
                board.set_side_to_move(c);
                self.out.line("OK");
            }
            _ => self.out.error(&format!("TAKEBACK {p}: no stone there")),
        }
    }

    fn play(&mut self, x: i64, y: i64) {
        if !self.ensure_board() {
            return self.no_board("PLAY");
        }
        let p = match self.square(x, y) {
            Ok(p) => p,
            Err(e) => return self.out.error(&format!("PLAY {e}")),
        };
        let board = self.board.as_mut().expect("checked above");
        if !board.is_empty(p) {
            return self.out.error(&format!("PLAY {p} is not empty"));
        }
        let over = board.wins_by(board.side_to_move(), p);
        board.play(p);
        self.out.line(&p.to_string());
        if !over && board.empty_count() > 0 {
            self.maybe_ponder();
        }
    }

    fn show_forbid(&self) {
        let mut s = String::from("FORBID ");
        if let Some(b) = &self.board {
            if b.rule() == Rule::Renju && b.side_to_move() == Color::Black {
                for y in 0..b.height() {
                    for x in 0..b.width() {
                        let p = Pos::new(x, y);
                        if b.is_empty(p) && b.is_foul(Color::Black, p) {
                            s.push_str(&format!("{x:02}{y:02}"));
                        }
                    }
                }
            }
        }
        s.push('.');
        self.out.line(&s);
    }

    // ---------------------------------------------------------------------------------------
    // Stone blocks

    fn open_block(&mut self, kind: BlockKind, at: Instant) {
        self.block = Some(Block {
            kind,
            start: at,
            stones: Vec::new(),
            bad: Vec::new(),
            command: None,
        });
    }

    fn block_line(&mut self, text: &str) -> Option<Exit> {
        let parsed = parse_stone_line(text);
        let block = self.block.as_mut().expect("in a block");
        match parsed {
            StoneLine::Done => {
                let block = self.block.take().expect("in a block");
                self.finish_block(block);
            }
            StoneLine::Blank => {}
            StoneLine::Stone { x, y, field } => block.stones.push((x, y, field)),
            StoneLine::Bad => {
                if parse_command(text) == Command::End {
                    return Some(self.end());
                }
                block
                    .bad
                    .push(format!("'{}' is not x,y,field", excerpt(text)));
            }
        }
        None
    }

    fn finish_block(&mut self, block: Block) {
        match block.kind {
            BlockKind::Database => {
                let Some((word, args)) = block.command else {
                    return;
                };
                if !self.ensure_board() {
                    return self.no_board(&word);
                }
                let board = self.board.as_ref().expect("just made");
                let moves: Vec<(i64, i64)> = block.stones.iter().map(|&(x, y, _)| (x, y)).collect();
                self.db.command(&word, &args, board, &moves, &self.out);
                return;
            }
            BlockKind::Block | BlockKind::Unblock => {
                for &(x, y, _) in &block.stones {
                    let known = self.blocked.contains(&(x, y));
                    if block.kind == BlockKind::Block && !known {
                        self.blocked.push((x, y));
                    } else if block.kind == BlockKind::Unblock && known {
                        self.blocked.retain(|&b| b != (x, y));
                    }
                }
                return;
            }
            _ => {}
        }
        if !self.ensure_board() {
            return self.no_board(block.kind.name());
        }
        let board = self.board.as_mut().expect("just made");
        if block.kind == BlockKind::Swap2 {
            return self.swap2(block);
        }
        let mut bad = block.bad;
        set_position(board, &block.stones, &mut bad);
        if !bad.is_empty() {
            let n = bad.len();
            let shown: Vec<&str> = bad.iter().take(5).map(String::as_str).collect();
            let more = if n > 5 { "; ..." } else { "" };
            self.out.message(&format!(
                "{} skipped {n} bad line{}: {}{more}",
                block.kind.name(),
                if n == 1 { "" } else { "s" },
                shown.join("; ")
            ));
        }
        if block.kind == BlockKind::Board {
            self.search_move(block.start);
        }
    }

    /// SWAP2BOARD: 0 stones → propose three; 3 or 5 stones → search, then `SWAP` or a move.
    fn swap2(&mut self, block: Block) {
        let board = self.board.as_mut().expect("checked by the caller");
        if let Some(e) = block.bad.first() {
            return self.out.error(&format!("SWAP2BOARD: {e}"));
        }
        let n = block.stones.len();
        if !matches!(n, 0 | 3 | 5) {
            return self
                .out
                .error(&format!("SWAP2BOARD needs 0, 3 or 5 stones, got {n}"));
        }
        let mut squares = Vec::with_capacity(n);
        for &(x, y, field) in &block.stones {
            let p = match board.pos(x, y) {
                Some(p) if field.is_none() => p,
                Some(_) => return self.out.error("SWAP2BOARD stones are x,y lines"),
                None => {
                    return self
                        .out
                        .error(&format!("SWAP2BOARD {x},{y} is off the board"))
                }
            };
            if squares.contains(&p) {
                return self.out.error(&format!("SWAP2BOARD {p} is given twice"));
            }
            squares.push(p);
        }
        board.clear();
        for &p in &squares {
            board.play(p);
        }
        if n == 0 {
            // Three stones chosen by search among the classic openings.
            return self.start_search(block.start, Task::Swap2Open);
        }
        // White to move: search, then SWAP (take black) when white stands worse.
        self.start_search(block.start, Task::Swap2);
    }

    // ---------------------------------------------------------------------------------------
    // Searches

    /// Starts a search for the side to move, answered by a move line.
    fn search_move(&mut self, at: Instant) {
        let board = self.board.as_ref().expect("a board");
        if board.empty_count() == 0 {
            return self.out.error("no move possible: the board is full");
        }
        self.start_search(at, Task::Move);
    }

    fn limits(&self, start: Instant, task: Task) -> Limits {
        if task == Task::Ponder {
            return Limits {
                start,
                budget: crate::time::Budget::UNLIMITED,
                max_depth: self.max_depth,
                max_nodes: None,
                threads: self.threads,
            };
        }
        let bounded = self.max_depth.is_some() || self.max_nodes.is_some();
        let mut budget = self.tc.budget(bounded);
        if matches!(task, Task::Swap2 | Task::Swap2Open) {
            budget.hard = budget.hard.min(SWAP2_MAX_TIME);
            budget.soft = budget.soft.min(budget.hard);
        }
        Limits {
            start,
            budget,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            threads: self.threads,
        }
    }

    fn start_search(&mut self, at: Instant, task: Task) {
        let board = self.board.clone().expect("a board");
        let limits = self.limits(at, task);
        let exclude: Vec<Pos> = match task {
            Task::Ponder | Task::Swap2Open => Vec::new(),
            _ => self
                .blocked
                .iter()
                .filter_map(|&(x, y)| board.pos(x, y))
                .collect(),
        };
        let gui = Gui::from_show_detail(self.show_detail);
        let book = self.book.filter(|_| self.use_book);
        log::debug!("search {task:?} {limits:?}");
        let engine = match self.engine.take() {
            Some(e) => e,
            None => {
                let bytes = self.hash_bytes();
                self.engine_bytes = bytes;
                let e = (self.make_engine)(bytes);
                log::debug!("engine made with {bytes} bytes of table");
                e
            }
        };
        // Lines still waiting now wait for this search to run its course: their clock starts
        // when they are handled.
        for p in &mut self.pending {
            p.restamp = true;
        }
        let stop = Arc::new(AtomicBool::new(self.eof));
        let (out, tx, flag) = (self.out.clone(), self.tx.clone(), stop.clone());
        let job = move || {
            let mut engine = engine;
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut job = Job {
                    engine: &mut engine,
                    board: &board,
                    limits,
                    exclude: &exclude,
                    stop: &flag,
                    out: &out,
                    gui,
                    book,
                    found: None,
                };
                let answer = tasks::run(task, &mut job);
                (answer, job.found)
            }));
            let (engine, answer, found) = match result {
                Ok((a, found)) => (Some(engine), Some(a), found),
                Err(_) => {
                    log::error!("the search panicked");
                    (None, None, None)
                }
            };
            let done = Done {
                engine,
                answer,
                task,
                start: limits.start,
                found,
            };
            let _ = tx.send(Event::Done(Box::new(done)));
        };
        let spawned = thread::Builder::new()
            .name("pentad-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(job);
        if let Err(e) = spawned {
            // Answer anyway, from the evaluation alone.
            log::error!("cannot start the search thread: {e}");
            let done = Done {
                engine: None,
                answer: None,
                task,
                start: at,
                found: None,
            };
            let _ = self.tx.send(Event::Done(Box::new(done)));
        }
        self.running = Some(Running {
            stop,
            asked: at,
            started: Instant::now(),
            task,
        });
    }

    fn stop_search(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    fn finish_search(&mut self, done: Done<E>) {
        self.running = None;
        if let Some(e) = done.engine {
            self.engine = Some(e);
            self.resize_engine();
        }
        if done.task == Task::Ponder {
            return;
        }
        // Keep a match clock that the manager does not re-send roughly right.
        if let Some(left) = self.tc.left_ms {
            if left < UNLIMITED_MS {
                let spent = done.start.elapsed().as_millis().min(i64::MAX as u128) as i64;
                self.tc.left_ms = Some(left.saturating_sub(spent));
                self.expected_left = self.tc.left_ms;
            }
        }
        if let (Some(board), Some((value, depth)), true) =
            (&self.board, done.found, done.task == Task::Move)
        {
            self.db.record_search(board, value, depth, &self.out);
        }
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let answer = match done.answer {
            Some(a) => a,
            None => match done.task {
                Task::Swap2Open => Answer::Moves(swap2_opening(board).to_vec()),
                Task::Balance { two: true, .. } => tasks::fallback_moves(board, 2),
                _ => Answer::Move(Pos::NONE),
            },
        };
        let chosen = match answer {
            Answer::Move(best) => self.answer_move(best),
            _ => None,
        };
        let board = self.board.as_mut().expect("checked above");
        match answer {
            Answer::Silent => {}
            Answer::Swap => self.out.line("SWAP"),
            Answer::Move(_) => match chosen {
                Some(p) => {
                    let over = board.wins_by(board.side_to_move(), p);
                    board.play(p);
                    self.out.line(&p.to_string());
                    if done.task == Task::Move && !over && board.empty_count() > 0 {
                        self.maybe_ponder();
                    }
                }
                None => self.out.error("no move possible: the board is full"),
            },
            Answer::Moves(moves) => {
                let mut played = Vec::with_capacity(moves.len());
                for &m in &moves {
                    let p = if on_board(board, m) && board.is_empty(m) {
                        Some(m)
                    } else {
                        legal_answer(board, Pos::NONE)
                    };
                    let Some(p) = p else { break };
                    board.play(p);
                    played.push(p.to_string());
                }
                if played.is_empty() {
                    self.out.error("no move possible: the board is full");
                } else {
                    self.out.line(&played.join(" "));
                }
            }
        }
    }

    /// The move to answer for the engine's `best`: `best` when playable and not blocked, else the
    /// best-looking playable square that is not blocked (any playable square when all are).
    fn answer_move(&self, best: Pos) -> Option<Pos> {
        let board = self.board.as_ref()?;
        let blocked: Vec<Pos> = self
            .blocked
            .iter()
            .filter_map(|&(x, y)| board.pos(x, y))
            .collect();
        if best.is_none() || blocked.contains(&best) {
            if let Some(&p) = tasks::candidate_moves(board, &blocked, 1).first() {
                return Some(p);
            }
        }
        legal_answer(board, best)
    }

    /// Starts pondering when asked for and nothing waits.
    fn maybe_ponder(&mut self) {
        if self.pondering && self.pending.is_empty() && !self.eof && self.running.is_none() {
            self.start_search(Instant::now(), Task::Ponder);
        }
    }
}

/// Replaces the position with the stones of a BOARD block, skipping (and describing in `bad`)
/// off-board, duplicate and bad-field lines. Colours: see the module notes.
fn set_position(board: &mut Board, stones: &[(i64, i64, Option<i64>)], bad: &mut Vec<String>) {
    board.clear();
    let mut taken = vec![false; AREA];
    let mut good: Vec<(Pos, i64)> = Vec::with_capacity(stones.len());
    for &(x, y, field) in stones {
        let Some(p) = board.pos(x, y) else {
            bad.push(format!("{x},{y} is off the board"));
            continue;
        };
        let f = match field {
            Some(f @ 1..=3) => f,
            Some(f) => {
                bad.push(format!("{x},{y},{f}: field must be 1, 2 or 3"));
                continue;
            }
            None => {
                bad.push(format!("{x},{y}: the field is missing"));
                continue;
            }
        };
        if taken[p.idx()] {
            bad.push(format!("{x},{y} is given twice"));
            continue;
        }
        taken[p.idx()] = true;
        good.push((p, f));
    }
    let own = good.iter().filter(|&&(_, f)| f == 1).count();
    let opp = good.iter().filter(|&&(_, f)| f == 2).count();
    let me = if own >= opp {
        Color::Black
    } else {
        Color::White
    };
    for &(p, f) in &good {
        match f {
            1 => board.put(p, me),
            2 => board.put(p, me.opp()),
            _ => board.put_wall(p),
        }
    }
    board.set_side_to_move(me);
}

/// The three stones proposed in SWAP2BOARD case 1 (black, white, black), near the centre.
fn swap2_opening(board: &Board) -> [Pos; 3] {
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    let at = |dx: i64, dy: i64| board.pos(cx + dx, cy + dy).expect("near the centre");
    [at(0, 0), at(1, 1), at(1, -2)]
}

/// True for a Yixin-Board extension command word (`YX…`, any case).
fn is_yx(word: &str) -> bool {
    word.get(..2).is_some_and(|w| w.eq_ignore_ascii_case("yx"))
}

/// True when `p` is a square of the board (any `Pos` value accepted).
fn on_board(board: &Board, p: Pos) -> bool {
    let i = p.0 as usize;
    if p.is_none() || i >= STRIDE * STRIDE || i % STRIDE < PAD || i / STRIDE < PAD {
        return false;
    }
    board.pos(p.x() as i64, p.y() as i64) == Some(p)
}

/// The move to answer: the engine's `best` when it is playable (empty, on the board, and for
/// renju black not a foul unless every move is), otherwise the best-looking playable square.
/// `None` on a full board.
pub fn legal_answer(board: &Board, best: Pos) -> Option<Pos> {
    if board.empty_count() == 0 {
        return None;
    }
    if on_board(board, best) && board.is_legal(best) {
        return Some(best);
    }
    let moves = search::legal_moves(board);
    if on_board(board, best) && board.is_empty(best) && moves.contains(&best) {
        return Some(best);
    }
    if !best.is_none() {
        log::warn!("the engine's move {best:?} is not playable");
    }
    let me = board.side_to_move();
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    moves.into_iter().max_by_key(|&p| {
        let d = (p.x() as i64 - cx).abs().max((p.y() as i64 - cy).abs());
        (
            board.value(me, p) * 2 + board.value(me.opp(), p),
            std::cmp::Reverse(d),
            std::cmp::Reverse(p),
        )
    })
}
