//! `pbrain-pentad tune`: a Texel (logistic) fit of the evaluation weights to the results of
//! games played with the tournament runner.
//!
//! The evaluation is linear in its weights (see `pentad::eval`): each position reduces to one
//! feature per weight (own count × 5/4 − opponent's count), and the fit is a least-squares fit
//! of `sigmoid(eval / K)` to the game results (1 win, ½ draw, 0 loss, from the side to move's
//! view), with K first fitted to the current weights so that
//! the new ones keep the evaluation's scale. Positions where either side can already make five,
//! or the side to move has an open four or a four-three, are left out: the search decides those.
//! Every tenth game is held out, and the fit reports the error on it before and after.
//!
//! ```text
//! pbrain-pentad tune GAMES.jsonl... [--rule N] [--skip PLIES] [--iterations N] [--own W]
//! ```
//!
//! It prints the fitted weights as the Rust lines of `src/eval/weights.rs` that declare them.
//! The features, the weights and the formula are the evaluation's own (`pentad::eval`).

use anyhow::{bail, Context};
use pentad::board::Board;
use pentad::eval::{features, is_frozen, linear, weight_vector, FEATURES as N, OWN_SCALE as OWN};
use pentad::rules::Rule;
use pentad::types::{Color, Pos};

/// A position reduced to its features and result.
struct Sample {
    features: [f64; N],
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    result: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predictions at scale `k`.
fn error(samples: &[Sample], w: &[f64; N], k: f64) -> f64 {
    let s: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(linear(w, &s.features) / k)).powi(2))
        .sum();
    s / samples.len().max(1) as f64
}

/// The K that minimizes the error of the current weights (golden-section search on log K).
fn fit_k(samples: &[Sample], w: &[f64; N]) -> f64 {
    let (mut lo, mut hi) = (1.0f64.ln(), 100_000.0f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, w, a.exp()) < error(samples, w, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Adam on the mean squared error, weights kept non-negative.
fn fit_weights(samples: &[Sample], start: &[f64; N], k: f64, iterations: usize) -> [f64; N] {
    let mut w = *start;
    let (mut m, mut v) = ([0.0; N], [0.0; N]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    // Steps in weight units: the weights run from about 1 to 1000.
    let rate = 0.5;
    for t in 1..=iterations {
        let mut grad = [0.0; N];
        for s in samples {
            let p = sigmoid(linear(&w, &s.features) / k);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) f / k
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / k;
            for (gi, f) in grad.iter_mut().zip(&s.features) {
                *gi += g * f;
            }
        }
        for i in 0..N {
            if is_frozen(i) {
                continue;
            }
            let gi = grad[i] / samples.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] = (w[i] - rate * mh / (vh.sqrt() + eps)).max(0.0);
        }
    }
    w
}

/// Reads the games of a runner's `games.jsonl` into samples, split into (fit, held out).
fn load(
    paths: &[String],
    rule: Option<Rule>,
    skip: usize,
    own: f64,
) -> anyhow::Result<(Vec<Sample>, Vec<Sample>, usize)> {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let g: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{path}:{}: not a game record", n + 1))?;
            let Some(samples) = game_samples(&g, rule, skip, own)
                .with_context(|| format!("{path}:{}: bad game record", n + 1))?
            else {
                continue;
            };
            games += 1;
            if games % 10 == 0 {
                held.extend(samples);
            } else {
                fit.extend(samples);
            }
        }
    }
    Ok((fit, held, games))
}

/// The samples of one game record, or None for a game not ended by the rules or of another rule.
fn game_samples(
    g: &serde_json::Value,
    rule: Option<Rule>,
    skip: usize,
    own: f64,
) -> anyhow::Result<Option<Vec<Sample>>> {
    let reason = g["reason"].as_str().unwrap_or("");
    if !matches!(reason, "five" | "draw" | "draw-limit") {
        return Ok(None);
    }
    let game_rule = Rule::from_info(g["rule"].as_i64().context("no rule")?);
    if rule.is_some_and(|r| r != game_rule) {
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
        moves.push((m[0].as_u64(), m[1].as_u64()));
    }
    let opening = moves.len();
    for m in g["moves"].as_array().into_iter().flatten() {
        moves.push((m["x"].as_u64(), m["y"].as_u64()));
    }
    let mut out = Vec::new();
    for (ply, &(x, y)) in moves.iter().enumerate() {
        let (Some(x), Some(y)) = (x, y) else {
            bail!("a move without coordinates");
        };
        let (x, y) = (x as usize, y as usize);
        if x >= w || y >= h || !b.is_empty(Pos::new(x, y)) {
            bail!("move {ply} ({x},{y}) is not on an empty square");
        }
        if ply >= opening.saturating_add(skip) {
            if let Some(features) = features(&b, own) {
                let me = b.side_to_move();
                let result = match winner {
                    None => 0.5,
                    Some(c) if c == me => 1.0,
                    Some(_) => 0.0,
                };
                out.push(Sample { features, result });
            }
        }
        b.play(Pos::new(x, y));
    }
    Ok(Some(out))
}

/// `tune GAMES.jsonl... [--rule N] [--skip PLIES] [--iterations N] [--own W]`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Texel fit of the evaluation weights to game results",
    after_help = "Texel fit of the evaluation weights (PATTERN_VALUE, THREAT_BONUS in \
                  src/eval/weights.rs) to the results of games recorded by pentad-tournament. Prints \
                  the error before and after (every tenth game held out) and the fitted \
                  declarations.",
    args_override_self = true
)]
pub struct Args {
    /// Game records of pentad-tournament, JSON lines
    #[arg(value_name = "GAMES.jsonl", required = true)]
    pub games: Vec<String>,
    /// Only the games of this rule, as an INFO rule number (0 freestyle, 1 standard, 4 renju,
    /// 8 caro, 9 caro9)
    #[arg(long, value_name = "N", value_parser = rule_number, allow_negative_numbers = true)]
    pub rule: Option<Rule>,
    /// Leave out the positions of the first PLIES moves after each game's opening
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    pub skip: usize,
    /// Iterations of the fit
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub iterations: usize,
    /// Own shape weight against the opponent's (the evaluation's is 5/4), to compare the errors
    #[arg(long, value_name = "W", default_value_t = OWN, allow_negative_numbers = true)]
    pub own: f64,
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
    let Args {
        games: paths,
        rule,
        skip,
        iterations,
        own,
    } = args;
    let (fit, held, games) = load(&paths, rule, skip, own)?;
    if fit.is_empty() || held.is_empty() {
        bail!(
            "too few positions: {games} games gave {} + {}",
            fit.len(),
            held.len()
        );
    }
    println!(
        "games {games}, positions {} fitted + {} held out",
        fit.len(),
        held.len()
    );
    let start = weight_vector();
    let k = fit_k(&fit, &start);
    println!("K (scale of the current weights) {k:.1}");
    println!(
        "error before: fitted {:.6}, held out {:.6}",
        error(&fit, &start, k),
        error(&held, &start, k)
    );
    let w = fit_weights(&fit, &start, k, iterations);
    println!(
        "error after:  fitted {:.6}, held out {:.6}",
        error(&fit, &w, k),
        error(&held, &w, k)
    );
    let ints: Vec<i32> = w.iter().map(|v| v.round() as i32).collect();
    let join = |s: &[i32]| {
        s.iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "pub const PATTERN_VALUE: [i32; 10] = [{}];",
        join(&ints[..10])
    );
    println!(
        "pub const THREAT_BONUS: [i32; Threat::COUNT] = [{}];",
        join(&ints[10..])
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::pattern::Pattern;

    fn sample(eval_sign: f64, result: f64) -> Sample {
        let mut features = [0.0; N];
        features[Pattern::Flex2 as usize] = eval_sign;
        Sample { features, result }
    }

    #[test]
    fn the_fit_raises_a_weight_that_predicts_the_result() {
        // Whoever has more open twos wins every game: the fit must value them more.
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                if i % 2 == 0 {
                    sample(3.0, 1.0)
                } else {
                    sample(-3.0, 0.0)
                }
            })
            .collect();
        let start = weight_vector();
        let k = 200.0;
        let w = fit_weights(&samples, &start, k, 200);
        assert!(w[Pattern::Flex2 as usize] > start[Pattern::Flex2 as usize] + 10.0);
        assert!(error(&samples, &w, k) < error(&samples, &start, k));
        assert_eq!(w[Pattern::Dead as usize], 0.0);
    }

    #[test]
    fn game_records_give_samples_from_the_side_to_move() {
        let g: serde_json::Value = serde_json::from_str(
            r#"{"width":15,"height":15,"rule":0,"opening":[[7,7],[0,0]],
                "moves":[{"x":8,"y":7},{"x":0,"y":1},{"x":9,"y":7}],
                "winner":"black","reason":"five"}"#,
        )
        .unwrap();
        let s = game_samples(&g, None, 0, OWN).unwrap().unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(
            s.iter().map(|s| s.result).collect::<Vec<_>>(),
            [1.0, 0.0, 1.0]
        );
        assert!(game_samples(&g, Some(Rule::Renju), 0, OWN)
            .unwrap()
            .is_none());
    }
}
