//! `pbrain-pentad analyze`: the best moves of a position, with scores and principal variations,
//! and any forced win found, as text or as JSON (one object per position and line) for scripts.
//!
//! A position is a move list in pos notation (`h8i9j10` or `h8 i9 j10`, black first, letter =
//! column from the left, number = row from the top), a `.psq` or SGF file, or (with `--stdin`)
//! one position per input line: a move list, a file name, or a JSON object in the format of the
//! shared puzzle sets (`board_size`, `rule`, `side_to_move`, `black`, `white`, `moves`, `id`).
//!
//! The analysis: first the threat solvers (a VCF of the side to move, else a VCT, and a VCF of
//! the opponent as the threat to meet), then the main search, multi-PV by rounds of growing
//! depth (see [`pentad::search::multipv::multipv`]). Every forced line printed as a VCF is the
//! solver's full line: the attacker's fours, the defender's forced answers, the five.

use anyhow::{anyhow, bail, Context};
use pentad::board::Board;
use pentad::book::BookMove;
use pentad::eval::{evaluate, win_probability};
use pentad::gamefile::GameRecord;
use pentad::gamefile::Puzzle;
use pentad::notation::score_text;
use pentad::notation::{parse_pos_moves, pos_to_str};
use pentad::rules::Rule;
use pentad::search::multipv::{self, Line};
use pentad::search::vcf::{Abort, Vcf};
use pentad::search::vct::Vct;
use pentad::search::{legal_moves, Limits, Searcher};
use pentad::time::Budget;
use pentad::types::{is_decisive, Cell, Color, Depth, Pos, Value, WIN};
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Time per position when no limit is given.
pub const DEFAULT_TIME_MS: u64 = 1000;
/// Share of the time the VCF of the side to move may take, in percent.
pub const VCF_SHARE_PCT: u32 = 50;
/// Share of the time the VCT may take.
pub const VCT_SHARE_PCT: u32 = 20;
/// Share of the time the opponent's VCF may take.
pub const THREAT_SHARE_PCT: u32 = 10;
/// Node budgets of the solvers when no clock bounds them.
pub const SOLVER_NODES: u64 = 5_000_000;
/// Threat moves of the VCT.
pub const VCT_THREATS: i32 = 8;

/// `analyze [MOVES | FILE] [--stdin] [--rule R] [--size N|WxH] [--time MS] [--depth D]
/// [--nodes N] [--multipv K] [--threads T] [--hash MB] [--json]`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Best moves, scores, lines and forced wins of a position",
    after_help = "Best moves, scores, principal variations and forced wins of a position, as text \
                  or as JSON for scripts. The analysis looks for a VCF of the side to move (up to \
                  half the time), else a VCT (a fifth), then a VCF of the opponent (the threat to \
                  meet, a tenth), then runs the main search in what is left.",
    args_override_self = true
)]
pub struct Args {
    /// The position: a move list in pos notation (`h8i9j10` or `h8 i9 j10`: black first, the
    /// letter the column from the left, the number the row from the top), or a Piskvork .psq or
    /// SGF file [default: the empty board, unless --stdin]
    #[arg(value_name = "MOVES | FILE")]
    pub position: Vec<String>,
    /// Also read positions from standard input, one per line: a move list, a file name, or a
    /// JSON object in the shared puzzle format (board_size, rule, side_to_move, black, white,
    /// moves, id)
    #[arg(long)]
    pub stdin: bool,
    /// Rule: freestyle, standard, renju, caro, caro9 or an INFO rule number [default: a file's
    /// or puzzle's own rule, else freestyle]
    #[arg(long, value_name = "NAME|NUMBER", value_parser = super::parse_rule, allow_negative_numbers = true)]
    pub rule: Option<Rule>,
    /// Board size [default: a file's own size, else 15]
    #[arg(long, value_name = "N|WxH", value_parser = super::parse_size)]
    pub size: Option<(usize, usize)>,
    /// Time per position in milliseconds [default: 1000 when no --depth or --nodes is given]
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Depth limit of the main search
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    pub depth: Option<Depth>,
    /// Node limit of the whole analysis
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Lines wanted, best first (rounds of growing depth, as YXNBEST)
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=multipv::MAX_NBEST as u64)
    )]
    pub multipv: usize,
    /// Search threads (more than 256 count as 256)
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub hash: usize,
    /// One JSON object per position, on one line
    #[arg(long)]
    pub json: bool,
}

/// What the command was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// Rule (a file's or puzzle's own rule when not given; freestyle otherwise).
    pub rule: Option<Rule>,
    /// Board size (a file's own size when not given; 15 otherwise).
    pub size: Option<(usize, usize)>,
    /// Time per position.
    pub time: Option<Duration>,
    /// Depth limit of the main search.
    pub depth: Option<Depth>,
    /// Node limit of the main search.
    pub nodes: Option<u64>,
    /// Lines wanted.
    pub multipv: usize,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// One JSON object per position.
    pub json: bool,
    /// Positions from standard input, one per line.
    pub stdin: bool,
    /// The position argument.
    pub position: Option<String>,
}

impl From<Args> for Options {
    fn from(a: Args) -> Options {
        // `analyze h8 i9 j10`: the words make one move list; none is the empty board unless the
        // positions come from standard input.
        let position = if a.position.is_empty() {
            (!a.stdin).then(String::new)
        } else {
            Some(a.position.join(" "))
        };
        Options {
            rule: a.rule,
            size: a.size,
            time: a.time.map(Duration::from_millis),
            depth: a.depth,
            nodes: a.nodes,
            multipv: a.multipv,
            threads: a.threads.clamp(1, 256),
            hash_mb: a.hash,
            json: a.json,
            stdin: a.stdin,
            position,
        }
    }
}

impl Options {
    /// The main search's limits from now, for the time left of `total` after `used`.
    fn limits(&self, start: Instant) -> Limits {
        let total = match (self.time, self.depth, self.nodes) {
            (Some(t), _, _) => Some(t),
            (None, None, None) => Some(Duration::from_millis(DEFAULT_TIME_MS)),
            _ => None,
        };
        let budget = match total {
            Some(t) => {
                let left = t.saturating_sub(start.elapsed());
                let soft_pct = if self.multipv > 1 { 50 } else { 60 };
                Budget {
                    soft: left * soft_pct / 100,
                    hard: left,
                }
            }
            None => Budget::UNLIMITED,
        };
        Limits {
            start: Instant::now(),
            budget,
            max_depth: self.depth,
            max_nodes: self.nodes,
            threads: self.threads,
        }
    }

    /// The total time per position, if any (also when only the default applies).
    fn total_time(&self) -> Option<Duration> {
        match (self.time, self.depth, self.nodes) {
            (Some(t), _, _) => Some(t),
            (None, None, None) => Some(Duration::from_millis(DEFAULT_TIME_MS)),
            _ => None,
        }
    }
}

/// A win found by a threat solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forced {
    /// `VCF` or `VCT`.
    pub kind: &'static str,
    /// The winner.
    pub side: Color,
    /// Plies to the five (a bound for a VCT: two per threat, and the four and the five).
    pub plies: i32,
    /// The line (a VCF: every move to the five; a VCT: its first move).
    pub line: Vec<Pos>,
}

/// The analysis of one position.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The position analysed.
    pub board: Board,
    /// The winner when the game is already over.
    pub over: Option<Color>,
    /// A forced win of the side to move.
    pub win: Option<Forced>,
    /// A VCF the opponent would have if it were to move (the threat to meet).
    pub threat: Option<Forced>,
    /// The best lines, best first.
    pub lines: Vec<Line>,
    /// The opening book's moves for the position, best first (shown beside the search's).
    pub book: Vec<BookMove>,
    /// Nodes of everything.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

impl Analysis {
    /// The best move: the first move of the forced win if one was found, else of the first line.
    pub fn best(&self) -> Option<Pos> {
        self.win
            .as_ref()
            .and_then(|w| w.line.first().copied())
            .or_else(|| self.lines.first().map(|l| l.best))
    }
}

/// The colour that has five in a row on the board, if any (under the board's rule).
pub fn winner(board: &Board) -> Option<Color> {
    let g = board.grid();
    for &(p, c) in board.history() {
        if board.cell(p) != Cell::stone(c) {
            continue;
        }
        for d in 0..4 {
            let (len, ends) = g.run_through(p, d, c);
            if board.rule().run_wins(c, len, ends) {
                return Some(c);
            }
        }
    }
    None
}

/// Analyses `board` for its side to move.
pub fn analyze(searcher: &mut Searcher, board: &Board, opts: &Options) -> Analysis {
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let mut a = Analysis {
        board: board.clone(),
        over: winner(board),
        win: None,
        threat: None,
        lines: Vec::new(),
        book: pentad::book::embedded().probe(board),
        nodes: 0,
        time: Duration::ZERO,
    };
    if a.over.is_some() || board.empty_count() == 0 || legal_moves(board).is_empty() {
        a.time = start.elapsed();
        return a;
    }
    let total = opts.total_time();
    let deadline = |pct: u32| total.map(|t| start + t * pct / 100);
    let nodes_for = |pct: u64| {
        opts.nodes
            .map_or(SOLVER_NODES, |n| (n * pct / 100).max(10_000))
    };
    let me = board.side_to_move();
    // A win by fours.
    let mut vcf = Vcf::new(nodes_for(50)).with_abort(Abort {
        deadline: deadline(VCF_SHARE_PCT),
        stop: &stop,
    });
    if let Some(line) = vcf.solve(&mut board.clone(), 225) {
        a.win = Some(Forced {
            kind: "VCF",
            side: me,
            plies: line.len() as i32,
            line,
        });
    }
    a.nodes += vcf.nodes();
    // A win by threats.
    if a.win.is_none() {
        let mut vct = Vct::new(nodes_for(20)).with_abort(Abort {
            deadline: deadline(VCF_SHARE_PCT + VCT_SHARE_PCT),
            stop: &stop,
        });
        if let Some((m, threats)) = vct.solve(&mut board.clone(), VCT_THREATS) {
            a.win = Some(Forced {
                kind: "VCT",
                side: me,
                plies: 2 * threats + 3,
                line: vec![m],
            });
        }
        a.nodes += vct.nodes();
    }
    // The opponent's threat: its VCF if it were to move.
    let mut other = board.clone();
    other.set_side_to_move(me.opp());
    let budget = deadline(VCF_SHARE_PCT + VCT_SHARE_PCT + THREAT_SHARE_PCT);
    let mut vcf = Vcf::new(nodes_for(10)).with_abort(Abort {
        deadline: budget,
        stop: &stop,
    });
    if let Some(line) = vcf.solve(&mut other, 225) {
        a.threat = Some(Forced {
            kind: "VCF",
            side: me.opp(),
            plies: line.len() as i32,
            line,
        });
    }
    a.nodes += vcf.nodes();
    // The main search.
    let limits = opts.limits(start);
    let limits = Limits {
        max_nodes: limits.max_nodes.map(|n| n.saturating_sub(a.nodes).max(1)),
        ..limits
    };
    a.lines = if opts.multipv > 1 {
        multipv::multipv(
            searcher,
            board,
            &limits,
            &[],
            opts.multipv,
            &stop,
            &mut |_, _, _| {},
        )
    } else {
        let o = searcher.search(board, &limits, &stop, &mut |_| {});
        if o.best.is_none() {
            vec![]
        } else {
            let mut pv = o.pv.clone();
            if pv.first() != Some(&o.best) {
                pv = vec![o.best];
            }
            vec![Line {
                best: o.best,
                score: o.score,
                depth: o.depth,
                seldepth: pv.len() as i32,
                nodes: o.nodes,
                pv,
            }]
        }
    };
    a.nodes += a.lines.iter().map(|l| l.nodes).sum::<u64>();
    a.time = start.elapsed();
    a
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn names(pv: &[Pos]) -> Vec<String> {
    pv.iter()
        .filter(|p| !p.is_none())
        .map(|&p| pos_to_str(p))
        .collect()
}

fn xy(p: Pos) -> Json {
    json!([p.x(), p.y()])
}

fn mate(v: Value) -> Option<i32> {
    is_decisive(v).then(|| if v > 0 { WIN - v } else { -(WIN + v) })
}

fn forced_json(f: &Forced) -> Json {
    json!({
        "kind": f.kind,
        "side": color_name(f.side),
        "plies": f.plies,
        "line": names(&f.line),
    })
}

/// The JSON object of an analysis (documented in the README).
pub fn to_json(a: &Analysis, id: Option<&str>, moves: Option<&str>) -> Json {
    let b = &a.board;
    let best = a.best();
    let lines: Vec<Json> = a
        .lines
        .iter()
        .map(|l| {
            json!({
                "move": pos_to_str(l.best),
                "xy": xy(l.best),
                "score": l.score,
                "eval": score_text(l.score),
                "winrate": win_probability(b.rule(), l.score),
                "mate": mate(l.score),
                "depth": l.depth,
                "pv": names(&l.pv),
            })
        })
        .collect();
    let first = a.lines.first();
    json!({
        "id": id,
        "moves": moves,
        "size": [b.width(), b.height()],
        "rule": b.rule().name(),
        "stones": b.stone_count(),
        "to_move": color_name(b.side_to_move()),
        "over": a.over.map(color_name),
        "best": best.map(pos_to_str),
        "best_xy": best.map(xy),
        "score": first.map(|l| l.score),
        "eval": first.map(|l| score_text(l.score)),
        "winrate": first.map(|l| win_probability(b.rule(), l.score)),
        "static": evaluate(b),
        "static_winrate": win_probability(b.rule(), evaluate(b)),
        "mate": first.and_then(|l| mate(l.score)),
        "depth": first.map(|l| l.depth),
        "win": a.win.as_ref().map(forced_json),
        "threat": a.threat.as_ref().map(forced_json),
        "lines": lines,
        "book": a.book.iter().map(|m| json!({
            "move": pos_to_str(m.pos),
            "xy": xy(m.pos),
            "score": m.score,
            "eval": score_text(m.score),
            "depth": m.depth,
        })).collect::<Vec<Json>>(),
        "nodes": a.nodes,
        "time_ms": a.time.as_millis() as u64,
    })
}

/// The analysis as text.
pub fn to_text(a: &Analysis, id: Option<&str>) -> String {
    let b = &a.board;
    let mut s = String::new();
    let id = id.map(|i| format!(" [{i}]")).unwrap_or_default();
    s.push_str(&format!(
        "position  {}x{} {}, {} stones, {} to move{id}\n",
        b.width(),
        b.height(),
        b.rule().name(),
        b.stone_count(),
        color_name(b.side_to_move())
    ));
    if let Some(w) = a.over {
        s.push_str(&format!("over      {} has five\n", color_name(w)));
        return s;
    }
    match &a.win {
        Some(f) => s.push_str(&format!(
            "win       {} wins by {} in {} plies: {}\n",
            color_name(f.side),
            f.kind,
            f.plies,
            names(&f.line).join(" ")
        )),
        None => s.push_str("win       none found\n"),
    }
    if let Some(f) = &a.threat {
        s.push_str(&format!(
            "threat    {} has a VCF in {} plies: {}\n",
            color_name(f.side),
            f.plies,
            names(&f.line).join(" ")
        ));
    }
    for (i, l) in a.lines.iter().enumerate() {
        s.push_str(&format!(
            "{:>2}. {:<4} {:>6} {:>3.0}%  depth {:>2}  {}\n",
            i + 1,
            pos_to_str(l.best),
            score_text(l.score),
            100.0 * win_probability(a.board.rule(), l.score),
            l.depth,
            names(&l.pv).join(" ")
        ));
    }
    if !a.book.is_empty() {
        let moves: Vec<String> = a
            .book
            .iter()
            .map(|m| {
                format!(
                    "{} {} (depth {})",
                    pos_to_str(m.pos),
                    score_text(m.score),
                    m.depth
                )
            })
            .collect();
        s.push_str(&format!("book      {}\n", moves.join(", ")));
    }
    match a.best() {
        Some(p) => s.push_str(&format!(
            "best      {} ({})  nodes {}  time {} ms\n",
            pos_to_str(p),
            p,
            a.nodes,
            a.time.as_millis()
        )),
        None => s.push_str("best      none (no legal move)\n"),
    }
    s
}

/// A position read from a command-line argument or an input line.
struct Position {
    board: Board,
    id: Option<String>,
    moves: Option<String>,
}

fn position_from(text: &str, opts: &Options) -> anyhow::Result<Position> {
    let t = text.trim();
    if t.starts_with('{') {
        let p: Puzzle = serde_json::from_str(t).context("bad JSON position")?;
        let rule = if p.rule.is_empty() {
            opts.rule.unwrap_or(Rule::Freestyle)
        } else {
            p.rule()
        };
        let board = p.board(rule)?;
        return Ok(Position {
            board,
            id: (!p.id.is_empty()).then(|| p.id.clone()),
            moves: None,
        });
    }
    let looks_like_file = t.ends_with(".psq") || t.ends_with(".sgf") || Path::new(t).is_file();
    if looks_like_file && !t.is_empty() {
        let g = GameRecord::read(Path::new(t))?;
        let mut board = g.to_board(opts.rule)?;
        if let Some((w, h)) = opts.size {
            if (w, h) != (board.width(), board.height()) {
                bail!(
                    "{t} is a {}x{} game, not {w}x{h}",
                    board.width(),
                    board.height()
                );
            }
        }
        board.set_rule(opts.rule.or(g.rule).unwrap_or(Rule::Freestyle));
        return Ok(Position {
            board,
            id: Some(t.to_string()),
            moves: None,
        });
    }
    let (w, h) = opts.size.unwrap_or((15, 15));
    let mut board =
        Board::new(w, h, opts.rule.unwrap_or(Rule::Freestyle)).map_err(|e| anyhow!("{e}"))?;
    let moves = parse_pos_moves(t).map_err(|e| anyhow!("{e}"))?;
    pentad::notation::play_moves(&mut board, &moves).map_err(|e| anyhow!("{e}"))?;
    let list: Vec<String> = board
        .history()
        .iter()
        .map(|&(p, _)| pos_to_str(p))
        .collect();
    Ok(Position {
        board,
        id: None,
        moves: Some(list.concat()),
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let opts = Options::from(args);
    let mut searcher = Searcher::new(opts.hash_mb.max(1) << 20);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut one = |text: &str, out: &mut dyn Write| -> anyhow::Result<bool> {
        match position_from(text, &opts) {
            Ok(p) => {
                searcher.clear();
                let a = analyze(&mut searcher, &p.board, &opts);
                if opts.json {
                    writeln!(out, "{}", to_json(&a, p.id.as_deref(), p.moves.as_deref()))?;
                } else {
                    write!(out, "{}", to_text(&a, p.id.as_deref()))?;
                }
                out.flush()?;
                Ok(true)
            }
            Err(e) if opts.json => {
                writeln!(
                    out,
                    "{}",
                    json!({ "input": text.trim(), "error": format!("{e:#}") })
                )?;
                out.flush()?;
                Ok(false)
            }
            Err(e) => Err(e),
        }
    };
    if let Some(p) = &opts.position {
        one(p, &mut out)?;
    }
    if opts.stdin {
        for line in std::io::stdin().lock().lines() {
            let line = line?;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            if let Err(e) = one(&line, &mut out) {
                writeln!(out, "error: {e:#}")?;
            }
            if !opts.json {
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn parse(args: &str) -> Result<Options, clap::Error> {
        let words = std::iter::once("analyze").chain(args.split_whitespace());
        Ok(<Cli as clap::Parser>::try_parse_from(words)?.args.into())
    }

    fn opts(args: &str) -> Options {
        parse(args).unwrap()
    }

    #[test]
    fn options() {
        let o = opts("h8i9 --rule renju --size 20x15 --time 300 --multipv 3 --json");
        assert_eq!(o.rule, Some(Rule::Renju));
        assert_eq!(o.size, Some((20, 15)));
        assert_eq!(o.multipv, 3);
        assert!(o.json);
        assert_eq!(o.position.as_deref(), Some("h8i9"));
        assert!(parse("--multipv 0").is_err());
        let max = multipv::MAX_NBEST;
        assert_eq!(opts(&format!("--multipv {max}")).multipv, max);
        assert!(parse(&format!("--multipv {}", max + 1)).is_err());
        assert!(parse("--bogus").is_err());
        // Words around the options make one move list; none is the empty board.
        let o = opts("h8 i9 --time 100 j10 --threads 999");
        assert_eq!(o.position.as_deref(), Some("h8 i9 j10"));
        assert_eq!(o.threads, 256);
        assert_eq!(opts("").position.as_deref(), Some(""));
        assert_eq!(opts("--stdin").position, None);
        // A repeated option: the last one counts.
        assert_eq!(opts("--rule renju --rule 0").rule, Some(Rule::Freestyle));
    }

    #[test]
    fn finds_a_vcf_and_reports_it() {
        // Black: a four on row 8 forces the block, then a double four.
        let o = opts("--depth 2 --json");
        let p = position_from("f8 e8 g8 c3 h8 m13 j10 n2 j11 b14 j12", &o).unwrap();
        assert_eq!(p.board.side_to_move(), Color::White);
        let mut b = p.board.clone();
        b.set_side_to_move(Color::Black);
        let mut s = Searcher::new(1 << 20);
        let a = analyze(&mut s, &b, &o);
        let w = a.win.clone().expect("a VCF");
        assert_eq!(w.kind, "VCF");
        assert_eq!(w.side, Color::Black);
        assert_eq!(w.plies as usize, w.line.len());
        let j = to_json(&a, Some("t"), None);
        assert_eq!(j["win"]["kind"], "VCF");
        assert_eq!(j["to_move"], "black");
        assert!(j["best"].is_string());
        let text = to_text(&a, None);
        assert!(text.contains("black wins by VCF"), "{text}");
    }

    #[test]
    fn game_over_and_errors() {
        let o = opts("--depth 1");
        let p = position_from("h8 h9 i8 i9 j8 j9 k8 k9 l8", &o).unwrap();
        let mut s = Searcher::new(1 << 20);
        let a = analyze(&mut s, &p.board, &o);
        assert_eq!(a.over, Some(Color::Black));
        assert!(a.lines.is_empty());
        assert!(position_from("h8 h8", &o).is_err());
        assert!(position_from("z99", &o).is_err());
    }

    #[test]
    fn multipv_lines() {
        let o = opts("h8 i9 --depth 2 --multipv 3");
        let p = position_from("h8 i9", &o).unwrap();
        let mut s = Searcher::new(1 << 20);
        let a = analyze(&mut s, &p.board, &o);
        assert_eq!(a.lines.len(), 3);
        let mut firsts: Vec<Pos> = a.lines.iter().map(|l| l.best).collect();
        firsts.dedup();
        assert_eq!(firsts.len(), 3);
    }
}
