//! The node search: principal variation search with a transposition table. The steps of
//! `negamax`, in the order they run, each with what it was measured to be worth (self-play
//! against the commit before it; "not measured alone" where it came with the first search):
//!
//! 1. Count the node; stop when a limit is reached.
//! 2. A full board is a draw.
//! 3. Tactics that need no search: our five wins; the opponent's five is blocked at no cost in
//!    depth (or loses when it cannot be); our legal open four wins. Not measured alone.
//! 4. The horizon: the static value, except a leaf facing a live three (freestyle, standard,
//!    caro) searches one ply more over the answers. +26 Elo (6e69e60, 320 games, 60 s + 1 s).
//!    A VCF at every leaf with a four measured no gain (9f59c88).
//! 5. Reverse futility pruning: near the leaves, a side far above beta with no three to answer
//!    returns its static value. +103 Elo [+48, +163] (ca8648b, depth 3 at 120 a ply, 80 games,
//!    60 s + 1 s); to depth 6 at 100 a ply: +40.6 [+15.1, +66.5], SPRT passed in 679 games at
//!    100 k nodes, against 6491394; to depth 8: +21.3 [-3.1, +45.8], SPRT passed in 719 games
//!    at 100 k nodes, against 92f6a7f. The static value here (and for futility pruning) is
//!    replaced by a table entry's value, of any depth, when the entry's bound says the
//!    position is worth more (a lower bound above it) or less (an upper bound below it):
//!    +36.6 Elo [+16.9, +56.6], SPRT passed (H1, LLR 3.05) in 828 games at 100 k nodes,
//!    against f1e0f12.
//! 6. Mate-distance pruning. Not measured alone.
//! 7. The transposition table: a cut-off at non-PV nodes from a deep enough entry.
//! 8. ProbCut: at a non-PV node of depth 5 or more, not facing a three, whose table entry does
//!    not already bound it below beta + 200, up to three of our moves that make a three or
//!    more (in move order) are searched 4 plies shallower against beta + 200; one that reaches
//!    it cuts the node (and is stored as a lower bound of the reduced depth): +36.1 Elo
//!    [+16.2, +56.2], SPRT elo0=0 elo1=10 passed (H1, LLR 2.97) in 830 games at 100 k nodes,
//!    against 1976e64.
//! 9. Singular extension: a table move (from an entry at most 3 plies shallower, not an upper
//!    bound) whose value the other moves, searched at half depth, all miss by 8 a ply is
//!    searched a ply deeper; when they reach beta anyway, the node is cut (multi-cut). From
//!    depth 6, never past twice the iteration's depth: +55.7 Elo [+30.6, +81.4], SPRT elo0=0
//!    elo1=10 passed (H1) in 522 games at 100 k nodes, against 0105cfe.
//! 10. The table's move is searched before the others are generated (speed: 0.99 M to
//!    1.19 M nodes a second, ac7f496).
//! 11. The moves (`movegen`), in order of the table's move, the killers, the cut-off history
//!     and a learned shape score (`policy`; in place of the hand-set `5 × our shape value + 4 ×
//!     the opponent's`, in freestyle: +24.4 Elo [+8.6, +40.4], LLR 3.00 (H1) over 1,554 games
//!     at 100 k nodes in two runs (seed 361: +23.4 [+6.6, +40.2] in 1,400, LLR 2.52 at the
//!     run's cap; seed 364: +34.4 in 154), against 842cdd9): late quiet moves are pruned while
//!     a searched move does not lose
//!     (late-move pruning, +40 Elo [-8, +90], 3780f33, 200 games at 100 k nodes); the first move
//!     gets the full window, the others a null window; quiet moves from the fourth on, at depth
//!     3 or more, are reduced by a ply, by two from the thirteenth (late-move reduction, not
//!     measured alone; a log-shaped formula measured no gain, 3780f33 and session 11), and
//!     searched again at full depth, then with the full window, when they beat alpha; the
//!     root's moves the same way (`iterate.rs`: +41.4 Elo [+17.3, +65.8], SPRT passed in 717
//!     games at 100 k nodes, against 06757b1).
//!     Futility pruning: at non-PV nodes of depth 3 or less with no three to answer, whose
//!     static value plus 150 a ply does not reach alpha, quiet moves after the first are skipped
//!     (+17.5 Elo [+0.0, +35.1], SPRT passed in 1,431 games at 100 k nodes, against bf1b703).
//!     Moves that make or stop a three but no four are treated nearly as quiet ones, measured
//!     together: they are pruned from the `6 + 3 * depth`-th move on and reduced by a ply from the
//!     seventh at depth 3 or more, and against an open three only the squares on its lines (and
//!     our own fours) are defences (`movegen`): +54.7 Elo [+29.7, +80.2], SPRT elo0=0 elo1=10
//!     passed in 629 games at 100 k nodes, against d0dc5ca (alone, in earlier sessions: +9.2,
//!     +6.6 and +6.7, each undecided). Against a three, our fours that block nothing and lie
//!     more than four squares from both last moves (they only delay the defence) are pruned
//!     within four plies of the leaves, and above that reduced by two plies when far from the
//!     opponent's last move and one when far from our own (`distant_four`): +30.9 Elo [+12.8,
//!     +49.2], SPRT passed in 968 games at 100 k nodes, against 06757b1. A reduced quiet move
//!     more than three squares from both last moves is reduced a ply more (`distant_quiet`):
//!     +21.1 Elo [+7.0, +35.2], LLR 3.13 over 1,500 games at 100 k nodes in two runs (seeds
//!     271 and 272, each alone undecided at +20.9 in 700 and +21.3 in 800), against 2d407b4.
//!     Late quiet moves at non-PV nodes are reduced by at least `0.7 ln(depth) ln(index + 1)`
//!     plies (`log_reduction`, leaving a ply), and a reduced move whose reduced search beats
//!     alpha by 60 + 20 a ply of its reduction is searched again a ply deeper than the others,
//!     measured together: +38.0 Elo [+15.5, +60.7], SPRT elo0=0 elo1=10 passed (H1, LLR 3.00)
//!     in 826 games at 100 k nodes, against 0f64e03 (the deeper search alone: +6.1 in 456
//!     games, undecided; the log-shaped reduction alone, in earlier sessions: about +10 over
//!     1,700 games, undecided).
//! 12. A cut-off: the move becomes a killer (when quiet) and gains history.
//! 13. The result goes into the table.
//!
//! Tried and left out (against the commit before, 100 k nodes a move, 15x15 freestyle, shared
//! balanced openings, SPRT elo0=0 elo1=10 undecided when stopped):
//! * alone, each of the three steps kept together in step 11: a reduction of one ply for moves
//!   that make or stop a three but no four, from the seventh move at depth 3 or more: +6.6
//!   [-22, +36] in 529 games; late-move pruning of every move that makes or stops no four past
//!   `6 + 3 * depth` moves (beside the quiet count): +9.2 [-7, +25] in 1,738 games (+15.6
//!   [-3.5, +34.9] in the first 1,000, LLR 1.11; +0.5 in the next 738); against an open three,
//!   only the squares within five of its open-four squares on their lines (and our own fours)
//!   as defences, not the opponent's four squares elsewhere: +6.7 [-8.6, +22.0] in 986 games
//!   (LLR 0.28), against 2802a67;
//! * late-move pruning of half the quiet moves kept (of `6 + 2 * depth²`) when the side to move's
//!   static value is not above its value two plies before: -6.6 [-29, +16] in 370 games (LLR
//!   -0.88); Rapfi's count, `3 + depth^1.32` moves of any kind but fours, halved when not
//!   improving: -59.8 [-109, -13] in 182 games. Both against 28e26e3 (the reverse futility
//!   step above, before its notes);
//! * internal iterative reduction, a ply less at depth 4 or more without a table move: +6.1
//!   [-23, +35] in 342 games (LLR 0.05), against 28e26e3;
//! * fail-high reduction, a ply less for moves that make no four at a non-PV node whose static
//!   value beats beta by 40 a ply (its cut-off not searched again at full depth): +3.1
//!   [-23, +30] in 443 games (LLR -0.10), against 78d6587;
//! * a ply less for the later moves of a PV node once one has raised alpha, at depth 3 to 11:
//!   -8.1 [-33.1, +16.8] in 472 games (LLR -0.81), against dd1359b;
//! * reverse futility pruning at 80 a ply (not 100): -16.3 [-32.9, +0.2], SPRT failed (H0) in
//!   1,174 games, against dd1359b;
//! * null-move pruning at non-PV nodes of depth 3 or more facing no three whose static value
//!   beats beta (a reduction of `2 + depth / 3`): -20.5 [-50.1, +8.9] in 102 games (LLR
//!   -1.14), against 1d09fcb; it seldom cut (the same depths as without it);
//! * at most two leaves a line searched a ply more for facing a three (step 4; such chains
//!   took most of a middle-game search's nodes): a ply deeper in the middle game (6.3 against
//!   5.2 at 100 k nodes), yet +0.4 [-20.5, +21.4] in 774 games (LLR -0.40), against c02be50.
//! * step 12 with a history malus and counter-moves: the quiet moves searched before a cut-off
//!   lose the bonus the cutting move gains (history kept within a bound, each update moving a
//!   value towards it), and the quiet move that last cut off after the opponent's last move
//!   is ordered after the killers (bench 388635 to 387370): +1.8 [-22.5, +26.0] in 394 games
//!   (LLR -0.21), against 0105cfe; stopped for machine time.
//! * late quiet moves at non-PV nodes reduced by at least `0.7 * ln(depth) * ln(index + 1)`
//!   plies (leaving one; bench 388635 to 370624): +9.6 [-7.1, +26.3] in 1,086 games (LLR
//!   0.63), against 0105cfe; stopped when the singular extension (step 9) passed; again on
//!   top of it (bench 522043 to 471765): +21.5 [+0.1, +43.1] in 745 games (LLR 1.38), against
//!   6834b99; stopped for the session's time; at 1 s + 10 s + 0.1 s, +19.3 [-11.0, +49.9] in
//!   306 games (LLR 0.60), against 6834b99; again at 100 k nodes (the floor of the formula,
//!   at least one ply left; bench 522043 to 485870): +4.3 [-18.9, +27.5] in 647 games (LLR
//!   -0.05), against 06757b1. About +10 over 1,700 games: too small to show here;
//! * moves that make or stop a three but no four reduced like quiet ones, a ply from the
//!   fourth move and two from the thirteenth (bench 388635 to 340423): -3.1 [-29.4, +23.2] in
//!   448 games (LLR -0.45), against 0105cfe;
//! * razoring: at the nodes futile as in step 11 within two plies of the leaves, only fours
//!   and their blocks after the first move (bench 522043 to 482701): -12.9 [-53.6, +27.5] in
//!   218 games (LLR -0.42), against 06757b1;
//! * the singular extension (step 9) from depth 4 (not 6; bench 522043 to 752795): +15.3
//!   [-10.8, +41.6] in 522 games (LLR 0.58), against 6834b99;
//! * a quiescence over fours at the horizon (step 4): the side to move keeps its static value
//!   or makes one of up to two fours in a row (four-threes first), each answered by its only
//!   block (bench 367545 to 526202; middle-game depth at 1 s from 7.25 to 6.85 in 20
//!   positions, 6.0 with four fours): -31.7 [-67.6, +3.6] in 266 games (LLR -1.12), against
//!   cf55be5; stopped. The threat term of the evaluation already values the fours;
//! * a ply more of reduction for every move but a four after the first at expected cut nodes
//!   (the zero-window children of late moves, alternating down the first moves; bench 367545
//!   to 397853): -1.4 [-28.9, +26.2] in 514 games (LLR -0.32), against cf55be5; stopped;
//! * killers a ply less reduced among the late quiet moves, and from depth 5 quiet moves that
//!   never cut off (no history) a ply more (bench 367545 to 382125): -18.1 [-52.2, +15.7] in
//!   251 games (LLR -0.78), against cf55be5; stopped;
//! * the distant quiet moves of step 11 pruned at non-PV nodes of depth 2 or less, once a move
//!   has been searched (bench 365857 to 379375): -5.8 [-25.8, +14.1] in 718 games (LLR -1.05),
//!   against e9ea935; stopped;
//! * the ply more of step 11 also for moves that make or stop a three but no four, more than
//!   three squares from both last moves, from the fourth move at depth 3 or more (a ply where
//!   they had none; not against a three; bench 365857 to 362836): -4.0 [-30.3, +22.3] in 437
//!   games (LLR -0.50), against f1e0f12; stopped;
//! * moves within two squares of the opponent's last move ordered (`movegen`) as if their
//!   shape were worth 60 more, of our own last move 30 more (bench 365857 to 405340): -11.7
//!   [-43.8, +20.3] in 330 games (LLR -0.63), against f1e0f12; stopped;
//! * reverse futility pruning a ply's margin easier when the side to move's static value is
//!   above its value two plies before ("improving"; the static value then taken at every node
//!   not facing a three; bench 402735 to 343014): -3.3 [-21.9, +15.3] in 958 games (LLR
//!   -0.92), against 83b1357; stopped;
//! * the singular extension's table move searched a ply less when the others do not all miss
//!   its value but the value beats beta (a negative extension; bench 402735 to 403503): -44.9
//!   [-87.6, -3.6] in 141 games (LLR -1.13), against 83b1357; stopped;
//! * step 5's bound by the table also at the horizon (a non-PV leaf's static value replaced
//!   by a table entry's value the same way; bench 402735 to 448195): -5.9 [-29.2, +17.3] in
//!   585 games (LLR -0.78), against 83b1357; stopped;
//! * futility pruning (step 11) to depth 5, not 3 (bench 402735 to 400075): -4.1 [-19.7,
//!   +11.5] in 853 games (LLR -1.44), against 83b1357; stopped;
//! * a quiet move whose ordering score (`movegen`'s shape score) is below 60 reduced a ply
//!   more, two below 30 (Rapfi reduces by its policy score; 44% of the quiet moves searched at
//!   depth 3 or more in freestyle, 21-26% in the other rules, lie below 60; bench 391862 to
//!   410941): +1.9 [-7.0, +10.7] in 748 games (LLR -1.47), against 4d29ccb; stopped;
//! * ProbCut (step 8) from depth 4, not 5 (its searches then stop at the horizon; bench 391862
//!   to 387811): +2.0 [-20.4, +24.4] in 704 games (LLR -0.23), against 4d29ccb; stopped;
//! * a reduced move whose reduced search beats alpha by 60 + 20 a ply of its reduction searched
//!   again a ply deeper than the others, in the first twice the iteration's depth plies (bench
//!   391862 to 406493): +6.1 [-19.8, +32.0] in 456 games (LLR 0.06), against 0f64e03; stopped;
//! * a ply less of late-move reduction at nodes on the principal variation now or once (a flag
//!   in the table entry, as Rapfi's and Stockfish's "ttPv"; bench 391862 to 471711): -34.2
//!   [-82.3, +12.5] in 112 games (LLR -0.66), against 0f64e03; stopped;
//! * the singular extension's two plies, at non-PV nodes in the first half of the line, when the
//!   other moves miss the table move's value by 40 more (bench 391862 to 522569): -32.6
//!   [-82.9, +16.4] in 170 games (LLR -0.84), against 0f64e03; stopped;
//! * ProbCut (step 8) at beta + 150, not 200 (bench 391862 to 380322): -43.7 [-98.6, +9.2] in
//!   142 games (LLR -0.72), against 0f64e03; stopped;
//! * late-move pruning (`movegen`) of the quiet moves past `6 + depth²`, not `6 + 2 * depth²`
//!   (bench 391862 to 375069): -7.3 [-45.6, +30.8] in 238 games (LLR -0.32), against
//!   0f64e03; stopped;
//! * the log-shaped reduction of step 11 also at PV nodes, a ply less than at non-PV ones
//!   (bench 376668 to 380875): -8.7 [-37.4, +19.9] in 400 games (LLR -0.64), against
//!   e0819fb; stopped;
//! * the log-shaped reduction's scale at 0.9, not 0.7 (bench 376668 to 390230): +2.7 [-29.4,
//!   +34.8] in 389 games (LLR -0.14), against e0819fb; stopped;
//! * quiet moves at non-PV nodes reduced from the third move, not the fourth (bench 376668 to
//!   364054): -13.9 [-41, +13] in about 300 games, against e0819fb; stopped;
//! * ProbCut (step 8) at beta + 250, not 200 (bench 376668 to 379624): -36.2 [-93, +19] in
//!   134 games (LLR -0.54), against e0819fb; stopped;
//! * the singular extension (step 9) from depth 5, not 6 (bench 376668 to 469552): -47.7
//!   [-98, +1] in 134 games, against e0819fb; stopped;
//! * a continuous attack (Rapfi's): a move that makes a three or more, not against a three,
//!   after our own move two plies before made one too, reduced a ply less (bench 376668 to
//!   398893): -24.9 [-64.9, +14.5] in 196 games (LLR -0.73), against e0819fb; stopped;
//! * the cut-off history weighing four times as much in the move order (`movegen`: a
//!   sixteenth of it, not a sixty-fourth; bench 376668 to 384163): -15.8 [-53.0, +21.0] in 178
//!   games (LLR -0.59), against e0819fb; stopped;
//! * internal iterative reduction again, a ply less from depth 4 without a table move (bench
//!   376668 to 357577): +0.0 [-63.9, +63.9] in 56 games, against e0819fb; stopped early to
//!   give a more promising run the machine;
//! * the main thread's cut-off history carried from one search to the next in a field of
//!   `Searcher`, halved at each (`bench` clears the searcher before each position, so its
//!   count stayed 376668): +10.4 [-2.9, +23.6] in 1,341 games (LLR 1.18), against e0819fb, stopped at
//!   the run's cap; a second run (another seed) -25.4 [-71.7, +20.0] in 97; both together +8.0
//!   [-4.7, +20.7] in 1,436 games (LLR 0.71). Not kept.
//! * moves ordered (`movegen`) by the evaluation's `own` value of the square for the side to
//!   move (what it is worth to us on move) instead of its `opp` value, beside the opponent's
//!   `opp` value (bench 376668 to 376307): -30.0 [-74.2, +13.3] in 188 games (LLR -0.72),
//!   against c8f7226 (the search of e0819fb); stopped;
//! * a plain four (one four and no three) that stops nothing of the opponent's, at a non-PV
//!   node of depth 3 or more not facing a three, reduced a ply (fours are never reduced there;
//!   bench 376668 to 367942): -27.3 [-62.4, +7.2] in 307 games (LLR -1.04), against c8f7226;
//!   stopped;
//! * at a leaf facing a three (step 4), our plain fours that stop no four of the opponent's
//!   searched only once every other move has been found to lose (in the middle games of
//!   self-play, the fours played at depth-1 nodes facing a three were the largest share of the
//!   fours in the tree; bench 376668 to 326857, middle-game depth at 300 k nodes 9.0 to 9.35 in
//!   20 positions): -12.2 [-38.4, +13.8] in 512 games (LLR -0.98), against c8f7226; stopped;
//!   with a small VCF of the side to move first at such a leaf (20 nodes, 24 plies, counted
//!   as nodes; a win ends the node; bench 376668 to 357316; a test position where the VCF
//!   starts with a plain four was then found won at the leaf, and not without the VCF): +0.4
//!   [-17.8, +18.5] in 992 games (LLR -0.54), against c8f7226; stopped. Not kept.
//! * the singular extension's margin (step 9) at 4 a ply, not 8 (more table moves extended;
//!   bench 376668 to 399407): -18.1 [-44.5, +8.1] in 463 games (LLR -1.29), against 6ee61fe
//!   (the search of e0819fb); stopped. At 20 a ply (fewer extended; bench 376668 to 341704):
//!   +15.0 [-6.9, +37.0] in 790 games (LLR 0.80), against 6ee61fe, then run on with other
//!   openings (seed 351): -12.4 [-42.9, +17.8] in 393 games, against 88b436e (the same
//!   search); both together +5.9 [-11.9, +23.7] in 1,183 games (LLR 0.11). Not kept (12 a ply
//!   changes the bench only to 376686).
//! * the log-shaped reduction's scale at 1.0, not 0.7 (bench 376668 to 381458): +1.4 [-23.8,
//!   +26.7] in 487 games (LLR -0.22), against 88b436e; stopped. With 0.9's run above, the
//!   scale makes no difference we can measure between 0.7 and 1.0.
//! * reverse futility pruning (step 5) to depth 10, not 8 (the bench, at depth 8, has no node
//!   that deep and keeps 376668): at 100 k nodes 83 of the first 85 game pairs ended one game
//!   each (a middle-game search there seldom reaches a non-PV node of depth 9), so that node
//!   count cannot measure it; stopped.
//! * the deeper search after a reduced move (step 11) from 40 + 12 a ply of its reduction, not
//!   60 + 20 (more moves searched a ply deeper; bench 376668 to 398565): +1.0 [-14.8, +16.8]
//!   in 1,340 games (LLR -0.61; +16.2 after the first 387), against 88b436e; stopped.
//! * futility pruning (step 11) at 120 a ply, not 150 (more quiet moves skipped; bench 376668
//!   to 348079): -6.6 [-28.2, +14.9] in 629 games (LLR -0.97), against 88b436e; stopped.
//! * a reduced quiet move whose learned shape score (`policy`) lies more than 1000 below the
//!   node's best square's (about three logits: 46% of the reduced quiet moves of the bench)
//!   reduced a ply more, as Rapfi reduces by its policy (bench 368732 to 365202): +7.6 [-47.1,
//!   +62.6] in 94 games, against the learned order (the search of f447bdb); with a table of
//!   threat-class pairs (what a square makes and stops together) added to the learned order
//!   (held-out cross-entropy 2.005 to 1.937, played move first 39.9% to 41.1%; bench 368732
//!   to 365476): +11.6 [-21.8, +45.1] in 271 games (LLR 0.23), against the same; both stopped
//!   for the session's time, not kept.

use super::movegen::makes_or_stops_four;
use super::worker::{Worker, MAX_PLY};
use crate::board::Board;
use crate::eval::evaluate;
use crate::pattern::Threat;
use crate::rules::Rule;
use crate::types::{loss_in, win_in, Bound, Depth, Pos, Value, INFINITE, WIN_BOUND};

/// Moves searched at full depth before late moves are reduced.
const LMR_FULL_MOVES: usize = 3;
/// Shallowest depth at which late moves are reduced.
const LMR_MIN_DEPTH: Depth = 3;
/// Moves that make or stop a three but no four are reduced by a ply from this index on.
const LMR_THREE_MOVES: usize = 6;
/// Moves from this index on are reduced by two plies instead of one.
const LMR_DEEP_MOVES: usize = 12;
/// Late quiet moves at non-PV nodes are reduced by at least this times ln(depth) ln(index + 1)
/// plies (range 0.4-1.0).
const LMR_LOG_SCALE: f32 = 0.7;
/// A reduced move whose reduced search beats alpha by this, plus this per ply of reduction,
/// is searched again a ply deeper than the others (ranges 30-120 and 0-40).
const LMR_DEEPER_MARGIN: Value = 60;
const LMR_DEEPER_PER_PLY: Value = 20;
/// Reverse futility pruning: deepest remaining depth it applies at, and the margin per ply
/// by which the static value must beat beta (in evaluation points, the same for every rule;
/// ranges 3-10 and 60-150; 80 a ply lost 16 Elo).
const RFP_MAX_DEPTH: Depth = 8;
const RFP_MARGIN: Value = 100;
/// Futility pruning: deepest remaining depth at which quiet moves are skipped when the static
/// value plus this margin per ply cannot reach alpha (a quiet move changes the static value
/// by much less: it makes or stops no three).
const FUTILITY_MAX_DEPTH: Depth = 3;
const FUTILITY_MARGIN: Value = 150;
/// Against a three: our fours that block nothing farther than this (Chebyshev) from both
/// last moves are pruned up to this depth, and reduced above it.
const DISTANT_FOUR: i32 = 4;
const DISTANT_FOUR_PRUNE_DEPTH: Depth = 4;
/// A reduced quiet move farther than this from both last moves is reduced a ply more.
const DISTANT_QUIET: i32 = 3;
/// Singular extension: shallowest depth, how much shallower the table's entry may be, and the
/// margin per ply below its value that the other moves must stay under.
const SE_MIN_DEPTH: Depth = 6;
const SE_TT_DEPTH: Depth = 3;
const SE_MARGIN: Value = 8;
/// ProbCut: shallowest depth, the plies its searches are reduced by, the margin above beta
/// they must reach, and how many attacking moves are tried.
const PROBCUT_MIN_DEPTH: Depth = 5;
const PROBCUT_REDUCTION: Depth = 4;
const PROBCUT_MARGIN: Value = 200;
const PROBCUT_MOVES: usize = 3;

impl Worker<'_> {
    /// The value of the position for the side to move, searched `depth` plies deep inside the
    /// window (`alpha`, `beta`); `ply` plies from the root; `pv_node` on the principal variation.
    pub(super) fn negamax(
        &mut self,
        mut depth: Depth,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> Value {
        // 1. Count the node; stop when a limit is reached.
        self.nodes += 1;
        self.pv_len[ply] = 0;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as i32);
        let board = &self.board;
        let me = board.side_to_move();
        let opp = me.opp();
        let p = ply as i32;
        // 2. A full board is a draw.
        if board.empty_count() == 0 {
            return 0;
        }
        // 3. Tactics that need no search.
        if board.count(me, Threat::Five) > 0 {
            return win_in(p + 1);
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(&self.board);
        }
        let opp_fives = board.count(opp, Threat::Five);
        if opp_fives > 0 {
            let blocks: Vec<Pos> = self.board.squares_with(opp, Threat::Five).collect();
            if blocks.len() != 1 || !self.board.is_legal(blocks[0]) {
                return loss_in(p + 2);
            }
            // A forced reply costs no depth.
            let q = blocks[0];
            self.board.play(q);
            let v = -self.negamax(depth, -beta, -alpha, ply + 1, pv_node);
            self.board.undo();
            if v > alpha {
                self.set_pv(ply, q);
            }
            return v;
        }
        if board.count(me, Threat::OpenFour) > 0
            && self
                .board
                .squares_with(me, Threat::OpenFour)
                .any(|q| self.board.is_legal(q))
        {
            return win_in(p + 3);
        }
        let must_defend = self.must_defend();
        // 4. The horizon.
        if depth <= 0 {
            // A leaf facing a three that makes an open four next move is not quiet: its static
            // value ignores that the three must be answered (or outrun by our own fours), so one
            // more ply searches just those moves. Not under renju, where it lost VCT puzzles
            // (316 to 310 of 349 solved): black's fouls make many threes there false.
            if self.board.rule() == Rule::Renju || !must_defend {
                // A VCF tried here (every leaf with a four) cost about a ply and measured no
                // gain at 300 ms per move (15-13-2 without it against 3-7 with it, versus the
                // previous version): the root threat searches and the main search's own
                // tactics stay.
                return evaluate(&self.board);
            }
            depth = 1;
        }

        // 5. Reverse futility pruning: near the leaves, a side to move whose static value beats
        // beta by a margin per ply, with no three of the opponent's to answer (fours and fives
        // were answered above), keeps beta whatever the opponent does in that few plies.
        let near_leaf = !pv_node && !must_defend;
        // The table entry serves this step and step 7 (nothing is stored in between).
        let key = self.board.hash();
        let tt_hit = self.tt.probe(key);
        let static_value = if near_leaf && depth <= RFP_MAX_DEPTH.max(FUTILITY_MAX_DEPTH) {
            // A table entry's value, searched however shallow, bounds the position better
            // than the static value does where its bound points the other way (+36.6 Elo in
            // 828 games at 100 k nodes, step 5).
            let sv = evaluate(&self.board);
            match tt_hit {
                Some(hit) if hit.value.abs() < WIN_BOUND => {
                    let v = hit.value;
                    let above = v > sv && hit.bound != Bound::Upper;
                    let below = v < sv && hit.bound != Bound::Lower;
                    if above || below {
                        v
                    } else {
                        sv
                    }
                }
                _ => sv,
            }
        } else {
            -INFINITE
        };
        if near_leaf && depth <= RFP_MAX_DEPTH && static_value - RFP_MARGIN * depth >= beta {
            return static_value;
        }
        let futile = near_leaf
            && depth <= FUTILITY_MAX_DEPTH
            && static_value + FUTILITY_MARGIN * depth <= alpha;

        // 6. Mate-distance pruning: nothing here can beat a win already found closer to the root.
        let alpha0 = alpha.max(loss_in(p));
        let beta0 = beta.min(win_in(p + 1));
        if alpha0 >= beta0 {
            return alpha0;
        }

        // 7. The transposition table (no cut-off in a singular test: a move is left out).
        let excluded = self.excluded[ply];
        let mut tt_move = Pos::NONE;
        let mut singular = None;
        if let Some(hit) = tt_hit {
            tt_move = hit.mv;
            let v = from_tt(hit.value, p);
            if excluded.is_none()
                && depth >= SE_MIN_DEPTH
                && (ply as Depth) < 2 * self.root_depth
                && hit.depth >= depth - SE_TT_DEPTH
                && hit.bound != Bound::Upper
                && !tt_move.is_none()
                && v.abs() < WIN_BOUND
            {
                singular = Some(v);
            }
            if excluded.is_none() && !pv_node && hit.depth >= depth {
                match hit.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }

        // 8. ProbCut: at a non-PV node deep enough, an attacking move (it makes a three or
        // more) whose reduced search beats beta by a margin is taken to beat beta at full
        // depth too (+36.1 Elo in 830 games at 100 k nodes).
        if !pv_node
            && !must_defend
            && excluded.is_none()
            && depth >= PROBCUT_MIN_DEPTH
            && beta.abs() < WIN_BOUND / 2
        {
            let rbeta = beta + PROBCUT_MARGIN;
            let refuted = matches!(tt_hit, Some(hit)
                if hit.depth >= depth - PROBCUT_REDUCTION + 1
                    && hit.bound != Bound::Lower
                    && from_tt(hit.value, p) < rbeta);
            if !refuted {
                let moves = self.generate(ply, tt_move, depth, must_defend);
                let mut tried = 0;
                for &(mv, _, _) in &moves {
                    if tried == PROBCUT_MOVES {
                        break;
                    }
                    if self.board.threat(me, mv) < Threat::Flex3 {
                        continue;
                    }
                    tried += 1;
                    self.board.play(mv);
                    let v = -self.negamax(
                        depth - PROBCUT_REDUCTION,
                        -rbeta,
                        -rbeta + 1,
                        ply + 1,
                        false,
                    );
                    self.board.undo();
                    if self.aborted {
                        return 0;
                    }
                    if v >= rbeta {
                        self.tt.store(
                            key,
                            mv,
                            to_tt(v, p),
                            depth - PROBCUT_REDUCTION + 1,
                            Bound::Lower,
                        );
                        return v;
                    }
                }
            }
        }

        // 9. Singular extension: a table move whose value no other move comes near (searched at
        // half depth, a margin below it) is searched a ply deeper; when the others reach beta
        // too, the node is cut.
        let mut extend_tt = 0;
        if let Some(tv) = singular {
            if self.tt_first(tt_move, must_defend).is_some() {
                let sbeta = tv - SE_MARGIN * depth;
                self.excluded[ply] = tt_move;
                let v = self.negamax((depth - 1) / 2, sbeta - 1, sbeta, ply, false);
                self.excluded[ply] = Pos::NONE;
                if self.aborted {
                    return 0;
                }
                if v < sbeta {
                    extend_tt = 1;
                } else if sbeta >= beta {
                    return sbeta;
                }
            }
        }

        // 10. The table's move is searched before the others are generated: it often ends the
        // node alone. The order and flags are those `generate` gives, so nothing else changes.
        let tt_move = if tt_move == excluded {
            Pos::NONE
        } else {
            tt_move
        };
        let first = self.tt_first(tt_move, must_defend);
        let mut moves = match first {
            Some(m) => vec![m],
            None => self.generate(ply, tt_move, depth, must_defend),
        };
        let mut generated = first.is_none();
        if moves.is_empty() {
            // Every square is a foul (renju): black must play one and lose.
            return loss_in(p + 1);
        }
        // 11. The moves, best first.
        let mut best_value = -INFINITE;
        let mut best_move = Pos::NONE;
        let orig_alpha = alpha;
        let mut next = 0;
        loop {
            if next == moves.len() {
                if generated {
                    break;
                }
                moves = self.generate(ply, tt_move, depth, must_defend);
                generated = true;
                // Both admit moves by `admit`, and the table's move scores highest.
                debug_assert_eq!(moves.first().map(|m| m.0), Some(tt_move));
                // The table's move may have been the only one.
                continue;
            }
            let i = next;
            let (mv, quiet, late) = moves[i];
            next += 1;
            if mv == excluded {
                continue;
            }
            // A late quiet move is pruned only while some move searched does not lose: a
            // loss proven with moves left unsearched is no proof (the pruned move may be the
            // one defence), and a false mate score would stand for good in the table.
            if late && best_value > -WIN_BOUND {
                continue;
            }
            // Futility pruning: near the leaves, a quiet move (it makes or stops no three)
            // cannot lift a side this far below alpha, once one move has been searched.
            if futile && quiet && i > 0 && best_value > -WIN_BOUND {
                continue;
            }
            let four = !quiet && makes_or_stops_four(&self.board, me, mv);
            // Against a three, a four of ours that blocks nothing and lies far from both last
            // moves only delays the defence: +30.9 Elo [+12.8, +49.2], SPRT elo0=0 elo1=10
            // passed (H1) in 968 games at 100 k nodes, against 06757b1 (before the root's
            // reductions).
            let mut distant = 0;
            if must_defend && i > 0 {
                let (prune, r) = distant_four(&self.board, mv, depth);
                if prune && best_value > -WIN_BOUND {
                    continue;
                }
                distant = r;
            }
            let far_quiet = quiet && i > 0 && distant_quiet(&self.board, mv);
            self.board.play(mv);
            let mut v;
            if i == 0 {
                let ext = if mv == tt_move { extend_tt } else { 0 };
                v = -self.negamax(depth - 1 + ext, -beta, -alpha, ply + 1, pv_node);
            } else {
                // A distant four is a four: its own reduction is the only one.
                let mut r = late_move_reduction(quiet, four, depth, i) + distant;
                // A reduced quiet move far from both last moves is reduced a ply more
                // (+21.1 Elo in 1,500 games at 100 k nodes, step 11).
                if far_quiet && r > 0 {
                    r = (r + 1).min(depth - 2);
                }
                // Deep in the tree a late quiet move is reduced by more, the later and deeper
                // the more (with the deeper search after it: +38.0 Elo in 826 games at 100 k nodes).
                if quiet && !pv_node && r > 0 {
                    r = r.max(log_reduction(depth, i));
                }
                v = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                let mut full = depth - 1;
                if v > alpha && r > 0 && !self.aborted {
                    // A reduced move that beats alpha by a clear margin is searched again a ply
                    // deeper than the others (not past twice the iteration's depth).
                    if v > alpha + LMR_DEEPER_MARGIN + LMR_DEEPER_PER_PLY * r
                        && (ply as Depth) < 2 * self.root_depth
                    {
                        full += 1;
                    }
                    v = -self.negamax(full, -alpha - 1, -alpha, ply + 1, false);
                }
                if v > alpha && v < beta && pv_node && !self.aborted {
                    v = -self.negamax(full, -beta, -alpha, ply + 1, true);
                }
            }
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if v > best_value {
                best_value = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, mv);
                    if v >= beta {
                        // 12. A cut-off: a quiet move becomes a killer; the move gains history.
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                        }
                        let h = &mut self.history[me.idx()][mv.idx()];
                        *h = (*h + depth * depth).min(1 << 20);
                        break;
                    }
                }
            }
        }
        // 13. The result goes into the table (not a singular test's: a move was left out).
        if !excluded.is_none() {
            return best_value;
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best_value, p), depth, bound);
        best_value
    }
}

/// Plies by which the `i`-th move (from 0) of a node of `depth` is first searched less: a quiet
/// move (it makes or stops no three) from the fourth on, by two from the thirteenth; a move that
/// makes or stops a three but no four from the seventh on; never a four or its block.
pub(super) fn late_move_reduction(quiet: bool, four: bool, depth: Depth, i: usize) -> Depth {
    if depth < LMR_MIN_DEPTH || four {
        0
    } else if quiet {
        (i >= LMR_FULL_MOVES) as Depth + (i >= LMR_DEEP_MOVES) as Depth
    } else {
        (i >= LMR_THREE_MOVES) as Depth
    }
}

/// Plies by which the `i`-th move (from 0), a late quiet one at a non-PV node of `depth`, is
/// reduced at least: `LMR_LOG_SCALE * ln(depth) * ln(i + 1)`, leaving at least a ply.
fn log_reduction(depth: Depth, i: usize) -> Depth {
    let r = LMR_LOG_SCALE * (depth.max(1) as f32).ln() * ((i + 1) as f32).ln();
    (r as Depth).min(depth - 2).max(0)
}

/// Against a three (the opponent threatens an open four), our move `mv` that makes a four but
/// blocks none of the opponent's only delays the defence when it lies farther than
/// `DISTANT_FOUR` from both last moves: whether it is pruned (within
/// `DISTANT_FOUR_PRUNE_DEPTH` of the leaves, far from both) and the plies it is reduced by
/// (from `LMR_MIN_DEPTH`: two when far from the opponent's last move, one when far from our
/// own, at least one ply left). Defences are neither.
fn distant_four(board: &Board, mv: Pos, depth: Depth) -> (bool, Depth) {
    if board.threat(board.side_to_move().opp(), mv) >= Threat::Block4 {
        return (false, 0);
    }
    let (far_opp, far_own) = (
        far_from(board, mv, 1, DISTANT_FOUR),
        far_from(board, mv, 2, DISTANT_FOUR),
    );
    let prune = far_opp && far_own && depth <= DISTANT_FOUR_PRUNE_DEPTH;
    let reduce = if depth >= LMR_MIN_DEPTH {
        (2 * far_opp as Depth + far_own as Depth).min(depth - 2)
    } else {
        0
    };
    (prune, reduce)
}

/// Whether `mv` lies farther than `d` (in king moves) from the stone played `back` moves ago
/// (1: the opponent's last move, 2: our own before it).
fn far_from(board: &Board, mv: Pos, back: usize, d: i32) -> bool {
    let h = board.history();
    h.len() >= back && h[h.len() - back].0.king_distance(mv) > d
}

/// A quiet move farther than `DISTANT_QUIET` from both last moves.
fn distant_quiet(board: &Board, mv: Pos) -> bool {
    far_from(board, mv, 1, DISTANT_QUIET) && far_from(board, mv, 2, DISTANT_QUIET)
}

/// Mate scores are stored relative to the node, so they stay right wherever the node recurs.
fn to_tt(v: Value, ply: i32) -> Value {
    if v >= WIN_BOUND {
        v + ply
    } else if v <= -WIN_BOUND {
        v - ply
    } else {
        v
    }
}

fn from_tt(v: Value, ply: i32) -> Value {
    if v >= WIN_BOUND {
        v - ply
    } else if v <= -WIN_BOUND {
        v + ply
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::search::testing::{fake_three, with_worker};
    use crate::types::{is_decisive, Color};

    #[test]
    fn a_leaf_facing_a_live_three_searches_the_answers() {
        // Black to move faces white's open three; the block at the right end of it is also
        // black's four and three (four-three). A leaf's static value does not see that, the
        // extra ply does. Renju keeps the static value (see `negamax`).
        let leaf = |rule: Rule| {
            let b = parse_diagram(
                "
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . . . .
                . . . . . . . . o . . . . . .
                . . . . . . . . x . . . . . .
                . . . . . . . . x . x . . . .
                . . . . . . . . x x . . . . .
                . . . . . o o o . . . . . . .
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . o . .
                . . . . . . . . . . . . . . .
                . . . . . . . . . . . . . . .",
            )
            .unwrap()
            .to_board(rule)
            .unwrap();
            assert_eq!(b.side_to_move(), Color::Black);
            with_worker(&b, 1, |w| {
                (
                    w.negamax(0, -INFINITE, INFINITE, 1, false),
                    evaluate(&w.board),
                )
            })
        };
        let (v, _) = leaf(Rule::Freestyle);
        assert!(v >= WIN_BOUND, "{v}");
        let (v, stat) = leaf(Rule::Renju);
        assert_eq!(v, stat);
        assert!(!is_decisive(v));
    }

    /// Black (to move) with four open twos around (6,6); white's stones sit in the corners, or
    /// (`three`) three of them make an open three on the bottom row, which black must answer.
    fn open_twos(three: bool) -> crate::board::Board {
        let (top, bottom) = if three {
            (
                ". . . . . . . . . . . . . . o",
                ". . . . . . o o o . . . . . .",
            )
        } else {
            (
                "o . . . . . . . . . . . . . o",
                "o . . . . . . . . . . . . . o",
            )
        };
        parse_diagram(&format!(
            "
            {top}
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
            {bottom}"
        ))
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap()
    }

    #[test]
    fn a_side_far_above_beta_near_the_leaves_is_not_searched() {
        let node = |three: bool, depth: Depth, pv_node: bool| {
            let b = open_twos(three);
            assert_eq!(b.side_to_move(), Color::Black);
            with_worker(&b, depth, |w| {
                let stat = evaluate(&w.board);
                let v = w.negamax(depth, -INFINITE, 0, 1, pv_node);
                (v, stat, w.nodes)
            })
        };
        let (v, stat, nodes) = node(false, 2, false);
        assert!(stat - RFP_MARGIN * 2 >= 0, "{stat}");
        assert_eq!((v, nodes), (stat, 1));
        // Searched: on the principal variation, beyond the depth, or facing a three.
        assert!(node(false, 2, true).2 > 1);
        assert!(node(false, RFP_MAX_DEPTH + 1, false).2 > 1);
        assert!(node(true, 2, false).2 > 1);
    }

    #[test]
    fn far_below_alpha_near_the_leaves_only_threat_moves_are_searched() {
        // White to move against black's four open twos (`open_twos`), nothing forced: at a
        // non-PV node of depth 2 whose static value plus the margin misses alpha, white
        // searches its first move and the moves that make or stop a three (those not late), no
        // other quiet one.
        // Each child (black to move, far above its beta) is cut by reverse futility at once.
        let mut b = open_twos(false);
        b.set_side_to_move(Color::White);
        let moves = crate::search::testing::generated(&b, 2);
        let threats = moves
            .iter()
            .filter(|&&(_, quiet, late)| !quiet && !late)
            .count();
        let kept = moves.iter().filter(|&&(_, _, late)| !late).count();
        assert!(threats > 0 && kept > threats + 1, "{threats} {kept}");
        let nodes = |margin: Value| {
            with_worker(&b, 2, |w| {
                let alpha = evaluate(&w.board) + margin;
                let v = w.negamax(2, alpha, alpha + 1, 1, false);
                assert!(v <= alpha);
                w.nodes as usize
            })
        };
        let first_quiet = moves[0].1 as usize;
        assert_eq!(nodes(FUTILITY_MARGIN * 2), 1 + threats + first_quiet);
        // Closer to alpha, every kept move is searched.
        assert_eq!(nodes(FUTILITY_MARGIN * 2 - 1), 1 + kept);
    }

    #[test]
    fn an_attack_that_beats_beta_by_the_margin_when_searched_shallower_cuts() {
        // Black (to move) with four open twos, at a non-PV node of ProbCut's depth whose beta
        // lies just too close to the static value for reverse futility: a move that makes a
        // three, searched 4 plies shallower, beats beta + 200, so the node is cut there and
        // stored as a lower bound of that reduced depth (a full search stores its own depth).
        let b = open_twos(false);
        let depth = PROBCUT_MIN_DEPTH;
        with_worker(&b, depth, |w| {
            assert!(!w.must_defend());
            let stat = evaluate(&w.board);
            let beta = stat - RFP_MARGIN * depth + 1;
            let v = w.negamax(depth, beta - 1, beta, 1, false);
            assert!(v >= beta + PROBCUT_MARGIN, "{v} {beta}");
            let hit = w.tt.probe(b.hash()).expect("an entry");
            assert_eq!(hit.bound, Bound::Lower);
            assert_eq!(hit.depth, depth - PROBCUT_REDUCTION + 1);
            assert!(
                w.board.threat(Color::Black, hit.mv) >= Threat::Flex3,
                "{}",
                hit.mv
            );
            // A ply shallower, ProbCut does not run: the node is searched and stored whole.
            w.tt.clear();
            let beta = stat - RFP_MARGIN * (depth - 1) + 1;
            w.negamax(depth - 1, beta - 1, beta, 1, false);
            assert_eq!(w.tt.probe(b.hash()).map(|h| h.depth), Some(depth - 1));
        });
    }

    #[test]
    fn a_singular_test_skips_the_table_move_and_leaves_the_table_alone() {
        // Black (to move) with four open twos: a search stores a table move; the search that
        // leaves it out (as the singular extension's test does) answers with another move and
        // writes nothing, so the entry the extension read stays as it was.
        let b = open_twos(false);
        with_worker(&b, 4, |w| {
            w.negamax(4, -INFINITE, INFINITE, 1, true);
            let hit = w.tt.probe(b.hash()).expect("an entry");
            assert!(!hit.mv.is_none());
            w.excluded[1] = hit.mv;
            let v = w.negamax(3, -INFINITE, INFINITE, 1, true);
            w.excluded[1] = Pos::NONE;
            assert!(v > -INFINITE);
            assert!(w.pv_len[1] > 0 && w.pv[1][0] != hit.mv, "{}", hit.mv);
            assert_eq!(w.tt.probe(b.hash()), Some(hit));
        });
    }

    #[test]
    fn late_moves_are_reduced_by_how_little_they_threaten() {
        let r = |quiet, four, depth, i| late_move_reduction(quiet, four, depth, i);
        // Quiet moves: from the fourth, two plies from the thirteenth.
        assert_eq!([2, 3, 11, 12].map(|i| r(true, false, 3, i)), [0, 1, 1, 2]);
        // Moves that make or stop a three: a ply from the seventh.
        assert_eq!([5, 6, 20].map(|i| r(false, false, 3, i)), [0, 1, 1]);
        // Fours and their blocks never; nothing below the shallowest depth.
        assert_eq!(r(false, true, 9, 30), 0);
        assert_eq!(r(true, false, LMR_MIN_DEPTH - 1, 30), 0);
    }

    #[test]
    fn deep_late_quiet_moves_are_reduced_by_the_log_of_depth_and_index() {
        // 0.7 ln(d) ln(i + 1): nothing more than the fixed plies near the leaves or early in
        // the list; deep and late, several plies, yet always a ply left.
        assert_eq!(log_reduction(3, 3), 1);
        assert_eq!(log_reduction(10, 3), 2);
        assert_eq!(log_reduction(10, 12), 4);
        assert_eq!(log_reduction(20, 40), 7);
        assert_eq!(log_reduction(4, 200), 2);
        assert_eq!(log_reduction(2, 5), 0);
    }

    #[test]
    fn against_a_three_a_distant_four_only_delays() {
        // Black's last move was at (10,10), white's at (7,7) made an open three on row 7.
        // Black's three on the bottom row, against the edge, makes a four at (3,14), seven
        // squares from both last moves: pruned near the leaves, reduced above them; the
        // blocks of the three are neither.
        let mut b = parse_diagram(
            "
            . . . . . . . . . . . . . . o
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . o o . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            x x x . . . . . . . . . . . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let probe = b.clone();
        let at = |x, y| probe.pos(x, y).unwrap();
        let (near, three, four, block) = (at(10, 10), at(7, 7), at(3, 14), at(8, 7));
        b.play(near);
        b.play(three);
        assert_eq!(b.side_to_move(), Color::Black);
        assert!(with_worker(&b, 2, |w| w.must_defend()));
        assert!(crate::search::testing::generated(&b, 2)
            .iter()
            .any(|m| m.0 == four));
        assert_eq!(distant_four(&b, four, 2), (true, 0));
        assert_eq!(distant_four(&b, four, 4), (true, 2));
        assert_eq!(distant_four(&b, four, 8), (false, 3));
        assert_eq!(distant_four(&b, block, 2), (false, 0));
        // Near black's own last move it is only reduced, by the two plies for white's.
        let mut b2 = b.clone();
        b2.undo();
        b2.undo();
        b2.play(at(5, 12));
        b2.play(three);
        assert_eq!(distant_four(&b2, four, 4), (false, 2));
    }

    #[test]
    fn a_node_whose_only_move_is_the_table_move_ends_after_it() {
        // One empty square on a 5x5 board: the first search stores it as the table's move, the
        // second searches it before generating and then finds nothing else to search.
        let b = parse_diagram(
            "
            x x o o x
            o o x x o
            x x o o x
            o o x x o
            x x o o .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let last = b.pos(4, 4).unwrap();
        with_worker(&b, 2, |w| {
            for _ in 0..2 {
                assert_eq!(w.negamax(2, -INFINITE, INFINITE, 1, true), 0);
                assert_eq!(w.pv[1][0], last);
            }
            assert_eq!(w.tt.probe(b.hash()).map(|h| h.mv), Some(last));
        });
    }

    #[test]
    fn the_table_move_is_searched_first_exactly_when_generated_first() {
        // `negamax` searches the table's move before generating the others: its check must
        // agree with `generate` on every square, with and without a three to answer, and
        // with renju fouls (the fake three's open-four squares are fouls for black).
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut b = fake_three(rule);
            for pass in 0..2 {
                let listed = with_worker(&b, 4, |w| {
                    let must_defend = w.must_defend();
                    let mut listed = 0;
                    for q in b.squares() {
                        let moves = w.generate(1, q, 4, must_defend);
                        match w.tt_first(q, must_defend) {
                            Some(m) => {
                                assert_eq!(moves[0], m, "{rule:?} {q}");
                                listed += 1;
                            }
                            None => assert!(moves.iter().all(|m| m.0 != q), "{rule:?} {q}"),
                        }
                    }
                    listed
                });
                assert!(listed > 0);
                // White to move once more: now black's fake three is the one to answer
                // (or not, under renju).
                if pass == 0 {
                    b.set_side_to_move(b.side_to_move().opp());
                }
            }
        }
    }
}
