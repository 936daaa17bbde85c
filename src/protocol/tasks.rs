//! The searches behind the answers: a move, Yixin-Board's analysis commands (multi-PV, balanced
//! moves, the defence search), Swap2 decisions and pondering. Each runs on the worker thread with
//! the engine, writes its report as `MESSAGE` lines (and the GUI's realtime and `INFO` lines when
//! the GUI asked for them with `INFO show_detail`), and returns the answer the session prints.
//!
//! Several searches, one answer: multi-PV, the defence search and the balance commands run
//! *rounds* of growing depth. In a round every line (every root move, or every candidate move or
//! pair of moves) is searched to the round's depth, so the lines of a round compare at equal depth
//! and every line has a score after the first round. A round is cut short when the soft time
//! limit passes, the node limit is used up, or the search is stopped; the last complete results
//! count, and the first round always completes unless the search is stopped.

use super::output::Output;
use crate::board::Board;
use crate::book::{book_move, classic_openings, Book, BookMove};
use crate::eval::win_probability;
use crate::notation::{pos_line, score_text, xy_line};
use crate::rules::Rule;
use crate::search::multipv::{multipv, score_lines, Line, Scored, MAX_NBEST};
use crate::search::{legal_moves, Engine, Info, Limits, Outcome};
use crate::types::{is_decisive, Color, Depth, Pos, Value, MAX_SIDE, PAD, STRIDE};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Candidate moves of `YXBALANCEONE`.
pub const BALANCE_ONE_MOVES: usize = 24;
/// First and second moves of `YXBALANCETWO` (pairs = their product).
pub const BALANCE_TWO_FIRST: usize = 8;
/// See [`BALANCE_TWO_FIRST`].
pub const BALANCE_TWO_SECOND: usize = 6;
/// Most candidate moves of `YXSEARCHDEFEND`.
pub const MAX_DEFEND_MOVES: usize = 80;

/// What a search is run for, i.e. how its result is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// A move `x,y`, played on the board (BEGIN, TURN, BOARD).
    Move,
    /// SWAP2BOARD with 3 or 5 stones: `SWAP` or one move.
    Swap2,
    /// SWAP2BOARD with no stone: three stones (black, white, black) chosen by search.
    Swap2Open,
    /// `YXNBEST n`: n lines, the best move answered and played.
    NBest(usize),
    /// `YXBALANCEONE` / `YXBALANCETWO`.
    Balance {
        /// Two moves (side to move, then the opponent) instead of one.
        two: bool,
        /// Wanted score, for the side to move now.
        bias: Value,
    },
    /// `YXSEARCHDEFEND`: every sensible move scored, the best answered and played.
    Defend,
    /// Thinking on the opponent's time: no output at all, stopped by the next command.
    Ponder,
}

/// The answer of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// One move, printed `x,y` and played (`Pos::NONE`: let the session pick a legal one).
    Move(Pos),
    /// Several moves printed on one line and played in order.
    Moves(Vec<Pos>),
    /// `SWAP`.
    Swap,
    /// Nothing (pondering).
    Silent,
}

/// What the GUI asked to see (`INFO show_detail`: bit 0 realtime, bit 1 detail).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gui {
    /// `MESSAGE REALTIME …` lines.
    pub realtime: bool,
    /// `INFO PV …` blocks.
    pub detail: bool,
}

impl Gui {
    /// From an `INFO show_detail` value.
    pub fn from_show_detail(v: i64) -> Gui {
        Gui {
            realtime: v > 0 && v & 1 != 0,
            detail: v > 0 && v & 2 != 0,
        }
    }
}

/// Everything a task needs.
pub struct Job<'a, E: Engine> {
    /// The engine.
    pub engine: &'a mut E,
    /// The position (side to move set).
    pub board: &'a Board,
    /// Limits of the whole task.
    pub limits: Limits,
    /// Root moves never played (`YXBLOCK`).
    pub exclude: &'a [Pos],
    /// Raised to stop.
    pub stop: &'a AtomicBool,
    /// Where the report goes.
    pub out: &'a Output,
    /// GUI extras.
    pub gui: Gui,
    /// The opening book, when it is used.
    pub book: Option<&'a Book>,
    /// The score and depth of the answer's search (a move's), for the database.
    pub found: Option<(Value, Depth)>,
}

/// Runs a task to its answer.
pub fn run<E: Engine>(task: Task, job: &mut Job<'_, E>) -> Answer {
    match task {
        Task::Move => {
            if let Some(m) = from_book(job) {
                return Answer::Move(m.pos);
            }
            let o = single(job);
            job.found = (o.depth > 0).then_some((o.score, o.depth));
            Answer::Move(o.best)
        }
        Task::Swap2 => {
            if let Some(m) = from_book(job) {
                // White to move: take black when white stands worse.
                return if m.score < 0 {
                    Answer::Swap
                } else {
                    Answer::Move(m.pos)
                };
            }
            let o = single(job);
            // White to move: take black when white stands worse.
            if o.score < 0 {
                Answer::Swap
            } else {
                Answer::Move(o.best)
            }
        }
        Task::Swap2Open => swap2_opening(job),
        Task::NBest(n) => nbest(job, n),
        Task::Balance { two, bias } => balance(job, two, bias),
        Task::Defend => defend(job),
        Task::Ponder => {
            job.engine
                .search_excluding(job.board, &job.limits, &[], job.stop, &mut |_| {});
            Answer::Silent
        }
    }
}

// ------------------------------------------------------------------------------------------
// Text of the report

/// The text of the `MESSAGE` line for a completed iteration:
/// `depth D seldepth S score V nodes N nps R time MS pv x,y x,y …`; forced results show as
/// `+M<plies>` / `-M<plies>`.
pub fn format_info(info: &Info) -> String {
    let score = score_text(info.score);
    let mut s = format!(
        "depth {} seldepth {} score {score} nodes {} nps {} time {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps(),
        info.elapsed.as_millis()
    );
    let pv: Vec<String> = info
        .pv
        .iter()
        .take_while(|&&p| valid_pos(p))
        .map(Pos::to_string)
        .collect();
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// True when `p` names a square of some board (not `Pos::NONE`, not the padding).
fn valid_pos(p: Pos) -> bool {
    let i = p.0 as usize;
    !p.is_none()
        && i < STRIDE * STRIDE
        && (PAD..PAD + MAX_SIDE).contains(&(i % STRIDE))
        && (PAD..PAD + MAX_SIDE).contains(&(i / STRIDE))
}

/// The `INFO PV …` block Yixin-Board reads for one line (Rapfi's format).
fn info_block(
    out: &Output,
    rule: Rule,
    (index, count): (usize, usize),
    l: &Line,
    total: u64,
    ms: u128,
) {
    let speed = total as u128 * 1000 / ms.max(1);
    for s in [
        format!("INFO PV {index}"),
        format!("INFO NUMPV {count}"),
        format!("INFO DEPTH {}", l.depth),
        format!("INFO SELDEPTH {}", l.seldepth),
        format!("INFO NODES {}", l.nodes),
        format!("INFO TOTALNODES {total}"),
        format!("INFO TOTALTIME {ms}"),
        format!("INFO SPEED {speed}"),
        format!("INFO EVAL {}", score_text(l.score)),
        format!("INFO WINRATE {:.4}", win_probability(rule, l.score)),
        format!("INFO BESTLINE {}", xy_line(&l.pv)),
        "INFO PV DONE".to_string(),
    ] {
        out.line(&s);
    }
}

/// `MESSAGE (i) score | depth-seldepth | h8 i9 …` (Rapfi's multi-PV line).
fn pv_message(out: &Output, index: usize, l: &Line) {
    out.message(&format!(
        "({}) {} | {}-{} | {}",
        index + 1,
        score_text(l.score),
        l.depth,
        l.seldepth,
        pos_line(&l.pv)
    ));
}

fn realtime(out: &Output, what: &str, p: Pos) {
    if !p.is_none() {
        out.message(&format!("REALTIME {what} {p}"));
    }
}

// ------------------------------------------------------------------------------------------
// One search

/// One search with the task's limits; every iteration reported.
fn single<E: Engine>(job: &mut Job<'_, E>) -> Outcome {
    let (out, gui, rule) = (job.out, job.gui, job.board.rule());
    job.engine.search_excluding(
        job.board,
        &job.limits,
        job.exclude,
        job.stop,
        &mut |info: &Info| {
            out.message(&format_info(info));
            let l = Line {
                best: info.pv.first().copied().unwrap_or(Pos::NONE),
                score: info.score,
                depth: info.depth,
                seldepth: info.seldepth,
                nodes: info.nodes,
                pv: info.pv.clone(),
            };
            if gui.detail {
                info_block(out, rule, (0, 1), &l, info.nodes, info.elapsed.as_millis());
            }
            if gui.realtime {
                out.message("REALTIME REFRESH");
                realtime(out, "BEST", l.best);
            }
        },
    )
}

fn nbest<E: Engine>(job: &mut Job<'_, E>, n: usize) -> Answer {
    let (out, gui, start) = (job.out, job.gui, job.limits.start);
    let rule = job.board.rule();
    let n = n.clamp(1, MAX_NBEST);
    let mut total = 0u64;
    let lines = multipv(
        job.engine,
        job.board,
        &job.limits,
        job.exclude,
        n,
        job.stop,
        &mut |i, l, _depth| {
            total += l.nodes;
            pv_message(out, i, l);
            if gui.detail {
                info_block(out, rule, (i, n), l, total, start.elapsed().as_millis());
            }
            if gui.realtime {
                if i == 0 {
                    out.message("REALTIME REFRESH");
                    realtime(out, "BEST", l.best);
                }
                if is_decisive(l.score) && l.score < 0 {
                    realtime(out, "LOST", l.best);
                }
            }
        },
    );
    Answer::Move(lines.first().map_or(Pos::NONE, |l| l.best))
}

// ------------------------------------------------------------------------------------------
// Scoring given lines (defence search, balance, Swap2 openings)

/// Candidate moves of the side to move: legal, not excluded, near the stones (within two; within
/// four while there are few stones), best first by shape (attack and defence). On an empty board:
/// the squares of one eighth of the board (the others are symmetric).
pub fn candidate_moves(board: &Board, exclude: &[Pos], max: usize) -> Vec<Pos> {
    let me = board.side_to_move();
    let legal: Vec<Pos> = legal_moves(board)
        .into_iter()
        .filter(|p| !exclude.contains(p) && board.is_legal(*p))
        .collect();
    let (w, h) = (board.width() as i64, board.height() as i64);
    let (cx, cy) = (w / 2, h / 2);
    let stones: Vec<Pos> = board.history().iter().map(|&(p, _)| p).collect();
    let reach = if stones.len() < 6 { 4 } else { 2 };
    let near = |p: Pos| {
        stones.iter().any(|&s| {
            (s.x() as i64 - p.x() as i64).abs() <= reach
                && (s.y() as i64 - p.y() as i64).abs() <= reach
        })
    };
    let mut moves: Vec<Pos> = if stones.is_empty() {
        legal
            .into_iter()
            .filter(|p| {
                let (dx, dy) = (p.x() as i64 - cx, p.y() as i64 - cy);
                (w != h || dy <= dx) && dx >= 0 && dy >= 0
            })
            .collect()
    } else {
        legal.into_iter().filter(|&p| near(p)).collect()
    };
    let key = |p: Pos| {
        let d = (p.x() as i64 - cx).abs().max((p.y() as i64 - cy).abs());
        (
            std::cmp::Reverse(board.value(me, p) * 5 + board.value(me.opp(), p) * 4),
            d,
            p,
        )
    };
    if stones.is_empty() {
        // Centre first on an empty board.
        moves.sort_by_key(|&p| (key(p).1, p));
    } else {
        moves.sort_by_key(|&p| key(p));
    }
    moves.truncate(max);
    moves
}

/// The best scored line for `want` (closest to a target, or highest), ties to the earlier.
fn pick<'s>(all: &'s [Scored], key: &dyn Fn(Value) -> i64) -> Option<&'s Scored> {
    all.iter()
        .filter(|s| s.score.is_some())
        .min_by_key(|s| key(s.score.unwrap_or(0)))
}

fn defend<E: Engine>(job: &mut Job<'_, E>) -> Answer {
    let (out, gui, start) = (job.out, job.gui, job.limits.start);
    let board = job.board;
    let moves = candidate_moves(board, job.exclude, MAX_DEFEND_MOVES);
    if moves.is_empty() {
        return Answer::Move(Pos::NONE);
    }
    let lines: Vec<Vec<Pos>> = moves.iter().map(|&m| vec![m]).collect();
    let mut best: Option<(Value, Pos)> = None;
    let mut round = 0;
    let all = score_lines(
        job.engine,
        board,
        &job.limits,
        lines,
        job.stop,
        &|s| s.score.map_or(i64::MIN, i64::from),
        &mut |s, depth, started| {
            let m = s.moves[0];
            if depth != round {
                round = depth;
                best = None;
                if gui.realtime {
                    out.message("REALTIME REFRESH");
                }
            }
            if !gui.realtime {
                return;
            }
            if started {
                realtime(out, "POS", m);
                return;
            }
            realtime(out, "DONE", m);
            if let Some(v) = s.score {
                if is_decisive(v) && v < 0 {
                    realtime(out, "LOST", m);
                } else if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, m));
                    realtime(out, "BEST", m);
                }
            }
        },
    );
    report_scored(out, job.board.rule(), gui, start, &all, &|v| -(v as i64));
    let lost = all
        .iter()
        .filter(|s| s.score.is_some_and(|v| is_decisive(v) && v < 0))
        .count();
    out.message(&format!(
        "defence: {} moves, {lost} lose, {} hold",
        all.len(),
        all.len() - lost
    ));
    Answer::Move(pick(&all, &|v| -(v as i64)).map_or(moves[0], |s| s.moves[0]))
}

/// The scored lines, best first by `key` (smallest first): one `MESSAGE (i) …` line each, and
/// the `INFO PV` blocks when asked.
fn report_scored(
    out: &Output,
    rule: Rule,
    gui: Gui,
    start: Instant,
    all: &[Scored],
    key: &dyn Fn(Value) -> i64,
) {
    let mut sorted: Vec<&Scored> = all.iter().filter(|s| s.score.is_some()).collect();
    sorted.sort_by_key(|s| key(s.score.unwrap_or(0)));
    let n = sorted.len();
    for (i, s) in sorted.iter().enumerate() {
        let l = Line {
            best: s.moves[0],
            score: s.score.unwrap_or(0),
            depth: s.depth,
            seldepth: s.pv.len() as i32,
            nodes: 0,
            pv: s.pv.clone(),
        };
        pv_message(out, i, &l);
        if gui.detail {
            info_block(out, rule, (i, n), &l, 0, start.elapsed().as_millis());
        }
    }
}

fn balance<E: Engine>(job: &mut Job<'_, E>, two: bool, bias: Value) -> Answer {
    let (out, gui, start) = (job.out, job.gui, job.limits.start);
    let board = job.board;
    let mut lines: Vec<Vec<Pos>> = Vec::new();
    if two {
        for m1 in candidate_moves(board, job.exclude, BALANCE_TWO_FIRST) {
            if board.wins_by(board.side_to_move(), m1) {
                continue;
            }
            let mut b = board.clone();
            b.play(m1);
            for m2 in candidate_moves(&b, job.exclude, BALANCE_TWO_SECOND) {
                if !b.wins_by(b.side_to_move(), m2) {
                    lines.push(vec![m1, m2]);
                }
            }
        }
    } else {
        for m in candidate_moves(board, job.exclude, BALANCE_ONE_MOVES) {
            if !board.wins_by(board.side_to_move(), m) {
                lines.push(vec![m]);
            }
        }
    }
    if lines.is_empty() {
        return fallback_moves(board, if two { 2 } else { 1 });
    }
    let first = lines[0].clone();
    let distance = move |v: Value| (i64::from(v) - i64::from(bias)).abs();
    let all = score_lines(
        job.engine,
        board,
        &job.limits,
        lines,
        job.stop,
        &|s| s.score.map_or(i64::MIN, |v| -distance(v)),
        &mut |s, _depth, started| {
            if gui.realtime && !two {
                realtime(out, if started { "POS" } else { "DONE" }, s.moves[0]);
            }
        },
    );
    report_scored(out, job.board.rule(), gui, start, &all, &distance);
    let chosen = pick(&all, &distance).map_or(first, |s| s.moves.clone());
    if let Some(s) = all.iter().find(|s| s.moves == chosen) {
        out.message(&format!(
            "balance: {} scores {} (bias {bias}, depth {})",
            pos_line(&chosen),
            score_text(s.score.unwrap_or(0)),
            s.depth
        ));
    }
    if two {
        Answer::Moves(chosen)
    } else {
        Answer::Move(chosen[0])
    }
}

/// `n` legal moves in a row from the ordering alone (when no search could choose).
pub fn fallback_moves(board: &Board, n: usize) -> Answer {
    let mut b = board.clone();
    let mut moves = Vec::new();
    for _ in 0..n {
        let Some(&m) = candidate_moves(&b, &[], 1)
            .first()
            .or(legal_moves(&b).first())
        else {
            break;
        };
        b.play(m);
        moves.push(m);
    }
    if n == 1 {
        Answer::Move(moves.first().copied().unwrap_or(Pos::NONE))
    } else {
        Answer::Moves(moves)
    }
}

// ------------------------------------------------------------------------------------------
// Swap2

/// The most balanced classic opening by the book's scores (its score for black), when the book
/// has them all.
fn book_swap2_opening(book: &Book, board: &Board) -> Option<(Vec<Pos>, Value)> {
    let mut best: Option<(Vec<Pos>, Value)> = None;
    for line in classic_openings(board) {
        let mut b = board.clone();
        for &p in &line {
            b.play(p);
        }
        // White to move: the book's best move scores the opening for white.
        let score = -book.probe(&b).first()?.score;
        if best.as_ref().is_none_or(|(_, v)| score.abs() < v.abs()) {
            best = Some((line, score));
        }
    }
    best
}

/// The book's move for the task's position when it is in the book, sound and not blocked.
fn from_book<E: Engine>(job: &mut Job<'_, E>) -> Option<BookMove> {
    let m = book_move(job.book?, job.board)?;
    if job.exclude.contains(&m.pos) {
        return None;
    }
    job.out.message(&format!(
        "book move {} score {} depth {}",
        m.pos,
        score_text(m.score),
        m.depth
    ));
    job.found = Some((m.score, m.depth));
    Some(m)
}

fn swap2_opening<E: Engine>(job: &mut Job<'_, E>) -> Answer {
    let (out, board) = (job.out, job.board);
    let lines = classic_openings(board);
    if lines.is_empty() || board.stone_count() != 0 {
        return fallback_moves(board, 3);
    }
    if let Some((line, score)) = job.book.and_then(|book| book_swap2_opening(book, board)) {
        out.message(&format!(
            "swap2 opening {} scores {} for black (book)",
            pos_line(&line),
            score_text(score)
        ));
        return Answer::Moves(line);
    }
    let first = lines[0].clone();
    let all = score_lines(
        job.engine,
        board,
        &job.limits,
        lines,
        job.stop,
        &|s| s.score.map_or(i64::MIN, |v| -i64::from(v).abs()),
        &mut |_, _, _| {},
    );
    let chosen = pick(&all, &|v| i64::from(v).abs());
    if let Some(s) = chosen {
        out.message(&format!(
            "swap2 opening {} scores {} for black (depth {}, {} openings)",
            pos_line(&s.moves),
            score_text(s.score.unwrap_or(0)),
            s.depth,
            all.len()
        ));
    }
    Answer::Moves(chosen.map_or(first, |s| s.moves.clone()))
}

/// The colour whose stones the side to move of a Swap2 position would take by `SWAP`.
pub fn swap_color(board: &Board) -> Color {
    board.side_to_move().opp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use crate::types::win_in;

    #[test]
    fn winrate_is_a_sigmoid_of_the_score() {
        let winrate = |v| win_probability(Rule::Freestyle, v);
        assert!((winrate(0) - 0.5).abs() < 1e-9);
        assert_eq!(winrate(win_in(3)), 1.0);
        assert!(winrate(100) > 0.5 && winrate(-100) < 0.5);
    }

    #[test]
    fn candidates_on_an_empty_board_are_one_eighth() {
        let b = Board::square(15, Rule::Freestyle).unwrap();
        let c = candidate_moves(&b, &[], 100);
        assert_eq!(c[0], Pos::new(7, 7));
        assert_eq!(c.len(), 36);
    }
}
