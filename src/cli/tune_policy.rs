//! `pbrain-pentad tune --policy`: fits one rule family's move-order table
//! (`pentad::search::policy`) to the moves the engine played in recorded games, by softmax
//! regression.
//!
//! Each position (after the opening; not one where either side can make five, which the search
//! plays without ordering) gives its candidate squares (empty, within two of a stone, no foul
//! of the side to move); a square's logit is the sum of the table's four entries for it, and
//! the fit minimises the cross-entropy of the softmax over the candidates against the move
//! played (a node-limited search's choice). It starts from the hand-set order scaled to its
//! best temperature, with an L2 penalty holding every entry near its start. Every tenth game is
//! held out; the command reports the cross-entropy and how often the played move is ranked
//! first there, for the hand-set order and for the fitted table. The table is written in the
//! hand-set order's units (the logits divided by that temperature).

use super::tune::{describe, note_or_default, replay_files};
use anyhow::{bail, Context};
use pentad::board::Board;
use pentad::eval::Family;
use pentad::pattern::COMBOS;
use pentad::search::policy::{self, near_bucket, PolicyTable, NEAR};
use pentad::types::Pos;

/// Parameters: `own`, `opp`, `near_opp`, `near_own`.
const PARAMS: usize = 2 * COMBOS + 2 * NEAR;
/// Adam's first step size, in logits (it decays to a tenth over the epochs).
const RATE: f64 = 0.02;
/// L2 penalty on each entry's distance from its start, in logits.
const L2: f64 = 1e-5;

/// The positions' candidates, flattened: per candidate its four parameter indices and the
/// hand-set score; per position where its candidates start and which one was played.
#[derive(Default)]
struct Set {
    index: Vec<[u16; 4]>,
    hand: Vec<f32>,
    start: Vec<u32>,
    played: Vec<u32>,
}

impl Set {
    fn positions(&self) -> usize {
        self.played.len()
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let end = self
            .start
            .get(i + 1)
            .map_or(self.index.len(), |&e| e as usize);
        self.start[i] as usize..end
    }

    /// Adds a position and the move played there, unless the search plays it without order.
    fn add(&mut self, b: &Board, played: Pos) {
        let me = b.side_to_move();
        let last = policy::last_moves(b);
        let first = self.index.len();
        let mut target = None;
        for q in b.candidates() {
            if b.wins_by(me, q) || b.wins_by(me.opp(), q) {
                self.index.truncate(first);
                self.hand.truncate(first);
                return;
            }
            if b.is_foul(me, q) {
                continue;
            }
            if q == played {
                target = Some(self.index.len());
            }
            self.index.push([
                b.combo(me, q) as u16,
                (COMBOS + b.combo(me.opp(), q)) as u16,
                (2 * COMBOS + near_bucket(q, last[0])) as u16,
                (2 * COMBOS + NEAR + near_bucket(q, last[1])) as u16,
            ]);
            self.hand.push(policy::hand_score(b, me, q) as f32);
        }
        match target {
            Some(t) => {
                self.start.push(first as u32);
                self.played.push(t as u32);
            }
            None => {
                self.index.truncate(first);
                self.hand.truncate(first);
            }
        }
    }
}

/// Cross-entropy and share ranked first, over `set`, of the logits `logit(candidate)`.
fn measure(set: &Set, logit: impl Fn(usize) -> f64) -> (f64, f64) {
    let (mut ce, mut first) = (0.0, 0usize);
    for i in 0..set.positions() {
        let r = set.range(i);
        let max = r.clone().map(&logit).fold(f64::MIN, f64::max);
        let sum: f64 = r.clone().map(|c| (logit(c) - max).exp()).sum();
        let t = set.played[i] as usize;
        ce += max + sum.ln() - logit(t);
        // Ties count against the played move, as the search breaks them by square.
        if r.clone().all(|c| c == t || logit(c) < logit(t)) {
            first += 1;
        }
    }
    let n = set.positions().max(1) as f64;
    (ce / n, first as f64 / n)
}

/// The temperature that best turns hand-set scores into logits (golden-section search on its
/// logarithm).
fn fit_temperature(set: &Set) -> f64 {
    let ce = |lt: f64| measure(set, |c| set.hand[c] as f64 * lt.exp()).0;
    let (mut a, mut b) = ((1e-5f64).ln(), (1.0f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if ce(c) < ce(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

fn logit(w: &[f64], set: &Set, c: usize) -> f64 {
    set.index[c].iter().map(|&k| w[k as usize]).sum()
}

/// Adam on the mean cross-entropy plus the L2 penalty, full batch.
fn fit(set: &Set, start: &[f64], epochs: usize) -> Vec<f64> {
    let mut w = start.to_vec();
    let n = w.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let mut z = Vec::new();
    for t in 1..=epochs {
        let mut grad = vec![0.0; n];
        for i in 0..set.positions() {
            let r = set.range(i);
            z.clear();
            z.extend(r.clone().map(|c| logit(&w, set, c)));
            let max = z.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = z.iter().map(|&x| (x - max).exp()).sum();
            let played = set.played[i] as usize;
            for (j, c) in r.enumerate() {
                let g = (z[j] - max).exp() / sum - if c == played { 1.0 } else { 0.0 };
                for &k in &set.index[c] {
                    grad[k as usize] += g;
                }
            }
        }
        let count = set.positions().max(1) as f64;
        let rate = RATE * (1.0 - 0.9 * (t - 1) as f64 / epochs.max(1) as f64);
        for i in 0..n {
            grad[i] = grad[i] / count + 2.0 * L2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            if vh > 0.0 {
                w[i] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        if t % (epochs / 10).max(1) == 0 || t == epochs {
            eprintln!("epoch {t}/{epochs}");
        }
    }
    w
}

/// The hand-set order as a table (in its own units): what the fit starts from.
fn hand_table(family: Family) -> Vec<f64> {
    let weights = pentad::eval::Weights::embedded().family(family);
    let scale = pentad::eval::TABLE_SCALE as f64;
    // The side to move's colour table: black's (renju's tables differ by colour; the order's
    // table does not).
    let t = &weights.colour[0];
    let mut w = vec![0.0; PARAMS];
    for c in 0..COMBOS {
        let v = (t.opp[c] as f64 / scale).trunc();
        w[c] = 5.0 * v;
        w[COMBOS + c] = 4.0 * v;
    }
    w
}

/// Runs `tune --policy`.
pub fn run(args: &super::tune::Args) -> anyhow::Result<()> {
    let family = Family::of(args.rule);
    let base = match &args.base {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?,
        None => policy::EMBEDDED.to_string(),
    };
    let mut tables = policy::parse(&base).map_err(|e| anyhow::anyhow!("base tables: {e}"))?;
    let started = std::time::Instant::now();
    let (mut fit_set, mut held) = (Set::default(), Set::default());
    let games = replay_files(&args.games, family, args.skip, |is_held, b, mv, _, _| {
        if is_held { &mut held } else { &mut fit_set }.add(b, mv)
    })?;
    if fit_set.positions() == 0 || held.positions() == 0 {
        bail!(
            "too few positions of the {} family: {games} games gave {} + {}",
            family.name(),
            fit_set.positions(),
            held.positions()
        );
    }
    println!(
        "{}: games {games}, positions {} fitted + {} held out ({:.1} s to read)",
        family.name(),
        fit_set.positions(),
        held.positions(),
        started.elapsed().as_secs_f64()
    );
    let temp = fit_temperature(&fit_set);
    let hand = measure(&held, |c| held.hand[c] as f64 * temp);
    println!(
        "hand-set order (temperature {temp:.5}): held-out cross-entropy {:.4}, first {:.1}%",
        hand.0,
        100.0 * hand.1
    );
    let start: Vec<f64> = hand_table(family).iter().map(|x| x * temp).collect();
    let start_error = measure(&held, |c| logit(&start, &held, c));
    println!(
        "start table: held-out cross-entropy {:.4}, first {:.1}%",
        start_error.0,
        100.0 * start_error.1
    );
    let w = fit(&fit_set, &start, args.epochs);
    let after = measure(&held, |c| logit(&w, &held, c));
    let train = measure(&fit_set, |c| logit(&w, &fit_set, c));
    println!(
        "fitted table: held-out cross-entropy {:.4}, first {:.1}% (fitted set {:.4}, {:.1}%)",
        after.0,
        100.0 * after.1,
        train.0,
        100.0 * train.1
    );
    let units: Vec<i32> = w.iter().map(|x| (x / temp).round() as i32).collect();
    let near = |from: usize| -> [i32; NEAR] {
        let mut a = [0; NEAR];
        a.copy_from_slice(&units[from..from + NEAR]);
        a
    };
    let table = PolicyTable {
        own: units[..COMBOS].to_vec(),
        opp: units[COMBOS..2 * COMBOS].to_vec(),
        near_opp: near(2 * COMBOS),
        near_own: near(2 * COMBOS + NEAR),
    };
    let line = format!(
        "{}: {} positions of {games} games ({}), {} epochs; held-out cross-entropy {:.4} -> \
         {:.4}, played move ranked first {:.1}% -> {:.1}% (hand-set order at temperature {temp:.5})",
        family.name(),
        fit_set.positions() + held.positions(),
        note_or_default(&args.note),
        args.epochs,
        hand.0,
        after.0,
        100.0 * hand.1,
        100.0 * after.1
    );
    println!("{line}");
    if let Some(out) = &args.out {
        tables[family as usize] = Some(table);
        let info: Vec<String> = base
            .lines()
            .filter_map(|l| l.strip_prefix("# "))
            .map(str::to_string)
            .collect();
        let info = describe(&info.join("\n"), family, line);
        std::fs::write(out, policy::to_text(&info, &tables))
            .with_context(|| format!("writing {out}"))?;
        println!("wrote {out}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::notation::parse_diagram;
    use pentad::rules::Rule;

    /// Positions of four candidates whose played move was drawn from known logits of the
    /// `own` entries 1, 2 and 3: the fit, started from zero, recovers their differences.
    #[test]
    fn the_fit_recovers_known_logits() {
        let truth = [0.0, 1.0, 2.0];
        let mut rng = 99u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut set = Set::default();
        for _ in 0..4000 {
            let first = set.index.len();
            let own: Vec<usize> = (0..4).map(|_| 1 + (next() % 3) as usize).collect();
            let p: Vec<f64> = own.iter().map(|&k| f64::exp(truth[k - 1])).collect();
            let total: f64 = p.iter().sum();
            let mut u = (next() % 1_000_000) as f64 / 1_000_000.0 * total;
            let mut played = 3;
            for (j, x) in p.iter().enumerate() {
                if u < *x {
                    played = j;
                    break;
                }
                u -= x;
            }
            for &k in &own {
                let near = (2 * COMBOS) as u16;
                set.index
                    .push([k as u16, COMBOS as u16, near, near + NEAR as u16]);
                set.hand.push(0.0);
            }
            set.start.push(first as u32);
            set.played.push((first + played) as u32);
        }
        let w = fit(&set, &vec![0.0; PARAMS], 300);
        for (k, want) in [(2, 1.0), (3, 2.0)] {
            let got = w[k] - w[1];
            assert!(
                (got - want).abs() < 0.15,
                "own {k}: {got:.3} against {want}"
            );
        }
        // Entries no candidate holds stay where they started.
        assert_eq!(w[4], 0.0);
    }

    /// A position where a side can make five is left out (the search plays it without
    /// order); another gives its candidates, the played move among them.
    #[test]
    fn positions_give_their_candidates() {
        let quiet = parse_diagram(
            "
            . . . . . . .
            . . . . . . .
            . . x o . . .
            . . . x . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            ",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        let mut set = Set::default();
        set.add(&quiet, Pos::new(4, 4));
        assert_eq!(set.positions(), 1);
        let r = set.range(0);
        assert_eq!(r.len(), quiet.candidates().count());
        assert!(r.contains(&(set.played[0] as usize)));
        // A move far from every stone is no candidate: the position is left out.
        let mut far = Set::default();
        far.add(&quiet, Pos::new(0, 6));
        assert_eq!(far.positions(), 0);
        let five = parse_diagram(
            "
            . . . . . . .
            . x x x x . .
            . . . . . . .
            . o o o . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            ",
        )
        .unwrap()
        .to_board(Rule::Freestyle)
        .unwrap();
        set.add(&five, Pos::new(4, 3));
        assert_eq!(set.positions(), 1);
        assert_eq!(set.index.len(), r.len());
    }
}
