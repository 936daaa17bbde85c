//! Iterative deepening PVS with a shared table, threat-aware move generation and Lazy SMP.

use super::vcf::{Abort, Vcf};
use super::vct::{Proofs, Vct};
use super::{legal_moves, stopped, Info, Limits, Outcome};
use crate::board::Board;
use crate::eval::evaluate;
use crate::pattern::Threat;
use crate::rules::Rule;
use crate::tt::Table;
use crate::types::{
    is_decisive, loss_in, win_in, Bound, Color, Depth, Pos, Value, AREA, INFINITE, WIN_BOUND,
};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Deepest ply a search line may reach.
const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 1024;
/// Moves searched at full depth before late moves are reduced.
const LMR_FULL_MOVES: usize = 3;
/// Shallowest depth at which late moves are reduced.
const LMR_MIN_DEPTH: Depth = 3;
/// Quiet moves kept at a node beyond the threats, by shape value (the rest cannot matter soon):
/// `LMP_BASE + LMP_PER_DEPTH2 * depth²`, at most `MAX_QUIET_MOVES` (late-move pruning: near the
/// leaves only the best-shaped quiet moves can change the score; 8 at depth 1, 14 at depth 2),
/// unless every move searched loses.
const MAX_QUIET_MOVES: usize = 24;
const LMP_BASE: usize = 6;
const LMP_PER_DEPTH2: usize = 2;
/// Plies and nodes of the VCF tried at the root before searching.
const ROOT_VCF_PLIES: i32 = 225;
const ROOT_VCF_NODES: u64 = 2_000_000;
const ROOT_VCF_NODES_PER_MS: u64 = 1_000;
/// Root threat-search nodes per ply of a depth limit, when no clock bounds the search.
const THREAT_NODES_PER_DEPTH: u64 = 5_000;
/// Threat moves of the VCT tried at the root, and its node budget per millisecond of the
/// hard time limit (capped).
const ROOT_VCT_THREATS: i32 = 8;
const ROOT_VCT_NODES_PER_MS: u64 = 150;
const ROOT_VCT_NODES: u64 = 1_500_000;
/// The same for a helper thread's VCT, per millisecond of the soft limit: it runs beside the
/// main search, so it may take about all of it (~800 k nodes a second here).
const HELPER_VCT_NODES_PER_MS: u64 = 500;
const HELPER_VCT_NODES: u64 = 4_000_000;
/// Root moves checked for a VCF they let the opponent play, and the node budget of those
/// checks per millisecond of the hard limit (capped; each move gets an equal share, at least
/// `SAFETY_MIN_NODES`).
const SAFETY_MOVES: usize = 40;
const SAFETY_NODES_PER_MS: u64 = 300;
const SAFETY_NODES: u64 = 600_000;
const SAFETY_MIN_NODES: u64 = 2_000;
/// Aspiration windows start at this depth, this wide on each side of the last score.
const ASPIRATION_MIN_DEPTH: Depth = 5;
const ASPIRATION_WINDOW: Value = 60;
/// The soft time limit is scaled from this depth on: up when the best move changes or the
/// score drops by more than `SCORE_DROP`, down (to a floor) while the best move holds.
const TIME_SCALE_MIN_DEPTH: Depth = 5;
const SOFT_SCALE_NEW_BEST: f64 = 1.6;
const SOFT_SCALE_SCORE_DROP: f64 = 1.3;
const SOFT_SCALE_STABLE_DECAY: f64 = 0.85;
const SOFT_SCALE_MIN: f64 = 0.6;
const SCORE_DROP: Value = 60;
/// Reverse futility pruning: deepest remaining depth it applies at, and the margin per ply
/// by which the static value must beat beta (in shape-value units: an open three's square is
/// worth about 76, a four-three's 532).
const RFP_MAX_DEPTH: Depth = 3;
const RFP_MARGIN: Value = 120;
/// Weight of attack against defence when ordering moves (per 4 of defence).
const ORDER_ATTACK_WEIGHT: i32 = 5;

/// Owns the transposition table and runs searches.
pub struct Searcher {
    tt: Table,
    /// The last win a VCT proved: the next searches of the game play it out from here.
    proofs: Mutex<Proofs>,
}

impl Searcher {
    /// A searcher whose table takes at most `hash_bytes`.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_bytes),
            proofs: Mutex::new(Proofs::default()),
        }
    }
    /// Replaces the table by one of at most `hash_bytes` (the old one is freed first).
    pub fn resize(&mut self, hash_bytes: usize) {
        self.tt = Table::new(1024);
        self.tt = Table::new(hash_bytes);
    }
    /// Bytes the table takes.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }
    /// Empties the table and forgets the kept proof.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.proofs.get_mut().expect("proofs").clear();
    }
    /// Share of the table written by the last search, in permille.
    pub fn hash_usage_permille(&self) -> u32 {
        self.tt.usage_permille()
    }

    /// Searches `board` for the side to move until a limit is reached or `stop` is raised;
    /// `report` receives one `Info` per completed iteration (from the main thread only).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        self.search_excluding(board, limits, &[], stop, report)
    }

    /// Like [`Searcher::search`], but never plays a move of `exclude` at the root (multi-PV
    /// searches, GUI blocked squares). With every legal move excluded, answers `Pos::NONE`.
    pub fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        self.tt.new_search();
        let mut moves = root_moves(board);
        moves.retain(|m| !exclude.contains(m));
        let fallback = moves.first().copied().unwrap_or(Pos::NONE);
        if fallback.is_none() {
            return Outcome {
                best: Pos::NONE,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![],
            };
        }
        // A win by fours needs no further search.
        let vcf_nodes = threat_budget(limits, ROOT_VCF_NODES_PER_MS, ROOT_VCF_NODES);
        let abort = Abort {
            deadline: limits.start.checked_add(limits.budget.hard),
            stop,
        };
        let mut vcf = Vcf::new(vcf_nodes).with_abort(abort);
        let found = if limits.budget.hard.is_zero() {
            None
        } else {
            vcf.solve(&mut board.clone(), ROOT_VCF_PLIES)
        };
        let found = found
            .map(|line| (line.len() as i32, line))
            .filter(|(_, line)| !exclude.contains(&line[0]));
        let mut threat_nodes = vcf.nodes();
        if let Some((plies, line)) = found {
            return forced_win(limits, plies, line, threat_nodes, report);
        }
        // A move into a position an earlier VCT proved lost for the opponent.
        let proven = self
            .proofs
            .lock()
            .expect("proofs")
            .winning_move(board, &moves);
        if let Some((m, plies)) = proven {
            return forced_win(limits, plies, vec![m], threat_nodes, report);
        }
        // Moves that need no search: the only legal move, a win on the spot, the only block.
        if moves.len() == 1 || limits.budget.hard.is_zero() {
            let best = if moves.len() == 1 { moves[0] } else { fallback };
            let score = if board.wins_by(board.side_to_move(), best) {
                win_in(1)
            } else {
                0
            };
            let info = Info {
                depth: 0,
                seldepth: 0,
                score,
                nodes: 0,
                elapsed: limits.start.elapsed(),
                pv: vec![best],
            };
            report(&info);
            return Outcome {
                best,
                score,
                depth: 0,
                nodes: 0,
                pv: vec![best],
            };
        }
        let threads = limits.threads.max(1);
        let threats = RootThreats::default();
        let moves = if threads == 1 {
            // One thread: the threat searches first, then the main search.
            let (win, nodes) = root_vct(board, limits, abort, &self.proofs);
            threat_nodes += nodes;
            if let Some((plies, line)) = win.filter(|(_, line)| !exclude.contains(&line[0])) {
                return forced_win(limits, plies, line, threat_nodes, report);
            }
            let (moves, nodes) = drop_losing_moves(board, moves, limits, abort);
            threat_nodes += nodes;
            moves
        } else {
            // Helper threads: thread 1 runs the threat searches while the others search, so
            // the main search loses no time to them (see `Shared::run_threats`).
            threats.pending.store(true, Ordering::Release);
            moves
        };
        let shared = Shared::new(threat_nodes, threats);
        let tt = &self.tt;
        let proofs = &self.proofs;
        std::thread::scope(|s| {
            for id in 1..threads {
                let shared = &shared;
                let moves = moves.clone();
                let board = board.clone();
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(s, move || {
                        if id == 1 {
                            shared.run_threats(&board, &moves, exclude, limits, abort, proofs);
                        }
                        let mut w = Worker::new(board, tt, limits, stop, shared, id);
                        w.iterate(moves, &mut |_| {});
                    })
                    .expect("spawn search thread");
            }
            let mut main = Worker::new(board.clone(), tt, limits, stop, &shared, 0);
            let mut out = main.iterate(moves, report);
            shared.done.store(true, Ordering::Relaxed);
            let nodes = shared.total_nodes.load(Ordering::Relaxed).max(out.nodes);
            if let Some((plies, line)) = shared.threats.win.lock().expect("threat result").take() {
                return forced_win(limits, plies, line, nodes, report);
            }
            // A helper that completed a deeper iteration than the main thread knows better.
            if let Some(d) = shared.deepest.lock().expect("deepest result").take() {
                if d.depth > out.depth && !shared.threats.is_losing(d.best) {
                    out.best = d.best;
                    out.score = d.score;
                    out.depth = d.depth;
                    out.pv = d.pv;
                }
            }
            if out.best.is_none() || !board.is_empty(out.best) {
                out.best = fallback;
            }
            out.nodes = nodes;
            out
        })
    }
}

/// What the front ends need from a search engine: [`Searcher`]'s API. Tests plug in fakes.
pub trait Engine: Send + 'static {
    /// Searches `board` for the side to move (see [`Searcher::search`]).
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome;
    /// Resizes the table to at most `bytes`.
    fn resize(&mut self, bytes: usize);
    /// Empties the table.
    fn clear(&mut self);
    /// Like [`Engine::search`], never playing a move of `exclude` at the root. The default
    /// ignores `exclude` (test engines).
    fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let _ = exclude;
        self.search(board, limits, stop, report)
    }
    /// Share of the table in use, in permille.
    fn hash_usage_permille(&self) -> u32 {
        0
    }
}

impl Engine for Searcher {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        Searcher::search(self, board, limits, stop, report)
    }
    fn resize(&mut self, bytes: usize) {
        Searcher::resize(self, bytes)
    }
    fn clear(&mut self) {
        Searcher::clear(self)
    }
    fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        Searcher::search_excluding(self, board, limits, exclude, stop, report)
    }
    fn hash_usage_permille(&self) -> u32 {
        Searcher::hash_usage_permille(self)
    }
}

/// The answer when a threat search proved a win: reported as one iteration.
fn forced_win(
    limits: &Limits,
    plies: i32,
    line: Vec<Pos>,
    nodes: u64,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let score = win_in(plies);
    report(&Info {
        depth: 1,
        seldepth: line.len() as i32,
        score,
        nodes,
        elapsed: limits.start.elapsed(),
        pv: line.clone(),
    });
    Outcome {
        best: line[0],
        score,
        depth: 1,
        nodes,
        pv: line,
    }
}

/// The VCT tried at the root: a win (plies, line) and the nodes spent.
fn root_vct(
    board: &Board,
    limits: &Limits,
    abort: Abort,
    proofs: &Mutex<Proofs>,
) -> (Option<(i32, Vec<Pos>)>, u64) {
    let n = threat_budget(limits, ROOT_VCT_NODES_PER_MS, ROOT_VCT_NODES);
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

/// What the search threads share besides the table.
struct Shared {
    /// Raised when the main thread is done: the helpers stop.
    done: AtomicBool,
    /// Nodes of every thread, flushed now and then.
    total_nodes: AtomicU64,
    /// The root threat searches run by a helper (multi-threaded searches only).
    threats: RootThreats,
    /// The deepest iteration any thread completed.
    deepest: Mutex<Option<Outcome>>,
    /// The main thread's last completed depth and its score: a helper that fell behind (it ran
    /// the threat searches first) starts its next iteration ahead of the main thread's current
    /// one (odd helpers two deeper than the completed depth, even ones one deeper), so that
    /// threads search different depths and the main thread finds theirs in the table.
    main_depth: AtomicI32,
    main_score: AtomicI32,
}

/// Results of the root threat searches when a helper thread runs them beside the main search.
#[derive(Default)]
struct RootThreats {
    /// Raised while the check of the root moves runs (never raised on one thread).
    pending: AtomicBool,
    /// Raised when the VCT found a win: every thread stops.
    found: AtomicBool,
    /// The win: plies and line.
    win: Mutex<Option<(i32, Vec<Pos>)>>,
    /// Root moves after which the opponent wins by fours.
    losing: Mutex<Vec<Pos>>,
}

impl RootThreats {
    fn is_losing(&self, m: Pos) -> bool {
        self.losing.lock().expect("losing moves").contains(&m)
    }
}

impl Shared {
    fn new(nodes: u64, threats: RootThreats) -> Shared {
        Shared {
            done: AtomicBool::new(false),
            total_nodes: AtomicU64::new(nodes),
            threats,
            deepest: Mutex::new(None),
            main_depth: AtomicI32::new(0),
            main_score: AtomicI32::new(0),
        }
    }

    /// The check of the root moves against the opponent's VCF, then the VCT; publishes both.
    fn run_threats(
        &self,
        board: &Board,
        moves: &[Pos],
        exclude: &[Pos],
        limits: &Limits,
        abort: Abort,
        proofs: &Mutex<Proofs>,
    ) {
        // The safety check first: the main thread waits for it before it answers. Then the
        // VCT, which nobody waits for: it has the whole search to find a win (a larger budget
        // than on one thread, where it delays the main search) and gives up when the main
        // thread is done.
        let (kept, mut nodes) = drop_losing_moves(board, moves.to_vec(), limits, abort);
        *self.threats.losing.lock().expect("losing moves") = moves
            .iter()
            .copied()
            .filter(|m| !kept.contains(m))
            .collect();
        self.threats.pending.store(false, Ordering::Release);
        let n = threat_budget_for(
            limits,
            limits.budget.soft,
            HELPER_VCT_NODES_PER_MS,
            HELPER_VCT_NODES,
        );
        let mut vct = Vct::new(n).with_abort(Abort {
            deadline: abort.deadline,
            stop: &self.done,
        });
        let win = vct.solve(&mut board.clone(), ROOT_VCT_THREATS);
        nodes += vct.nodes();
        if win.is_some() {
            vct.keep_proof(board, &mut proofs.lock().expect("proofs"));
        }
        if let Some((m, d)) = win.filter(|&(m, _)| !exclude.contains(&m)) {
            *self.threats.win.lock().expect("threat result") = Some((2 * d + 3, vec![m]));
            self.threats.found.store(true, Ordering::Release);
        }
        self.total_nodes.fetch_add(nodes, Ordering::Relaxed);
    }
}

/// Node budget of a root threat search: a share of the time limit, or of the depth or node
/// limit when no clock bounds the search (so fixed-depth searches stay proportionate).
fn threat_budget(limits: &Limits, per_ms: u64, cap: u64) -> u64 {
    threat_budget_for(limits, limits.budget.hard, per_ms, cap)
}

/// Like [`threat_budget`], from a share of `time` instead of the hard limit.
fn threat_budget_for(limits: &Limits, time: Duration, per_ms: u64, cap: u64) -> u64 {
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
fn drop_losing_moves(
    board: &Board,
    moves: Vec<Pos>,
    limits: &Limits,
    abort: Abort,
) -> (Vec<Pos>, u64) {
    let me = board.side_to_move();
    let opp = me.opp();
    // Nothing to check when the opponent cannot make a four, or when we must block a five.
    if !super::vcf::has_four_move(board, opp) || board.count(opp, Threat::Five) > 0 {
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
        if super::vcf::has_four_move(&b, opp) {
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

/// The move to play without searching: a five, else the block of the opponent's five, else an
/// open four, else the best square by shape. `Pos::NONE` only on a full board.
pub fn quick_move(board: &Board) -> Pos {
    let moves = root_moves(board);
    moves.first().copied().unwrap_or(Pos::NONE)
}

/// Legal root moves, best first by the tactical rules and shape values.
fn root_moves(board: &Board) -> Vec<Pos> {
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

struct Worker<'a> {
    board: Board,
    tt: &'a Table,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    shared: &'a Shared,
    id: usize,
    /// Whether the root moves that lose to a VCF have been removed.
    losing_applied: bool,
    nodes: u64,
    flushed: u64,
    next_check: u64,
    aborted: bool,
    seldepth: i32,
    history: Box<[[i32; AREA]; 2]>,
    killers: [[Pos; 2]; MAX_PLY],
    pv: Box<[[Pos; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl<'a> Worker<'a> {
    fn new(
        board: Board,
        tt: &'a Table,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        shared: &'a Shared,
        id: usize,
    ) -> Self {
        Worker {
            board,
            tt,
            limits,
            stop,
            shared,
            id,
            losing_applied: false,
            nodes: 0,
            flushed: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            seldepth: 0,
            history: Box::new([[0; AREA]; 2]),
            killers: [[Pos::NONE; 2]; MAX_PLY],
            pv: Box::new([[Pos::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
        }
    }

    /// Iterative deepening over the root moves (best first).
    fn iterate(&mut self, mut moves: Vec<Pos>, report: &mut dyn FnMut(&Info)) -> Outcome {
        let max_depth = self
            .limits
            .max_depth
            .unwrap_or(MAX_PLY as Depth - 8)
            .clamp(1, MAX_PLY as Depth - 8);
        let mut best = Outcome {
            best: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![moves[0]],
        };
        let mut depth = 1 + (self.id as Depth & 1);
        let mut soft_scale = 1.0f64;
        while depth <= max_depth {
            self.drop_losing(&mut moves, &mut best);
            let mut last = best.score;
            if self.id != 0 {
                let ahead =
                    self.shared.main_depth.load(Ordering::Relaxed) + 1 + (self.id as Depth & 1);
                if ahead > depth {
                    depth = ahead.min(max_depth);
                    last = self.shared.main_score.load(Ordering::Relaxed);
                }
            }
            let (score, mv) = self.aspiration(&mut moves, depth, last);
            if self.aborted && depth > 1 + (self.id as Depth & 1) {
                // An interrupted iteration still improves on the last one when its first move
                // (the previous best) was searched and another beat it.
                if let Some(mv) = mv {
                    best.best = mv;
                    best.pv = vec![mv];
                }
                break;
            }
            if let Some(mv) = mv {
                // More time when the best move changes or the score falls, less when it holds.
                if depth >= TIME_SCALE_MIN_DEPTH {
                    soft_scale = if mv != best.best {
                        SOFT_SCALE_NEW_BEST
                    } else if score < best.score - SCORE_DROP {
                        SOFT_SCALE_SCORE_DROP
                    } else {
                        (soft_scale * SOFT_SCALE_STABLE_DECAY).max(SOFT_SCALE_MIN)
                    };
                }
                best.best = mv;
                best.score = score;
                best.depth = depth;
                best.pv = self.pv[0][..self.pv_len[0]].to_vec();
                if best.pv.first() != Some(&mv) {
                    best.pv = vec![mv];
                }
                if self.id != 0 {
                    let mut deepest = self.shared.deepest.lock().expect("deepest result");
                    if deepest.as_ref().is_none_or(|d| d.depth < depth) {
                        *deepest = Some(best.clone());
                    }
                }
            }
            self.flush_nodes();
            best.nodes = self.shared.total_nodes.load(Ordering::Relaxed);
            if self.id == 0 {
                self.shared.main_score.store(best.score, Ordering::Relaxed);
                self.shared.main_depth.store(best.depth, Ordering::Relaxed);
                report(&Info {
                    depth,
                    seldepth: self.seldepth,
                    score: best.score,
                    nodes: best.nodes,
                    elapsed: self.limits.start.elapsed(),
                    pv: best.pv.clone(),
                });
            }
            if self.aborted {
                break;
            }
            // A proven result needs no deeper search; nor does a soft limit that has passed.
            if is_decisive(best.score) && (crate::types::WIN - best.score.abs()) <= depth {
                break;
            }
            if self.id == 0 {
                let soft =
                    Duration::try_from_secs_f64(self.limits.budget.soft.as_secs_f64() * soft_scale)
                        .unwrap_or(Duration::MAX)
                        .min(self.limits.budget.hard);
                // While a helper still checks the root moves, searching on costs nothing:
                // its answer is awaited anyway.
                if self.limits.start.elapsed() >= soft
                    && !self.shared.threats.pending.load(Ordering::Acquire)
                {
                    break;
                }
            }
            if self.id != 0 && self.shared.done.load(Ordering::Relaxed) {
                break;
            }
            depth += 1;
        }
        if self.id == 0 {
            // The answer must not be a move the threat searches found losing.
            while self.shared.threats.pending.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_micros(200));
            }
            self.drop_losing(&mut moves, &mut best);
        }
        self.flush_nodes();
        best.nodes = self.shared.total_nodes.load(Ordering::Relaxed);
        best
    }

    /// Removes the root moves that lose to a VCF once a helper has found them (once); the
    /// best move so far is replaced when it is one of them.
    fn drop_losing(&mut self, moves: &mut Vec<Pos>, best: &mut Outcome) {
        if self.losing_applied || self.shared.threats.pending.load(Ordering::Acquire) {
            return;
        }
        self.losing_applied = true;
        let losing = self.shared.threats.losing.lock().expect("losing moves");
        if losing.is_empty() || moves.iter().all(|m| losing.contains(m)) {
            return;
        }
        moves.retain(|m| !losing.contains(m));
        if losing.contains(&best.best) {
            best.best = moves[0];
            best.pv = vec![moves[0]];
        }
    }

    /// A root iteration inside a window around the last score, widened until the score falls
    /// inside it.
    fn aspiration(&mut self, moves: &mut [Pos], depth: Depth, last: Value) -> (Value, Option<Pos>) {
        if depth < ASPIRATION_MIN_DEPTH || is_decisive(last) {
            return self.root(moves, depth, (-INFINITE, INFINITE));
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut lo, mut hi) = (last - delta, last + delta);
        loop {
            let (v, mv) = self.root(moves, depth, (lo, hi));
            if self.aborted {
                // Only a move that beat the window's lower bound is known to be good.
                return (v, mv.filter(|_| v > lo));
            }
            if v <= lo {
                lo = (lo - delta).max(-INFINITE);
            } else if v >= hi {
                hi = (hi + delta).min(INFINITE);
            } else {
                return (v, mv);
            }
            delta *= 4;
            if delta > WIN_BOUND {
                lo = -INFINITE;
                hi = INFINITE;
            }
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .total_nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// One root iteration; returns the score and best move (`None` when aborted before any
    /// move was searched to the end). Reorders `moves`: the best first.
    fn root(
        &mut self,
        moves: &mut [Pos],
        depth: Depth,
        window: (Value, Value),
    ) -> (Value, Option<Pos>) {
        let (mut alpha, beta) = window;
        let mut best = None;
        let mut best_value = -INFINITE;
        self.seldepth = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            self.board.play(mv);
            let v = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false);
                if v > alpha && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -alpha, 1, true);
                }
                v
            };
            self.board.undo();
            if self.aborted {
                break;
            }
            if v > best_value {
                best_value = v;
                best = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.pv[0][0] = mv;
                    let n = self.pv_len[1];
                    let (head, tail) = self.pv.split_at_mut(1);
                    head[0][1..=n].copy_from_slice(&tail[0][..n]);
                    self.pv_len[0] = n + 1;
                    // Keep the best move first for the next iteration.
                    moves[..=i].rotate_right(1);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best_value, best)
    }

    #[inline]
    fn check_limits(&mut self) {
        // Node counts jump by whole threat searches, so compare, don't take a remainder.
        if self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes + CHECK_EVERY;
        if stopped(self.stop)
            || (self.id != 0 && self.shared.done.load(Ordering::Relaxed))
            || self.shared.threats.found.load(Ordering::Relaxed)
        {
            self.aborted = true;
            return;
        }
        self.flush_nodes();
        if self.id == 0 {
            if self.limits.start.elapsed() >= self.limits.budget.hard {
                self.aborted = true;
            }
            if let Some(n) = self.limits.max_nodes {
                if self.shared.total_nodes.load(Ordering::Relaxed) >= n {
                    self.aborted = true;
                }
            }
        }
    }

    fn negamax(
        &mut self,
        mut depth: Depth,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> Value {
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
        if board.empty_count() == 0 {
            return 0;
        }
        // Tactics that need no search.
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

        // Reverse futility pruning: near the leaves, a side to move whose static value beats
        // beta by a margin per ply, with no three of the opponent's to answer (fours and fives
        // were answered above), keeps beta whatever the opponent does in that few plies.
        if !pv_node && !must_defend && depth <= RFP_MAX_DEPTH {
            let v = evaluate(&self.board);
            if v - RFP_MARGIN * depth >= beta {
                return v;
            }
        }

        // Mate-distance pruning: nothing here can beat a win already found closer to the root.
        let alpha0 = alpha.max(loss_in(p));
        let beta0 = beta.min(win_in(p + 1));
        if alpha0 >= beta0 {
            return alpha0;
        }

        let key = self.board.hash();
        let mut tt_move = Pos::NONE;
        if let Some(hit) = self.tt.probe(key) {
            tt_move = hit.mv;
            let v = from_tt(hit.value, p);
            if !pv_node && hit.depth >= depth {
                match hit.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }

        // The table's move is searched before the others are generated: it often ends the
        // node alone. The order and flags are those `generate` gives, so nothing else changes.
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
            // A late quiet move is pruned only while some move searched does not lose: a
            // loss proven with moves left unsearched is no proof (the pruned move may be the
            // one defence), and a false mate score would stand for good in the table.
            if late && best_value > -WIN_BOUND {
                continue;
            }
            self.board.play(mv);
            let mut v;
            if i == 0 {
                v = -self.negamax(depth - 1, -beta, -alpha, ply + 1, pv_node);
            } else {
                let r = if quiet && depth >= LMR_MIN_DEPTH && i >= LMR_FULL_MOVES {
                    1 + (i >= 12) as Depth
                } else {
                    0
                };
                v = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if v > alpha && r > 0 && !self.aborted {
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if v > alpha && v < beta && pv_node && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true);
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

    fn set_pv(&mut self, ply: usize, mv: Pos) {
        self.pv[ply][0] = mv;
        let n = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Whether the candidate square `q` is searched, and if so whether it is quiet (makes or
    /// stops no three): against a threat to make an open four only our fours and the squares
    /// that stop it are, and never a foul of ours.
    #[inline]
    fn admit(&self, q: Pos, must_defend: bool) -> Option<bool> {
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
    fn tt_first(&self, tt_move: Pos, must_defend: bool) -> Option<(Pos, bool, bool)> {
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
    fn generate(
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
    fn must_defend(&self) -> bool {
        let b = &self.board;
        let opp = b.side_to_move().opp();
        b.count(opp, Threat::OpenFour) > 0
            && b.squares_with(opp, Threat::OpenFour)
                .any(|q| !b.is_foul(opp, q))
    }
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

    fn search(diagram: &str, rule: Rule, depth: Depth) -> Outcome {
        let b = parse_diagram(diagram).unwrap().to_board(rule).unwrap();
        let mut s = Searcher::new(1 << 20);
        s.search(
            &b,
            &Limits::depth(depth),
            &AtomicBool::new(false),
            &mut |_| {},
        )
    }

    fn by_nodes(n: u64) -> Limits {
        Limits {
            max_nodes: Some(n),
            ..Limits::time(crate::time::Budget::UNLIMITED)
        }
    }

    #[test]
    fn a_proven_win_is_played_on_without_proving_it_again() {
        let mut b = crate::search::vct::tests::quiet_start_win();
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1 << 20);
        let o = s.search(&b, &by_nodes(2_000_000), &stop, &mut |_| {});
        assert!(o.score >= WIN_BOUND, "{}", o.score);
        b.play(o.best);
        // After any answer of black the proof holds on; a search with 400 nodes (100 for its
        // threat searches) finds the next winning move only in it.
        let answers: Vec<Pos> = b.candidates().filter(|&q| b.is_legal(q)).collect();
        let mut kept = Vec::new();
        for q in answers {
            b.play(q);
            let fresh = Searcher::new(1 << 20).search(&b, &by_nodes(400), &stop, &mut |_| {});
            if fresh.score < WIN_BOUND {
                let o = s.search(&b, &by_nodes(400), &stop, &mut |_| {});
                assert!(o.score >= WIN_BOUND, "after {q}: {}", o.score);
                kept.push(q);
            }
            b.undo();
        }
        assert!(!kept.is_empty());
        // A cleared searcher forgets it.
        s.clear();
        b.play(kept[0]);
        assert!(s.search(&b, &by_nodes(400), &stop, &mut |_| {}).score < WIN_BOUND);
    }

    #[test]
    fn takes_a_win_in_one() {
        let o = search(
            "
            . . . . . . . . .
            . x x x x . . . .
            . o o o . . . . .
            . . . o . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
            4,
        );
        assert!(
            o.best == Pos::new(0, 1) || o.best == Pos::new(5, 1),
            "{:?}",
            o.best
        );
    }

    #[test]
    fn blocks_a_four() {
        let o = search(
            "
            . . . . . . . . .
            . o o o o x . . .
            . . x x . . . . .
            . . . x . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
            4,
        );
        assert_eq!(o.best, Pos::new(0, 1));
    }

    #[test]
    fn finds_a_four_three() {
        // Black to move wins with a four-three at (4,5): a four on the row, an open three on
        // the diagonal.
        let o = search(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            o x x x . . . o . . .
            . . . . . x . . . . .
            . . . . . . x . . . .
            . . . . . . . . o . .
            . . . . . . . . . . .
            . . o . . . . . . . o",
            Rule::Freestyle,
            5,
        );
        assert!(o.score >= WIN_BOUND, "score {} best {:?}", o.score, o.best);
        assert_eq!(o.best, Pos::new(4, 5));
    }

    /// White threatens a double four at (5,2) (row and column, each blocked at one end); black
    /// to move: only (5,2), (6,2) and (5,1) keep the game going.
    fn double_four_threat() -> Board {
        parse_diagram(
            "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . x o o o . . . . . . . . . .
        . . . . . o . . . . . . . . .
        . . . . . o . . . . . . . . .
        . . . . . o . . . . . . . . .
        . . . . . x . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . x . .
        . . . . . . . . . . . . . . .
        . . . . . . . . x . . . . . .
        . . . . . . . . . . x . . . .
        . . . . . . . . . . . . . . x",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap()
    }

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

    fn search_board(b: &Board, depth: Depth) -> Outcome {
        search_threads(b, depth, 1)
    }

    fn search_threads(b: &Board, depth: Depth, threads: usize) -> Outcome {
        let mut s = Searcher::new(1 << 20);
        let mut limits = Limits::depth(depth);
        limits.threads = threads;
        s.search(b, &limits, &AtomicBool::new(false), &mut |_| {})
    }

    /// The moves the generator gives at `depth` (ply 1, no table move).
    /// Runs `f` on a main-thread worker for `b` with a depth limit and a small table.
    fn with_worker<R>(b: &Board, depth: Depth, f: impl FnOnce(&mut Worker) -> R) -> R {
        let limits = Limits::depth(depth);
        let stop = AtomicBool::new(false);
        let shared = Shared::new(0, RootThreats::default());
        let tt = Table::new(1 << 16);
        f(&mut Worker::new(b.clone(), &tt, &limits, &stop, &shared, 0))
    }

    fn generated(b: &Board, depth: Depth) -> Vec<(Pos, bool, bool)> {
        with_worker(b, depth, |w| {
            w.generate(1, Pos::NONE, depth, w.must_defend())
        })
    }

    /// Black's three on row 7 (6..8) whose open-four squares (5,7) and (9,7) are both double
    /// fours with black's closed threes on columns 5 and 9: a foul under renju. White to move.
    fn fake_three(rule: Rule) -> Board {
        parse_diagram(
            "
            . . . . . . . . . . . . . . .
            . o . . . . . . . . . . . o .
            . . o . . . . . . . . . . . .
            . . . . . o . . . . . . . . .
            . . . . . x . . . . . . . . .
            . . . . . x . . . . . . . . .
            . . . . . x . . . . . . . . .
            . . . . . . x x x . . . . . .
            . . . . . . . . . x . . . . .
            . . . . . . . . . x . . . . .
            . . . . . . . . . x . . . . .
            . . . . . . . . . o . . . . .
            . . . . . . . . . . . . o . .
            . o . . . . . . . . . . . o .
            . . . . . . . . . . . . . . .",
        )
        .unwrap()
        .to_board(rule)
        .unwrap()
    }

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
    fn helper_threads_run_the_root_threat_searches() {
        // The double-four threat of the test above: the helper's checks publish the root moves
        // that lose, and every thread's root loop drops them (and a best move among them).
        let b = double_four_threat();
        let limits = Limits::depth(8);
        let stop = AtomicBool::new(false);
        let abort = Abort {
            deadline: None,
            stop: &stop,
        };
        let moves = root_moves(&b);
        let shared = Shared::new(0, RootThreats::default());
        shared.threats.pending.store(true, Ordering::Release);
        let tt = Table::new(1 << 16);
        let mut w = Worker::new(b.clone(), &tt, &limits, &stop, &shared, 0);
        let mut ms = moves.clone();
        let safe = [Pos::new(5, 2), Pos::new(6, 2), Pos::new(5, 1)];
        let unsafe_best = *moves.iter().find(|m| !safe.contains(m)).unwrap();
        let mut best = Outcome {
            best: unsafe_best,
            score: 0,
            depth: 3,
            nodes: 0,
            pv: vec![unsafe_best],
        };
        // Nothing to drop while the checks run.
        w.drop_losing(&mut ms, &mut best);
        assert_eq!(ms, moves);
        shared.run_threats(&b, &moves, &[], &limits, abort, &Mutex::default());
        assert!(!shared.threats.pending.load(Ordering::Acquire));
        assert!(shared.threats.win.lock().unwrap().is_none());
        let losing = shared.threats.losing.lock().unwrap().clone();
        assert_eq!(losing.len(), SAFETY_MOVES - safe.len());
        assert!(losing.contains(&unsafe_best));
        w.drop_losing(&mut ms, &mut best);
        assert_eq!(ms.len(), moves.len() - losing.len());
        assert!(safe.iter().all(|m| ms.contains(m)));
        assert_eq!(best.best, ms[0]);
        assert!(safe.contains(&search_threads(&b, 2, 2).best));
        // Black wins by threes: two open threes at once on (5,5). The main search alone does
        // not prove it at depth 1; the helper's VCT does.
        let b = crate::search::vct::tests::three_three(Rule::Freestyle);
        for threads in [1, 2] {
            let o = search_threads(&b, 1, threads);
            assert_eq!(o.best, Pos::new(5, 5), "{threads} threads");
            assert!(o.score >= WIN_BOUND, "{threads} threads: score {}", o.score);
        }
    }

    #[test]
    fn deterministic_node_count() {
        let d = "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . o . . . . . .
            . . . x x o . . . . .
            . . . . x o . . . . .
            . . . . . x . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .";
        let a = search(d, Rule::Standard, 4);
        let b = search(d, Rule::Standard, 4);
        assert_eq!((a.nodes, a.best), (b.nodes, b.best));
    }

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

    #[test]
    fn a_side_far_above_beta_near_the_leaves_is_not_searched() {
        // Black to move with four open twos around (6,6); white's stones sit in the corners,
        // or (`three`) three of them make an open three on the bottom row, which black must
        // answer.
        let node = |three: bool, depth: Depth, pv_node: bool| {
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
            let b = parse_diagram(&format!(
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
            .unwrap();
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

    #[test]
    fn generation_visits_the_candidates_in_their_order() {
        let b = fake_three(Rule::Freestyle);
        let mut seen = Vec::new();
        b.for_each_candidate(|q| seen.push(q));
        assert_eq!(seen, b.candidates().collect::<Vec<_>>());
        assert!(seen.len() > 40);
    }
}
