//! The root driver: iterative deepening over the root moves, each iteration inside an
//! aspiration window around the last score, late root moves reduced as in the tree, the soft
//! time limit scaled by how settled the best move is, and the root moves that lose to a VCF
//! dropped once the threat checks know them.

use super::movegen::makes_or_stops_four;
use super::node::late_move_reduction;
use super::outcome::{Info, Outcome};
use super::worker::{Worker, MAX_PLY};
use crate::types::{is_decisive, Depth, Pos, Value, INFINITE, WIN_BOUND};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Aspiration windows start at this depth, this wide on each side of the last score (range
/// 20-150). At 100 k nodes a move, against 88b436e: 30 (bench 376668 to 383001), -23.1 [-50.7,
/// +4.3] in 424 games (LLR -1.45); 100 (bench 425858), +2.2 [-47.9, +52.4] in 160 games, both
/// stopped. Not kept.
const ASPIRATION_MIN_DEPTH: Depth = 5;
const ASPIRATION_WINDOW: Value = 60;
/// The soft time limit is scaled from this depth on: up when the best move changes or the
/// score drops by more than `SCORE_DROP`, down (to a floor) while the best move holds.
const TIME_SCALE_MIN_DEPTH: Depth = 5;
const SOFT_SCALE_NEW_BEST: f64 = 1.6;
const SOFT_SCALE_SCORE_DROP: f64 = 1.3;
const SOFT_SCALE_STABLE_DECAY: f64 = 0.85;
const SOFT_SCALE_MIN: f64 = 0.6;
const SCORE_DROP: Value = 60;
impl Worker<'_> {
    /// Iterative deepening over the root moves (best first).
    pub(super) fn iterate(
        &mut self,
        mut moves: Vec<Pos>,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let max_depth = self
            .limits
            .max_depth
            .unwrap_or(MAX_PLY as Depth - 8)
            .clamp(1, MAX_PLY as Depth - 8);
        let mut best = Outcome {
            best: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![moves[0]],
        };
        let mut depth = 1 + (self.id as Depth & 1);
        let mut soft_scale = 1.0f64;
        while depth <= max_depth {
            self.drop_losing(&mut moves, &mut best);
            let mut last = best.score;
            if self.id != 0 {
                let ahead =
                    self.shared.main_depth.load(Ordering::Relaxed) + 1 + (self.id as Depth & 1);
                if ahead > depth {
                    depth = ahead.min(max_depth);
                    last = self.shared.main_score.load(Ordering::Relaxed);
                }
            }
            self.root_depth = depth;
            let (score, mv) = self.aspiration(&mut moves, depth, last);
            if self.aborted && depth > 1 + (self.id as Depth & 1) {
                // An interrupted iteration still improves on the last one when its first move
                // (the previous best) was searched and another beat it.
                if let Some(mv) = mv {
                    best.best = mv;
                    best.pv = vec![mv];
                }
                break;
            }
            if let Some(mv) = mv {
                // More time when the best move changes or the score falls, less when it holds.
                if depth >= TIME_SCALE_MIN_DEPTH {
                    soft_scale = if mv != best.best {
                        SOFT_SCALE_NEW_BEST
                    } else if score < best.score - SCORE_DROP {
                        SOFT_SCALE_SCORE_DROP
                    } else {
                        (soft_scale * SOFT_SCALE_STABLE_DECAY).max(SOFT_SCALE_MIN)
                    };
                }
                best.best = mv;
                best.score = score;
                best.depth = depth;
                best.pv = self.pv[0][..self.pv_len[0]].to_vec();
                if best.pv.first() != Some(&mv) {
                    best.pv = vec![mv];
                }
                if self.id != 0 {
                    let mut deepest = self.shared.deepest.lock().expect("deepest result");
                    if deepest.as_ref().is_none_or(|d| d.depth < depth) {
                        *deepest = Some(best.clone());
                    }
                }
            }
            self.flush_nodes();
            best.nodes = self.shared.total_nodes.load(Ordering::Relaxed);
            if self.id == 0 {
                self.shared.main_score.store(best.score, Ordering::Relaxed);
                self.shared.main_depth.store(best.depth, Ordering::Relaxed);
                report(&Info {
                    depth,
                    seldepth: self.seldepth,
                    score: best.score,
                    nodes: best.nodes,
                    elapsed: self.limits.start.elapsed(),
                    pv: best.pv.clone(),
                });
            }
            if self.aborted {
                break;
            }
            // A proven result needs no deeper search; nor does a soft limit that has passed.
            if is_decisive(best.score) && (crate::types::WIN - best.score.abs()) <= depth {
                break;
            }
            if self.id == 0 {
                let soft =
                    Duration::try_from_secs_f64(self.limits.budget.soft.as_secs_f64() * soft_scale)
                        .unwrap_or(Duration::MAX)
                        .min(self.limits.budget.hard);
                // While a helper still checks the root moves, searching on costs nothing:
                // its answer is awaited anyway.
                if self.limits.start.elapsed() >= soft
                    && !self.shared.threats.pending.load(Ordering::Acquire)
                {
                    break;
                }
            }
            if self.id != 0 && self.shared.done.load(Ordering::Relaxed) {
                break;
            }
            depth += 1;
        }
        if self.id == 0 {
            // The answer must not be a move the threat searches found losing.
            while self.shared.threats.pending.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_micros(200));
            }
            self.drop_losing(&mut moves, &mut best);
        }
        self.flush_nodes();
        best.nodes = self.shared.total_nodes.load(Ordering::Relaxed);
        best
    }

    /// Removes the root moves that lose to a VCF once a helper has found them (once); the
    /// best move so far is replaced when it is one of them.
    pub(super) fn drop_losing(&mut self, moves: &mut Vec<Pos>, best: &mut Outcome) {
        if self.losing_applied || self.shared.threats.pending.load(Ordering::Acquire) {
            return;
        }
        self.losing_applied = true;
        let losing = self.shared.threats.losing.lock().expect("losing moves");
        if losing.is_empty() || moves.iter().all(|m| losing.contains(m)) {
            return;
        }
        moves.retain(|m| !losing.contains(m));
        if losing.contains(&best.best) {
            best.best = moves[0];
            best.pv = vec![moves[0]];
        }
    }

    /// A root iteration inside a window around the last score, widened until the score falls
    /// inside it.
    pub(super) fn aspiration(
        &mut self,
        moves: &mut [Pos],
        depth: Depth,
        last: Value,
    ) -> (Value, Option<Pos>) {
        if depth < ASPIRATION_MIN_DEPTH || is_decisive(last) {
            return self.root(moves, depth, (-INFINITE, INFINITE));
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut lo, mut hi) = (last - delta, last + delta);
        loop {
            let (v, mv) = self.root(moves, depth, (lo, hi));
            if self.aborted {
                // Only a move that beat the window's lower bound is known to be good.
                return (v, mv.filter(|_| v > lo));
            }
            if v <= lo {
                lo = (lo - delta).max(-INFINITE);
            } else if v >= hi {
                hi = (hi + delta).min(INFINITE);
            } else {
                return (v, mv);
            }
            delta *= 4;
            if delta > WIN_BOUND {
                lo = -INFINITE;
                hi = INFINITE;
            }
        }
    }

    /// One root iteration; returns the score and best move (`None` when aborted before any
    /// move was searched to the end). Reorders `moves`: the best first.
    pub(super) fn root(
        &mut self,
        moves: &mut [Pos],
        depth: Depth,
        window: (Value, Value),
    ) -> (Value, Option<Pos>) {
        let (mut alpha, beta) = window;
        let mut best = None;
        let mut best_value = -INFINITE;
        self.seldepth = 0;
        let me = self.board.side_to_move();
        let must_defend = self.must_defend();
        for i in 0..moves.len() {
            let mv = moves[i];
            // Late root moves are reduced as inside the tree (`late_move_reduction`; a move
            // that does not answer the opponent's three counts as quiet) and searched again
            // at full depth when they beat alpha: +41.4 Elo [+17.3, +65.8], SPRT elo0=0
            // elo1=10 passed (H1) in 717 games at 100 k nodes, against 06757b1.
            let quiet = self.admit(mv, must_defend).unwrap_or(true);
            let four = !quiet && makes_or_stops_four(&self.board, me, mv);
            let r = late_move_reduction(quiet, four, depth, i);
            self.board.play(mv);
            let v = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut v = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, 1, false);
                if v > alpha && r > 0 && !self.aborted {
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false);
                }
                if v > alpha && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -alpha, 1, true);
                }
                v
            };
            self.board.undo();
            if self.aborted {
                break;
            }
            if v > best_value {
                best_value = v;
                best = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.pv[0][0] = mv;
                    let n = self.pv_len[1];
                    let (head, tail) = self.pv.split_at_mut(1);
                    head[0][1..=n].copy_from_slice(&tail[0][..n]);
                    self.pv_len[0] = n + 1;
                    // Keep the best move first for the next iteration.
                    moves[..=i].rotate_right(1);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best_value, best)
    }
}

#[cfg(test)]
mod tests {
    use super::super::movegen::root_moves;
    use super::super::testing::{double_four_threat, with_worker};
    use crate::types::INFINITE;

    #[test]
    fn a_defence_ordered_last_at_the_root_is_still_found() {
        // Black must stop white's double four at (5,2); with the root moves in reverse order
        // the defences come last and are first searched reduced (late root moves are): the
        // search must still end on one of them (they lose later than any other move).
        let b = double_four_threat();
        let defences = [(5, 2), (6, 2), (5, 1)].map(|(x, y)| b.pos(x, y).unwrap());
        let mut moves = root_moves(&b);
        moves.sort_by_key(|m| defences.contains(m));
        assert!(moves.len() > 10 && defences.contains(moves.last().unwrap()));
        for depth in 3..=5 {
            let (_, best) = with_worker(&b, depth, |w| {
                w.root_depth = depth;
                w.root(&mut moves.clone(), depth, (-INFINITE, INFINITE))
            });
            let best = best.expect("a move");
            assert!(defences.contains(&best), "depth {depth}: {best}");
        }
    }
}
