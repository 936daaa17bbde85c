//! Several searches, one answer: multi-PV and the scoring of given lines, by *rounds* of growing
//! depth. In a round every line (every root move, or every given sequence of moves) is searched
//! to the round's depth, so the lines of a round compare at equal depth and every line has a
//! score after the first round. A round is cut short when the soft time limit passes, the node
//! limit is used up, or the search is stopped; the last complete results count, and the first
//! round always completes unless the search is stopped. Root exclusion
//! ([`Engine::search_excluding`]) keeps each line's move out of the searches after it.

use super::limits::Limits;
use super::outcome::Outcome;
use super::searcher::Engine;
use crate::board::Board;
use crate::types::{is_decisive, loss_in, win_in, Depth, Pos, Value, WIN};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Deepest round when no depth limit is set.
pub const MAX_ROUND_DEPTH: Depth = 60;
/// Most lines of `YXNBEST`.
pub const MAX_NBEST: usize = 64;

/// One finished line of an analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its first move.
    pub best: Pos,
    /// Score for the side to move at the root.
    pub score: Value,
    /// Depth reached.
    pub depth: Depth,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Nodes of this line.
    pub nodes: u64,
    /// The line, its first move first.
    pub pv: Vec<Pos>,
}

/// The clock and node account of a task made of many searches.
struct Account {
    limits: Limits,
    nodes: u64,
}

impl Account {
    fn elapsed(&self) -> Duration {
        self.limits.start.elapsed()
    }
    fn soft_over(&self) -> bool {
        self.elapsed() >= self.limits.budget.soft
    }
    fn hard_over(&self) -> bool {
        self.elapsed() >= self.limits.budget.hard
    }
    fn nodes_over(&self) -> bool {
        self.limits.max_nodes.is_some_and(|n| self.nodes >= n)
    }
    /// True when no new round may start.
    fn round_over(&self, stop: &AtomicBool) -> bool {
        stop.load(Ordering::Relaxed) || self.soft_over() || self.nodes_over()
    }
    /// Limits of one search of a round of depth `depth`.
    fn at_depth(&self, depth: Depth) -> Limits {
        Limits {
            max_depth: Some(depth),
            max_nodes: self
                .limits
                .max_nodes
                .map(|n| n.saturating_sub(self.nodes).max(1)),
            ..self.limits
        }
    }
    fn max_depth(&self) -> Depth {
        self.limits
            .max_depth
            .unwrap_or(MAX_ROUND_DEPTH)
            .clamp(1, MAX_ROUND_DEPTH)
    }
    /// Whether a search asked for `depth` and giving `o` reached it (a proven result and an
    /// answer given without search count as reached).
    fn complete(&self, o: &Outcome, depth: Depth, stop: &AtomicBool) -> bool {
        o.depth >= depth
            || is_decisive(o.score)
            || (o.depth == 0 && !stop.load(Ordering::Relaxed) && !self.hard_over())
    }
}

/// The `n` best root moves of `board` by rounds of growing depth (the best, then the best of
/// the others, …), each line reported through `on_line(index, line, round_depth)` as it is
/// found. Moves of `exclude` are never lines. Returns the lines of the deepest round (lines of
/// a round cut short replace the earlier ones only up to where the round got).
pub fn multipv<E: Engine>(
    engine: &mut E,
    board: &Board,
    limits: &Limits,
    exclude: &[Pos],
    n: usize,
    stop: &AtomicBool,
    on_line: &mut dyn FnMut(usize, &Line, Depth),
) -> Vec<Line> {
    let n = n.clamp(1, MAX_NBEST);
    let mut acc = Account {
        limits: *limits,
        nodes: 0,
    };
    let mut lines: Vec<Line> = Vec::new();
    for depth in 1..=acc.max_depth() {
        if depth > 1 && acc.round_over(stop) {
            break;
        }
        let mut excluded = exclude.to_vec();
        let mut round: Vec<Line> = Vec::new();
        let mut cut = false;
        for i in 0..n {
            if depth > 1 && (acc.round_over(stop) || acc.hard_over()) {
                cut = true;
                break;
            }
            let lim = acc.at_depth(depth);
            let o = engine.search_excluding(board, &lim, &excluded, stop, &mut |_| {});
            acc.nodes += o.nodes;
            if o.best.is_none() || excluded.contains(&o.best) {
                break;
            }
            if depth > 1 && !acc.complete(&o, depth, stop) {
                cut = true;
                break;
            }
            let l = line_of(&o);
            on_line(i, &l, depth);
            excluded.push(o.best);
            round.push(l);
            if stop.load(Ordering::Relaxed) {
                cut = true;
                break;
            }
        }
        if round.is_empty() {
            break;
        }
        // A cut round improves the first lines only.
        let keep = round.len();
        if cut && keep < lines.len() {
            let same = lines[..keep]
                .iter()
                .zip(&round)
                .all(|(a, b)| a.best == b.best);
            if same {
                lines.splice(..keep, round);
            } else {
                // The order changed: the deeper lines win, the rest of the old round goes
                // where it does not repeat a move.
                let mut merged = round;
                for l in &lines {
                    if merged.len() >= n {
                        break;
                    }
                    if !merged.iter().any(|m| m.best == l.best) {
                        merged.push(l.clone());
                    }
                }
                lines = merged;
            }
        } else {
            // Best first (a later line may score above an earlier one after a deeper look).
            round.sort_by_key(|l| std::cmp::Reverse(l.score));
            lines = round;
        }
        if cut || lines.iter().all(|l| is_decisive(l.score)) {
            break;
        }
    }
    lines
}

fn line_of(o: &Outcome) -> Line {
    let mut pv = o.pv.clone();
    if pv.first() != Some(&o.best) {
        pv = vec![o.best];
    }
    Line {
        best: o.best,
        score: o.score,
        depth: o.depth,
        seldepth: (o.pv.len() as i32).max(o.depth),
        nodes: o.nodes,
        pv,
    }
}

/// A sequence of moves from the root, scored for the side to move at the root.
#[derive(Clone, Debug)]
pub struct Scored {
    /// The moves from the root.
    pub moves: Vec<Pos>,
    /// The score after them, for the root's side to move (`None` before the first search).
    pub score: Option<Value>,
    /// Depth of that score.
    pub depth: Depth,
    /// The moves followed by the search's line.
    pub pv: Vec<Pos>,
}

/// Plays `moves` from `board`: `Err(score)` when the sequence itself decides the game (a five
/// ends it: score for the root's side), `Ok(board)` otherwise; `None` when a move is illegal.
fn play_line(board: &Board, moves: &[Pos]) -> Option<Result<Board, Value>> {
    let root = board.side_to_move();
    let mut b = board.clone();
    for (k, &m) in moves.iter().enumerate() {
        if !b.is_legal(m) {
            return None;
        }
        let mover = b.side_to_move();
        let five = b.wins_by(mover, m);
        b.play(m);
        if five {
            let plies = k as i32 + 1;
            return Some(Err(if mover == root {
                win_in(plies)
            } else {
                loss_in(plies)
            }));
        }
    }
    Some(Ok(b))
}

/// A child score (for the side to move after `len` moves) seen from the root's side, with mate
/// distances counted from the root.
fn from_root(v: Value, len: usize) -> Value {
    let v = if len.is_multiple_of(2) { v } else { -v };
    if is_decisive(v) {
        let plies = WIN - v.abs() + len as i32;
        if v > 0 {
            win_in(plies)
        } else {
            loss_in(plies)
        }
    } else {
        v
    }
}

/// Scores every sequence of `lines` by rounds of growing depth. `order` ranks the lines for
/// the next round (the most interesting first: a cut round covers them). `on_scored(line,
/// depth, started)` hears each search before (`started` true) and after it.
pub fn score_lines<E: Engine>(
    engine: &mut E,
    board: &Board,
    limits: &Limits,
    lines: Vec<Vec<Pos>>,
    stop: &AtomicBool,
    order: &dyn Fn(&Scored) -> i64,
    on_scored: &mut dyn FnMut(&Scored, Depth, bool),
) -> Vec<Scored> {
    let mut acc = Account {
        limits: *limits,
        nodes: 0,
    };
    let mut all: Vec<Scored> = Vec::new();
    for moves in lines {
        match play_line(board, &moves) {
            None => continue,
            Some(Err(v)) => all.push(Scored {
                pv: moves.clone(),
                moves,
                score: Some(v),
                depth: MAX_ROUND_DEPTH,
            }),
            Some(Ok(_)) => all.push(Scored {
                pv: moves.clone(),
                moves,
                score: None,
                depth: 0,
            }),
        }
    }
    for depth in 1..=acc.max_depth() {
        if depth > 1 && acc.round_over(stop) {
            break;
        }
        let mut idx: Vec<usize> = (0..all.len()).collect();
        if depth > 1 {
            idx.sort_by_key(|&i| std::cmp::Reverse(order(&all[i])));
        }
        let mut progressed = false;
        let mut cut = false;
        for i in idx {
            let s = &all[i];
            if s.score.is_some_and(is_decisive) {
                continue;
            }
            if stop.load(Ordering::Relaxed) || (depth > 1 && (acc.soft_over() || acc.nodes_over()))
            {
                cut = true;
                break;
            }
            let Some(Ok(child)) = play_line(board, &s.moves) else {
                continue;
            };
            on_scored(s, depth, true);
            let o = if child.empty_count() == 0 {
                Outcome {
                    best: Pos::NONE,
                    score: 0,
                    depth,
                    nodes: 0,
                    pv: vec![],
                }
            } else {
                let lim = acc.at_depth(depth);
                engine.search_excluding(&child, &lim, &[], stop, &mut |_| {})
            };
            acc.nodes += o.nodes;
            if depth == 1 || acc.complete(&o, depth, stop) {
                let s = &mut all[i];
                s.score = Some(from_root(o.score, s.moves.len()));
                s.depth = depth;
                s.pv = s.moves.clone();
                s.pv.extend(o.pv.iter().copied().filter(|p| !p.is_none()));
                progressed = true;
            }
            on_scored(&all[i], depth, false);
        }
        if cut || !progressed || all.iter().all(|s| s.score.is_some_and(is_decisive)) {
            break;
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_root_counts_plies_from_the_root() {
        // After one move the opponent is mated in 3: a win for the root in 4.
        assert_eq!(from_root(loss_in(3), 1), win_in(4));
        assert_eq!(from_root(20, 1), -20);
        assert_eq!(from_root(20, 2), 20);
    }
}
