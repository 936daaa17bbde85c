//! `pbrain-pentad book`: builds the opening book from Pentad's own searches (`book build`,
//! `make book`) and describes a book file (`book info`). The format and its use are the
//! library's (`pentad::book`).
//!
//! The build, per section (rule and board size): the empty board, the five answers to the
//! centre within two squares (one of each symmetric set) and the 26 classic three-stone
//! openings are the roots; each position with fewer than `--stones` stones is
//! searched with `--moves` lines (multi-PV) under a node limit on one thread, its lines are
//! stored, and the positions after the lines within `--margin` of the best are searched in
//! turn, breadth first. Positions are merged over symmetries, so each is searched once. The
//! same options give the same book (node limits, one thread, a fixed order).

use anyhow::{bail, Context};
use pentad::board::Board;
use pentad::book::{classic_openings, Book, BookMove};
use pentad::rules::Rule;
use pentad::search::multipv::multipv;
use pentad::search::{Limits, Searcher};
use pentad::time::Budget;
use pentad::types::is_decisive;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The sections of the shipped book: rule and board side.
pub const SECTIONS: [(Rule, usize); 4] = [
    (Rule::Freestyle, 15),
    (Rule::Standard, 15),
    (Rule::Renju, 15),
    (Rule::Freestyle, 20),
];

/// `book build …` or `book info …`.
#[derive(clap::Args, Debug)]
#[command(about = "Build the opening book from Pentad's own searches, or describe a book file")]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Search the opening positions and write the book file
    Build(BuildArgs),
    /// Print a book file's description and size
    Info {
        /// The book file (default: the one built into this binary)
        #[arg(long)]
        file: Option<PathBuf>,
    },
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// Where to write the book
    #[arg(long, default_value = "book/pentad.book")]
    out: PathBuf,
    /// Positions with fewer stones than this are searched
    #[arg(long, default_value_t = 7)]
    stones: usize,
    /// Lines searched and kept per position (at most 8)
    #[arg(long, default_value_t = 3)]
    moves: usize,
    /// Lines within this many score units of the best are followed
    #[arg(long, default_value_t = 60)]
    margin: i32,
    /// Node limit of each position's search
    #[arg(long, default_value_t = 600_000)]
    nodes: u64,
    /// Only these sections (RULE:SIZE, e.g. freestyle:15; repeatable); default all four
    #[arg(long = "only", value_parser = parse_section)]
    only: Vec<(Rule, usize)>,
    /// Transposition table size in MiB
    #[arg(long, default_value_t = 128)]
    hash_mb: usize,
}

fn parse_section(s: &str) -> Result<(Rule, usize), String> {
    let (rule, size) = s.split_once(':').ok_or("expected RULE:SIZE")?;
    let rule = super::parse_rule(rule)?;
    let size = size.trim().parse().map_err(|_| "bad size".to_string())?;
    Ok((rule, size))
}

/// Runs `book`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.action {
        Action::Info { file } => info(file),
        Action::Build(b) => build(b),
    }
}

fn info(file: Option<PathBuf>) -> anyhow::Result<()> {
    let book = match &file {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("{}", path.display()))?;
            Book::parse(&bytes).with_context(|| format!("{}", path.display()))?
        }
        None => Book::parse(pentad::book::EMBEDDED).context("the embedded book")?,
    };
    let bytes = book.to_bytes().len();
    println!("positions: {}", book.len());
    println!("bytes: {bytes}");
    println!("built: {}", book.info());
    Ok(())
}

fn build(a: BuildArgs) -> anyhow::Result<()> {
    if a.moves == 0 || a.moves > pentad::book::MAX_BOOK_MOVES {
        bail!("--moves must be 1 to {}", pentad::book::MAX_BOOK_MOVES);
    }
    let sections: Vec<(Rule, usize)> = if a.only.is_empty() {
        SECTIONS.to_vec()
    } else {
        a.only.clone()
    };
    let started = Instant::now();
    let mut book = Book::new("");
    let mut searched = 0usize;
    for &(rule, size) in &sections {
        let t = Instant::now();
        let n = build_section(&mut book, rule, size, &a)?;
        searched += n;
        println!(
            "{} {size}x{size}: {n} positions in {:.0} s",
            rule.name(),
            t.elapsed().as_secs_f64()
        );
    }
    let names: Vec<String> = sections
        .iter()
        .map(|(r, s)| format!("{}:{s}", r.name()))
        .collect();
    book.set_info(&format!(
        "pbrain-pentad {} book build --stones {} --moves {} --margin {} --nodes {}: {} \
         positions of {} searched in {:.0} s",
        env!("CARGO_PKG_VERSION"),
        a.stones,
        a.moves,
        a.margin,
        a.nodes,
        searched,
        names.join(" "),
        started.elapsed().as_secs_f64()
    ));
    let bytes = book.to_bytes();
    // Written beside and renamed, so that a stopped build leaves the old book whole.
    let tmp = a.out.with_extension("book.tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("{}", tmp.display()))?;
    std::fs::rename(&tmp, &a.out).with_context(|| format!("{}", a.out.display()))?;
    println!(
        "{}: {} positions, {} bytes, {:.0} s",
        a.out.display(),
        book.len(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Searches one section's positions into `book`; returns how many were searched.
fn build_section(book: &mut Book, rule: Rule, size: usize, a: &BuildArgs) -> anyhow::Result<usize> {
    let empty = Board::square(size, rule).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut queue: VecDeque<Board> = VecDeque::new();
    queue.push_back(empty.clone());
    // Every answer to the centre within two squares (one of each symmetric set), whether the
    // search likes it or not: a game may start with any of them.
    let (cx, cy) = (size as i64 / 2, size as i64 / 2);
    for (dx, dy) in [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2)] {
        let mut b = empty.clone();
        for (x, y) in [(cx, cy), (cx + dx, cy + dy)] {
            if let Some(p) = b.pos(x, y) {
                b.play(p);
            }
        }
        queue.push_back(b);
    }
    for line in classic_openings(&empty) {
        let mut b = empty.clone();
        for p in line {
            b.play(p);
        }
        queue.push_back(b);
    }
    let mut engine = Searcher::new(a.hash_mb << 20);
    let stop = AtomicBool::new(false);
    let mut searched = 0;
    while let Some(board) = queue.pop_front() {
        if board.stone_count() >= a.stones || book.contains(&board) {
            continue;
        }
        let limits = Limits {
            max_nodes: Some(a.nodes),
            ..Limits::time(Budget::UNLIMITED)
        };
        let lines = multipv(
            &mut engine,
            &board,
            &limits,
            &[],
            a.moves,
            &stop,
            &mut |_, _, _| {},
        );
        searched += 1;
        let Some(best) = lines.first().map(|l| l.score) else {
            continue;
        };
        let moves: Vec<BookMove> = lines
            .iter()
            .map(|l| BookMove {
                pos: l.best,
                score: l.score,
                depth: l.depth,
            })
            .collect();
        book.insert(&board, &moves);
        if searched % 25 == 0 {
            eprintln!(
                "{} {size}: {searched} positions searched, {} queued",
                rule.name(),
                queue.len()
            );
        }
        // A won or lost position needs no book: the threat searches play it.
        if is_decisive(best) {
            continue;
        }
        for l in &lines {
            if l.score >= best - a.margin && !is_decisive(l.score) {
                let mut next = board.clone();
                next.play(l.best);
                queue.push_back(next);
            }
        }
    }
    Ok(searched)
}
