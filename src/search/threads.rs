//! Lazy SMP: what the search threads share besides the table. Every thread deepens on its own
//! over the shared table; helper thread 1 first runs the root threat searches, so the main
//! thread loses no time to them. Measured (5af677f): 2 threads against 1 at 1 s a move, +61 Elo
//! [+2, +124] in 80 games; pooled over four sessions at 60 s + 1 s a move, about +61.

use super::limits::Limits;
use super::outcome::Outcome;
use super::root_threats::{drop_losing_moves, threat_budget_for, ROOT_VCT_THREATS};
use super::vcf::Abort;
use super::vct::{Proofs, Vct};
use crate::board::Board;
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;

/// The same for a helper thread's VCT, per millisecond of the soft limit: it runs beside the
/// main search, so it may take about all of it (~800 k nodes a second here).
const HELPER_VCT_NODES_PER_MS: u64 = 500;
const HELPER_VCT_NODES: u64 = 4_000_000;
/// What the search threads share besides the table.
pub(super) struct Shared {
    /// Raised when the main thread is done: the helpers stop.
    pub(super) done: AtomicBool,
    /// Nodes of every thread, flushed now and then.
    pub(super) total_nodes: AtomicU64,
    /// The root threat searches run by a helper (multi-threaded searches only).
    pub(super) threats: RootThreats,
    /// The deepest iteration any thread completed.
    pub(super) deepest: Mutex<Option<Outcome>>,
    /// The main thread's last completed depth and its score: a helper that fell behind (it ran
    /// the threat searches first) starts its next iteration ahead of the main thread's current
    /// one (odd helpers two deeper than the completed depth, even ones one deeper), so that
    /// threads search different depths and the main thread finds theirs in the table.
    pub(super) main_depth: AtomicI32,
    pub(super) main_score: AtomicI32,
}

/// Results of the root threat searches when a helper thread runs them beside the main search.
#[derive(Default)]
pub(super) struct RootThreats {
    /// Raised while the check of the root moves runs (never raised on one thread).
    pub(super) pending: AtomicBool,
    /// Raised when the VCT found a win: every thread stops.
    pub(super) found: AtomicBool,
    /// The win: plies and line.
    pub(super) win: Mutex<Option<(i32, Vec<Pos>)>>,
    /// Root moves after which the opponent wins by fours.
    pub(super) losing: Mutex<Vec<Pos>>,
}

impl RootThreats {
    pub(super) fn is_losing(&self, m: Pos) -> bool {
        self.losing.lock().expect("losing moves").contains(&m)
    }
}

impl Shared {
    pub(super) fn new(nodes: u64, threats: RootThreats) -> Shared {
        Shared {
            done: AtomicBool::new(false),
            total_nodes: AtomicU64::new(nodes),
            threats,
            deepest: Mutex::new(None),
            main_depth: AtomicI32::new(0),
            main_score: AtomicI32::new(0),
        }
    }

    /// The check of the root moves against the opponent's VCF, then the VCT; publishes both.
    pub(super) fn run_threats(
        &self,
        board: &Board,
        moves: &[Pos],
        exclude: &[Pos],
        limits: &Limits,
        abort: Abort,
        proofs: &Mutex<Proofs>,
    ) {
        // The safety check first: the main thread waits for it before it answers. Then the
        // VCT, which nobody waits for: it has the whole search to find a win (a larger budget
        // than on one thread, where it delays the main search) and gives up when the main
        // thread is done.
        let (kept, mut nodes) = drop_losing_moves(board, moves.to_vec(), limits, abort);
        *self.threats.losing.lock().expect("losing moves") = moves
            .iter()
            .copied()
            .filter(|m| !kept.contains(m))
            .collect();
        self.threats.pending.store(false, Ordering::Release);
        let n = threat_budget_for(
            limits,
            limits.budget.soft,
            HELPER_VCT_NODES_PER_MS,
            HELPER_VCT_NODES,
        );
        let mut vct = Vct::new(n).with_abort(Abort {
            deadline: abort.deadline,
            stop: &self.done,
        });
        let win = vct.solve(&mut board.clone(), ROOT_VCT_THREATS);
        nodes += vct.nodes();
        if win.is_some() {
            vct.keep_proof(board, &mut proofs.lock().expect("proofs"));
        }
        if let Some((m, d)) = win.filter(|&(m, _)| !exclude.contains(&m)) {
            *self.threats.win.lock().expect("threat result") = Some((2 * d + 3, vec![m]));
            self.threats.found.store(true, Ordering::Release);
        }
        self.total_nodes.fetch_add(nodes, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use crate::search::movegen::root_moves;
    use crate::search::root_threats::SAFETY_MOVES;
    use crate::search::testing::{double_four_threat, search_threads};
    use crate::search::worker::Worker;
    use crate::tt::Table;
    use crate::types::WIN_BOUND;

    #[test]
    fn helper_threads_run_the_root_threat_searches() {
        // The double-four threat of the test above: the helper's checks publish the root moves
        // that lose, and every thread's root loop drops them (and a best move among them).
        let b = double_four_threat();
        let limits = Limits::depth(8);
        let stop = AtomicBool::new(false);
        let abort = Abort {
            deadline: None,
            stop: &stop,
        };
        let moves = root_moves(&b);
        let shared = Shared::new(0, RootThreats::default());
        shared.threats.pending.store(true, Ordering::Release);
        let tt = Table::new(1 << 16);
        let mut w = Worker::new(b.clone(), &tt, &limits, &stop, &shared, 0);
        let mut ms = moves.clone();
        let safe = [Pos::new(5, 2), Pos::new(6, 2), Pos::new(5, 1)];
        let unsafe_best = *moves.iter().find(|m| !safe.contains(m)).unwrap();
        let mut best = Outcome {
            best: unsafe_best,
            score: 0,
            depth: 3,
            nodes: 0,
            pv: vec![unsafe_best],
        };
        // Nothing to drop while the checks run.
        w.drop_losing(&mut ms, &mut best);
        assert_eq!(ms, moves);
        shared.run_threats(&b, &moves, &[], &limits, abort, &Mutex::default());
        assert!(!shared.threats.pending.load(Ordering::Acquire));
        assert!(shared.threats.win.lock().unwrap().is_none());
        let losing = shared.threats.losing.lock().unwrap().clone();
        assert_eq!(losing.len(), SAFETY_MOVES - safe.len());
        assert!(losing.contains(&unsafe_best));
        w.drop_losing(&mut ms, &mut best);
        assert_eq!(ms.len(), moves.len() - losing.len());
        assert!(safe.iter().all(|m| ms.contains(m)));
        assert_eq!(best.best, ms[0]);
        assert!(safe.contains(&search_threads(&b, 2, 2).best));
        // Black wins by threes: two open threes at once on (5,5). The main search alone does
        // not prove it at depth 1; the helper's VCT does.
        let b = crate::search::vct::tests::three_three(Rule::Freestyle);
        for threads in [1, 2] {
            let o = search_threads(&b, 1, threads);
            assert_eq!(o.best, Pos::new(5, 5), "{threads} threads");
            assert!(o.score >= WIN_BOUND, "{threads} threads: score {}", o.score);
        }
    }
}
