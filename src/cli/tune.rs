//! `pbrain-pentad tune`: fits one rule family's evaluation tables (`pentad::eval`) to games
//! played with the tournament runner, by logistic regression.
//!
//! Each position reduces to counts of combinations and one threat entry (`eval::features`);
//! the evaluation is linear in the table entries, and the fit minimises the cross-entropy of
//! `sigmoid(eval / K)` against a label that blends the game's result (1 win, ½ draw, 0 loss,
//! for the side to move) with the engine's searched score of the move it played there
//! (`sigmoid(score / K)`; the score is the last `MESSAGE depth … score S` the runner recorded).
//! K is fitted to the starting tables first, so the new ones keep the evaluation's scale, and
//! an L2 penalty holds every entry near its start (entries the data rarely sees keep their
//! value). Positions where either side can make five, or the side to move has an open four or a
//! four-three, are left out: the search decides those. Every tenth game is held out; the
//! command reports the error there before and after.
//!
//! ```text
//! pbrain-pentad tune GAMES.jsonl... --rule N [--out FILE] [--base FILE] [--epochs N] …
//! ```
//!
//! It writes the weights file (`eval/pentad.weights` is the embedded one) with the family
//! replaced and a line on how it was fitted added to the file's description.

use anyhow::{bail, Context};
use pentad::board::Board;
use pentad::eval::weights::{ColourTables, FamilyWeights, THREAT_ENTRIES};
use pentad::eval::{features, Family, Features, Weights, TABLE_SCALE};
use pentad::pattern::COMBOS;
use pentad::rules::Rule;
use pentad::types::{Color, Pos, WIN_BOUND};

/// Parameters of one colour's tables: `own`, then `opp`, then the threat table.
const PER_COLOUR: usize = 2 * COMBOS + THREAT_ENTRIES;

/// A position reduced to its features and label.
#[derive(Clone, Debug)]
struct Sample {
    f: Features,
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    result: f32,
    /// The searched score of the move played from here, for the side to move.
    score: Option<f32>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A family's tables as one parameter vector (per table colour, `PER_COLOUR` entries).
#[derive(Clone, Debug, PartialEq)]
struct Params {
    family: Family,
    w: Vec<f64>,
    /// The win-probability scale written with the tables.
    scale: i32,
}

impl Params {
    fn colours(family: Family) -> usize {
        if family.by_colour() {
            2
        } else {
            1
        }
    }

    fn from_weights(family: Family, fw: &FamilyWeights) -> Params {
        let mut w = Vec::new();
        for c in 0..Params::colours(family) {
            let t = &fw.colour[c];
            w.extend(
                t.own
                    .iter()
                    .chain(&t.opp)
                    .chain(&fw.threat[c])
                    .map(|&v| v as f64),
            );
        }
        Params {
            family,
            w,
            scale: fw.scale,
        }
    }

    fn to_weights(&self) -> FamilyWeights {
        let round = |s: &[f64]| -> Vec<i16> {
            s.iter()
                .map(|v| v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16)
                .collect()
        };
        let colour = |c: usize| {
            let c = c.min(Params::colours(self.family) - 1);
            let base = c * PER_COLOUR;
            (
                ColourTables {
                    own: round(&self.w[base..base + COMBOS]),
                    opp: round(&self.w[base + COMBOS..base + 2 * COMBOS]),
                },
                round(&self.w[base + 2 * COMBOS..base + PER_COLOUR]),
            )
        };
        let (b, w) = (colour(0), colour(1));
        FamilyWeights {
            colour: [b.0, w.0],
            threat: [b.1, w.1],
            scale: self.scale,
        }
    }

    /// Where a colour's tables start.
    fn base(&self, c: Color) -> usize {
        if self.family.by_colour() {
            c.idx() * PER_COLOUR
        } else {
            0
        }
    }

    /// The evaluation of a sample's position, in points.
    fn eval(&self, f: &Features) -> f64 {
        let (me, opp) = (self.base(f.me), self.base(f.me.opp()) + COMBOS);
        let own: f64 = f
            .own
            .iter()
            .map(|&(k, n)| self.w[me + k as usize] * n as f64)
            .sum();
        let theirs: f64 = f
            .opp
            .iter()
            .map(|&(k, n)| self.w[opp + k as usize] * n as f64)
            .sum();
        (own - theirs) / TABLE_SCALE as f64 + self.w[me + 2 * COMBOS + f.threat as usize]
    }

    /// Adds `g` × the gradient of `eval(f)` to `grad`.
    fn add_gradient(&self, f: &Features, g: f64, grad: &mut [f64]) {
        let (me, opp) = (self.base(f.me), self.base(f.me.opp()) + COMBOS);
        let s = g / TABLE_SCALE as f64;
        for &(k, n) in &f.own {
            grad[me + k as usize] += s * n as f64;
        }
        for &(k, n) in &f.opp {
            grad[opp + k as usize] -= s * n as f64;
        }
        grad[me + 2 * COMBOS + f.threat as usize] += g;
    }
}

/// The label of a sample: the result blended with the searched score's win probability
/// (`blend` of the result).
fn label(s: &Sample, k: f64, blend: f64) -> f64 {
    match s.score {
        Some(v) => blend * s.result as f64 + (1.0 - blend) * sigmoid(v as f64 / k),
        None => s.result as f64,
    }
}

/// Mean cross-entropy and mean squared error of the predictions at scale `k` against the
/// labels.
fn error(samples: &[Sample], p: &Params, k: f64, blend: f64) -> (f64, f64) {
    let (mut ce, mut se) = (0.0, 0.0);
    for s in samples {
        let q = sigmoid(p.eval(&s.f) / k).clamp(1e-9, 1.0 - 1e-9);
        let y = label(s, k, blend);
        ce -= y * q.ln() + (1.0 - y) * (1.0 - q).ln();
        se += (y - q).powi(2);
    }
    let n = samples.len().max(1) as f64;
    (ce / n, se / n)
}

/// The K that best predicts the results with the tables `p` (golden-section search on log K).
fn fit_k(samples: &[Sample], p: &Params) -> f64 {
    let (mut lo, mut hi) = (1.0f64.ln(), 100_000.0f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let err = |k: f64| error(samples, p, k, 1.0).0;
    for _ in 0..50 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if err(a.exp()) < err(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// How the fit runs.
#[derive(Clone, Copy, Debug)]
struct FitOptions {
    k: f64,
    blend: f64,
    epochs: usize,
    /// Adam's step, in table units.
    rate: f64,
    /// L2 penalty per entry on its distance from the start, per position.
    l2: f64,
}

/// Adam on the mean cross-entropy plus the L2 penalty, full batch, on two threads.
fn fit(samples: &[Sample], start: &Params, o: FitOptions, progress: &dyn Fn(usize)) -> Params {
    let mut p = start.clone();
    let n = p.w.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(8);
    let chunk = samples.len().div_ceil(threads).max(1);
    for t in 1..=o.epochs {
        let mut grad = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    let p = &p;
                    scope.spawn(move || {
                        let mut g = vec![0.0; n];
                        for s in part {
                            let q = sigmoid(p.eval(&s.f) / o.k);
                            // d/d eval of the cross-entropy: (q - y) / K.
                            p.add_gradient(&s.f, (q - label(s, o.k, o.blend)) / o.k, &mut g);
                        }
                        g
                    })
                })
                .collect();
            let mut total = vec![0.0; n];
            for h in handles {
                // A worker only adds numbers: it cannot panic.
                for (a, b) in total.iter_mut().zip(h.join().unwrap_or_default()) {
                    *a += b;
                }
            }
            total
        });
        let count = samples.len().max(1) as f64;
        // The rate decays to a tenth over the epochs.
        let rate = o.rate * (1.0 - 0.9 * (t - 1) as f64 / o.epochs.max(1) as f64);
        for i in 0..n {
            grad[i] = grad[i] / count + 2.0 * o.l2 * (p.w[i] - start.w[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            // An entry no position has touched yet keeps its value.
            if vh > 0.0 {
                p.w[i] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        progress(t);
    }
    p
}

/// Replays every game of the family in runners' `games.jsonl` files, calling `f` on each
/// position as [`replay`] does, after whether its game is held out (every tenth game of the
/// family); returns how many games were used.
pub(crate) fn replay_files(
    paths: &[String],
    family: Family,
    skip: usize,
    mut f: impl FnMut(bool, &Board, Pos, Option<Color>, Option<f32>),
) -> anyhow::Result<usize> {
    let mut games = 0;
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let g: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{path}:{}: not a game record", n + 1))?;
            let held = (games + 1) % 10 == 0;
            let played = replay(&g, family, skip, |b, mv, winner, score| {
                f(held, b, mv, winner, score)
            })
            .with_context(|| format!("{path}:{}: bad game record", n + 1))?;
            games += played.is_some() as usize;
        }
    }
    Ok(games)
}

/// Reads the games of runners' `games.jsonl` files into samples of one family, split into
/// (fit, held out), and counts the games used.
fn load(
    paths: &[String],
    family: Family,
    skip: usize,
) -> anyhow::Result<(Vec<Sample>, Vec<Sample>, usize)> {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let games = replay_files(paths, family, skip, |is_held, b, _, winner, score| {
        if let Some(s) = sample(b, winner, score) {
            if is_held { &mut held } else { &mut fit }.push(s);
        }
    })?;
    Ok((fit, held, games))
}

/// The sample of a position (None where the search decides: see [`features`]), labelled with
/// the game's winner and the searched score of the move played.
fn sample(b: &Board, winner: Option<Color>, score: Option<f32>) -> Option<Sample> {
    let f = features(b)?;
    let result = match winner {
        None => 0.5,
        Some(c) if c == f.me => 1.0,
        Some(_) => 0.0,
    };
    Some(Sample { f, result, score })
}

/// Where a fit's games came from, for its line in the file's description: `--note`, else the
/// runner's self-play.
pub(crate) fn note_or_default(note: &str) -> &str {
    if note.is_empty() {
        "pentad-tournament self-play"
    } else {
        note
    }
}

/// A file's description with `line` in place of the family's earlier line (one line per
/// family: the latest fit).
pub(crate) fn describe(info: &str, family: Family, line: String) -> String {
    let mut lines: Vec<String> = info
        .lines()
        .filter(|l| !l.starts_with(&format!("{}:", family.name())))
        .map(str::to_string)
        .collect();
    lines.push(line);
    lines.join("\n")
}

/// The score in the last `depth … score S …` message of a move, clamped below mate scores.
fn searched_score(messages: &serde_json::Value) -> Option<f32> {
    messages.as_array()?.iter().rev().find_map(|m| {
        let m = m.as_str()?;
        let mut words = m.split_whitespace();
        if words.next() != Some("depth") {
            return None;
        }
        let v: i32 = words.skip_while(|&w| w != "score").nth(1)?.parse().ok()?;
        Some(v.clamp(-WIN_BOUND, WIN_BOUND) as f32)
    })
}

/// Replays one game record of the family, calling `f` on each position from the `skip`-th move
/// after the opening on, with the move played there, the winner (None for a draw) and the
/// searched score of that move. None for a game not ended by the rules or of another family.
fn replay(
    g: &serde_json::Value,
    family: Family,
    skip: usize,
    mut f: impl FnMut(&Board, Pos, Option<Color>, Option<f32>),
) -> anyhow::Result<Option<()>> {
    let reason = g["reason"].as_str().unwrap_or("");
    if !matches!(reason, "five" | "draw" | "draw-limit") {
        return Ok(None);
    }
    let game_rule = Rule::from_info(g["rule"].as_i64().context("no rule")?);
    if Family::of(game_rule) != family {
        return Ok(None);
    }
    let winner = match g["winner"].as_str() {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some("draw") => None,
        _ => bail!("no winner"),
    };
    let (w, h) = (
        g["width"].as_u64().context("no width")? as usize,
        g["height"].as_u64().context("no height")? as usize,
    );
    let mut b = Board::new(w, h, game_rule).map_err(|e| anyhow::anyhow!("{}", e.0))?;
    let mut moves = Vec::new();
    for m in g["opening"].as_array().into_iter().flatten() {
        moves.push((m[0].as_u64(), m[1].as_u64(), None));
    }
    let opening = moves.len();
    for m in g["moves"].as_array().into_iter().flatten() {
        moves.push((
            m["x"].as_u64(),
            m["y"].as_u64(),
            searched_score(&m["messages"]),
        ));
    }
    for (ply, &(x, y, score)) in moves.iter().enumerate() {
        let (Some(x), Some(y)) = (x, y) else {
            bail!("a move without coordinates");
        };
        let (x, y) = (x as usize, y as usize);
        if x >= w || y >= h || !b.is_empty(Pos::new(x, y)) {
            bail!("move {ply} ({x},{y}) is not on an empty square");
        }
        if ply >= opening.saturating_add(skip) {
            f(&b, Pos::new(x, y), winner, score);
        }
        b.play(Pos::new(x, y));
    }
    Ok(Some(()))
}

/// The samples of one game record, or None for a game not ended by the rules or of another
/// family.
#[cfg(test)]
fn game_samples(
    g: &serde_json::Value,
    family: Family,
    skip: usize,
) -> anyhow::Result<Option<Vec<Sample>>> {
    let mut out = Vec::new();
    let played = replay(g, family, skip, |b, _, winner, score| {
        out.extend(sample(b, winner, score));
    })?;
    Ok(played.map(|()| out))
}

/// `tune GAMES.jsonl... --rule N [options]`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Fit one rule family's evaluation tables to game records (logistic regression)",
    after_help = "Fits the evaluation tables of the rule's family (freestyle; standard, also used \
                  by caro; renju) to the positions of games recorded by pentad-tournament, \
                  labelled by the result blended with the searched score of the move played. \
                  Prints the error before and after on every tenth game (held out) and writes \
                  the weights file with the family replaced. tools/train.sh (make train) plays \
                  the games and runs this for every family.",
    args_override_self = true
)]
pub struct Args {
    /// Game records of pentad-tournament, JSON lines
    #[arg(value_name = "GAMES.jsonl", required = true)]
    pub games: Vec<String>,
    /// The rule whose family is fitted, as an INFO rule number (0 freestyle, 1 standard,
    /// 4 renju, 8 caro, 9 caro9); the games of every rule of the family are used
    #[arg(long, value_name = "N", value_parser = rule_number, allow_negative_numbers = true)]
    pub rule: Rule,
    /// The weights to start from (default: the embedded ones); their other families are kept
    #[arg(long, value_name = "FILE")]
    pub base: Option<String>,
    /// Where to write the weights file (default: only report the errors)
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Leave out the positions of the first PLIES moves after each game's opening
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    pub skip: usize,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub epochs: usize,
    /// Share of the game result in the label (the rest is the searched score)
    #[arg(long, value_name = "X", default_value_t = 0.5)]
    pub blend: f64,
    /// Adam's first step size, in table units (quarter points)
    #[arg(long, value_name = "X", default_value_t = 8.0)]
    pub rate: f64,
    /// L2 penalty on each entry's distance from its start
    #[arg(long, value_name = "X", default_value_t = 1e-9)]
    pub l2: f64,
    /// Fit the rule family's move-order table (`eval/pentad.policy` is the embedded one) to the
    /// moves played, instead of the evaluation; `--base` and `--out` are move-order files
    #[arg(long)]
    pub policy: bool,
    /// A line on how the data was made, for the file's description
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub note: String,
}

/// `--rule N`: an INFO rule number.
fn rule_number(s: &str) -> Result<Rule, String> {
    s.trim()
        .parse()
        .map(Rule::from_info)
        .map_err(|_| "expected an INFO rule number such as 0 or 4".to_string())
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.policy {
        return super::tune_policy::run(&args);
    }
    let family = Family::of(args.rule);
    let mut weights = match &args.base {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("reading {path}"))?;
            Weights::parse(&bytes).map_err(|e| anyhow::anyhow!("{path}: {e}"))?
        }
        None => Weights::embedded().clone(),
    };
    let started = std::time::Instant::now();
    let (fit_set, held, games) = load(&args.games, family, args.skip)?;
    if fit_set.is_empty() || held.is_empty() {
        bail!(
            "too few positions of the {} family: {games} games gave {} + {}",
            family.name(),
            fit_set.len(),
            held.len()
        );
    }
    println!(
        "{}: games {games}, positions {} fitted + {} held out ({:.1} s to read)",
        family.name(),
        fit_set.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );
    let start = Params::from_weights(family, weights.family(family));
    let k = fit_k(&fit_set, &start);
    println!("K (scale of the starting tables) {k:.1}");
    let before = (
        error(&fit_set, &start, k, args.blend),
        error(&held, &start, k, args.blend),
    );
    println!(
        "error before: fitted {:.5} (mse {:.5}), held out {:.5} (mse {:.5})",
        before.0 .0, before.0 .1, before.1 .0, before.1 .1
    );
    let o = FitOptions {
        k,
        blend: args.blend,
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
    };
    let every = (args.epochs / 10).max(1);
    let p = fit(&fit_set, &start, o, &|t| {
        if t % every == 0 || t == args.epochs {
            eprintln!("epoch {t}/{}", args.epochs);
        }
    });
    let after = (
        error(&fit_set, &p, k, args.blend),
        error(&held, &p, k, args.blend),
    );
    // The scale the new tables predict the results with, for their win probabilities.
    let mut p = p;
    p.scale = fit_k(&fit_set, &p).round() as i32;
    println!(
        "error after:  fitted {:.5} (mse {:.5}), held out {:.5} (mse {:.5})",
        after.0 .0, after.0 .1, after.1 .0, after.1 .1
    );
    let line = format!(
        "{}: {} positions of {games} games ({}), label {:.2} result + searched score, K {k:.1} \
         (new tables' {}); held-out cross-entropy {:.5} -> {:.5}, mse {:.5} -> {:.5}",
        family.name(),
        fit_set.len() + held.len(),
        note_or_default(&args.note),
        args.blend,
        p.scale,
        before.1 .0,
        after.1 .0,
        before.1 .1,
        after.1 .1
    );
    println!("{line}");
    if let Some(out) = &args.out {
        weights.families[family as usize] = p.to_weights();
        weights.info = describe(&weights.info, family, line);
        std::fs::write(out, weights.to_bytes()).with_context(|| format!("writing {out}"))?;
        println!("wrote {out}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic positions whose labels come from known tables: the fit, started elsewhere,
    /// recovers them.
    #[test]
    fn the_fit_recovers_known_tables() {
        let family = Family::Freestyle;
        let mut truth = Params::from_weights(family, Weights::embedded().family(family));
        truth.w.iter_mut().for_each(|v| *v = 0.0);
        // Three combinations matter: 5, 40 and 300 (in table units: ×4 a point).
        let known = [(3usize, 200.0), (17, -120.0), (250, 400.0)];
        for &(k, v) in &known {
            truth.w[k] = v;
        }
        let mut rng = 12345u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let k = 100.0;
        let samples: Vec<Sample> = (0..3000)
            .map(|_| {
                let own = known
                    .iter()
                    .map(|&(c, _)| (c as u16, (next() % 4) as u16))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                let f = Features {
                    me: Color::Black,
                    own,
                    opp: vec![],
                    threat: 0,
                };
                let y = sigmoid(truth.eval(&f) / k) as f32;
                Sample {
                    f,
                    result: y,
                    score: None,
                }
            })
            .collect();
        let mut start = truth.clone();
        start.w.iter_mut().for_each(|v| *v = 0.0);
        let o = FitOptions {
            k,
            blend: 1.0,
            epochs: 600,
            rate: 20.0,
            l2: 0.0,
        };
        let p = fit(&samples, &start, o, &|_| {});
        for &(c, v) in &known {
            assert!((p.w[c] - v).abs() < 0.1 * v.abs(), "{c}: {} vs {v}", p.w[c]);
        }
        assert!(error(&samples, &p, k, 1.0).1 < 1e-4);
        // Entries no sample touched stay where they started.
        assert_eq!(p.w[COMBOS + 1], 0.0);
    }

    #[test]
    fn game_records_give_samples_from_the_side_to_move() {
        let g: serde_json::Value = serde_json::from_str(
            r#"{"width":15,"height":15,"rule":0,"opening":[[7,7],[0,0]],
                "moves":[{"x":8,"y":7,"messages":["depth 1 seldepth 1 score 5 nodes 9",
                                                 "depth 2 seldepth 3 score -40 nodes 90"]},
                         {"x":0,"y":1},{"x":9,"y":7}],
                "winner":"black","reason":"five"}"#,
        )
        .unwrap();
        let s = game_samples(&g, Family::Freestyle, 0).unwrap().unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(
            s.iter().map(|s| s.result).collect::<Vec<_>>(),
            [1.0, 0.0, 1.0]
        );
        assert_eq!(s[0].score, Some(-40.0));
        assert_eq!(s[1].score, None);
        assert!(game_samples(&g, Family::Renju, 0).unwrap().is_none());
        // Standard's family takes caro's games.
        let caro = g.to_string().replace("\"rule\":0", "\"rule\":8");
        let caro: serde_json::Value = serde_json::from_str(&caro).unwrap();
        assert!(game_samples(&caro, Family::Standard, 0).unwrap().is_some());
    }
}
