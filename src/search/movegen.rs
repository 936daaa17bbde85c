//! Move generation and ordering: the legal moves, the root moves best first, and at each node
//! the candidate squares near the stones, each flagged quiet (it makes or stops no three:
//! reducible) or late (a quiet move past the late-move count, or a move that makes or stops a
//! three but no four past its own count), ordered by the table's move, killers, history and
//! shape (the learned scores of `policy`). Against a threat to make an open four only our fours
//! and the squares on the threat's lines that stop it are generated.

use super::policy::{self, PolicyTable};
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
/// Moves that make or stop a three but no four are late (pruned like late quiet moves) from
/// this index in the move order on: `LMP_THREE_BASE + LMP_THREE_PER_DEPTH * depth`.
const LMP_THREE_BASE: usize = 6;
const LMP_THREE_PER_DEPTH: usize = 3;

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
    let order = Order::of(board);
    let mut scored: Vec<(i64, Pos)> = all
        .iter()
        .filter(|&&p| board.is_near(p) || board.stone_count() == 0)
        .map(|&p| (order.score(board, me, p) as i64, p))
        .collect();
    if scored.is_empty() {
        scored = all
            .iter()
            .map(|&p| (order.score(board, me, p) as i64, p))
            .collect();
    }
    // Highest score first; ties by square, so the order never depends on anything else.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, p)| p).collect()
}

/// True when `q` makes a four (or better) for the side to move `me`, or stops one of the
/// opponent's: such moves are never pruned or reduced.
#[inline]
pub(super) fn makes_or_stops_four(board: &Board, me: Color, q: Pos) -> bool {
    board.threat(me, q) >= Threat::Block4 || board.threat(me.opp(), q) >= Threat::Block4
}

/// Distance along a line within which a square can stop the opponent's threat to make an open
/// four (`.XXX..` with the four's far end; range 4-6).
const DEFENCE_REACH: i32 = 5;

/// True when `q` lies on one of the four lines through a square where `opp` makes an open four,
/// within `DEFENCE_REACH` of it: only such squares can stop that threat (our own fours aside).
fn on_threat_line(board: &Board, opp: Color, q: Pos) -> bool {
    let (qx, qy) = (q.x() as i32, q.y() as i32);
    board.squares_with(opp, Threat::OpenFour).any(|t| {
        let (dx, dy) = (t.x() as i32 - qx, t.y() as i32 - qy);
        (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && dx.abs().max(dy.abs()) <= DEFENCE_REACH
    })
}

/// How a node orders its squares by shape: the learned table of the rule's family
/// ([`policy`]), else the hand-set formula ([`policy::hand_score`]).
struct Order {
    table: Option<&'static PolicyTable>,
    last: [Pos; 2],
}

impl Order {
    #[inline]
    fn of(board: &Board) -> Order {
        Order {
            table: policy::table(board.rule()),
            last: policy::last_moves(board),
        }
    }

    #[inline]
    fn score(&self, board: &Board, me: Color, p: Pos) -> i32 {
        match self.table {
            Some(t) => t.score(board, me, p, self.last),
            None => policy::hand_score(board, me, p),
        }
    }
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
        if (must_defend
            && mine < Threat::Block4
            && (theirs < Threat::Block4 || !on_threat_line(b, me.opp(), q)))
            || b.is_foul(me, q)
        {
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
        let order = Order::of(b);
        b.for_each_candidate(|q| {
            let Some(quiet) = self.admit(q, must_defend) else {
                return;
            };
            let mut s = order.score(b, me, q) * 16 + self.history[me.idx()][q.idx()] / 64;
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
        let max_three = LMP_THREE_BASE + LMP_THREE_PER_DEPTH * depth.max(0) as usize;
        keys.into_iter()
            .enumerate()
            .map(|(i, k)| {
                let q = Pos((k as u32 >> 1) as u16);
                let quiet = k & 1 == 1;
                quiet_seen += quiet as usize;
                let late = if quiet {
                    quiet_seen > max_quiet
                } else {
                    i >= max_three && !makes_or_stops_four(b, me, q)
                };
                (q, quiet, late)
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
        // Late quiet moves come after the kept ones.
        let first_late = moves.iter().position(|&(_, q, late)| q && late).unwrap();
        assert!(moves[first_late..].iter().all(|&(_, q, late)| late || !q));
    }

    #[test]
    fn moves_that_make_or_stop_only_a_three_are_late_past_their_count() {
        // Black's four open twos around (6,6), nothing forced: many squares make a three.
        let b = crate::notation::parse_diagram(
            "
            o . . . . . . . . . . . . . o
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . x . x . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . x . x . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            o . . . . . . . . . . . . . o",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let me = b.side_to_move();
        for depth in 1..=2 {
            let moves = generated(&b, depth);
            let count = LMP_THREE_BASE + LMP_THREE_PER_DEPTH * depth as usize;
            let threes: Vec<usize> = (0..moves.len())
                .filter(|&i| !moves[i].1 && !makes_or_stops_four(&b, me, moves[i].0))
                .collect();
            assert!(threes.iter().any(|&i| i >= count), "{depth}");
            for i in threes {
                assert_eq!(moves[i].2, i >= count, "{depth} {}", moves[i].0);
            }
        }
    }

    #[test]
    fn against_an_open_three_only_its_lines_are_defended() {
        // White's open three on row 7 threatens an open four at (4,7) and (8,7); white's closed
        // three on column 12 has four squares far from it. Black to move has no four: only
        // the squares on the open three's lines within reach stop it.
        let b = crate::notation::parse_diagram(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . x . .
            . . . . . . . . . . . . o . .
            . . . . . . . . . . . . o . .
            . . . . . . . . . . . . o . .
            . . . . . . . . . . . . . . .
            . . . . . o o o . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . x . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . x . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let moves: Vec<Pos> = generated(&b, 3).iter().map(|m| m.0).collect();
        for q in [(4, 7), (8, 7), (3, 7), (9, 7)] {
            assert!(moves.contains(&Pos::new(q.0, q.1)), "{q:?} {moves:?}");
        }
        // White's four square below its closed three is no defence.
        assert!(b.threat(Color::White, Pos::new(12, 6)) >= Threat::Block4);
        assert!(!moves.contains(&Pos::new(12, 6)), "{moves:?}");
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
