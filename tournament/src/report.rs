//! Results: the JSON file a run (or a shard) writes, the summary computed from game records
//! (the same code for a run and for `merge`, so a merged set of shards gives the same tables),
//! and the text tables.

use crate::judge::Judge;
use crate::opening::Format;
use crate::record::{GameRecord, Reason};
use crate::schedule::{Kind, Shard, SymmetryMode};
use crate::spec::EngineSpec;
use crate::stats::{self, EloEstimate, SprtParams, SprtResult};
use ahash::AHashMap;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Version of the results file layout.
pub const RESULTS_VERSION: u32 = 1;

/// How a run was set up (enough to check that shards belong together).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The engines, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// `INFO rule` value.
    pub rule: i64,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// Round robin or gauntlet.
    pub schedule: Kind,
    /// Games per pairing.
    pub games_per_pairing: usize,
    /// Opening files.
    pub openings: Vec<String>,
    /// Their notation.
    pub openings_format: Format,
    /// Openings in use (after legality checks and expansion).
    pub openings_used: usize,
    /// Shuffled or in file order.
    pub openings_random: bool,
    /// Symmetry handling.
    pub symmetry: SymmetryMode,
    /// Seed of every random choice.
    pub seed: u64,
    /// Stones that draw.
    pub draw_after: usize,
    /// SIGSTOP the engine not on move.
    pub freeze: bool,
    /// Games in the whole schedule.
    pub total_games: usize,
    /// This file's shard, if any.
    pub shard: Option<Shard>,
    /// The SPRT, if any.
    pub sprt: Option<SprtParams>,
}

impl RunConfig {
    /// The fields that must agree between shards of one run.
    fn schedule_key(&self) -> String {
        let names: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
        format!(
            "engines={names:?} rule={} size={}x{} schedule={:?} games={} openings={:?} used={} random={} symmetry={:?} seed={} draw_after={} total={}",
            self.rule,
            self.width,
            self.height,
            self.schedule,
            self.games_per_pairing,
            self.openings,
            self.openings_used,
            self.openings_random,
            self.symmetry,
            self.seed,
            self.draw_after,
            self.total_games
        )
    }
}

/// The results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// Layout version.
    pub version: u32,
    /// The set-up.
    pub config: RunConfig,
    /// Why the run ended early, if it did ("sprt", "interrupted", "error: ...").
    pub stopped: Option<String>,
    /// Every finished game, by id.
    pub games: Vec<GameRecord>,
    /// Tables computed from the games.
    pub summary: Summary,
}

impl Results {
    /// Builds the file contents (sorting the games and computing the summary).
    pub fn new(config: RunConfig, mut games: Vec<GameRecord>, stopped: Option<String>) -> Results {
        games.sort_by_key(|g| g.id);
        let summary = Summary::compute(&config, &games, config.sprt);
        Results {
            version: RESULTS_VERSION,
            config,
            stopped,
            games,
            summary,
        }
    }

    /// Writes the file (via a temporary file and a rename).
    pub fn save(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(self)?)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }

    /// Reads a results file.
    pub fn load(path: &Path) -> Result<Results> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let r: Results = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a results file", path.display()))?;
        if r.version != RESULTS_VERSION {
            bail!(
                "{}: results version {} (expected {RESULTS_VERSION})",
                path.display(),
                r.version
            );
        }
        Ok(r)
    }
}

/// Combines shard results into the results of one run. The shards must come from the same
/// schedule; a game present in several files must be identical in each.
pub fn merge(parts: Vec<Results>, sprt: Option<SprtParams>) -> Result<Results> {
    let Some(first) = parts.first() else {
        bail!("nothing to merge");
    };
    let key = first.config.schedule_key();
    let mut config = first.config.clone();
    let mut games: AHashMap<usize, GameRecord> = AHashMap::new();
    let mut stopped = Vec::new();
    for (i, p) in parts.into_iter().enumerate() {
        if p.config.schedule_key() != key {
            bail!(
                "file {} is from another schedule:\n  {}\nvs\n  {}",
                i + 1,
                p.config.schedule_key(),
                key
            );
        }
        if let Some(s) = p.stopped {
            stopped.push(s);
        }
        for g in p.games {
            match games.get(&g.id) {
                Some(old) if *old != g => bail!("game {} differs between files", g.id),
                Some(_) => {}
                None => {
                    games.insert(g.id, g);
                }
            }
        }
    }
    config.shard = None;
    if sprt.is_some() {
        config.sprt = sprt;
    }
    let games: Vec<GameRecord> = games.into_values().collect();
    let stopped = (!stopped.is_empty()).then(|| stopped.join("; "));
    Ok(Results::new(config, games, stopped))
}

/// Results of one engine against some opponents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Score in percent.
    pub score_pct: f64,
    /// Elo with 95% interval.
    pub elo: Option<EloEstimate>,
    /// Likelihood of superiority.
    pub los: Option<f64>,
    /// Draws in percent.
    pub draw_pct: f64,
    /// Pentanomial counts of complete pairs (pair score 0, ½, 1, 1½, 2).
    pub pairs: [u64; 5],
    /// Wins by reason.
    pub wins_by: BTreeMap<String, u64>,
    /// Losses by reason.
    pub losses_by: BTreeMap<String, u64>,
    /// Draws by reason.
    pub draws_by: BTreeMap<String, u64>,
}

/// Thinking time of an engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Moves made.
    pub moves: u64,
    /// Mean ms per move.
    pub mean_ms: f64,
    /// 95th percentile (nearest rank), ms.
    pub p95_ms: u64,
    /// Longest move, ms.
    pub max_ms: u64,
    /// Mean match time left at the end of a game, ms (games with a match clock).
    pub left_mean_ms: Option<f64>,
    /// Least match time left at the end of a game, ms.
    pub left_min_ms: Option<i64>,
    /// Largest peak resident memory seen, bytes.
    pub peak_memory: u64,
}

/// A line of the engine table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRow {
    /// Engine name.
    pub name: String,
    /// Against all opponents.
    pub tally: Tally,
    /// Thinking time.
    pub timing: Timing,
    /// How its lines were judged.
    #[serde(default)]
    pub lines: Lines,
}

/// The lines an engine printed that its judge passed over.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Lines {
    /// Whose rule judged them.
    pub judge: Judge,
    /// Lines passed over (neither an answer, nor blank, nor recorded as a message).
    pub ignored: u64,
    /// Games in which it had at least one.
    pub games: u64,
    /// The first of them, as an example.
    pub first: Option<String>,
}

/// A line of the pairing table (from the first engine's view).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingRow {
    /// First engine.
    pub first: String,
    /// Second engine.
    pub second: String,
    /// The first engine's results against the second.
    pub tally: Tally,
}

/// Every table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Games finished.
    pub games: usize,
    /// Games in the schedule (or shard).
    pub scheduled: usize,
    /// Per engine.
    pub engines: Vec<EngineRow>,
    /// Per pairing.
    pub pairings: Vec<PairingRow>,
    /// The SPRT of the first engine against the others, on its game pairs.
    pub sprt: Option<SprtResult>,
}

/// The tally of engine `e` in the games for which `keep` holds.
pub fn tally(games: &[GameRecord], e: usize, keep: impl Fn(&GameRecord) -> bool) -> Tally {
    let mut t = Tally::default();
    let mut by_pair: AHashMap<(usize, usize), Vec<f64>> = AHashMap::new();
    for g in games.iter().filter(|g| keep(g)) {
        let Some(score) = g.score_of(e) else {
            continue;
        };
        t.games += 1;
        let reason = g.reason.name().to_string();
        if score == 1.0 {
            t.wins += 1;
            *t.wins_by.entry(reason).or_default() += 1;
        } else if score == 0.0 {
            t.losses += 1;
            *t.losses_by.entry(reason).or_default() += 1;
        } else {
            t.draws += 1;
            *t.draws_by.entry(reason).or_default() += 1;
        }
        by_pair.entry((g.pairing, g.pair)).or_default().push(score);
    }
    let mut paired_games = 0;
    for scores in by_pair.values() {
        if scores.len() == 2 {
            let idx = ((scores[0] + scores[1]) * 2.0).round() as usize;
            t.pairs[idx.min(4)] += 1;
            paired_games += 2;
        }
    }
    if t.games > 0 {
        t.score_pct = 100.0 * (t.wins as f64 + t.draws as f64 / 2.0) / t.games as f64;
        t.draw_pct = 100.0 * t.draws as f64 / t.games as f64;
    }
    // The pentanomial model needs every game in a complete pair; otherwise the trinomial.
    t.elo = if paired_games == t.games && t.games > 0 {
        stats::elo_pentanomial(t.pairs)
    } else {
        stats::elo_trinomial(t.wins, t.losses, t.draws)
    };
    t.los = stats::los(t.wins, t.losses);
    t
}

fn lines(games: &[GameRecord], e: usize, judge: Judge) -> Lines {
    let mut l = Lines {
        judge,
        ..Lines::default()
    };
    for g in games {
        let n = g.lines_ignored(e) as u64;
        if n == 0 {
            continue;
        }
        l.ignored += n;
        l.games += 1;
        if l.first.is_none() {
            let side = usize::from(g.white == e);
            l.first = g
                .moves
                .iter()
                .enumerate()
                .filter(|(i, _)| g.mover(*i) == side)
                .flat_map(|(_, m)| m.ignored.iter())
                .chain(&g.ignored_at_end[side])
                .next()
                .cloned();
        }
    }
    l
}

fn timing(games: &[GameRecord], e: usize) -> Timing {
    let mut ms = Vec::new();
    let mut left = Vec::new();
    let mut peak = 0;
    for g in games {
        let side = if g.black == e {
            0
        } else if g.white == e {
            1
        } else {
            continue;
        };
        ms.extend(
            g.moves
                .iter()
                .enumerate()
                .filter(|(i, _)| g.mover(*i) == side)
                .map(|(_, m)| m.ms),
        );
        if let Some(l) = g.time_left[side] {
            left.push(l);
        }
        peak = peak.max(g.peak_memory[side]);
    }
    let mut t = Timing {
        moves: ms.len() as u64,
        peak_memory: peak,
        ..Timing::default()
    };
    if let Some((mean, p95, max)) = stats::summary(&ms) {
        t.mean_ms = mean;
        t.p95_ms = p95;
        t.max_ms = max;
    }
    if !left.is_empty() {
        t.left_mean_ms = Some(left.iter().sum::<i64>() as f64 / left.len() as f64);
        t.left_min_ms = left.iter().min().copied();
    }
    t
}

impl Summary {
    /// All tables from the games.
    pub fn compute(config: &RunConfig, games: &[GameRecord], sprt: Option<SprtParams>) -> Summary {
        let n = config.engines.len();
        let engines = (0..n)
            .map(|e| EngineRow {
                name: config.engines[e].name.clone(),
                tally: tally(games, e, |_| true),
                timing: timing(games, e),
                lines: lines(games, e, config.engines[e].judge),
            })
            .collect();
        let pairs = crate::schedule::pairings(n, config.schedule);
        let pairings = pairs
            .iter()
            .enumerate()
            .map(|(pi, &(a, b))| PairingRow {
                first: config.engines[a].name.clone(),
                second: config.engines[b].name.clone(),
                tally: tally(games, a, |g| g.pairing == pi),
            })
            .collect();
        let sprt = sprt.map(|p| stats::sprt(p, tally(games, 0, |_| true).pairs));
        let scheduled = match config.shard {
            Some(s) => (0..config.total_games).filter(|&i| s.contains(i)).count(),
            None => config.total_games,
        };
        Summary {
            games: games.len(),
            scheduled,
            engines,
            pairings,
            sprt,
        }
    }
}

fn fmt_elo(e: &Option<EloEstimate>) -> (String, String) {
    match e {
        None => ("-".into(), "-".into()),
        Some(e) => {
            let elo = match e.elo {
                Some(v) => format!("{v:+.1}"),
                None if e.score >= 1.0 => "+inf".into(),
                None => "-inf".into(),
            };
            let err = match e.error {
                Some(v) => format!("±{v:.1}"),
                None => "±inf".into(),
            };
            (elo, err)
        }
    }
}

fn inf(positive: bool) -> String {
    if positive { "+inf" } else { "-inf" }.into()
}

fn reasons(m: &BTreeMap<String, u64>) -> String {
    if m.is_empty() {
        return "-".into();
    }
    // In the order of Reason::ALL.
    Reason::ALL
        .iter()
        .filter_map(|r| m.get(r.name()).map(|n| format!("{} {n}", r.name())))
        .collect::<Vec<_>>()
        .join(", ")
}

fn tally_line(name: &str, t: &Tally, width: usize) -> String {
    let (elo, err) = fmt_elo(&t.elo);
    let los = t.los.map_or("-".into(), |l| format!("{:.1}%", l * 100.0));
    format!(
        "{name:<width$} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>8} {:>7} {:>7} {:>6.1}%\n",
        t.games, t.wins, t.losses, t.draws, t.score_pct, elo, err, los, t.draw_pct
    )
}

/// The text report: engine table, pairing table, reasons, timing, SPRT.
pub fn render(r: &Results) -> String {
    let s = &r.summary;
    let mut out = String::new();
    let c = &r.config;
    let _ = writeln!(
        out,
        "{} games of {} ({}{}), rule {} ({}), {}x{}{}",
        s.games,
        s.scheduled,
        match c.schedule {
            Kind::RoundRobin => "round robin",
            Kind::Gauntlet => "gauntlet",
        },
        c.shard
            .map_or(String::new(), |sh| format!(", shard {}/{}", sh.k, sh.n)),
        c.rule,
        pentad::Rule::from_info(c.rule).name(),
        c.width,
        c.height,
        r.stopped
            .as_ref()
            .map_or(String::new(), |s| format!(", stopped: {s}"))
    );
    let w = s
        .engines
        .iter()
        .map(|e| e.name.len())
        .chain(
            s.pairings
                .iter()
                .map(|p| p.first.len() + p.second.len() + 4),
        )
        .max()
        .unwrap_or(4)
        .max(6);
    let header = format!(
        "{:<w$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>7} {:>7} {:>7}\n",
        "", "games", "W", "L", "D", "score", "Elo", "95%", "LOS", "draws"
    );
    out.push_str("\nEngines (each against all its opponents)\n");
    out.push_str(&header);
    for e in &s.engines {
        out.push_str(&tally_line(&e.name, &e.tally, w));
    }
    if s.pairings.len() > 1 || s.engines.len() > 2 {
        out.push_str("\nPairings (first engine's view)\n");
        out.push_str(&header);
        for p in &s.pairings {
            out.push_str(&tally_line(
                &format!("{} vs {}", p.first, p.second),
                &p.tally,
                w,
            ));
        }
    }
    out.push_str("\nResults by reason\n");
    for e in &s.engines {
        let t = &e.tally;
        let _ = writeln!(
            out,
            "{:<w$} wins: {} | losses: {} | draws: {}",
            e.name,
            reasons(&t.wins_by),
            reasons(&t.losses_by),
            reasons(&t.draws_by)
        );
    }
    out.push_str("\nThinking time per move and clock\n");
    for e in &s.engines {
        let t = &e.timing;
        let left = match (t.left_mean_ms, t.left_min_ms) {
            (Some(m), Some(n)) => format!("time left at end mean {m:.0} ms, min {n} ms"),
            _ => "no match clock".into(),
        };
        let _ = writeln!(
            out,
            "{:<w$} {} moves, mean {:.0} ms, p95 {} ms, max {} ms; {left}; peak memory {:.1} MiB",
            e.name,
            t.moves,
            t.mean_ms,
            t.p95_ms,
            t.max_ms,
            t.peak_memory as f64 / (1 << 20) as f64
        );
    }
    out.push_str("\nLines before the answers (each engine judged as its manager would)\n");
    for e in &s.engines {
        let l = &e.lines;
        let first = l
            .first
            .as_ref()
            .map_or(String::new(), |f| format!(", first: '{f}'"));
        let _ = writeln!(
            out,
            "{:<w$} judge {}: lines ignored {} (in {} games){first}",
            e.name,
            l.judge.name(),
            l.ignored,
            l.games
        );
    }
    for e in s.engines.iter().take(1) {
        let t = &e.tally;
        if let Some(est) = &t.elo {
            let _ = writeln!(
                out,
                "\n{}: Elo {} [{}, {}] ({} model), LOS {}, pairs (0, ½, 1, 1½, 2 points) {:?}",
                e.name,
                fmt_elo(&t.elo).0,
                // An end is infinite on the side of the score (a zero-variance sweep).
                est.low
                    .map_or(inf(est.score >= 1.0), |v| format!("{v:+.1}")),
                est.high
                    .map_or(inf(est.score > 0.0), |v| format!("{v:+.1}")),
                est.model,
                t.los.map_or("-".into(), |l| format!("{:.1}%", l * 100.0)),
                t.pairs
            );
        }
    }
    if let Some(sp) = &s.sprt {
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] on {} pairs -> {}",
            sp.params.elo0,
            sp.params.elo1,
            sp.params.alpha,
            sp.params.beta,
            sp.llr,
            sp.lower,
            sp.upper,
            sp.pairs.iter().sum::<u64>(),
            match sp.decision.as_str() {
                "H1" => "H1 accepted",
                "H0" => "H0 accepted",
                _ => "no decision yet",
            }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{MoveRecord, Winner};

    fn config(n: usize) -> RunConfig {
        let engines = (0..n)
            .map(|i| {
                let mut e = EngineSpec::template();
                e.name = format!("e{i}");
                e.cmd = "x".into();
                e
            })
            .collect();
        RunConfig {
            engines,
            rule: 0,
            width: 15,
            height: 15,
            schedule: Kind::RoundRobin,
            games_per_pairing: 4,
            openings: vec![],
            openings_format: Format::Auto,
            openings_used: 0,
            openings_random: false,
            symmetry: SymmetryMode::None,
            seed: 1,
            draw_after: 225,
            freeze: false,
            total_games: 4,
            shard: None,
            sprt: Some(SprtParams {
                elo0: 0.0,
                elo1: 10.0,
                alpha: 0.05,
                beta: 0.05,
            }),
        }
    }

    fn game(id: usize, pair: usize, black: usize, winner: Winner, reason: Reason) -> GameRecord {
        GameRecord {
            id,
            pairing: 0,
            pair,
            black,
            white: 1 - black,
            black_name: format!("e{black}"),
            white_name: format!("e{}", 1 - black),
            width: 15,
            height: 15,
            rule: 0,
            opening_source: String::new(),
            symmetry: "identity".into(),
            opening: vec![],
            moves: vec![
                MoveRecord {
                    x: 0,
                    y: 0,
                    ms: 10 * (id as u64 + 1),
                    messages: vec![],
                    ignored: vec![format!("DEBUG {id}")],
                },
                MoveRecord {
                    x: 1,
                    y: 0,
                    ms: 5,
                    messages: vec![],
                    ignored: vec![],
                },
            ],
            winner,
            reason,
            detail: String::new(),
            time_left: [Some(1000 - id as i64), Some(900)],
            peak_memory: [1 << 20, 2 << 20],
            ignored_at_end: Default::default(),
            duration_ms: 1,
        }
    }

    fn four() -> Vec<GameRecord> {
        vec![
            game(0, 0, 0, Winner::Black, Reason::Five),    // e0 wins
            game(1, 0, 1, Winner::Draw, Reason::Draw),     // draw
            game(2, 1, 0, Winner::White, Reason::Timeout), // e0 loses on time
            game(3, 1, 1, Winner::White, Reason::Five),    // e0 (white) wins
        ]
    }

    #[test]
    fn tallies_pairs_and_reasons() {
        let games = four();
        let t = tally(&games, 0, |_| true);
        assert_eq!((t.games, t.wins, t.losses, t.draws), (4, 2, 1, 1));
        assert_eq!(t.score_pct, 62.5);
        // Pair 0: 1 + ½ = 1½ points -> index 3; pair 1: 0 + 1 = 1 point -> index 2.
        assert_eq!(t.pairs, [0, 0, 1, 1, 0]);
        assert_eq!(t.elo.as_ref().unwrap().model, "pentanomial");
        assert_eq!(t.wins_by.get("five"), Some(&2));
        assert_eq!(t.losses_by.get("timeout"), Some(&1));
        let o = tally(&games, 1, |_| true);
        assert_eq!((o.wins, o.losses, o.draws), (1, 2, 1));
        assert_eq!(o.pairs, [0, 1, 1, 0, 0]);
        // An incomplete pair falls back to the trinomial model.
        let t3 = tally(&games[..3], 0, |_| true);
        assert_eq!(t3.elo.as_ref().unwrap().model, "trinomial");
        assert_eq!(t3.pairs, [0, 0, 0, 1, 0]);
    }

    #[test]
    fn timing_of_each_engine() {
        let games = four();
        let t = timing(&games, 0);
        // e0 is black in games 0 and 2 (moves 0: 10 and 30 ms) and white in 1 and 3 (move 1: 5).
        assert_eq!(t.moves, 4);
        assert_eq!(t.max_ms, 30);
        assert_eq!(t.mean_ms, (10.0 + 30.0 + 5.0 + 5.0) / 4.0);
        assert_eq!(t.left_min_ms, Some(900));
        assert_eq!(t.peak_memory, 2 << 20);
        // Move 0 (black's) has one ignored line in every game; e0 is black in games 0 and 2.
        let l = lines(&games, 0, Judge::GomocupJudge);
        assert_eq!((l.ignored, l.games), (2, 2));
        assert_eq!(l.first.as_deref(), Some("DEBUG 0"));
        assert_eq!(
            lines(&games, 1, Judge::Piskvork).first.as_deref(),
            Some("DEBUG 1")
        );
    }

    #[test]
    fn shard_merge_equals_one_run() {
        let cfg = config(2);
        let whole = Results::new(cfg.clone(), four(), None);
        let mut parts = Vec::new();
        for k in 1..=3 {
            let shard = Shard { k, n: 3 };
            let mut c = cfg.clone();
            c.shard = Some(shard);
            let games: Vec<_> = four()
                .into_iter()
                .filter(|g| shard.contains(g.id))
                .collect();
            let r = Results::new(c, games, None);
            // Through JSON, as the files are.
            let text = serde_json::to_string(&r).unwrap();
            parts.push(serde_json::from_str::<Results>(&text).unwrap());
        }
        assert_eq!(parts[0].summary.scheduled, 2);
        let merged = merge(parts, None).unwrap();
        assert_eq!(merged.games, whole.games);
        assert_eq!(merged.summary, whole.summary);
        assert_eq!(render(&merged), render(&whole));
        // Files from another schedule are refused.
        let mut other = cfg.clone();
        other.seed = 2;
        let a = Results::new(cfg.clone(), four(), None);
        let b = Results::new(other, four(), None);
        assert!(merge(vec![a, b], None).is_err());
    }

    #[test]
    fn rendering() {
        let r = Results::new(config(2), four(), None);
        let text = render(&r);
        assert!(text.contains("e0"), "{text}");
        assert!(text.contains("losses: five 1, timeout 1") || text.contains("losses: timeout 1"));
        assert!(text.contains("SPRT elo0=0 elo1=10"), "{text}");
        assert!(
            text.lines().any(|l| l.starts_with("e0 ")
                && l.ends_with(
                    "judge gomocupjudge: lines ignored 2 (in 2 games), first: 'DEBUG 0'"
                )),
            "{text}"
        );
    }
}
