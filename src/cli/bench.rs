//! `pbrain-pentad bench`: fixed positions searched to a fixed depth on one thread with a fixed
//! table size. The total node count is the search's signature: a change that claims no
//! functional change keeps it equal (commit messages end with `Bench: <nodes>`).

use pentad::board::Board;
use pentad::notation::{parse_pos_moves, play_moves};
use pentad::rules::Rule;
use pentad::search::{Limits, Searcher};
use pentad::time::Budget;
use pentad::types::Depth;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Default bench depth.
pub const BENCH_DEPTH: Depth = 8;
/// Table size of the bench, in MiB.
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions: rule, board size, moves in pos notation (black first).
pub const POSITIONS: [(Rule, usize, &str); 10] = [
    (Rule::Freestyle, 15, "h8"),
    (Rule::Freestyle, 15, "h8i9g9i7i8"),
    (Rule::Freestyle, 15, "h8h9i9g7j10k11i7i8g8"),
    (Rule::Freestyle, 20, "j10k11k10i10j12j11l9"),
    (Rule::Freestyle, 20, "j10j11k11i9l12m13k9l10i12h13k12"),
    (Rule::Standard, 15, "h8i8g9f10h10g10i10"),
    (Rule::Renju, 15, "h8h9i8g8j9j7i9"),
    (Rule::Renju, 15, "h8i9h10g9j9k10h9h7i10j11g11"),
    (Rule::Caro, 15, "h8h9i9g7g8i7f9e10j8"),
    (Rule::CaroExact, 15, "h8g9i9i8j10k11j9"),
];

/// The board of a bench position.
pub fn position(rule: Rule, size: usize, moves: &str) -> Board {
    let mut b = Board::square(size, rule).expect("bench board size");
    let m = parse_pos_moves(moves).expect("bench moves");
    play_moves(&mut b, &m).expect("bench moves legal");
    b
}

/// `bench [DEPTH [HASH_MB]] | bench --time [MS] | bench --make-undo`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Search the bench positions to a fixed depth on one thread; print the node count",
    after_help = "Search fixed positions of every rule to a fixed depth on one thread with a fixed \
                  table size; print the total node count (`Bench: N`), nodes per second and \
                  make+undo per second. Two runs print the same count: it is the search's \
                  signature.",
    override_usage = "pbrain-pentad bench [DEPTH [HASH_MB]]\n       \
                      pbrain-pentad bench --time [MS]\n       \
                      pbrain-pentad bench --make-undo",
    args_override_self = true
)]
pub struct Args {
    /// Search depth of every position
    #[arg(value_name = "DEPTH", default_value_t = BENCH_DEPTH, allow_negative_numbers = true)]
    pub depth: Depth,
    /// Transposition table size in MiB
    #[arg(value_name = "HASH_MB", default_value_t = BENCH_HASH_MB)]
    pub hash_mb: usize,
    /// Instead: the depth each position reaches in MS milliseconds (1000 when MS is left out)
    #[arg(
        long,
        value_name = "MS",
        num_args = 0..=1,
        default_missing_value = "1000",
        conflicts_with_all = ["depth", "hash_mb", "make_undo"]
    )]
    pub time: Option<u64>,
    /// Instead: moves made and taken back per second (all pattern updates), per position and in
    /// all
    #[arg(long, conflicts_with_all = ["depth", "hash_mb"])]
    pub make_undo: bool,
}

/// Runs the bench: the fixed-depth search, `--time` or `--make-undo`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(ms) = args.time {
        return timed(ms);
    }
    if args.make_undo {
        return make_undo_report();
    }
    let (depth, hash_mb) = (args.depth, args.hash_mb);
    let (nodes, elapsed) = fixed_depth(depth, hash_mb, true);
    let nps = nodes as u128 * 1000 / elapsed.as_millis().max(1);
    println!("Total time (ms) : {}", elapsed.as_millis());
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {nps}");
    println!("Make+undo/second: {}", make_undo_rate());
    println!("Bench: {nodes}");
    Ok(())
}

/// Searches every position to `depth`; returns total nodes and time.
pub fn fixed_depth(depth: Depth, hash_mb: usize, verbose: bool) -> (u64, Duration) {
    let mut searcher = Searcher::new(hash_mb << 20);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, &(rule, size, moves)) in POSITIONS.iter().enumerate() {
        let b = position(rule, size, moves);
        searcher.clear();
        let o = searcher.search(
            &b,
            &Limits::depth(depth),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        nodes += o.nodes;
        if verbose {
            println!(
                "position {:2} {:9} {}x{} best {} score {} nodes {}",
                i + 1,
                rule.name(),
                size,
                size,
                o.best,
                o.score,
                o.nodes
            );
        }
    }
    (nodes, start.elapsed())
}

/// Moves made and taken back per second (with all pattern updates), over every candidate move
/// of the bench's middle-game positions.
pub fn make_undo_rate() -> u64 {
    let boards: Vec<Board> = POSITIONS
        .iter()
        .map(|&(r, s, m)| position(r, s, m))
        .collect();
    rate_over(&boards, Duration::from_millis(500))
}

/// Make+undo per second over every candidate move of `boards`, measured for about `span`.
fn rate_over(boards: &[Board], span: Duration) -> u64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < span {
        for b in boards {
            let mut b = b.clone();
            let moves: Vec<_> = b.candidates().collect();
            for _ in 0..200 {
                for &m in &moves {
                    b.play(m);
                    b.undo();
                }
            }
            n += 200 * moves.len() as u64;
        }
    }
    (n as f64 / start.elapsed().as_secs_f64()) as u64
}

/// `bench --make-undo`: the make+undo rate of each bench position, then of all of them.
fn make_undo_report() -> anyhow::Result<()> {
    for (i, &(rule, size, moves)) in POSITIONS.iter().enumerate() {
        let b = position(rule, size, moves);
        let rate = rate_over(std::slice::from_ref(&b), Duration::from_millis(300));
        println!(
            "position {:2} {:9} {}x{} make+undo/second {rate}",
            i + 1,
            rule.name(),
            size,
            size
        );
    }
    println!("Make+undo/second: {}", make_undo_rate());
    Ok(())
}

fn timed(ms: u64) -> anyhow::Result<()> {
    let mut searcher = Searcher::new(BENCH_HASH_MB << 20);
    for (i, &(rule, size, moves)) in POSITIONS.iter().enumerate() {
        let b = position(rule, size, moves);
        searcher.clear();
        let budget = Budget {
            soft: Duration::from_millis(ms),
            hard: Duration::from_millis(ms),
        };
        let mut limits = Limits::time(budget);
        limits.max_depth = None;
        let o = searcher.search(&b, &limits, &AtomicBool::new(false), &mut |_| {});
        println!(
            "position {:2} {:9} {}x{} depth {} best {} score {} nodes {}",
            i + 1,
            rule.name(),
            size,
            size,
            o.depth,
            o.best,
            o.score,
            o.nodes
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_legal_and_bench_is_deterministic() {
        for &(rule, size, moves) in &POSITIONS {
            let b = position(rule, size, moves);
            assert!(b.stone_count() >= 1);
        }
        assert_eq!(fixed_depth(3, 1, false).0, fixed_depth(3, 1, false).0);
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn parse(args: &str) -> Result<Args, clap::Error> {
        let words = std::iter::once("bench").chain(args.split_whitespace());
        Ok(<Cli as clap::Parser>::try_parse_from(words)?.args)
    }

    #[test]
    fn command_line() {
        let a = parse("").unwrap();
        assert_eq!(
            (a.depth, a.hash_mb, a.time),
            (BENCH_DEPTH, BENCH_HASH_MB, None)
        );
        let a = parse("6 4").unwrap();
        assert_eq!((a.depth, a.hash_mb), (6, 4));
        assert_eq!(parse("--time").unwrap().time, Some(1000));
        assert_eq!(parse("--time 50").unwrap().time, Some(50));
        assert!(parse("--make-undo").unwrap().make_undo);
        // One mode at a time.
        assert!(parse("--time 50 6").is_err());
        assert!(parse("--make-undo 6").is_err());
        assert!(parse("--time --make-undo").is_err());
        assert!(parse("6 4 2").is_err());
    }
}
