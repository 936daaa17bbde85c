//! The threat searches at the root: the side to move's VCF and VCT (a proven win needs no
//! further search), and the check of the root moves against the opponent's VCF (a move that
//! lets the opponent win by fours is dropped, a loss the main search may not see within its
//! horizon). Their node budgets are shares of the time limit.

use super::limits::Limits;
use super::vcf::{self, Abort, Vcf};
use super::vct::{Proofs, Vct};
use crate::board::Board;
use crate::pattern::Threat;
use crate::types::Pos;
use std::sync::Mutex;
use std::time::Duration;

/// Plies and nodes of the VCF tried at the root before searching.
pub(super) const ROOT_VCF_PLIES: i32 = 225;
pub(super) const ROOT_VCF_NODES: u64 = 2_000_000;
pub(super) const ROOT_VCF_NODES_PER_MS: u64 = 1_000;
/// Root threat-search nodes per ply of a depth limit, when no clock bounds the search.
const THREAT_NODES_PER_DEPTH: u64 = 5_000;
/// Threat moves of the VCT tried at the root, and its node budget per millisecond of the
/// hard time limit (capped). In the middle game at 1 s + 10 s + 0.1 s it takes 40-200 ms of a
/// move's 190 ms soft limit (its nodes cost about twice a search node's). A budget from the
/// soft limit instead: +20.0 Elo [-5.4, +45.6] in 400 games at that clock, SPRT (0, 10)
/// undecided (LLR 0.89), against 1d09fcb; run again with other openings (seed 2), +12.2
/// [-16.3, +40.8] in 400 games (LLR 0.34), against 2802a67. It took the root threat phase from
/// 117 to 60 ms on average in 20 positions at move 50 (depth 4.1 to 5.2), yet neither run
/// passed: not kept.
pub(super) const ROOT_VCT_THREATS: i32 = 8;
const ROOT_VCT_NODES_PER_MS: u64 = 150;
const ROOT_VCT_NODES: u64 = 1_500_000;
/// Root moves checked for a VCF they let the opponent play, and the node budget of those
/// checks per millisecond of the hard limit (capped; each move gets an equal share, at least
/// `SAFETY_MIN_NODES`).
pub(super) const SAFETY_MOVES: usize = 40;
const SAFETY_NODES_PER_MS: u64 = 300;
const SAFETY_NODES: u64 = 600_000;
const SAFETY_MIN_NODES: u64 = 2_000;
/// The VCT tried at the root with `1 / share` of its node budget: a win (plies, line) and the
/// nodes spent.
pub(super) fn root_vct(
    board: &Board,
    limits: &Limits,
    share: u64,
    abort: Abort,
    proofs: &Mutex<Proofs>,
) -> (Option<(i32, Vec<Pos>)>, u64) {
    let n = threat_budget(limits, ROOT_VCT_NODES_PER_MS, ROOT_VCT_NODES) / share.max(1);
    let mut vct = Vct::new(n).with_abort(abort);
    // A win by threats takes at most two plies per threat, plus the final four and five.
    let r = vct
        .solve(&mut board.clone(), ROOT_VCT_THREATS)
        .map(|(m, d)| (2 * d + 3, vec![m]));
    if r.is_some() {
        vct.keep_proof(board, &mut proofs.lock().expect("proofs"));
    }
    (r, vct.nodes())
}

/// Node budget of a root threat search: a share of the time limit, or of the depth or node
/// limit when no clock bounds the search (so fixed-depth searches stay proportionate).
pub(super) fn threat_budget(limits: &Limits, per_ms: u64, cap: u64) -> u64 {
    threat_budget_for(limits, limits.budget.hard, per_ms, cap)
}

/// Like [`threat_budget`], from a share of `time` instead of the hard limit.
pub(super) fn threat_budget_for(limits: &Limits, time: Duration, per_ms: u64, cap: u64) -> u64 {
    let by_limit = match (limits.max_depth, limits.max_nodes) {
        (_, Some(n)) => n / 4,
        (Some(d), None) => d.max(1) as u64 * THREAT_NODES_PER_DEPTH,
        (None, None) => cap,
    };
    let by_time = if time == Duration::MAX {
        cap
    } else {
        (time.as_millis() as u64).saturating_mul(per_ms)
    };
    by_time.min(by_limit).clamp(1_000, cap)
}

/// Removes the root moves after which the opponent wins by continuous fours (a loss the main
/// search may not see within its horizon), unless every checked move loses. Only the first
/// `SAFETY_MOVES` (the best ordered) are checked. Returns the moves and the nodes spent.
pub(super) fn drop_losing_moves(
    board: &Board,
    moves: Vec<Pos>,
    limits: &Limits,
    abort: Abort,
) -> (Vec<Pos>, u64) {
    let me = board.side_to_move();
    let opp = me.opp();
    // Nothing to check when the opponent cannot make a four, or when we must block a five.
    if !vcf::has_four_move(board, opp) || board.count(opp, Threat::Five) > 0 {
        return (moves, 0);
    }
    let checked = moves.len().min(SAFETY_MOVES);
    let total = threat_budget(limits, SAFETY_NODES_PER_MS, SAFETY_NODES);
    let per_move = (total / checked.max(1) as u64).max(SAFETY_MIN_NODES);
    let mut vcf = Vcf::new(per_move).with_abort(abort);
    let mut b = board.clone();
    let mut nodes = 0;
    let mut losing = vec![false; moves.len()];
    for (i, &m) in moves.iter().enumerate().take(checked) {
        // A move that makes an open four or five wins first.
        if b.threat(me, m) >= Threat::OpenFour {
            continue;
        }
        b.play(m);
        if vcf::has_four_move(&b, opp) {
            losing[i] = vcf.solve(&mut b, ROOT_VCF_PLIES).is_some();
            nodes += vcf.nodes();
        }
        b.undo();
        if abort.due() {
            break;
        }
    }
    // When every checked move loses, the game is lost anyway: the search picks the longest
    // resistance among them all.
    if losing[..checked].iter().all(|&l| l) {
        return (moves, nodes);
    }
    let kept = moves
        .into_iter()
        .zip(losing)
        .filter(|&(_, l)| !l)
        .map(|(m, _)| m)
        .collect();
    (kept, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::movegen::root_moves;
    use crate::search::testing::{double_four_threat, search_board};
    use crate::types::Color;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn root_moves_that_allow_a_vcf_are_dropped() {
        // White threatens a double four at (5,2) (row and column, each blocked at one end).
        // Black to move: only (5,2) itself and the squares that kill one of the fours, (6,2)
        // and (5,1), keep the game going; everything else loses to white's fours.
        let b = double_four_threat();
        assert_eq!(b.side_to_move(), Color::Black);
        let stop = AtomicBool::new(false);
        let abort = Abort {
            deadline: None,
            stop: &stop,
        };
        // Only the first SAFETY_MOVES root moves are checked.
        let moves: Vec<Pos> = root_moves(&b).into_iter().take(SAFETY_MOVES).collect();
        assert_eq!(moves.len(), SAFETY_MOVES);
        let (kept, nodes) = drop_losing_moves(&b, moves, &Limits::depth(8), abort);
        let mut kept_sorted = kept.clone();
        kept_sorted.sort();
        let mut want = vec![Pos::new(5, 2), Pos::new(6, 2), Pos::new(5, 1)];
        want.sort();
        assert_eq!(kept_sorted, want, "kept {kept:?}");
        assert!(nodes > 0);
        // The search plays one of them.
        let o = search_board(&b, 2);
        assert!(want.contains(&o.best), "{:?}", o.best);
    }
}
