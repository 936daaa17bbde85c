//! VCF: victory by continuous fours. The attacker plays only fours; each four has a single
//! answer (the square that completes it), so the tree is narrow and can be searched deep.
//!
//! Under renju the attacker's fours and the defender's blocks are checked against black's fouls:
//! black may not attack through a foul square, and a black defender who can only block on a foul
//! square has lost.

use crate::board::Board;
use crate::pattern::Threat;
use crate::types::{Color, Pos, DIRS};
use ahash::AHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// When a threat search must give up early: a deadline and the search's stop flag.
#[derive(Clone, Copy)]
pub struct Abort<'a> {
    /// Give up at this moment.
    pub deadline: Option<Instant>,
    /// Give up once this is raised.
    pub stop: &'a AtomicBool,
}

impl Abort<'_> {
    /// Nodes between two looks at the clock.
    pub const EVERY: u64 = 256;
    /// True when the search must stop now.
    pub fn due(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Squares on the four lines through `p` (within four steps) where `color` makes five.
pub fn fives_near(b: &Board, p: Pos, color: Color) -> ([Pos; 8], usize) {
    let mut out = [Pos::NONE; 8];
    let mut n = 0;
    for &dir in &DIRS {
        for k in -4isize..=4 {
            if k == 0 {
                continue;
            }
            let q = p.step(dir, k);
            if b.is_empty(q)
                && b.threat(color, q) == Threat::Five
                && n < 8
                && !out[..n].contains(&q)
            {
                out[n] = q;
                n += 1;
            }
        }
    }
    (out, n)
}

/// Positions remembered as failures before the memory is cleared (bounds the solver's memory).
const MAX_REMEMBERED: usize = 1 << 16;

/// A VCF solver with its own memory of positions proven not to win.
pub struct Vcf<'a> {
    abort: Option<Abort<'a>>,
    aborted: bool,
    failed: AHashMap<u64, i32>,
    nodes: u64,
    max_nodes: u64,
    line: Vec<Pos>,
}

impl<'a> Vcf<'a> {
    /// A solver that gives up after `max_nodes` nodes per call.
    pub fn new(max_nodes: u64) -> Vcf<'a> {
        Vcf {
            abort: None,
            aborted: false,
            failed: AHashMap::default(),
            nodes: 0,
            max_nodes,
            line: Vec::new(),
        }
    }

    /// Also gives up when `abort` says so.
    pub fn with_abort(mut self, abort: Abort<'a>) -> Vcf<'a> {
        self.abort = Some(abort);
        self
    }

    /// Sets the node budget of each call.
    pub fn set_max_nodes(&mut self, n: u64) {
        self.max_nodes = n;
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the positions remembered as failures.
    pub fn clear(&mut self) {
        self.failed.clear();
    }

    /// Searches a VCF for the side to move within `max_plies` plies (attacker and defender
    /// moves). Returns the winning line (attacker first, ending with the five) if one is found.
    pub fn solve(&mut self, b: &mut Board, max_plies: i32) -> Option<Vec<Pos>> {
        self.nodes = 0;
        self.aborted = false;
        self.line.clear();
        if self.failed.len() > MAX_REMEMBERED {
            self.failed.clear();
        }
        if self.attack(b, max_plies) {
            Some(self.line.iter().rev().copied().collect())
        } else {
            None
        }
    }

    fn exhausted(&self) -> bool {
        self.aborted || self.nodes >= self.max_nodes
    }

    /// True when the side to move wins by fours within `plies`; the line is pushed in reverse.
    fn attack(&mut self, b: &mut Board, plies: i32) -> bool {
        self.nodes += 1;
        let me = b.side_to_move();
        let opp = me.opp();
        if b.count(me, Threat::Five) > 0 {
            if let Some(q) = b.squares_with(me, Threat::Five).next() {
                self.line.push(q);
                return true;
            }
        }
        if self.nodes.is_multiple_of(Abort::EVERY) {
            self.aborted |= self.abort.is_some_and(|a| a.due());
        }
        if plies < 3 || self.exhausted() || !has_four_move(b, me) {
            return false;
        }
        let key = b.hash();
        if let Some(&d) = self.failed.get(&key) {
            if d >= plies {
                return false;
            }
        }
        // An opponent's four must be blocked, and the block must itself be a four.
        let forced = if b.count(opp, Threat::Five) > 0 {
            let blocks: Vec<Pos> = b.squares_with(opp, Threat::Five).collect();
            if blocks.len() != 1 {
                return false;
            }
            Some(blocks[0])
        } else {
            None
        };
        let mut moves: Vec<Pos> = match forced {
            Some(q) => vec![q],
            None => b
                .candidates()
                .filter(|&q| is_four(b.threat(me, q)))
                .collect(),
        };
        moves.retain(|&q| is_four(b.threat(me, q)) && !b.is_foul(me, q));
        // Open fours and four-threes first (they end the search soonest), then the fours with
        // the most shape around them.
        if forced.is_none() {
            moves.sort_by_key(|&q| (std::cmp::Reverse((b.threat(me, q), b.value(me, q))), q));
        }
        for a in moves {
            b.play(a);
            let (fives, n) = fives_near(b, a, me);
            let won = if n >= 2 {
                // Open four (or two fours): the defender blocks one, the other makes five.
                // A defender who can make five first would win instead.
                if b.count(opp, Threat::Five) > 0 {
                    false
                } else {
                    // The line shows the defender blocking one five (or, when a black defender
                    // may block neither, playing elsewhere) and the attacker taking another.
                    let block = fives[..n].iter().copied().find(|&f| !b.is_foul(opp, f));
                    match block.or_else(|| legal_elsewhere(b, opp, &fives[..n])) {
                        Some(d) => {
                            let take = fives[..n].iter().copied().find(|&f| f != d);
                            self.line.push(take.unwrap_or(fives[0]));
                            self.line.push(d);
                            true
                        }
                        // A defender with no legal move at all: not a win we can play out.
                        None => false,
                    }
                }
            } else if n == 1 {
                let q = fives[0];
                if b.count(opp, Threat::Five) > 0 {
                    false
                } else if b.is_foul(opp, q) {
                    // A black defender may not block on a foul square: the four wins. The line
                    // shows the defender playing elsewhere. When the foul square is black's only
                    // empty square left (a full board), black cannot move at all and the game
                    // does not end in a five: no win.
                    match legal_elsewhere(b, opp, &[q]) {
                        Some(d) => {
                            self.line.push(q);
                            self.line.push(d);
                            true
                        }
                        None => false,
                    }
                } else {
                    b.play(q);
                    let r = self.attack(b, plies - 2);
                    b.undo();
                    if r {
                        self.line.push(q);
                    }
                    r
                }
            } else {
                false
            };
            b.undo();
            if won {
                self.line.push(a);
                return true;
            }
            if self.exhausted() {
                return false;
            }
        }
        if !self.exhausted() {
            self.failed.insert(key, plies);
        }
        false
    }
}

/// A square `color` may legally play other than those of `avoid`: near the stones if possible,
/// else anywhere on the board.
fn legal_elsewhere(b: &Board, color: Color, avoid: &[Pos]) -> Option<Pos> {
    let ok = |d: Pos| b.is_empty(d) && !avoid.contains(&d) && !b.is_foul(color, d);
    b.candidates()
        .find(|&d| ok(d))
        .or_else(|| b.squares().find(|&d| ok(d)))
}

/// True when `color` has a square that makes a four (cheap: from the threat counts).
#[inline]
pub fn has_four_move(b: &Board, color: Color) -> bool {
    b.count(color, Threat::Block4)
        + b.count(color, Threat::FourThree)
        + b.count(color, Threat::OpenFour)
        > 0
}

/// True for a threat class whose move makes a four.
#[inline]
pub(crate) fn is_four(t: Threat) -> bool {
    matches!(t, Threat::Block4 | Threat::FourThree | Threat::OpenFour)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::rules::Rule;

    fn check_line(b: &Board, line: &[Pos]) {
        let mut b = b.clone();
        let me = b.side_to_move();
        for (i, &p) in line.iter().enumerate() {
            assert!(b.is_legal(p), "move {i} {p:?} illegal");
            if i + 1 == line.len() {
                assert!(b.wins_by(me, p));
            }
            b.play(p);
        }
    }

    #[test]
    fn finds_a_double_four() {
        // Black makes two fours at once on (5,1).
        let b = parse_diagram(
            "
            . . . . . . . . . . . .
            . . x x x . . . . . . .
            . . . . . . . . . . . .
            . . . . . x . . . . . .
            . . . . . x . . . . . .
            . . . . . x . . . . . .
            . . . . . . . . . . . .
            . o o . o . . . . . . .
            . . . . o . . . . . . .
            . . o o . . o . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let mut bb = b.clone();
        let line = Vcf::new(100_000).solve(&mut bb, 15).expect("vcf");
        check_line(&b, &line);
    }

    #[test]
    fn no_vcf_without_fours() {
        let b = parse_diagram(
            "
            . . . . . . .
            . . x . . . .
            . . . o . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let mut bb = b.clone();
        assert!(Vcf::new(10_000).solve(&mut bb, 20).is_none());
    }

    /// A renju board of walls where white's four on column 3 can only be blocked on 3,0, where
    /// black would make an overline (a foul), with `extra` open squares besides.
    fn foul_block_board(open_corner: bool) -> Board {
        let corner = if open_corner { "." } else { "#" };
        let text = format!(
            "
            x x x . x x #
            # # # o # # #
            # # # o # # #
            # # # o # # #
            # # # . # # #
            # # # # # # #
            # # # # # # {corner}"
        );
        parse_diagram(&text)
            .unwrap()
            .to_board(crate::rules::Rule::Renju)
            .unwrap()
    }

    #[test]
    fn a_four_whose_block_is_a_foul_wins_and_the_line_is_legal() {
        let b = foul_block_board(true);
        assert_eq!(b.side_to_move(), Color::White);
        assert!(b.is_foul(Color::Black, Pos::new(3, 0)));
        let mut bb = b.clone();
        let line = Vcf::new(10_000).solve(&mut bb, 15).expect("vcf");
        // White's four, black elsewhere (the only legal square), white's five.
        assert_eq!(line, vec![Pos::new(3, 4), Pos::new(6, 6), Pos::new(3, 0)]);
        check_line(&b, &line);
    }

    #[test]
    fn no_win_when_the_foul_block_is_blacks_last_square() {
        // The same four with no other empty square: black cannot move at all and the game does
        // not end in a five, so no win is claimed (the fault behind puzzle 超级五子棋/0106: a
        // 154-ply "VCF" that filled the board and ended on black's only square, a foul).
        let mut b = foul_block_board(false);
        assert!(Vcf::new(10_000).solve(&mut b, 15).is_none());
    }
}
