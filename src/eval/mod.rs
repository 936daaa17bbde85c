//! The static evaluation: one home for its weights ([`weights`]), its formula ([`evaluate`]) and
//! the features the trainer fits ([`features`]).
//!
//! For each colour the board keeps two totals over the empty squares: the `own` table value of
//! each square's combination of four line patterns (what the squares are worth to that colour
//! when it is to move) and the `opp` value (when the opponent is). The value of a position for
//! the side to move is its own `own` total minus the opponent's `opp` total (in table units,
//! [`weights::TABLE_SCALE`] to one point) plus the threat table's value of which threat classes
//! each side holds. It is linear in the table entries, so a position reduces to counts of
//! combinations and one threat entry ([`Features`]), which `pbrain-pentad tune` fits to game
//! results and searched scores.
//!
//! Measured worth (self-play against the commit before, whose tables held the old 18 shape
//! values; 100 k nodes a move, shared balanced openings of the rule, random symmetries):
//! * freestyle tables fitted to 24,000 games (10,000/6,000 nodes a move): +40.9 Elo
//!   [+17.2, +64.9], SPRT elo0=0 elo1=10 passed in 802 games; at 1 s + 10 s + 0.1 s,
//!   58-34-6 in 98 games (+87 [+16, +166], stopped undecided at the session's end). Kept.
//! * standard tables fitted to 5,810 games: +24 [-24, +74] in 158 games, undecided; renju
//!   tables fitted to 9,261 games: -33 [-82, +14] in 200 games. Not kept: both families hold
//!   the old values (with their win-probability scale fitted to those games).
//! * freestyle round 2, fitted to 26,911 games of the round-1 engine (519,632 positions; the
//!   round-1 games were not kept), starting from the round-1 tables: held-out cross-entropy
//!   0.4227 -> 0.4100, yet -22.7 Elo [-56, +10] in 322 games; with 0.75 of the result in the
//!   label and 150 epochs, -17.2 [-39, +4] in 891 games. Not kept.
//! * freestyle round 2 again on 1,083,615 positions (51,387 games of the round-1 engine at
//!   10,000/6,000 nodes a move, 32 MB each, from random and balanced openings; 73 minutes on
//!   two cores), starting from the round-1 tables, half result and half searched score, 300
//!   epochs: held-out cross-entropy 0.4433 -> 0.4304, squared error 0.0586 -> 0.0547 (scale
//!   379, was 395), yet -21.2 [-70.7, +27.5] in 150 games (LLR -0.43), against e0819fb; the
//!   run ended with the machine. Not kept.
//! * the squares' values averaged over the position and the one before the last stone (both
//!   sides' totals taken again with the last stone lifted, as Rapfi blends its evaluation),
//!   fitted to the same positions: held-out cross-entropy 0.4640 -> 0.4363 (worse than the
//!   plain formula's 0.4304), and -203.1 [-260, -155] in 155 games (LLR -5.14), against
//!   e0819fb (likely because the leaves then see only half of the last move's effect). Not
//!   kept.
//!
//! The board's extra table lookups cost about a tenth of the make+undo rate.

pub mod weights;

pub use weights::{Family, Weights, TABLE_SCALE};

use crate::board::Board;
use crate::pattern::{Threat, COMBO, COMBOS, COMBO_KEYS};
use crate::rules::Rule;
use crate::types::{Cell, Color, Value, WIN_BOUND};
use weights::{table_colour, threat_mask, THREAT_ENTRIES};

/// A family's tables as the board reads them: per colour and combination key, the `own` and
/// `opp` values packed in one word (see [`pack`]), and the threat tables per side to move.
pub struct EvalTables {
    /// Families that give both colours one table keep it once (fewer cache lines to touch).
    values: [&'static [u64; COMBO_KEYS]; 2],
    threat: [Box<[i16; THREAT_ENTRIES]>; 2],
}

/// `own` in the low 32 bits (signed), `opp` above: sums and differences of packed words are the
/// packed sums and differences (wrapping), as long as each part stays inside 31 bits.
#[inline]
pub const fn pack(own: i32, opp: i32) -> u64 {
    (own as i64).wrapping_add((opp as i64) << 32) as u64
}

/// The `own` and `opp` parts of a packed word (or of a sum of them).
#[inline]
pub const fn unpack(v: u64) -> [i32; 2] {
    let own = ((v << 32) as i64) >> 32;
    let opp = (v as i64).wrapping_sub(own) >> 32;
    [own as i32, opp as i32]
}

impl EvalTables {
    /// The board's form of one family's weights (kept for the life of the process: see
    /// [`tables`]).
    fn new(w: &weights::FamilyWeights, family: Family) -> EvalTables {
        let colours = [Color::Black, Color::White].map(|c| table_colour(family, c));
        let table = |c: usize| -> &'static [u64; COMBO_KEYS] {
            let t = &w.colour[c];
            let mut v = Box::new([0u64; COMBO_KEYS]);
            for (key, e) in v.iter_mut().enumerate() {
                let combo = COMBO.of_key[key] as usize;
                if combo < COMBOS {
                    *e = pack(t.own[combo] as i32, t.opp[combo] as i32);
                }
            }
            // Built once per family for the life of the process (`tables`).
            Box::leak(v)
        };
        let black = table(colours[0]);
        let values = [
            black,
            if colours[1] == colours[0] {
                black
            } else {
                table(colours[1])
            },
        ];
        let threat = colours.map(|c| {
            let mut t = Box::new([0i16; THREAT_ENTRIES]);
            t.copy_from_slice(&w.threat[c]);
            t
        });
        EvalTables { values, threat }
    }

    /// The packed values of a square of `color` (0 black, 1 white) with combination key `key`.
    #[inline]
    pub fn value(&self, color: usize, key: usize) -> u64 {
        self.values[color & 1][key & (COMBO_KEYS - 1)]
    }
}

/// The tables of a rule, from the embedded weights (built on first use).
pub fn tables(rule: Rule) -> &'static EvalTables {
    use std::sync::OnceLock;
    static T: [OnceLock<EvalTables>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let f = Family::of(rule);
    T[f as usize].get_or_init(|| EvalTables::new(Weights::embedded().family(f), f))
}

/// The threat table's entry of a position: the side to move's mask × `MASKS` + the opponent's.
#[inline]
fn threat_entry(board: &Board) -> usize {
    let me = board.side_to_move();
    threat_mask(&playable_counts(board, me)) * weights::MASKS
        + threat_mask(&playable_counts(board, me.opp()))
}

/// How many empty squares give `color` each threat class, leaving out black's renju fouls from
/// the three-three up. A foul is no threat, since black may not play it (three-three,
/// four-four and overline are fouls under RIF rules): a three whose open-four squares are all
/// fouls is no three, and a three-three or four-four foul holds nothing. Only those classes
/// hold fouls often; a foul square of a lower class (a four beside an overline) stays counted.
#[inline]
fn playable_counts(board: &Board, color: Color) -> [u16; Threat::COUNT] {
    let mut n = *board.counts(color);
    if color == Color::Black && board.rule() == Rule::Renju {
        for t in [Threat::DoubleThree, Threat::FourThree, Threat::OpenFour] {
            if n[t as usize] > 0 {
                let fouls = board
                    .squares_with(color, t)
                    .filter(|&q| board.is_foul(color, q))
                    .count();
                n[t as usize] -= fouls as u16;
            }
        }
    }
    n
}

/// Static evaluation for the side to move, from the board's totals; never a mate score.
#[inline]
pub fn evaluate(board: &Board) -> Value {
    let me = board.side_to_move();
    let opp = me.opp();
    let t = board.eval_tables();
    let v = (board.totals(me)[0] - board.totals(opp)[1]) / TABLE_SCALE
        + t.threat[me.idx()][threat_entry(board)] as Value;
    v.clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
}

/// The side to move's chance to win, 0..1, from a score of `rule`'s evaluation (a search's
/// score or the static value): the fitted sigmoid of its family; 1 or 0 for a mate score.
pub fn win_probability(rule: Rule, v: Value) -> f64 {
    if crate::types::is_decisive(v) {
        return if v > 0 { 1.0 } else { 0.0 };
    }
    let k = Weights::embedded().family(Family::of(rule)).scale.max(1) as f64;
    1.0 / (1.0 + (-(v as f64) / k).exp())
}

/// A position reduced to what the evaluation reads: how many empty squares have each
/// combination for the side to move (its `own` table) and for the opponent (its `opp` table),
/// and the threat table's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The side to move.
    pub me: Color,
    /// (combination, squares) for the side to move, by combination.
    pub own: Vec<(u16, u16)>,
    /// (combination, squares) for the opponent, by combination.
    pub opp: Vec<(u16, u16)>,
    /// The threat table entry (the side to move's mask × `MASKS` + the opponent's).
    pub threat: u16,
}

/// The features of `b`, or `None` for a position the search decides (either side can make
/// five, or the side to move has an open four or a four-three).
pub fn features(b: &Board) -> Option<Features> {
    let me = b.side_to_move();
    let opp = me.opp();
    let mine = playable_counts(b, me);
    if mine[Threat::Five as usize] > 0
        || b.count(opp, Threat::Five) > 0
        || mine[Threat::OpenFour as usize] > 0
        || mine[Threat::FourThree as usize] > 0
    {
        return None;
    }
    let mut own = vec![0u16; COMBOS];
    let mut theirs = vec![0u16; COMBOS];
    for q in b.squares() {
        if b.cell(q) == Cell::Empty {
            own[b.combo(me, q)] += 1;
            theirs[b.combo(opp, q)] += 1;
        }
    }
    let sparse = |v: Vec<u16>| -> Vec<(u16, u16)> {
        v.into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .map(|(i, n)| (i as u16, n))
            .collect()
    };
    let threat = threat_entry(b);
    Some(Features {
        me,
        own: sparse(own),
        opp: sparse(theirs),
        threat: threat as u16,
    })
}

/// The evaluation `w` gives a position with features `f` (in points, unrounded): in a family's
/// tables, what [`evaluate`] computes from the board.
pub fn linear(w: &weights::FamilyWeights, family: Family, f: &Features) -> f64 {
    let (me, opp) = (table_colour(family, f.me), table_colour(family, f.me.opp()));
    let own: i64 = f
        .own
        .iter()
        .map(|&(k, n)| w.colour[me].own[k as usize] as i64 * n as i64)
        .sum();
    let theirs: i64 = f
        .opp
        .iter()
        .map(|&(k, n)| w.colour[opp].opp[k as usize] as i64 * n as i64)
        .sum();
    (own - theirs) as f64 / TABLE_SCALE as f64 + w.threat[me][f.threat as usize] as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::types::Pos;

    #[test]
    fn packed_values_add_and_subtract() {
        for (a, b, c, d) in [
            (5, -7, -30_000, 12),
            (-1, -1, 1, 1),
            (32_767, -32_768, 0, 0),
        ] {
            let sum = pack(a, b).wrapping_add(pack(c, d));
            assert_eq!(unpack(sum), [a + c, b + d]);
            let diff = pack(a, b).wrapping_sub(pack(c, d));
            assert_eq!(unpack(diff), [a - c, b - d]);
        }
    }

    #[test]
    fn the_embedded_weights_read_and_write_back() {
        let w = Weights::embedded();
        assert_eq!(w.families.len(), Family::ALL.len());
        assert_eq!(Weights::parse(&w.to_bytes()).as_ref(), Ok(w));
        assert!(!w.info.is_empty());
        // Damaged or truncated, the file is refused.
        let mut bytes = w.to_bytes();
        bytes[100] ^= 1;
        assert!(Weights::parse(&bytes).is_err());
        assert!(Weights::parse(&weights::EMBEDDED[..weights::EMBEDDED.len() - 1]).is_err());
    }

    /// The fitted form is the evaluation: the tables on a position's features give what
    /// `evaluate` gives (up to its integer division), in every family and for either side.
    #[test]
    fn features_with_the_tables_are_the_evaluation() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            let mut b = parse_diagram(
                "
                . . . . . . . . .
                . . . . . . . . .
                . . X O . . . . .
                . . . X X O . . .
                . . . O . . . . .
                . . . . . . . . .
                . . . . . . . . .
                ",
            )
            .unwrap()
            .to_board(rule)
            .unwrap();
            for _ in 0..2 {
                let f = features(&b).expect("a quiet position");
                let family = Family::of(rule);
                let fitted = linear(Weights::embedded().family(family), family, &f);
                let v = evaluate(&b) as f64;
                assert!((fitted - v).abs() < 1.0, "{rule:?} {fitted} {v}");
                b.set_side_to_move(b.side_to_move().opp());
            }
        }
    }

    #[test]
    fn a_renju_three_that_can_only_become_a_foul_is_no_three() {
        // Black's three on the row can become an open four only at (5,7) or (9,7), and each
        // of those also makes a four on its column: a double four, a foul. Under renju black
        // holds no open-four square there; under freestyle it holds two.
        let open_four = |rule: Rule| {
            let b = crate::search::testing::fake_three(rule);
            assert_eq!(b.count(Color::Black, Threat::OpenFour), 2);
            playable_counts(&b, Color::Black)[Threat::OpenFour as usize]
        };
        assert_eq!(open_four(Rule::Renju), 0);
        assert_eq!(open_four(Rule::Freestyle), 2);
    }

    #[test]
    fn features_count_both_sides_and_skip_decided_positions() {
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        b.play(Pos::new(7, 7));
        let f = features(&b).unwrap();
        assert_eq!(f.me, Color::White);
        let squares = |v: &[(u16, u16)]| v.iter().map(|&(_, n)| n as usize).sum::<usize>();
        assert_eq!(squares(&f.own), 224);
        assert_eq!(squares(&f.opp), 224);
        // Black's stone gives black's squares around it other combinations than white's.
        assert_ne!(f.own, f.opp);
        for (x, y) in [(0, 0), (8, 7), (0, 1), (9, 7), (0, 2), (10, 7), (0, 3)] {
            b.play(Pos::new(x, y));
        }
        // Black to move with an open four (and white with a four): the search decides.
        assert!(features(&b).is_none());
    }
}
