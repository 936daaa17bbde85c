//! The search's entry point: [`Searcher`] owns the transposition table and the last proven win,
//! and answers a position in this order (each step ends the search when it decides):
//!
//! 1. the root moves (`movegen::root_moves`): none left after exclusion, no move;
//! 2. a VCF of the side to move (`root_threats`), played at once;
//! 3. a move into a position an earlier VCT proved (kept proofs, `vct::Proofs`): the win is
//!    played out without proving it again;
//! 4. the only legal move, or no time at all: played without search;
//! 5. the VCT and the check of the root moves against the opponent's VCF (`root_threats`): on
//!    one thread before the main search (the VCT with an eighth of its budget when the side's
//!    last search, two stones before, did not find it ahead), on more in helper thread 1 beside
//!    it (`threads`);
//! 6. iterative deepening on every thread (Lazy SMP over the shared table, `iterate`); the
//!    main thread's answer, or a helper's deeper one.
//!
//! [`Engine`] is the API the front ends use, so that tests can plug in fakes.

use super::limits::Limits;
use super::movegen::root_moves;
use super::outcome::{Info, Outcome};
use super::root_threats::{
    drop_losing_moves, root_vct, threat_budget, ROOT_VCF_NODES, ROOT_VCF_NODES_PER_MS,
    ROOT_VCF_PLIES,
};
use super::threads::{RootThreats, Shared};
use super::vcf::{Abort, Vcf};
use super::vct::Proofs;
use super::worker::Worker;
use crate::board::Board;
use crate::tt::Table;
use crate::types::{win_in, Pos, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// On one thread the root VCT runs before the main search and takes its time (40-200 ms of a
/// middle-game move's 100-300 at 1 s + 10 s + 0.1 s); a win by threats seldom exists unless the
/// side to move is ahead. So its node budget is divided by `VCT_SHARE_NOT_AHEAD` when the
/// side's last search (two stones before) scored below `VCT_AHEAD_SCORE`; a position searched
/// afresh gets the whole budget. Measured: +51.0 Elo [+27.1, +75.5], SPRT elo0=0 elo1=10
/// passed (H1) in 433 games at 1 s + 10 s + 0.1 s, against d0dc5ca (ranges 150-600 and 2-16).
const VCT_AHEAD_SCORE: Value = 300;
const VCT_SHARE_NOT_AHEAD: u64 = 8;

/// Owns the transposition table and runs searches.
pub struct Searcher {
    tt: Table,
    /// The last win a VCT proved: the next searches of the game play it out from here.
    proofs: Mutex<Proofs>,
    /// The last search's stone count and score (for its side to move): the next search of the
    /// same side, two stones later, knows whether it was attacking.
    last: Option<(usize, Value)>,
}

impl Searcher {
    /// A searcher whose table takes at most `hash_bytes`.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_bytes),
            proofs: Mutex::new(Proofs::default()),
            last: None,
        }
    }
    /// Replaces the table by one of at most `hash_bytes` (the old one is freed first).
    pub fn resize(&mut self, hash_bytes: usize) {
        self.tt = Table::new(1024);
        self.tt = Table::new(hash_bytes);
    }
    /// Bytes the table takes.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }
    /// Empties the table and forgets the kept proof.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.proofs.get_mut().expect("proofs").clear();
        self.last = None;
    }
    /// Share of the table written by the last search, in permille.
    pub fn hash_usage_permille(&self) -> u32 {
        self.tt.usage_permille()
    }

    /// Searches `board` for the side to move until a limit is reached or `stop` is raised;
    /// `report` receives one `Info` per completed iteration (from the main thread only).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        self.search_excluding(board, limits, &[], stop, report)
    }

    /// Like [`Searcher::search`], but never plays a move of `exclude` at the root (multi-PV
    /// searches, GUI blocked squares). With every legal move excluded, answers `Pos::NONE`.
    pub fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let out = self.search_position(board, limits, exclude, stop, report);
        self.last = Some((board.stone_count(), out.score));
        out
    }

    /// Whether the side to move was ahead when it last searched, two stones ago (`None` when
    /// the last search was of another position: a new game, a take-back, an analysis).
    fn was_ahead(&self, board: &Board) -> Option<bool> {
        match self.last {
            Some((stones, score)) if stones + 2 == board.stone_count() => {
                Some(score >= VCT_AHEAD_SCORE)
            }
            _ => None,
        }
    }

    fn search_position(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        self.tt.new_search();
        let mut moves = root_moves(board);
        moves.retain(|m| !exclude.contains(m));
        let fallback = moves.first().copied().unwrap_or(Pos::NONE);
        if fallback.is_none() {
            return Outcome {
                best: Pos::NONE,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![],
            };
        }
        // A win by fours needs no further search.
        let vcf_nodes = threat_budget(limits, ROOT_VCF_NODES_PER_MS, ROOT_VCF_NODES);
        let abort = Abort {
            deadline: limits.start.checked_add(limits.budget.hard),
            stop,
        };
        let mut vcf = Vcf::new(vcf_nodes).with_abort(abort);
        let found = if limits.budget.hard.is_zero() {
            None
        } else {
            vcf.solve(&mut board.clone(), ROOT_VCF_PLIES)
        };
        let found = found
            .map(|line| (line.len() as i32, line))
            .filter(|(_, line)| !exclude.contains(&line[0]));
        let mut threat_nodes = vcf.nodes();
        if let Some((plies, line)) = found {
            return forced_win(limits, plies, line, threat_nodes, report);
        }
        // A move into a position an earlier VCT proved lost for the opponent.
        let proven = self
            .proofs
            .lock()
            .expect("proofs")
            .winning_move(board, &moves);
        if let Some((m, plies)) = proven {
            return forced_win(limits, plies, vec![m], threat_nodes, report);
        }
        // Moves that need no search: the only legal move, a win on the spot, the only block.
        if moves.len() == 1 || limits.budget.hard.is_zero() {
            let best = if moves.len() == 1 { moves[0] } else { fallback };
            let score = if board.wins_by(board.side_to_move(), best) {
                win_in(1)
            } else {
                0
            };
            let info = Info {
                depth: 0,
                seldepth: 0,
                score,
                nodes: 0,
                elapsed: limits.start.elapsed(),
                pv: vec![best],
            };
            report(&info);
            return Outcome {
                best,
                score,
                depth: 0,
                nodes: 0,
                pv: vec![best],
            };
        }
        let threads = limits.threads.max(1);
        let threats = RootThreats::default();
        let moves = if threads == 1 {
            // One thread: the threat searches first, then the main search.
            let share = match self.was_ahead(board) {
                Some(false) => VCT_SHARE_NOT_AHEAD,
                _ => 1,
            };
            let (win, nodes) = root_vct(board, limits, share, abort, &self.proofs);
            threat_nodes += nodes;
            if let Some((plies, line)) = win.filter(|(_, line)| !exclude.contains(&line[0])) {
                return forced_win(limits, plies, line, threat_nodes, report);
            }
            let (moves, nodes) = drop_losing_moves(board, moves, limits, abort);
            threat_nodes += nodes;
            moves
        } else {
            // Helper threads: thread 1 runs the threat searches while the others search, so
            // the main search loses no time to them (see `Shared::run_threats`).
            threats.pending.store(true, Ordering::Release);
            moves
        };
        let shared = Shared::new(threat_nodes, threats);
        let tt = &self.tt;
        let proofs = &self.proofs;
        std::thread::scope(|s| {
            for id in 1..threads {
                let shared = &shared;
                let moves = moves.clone();
                let board = board.clone();
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(s, move || {
                        if id == 1 {
                            shared.run_threats(&board, &moves, exclude, limits, abort, proofs);
                        }
                        let mut w = Worker::new(board, tt, limits, stop, shared, id);
                        w.iterate(moves, &mut |_| {});
                    })
                    .expect("spawn search thread");
            }
            let mut main = Worker::new(board.clone(), tt, limits, stop, &shared, 0);
            let mut out = main.iterate(moves, report);
            shared.done.store(true, Ordering::Relaxed);
            let nodes = shared.total_nodes.load(Ordering::Relaxed).max(out.nodes);
            if let Some((plies, line)) = shared.threats.win.lock().expect("threat result").take() {
                return forced_win(limits, plies, line, nodes, report);
            }
            // A helper that completed a deeper iteration than the main thread knows better.
            if let Some(d) = shared.deepest.lock().expect("deepest result").take() {
                if d.depth > out.depth && !shared.threats.is_losing(d.best) {
                    out.best = d.best;
                    out.score = d.score;
                    out.depth = d.depth;
                    out.pv = d.pv;
                }
            }
            if out.best.is_none() || !board.is_empty(out.best) {
                out.best = fallback;
            }
            out.nodes = nodes;
            out
        })
    }
}

/// What the front ends need from a search engine: [`Searcher`]'s API. Tests plug in fakes.
pub trait Engine: Send + 'static {
    /// Searches `board` for the side to move (see [`Searcher::search`]).
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome;
    /// Resizes the table to at most `bytes`.
    fn resize(&mut self, bytes: usize);
    /// Empties the table.
    fn clear(&mut self);
    /// Like [`Engine::search`], never playing a move of `exclude` at the root. The default
    /// ignores `exclude` (test engines).
    fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let _ = exclude;
        self.search(board, limits, stop, report)
    }
    /// Share of the table in use, in permille.
    fn hash_usage_permille(&self) -> u32 {
        0
    }
}

impl Engine for Searcher {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        Searcher::search(self, board, limits, stop, report)
    }
    fn resize(&mut self, bytes: usize) {
        Searcher::resize(self, bytes)
    }
    fn clear(&mut self) {
        Searcher::clear(self)
    }
    fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        Searcher::search_excluding(self, board, limits, exclude, stop, report)
    }
    fn hash_usage_permille(&self) -> u32 {
        Searcher::hash_usage_permille(self)
    }
}

/// The answer when a threat search proved a win: reported as one iteration.
fn forced_win(
    limits: &Limits,
    plies: i32,
    line: Vec<Pos>,
    nodes: u64,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let score = win_in(plies);
    report(&Info {
        depth: 1,
        seldepth: line.len() as i32,
        score,
        nodes,
        elapsed: limits.start.elapsed(),
        pv: line.clone(),
    });
    Outcome {
        best: line[0],
        score,
        depth: 1,
        nodes,
        pv: line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use crate::search::testing::{by_nodes, search};
    use crate::types::WIN_BOUND;

    #[test]
    fn a_proven_win_is_played_on_without_proving_it_again() {
        let mut b = crate::search::vct::tests::quiet_start_win();
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1 << 20);
        let o = s.search(&b, &by_nodes(2_000_000), &stop, &mut |_| {});
        assert!(o.score >= WIN_BOUND, "{}", o.score);
        b.play(o.best);
        // After any answer of black the proof holds on; a search with 400 nodes (100 for its
        // threat searches) finds the next winning move only in it.
        let answers: Vec<Pos> = b.candidates().filter(|&q| b.is_legal(q)).collect();
        let mut kept = Vec::new();
        for q in answers {
            b.play(q);
            let fresh = Searcher::new(1 << 20).search(&b, &by_nodes(400), &stop, &mut |_| {});
            if fresh.score < WIN_BOUND {
                let o = s.search(&b, &by_nodes(400), &stop, &mut |_| {});
                assert!(o.score >= WIN_BOUND, "after {q}: {}", o.score);
                kept.push(q);
            }
            b.undo();
        }
        assert!(!kept.is_empty());
        // A cleared searcher forgets it.
        s.clear();
        b.play(kept[0]);
        assert!(s.search(&b, &by_nodes(400), &stop, &mut |_| {}).score < WIN_BOUND);
    }

    #[test]
    fn the_root_vct_has_its_whole_budget_only_when_the_side_was_ahead() {
        // A middle game with threats on both sides and no win by them for black, to move: the
        // VCT spends its whole budget and fails.
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        let moves = crate::notation::parse_pos_moves(
            "g6i6h5f3e1i4i5j5h3h4j4h6h7f5f4e5d5f7k5l6k6e7k7k8j7i7l5m4k3k4l3l4",
        )
        .unwrap();
        crate::notation::play_moves(&mut b, &moves).unwrap();
        let stop = AtomicBool::new(false);
        let abort = Abort {
            deadline: None,
            stop: &stop,
        };
        let limits = Limits::depth(8);
        let proofs = Mutex::new(Proofs::default());
        let nodes = |share| root_vct(&b, &limits, share, abort, &proofs);
        let (whole, eighth) = (nodes(1), nodes(VCT_SHARE_NOT_AHEAD));
        assert!(whole.0.is_none() && eighth.0.is_none());
        assert!(eighth.1 * 4 < whole.1, "{} {}", eighth.1, whole.1);
        // The searcher remembers each search's stone count and score: two stones later the
        // same side knows whether it was ahead; any other position is searched afresh.
        let mut s = Searcher::new(1 << 20);
        assert_eq!(s.was_ahead(&b), None);
        let o = s.search(&b, &by_nodes(20_000), &stop, &mut |_| {});
        assert_eq!(s.last, Some((b.stone_count(), o.score)));
        assert_eq!(s.was_ahead(&b), None);
        let n = b.stone_count();
        let ahead = |s: &mut Searcher, score| {
            s.last = Some((n - 2, score));
            s.was_ahead(&b)
        };
        assert_eq!(ahead(&mut s, VCT_AHEAD_SCORE), Some(true));
        assert_eq!(ahead(&mut s, VCT_AHEAD_SCORE - 1), Some(false));
        s.clear();
        assert_eq!(s.was_ahead(&b), None);
    }

    #[test]
    fn takes_a_win_in_one() {
        let o = search(
            "
            . . . . . . . . .
            . x x x x . . . .
            . o o o . . . . .
            . . . o . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
            4,
        );
        assert!(
            o.best == Pos::new(0, 1) || o.best == Pos::new(5, 1),
            "{:?}",
            o.best
        );
    }

    #[test]
    fn blocks_a_four() {
        let o = search(
            "
            . . . . . . . . .
            . o o o o x . . .
            . . x x . . . . .
            . . . x . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
            4,
        );
        assert_eq!(o.best, Pos::new(0, 1));
    }

    #[test]
    fn finds_a_four_three() {
        // Black to move wins with a four-three at (4,5): a four on the row, an open three on
        // the diagonal.
        let o = search(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            o x x x . . . o . . .
            . . . . . x . . . . .
            . . . . . . x . . . .
            . . . . . . . . o . .
            . . . . . . . . . . .
            . . o . . . . . . . o",
            Rule::Freestyle,
            5,
        );
        assert!(o.score >= WIN_BOUND, "score {} best {:?}", o.score, o.best);
        assert_eq!(o.best, Pos::new(4, 5));
    }

    #[test]
    fn deterministic_node_count() {
        let d = "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . o . . . . . .
            . . . x x o . . . . .
            . . . . x o . . . . .
            . . . . . x . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .";
        let a = search(d, Rule::Standard, 4);
        let b = search(d, Rule::Standard, 4);
        assert_eq!((a.nodes, a.best), (b.nodes, b.best));
    }
}
