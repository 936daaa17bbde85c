//! `pbrain-pentad puzzles FILE`: solve rate and time per puzzle on tactical sets in JSON lines
//! (the shared set's format: `task`, `board_size`, `side_to_move`, `black`, `white`, optional
//! `moves` in play order; see the shared data README). A puzzle counts as solved when the search
//! claims a forced win and the winning line, played out move by move under the rule (every move
//! after the first chosen by the mover's own search, forced answers to a four played at once),
//! ends in a five with every move legal.

use pentad::board::Board;
use pentad::gamefile::{parse_puzzles, Puzzle};
use pentad::pattern::Threat;
use pentad::search::{Limits, Searcher};
use pentad::time::Budget;
use pentad::types::{Pos, WIN_BOUND};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Tasks whose answer is a winning first move.
pub const WIN_TASKS: [&str; 5] = ["VCF", "VCT3", "VCT", "STONES4", "STONES5"];

/// What solving one puzzle gave.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// The first move played.
    pub first: Pos,
    /// The search claimed a forced win.
    pub claimed: bool,
    /// The win was played out to a five with every move legal.
    pub verified: bool,
    /// Time to the first move.
    pub time: Duration,
    /// The line played out.
    pub line: Vec<Pos>,
}

/// Longest line played out when verifying a win.
const VERIFY_PLIES: usize = 225;

/// How much search a puzzle gets.
#[derive(Clone, Copy, Debug)]
pub enum Effort {
    /// A time limit (the acceptance figures).
    Time(Duration),
    /// A node limit: the same result on any machine and under any load, for comparing versions.
    Nodes(u64),
}

impl Effort {
    /// Limits of the first search; the defence searches of the verification get a fraction.
    fn limits(self, fraction: u32) -> Limits {
        match self {
            Effort::Time(t) => Limits::time(Budget {
                soft: t / (2 * fraction),
                hard: t / fraction,
            }),
            Effort::Nodes(n) => Limits {
                max_nodes: Some((n / fraction as u64).max(1)),
                ..Limits::time(Budget::UNLIMITED)
            },
        }
    }
}

/// Searches a win for the side to move within `time`, then plays it out against the engine's
/// own defence to check it (the tests' shorthand).
#[cfg(test)]
fn attempt(searcher: &mut Searcher, board: &Board, time: Duration) -> Attempt {
    attempt_with(searcher, board, Effort::Time(time), 1)
}

/// Like [`attempt`], with a time or node limit and `threads` search threads.
pub fn attempt_with(
    searcher: &mut Searcher,
    board: &Board,
    effort: Effort,
    threads: usize,
) -> Attempt {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    searcher.clear();
    let mut first = match effort {
        // The first search uses the whole time (soft = hard), as before.
        Effort::Time(t) => Limits::time(Budget { soft: t, hard: t }),
        Effort::Nodes(_) => effort.limits(1),
    };
    first.threads = threads.max(1);
    let out = searcher.search(board, &first, &stop, &mut |_| {});
    let elapsed = start.elapsed();
    let claimed = out.score >= WIN_BOUND;
    let attacker = board.side_to_move();
    let mut b = board.clone();
    let mut line = Vec::new();
    let mut verified = false;
    if claimed {
        // Every move after the first is the mover's own: a five, else the block of the
        // opponent's five, else what its own search plays. (A search's principal variation is
        // not followed: its moves for the other side are guesses, and a defender's guess at the
        // attacker's reply is no attack.)
        let mut first = Some(out.best);
        while line.len() < VERIFY_PLIES {
            let mover = b.side_to_move();
            let mv = match first.take().or_else(|| forced_move(&b)) {
                Some(m) => m,
                None => {
                    let mut limits = effort.limits(2);
                    limits.threads = threads.max(1);
                    searcher.search(&b, &limits, &stop, &mut |_| {}).best
                }
            };
            if mv.is_none() || !b.is_empty(mv) || b.is_foul(mover, mv) {
                break;
            }
            let five = b.grid().makes_win(mv, mover, b.rule());
            b.play(mv);
            line.push(mv);
            if five {
                verified = mover == attacker;
                break;
            }
        }
    }
    Attempt {
        first: out.best,
        claimed,
        verified,
        time: elapsed,
        line,
    }
}

/// The move that needs no search: the mover's five, else the legal block of the opponent's
/// five.
fn forced_move(b: &Board) -> Option<Pos> {
    let me = b.side_to_move();
    if let Some(q) = b.squares_with(me, Threat::Five).next() {
        return Some(q);
    }
    b.squares_with(me.opp(), Threat::Five)
        .find(|&q| !b.is_foul(me, q))
}

/// `puzzles FILE [--task VCF,VCT3] [--time MS | --nodes N] [--limit N] [--threads N]
/// [--verbose] [--threats-only]`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Solve rate and time per puzzle on a JSON-lines tactical set",
    after_help = "Solve rate and time per puzzle on a JSON-lines tactical set (the shared set's \
                  format). A puzzle counts as solved when the engine claims a forced win and the \
                  line, played out move by move under the rule against the engine's own defence, \
                  ends in a five with every move legal.",
    args_override_self = true
)]
pub struct Args {
    /// The puzzle set, JSON lines (a file that cannot be read is skipped)
    #[arg(value_name = "FILE")]
    pub file: String,
    /// The tasks to measure, comma-separated
    #[arg(long, value_name = "T[,T...]", default_value_t = WIN_TASKS.join(","))]
    pub task: String,
    /// Time per puzzle in milliseconds [default: 1000 for VCF, 5000 for the others]
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// A node limit per puzzle instead of the time limit (it wins over --time): the same result
    /// on any machine and under any load, for comparing versions. With --threats-only: the
    /// VCT's nodes [default there: 750000]
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// At most N puzzles of each task
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// List the puzzles not solved (with --threats-only: every puzzle)
    #[arg(long)]
    pub verbose: bool,
    /// Only the root VCF and VCT, wins counted without playing them out (a development aid)
    #[arg(long)]
    pub threats_only: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        file,
        task,
        time: time_ms,
        nodes,
        limit,
        threads,
        verbose,
        threats_only,
    } = args;
    let tasks: Vec<String> = task.split(',').map(String::from).collect();
    let limit = limit.unwrap_or(usize::MAX);
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            println!("skipped: cannot read {file}: {e}");
            return Ok(());
        }
    };
    let puzzles = parse_puzzles(&text)?;
    if threats_only {
        return run_threats_only(&puzzles, &tasks, limit, nodes, verbose);
    }
    let mut searcher = Searcher::new(64 << 20);
    println!(
        "{:8} {:>6} {:>7} {:>8} {:>9} {:>9} {:>9}",
        "task", "count", "solved", "rate", "mean ms", "p95 ms", "max ms"
    );
    for task in &tasks {
        let set = of_task(&puzzles, task, limit);
        if set.is_empty() {
            continue;
        }
        let t = Duration::from_millis(time_ms.unwrap_or(if task == "VCF" { 1000 } else { 5000 }));
        let mut times = Vec::new();
        let mut solved = 0;
        for p in &set {
            let b = match p.board(p.rule()) {
                Ok(b) => b,
                Err(e) => {
                    println!("{}: bad position: {e}", p.id);
                    continue;
                }
            };
            let effort = match nodes {
                Some(n) => Effort::Nodes(n),
                None => Effort::Time(t),
            };
            let a = attempt_with(&mut searcher, &b, effort, threads);
            times.push(a.time.as_secs_f64() * 1000.0);
            if a.verified {
                solved += 1;
            } else if verbose {
                println!(
                    "unsolved {} first {} claimed {} line {:?}",
                    p.id, a.first, a.claimed, a.line
                );
            }
        }
        times.sort_by(|a, b| a.total_cmp(b));
        let n = times.len().max(1);
        let mean = times.iter().sum::<f64>() / n as f64;
        let p95 = times.get((n * 95 / 100).min(n - 1)).copied().unwrap_or(0.0);
        let max = times.last().copied().unwrap_or(0.0);
        println!(
            "{:8} {:>6} {:>7} {:>7.1}% {:>9.1} {:>9.1} {:>9.1}",
            task,
            set.len(),
            solved,
            100.0 * solved as f64 / set.len() as f64,
            mean,
            p95,
            max
        );
    }
    Ok(())
}

/// The first `limit` puzzles of `task`.
fn of_task<'a>(puzzles: &'a [Puzzle], task: &str, limit: usize) -> Vec<&'a Puzzle> {
    puzzles
        .iter()
        .filter(|p| p.task == task)
        .take(limit)
        .collect()
}

/// Root threat searches alone (a VCF, then a VCT with `nodes` nodes): how many puzzles they
/// claim as won, and how long they take. A development aid: the claims are not played out.
fn run_threats_only(
    puzzles: &[Puzzle],
    tasks: &[String],
    limit: usize,
    nodes: Option<u64>,
    verbose: bool,
) -> anyhow::Result<()> {
    use pentad::search::vcf::Vcf;
    use pentad::search::vct::Vct;
    let vct_nodes = nodes.unwrap_or(750_000);
    println!(
        "{:8} {:>6} {:>7} {:>8} {:>9} {:>9} {:>12}",
        "task", "count", "claimed", "rate", "mean ms", "max ms", "mean nodes"
    );
    for task in tasks {
        let set = of_task(puzzles, task, limit);
        if set.is_empty() {
            continue;
        }
        let (mut claimed, mut total_ms, mut max_ms, mut total_nodes) = (0, 0.0, 0.0f64, 0u64);
        for p in &set {
            let mut b = p.board(p.rule())?;
            let start = Instant::now();
            let mut vcf = Vcf::new(2_000_000);
            let mut found = vcf.solve(&mut b, 225).map(|l| (l[0], 0));
            total_nodes += vcf.nodes();
            if found.is_none() {
                let mut vct = Vct::new(vct_nodes);
                found = vct.solve(&mut b, 8);
                total_nodes += vct.nodes();
            }
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            total_ms += ms;
            max_ms = max_ms.max(ms);
            match found {
                Some((m, d)) => {
                    claimed += 1;
                    if verbose {
                        println!("claimed {} {} threats {} {:.0} ms", p.id, m, d, ms);
                    }
                }
                None if verbose => println!("none {} {:.0} ms", p.id, ms),
                None => {}
            }
        }
        let n = set.len();
        println!(
            "{:8} {:>6} {:>7} {:>7.1}% {:>9.1} {:>9.1} {:>12}",
            task,
            n,
            claimed,
            100.0 * claimed as f64 / n as f64,
            total_ms / n as f64,
            max_ms,
            total_nodes / n as u64
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::types::Color;

    #[test]
    fn parses_and_solves_a_small_vcf() {
        // Black to move: a four on row 7 forces the reply, then a double four.
        let text = r#"{"id":"t1","task":"VCF","rule":"freestyle","board_size":15,"side_to_move":"black","black":[[5,7],[6,7],[7,7],[9,9],[9,10],[9,11]],"white":[[4,7],[3,3],[12,12],[13,1],[1,13]]}"#;
        let ps = parse_puzzles(text).unwrap();
        assert_eq!(ps.len(), 1);
        let b = ps[0].board(ps[0].rule()).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let mut s = Searcher::new(1 << 20);
        let a = attempt(&mut s, &b, Duration::from_millis(2000));
        assert!(a.claimed && a.verified, "{a:?}");
    }
}
