//! VCT: victory by continuous threats, by depth-first proof-number search (df-pn) over a
//! transposition table.
//!
//! The attacker plays fours and threes; against a four the defender's only move is the block,
//! against a three every move that stops the coming open four (the squares where the attacker
//! would make a four) and every four of the defender's own. A three fails at once when the
//! defender has a VCF of its own. An attacker to move who has a VCF has won. Proof and disproof
//! numbers steer the search to the most promising line; a position is won when every defence
//! loses.
//!
//! Under renju the attacker (black) never plays a foul square, a black defender never blocks on
//! one, and a black three counts only when its open-four square is not a foul.
//!
//! Tried and left out (session 34, the shared renju VCT set of 349 puzzles; "claims" are
//! `puzzles --threats-only --nodes 750000`, the root VCF and this solver alone, against 237 for
//! this code; "at 1 s" is the engine with 2 threads, 293 of 349 = 84.0% for this code):
//! * against a quiet threat (a VCF if the defender passed), only the moves after which the same
//!   fours no longer win kept as defences, found by playing the line out after each candidate
//!   (outside renju only the candidates on the line's lines and the defender's fours are played
//!   out; under renju a stone anywhere may change a foul, so every one is): a quiet threat's
//!   defences fell from 96 to 11 on average (first 60 puzzles) and the claims rose to 259 (this
//!   code claims 261 with 1.8 M nodes), but under renju each node then cost about twice the time;
//!   at 1 s 294 (84.2%). On the 231 puzzles that also hold a freestyle win, played under freestyle:
//!   claims 176 -> 190 (this code 192 with 2 M nodes), at 1 s 222 -> 220. Those figures include the
//!   proof-number table as buckets of four that give up the entry whose search took the fewest
//!   nodes (12 MiB at most, where the map below is cleared whole when full): 237 -> 237 alone; with
//!   the 1 + epsilon thresholds (a quarter) too: 236. On top of the replay and the table, a child's
//!   numbers guessed from its move (a four 1, a three 2, a quiet move 4) and searched only when
//!   chosen, not evaluated when its parent is expanded: 259 -> 255 (freestyle 190 -> 192).
//! * with the replay, the table and the thresholds, 40 quiet moves a node, not 8
//!   (`MAX_QUIET_MOVES`): 258 -> 250 (one short puzzle, 白先胜100题/0032, is solved only with
//!   them); with the replay and the table, 12: freestyle 190 -> 191.
//! * with the replay and the table, the helper thread's VCT budget at 1,500 nodes a millisecond,
//!   not 500: 294 -> 293 at 1 s (the budget does not bind).
//!
//! The VCT target (97% at 1 s) needs far more: of the 56 puzzles unsolved at 1 s, this code
//! claims 12 with 1.8 M nodes, and of 12 short ones (9-13 plies) not claimed with 750 k nodes,
//! 5 are not claimed with 8 M (both runs with the bucket table and the thresholds).

use super::vcf::{Abort, Vcf};
use crate::board::Board;
use crate::pattern::Pattern;
use crate::pattern::Threat;
use crate::rules::Rule;
use crate::types::{Color, Pos};
use ahash::AHashMap;

/// Positions remembered in each map before it is cleared (the old VCT's bound): by the entry
/// sizes at most some 13 MiB for the proof-number table and 9 MiB for the first pass's memory,
/// where a 2^20 bound could take some 50 MiB at the root's 1.5 M nodes, far beyond what a small
/// `max_memory` leaves beside the transposition table.
const MAX_REMEMBERED: usize = 1 << 18;
/// VCF plies tried for the side to move at each node (the attacker's win, or the defender's
/// counter that refutes a three).
const NODE_VCF_PLIES: i32 = 24;
/// Node budget of each of those VCF searches. Small: a longer counter-VCF of the defender is
/// still found by the tree (its fours are among the defences), and the nodes saved go to the
/// tree. On the shared VCT set at 2.5 M nodes the solver claimed 270, 270, 269, 265 and 261 of
/// 349 with budgets of 10, 20, 30, 60 and 150.
const NODE_VCF_NODES: u64 = 20;
/// Deepest line searched, in plies from the root.
const MAX_PLIES: i32 = 80;
/// Proof and disproof numbers: "infinite" (solved) and the cap of sums below it.
const INF: u32 = u32::MAX;
const CAP: u32 = u32::MAX - 1;

/// Share of the node budget (in percent) of the first pass, an iterative deepening search over
/// fours and threes; the second pass, a proof-number search, also tries quiet moves that
/// threaten a VCF (see `quiet_moves`). The proof-number pass finds more: on the shared VCT set
/// the solver alone claimed 271, 270, 267 and 256 of 349 at 4 M nodes with a first pass of 0,
/// 15, 40 and 70%; at 500 k nodes 210, 217 and 216 with 0, 15 and 40% (node VCFs of 150).
const DEEPENING_PCT: u64 = 15;
/// Quiet moves tried at a node, by shape value.
const MAX_QUIET_MOVES: usize = 8;

/// Proof and disproof number of a position, the plies to the five once proven, and the
/// attacker's threes on the way to a disproven one.
#[derive(Clone, Copy, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    plies: u16,
    /// A disproof holds only within the threes the attacker had left: reached with more to
    /// spend (fewer threes on the way), the position is searched again. A proof always holds.
    threes: u8,
}

impl Entry {
    const PROVEN: Entry = Entry {
        pn: 0,
        dn: INF,
        plies: 0,
        threes: 0,
    };
    const DISPROVEN: Entry = Entry {
        pn: INF,
        dn: 0,
        plies: 0,
        threes: 0,
    };
    fn proven(plies: i32) -> Entry {
        Entry {
            plies: plies.clamp(0, u16::MAX as i32) as u16,
            ..Entry::PROVEN
        }
    }
}

/// Positions kept from the last proven VCT: a proof-number search proves a win for every
/// defence, so the positions after the defender's answers are proven too, and the attacker's
/// next searches find their winning move here instead of proving it again within their (often
/// smaller) budget.
const MAX_PROOF_POSITIONS: usize = 1 << 16;

/// Positions proven lost for the side to move by a VCT of the opponent, with the plies to the
/// five: the defender's positions of the last proof-number proof (under one rule and board
/// size). A position is a fact of the stones and the side to move, so the store outlives the
/// search that proved it, takebacks and new games alike.
#[derive(Default)]
pub struct Proofs {
    lost: AHashMap<u64, u16>,
    board: Option<(Rule, usize, usize)>,
}

impl Proofs {
    /// Forgets every proof.
    pub fn clear(&mut self) {
        self.lost.clear();
        self.board = None;
    }

    /// The move of `moves` after which the opponent is proven lost, the quickest win first
    /// (ties by square), with the plies to the five counted from `b`.
    pub fn winning_move(&self, b: &Board, moves: &[Pos]) -> Option<(Pos, i32)> {
        if self.board != Some(shape(b)) {
            return None;
        }
        moves
            .iter()
            .filter_map(|&m| {
                let plies = *self.lost.get(&b.hash_after(m))?;
                Some((plies as i32 + 1, m))
            })
            .min()
            .map(|(plies, m)| (m, plies))
    }
}

fn shape(b: &Board) -> (Rule, usize, usize) {
    (b.rule(), b.width(), b.height())
}

/// What a node is before it is searched.
enum Eval {
    /// Won for the attacker in this many plies.
    Proven(i32),
    /// Not won by threats.
    Disproven,
    /// The moves to search.
    Open(Vec<Pos>),
}

/// A VCT solver.
pub struct Vct<'a> {
    abort: Option<Abort<'a>>,
    table: AHashMap<u64, Entry>,
    memo: AHashMap<(u64, i32), bool>,
    vcf: Vcf<'a>,
    attacker: Color,
    max_threes: i32,
    quiet: bool,
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
            table: AHashMap::default(),
            memo: AHashMap::default(),
            vcf: Vcf::new(NODE_VCF_NODES),
            attacker: Color::Black,
            max_threes: 0,
            quiet: false,
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

    /// Looks for a win by threats for the side to move with at most `max_threats` threes of its
    /// own on any line (fours are not counted); returns the first move of the win and a number
    /// of threat moves `d` such that the win takes at most `2 * d + 3` plies.
    pub fn solve(&mut self, b: &mut Board, max_threats: i32) -> Option<(Pos, i32)> {
        let budget = self.max_nodes;
        self.nodes = 0;
        self.next_check = 0;
        self.out_of_nodes = false;
        self.attacker = b.side_to_move();
        self.max_threes = max_threats;
        // First a narrow search by iterative deepening over the number of threats (fours and
        // threes only), then the wider proof-number search that also tries quiet moves.
        self.max_nodes = budget * DEEPENING_PCT / 100;
        self.memo.clear();
        let mut found = None;
        for depth in 1..=max_threats {
            if let Some(m) = self.deepening_root(b, depth) {
                found = Some((m, depth));
                break;
            }
            if self.out_of_nodes {
                break;
            }
        }
        let aborted = self.abort.is_some_and(|a| a.due());
        if found.is_none() && !aborted {
            self.quiet = true;
            self.max_nodes = budget;
            self.table.clear();
            self.out_of_nodes = false;
            found = self.solve_pass(b);
        }
        self.max_nodes = budget;
        found
    }

    /// Replaces `into` by the defender's positions of the last proof, when the last call
    /// proved the root of `b` by its proof-number pass (the first pass keeps no proof).
    pub fn keep_proof(&self, b: &Board, into: &mut Proofs) {
        let proven = |k: u64| self.table.get(&k).is_some_and(|e| e.pn == 0);
        if b.side_to_move() != self.attacker || !proven(b.hash()) {
            return;
        }
        let start = std::time::Instant::now();
        into.clear();
        into.board = Some(shape(b));
        self.collect(&mut b.clone(), &mut into.lost);
        log::debug!(
            "proof kept: {} positions in {:?}",
            into.lost.len(),
            start.elapsed()
        );
    }

    /// The proof below a proven position: at the attacker's turn its quickest proven move
    /// (ties by square), at the defender's every proven answer.
    fn collect(&self, b: &mut Board, lost: &mut AHashMap<u64, u16>) {
        if lost.len() >= MAX_PROOF_POSITIONS {
            return;
        }
        let me = b.side_to_move();
        let entry = |k: u64| self.table.get(&k).copied().filter(|e| e.pn == 0);
        if me == self.attacker {
            let best = b
                .squares()
                .filter(|&q| b.is_empty(q))
                .filter_map(|q| entry(b.hash_after(q)).map(|e| (e.plies, q)))
                .filter(|&(_, q)| !b.is_foul(me, q))
                .min();
            if let Some((_, q)) = best {
                b.play(q);
                self.collect(b, lost);
                b.undo();
            }
        } else {
            let Some(e) = entry(b.hash()) else { return };
            if lost.insert(b.hash(), e.plies).is_some() {
                return;
            }
            let answers: Vec<Pos> = b
                .squares()
                .filter(|&q| b.is_empty(q) && entry(b.hash_after(q)).is_some() && !b.is_foul(me, q))
                .collect();
            for q in answers {
                b.play(q);
                self.collect(b, lost);
                b.undo();
            }
        }
    }

    fn solve_pass(&mut self, b: &mut Board) -> Option<(Pos, i32)> {
        let moves = match self.evaluate(b, true, 0, 0) {
            Eval::Open(m) => m,
            // Wins on the spot (a five, an open four, a VCF) are the VCF solver's business: the
            // line to play is not known here.
            _ => return None,
        };
        let root = self.mid(b, INF, INF, 0, 0);
        if root.pn != 0 {
            return None;
        }
        // The proven move: the child whose entry is proven.
        for m in moves {
            b.play(m);
            let e = self.table.get(&b.hash()).copied();
            b.undo();
            if let Some(e) = e.filter(|e| e.pn == 0) {
                let plies = e.plies as i32 + 1;
                return Some((m, ((plies - 3).max(0) + 1) / 2));
            }
        }
        None
    }

    /// Iterative deepening, one depth: the first threat move after which every defence loses
    /// within `depth` threats.
    fn deepening_root(&mut self, b: &mut Board, depth: i32) -> Option<Pos> {
        let me = b.side_to_move();
        for a in threat_moves(b, me, true) {
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

    /// Attacker to move: true when it wins within `depth` threats.
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
            return self.quick_vcf(b).is_some();
        }
        let key = (b.hash(), depth);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let mut won = false;
        for a in threat_moves(b, me, true) {
            b.play(a);
            won = self.defend(b, depth - 1);
            b.undo();
            if won || self.out_of_nodes {
                break;
            }
        }
        if !self.out_of_nodes {
            self.remember(key, won);
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
        if b.count(att, Threat::Five) > 0 {
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
        let mut won = true;
        for d in defences(b, me, att) {
            b.play(d);
            won = self.attack(b, depth);
            b.undo();
            if !won || self.out_of_nodes {
                won = won && !self.out_of_nodes;
                break;
            }
        }
        if !self.out_of_nodes {
            self.remember(key, won);
        }
        won
    }

    fn remember(&mut self, key: (u64, i32), won: bool) {
        if self.memo.len() >= MAX_REMEMBERED {
            self.memo.clear();
        }
        self.memo.insert(key, won);
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // VCF searches add many nodes at once: compare with a threshold.
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

    /// The VCF of the side to move, within the small per-node budget.
    fn quick_vcf(&mut self, b: &mut Board) -> Option<i32> {
        if !super::vcf::has_four_move(b, b.side_to_move()) {
            return None;
        }
        let r = self.vcf.solve(b, NODE_VCF_PLIES).map(|l| l.len() as i32);
        self.nodes += self.vcf.nodes();
        r
    }

    /// The line by which the attacker (not to move) would win by fours if it were its turn.
    fn null_move_vcf(&mut self, b: &mut Board) -> Option<Vec<Pos>> {
        let me = b.side_to_move();
        if !super::vcf::has_four_move(b, me.opp()) {
            return None;
        }
        b.set_side_to_move(me.opp());
        let r = self.vcf.solve(b, NODE_VCF_PLIES);
        self.nodes += self.vcf.nodes();
        b.set_side_to_move(me);
        r
    }

    /// Classifies a node: solved on the spot, or the moves to search. `or` is true when the
    /// attacker is to move; `threes` counts the attacker's threes on the way here.
    fn evaluate(&mut self, b: &mut Board, or: bool, threes: i32, ply: i32) -> Eval {
        self.tick();
        let me = b.side_to_move();
        let opp = me.opp();
        if or {
            if b.count(me, Threat::Five) > 0 {
                return Eval::Proven(1);
            }
            if b.count(opp, Threat::Five) > 0 {
                let blocks: Vec<Pos> = b.squares_with(opp, Threat::Five).collect();
                if blocks.len() != 1 || b.is_foul(me, blocks[0]) || ply >= MAX_PLIES {
                    return Eval::Disproven;
                }
                return Eval::Open(blocks);
            }
            if b.squares_with(me, Threat::OpenFour)
                .any(|q| !b.is_foul(me, q))
            {
                return Eval::Proven(3);
            }
            if let Some(n) = self.quick_vcf(b) {
                return Eval::Proven(n);
            }
            if ply >= MAX_PLIES {
                return Eval::Disproven;
            }
            let mut moves = threat_moves(b, me, threes < self.max_threes);
            if self.quiet && threes < self.max_threes {
                moves.extend(quiet_moves(b, me, &moves));
            }
            if moves.is_empty() {
                Eval::Disproven
            } else {
                Eval::Open(moves)
            }
        } else {
            let att = opp;
            if b.count(me, Threat::Five) > 0 {
                return Eval::Disproven;
            }
            if b.count(att, Threat::Five) > 0 {
                let blocks: Vec<Pos> = b.squares_with(att, Threat::Five).collect();
                if blocks.len() != 1 || b.is_foul(me, blocks[0]) {
                    return Eval::Proven(2);
                }
                return Eval::Open(blocks);
            }
            // No four: the threat is an open four to come, or else a win by fours if the
            // defender passed; without either the defender is free.
            let open_four = b
                .squares_with(att, Threat::OpenFour)
                .any(|q| !b.is_foul(att, q));
            let threat_line = match open_four {
                false if self.quiet => match self.null_move_vcf(b) {
                    Some(line) => line,
                    None => return Eval::Disproven,
                },
                false => return Eval::Disproven,
                true => Vec::new(),
            };
            // A defender who wins by fours first refutes the threat.
            if self.quick_vcf(b).is_some() {
                return Eval::Disproven;
            }
            if open_four {
                let defences = defences(b, me, att);
                if defences.is_empty() {
                    // Nothing stops the open four (every block is a foul).
                    return Eval::Proven(4);
                }
                return Eval::Open(defences);
            }
            // Which moves break a VCF is not known in advance: every move near the stones and
            // every square of the threatened line is tried, and those after which a VCF
            // still works are proven at once.
            let mut defences: Vec<Pos> = b.candidates().chain(threat_line).collect();
            defences.sort();
            defences.dedup();
            defences.retain(|&q| b.is_empty(q) && !b.is_foul(me, q));
            if defences.is_empty() {
                return Eval::Disproven;
            }
            Eval::Open(defences)
        }
    }

    /// The remembered entry of a position reached with `threes` threes, unless it is a
    /// disproof that more threes might overturn.
    fn remembered(&self, key: u64, threes: i32) -> Option<Entry> {
        self.table
            .get(&key)
            .copied()
            .filter(|e| e.dn != 0 || threes >= e.threes as i32)
    }

    /// The entry a fresh child (not in the table) starts with: solved, or numbers from its
    /// number of moves.
    fn initial(&mut self, b: &mut Board, threes: i32, ply: i32) -> Entry {
        let key = b.hash();
        let or = b.side_to_move() == self.attacker;
        let e = match self.evaluate(b, or, threes, ply) {
            Eval::Proven(p) => Entry::proven(p),
            Eval::Disproven => Entry::DISPROVEN,
            Eval::Open(m) => {
                let n = m.len().max(1) as u32;
                if or {
                    Entry {
                        pn: 1,
                        dn: n,
                        plies: 0,
                        threes: 0,
                    }
                } else {
                    Entry {
                        pn: n,
                        dn: 1,
                        plies: 0,
                        threes: 0,
                    }
                }
            }
        };
        self.store(key, e, threes);
        e
    }

    /// Remembers the entry of a position reached with `threes` threes of the attacker.
    fn store(&mut self, key: u64, mut e: Entry, threes: i32) {
        if self.table.len() >= MAX_REMEMBERED {
            self.table.clear();
        }
        if e.dn == 0 {
            e.threes = threes.clamp(0, u8::MAX as i32) as u8;
        }
        self.table.insert(key, e);
    }

    /// Searches the node until its proof number reaches `th_pn` or its disproof number `th_dn`
    /// (or the budget runs out); returns its entry.
    fn mid(&mut self, b: &mut Board, th_pn: u32, th_dn: u32, threes: i32, ply: i32) -> Entry {
        let key = b.hash();
        let or = b.side_to_move() == self.attacker;
        let moves = match self.evaluate(b, or, threes, ply) {
            Eval::Proven(p) => {
                let e = Entry::proven(p);
                self.store(key, e, threes);
                return e;
            }
            Eval::Disproven => {
                self.store(key, Entry::DISPROVEN, threes);
                return Entry::DISPROVEN;
            }
            Eval::Open(m) => m,
        };
        let att = self.attacker;
        // Each child with its entry and the threes counted on reaching it.
        let mut kids: Vec<(Pos, Entry, i32)> = Vec::with_capacity(moves.len());
        for m in moves {
            // An attacker's move that makes no four is a three (or a quiet threat).
            let t = if or && !super::vcf::is_four(b.threat(att, m)) {
                threes + 1
            } else {
                threes
            };
            // A child already in the table needs no move played.
            let e = match self.remembered(b.hash_after(m), t) {
                Some(e) => e,
                None => {
                    b.play(m);
                    let e = self.initial(b, t, ply + 1);
                    b.undo();
                    e
                }
            };
            kids.push((m, e, t));
            // A proven move at an OR node (a refutation at an AND node) settles it.
            if (or && e.pn == 0) || (!or && e.dn == 0) {
                break;
            }
        }
        loop {
            let mut e = combine(&kids, or);
            if e.pn == 0 || e.dn == 0 || e.pn >= th_pn || e.dn >= th_dn || self.out_of_nodes {
                if self.out_of_nodes && e.pn != 0 && e.dn != 0 {
                    // An unfinished search leaves its estimate.
                    e.plies = 0;
                }
                self.store(key, e, threes);
                return e;
            }
            // The most promising child (smallest proof number at an OR node, smallest
            // disproof number at an AND node) and the runner-up's number.
            let (mut best, mut best_v, mut second) = (0, INF, INF);
            for (i, &(_, ke, _)) in kids.iter().enumerate() {
                let v = if or { ke.pn } else { ke.dn };
                if v < best_v {
                    second = best_v;
                    best_v = v;
                    best = i;
                } else if v < second {
                    second = v;
                }
            }
            let (m, ke, t) = kids[best];
            let (cth_pn, cth_dn) = if or {
                (
                    th_pn.min(second.saturating_add(1)),
                    sat(th_dn as u64 - e.dn as u64 + ke.dn as u64),
                )
            } else {
                (
                    sat(th_pn as u64 - e.pn as u64 + ke.pn as u64),
                    th_dn.min(second.saturating_add(1)),
                )
            };
            b.play(m);
            let r = self.mid(b, cth_pn, cth_dn, t, ply + 1);
            b.undo();
            kids[best].1 = r;
        }
    }
}

fn sat(v: u64) -> u32 {
    v.min(INF as u64) as u32
}

/// The numbers of a node from its children's: at an OR node the smallest proof number and the
/// sum of the disproof numbers, at an AND node the other way round.
fn combine(kids: &[(Pos, Entry, i32)], or: bool) -> Entry {
    let (mut min, mut sum, mut plies) = (INF, 0u64, 0u16);
    for &(_, e, _) in kids {
        let (small, add) = if or { (e.pn, e.dn) } else { (e.dn, e.pn) };
        if small < min {
            min = small;
        }
        if or {
            if e.pn == 0 && (plies == 0 || e.plies < plies) {
                plies = e.plies;
            }
        } else {
            plies = plies.max(e.plies);
        }
        sum = if add == INF || sum == INF as u64 {
            INF as u64
        } else {
            (sum + add as u64).min(CAP as u64)
        };
    }
    let (pn, dn) = if or {
        (min, sum as u32)
    } else {
        (sum as u32, min)
    };
    Entry {
        pn,
        dn,
        plies: if pn == 0 { plies.saturating_add(1) } else { 0 },
        threes: 0,
    }
}

/// The defender's answers to a three: every square where the attacker would make a four (the
/// blocks of the coming open four) and every four of the defender's own; never a foul.
fn defences(b: &Board, me: Color, att: Color) -> Vec<Pos> {
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
    defences
}

/// The attacker's quiet candidates for a VCF threat: squares (not already in `threats`, never a
/// foul) where it makes a three on some line or open twos on two, the most valuable first.
fn quiet_moves(b: &Board, me: Color, threats: &[Pos]) -> Vec<Pos> {
    let mut moves: Vec<Pos> = b
        .candidates()
        .filter(|&q| !threats.contains(&q) && is_quiet_threat(b, me, q) && !b.is_foul(me, q))
        .collect();
    moves.sort_by_key(|&q| (std::cmp::Reverse(b.value(me, q)), q));
    moves.truncate(MAX_QUIET_MOVES);
    moves
}

/// A square where `me` makes a three on some line, or open twos on two lines.
fn is_quiet_threat(b: &Board, me: Color, q: Pos) -> bool {
    let mut twos = 0;
    for d in 0..4 {
        let p = b.pattern(me, q, d);
        if p >= Pattern::Block3 {
            return true;
        }
        if p == Pattern::Flex2 {
            twos += 1;
        }
    }
    twos >= 2
}

/// The attacker's threat moves: fours first, then (when `threes`) threes, strongest shape
/// first; never a foul.
fn threat_moves(b: &Board, me: Color, threes: bool) -> Vec<Pos> {
    let kinds: &[Threat] = if threes {
        &[
            Threat::FourThree,
            Threat::Block4,
            Threat::DoubleThree,
            Threat::Flex3,
        ]
    } else {
        &[Threat::FourThree, Threat::Block4]
    };
    let mut moves: Vec<Pos> = kinds
        .iter()
        .flat_map(|&t| b.squares_with(me, t))
        .filter(|&q| !b.is_foul(me, q))
        .collect();
    moves.sort_by_key(|&q| (std::cmp::Reverse((b.threat(me, q), b.value(me, q))), q));
    moves
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::notation::parse_diagram;
    use crate::rules::Rule;

    /// Two open threes for black at once on (5,5); white has nothing to counter with.
    pub(crate) fn three_three(rule: Rule) -> Board {
        parse_diagram(
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
        .to_board(rule)
        .unwrap()
    }

    #[test]
    fn finds_a_three_three_win() {
        // Black makes two open threes at once on (5,5); white has nothing to counter with.
        let mut b = three_three(Rule::Freestyle);
        // Any winning first move will do (black may also start with a single three).
        assert!(Vct::new(200_000).solve(&mut b, 4).is_some());
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

    /// Rows 5 to 9 of a 15x15 board (the rest empty).
    fn board15(rows: [&str; 5], rule: Rule) -> Board {
        let empty = ". . . . . . . . . . . . . . .";
        let mut text = String::new();
        for y in 0..15 {
            text.push_str(if (5..10).contains(&y) {
                rows[y - 5]
            } else {
                empty
            });
            text.push('\n');
        }
        parse_diagram(&text).unwrap().to_board(rule).unwrap()
    }

    #[test]
    fn renju_win_on_black_fouls_is_found_only_under_renju() {
        // White to move wins only because black may not defend on foul squares (a renju
        // problem: 8,10 first); under freestyle the same stones hold no win by threats.
        let rows = [
            ". . . . . . . . x . x . . . .",
            ". . . . . . . o o x . . . . .",
            ". . . . . . . x o o . . . . .",
            ". . . . . . x . o x o . . . .",
            ". . . . . . o x . . . x . . .",
        ];
        let mut b = board15(rows, Rule::Renju);
        assert_eq!(b.side_to_move(), Color::White);
        assert!(Vct::new(300_000).solve(&mut b, 8).is_some());
        let mut b = board15(rows, Rule::Freestyle);
        assert!(Vct::new(300_000).solve(&mut b, 8).is_none());
    }

    /// White to move wins by a quiet move first (6,7: two open twos, neither a four nor a
    /// three), after which white threatens a VCF that no defence stops.
    pub(crate) fn quiet_start_win() -> Board {
        let rows = [
            ". . . . . . . . . . x . . . .",
            ". . . . . . . . x o . . . . .",
            ". . . . . . . x o o x . . . .",
            ". . . . . x o o . x . . . . .",
            ". . . . . . . x . . o . . . .",
        ];
        board15(rows, Rule::Renju)
    }

    #[test]
    fn finds_a_win_that_starts_with_a_quiet_move() {
        let mut b = quiet_start_win();
        assert_eq!(b.side_to_move(), Color::White);
        let (m, _) = Vct::new(300_000).solve(&mut b, 8).expect("a win");
        assert!(b.threat(Color::White, m) < Threat::Flex3, "{m}");
    }

    /// Plays the kept proof out from `b` (attacker to move) against every answer near the
    /// stones: the attacker's move comes from the store, else it has a five or a VCF.
    fn play_out(b: &mut Board, proofs: &Proofs, positions: &mut usize) {
        let me = b.side_to_move();
        if b.count(me, Threat::Five) > 0 {
            return;
        }
        let moves: Vec<Pos> = b.squares().filter(|&q| b.is_legal(q)).collect();
        let Some((m, _)) = proofs.winning_move(b, &moves) else {
            assert!(
                Vcf::new(20_000).solve(b, 40).is_some(),
                "no win kept or by fours"
            );
            return;
        };
        *positions += 1;
        b.play(m);
        let answers: Vec<Pos> = b.candidates().filter(|&q| b.is_legal(q)).collect();
        for q in answers {
            b.play(q);
            play_out(b, proofs, positions);
            b.undo();
        }
        b.undo();
    }

    #[test]
    fn a_kept_proof_wins_against_every_defence() {
        let mut b = quiet_start_win();
        let mut vct = Vct::new(300_000);
        let (m, _) = vct.solve(&mut b, 8).expect("a win");
        let mut proofs = Proofs::default();
        vct.keep_proof(&b, &mut proofs);
        let all: Vec<Pos> = b.squares().filter(|&q| b.is_legal(q)).collect();
        assert_eq!(proofs.winning_move(&b, &all).map(|(q, _)| q), Some(m));
        let mut positions = 0;
        play_out(&mut b, &proofs, &mut positions);
        // The proof goes past its first move: the attacker's later moves come from it too.
        assert!(positions > 1, "{positions}");
        // Another rule or board is not answered from it.
        let mut other = b.clone();
        other.set_rule(Rule::Freestyle);
        assert_eq!(proofs.winning_move(&other, &all), None);
        proofs.clear();
        assert_eq!(proofs.winning_move(&b, &all), None);
    }

    #[test]
    fn black_never_attacks_through_a_foul() {
        // The freestyle win of `finds_a_three_three_win` is a double three: a foul for black
        // under renju. Whatever the solver finds there, it is not that square.
        let mut b = three_three(Rule::Renju);
        assert!(b.is_foul(Color::Black, Pos::new(5, 5)));
        let m = Vct::new(200_000).solve(&mut b, 4);
        assert!(m.is_none_or(|(m, _)| m != Pos::new(5, 5)), "{m:?}");
    }
}
