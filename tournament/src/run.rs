//! The command line and the tournament loop: workers play games from a shared queue (within
//! the core budget), the main thread saves each game, keeps the live progress line, runs the
//! SPRT and writes the results.

use crate::engine::{kill_all_engines, SpawnOptions};
use crate::game::Game;
use crate::iolog::IoLog;
use crate::judge::Judge;
use crate::opening::{self, Format, Opening};
use crate::play::{play_game, Job, Pool, Settings};
use crate::record::GameRecord;
use crate::report::{self, render, Results, RunConfig};
use crate::schedule::{self, Kind, Shard, SymmetryMode};
use crate::spec::{parse_bytes, parse_ms, EngineSpec, Restart};
use crate::stats::{self, SprtParams};
use ahash::AHashSet;
use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgAction, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use pentad::Rule;
use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Opening order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Order {
    /// File order.
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// pentad-tournament: plays pbrain (Gomocup protocol) engines against each other.
#[derive(Parser, Debug)]
#[command(
    name = "pentad-tournament",
    version,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// `merge` combines shard results.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of a run.
    #[command(flatten)]
    pub run: RunArgs,
}

impl Cli {
    /// Parses a command line, keeping each `--engine`'s values together.
    pub fn parse_from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        if cli.command.is_none() {
            if let Ok(Some(occ)) = matches.try_get_occurrences::<String>("engine") {
                cli.run.engine_groups = occ.map(|o| o.cloned().collect()).collect();
            }
        }
        Ok(cli)
    }
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Combine the results.json files of shards (--shard k/n) into the tables of one run.
    Merge(MergeArgs),
}

/// `merge` options.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// results.json files (or directories holding one).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged results to this JSON file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the SPRT of the shards: elo0=.. elo1=.. alpha=.. beta=..
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
}

/// Options of a run.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// An engine: name=N cmd="PROGRAM ARGS" [dir=D] [turn=MS|none] [match=MS] [inc=MS]
    /// [tolerance=MS] [memory=BYTES] [threads=N] [depth=N] [nodes=N] [option.KEY=VALUE]
    /// [restart=fresh|reuse] [board-every-move] [judge=PROFILE]. Give it once per engine.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = ArgAction::Append)]
    pub engine: Vec<String>,
    /// The --engine values grouped by occurrence (filled by [`Cli::parse_from_args`]).
    #[arg(skip)]
    pub engine_groups: Vec<Vec<String>>,
    /// Engine options applied to every engine before its own (same keys as --engine).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Rule: 0 freestyle, 1 standard, 4 renju, 8 caro, 9 exact-five caro (or a name).
    #[arg(long, default_value = "0")]
    pub rule: String,
    /// Board size: N (5..32) or WxH.
    #[arg(long, default_value = "15")]
    pub size: String,
    /// Games per pairing (pairs of games share an opening with colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Who plays whom.
    #[arg(long, value_enum, default_value_t = Kind::RoundRobin)]
    pub schedule: Kind,
    /// Same as --schedule gauntlet (the first engine against each other one).
    #[arg(long)]
    pub gauntlet: bool,
    /// Opening file (repeatable): offset lines `dx,dy, ...` or pos lines `h8i9...`.
    #[arg(long = "openings", value_name = "FILE")]
    pub openings: Vec<PathBuf>,
    /// Notation of the opening files.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub openings_format: Format,
    /// Opening order.
    #[arg(long, value_enum, default_value_t = Order::Sequential)]
    pub openings_order: Order,
    /// Board symmetries: none, random (seeded, per pair of games), expand (every distinct image).
    #[arg(long, value_enum, default_value_t = SymmetryMode::None)]
    pub symmetry: SymmetryMode,
    /// Seed of the opening order and symmetries (must be equal in every shard).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw when this many stones are on the board (default: 25 empty squares left for renju,
    /// i.e. 200 on 15x15 as GomocupJudge; the full board otherwise).
    #[arg(long)]
    pub draw_after: Option<usize>,
    /// Default timeout_turn in ms (or "none").
    #[arg(long, default_value = "5000")]
    pub turn: String,
    /// Default timeout_match in ms (0 = unlimited).
    #[arg(long = "match", default_value = "120000")]
    pub match_ms: String,
    /// Default increment per move in ms.
    #[arg(long, default_value = "0")]
    pub inc: String,
    /// Default tolerance in ms: a move later than tolerance + min(time_left, turn) loses.
    #[arg(long, default_value = "1000")]
    pub tolerance: String,
    /// Default max_memory in bytes (suffixes K/M/G), also the enforced limit; 0 = none.
    #[arg(long, default_value = "367001600")]
    pub memory: String,
    /// Default thread_num.
    #[arg(long, default_value_t = 1)]
    pub threads: u32,
    /// Default process handling: fresh (a process per game) or reuse.
    #[arg(long, value_enum, default_value_t = Restart::Fresh)]
    pub restart: Restart,
    /// Send BOARD before every move (default: BOARD or BEGIN first, then TURN).
    #[arg(long)]
    pub board_every_move: bool,
    /// Default judge of the lines an engine prints before its OK and moves: the rule of
    /// Piskvork (strictest: any stray line loses), c-gomoku-cli, GomocupJudge (the Gomocup
    /// referee: stray lines are ignored, the clock runs on) or GomocupJudgeLocal.
    #[arg(long, value_enum, default_value_t = Judge::GomocupJudge)]
    pub judge: Judge,
    /// How long to wait for the answers to ABOUT and START, ms.
    #[arg(long, default_value = "5000")]
    pub start_timeout: String,
    /// Suspend (SIGSTOP) the engine that is not on move, as GomocupJudge does.
    #[arg(long)]
    pub freeze: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Allow more engine threads than cores.
    #[arg(long)]
    pub oversubscribe: bool,
    /// Directory for results.json, games.jsonl and the games (.psq, .sgf).
    #[arg(long, default_value = "tournament-out")]
    pub out: PathBuf,
    /// Log every line sent and received to this file.
    #[arg(long)]
    pub log_io: Option<PathBuf>,
    /// SPRT on the first engine's game pairs: elo0=0 elo1=10 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Play only shard k of n (games with index mod n == k-1); `merge` combines the shards.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// End the lines sent with CR LF (as Piskvork and GomocupJudge) instead of LF.
    #[arg(long)]
    pub crlf: bool,
    /// Let the engines' stderr through (default: discarded).
    #[arg(long)]
    pub engine_stderr: bool,
    /// Do not send ABOUT to new processes.
    #[arg(long)]
    pub no_about: bool,
    /// Do not enforce the memory limit (it is still sent as INFO max_memory).
    #[arg(long)]
    pub no_memory_check: bool,
    /// Do not write .psq/.sgf files.
    #[arg(long)]
    pub no_game_files: bool,
}

static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_signal(_: libc::c_int) {
    if INTERRUPTS.fetch_add(1, Ordering::SeqCst) >= 1 {
        // Second Ctrl-C: leave now (engines die with us through PR_SET_PDEATHSIG).
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
}

fn install_signal_handlers() {
    // SAFETY: installing a handler that only touches an atomic (and may _exit).
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}

/// Parses `N` or `WxH`.
pub fn parse_size(s: &str) -> Result<(usize, usize)> {
    let s = s.trim().to_ascii_lowercase();
    let (w, h) = match s.split_once('x') {
        Some((w, h)) => (w.trim().parse(), h.trim().parse()),
        None => (s.parse(), s.parse()),
    };
    let (w, h): (usize, usize) = (
        w.map_err(|_| anyhow!("bad size '{s}'"))?,
        h.map_err(|_| anyhow!("bad size '{s}'"))?,
    );
    let ok = |v: usize| (pentad::types::MIN_SIDE..=pentad::types::MAX_SIDE).contains(&v);
    if !ok(w) || !ok(h) {
        bail!(
            "board size {w}x{h}: sides must be {} to {}",
            pentad::types::MIN_SIDE,
            pentad::types::MAX_SIDE
        );
    }
    Ok((w, h))
}

/// The engine descriptions from the command line.
pub fn engine_specs(a: &RunArgs) -> Result<Vec<EngineSpec>> {
    let mut t = EngineSpec::template();
    t.turn_ms = if a.turn == "none" {
        None
    } else {
        Some(parse_ms(&a.turn)?)
    };
    t.match_ms = parse_ms(&a.match_ms)?;
    t.inc_ms = parse_ms(&a.inc)?;
    t.tolerance_ms = parse_ms(&a.tolerance)?;
    t.memory = parse_bytes(&a.memory)?;
    t.threads = a.threads.max(1);
    t.restart = a.restart;
    t.board_every_move = a.board_every_move;
    t.judge = a.judge;
    t.apply(&a.each).context("--each")?;
    let mut out = Vec::new();
    let mut names = AHashSet::new();
    for toks in &a.engine_groups {
        let mut e = t.clone();
        e.apply(toks)?;
        e.validate()?;
        if !names.insert(e.name.clone()) {
            bail!("two engines are named '{}'", e.name);
        }
        out.push(e);
    }
    if out.len() < 2 {
        bail!("give at least two engines (--engine name=A cmd=... --engine name=B cmd=...)");
    }
    Ok(out)
}

/// Loads, checks, expands and orders the openings.
fn load_openings(a: &RunArgs, width: usize, height: usize, rule: Rule) -> Result<Vec<Opening>> {
    let mut all = Vec::new();
    for f in &a.openings {
        all.extend(opening::load_file(f, a.openings_format, width, height)?);
    }
    if a.openings.is_empty() {
        return Ok(all);
    }
    let (mut ok, bad) = opening::check_legal(all, width, height, rule, a.draw_after)?;
    for (o, why) in &bad {
        log::warn!("opening {} skipped: {why}", o.source);
    }
    if ok.is_empty() {
        bail!(
            "no usable opening (all {} were refused under rule {})",
            bad.len(),
            rule.name()
        );
    }
    if a.symmetry == SymmetryMode::Expand {
        ok = opening::expand_symmetries(&ok, width, height);
    }
    if a.openings_order == Order::Random {
        opening::shuffle(&mut ok, a.seed);
    }
    Ok(ok)
}

/// A counting semaphore for the cores the engines may use.
struct Cores {
    free: Mutex<usize>,
    cv: Condvar,
}

impl Cores {
    fn take(&self, n: usize) {
        let mut f = self.free.lock().unwrap();
        while *f < n {
            f = self.cv.wait(f).unwrap();
        }
        *f -= n;
    }
    fn give(&self, n: usize) {
        *self.free.lock().unwrap() += n;
        self.cv.notify_all();
    }
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

fn progress_line(
    cfg: &RunConfig,
    games: &[GameRecord],
    scheduled: usize,
    started: Instant,
    sprt: Option<SprtParams>,
) -> String {
    let t = report::tally(games, 0, |_| true);
    let done = games.len();
    let mut s = format!(
        "[{done}/{scheduled}] {}: +{} -{} ={} {:.1}%",
        cfg.engines[0].name, t.wins, t.losses, t.draws, t.score_pct
    );
    if let Some(e) = &t.elo {
        match (e.elo, e.error) {
            (Some(v), Some(err)) => s.push_str(&format!(" Elo {v:+.0} ±{err:.0}")),
            (Some(v), None) => s.push_str(&format!(" Elo {v:+.0}")),
            (None, _) if e.score >= 1.0 => s.push_str(" Elo +inf"),
            (None, _) => s.push_str(" Elo -inf"),
        }
    }
    if let Some(p) = sprt {
        let r = stats::sprt(p, t.pairs);
        s.push_str(&format!(
            " LLR {:.2} [{:.2},{:.2}]",
            r.llr, r.lower, r.upper
        ));
    }
    if done > 0 && done < scheduled {
        let el = started.elapsed();
        let eta = el.mul_f64((scheduled - done) as f64 / done as f64);
        s.push_str(&format!(" ETA {}", fmt_duration(eta)));
    }
    s
}

/// Runs a tournament; returns the process exit code.
pub fn run(a: RunArgs) -> Result<i32> {
    let engines = engine_specs(&a)?;
    let rule = Rule::parse(&a.rule).ok_or_else(|| anyhow!("unknown rule '{}'", a.rule))?;
    let (width, height) = parse_size(&a.size)?;
    let kind = if a.gauntlet {
        Kind::Gauntlet
    } else {
        a.schedule
    };
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let shard = a
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let sprt = a
        .sprt
        .as_ref()
        .map(|t| SprtParams::parse(t))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let openings = load_openings(&a, width, height, rule)?;
    let draw_after = Game::new(width, height, rule, a.draw_after)
        .map_err(anyhow::Error::msg)?
        .draw_after();
    let jobs = schedule::build(
        engines.len(),
        kind,
        a.games,
        &openings,
        a.symmetry,
        a.seed,
        (width, height),
    );
    let total = jobs.len();
    let jobs: VecDeque<Job> = jobs
        .into_iter()
        .filter(|j| shard.is_none_or(|s| s.contains(j.id)))
        .collect();
    let config = RunConfig {
        engines: engines.clone(),
        rule: rule.info_value(),
        width,
        height,
        schedule: kind,
        games_per_pairing: a.games,
        openings: a.openings.iter().map(|p| p.display().to_string()).collect(),
        openings_format: a.openings_format,
        openings_used: openings.len(),
        openings_random: a.openings_order == Order::Random,
        symmetry: a.symmetry,
        seed: a.seed,
        draw_after,
        freeze: a.freeze,
        total_games: total,
        shard,
        sprt,
    };
    let scheduled = jobs.len();

    std::fs::create_dir_all(a.out.join("games"))
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let log = match &a.log_io {
        Some(p) => Some(Arc::new(
            IoLog::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };
    let settings = Settings {
        width,
        height,
        rule,
        draw_after: Some(draw_after),
        freeze: a.freeze,
        start_timeout: Duration::from_millis(parse_ms(&a.start_timeout)?),
        end_grace: Duration::from_millis(500),
        memory_check: !a.no_memory_check,
        about: !a.no_about,
        spawn: SpawnOptions {
            crlf: a.crlf,
            stderr: a.engine_stderr,
            log,
        },
    };

    // Cores: a game costs the larger thread count of its two engines (only the side to move
    // thinks; engines that ponder should be run with --freeze).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let game_cost = |j: &Job| -> usize {
        (engines[j.black].threads.max(engines[j.white].threads) as usize).clamp(1, cores)
    };
    let concurrency = a.concurrency.max(1).min(scheduled.max(1));
    if !a.oversubscribe {
        let max_cost = jobs.iter().map(game_cost).max().unwrap_or(1);
        if concurrency * max_cost > cores {
            log::warn!(
                "{concurrency} games at once with up to {max_cost} engine threads each exceed {cores} cores: games wait for free cores (--oversubscribe to allow it)"
            );
        }
    }
    let core_pool = Cores {
        free: Mutex::new(cores),
        cv: Condvar::new(),
    };

    install_signal_handlers();
    let show_progress = !a.quiet && std::io::stderr().is_terminal();
    let jsonl_path = a.out.join("games.jsonl");
    let mut jsonl = std::fs::File::create(&jsonl_path)
        .with_context(|| format!("cannot create {}", jsonl_path.display()))?;
    let queue = Mutex::new(jobs);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut stopped: Option<String> = None;
    let event = if let Some(s) = shard {
        format!("pentad-tournament shard {}/{}", s.k, s.n)
    } else {
        "pentad-tournament".to_string()
    };

    let (tx, rx) = channel::<Result<GameRecord>>();
    std::thread::scope(|scope| {
        for w in 0..concurrency {
            let tx = tx.clone();
            let (queue, stop, engines, settings, core_pool) =
                (&queue, &stop, &engines, &settings, &core_pool);
            let oversubscribe = a.oversubscribe;
            std::thread::Builder::new()
                .name(format!("worker-{w}"))
                .spawn_scoped(scope, move || {
                    let mut pool = Pool::default();
                    loop {
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                        let Some(job) = queue.lock().unwrap().pop_front() else {
                            break;
                        };
                        let cost = game_cost(&job);
                        if !oversubscribe {
                            core_pool.take(cost);
                        }
                        if stop.load(Ordering::SeqCst) {
                            if !oversubscribe {
                                core_pool.give(cost);
                            }
                            break;
                        }
                        let r = play_game(&job, engines, settings, &mut pool);
                        if !oversubscribe {
                            core_pool.give(cost);
                        }
                        let failed = r.is_err();
                        if tx.send(r).is_err() || failed {
                            break;
                        }
                    }
                    pool.shutdown(settings.end_grace);
                })
                .expect("worker thread");
        }
        drop(tx);
        let mut last_draw = Instant::now() - Duration::from_secs(10);
        loop {
            let msg = rx.recv_timeout(Duration::from_millis(200));
            if INTERRUPTS.load(Ordering::SeqCst) > 0 {
                if stopped.is_none() {
                    stopped = Some("interrupted".into());
                    stop.store(true, Ordering::SeqCst);
                    eprintln!("\ninterrupted: stopping the engines (Ctrl-C again to quit now)");
                }
                kill_all_engines();
            }
            match msg {
                Ok(Ok(rec)) => {
                    if stopped.as_deref() == Some("interrupted") {
                        continue; // games cut short by the interrupt do not count
                    }
                    let _ = writeln!(jsonl, "{}", serde_json::to_string(&rec).unwrap_or_default());
                    if !a.no_game_files {
                        let stem = a.out.join("games").join(rec.file_stem());
                        if let Err(e) = std::fs::write(stem.with_extension("psq"), rec.to_psq())
                            .and_then(|_| {
                                std::fs::write(stem.with_extension("sgf"), rec.to_sgf(&event))
                            })
                        {
                            log::warn!("cannot write game {}: {e}", rec.id);
                        }
                    }
                    log::info!(
                        "game {} {} vs {}: {} {} {}",
                        rec.id,
                        rec.black_name,
                        rec.white_name,
                        rec.result_text(),
                        rec.reason.name(),
                        rec.detail
                    );
                    games.push(rec);
                    if let (Some(p), None) = (sprt, shard) {
                        let t = report::tally(&games, 0, |_| true);
                        let r = stats::sprt(p, t.pairs);
                        if r.decision != "continue" && stopped.is_none() {
                            stopped = Some(format!("sprt {}", r.decision));
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    if show_progress {
                        let line = progress_line(&config, &games, scheduled, started, sprt);
                        eprint!("\r\x1b[2K{line}");
                        last_draw = Instant::now();
                    }
                }
                Ok(Err(e)) => {
                    if stopped.is_none() {
                        stopped = Some(format!("error: {e:#}"));
                    }
                    log::error!("{e:#}");
                    stop.store(true, Ordering::SeqCst);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if show_progress && last_draw.elapsed() >= Duration::from_secs(1) {
                        let line = progress_line(&config, &games, scheduled, started, sprt);
                        eprint!("\r\x1b[2K{line}");
                        last_draw = Instant::now();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    kill_all_engines();

    let errored = stopped.as_deref().is_some_and(|s| s.starts_with("error"));
    let interrupted = stopped.as_deref() == Some("interrupted");
    let results = Results::new(config, games, stopped);
    let path = a.out.join("results.json");
    results.save(&path)?;
    save_summary(&results, &a.out.join("summary.json"))?;
    print!("{}", render(&results));
    println!("results: {}", path.display());
    Ok(if errored {
        1
    } else if interrupted {
        130
    } else {
        0
    })
}

/// Writes `summary.json`: the set-up and the tables without the games (small, for scripts).
fn save_summary(r: &Results, path: &Path) -> Result<()> {
    let v = serde_json::json!({
        "version": r.version,
        "config": r.config,
        "stopped": r.stopped,
        "summary": r.summary,
    });
    std::fs::write(path, serde_json::to_string_pretty(&v)?)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `merge`: reads shard results and prints (and optionally writes) the combined tables.
pub fn merge_cmd(m: MergeArgs) -> Result<i32> {
    let mut parts = Vec::new();
    for f in &m.files {
        let path = if f.is_dir() {
            f.join("results.json")
        } else {
            f.clone()
        };
        parts.push(Results::load(&path)?);
    }
    let sprt = m
        .sprt
        .as_ref()
        .map(|t| SprtParams::parse(t))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let merged = report::merge(parts, sprt)?;
    if let Some(out) = &m.out {
        merged.save(out)?;
    }
    print!("{}", render(&merged));
    if merged.summary.games < merged.summary.scheduled {
        println!(
            "note: {} of {} scheduled games are in these files",
            merged.summary.games, merged.summary.scheduled
        );
    }
    Ok(0)
}

/// Entry point shared by the binary.
pub fn main_with(cli: Cli) -> Result<i32> {
    match cli.command {
        Some(Command::Merge(m)) => merge_cmd(m),
        None => run(cli.run),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("15").unwrap(), (15, 15));
        assert_eq!(parse_size("20x15").unwrap(), (20, 15));
        assert!(parse_size("4").is_err());
        assert!(parse_size("33").is_err());
        assert!(parse_size("ax3").is_err());
    }

    #[test]
    fn command_line() {
        let cli = Cli::parse_from_args([
            "pentad-tournament",
            "--engine",
            "name=a",
            "cmd=/bin/a -x",
            "turn=200",
            "--engine",
            "name=b",
            "cmd=/bin/b",
            "--each",
            "threads=2",
            "--rule",
            "4",
            "--games",
            "10",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "--judge",
            "piskvork",
        ])
        .unwrap();
        assert!(cli.command.is_none());
        let specs = engine_specs(&cli.run).unwrap();
        assert_eq!(specs.len(), 2);
        assert_eq!(specs[0].turn_ms, Some(200));
        assert_eq!(specs[1].turn_ms, Some(5000));
        assert_eq!(specs[1].threads, 2);
        assert_eq!(specs[0].judge, Judge::Piskvork);
        assert_eq!(cli.run.sprt.as_ref().unwrap().len(), 2);
        let cli = Cli::parse_from_args(["pentad-tournament", "merge", "a.json", "b.json"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Merge(_))));
        // Duplicate names and a lone engine are refused.
        let cli = Cli::parse_from_args([
            "t", "--engine", "name=a", "cmd=x", "--engine", "name=a", "cmd=y",
        ])
        .unwrap();
        assert!(engine_specs(&cli.run).is_err());
        let cli = Cli::parse_from_args(["t", "--engine", "name=a", "cmd=x"]).unwrap();
        assert!(engine_specs(&cli.run).is_err());
    }
}
