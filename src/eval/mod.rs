//! The static evaluation: one home for its weights ([`weights`]), its formula ([`evaluate`]) and
//! the features the tuner fits ([`features`]).
//!
//! For each colour the board keeps a shape total: over the empty squares, the
//! [`PATTERN_VALUE`] of the pattern on each of the square's four lines plus the
//! [`THREAT_BONUS`] of the threat class the four make together. The value of a position for the
//! side to move is its own total × 5/4 minus the opponent's. It is linear in the weights, so a
//! position reduces to one feature per weight (own count × 5/4 − opponent's count), which is
//! what `pbrain-pentad tune` fits to game results.

pub mod weights;

pub use weights::{OPPONENT_WEIGHT, OWN_WEIGHT, PATTERN_VALUE, THREAT_BONUS};

use crate::board::Board;
use crate::pattern::{Pattern, Threat};
use crate::types::{Cell, Value, WIN_BOUND};

/// Static evaluation for the side to move, from the shape totals of both sides; never a mate
/// score.
#[inline]
pub fn evaluate(board: &Board) -> Value {
    let me = board.side_to_move();
    let v = (board.total_value(me) * OWN_WEIGHT - board.total_value(me.opp()) * OPPONENT_WEIGHT)
        / OPPONENT_WEIGHT;
    v.clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
}

/// Number of weights the tuner fits: one per line pattern, then one per threat class.
pub const FEATURES: usize = Pattern::ALL.len() + Threat::COUNT;

/// The own weight as the features scale it (5/4).
pub const OWN_SCALE: f64 = OWN_WEIGHT as f64 / OPPONENT_WEIGHT as f64;

/// The current weights as one vector, in the order of [`features`].
pub fn weight_vector() -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    for (i, &v) in PATTERN_VALUE.iter().enumerate() {
        w[i] = v as f64;
    }
    for (i, &v) in THREAT_BONUS.iter().enumerate() {
        w[Pattern::ALL.len() + i] = v as f64;
    }
    w
}

/// Weights the fit may not move: a dead line and a square with no threat are worth nothing.
pub fn is_frozen(i: usize) -> bool {
    i == Pattern::Dead as usize || i == Pattern::ALL.len() + Threat::None as usize
}

/// The features of `b` for the side to move, own counts scaled by `own` (the evaluation's
/// [`OWN_SCALE`]; another ratio to compare fits), or `None` for a position the search decides
/// (either side can make five, or the side to move has an open four or a four-three).
pub fn features(b: &Board, own: f64) -> Option<[f64; FEATURES]> {
    let me = b.side_to_move();
    let opp = me.opp();
    if b.count(me, Threat::Five) > 0
        || b.count(opp, Threat::Five) > 0
        || b.count(me, Threat::OpenFour) > 0
        || b.count(me, Threat::FourThree) > 0
    {
        return None;
    }
    let mut f = [0.0; FEATURES];
    for q in b.squares() {
        if b.cell(q) != Cell::Empty {
            continue;
        }
        for (c, scale) in [(me, own), (opp, -1.0)] {
            for d in 0..4 {
                f[b.pattern(c, q, d) as usize] += scale;
            }
            f[Pattern::ALL.len() + b.threat(c, q) as usize] += scale;
        }
    }
    Some(f)
}

/// The evaluation the weights `w` give a position with features `f` (before the division by
/// the opponent's weight: in the units of [`evaluate`] when `w` are the current weights).
pub fn linear(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::rules::Rule;
    use crate::types::Pos;

    /// The fitted form is the evaluation: the current weights on a position's features give
    /// what `evaluate` gives (up to its integer division).
    #[test]
    fn features_with_the_current_weights_are_the_evaluation() {
        let b = parse_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X O . . . . .
            . . . X X O . . .
            . . . O X . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let f = features(&b, OWN_SCALE).expect("a quiet position");
        let fitted = linear(&weight_vector(), &f);
        assert!(
            (fitted - evaluate(&b) as f64).abs() < 1.0,
            "{fitted} {}",
            evaluate(&b)
        );
    }

    #[test]
    fn features_count_both_sides_and_skip_decided_positions() {
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        b.play(Pos::new(7, 7));
        // White to move: only black makes twos (next to its stone), and they count against
        // white; every empty square gives white (with no stone yet) an open one, weighted 5/4.
        let f = features(&b, OWN_SCALE).unwrap();
        assert!(
            f[Pattern::Flex2 as usize] < 0.0,
            "the opponent's twos count negative"
        );
        assert!(f[Pattern::Flex1 as usize] > 0.0);
        for (x, y) in [(0, 0), (8, 7), (0, 1), (9, 7), (0, 2), (10, 7), (0, 3)] {
            b.play(Pos::new(x, y));
        }
        // Black to move with an open four (and white with a four): the search decides.
        assert!(features(&b, OWN_SCALE).is_none());
    }
}
