//! The evaluation's weights: what one line pattern through an empty square, and the threat class
//! its four lines make together, are worth to the colour that could play there. The board keeps
//! their sums up to date move by move; [`super::evaluate`] weighs the two colours' sums.

use crate::pattern::Threat;

/// Shape value of one line pattern, for move ordering and evaluation. This and `THREAT_BONUS`
/// are fitted by `pbrain-pentad tune` (tools/tune.sh: a Texel fit to the results of 1,200
/// freestyle 15x15 self-play games); against the hand-set values they replaced
/// ([0, 1, 3, 4, 12, 14, 45, 50, 200, 1000] and [0, 0, 0, 0, 60, 150, 300, 1000]) they scored
/// 72-26-2 in 100 games at 200 ms a move. The pattern values must stay below 10,000 (the
/// board's make/undo update sums their changes in 20-bit lanes).
pub const PATTERN_VALUE: [i32; 10] = [0, 1, 0, 4, 18, 25, 76, 129, 284, 1000];

/// Extra value of a square whose lines combine into a strong threat.
pub const THREAT_BONUS: [i32; Threat::COUNT] = [0, 2, 0, 1, 15, 532, 290, 1000];

/// Weight of the side to move's own shape total, against `OPPONENT_WEIGHT` for the opponent's:
/// being on move is worth a quarter more (the side to move acts on its shapes first).
pub const OWN_WEIGHT: i32 = 5;
/// See [`OWN_WEIGHT`]; the evaluation is divided by it, so the opponent's total counts once.
pub const OPPONENT_WEIGHT: i32 = 4;
