//! Match statistics: logistic Elo with a 95% interval, likelihood of superiority, and the
//! sequential probability ratio test on game pairs.
//!
//! Formulas:
//! * score `s = (W + D/2) / N`; Elo difference `elo(s) = -400 * log10(1/s - 1)` (logistic model).
//! * 95% interval: the score's standard error from the trinomial (per game: 1, ½, 0) or the
//!   pentanomial (per pair of games with swapped colours: 0, ¼, ½, ¾, 1) sample variance,
//!   `se = sqrt(var / n)`, normal approximation `s ± 1.959964·se`, both ends mapped through
//!   `elo()`; the "±" reported is half the width of that Elo interval (as cutechess-cli prints).
//! * LOS = Φ((W − L) / sqrt(W + L)) = ½·(1 + erf((W − L) / sqrt(2(W + L)))).
//! * SPRT: the generalised log-likelihood ratio of fishtest's `LLRcalc.LLR_logistic`
//!   (Michel Van den Bergh, "A Generalized Sequential Probability Ratio Test", the GSPRT notes
//!   behind fishtest): the pentanomial pair frequencies are regularised (a zero count becomes
//!   1e-3), the maximum-likelihood distributions with mean `s0 = L(elo0)` and `s1 = L(elo1)`,
//!   `L(e) = 1/(1 + 10^(-e/400))`, are `p_i / (1 + x·(a_i − s))` with `x` the root of the secular
//!   equation `Σ p_i (a_i − s) / (1 + x (a_i − s)) = 0`, and `LLR = N · Σ p_i ln(p1_i / p0_i)`.
//!   Bounds: `ln(β/(1−α))` (accept H0) and `ln((1−β)/α)` (accept H1).

use serde::{Deserialize, Serialize};

/// The two-sided 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Error function, via the complementary error function of Numerical Recipes (`erfcc`,
/// Chebyshev fit, fractional error below 1.2e-7 everywhere).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// The standard normal cumulative distribution function Φ.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Logistic Elo difference for an expected score in (0, 1); ±infinity at the ends.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score for an Elo difference (logistic).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Likelihood of superiority from wins and losses (draws do not count).
pub fn los(wins: u64, losses: u64) -> Option<f64> {
    if wins + losses == 0 {
        return None;
    }
    let (w, l) = (wins as f64, losses as f64);
    Some(0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Mean score per game.
    pub score: f64,
    /// Elo difference (may be infinite: serialised as null).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval.
    pub low: Option<f64>,
    /// Upper end of the 95% interval.
    pub high: Option<f64>,
    /// Half the width of the interval (the "±" figure).
    pub error: Option<f64>,
    /// Which variance was used: "pentanomial" or "trinomial".
    pub model: String,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn estimate(score: f64, var: f64, n: f64, model: &str) -> EloEstimate {
    let se = (var / n).sqrt();
    let lo = elo_from_score(score - Z95 * se);
    let hi = elo_from_score(score + Z95 * se);
    EloEstimate {
        score,
        elo: finite(elo_from_score(score)),
        low: finite(lo),
        high: finite(hi),
        error: finite((hi - lo) / 2.0),
        model: model.into(),
    }
}

/// Elo from wins, losses and draws, with the trinomial variance.
pub fn elo_trinomial(wins: u64, losses: u64, draws: u64) -> Option<EloEstimate> {
    let n = (wins + losses + draws) as f64;
    if n == 0.0 {
        return None;
    }
    let (w, l, d) = (wins as f64, losses as f64, draws as f64);
    let s = (w + d / 2.0) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    Some(estimate(s, var, n, "trinomial"))
}

/// Elo from pentanomial pair counts (`counts[i]` = pairs scoring `i/2` points of 2), with the
/// pentanomial variance.
pub fn elo_pentanomial(counts: [u64; 5]) -> Option<EloEstimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p: Vec<f64> = counts.iter().map(|&c| c as f64 / n).collect();
    let s: f64 = (0..5).map(|i| p[i] * i as f64 / 4.0).sum();
    let var: f64 = (0..5).map(|i| p[i] * (i as f64 / 4.0 - s).powi(2)).sum();
    Some(estimate(s, var, n, "pentanomial"))
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtParams {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// Type I error (false H1).
    pub alpha: f64,
    /// Type II error (false H0).
    pub beta: f64,
}

impl SprtParams {
    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any order; missing keys keep these defaults).
    pub fn parse(tokens: &[String]) -> Result<SprtParams, String> {
        let mut p = SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for tok in tokens.iter().flat_map(|t| t.split_whitespace()) {
            let (k, v) = tok
                .split_once('=')
                .ok_or_else(|| format!("SPRT parameter '{tok}' is not key=value"))?;
            let v: f64 = v
                .parse()
                .map_err(|_| format!("SPRT parameter '{tok}' has no number"))?;
            match k {
                "elo0" => p.elo0 = v,
                "elo1" => p.elo1 = v,
                "alpha" => p.alpha = v,
                "beta" => p.beta = v,
                _ => return Err(format!("unknown SPRT parameter '{k}'")),
            }
        }
        if !(p.alpha > 0.0 && p.alpha < 1.0 && p.beta > 0.0 && p.beta < 1.0) {
            return Err("SPRT alpha and beta must be in (0, 1)".into());
        }
        if p.elo1 <= p.elo0 {
            return Err("SPRT needs elo1 > elo0".into());
        }
        Ok(p)
    }
    /// Lower bound: accept H0 at or below it.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
    /// Upper bound: accept H1 at or above it.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// The state of an SPRT.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtResult {
    /// The test.
    pub params: SprtParams,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// Pair counts used.
    pub pairs: [u64; 5],
    /// "H0", "H1" or "continue".
    pub decision: String,
}

/// Solves the secular equation `Σ p_i a_i / (1 + x a_i) = 0` for `x` by bisection (the left side
/// decreases strictly in `x` on `(-1/max a, -1/min a)`); `a` must have both signs.
fn secular(pdf: &[(f64, f64)]) -> f64 {
    let v = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let w = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    debug_assert!(v < 0.0 && w > 0.0);
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / w + eps, -1.0 / v - eps);
    let f = |x: f64| pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The maximum-likelihood distribution on the same support with mean `s`.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted);
    pdf.iter().map(|&(a, p)| p / (1.0 + x * (a - s))).collect()
}

/// The GSPRT log-likelihood ratio for pentanomial pair counts (see the module notes).
pub fn llr_pentanomial(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let reg: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = reg.iter().sum();
    let pdf: Vec<(f64, f64)> = reg
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, c / n))
        .collect();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let p0 = mle_expected(&pdf, s0);
    let p1 = mle_expected(&pdf, s1);
    n * pdf
        .iter()
        .enumerate()
        .map(|(i, &(_, p))| p * (p1[i].ln() - p0[i].ln()))
        .sum::<f64>()
}

/// Runs the test on pair counts.
pub fn sprt(params: SprtParams, pairs: [u64; 5]) -> SprtResult {
    let llr = if pairs.iter().sum::<u64>() == 0 {
        0.0
    } else {
        llr_pentanomial(pairs, params.elo0, params.elo1)
    };
    let (lower, upper) = (params.lower(), params.upper());
    let decision = if llr >= upper {
        "H1"
    } else if llr <= lower {
        "H0"
    } else {
        "continue"
    };
    SprtResult {
        params,
        llr,
        lower,
        upper,
        pairs,
        decision: decision.into(),
    }
}

/// Mean, 95th percentile (nearest rank) and maximum of a sample.
pub fn summary(values: &[u64]) -> Option<(f64, u64, u64)> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_unstable();
    let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
    let rank = ((0.95 * v.len() as f64).ceil() as usize).clamp(1, v.len());
    Some((mean, v[rank - 1], v[v.len() - 1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} != {b} (tolerance {tol})");
    }

    // Reference numbers computed independently with python3 (math.erf, math.log10, a plain
    // bisection for the secular equation), from the formulas in the module notes:
    //   s = (W + D/2)/N; var = (W(1-s)^2 + D(.5-s)^2 + L s^2)/N; se = sqrt(var/N)
    //   elo(s) = -400 log10(1/s - 1); interval elo(s -+ 1.959963984540054 se)
    //   los = 0.5 (1 + erf((W-L)/sqrt(2(W+L))))

    #[test]
    fn erf_and_phi() {
        close(erf(0.0), 0.0, 1e-7);
        close(erf(0.5), 0.520_499_877_813_046_5, 1e-6);
        close(erf(-1.0), -0.842_700_792_949_714_9, 1e-6);
        close(erf(2.5), 0.999_593_047_982_555, 1e-6);
        close(phi(Z95), 0.975, 1e-6);
        close(phi(0.0), 0.5, 1e-7);
    }

    #[test]
    fn elo_from_scores() {
        // python3: -400*math.log10(1/0.75-1) = 190.848501887865; s=0.6 -> 70.43650362227247
        close(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
        close(elo_from_score(0.6), 70.436_503_622_272_47, 1e-9);
        close(elo_from_score(0.5), 0.0, 1e-12);
        close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_interval_and_los() {
        // W=40 L=30 D=30: s=0.55, elo=34.86007028756008, interval [-21.85009081548745,
        // 93.50224996093111], half-width 57.67617038820928; LOS=0.884001138185633.
        let e = elo_trinomial(40, 30, 30).unwrap();
        close(e.score, 0.55, 1e-12);
        close(e.elo.unwrap(), 34.860_070_287_560_08, 1e-9);
        close(e.low.unwrap(), -21.850_090_815_487_45, 1e-6);
        close(e.high.unwrap(), 93.502_249_960_931_11, 1e-6);
        close(e.error.unwrap(), 57.676_170_388_209_28, 1e-6);
        close(los(40, 30).unwrap(), 0.884_001_138_185_633, 1e-6);
        // W=10 L=3: LOS = 0.9738981823293427
        close(los(10, 3).unwrap(), 0.973_898_182_329_342_7, 1e-6);
        assert!(los(0, 0).is_none());
        assert!(elo_trinomial(0, 0, 0).is_none());
        let all = elo_trinomial(5, 0, 0).unwrap();
        assert!(all.elo.is_none());
    }

    #[test]
    fn pentanomial_interval() {
        // counts [3,5,8,5,3]: s=0.5, interval [-84.34045818709988, 84.34045818709994].
        let e = elo_pentanomial([3, 5, 8, 5, 3]).unwrap();
        close(e.elo.unwrap(), 0.0, 1e-9);
        close(e.low.unwrap(), -84.340_458_187_099_88, 1e-6);
        close(e.high.unwrap(), 84.340_458_187_099_94, 1e-6);
        // counts [1,2,4,10,15]: s=0.78125, elo 221.1367874631123,
        // interval [139.0087070887381, 334.0756668921545].
        let e = elo_pentanomial([1, 2, 4, 10, 15]).unwrap();
        close(e.score, 0.78125, 1e-12);
        close(e.elo.unwrap(), 221.136_787_463_112_3, 1e-9);
        close(e.low.unwrap(), 139.008_707_088_738_1, 1e-6);
        close(e.high.unwrap(), 334.075_666_892_154_5, 1e-6);
    }

    #[test]
    fn sprt_llr_against_reference() {
        // python3 transcription of LLRcalc.LLR_logistic (regularise zeros to 1e-3, MLE with mean
        // s by the secular equation, LLR = N * sum p_i ln(p1_i/p0_i)):
        let cases: [([u64; 5], f64, f64, f64); 6] = [
            ([3, 5, 8, 5, 3], 0.0, 50.0, -0.688_548_552_486_532),
            ([1, 2, 4, 10, 15], 0.0, 100.0, 6.680_471_281_827_83),
            ([10, 20, 40, 25, 5], 0.0, 10.0, -0.437_486_232_891_032_4),
            ([0, 0, 24, 0, 0], 0.0, 10.0, -0.693_670_817_497_909_7),
            ([50, 60, 80, 60, 50], 0.0, 4.0, -0.045_878_400_432_379_68),
            ([2, 3, 5, 7, 3], -20.0, 20.0, 0.880_013_957_641_723_4),
        ];
        for (counts, e0, e1, want) in cases {
            close(llr_pentanomial(counts, e0, e1), want, 1e-6);
        }
        // Bounds for alpha = beta = 0.05: ln(0.05/0.95) = -2.9444389791664403 and its negation.
        let p = SprtParams::parse(&["elo0=0 elo1=10".into(), "alpha=0.05".into()]).unwrap();
        close(p.lower(), -2.944_438_979_166_440_3, 1e-12);
        close(p.upper(), 2.944_438_979_166_440_3, 1e-12);
        let r = sprt(p, [0, 0, 0, 0, 0]);
        assert_eq!(r.decision, "continue");
        let r = sprt(
            SprtParams {
                elo0: 0.0,
                elo1: 100.0,
                alpha: 0.05,
                beta: 0.05,
            },
            [1, 2, 4, 10, 15],
        );
        assert_eq!(r.decision, "H1");
        assert!(SprtParams::parse(&["elo0=5 elo1=1".into()]).is_err());
        assert!(SprtParams::parse(&["foo=1".into()]).is_err());
    }

    #[test]
    fn sample_summary() {
        let v: Vec<u64> = (1..=100).collect();
        let (mean, p95, max) = summary(&v).unwrap();
        close(mean, 50.5, 1e-12);
        assert_eq!(p95, 95);
        assert_eq!(max, 100);
        assert_eq!(summary(&[7]).unwrap(), (7.0, 7, 7));
        assert!(summary(&[]).is_none());
    }
}
