//! VCT: victory by continuous threats. The attacker plays fours and threes; against a four the
//! defender's only move is the block, against a three every move that stops the coming open
//! four (the squares where the attacker would make a four) and every four of the defender's own.
//! A position is won when every defence loses. Where the attacker runs out of depth a VCF may
//! still finish the job.

use super::vcf::{Abort, Vcf};
use crate::board::{Board, Threat};
use crate::types::{Color, Pos};
use ahash::AHashMap;

/// Positions remembered before the memory is cleared.
const MAX_REMEMBERED: usize = 1 << 18;
/// VCF plies tried where the threat search ends.
const LEAF_VCF_PLIES: i32 = 20;
/// Node budget of each of those VCF searches.
const LEAF_VCF_NODES: u64 = 200;

/// A VCT solver.
pub struct Vct<'a> {
    abort: Option<Abort<'a>>,
    memo: AHashMap<(u64, i32), bool>,
    vcf: Vcf<'a>,
    nodes: u64,
    next_check: u64,
    max_nodes: u64,
    out_of_nodes: bool,
}

impl<'a> Vct<'a> {
    /// A solver that gives up after `max_nodes` nodes per call.
    pub fn new(max_nodes: u64) -> Vct<'a> {
        Vct {
            abort: None,
            memo: AHashMap::default(),
            vcf: Vcf::new(LEAF_VCF_NODES),
            nodes: 0,
            next_check: 0,
            max_nodes,
            out_of_nodes: false,
        }
    }

    /// Also gives up when `abort` says so.
    pub fn with_abort(mut self, abort: Abort<'a>) -> Vct<'a> {
        self.abort = Some(abort);
        self
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a win by threats for the side to move with at most `max_threats` of its own
    /// threat moves (deepening one at a time); returns the first move of the win and the number
    /// of threat moves it needs.
    pub fn solve(&mut self, b: &mut Board, max_threats: i32) -> Option<(Pos, i32)> {
        self.nodes = 0;
        self.next_check = 0;
        self.out_of_nodes = false;
        if self.memo.len() > MAX_REMEMBERED {
            self.memo.clear();
        }
        for depth in 1..=max_threats {
            if let Some(m) = self.root(b, depth) {
                return Some((m, depth));
            }
            if self.out_of_nodes {
                break;
            }
        }
        None
    }

    fn root(&mut self, b: &mut Board, depth: i32) -> Option<Pos> {
        let me = b.side_to_move();
        for a in threat_moves(b, me) {
            b.play(a);
            let won = self.defend(b, depth - 1);
            b.undo();
            if won {
                return Some(a);
            }
            if self.out_of_nodes {
                break;
            }
        }
        None
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // Leaf VCF searches add many nodes at once: compare with a threshold.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + Abort::EVERY;
            if self.abort.is_some_and(|a| a.due()) {
                self.out_of_nodes = true;
            }
        }
        if self.nodes >= self.max_nodes {
            self.out_of_nodes = true;
        }
        self.out_of_nodes
    }

    /// Attacker to move: true when it wins.
    fn attack(&mut self, b: &mut Board, depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        let me = b.side_to_move();
        let opp = me.opp();
        if b.count(me, Threat::Five) > 0 {
            return true;
        }
        if b.count(opp, Threat::Five) > 0 {
            let blocks: Vec<Pos> = b.squares_with(opp, Threat::Five).collect();
            if blocks.len() != 1 || b.is_foul(me, blocks[0]) {
                return false;
            }
            b.play(blocks[0]);
            let r = self.defend(b, depth);
            b.undo();
            return r;
        }
        if b.squares_with(me, Threat::OpenFour)
            .any(|q| !b.is_foul(me, q))
        {
            return true;
        }
        if depth <= 0 {
            let r = self.vcf.solve(b, LEAF_VCF_PLIES).is_some();
            self.nodes += self.vcf.nodes();
            return r;
        }
        let key = (b.hash(), depth);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let mut won = false;
        for a in threat_moves(b, me) {
            b.play(a);
            won = self.defend(b, depth - 1);
            b.undo();
            if won || self.out_of_nodes {
                break;
            }
        }
        if !self.out_of_nodes {
            self.memo.insert(key, won);
        }
        won
    }

    /// Defender to move after an attacker's threat: true when the attacker still wins.
    fn defend(&mut self, b: &mut Board, depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        let me = b.side_to_move();
        let att = me.opp();
        if b.count(me, Threat::Five) > 0 {
            return false;
        }
        let fives = b.count(att, Threat::Five);
        if fives > 0 {
            let blocks: Vec<Pos> = b.squares_with(att, Threat::Five).collect();
            if blocks.len() != 1 || b.is_foul(me, blocks[0]) {
                return true;
            }
            b.play(blocks[0]);
            let r = self.attack(b, depth);
            b.undo();
            return r;
        }
        // No four: the threat is an open four to come; without one the defender is free.
        if !b
            .squares_with(att, Threat::OpenFour)
            .any(|q| !b.is_foul(att, q))
        {
            return false;
        }
        let key = (b.hash(), depth);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let mut defences: Vec<Pos> = Vec::with_capacity(16);
        for t in [
            Threat::Five,
            Threat::OpenFour,
            Threat::FourThree,
            Threat::Block4,
        ] {
            defences.extend(b.squares_with(me, t));
            defences.extend(b.squares_with(att, t));
        }
        defences.sort();
        defences.dedup();
        defences.retain(|&q| !b.is_foul(me, q));
        let mut won = true;
        for d in defences {
            b.play(d);
            won = self.attack(b, depth);
            b.undo();
            if !won || self.out_of_nodes {
                won = won && !self.out_of_nodes;
                break;
            }
        }
        if !self.out_of_nodes {
            self.memo.insert(key, won);
        }
        won
    }
}

/// The attacker's threat moves: fours first, then threes, strongest shape first; never a foul.
fn threat_moves(b: &Board, me: Color) -> Vec<Pos> {
    let mut moves: Vec<Pos> = [
        Threat::FourThree,
        Threat::Block4,
        Threat::DoubleThree,
        Threat::Flex3,
    ]
    .iter()
    .flat_map(|&t| b.squares_with(me, t))
    .filter(|&q| !b.is_foul(me, q))
    .collect();
    moves.sort_by_key(|&q| (std::cmp::Reverse((b.threat(me, q), b.value(me, q))), q));
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::rules::Rule;

    #[test]
    fn finds_a_three_three_win() {
        // Black makes two open threes at once on (5,5); white has nothing to counter with.
        let mut b = parse_diagram(
            "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . x x . . . . . . .
            . . . . . . . . . . . .
            . . . . . x . . . . . .
            . . . . . x . . . . . .
            . o . . . . . . . . o .
            . . o . . . . . . . . .
            . . . . . . . . . o . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let m = Vct::new(200_000).solve(&mut b, 4);
        assert!(m.is_some());
        assert_eq!(m.unwrap().0, Pos::new(5, 5));
    }

    #[test]
    fn no_win_from_a_lone_pair() {
        let mut b = parse_diagram(
            "
            . . . . . . . .
            . . . . . . . .
            . . . x x . . .
            . . . o . . . .
            . . . . o . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        assert!(Vct::new(100_000).solve(&mut b, 4).is_none());
    }
}
