//! Move generation and ordering: the legal moves, the root moves best first, and at each node
//! the candidate squares near the stones, each flagged quiet (it makes or stops no three:
//! reducible) or late (a quiet move past the late-move count), ordered by the table's move,
//! killers, history and shape. Against a threat to make an open four only our fours and the
//! squares that stop it are generated.

use super::worker::Worker;
use crate::board::Board;
use crate::pattern::Threat;
use crate::types::{Color, Depth, Pos};

/// Quiet moves kept at a node beyond the threats, by shape value (the rest cannot matter soon):
/// `LMP_BASE + LMP_PER_DEPTH2 * depth²`, at most `MAX_QUIET_MOVES` (late-move pruning: near the
/// leaves only the best-shaped quiet moves can change the score; 8 at depth 1, 14 at depth 2),
/// unless every move searched loses.
const MAX_QUIET_MOVES: usize = 24;
const LMP_BASE: usize = 6;
const LMP_PER_DEPTH2: usize = 2;
/// Weight of attack against defence when ordering moves (per 4 of defence).
const ORDER_ATTACK_WEIGHT: i32 = 5;

/// Every legal move of the side to move (renju fouls excluded for black), or every empty square
/// when all of them are fouls (then nothing else can be played).
pub fn legal_moves(board: &Board) -> Vec<Pos> {
    let empties: Vec<Pos> = board.squares().filter(|&p| board.is_empty(p)).collect();
    let legal: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| board.is_legal(p))
        .collect();
    if legal.is_empty() {
        empties
    } else {
        legal
    }
}

/// The move to play without searching: a five, else the block of the opponent's five, else an
/// open four, else the best square by shape. `Pos::NONE` only on a full board.
pub fn quick_move(board: &Board) -> Pos {
    let moves = root_moves(board);
    moves.first().copied().unwrap_or(Pos::NONE)
}

/// Legal root moves, best first by the tactical rules and shape values.
pub(super) fn root_moves(board: &Board) -> Vec<Pos> {
    let me = board.side_to_move();
    let opp = me.opp();
    if board.stone_count() == 0 {
        let c = Pos::new(board.width() / 2, board.height() / 2);
        if board.is_legal(c) {
            return vec![c];
        }
    }
    let all = legal_moves(board);
    if all.is_empty() {
        return all;
    }
    if let Some(&p) = all.iter().find(|&&p| board.wins_by(me, p)) {
        return vec![p];
    }
    let blocks: Vec<Pos> = all
        .iter()
        .copied()
        .filter(|&p| board.wins_by(opp, p))
        .collect();
    if !blocks.is_empty() {
        return blocks;
    }
    let mut scored: Vec<(i64, Pos)> = all
        .iter()
        .filter(|&&p| board.is_near(p) || board.stone_count() == 0)
        .map(|&p| (order_score(board, me, p) as i64, p))
        .collect();
    if scored.is_empty() {
        scored = all
            .iter()
            .map(|&p| (order_score(board, me, p) as i64, p))
            .collect();
    }
    // Highest score first; ties by square, so the order never depends on anything else.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, p)| p).collect()
}

#[inline]
fn order_score(board: &Board, me: Color, p: Pos) -> i32 {
    board.value(me, p) * ORDER_ATTACK_WEIGHT + board.value(me.opp(), p) * 4
}

impl Worker<'_> {
    /// Whether the candidate square `q` is searched, and if so whether it is quiet (makes or
    /// stops no three): against a threat to make an open four only our fours and the squares
    /// that stop it are, and never a foul of ours.
    #[inline]
    pub(super) fn admit(&self, q: Pos, must_defend: bool) -> Option<bool> {
        let b = &self.board;
        let me = b.side_to_move();
        let mine = b.threat(me, q);
        let theirs = b.threat(me.opp(), q);
        if (must_defend && mine < Threat::Block4 && theirs < Threat::Block4) || b.is_foul(me, q) {
            return None;
        }
        Some(mine < Threat::Flex3 && theirs < Threat::Flex3)
    }

    /// The table's move with its flags when `generate` would list it (then first: a quiet
    /// move first is never late).
    pub(super) fn tt_first(&self, tt_move: Pos, must_defend: bool) -> Option<(Pos, bool, bool)> {
        let b = &self.board;
        if tt_move.is_none() || !b.is_empty(tt_move) || !b.is_near(tt_move) {
            return None;
        }
        self.admit(tt_move, must_defend)
            .map(|quiet| (tt_move, quiet, false))
    }

    /// Moves to search, best first, each flagged quiet (reducible) or not, and late (a quiet
    /// move beyond the late-move pruning count). Against a threat to make an open four only our
    /// fours and the squares that stop it are searched.
    pub(super) fn generate(
        &self,
        ply: usize,
        tt_move: Pos,
        depth: Depth,
        must_defend: bool,
    ) -> Vec<(Pos, bool, bool)> {
        let b = &self.board;
        let me = b.side_to_move();
        // One sort key per move: the score, highest first, then the square, then the quiet
        // flag (squares are distinct, so the order is total and an unstable sort gives it).
        let mut keys: Vec<u64> = Vec::with_capacity(64);
        b.for_each_candidate(|q| {
            let Some(quiet) = self.admit(q, must_defend) else {
                return;
            };
            let mut s = order_score(b, me, q) * 16 + self.history[me.idx()][q.idx()] / 64;
            if q == tt_move {
                s = i32::MAX;
            } else if q == self.killers[ply][0] {
                s += 4000;
            } else if q == self.killers[ply][1] {
                s += 3000;
            }
            let rank = !((s as u32) ^ 0x8000_0000);
            keys.push((rank as u64) << 32 | (q.0 as u64) << 1 | quiet as u64);
        });
        keys.sort_unstable();
        let mut quiet_seen = 0;
        let max_quiet =
            MAX_QUIET_MOVES.min(LMP_BASE + LMP_PER_DEPTH2 * (depth.max(0) as usize).pow(2));
        keys.into_iter()
            .map(|k| {
                let q = Pos((k as u32 >> 1) as u16);
                let quiet = k & 1 == 1;
                quiet_seen += quiet as usize;
                (q, quiet, quiet && quiet_seen > max_quiet)
            })
            .collect()
    }

    /// True when the opponent threatens to make an open four next move, so only our fours and
    /// the squares that stop it are worth searching. Renju: a black three whose open-four
    /// square is a foul threatens nothing.
    pub(super) fn must_defend(&self) -> bool {
        let b = &self.board;
        let opp = b.side_to_move().opp();
        b.count(opp, Threat::OpenFour) > 0
            && b.squares_with(opp, Threat::OpenFour)
                .any(|q| !b.is_foul(opp, q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use crate::search::testing::{fake_three, generated};

    #[test]
    fn a_three_that_can_only_become_a_foul_forces_no_defence() {
        // Renju: black's double four is a foul (RIF rules), so this three can never become an
        // open four and white may play anywhere; under freestyle white must stop it (or make a
        // four).
        let quiet = |rule: Rule| {
            let b = fake_three(rule);
            assert_eq!(b.side_to_move(), Color::White);
            generated(&b, 3)
                .iter()
                .filter(|&&(q, _, _)| b.threat(Color::Black, q) < Threat::Block4)
                .count()
        };
        let b = fake_three(Rule::Renju);
        assert!(b.is_foul(Color::Black, Pos::new(5, 7)) && b.is_foul(Color::Black, Pos::new(9, 7)));
        assert!(quiet(Rule::Renju) > 0);
        assert_eq!(quiet(Rule::Freestyle), 0);
    }

    #[test]
    fn late_quiet_moves_are_flagged_not_dropped() {
        // Late-move pruning happens in the search loop (only while a move searched does not
        // lose), so the generator keeps every candidate and flags the quiet moves past the
        // count: 8 at depth 1. Two black twos, nothing forced.
        let b = crate::search::vct::tests::three_three(Rule::Freestyle);
        let moves = generated(&b, 1);
        assert_eq!(
            moves.len(),
            b.candidates().filter(|&q| b.is_legal(q)).count()
        );
        let kept = moves.iter().filter(|&&(_, q, late)| q && !late).count();
        assert_eq!(kept, LMP_BASE + LMP_PER_DEPTH2);
        assert!(moves.iter().any(|&(_, _, late)| late));
        // Late moves come after the kept ones and are all quiet.
        let first_late = moves.iter().position(|&(_, _, late)| late).unwrap();
        assert!(moves[first_late..].iter().all(|&(_, q, late)| late || !q));
    }

    #[test]
    fn generation_visits_the_candidates_in_their_order() {
        let b = fake_three(Rule::Freestyle);
        let mut seen = Vec::new();
        b.for_each_candidate(|q| seen.push(q));
        assert_eq!(seen, b.candidates().collect::<Vec<_>>());
        assert!(seen.len() > 40);
    }
}
