//! Playing one game between two engines, as the Gomocup managers do it (protocol.md §4):
//! ABOUT once per process, START (or RECTSTART) and a wait for `OK`, the INFO lines, then for
//! every move `INFO time_left` and BEGIN / BOARD…DONE (the first time an engine moves, or every
//! time with board-every-move) / TURN, with the Gomocup time check
//! `elapsed > tolerance + min(time_left, timeout_turn)`, and END (0.5 s grace, then kill) or
//! the process kept for the next game.

use crate::engine::{Proc, Recv, SpawnOptions};
use crate::game::{Game, Illegal, Verdict};
use crate::judge::{starts_with_ci, Asked, Heard, Judge};
use crate::opening::Symmetry;
use crate::record::{GameRecord, MoveRecord, Reason, Winner};
use crate::spec::{EngineSpec, Restart};
use ahash::AHashMap;
use anyhow::Result;
use pentad::Rule;
use std::time::{Duration, Instant};

/// Settings shared by every game.
#[derive(Clone)]
pub struct Settings {
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// The rule.
    pub rule: Rule,
    /// Stones that draw (`None`: the rule's default).
    pub draw_after: Option<usize>,
    /// SIGSTOP the engine that is not on move.
    pub freeze: bool,
    /// How long to wait for the answers to ABOUT and START.
    pub start_timeout: Duration,
    /// Grace after END before the kill.
    pub end_grace: Duration,
    /// Check the engines' memory against their limit.
    pub memory_check: bool,
    /// Send ABOUT to each new process.
    pub about: bool,
    /// Spawning options (line ends, stderr, I/O log).
    pub spawn: SpawnOptions,
}

/// One scheduled game.
#[derive(Clone, Debug)]
pub struct Job {
    /// Schedule index.
    pub id: usize,
    /// Pairing index.
    pub pairing: usize,
    /// Pair index within the pairing.
    pub pair: usize,
    /// Engine index playing black.
    pub black: usize,
    /// Engine index playing white.
    pub white: usize,
    /// The opening stones (already transformed and validated).
    pub opening: Vec<(usize, usize)>,
    /// Where the opening came from.
    pub opening_source: String,
    /// Its symmetry.
    pub symmetry: Symmetry,
}

/// The processes a worker keeps between games (engines with `restart=reuse`).
#[derive(Default)]
pub struct Pool {
    procs: AHashMap<usize, Proc>,
}

impl Pool {
    /// Sends END to every kept engine, waits the grace period, kills what is left.
    pub fn shutdown(&mut self, grace: Duration) {
        let mut procs: Vec<Proc> = self.procs.drain().map(|(_, p)| p).collect();
        for p in &mut procs {
            p.send_end();
        }
        let deadline = Instant::now() + grace;
        for p in &mut procs {
            p.finish(deadline);
        }
    }
}

/// An engine's misbehaviour, which loses the game.
struct Fault {
    reason: Reason,
    detail: String,
}

fn fault(reason: Reason, detail: impl Into<String>) -> Fault {
    Fault {
        reason,
        detail: detail.into(),
    }
}

/// Reads the answer to ABOUT: the first line that is not blank, MESSAGE or DEBUG.
fn about_answer(p: &mut Proc, deadline: Instant) -> Recv {
    loop {
        match p.recv(Some(deadline)) {
            Recv::Line(s, t) => {
                let l = s.trim();
                if l.is_empty() || starts_with_ci(l, "MESSAGE") || starts_with_ci(l, "DEBUG") {
                    continue;
                }
                return Recv::Line(l.to_string(), t);
            }
            other => return other,
        }
    }
}

/// The lines an engine printed before an answer that its judge let pass.
#[derive(Default)]
struct Said {
    /// Recorded as messages.
    messages: Vec<String>,
    /// Passed over.
    ignored: Vec<String>,
}

impl Said {
    /// Takes the lines kept so far (before OK) to go with the first move.
    fn take(&mut self) -> Said {
        std::mem::take(self)
    }

    /// A note for a fault's detail: how many lines were passed over, the last one.
    fn ignored_note(&self, judge: Judge) -> String {
        match self.ignored.last() {
            None => String::new(),
            Some(l) => format!(
                "; {} line(s) ignored under {}, the last '{l}'",
                self.ignored.len(),
                judge.name()
            ),
        }
    }
}

/// What came of waiting for an answer.
enum Answer {
    /// `OK` to START.
    Ok,
    /// A move, and when it arrived.
    Move(i64, i64, Instant),
    /// A line that loses under the judge, and when it arrived.
    Fault(String, Instant),
    /// The engine closed its output.
    Eof,
    /// Nothing before the deadline.
    Timeout,
}

/// Reads lines until the answer to `asked`, judging each as `judge` does: messages and lines
/// passed over are kept in `said`.
fn next_answer(
    p: &mut Proc,
    deadline: Option<Instant>,
    judge: Judge,
    asked: Asked,
    said: &mut Said,
) -> Answer {
    loop {
        match p.recv(deadline) {
            Recv::Line(s, t) => match judge.hear(&s, asked) {
                Heard::Blank => {}
                Heard::Message(m) => said.messages.push(m),
                Heard::Ignored(l) => said.ignored.push(l),
                Heard::Ok => return Answer::Ok,
                Heard::Move(x, y) => return Answer::Move(x, y, t),
                Heard::Fault => return Answer::Fault(s.trim().to_string(), t),
            },
            Recv::Eof => return Answer::Eof,
            Recv::Timeout => return Answer::Timeout,
        }
    }
}

/// ABOUT (new processes), START/RECTSTART, wait for OK (the lines before it judged by the
/// engine's judge and kept in `said`), the INFO lines.
fn start_engine(
    p: &mut Proc,
    spec: &EngineSpec,
    new: bool,
    s: &Settings,
    said: &mut Said,
) -> Result<(), Fault> {
    if new && s.about {
        if !p.send(&["ABOUT".into()]) {
            return Err(fault(Reason::Crash, "exited before ABOUT"));
        }
        match about_answer(p, Instant::now() + s.start_timeout) {
            Recv::Line(l, _) => p.about = Some(l),
            Recv::Eof => return Err(fault(Reason::Crash, "exited before answering ABOUT")),
            Recv::Timeout => {
                log::warn!("{}: no answer to ABOUT", spec.name);
                p.note("no answer to ABOUT");
            }
        }
    }
    let stale = p.drain();
    if stale > 0 {
        p.note(&format!("dropped {stale} stale lines"));
    }
    let start = if s.width == s.height {
        format!("START {}", s.width)
    } else {
        format!("RECTSTART {},{}", s.width, s.height)
    };
    if !p.send(&[start]) {
        return Err(fault(Reason::Crash, "exited before START"));
    }
    let t0 = Instant::now();
    let judge = spec.judge;
    match next_answer(p, Some(t0 + s.start_timeout), judge, Asked::Start, said) {
        Answer::Ok => {}
        Answer::Fault(l, _) => {
            return Err(fault(
                Reason::NoOk,
                format!("answered '{l}' to START (not OK under {})", judge.name()),
            ));
        }
        Answer::Move(x, y, _) => {
            return Err(fault(Reason::NoOk, format!("answered '{x},{y}' to START")));
        }
        Answer::Eof => return Err(fault(Reason::Crash, "exited before answering START")),
        Answer::Timeout => {
            return Err(fault(
                Reason::NoOk,
                format!(
                    "no OK to START within {} ms{}",
                    s.start_timeout.as_millis(),
                    said.ignored_note(judge)
                ),
            ))
        }
    }
    let mut info = Vec::new();
    if let Some(t) = spec.turn_ms {
        info.push(format!("INFO timeout_turn {t}"));
    }
    info.push(format!("INFO timeout_match {}", spec.match_ms));
    info.push(format!("INFO max_memory {}", spec.memory));
    info.push("INFO game_type 1".into());
    info.push(format!("INFO rule {}", s.rule.info_value()));
    if spec.inc_ms > 0 {
        info.push(format!("INFO time_increment {}", spec.inc_ms));
    }
    info.push(format!("INFO thread_num {}", spec.threads));
    if let Some(d) = spec.depth {
        info.push(format!("INFO max_depth {d}"));
    }
    if let Some(n) = spec.nodes {
        info.push(format!("INFO max_node {n}"));
    }
    for (k, v) in &spec.options {
        info.push(format!("INFO {k} {v}"));
    }
    if !p.send(&info) {
        return Err(fault(Reason::Crash, "exited after START"));
    }
    if s.freeze {
        p.freeze();
    }
    Ok(())
}

/// Gets the process for an engine: the kept one (if alive) or a new one.
fn acquire(idx: usize, spec: &EngineSpec, pool: &mut Pool, s: &Settings) -> Result<(Proc, bool)> {
    if spec.restart == Restart::Reuse {
        if let Some(mut p) = pool.procs.remove(&idx) {
            if p.has_exited() {
                let how = p.exit_text().unwrap_or_default();
                log::warn!(
                    "{}: kept process had exited ({how}); starting a new one",
                    spec.name
                );
                p.kill();
            } else {
                return Ok((p, false));
            }
        }
    }
    Ok((Proc::spawn(spec, &s.spawn)?, true))
}

/// Plays one game. An error means a setup problem (an engine cannot be started at all), which
/// stops the tournament; every engine misbehaviour is a game result instead.
pub fn play_game(
    job: &Job,
    engines: &[EngineSpec],
    s: &Settings,
    pool: &mut Pool,
) -> Result<GameRecord> {
    let started = Instant::now();
    let idx = [job.black, job.white];
    let specs = [&engines[job.black], &engines[job.white]];
    let mut rec = GameRecord {
        id: job.id,
        pairing: job.pairing,
        pair: job.pair,
        black: job.black,
        white: job.white,
        black_name: specs[0].name.clone(),
        white_name: specs[1].name.clone(),
        width: s.width,
        height: s.height,
        rule: s.rule.info_value(),
        opening_source: job.opening_source.clone(),
        symmetry: job.symmetry.name().into(),
        opening: job.opening.clone(),
        moves: Vec::new(),
        winner: Winner::Draw,
        reason: Reason::Draw,
        detail: String::new(),
        time_left: [None, None],
        peak_memory: [0, 0],
        ignored_at_end: Default::default(),
        duration_ms: 0,
    };
    let mut game =
        Game::new(s.width, s.height, s.rule, s.draw_after).map_err(anyhow::Error::msg)?;
    game.play_opening(&job.opening)
        .map_err(|e| anyhow::anyhow!("opening {}: {e}", job.opening_source))?;

    let mut procs: [Option<Proc>; 2] = [None, None];
    // The side that lost by a fault, if any.
    let mut faulty: Option<usize> = None;
    let mut result: Option<(Winner, Reason, String)> = None;

    // Lines each engine printed before OK, kept with its first move.
    let mut before_ok: [Said; 2] = Default::default();
    for side in 0..2 {
        let (mut p, new) = acquire(idx[side], specs[side], pool, s)?;
        p.set_game(job.id);
        p.games += 1;
        let r = start_engine(&mut p, specs[side], new, s, &mut before_ok[side]);
        procs[side] = Some(p);
        if let Err(f) = r {
            faulty = Some(side);
            rec.ignored_at_end[side] = before_ok[side].take().ignored;
            result = Some((loser_to_winner(side), f.reason, f.detail));
            break;
        }
    }

    let mut left: [i64; 2] = [specs[0].match_ms as i64, specs[1].match_ms as i64];
    let mut told = [false; 2];
    while result.is_none() {
        let color = game.side_to_move();
        let side = color.idx();
        let spec = specs[side];
        let p = procs[side].as_mut().expect("started");
        let limited = spec.match_ms > 0;
        if limited {
            left[side] += spec.inc_ms as i64;
        }
        let time_left = if limited {
            left[side].clamp(i32::MIN as i64, i32::MAX as i64)
        } else {
            i32::MAX as i64
        };
        let mut cmds = vec![format!("INFO time_left {time_left}")];
        if spec.board_every_move || !told[side] {
            if game.stones() == 0 {
                cmds.push("BEGIN".into());
            } else {
                cmds.push("BOARD".into());
                for (i, (x, y)) in game.moves().into_iter().enumerate() {
                    let own = i % 2 == side;
                    cmds.push(format!("{x},{y},{}", if own { 1 } else { 2 }));
                }
                cmds.push("DONE".into());
            }
        } else {
            let (x, y) = game.last_move().expect("a stone to answer");
            cmds.push(format!("TURN {x},{y}"));
        }
        told[side] = true;
        p.thaw();
        // The clock starts before the command is written: an answer can arrive (and be
        // stamped by the reader thread) before `send` returns.
        let t0 = Instant::now();
        if !p.send(&cmds) {
            let how = p.exit_text().unwrap_or_else(|| "closed its input".into());
            faulty = Some(side);
            result = Some((
                loser_to_winner(side),
                Reason::Crash,
                format!("exited ({how})"),
            ));
            break;
        }
        let budget = spec.budget_ms(limited.then_some(time_left));
        let limit_ms = budget.map(|b| (b + spec.tolerance_ms as i64).max(0) as u64);
        let deadline = limit_ms.map(|l| t0 + Duration::from_millis(l));
        let judge = spec.judge;
        let mut said = before_ok[side].take();
        let check_mem = s.memory_check && spec.memory > 0;
        let answer: Result<(i64, i64, u64), Fault> = loop {
            // Wake up now and then to watch the memory of an engine that is thinking.
            let slice = Instant::now() + Duration::from_millis(100);
            let wake = match deadline {
                Some(d) if check_mem => Some(d.min(slice)),
                Some(d) => Some(d),
                None if check_mem => Some(slice),
                None => None,
            };
            match next_answer(p, wake, judge, Asked::Move, &mut said) {
                Answer::Move(x, y, t) if t < t0 => {
                    // A move printed while it was not asked for one (a second answer): every
                    // manager would take it for the answer to the next request.
                    break Err(fault(
                        Reason::NotAMove,
                        format!("'{x},{y}' printed before it was asked to move"),
                    ));
                }
                Answer::Fault(l, t) if t < t0 => {
                    // Printed while it was not asked (a reply to an INFO line...): this judge
                    // reads it as the answer to the next request.
                    break Err(fault(
                        Reason::NotAMove,
                        format!(
                            "'{l}' printed before it was asked to move (not a move under {})",
                            judge.name()
                        ),
                    ));
                }
                Answer::Fault(l, _) => {
                    break Err(fault(
                        Reason::NotAMove,
                        format!("'{l}' (not a move under {})", judge.name()),
                    ));
                }
                Answer::Move(x, y, t) => {
                    let ms = t.saturating_duration_since(t0).as_millis() as u64;
                    break Ok((x, y, ms));
                }
                // Only START is answered with OK; no judge hears one here.
                Answer::Ok => {}
                Answer::Eof => {
                    // Give the process a moment to exit so that its status is known.
                    let until = Instant::now() + Duration::from_millis(300);
                    let mut how = p.exit_text();
                    while how.is_none() && Instant::now() < until {
                        std::thread::sleep(Duration::from_millis(5));
                        how = p.exit_text();
                    }
                    let how = how.unwrap_or_else(|| "closed its output".into());
                    break Err(fault(
                        Reason::Crash,
                        format!("exited while thinking ({how})"),
                    ));
                }
                Answer::Timeout => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        break Err(fault(
                            Reason::Timeout,
                            format!(
                                "no move within {} ms{}",
                                limit_ms.unwrap_or(0),
                                said.ignored_note(judge)
                            ),
                        ));
                    }
                    if check_mem {
                        let m = p.peak_memory();
                        if m > spec.memory {
                            rec.peak_memory[side] = rec.peak_memory[side].max(m);
                            break Err(fault(
                                Reason::Memory,
                                format!("{} bytes while thinking, limit {}", m, spec.memory),
                            ));
                        }
                    }
                }
            }
        };
        let (x, y, ms) = match answer {
            Ok(a) => a,
            Err(f) => {
                faulty = Some(side);
                rec.ignored_at_end[side] = said.ignored;
                result = Some((loser_to_winner(side), f.reason, f.detail));
                break;
            }
        };
        // Kept for the game's end until the move is in the record.
        rec.ignored_at_end[side] = std::mem::take(&mut said.ignored);
        if let Some(l) = limit_ms {
            if ms > l {
                faulty = Some(side);
                result = Some((
                    loser_to_winner(side),
                    Reason::Timeout,
                    format!("move after {ms} ms, limit {l} ms"),
                ));
                break;
            }
        }
        if limited {
            left[side] -= ms as i64;
        }
        if s.freeze {
            p.freeze();
        }
        let mem = p.peak_memory();
        rec.peak_memory[side] = rec.peak_memory[side].max(mem);
        if check_mem && mem > spec.memory {
            faulty = Some(side);
            result = Some((
                loser_to_winner(side),
                Reason::Memory,
                format!("{mem} bytes after its move, limit {}", spec.memory),
            ));
            break;
        }
        let pos = match game.square(x, y) {
            Ok(pos) => pos,
            Err(e) => {
                let what = match e {
                    Illegal::OffBoard => "off the board",
                    Illegal::Occupied => "on a stone",
                };
                faulty = Some(side);
                result = Some((
                    loser_to_winner(side),
                    Reason::IllegalMove,
                    format!("{x},{y} is {what}"),
                ));
                break;
            }
        };
        match game.play(pos) {
            Verdict::Foul => {
                result = Some((
                    loser_to_winner(side),
                    Reason::Foul,
                    format!(
                        "black {x},{y} ({}) is a foul",
                        pentad::notation::pos_to_str(pos)
                    ),
                ));
                break;
            }
            v => {
                rec.moves.push(MoveRecord {
                    x: x as usize,
                    y: y as usize,
                    ms,
                    messages: said.messages,
                    ignored: std::mem::take(&mut rec.ignored_at_end[side]),
                });
                match v {
                    Verdict::Win => {
                        let w = if side == 0 {
                            Winner::Black
                        } else {
                            Winner::White
                        };
                        result = Some((w, Reason::Five, format!("{x},{y}")));
                    }
                    Verdict::Draw { full: true } => {
                        result = Some((Winner::Draw, Reason::Draw, "board full".into()));
                    }
                    Verdict::Draw { full: false } => {
                        result = Some((
                            Winner::Draw,
                            Reason::DrawLimit,
                            format!("{} stones", game.stones()),
                        ));
                    }
                    _ => {}
                }
            }
        }
    }

    let (winner, reason, detail) = result.expect("a result");
    rec.winner = winner;
    rec.reason = reason;
    rec.detail = detail;
    for side in 0..2 {
        if specs[side].match_ms > 0 {
            rec.time_left[side] = Some(left[side]);
        }
    }
    // Faulty engines are killed; the others get END (fresh) or go back to the pool.
    let mut ending = Vec::new();
    for side in 0..2 {
        let Some(mut p) = procs[side].take() else {
            continue;
        };
        rec.peak_memory[side] = rec.peak_memory[side].max(p.peak_memory());
        if faulty == Some(side) {
            p.note(&format!("fault: {} {}", reason.name(), rec.detail));
            p.kill();
        } else if specs[side].restart == Restart::Reuse {
            p.thaw();
            pool.procs.insert(idx[side], p);
        } else {
            p.send_end();
            ending.push(p);
        }
    }
    let deadline = Instant::now() + s.end_grace;
    for p in &mut ending {
        p.finish(deadline);
    }
    rec.duration_ms = started.elapsed().as_millis() as u64;
    Ok(rec)
}

fn loser_to_winner(loser: usize) -> Winner {
    if loser == 0 {
        Winner::White
    } else {
        Winner::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert!(starts_with_ci("message hi", "MESSAGE"));
        assert!(!starts_with_ci("MESS", "MESSAGE"));
    }
}
