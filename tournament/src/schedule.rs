//! The schedule: which engines meet (round robin or gauntlet), how many games per pairing,
//! which opening each pair of games uses (both colours), and the shard a game belongs to.

use crate::opening::{random_symmetry, Opening, Symmetry};
use crate::play::Job;
use serde::{Deserialize, Serialize};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// How openings get a symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum SymmetryMode {
    /// As written.
    None,
    /// A seeded random symmetry for each pair of games.
    Random,
    /// Each opening expanded into its distinct symmetric images (done when loading).
    Expand,
}

/// The pairings of `n` engines, first engine of each pair first.
pub fn pairings(n: usize, kind: Kind) -> Vec<(usize, usize)> {
    match kind {
        Kind::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Kind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    }
}

/// A shard `k/n` (1-based `k`): the games whose index `i` has `i mod n == k − 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which one, from 1.
    pub k: usize,
    /// How many.
    pub n: usize,
}

impl Shard {
    /// Parses `k/n`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("shard '{s}' is not k/n"))?;
        let k: usize = k.trim().parse().map_err(|_| format!("bad shard '{s}'"))?;
        let n: usize = n.trim().parse().map_err(|_| format!("bad shard '{s}'"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("shard '{s}': need 1 <= k <= n"));
        }
        Ok(Shard { k, n })
    }

    /// True when game `i` is in this shard.
    pub fn contains(&self, i: usize) -> bool {
        i % self.n == self.k - 1
    }
}

/// Builds every game of the tournament in schedule order: pair by pair, and within a pair
/// index pairing by pairing, the two games of a pair next to each other (the first engine of
/// the pairing is black in the first game). Pair `k` uses opening `k mod len` (the empty board
/// when there are no openings).
pub fn build(
    n_engines: usize,
    kind: Kind,
    games_per_pairing: usize,
    openings: &[Opening],
    symmetry: SymmetryMode,
    seed: u64,
    (width, height): (usize, usize),
) -> Vec<Job> {
    let pairs = pairings(n_engines, kind);
    let mut jobs = Vec::new();
    let n_pairs = games_per_pairing.div_ceil(2);
    for k in 0..n_pairs {
        let (moves, source) = if openings.is_empty() {
            (Vec::new(), String::new())
        } else {
            let o = &openings[k % openings.len()];
            (o.moves.clone(), o.source.clone())
        };
        let sym = match symmetry {
            SymmetryMode::Random => random_symmetry(seed, k, width, height),
            _ => Symmetry::IDENTITY,
        };
        let moves = sym.apply_all(&moves, width, height);
        for (pi, &(a, b)) in pairs.iter().enumerate() {
            for g in 0..2 {
                if 2 * k + g >= games_per_pairing {
                    break;
                }
                let (black, white) = if g == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    id: jobs.len(),
                    pairing: pi,
                    pair: k,
                    black,
                    white,
                    opening: moves.clone(),
                    opening_source: source.clone(),
                    symmetry: sym,
                });
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_both_kinds() {
        assert_eq!(
            pairings(4, Kind::RoundRobin),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(4, Kind::Gauntlet), vec![(0, 1), (0, 2), (0, 3)]);
        assert!(pairings(1, Kind::RoundRobin).is_empty());
    }

    #[test]
    fn games_pairs_and_openings() {
        let openings: Vec<Opening> = (0..2)
            .map(|i| Opening {
                moves: vec![(7, 7), (8 + i, 8)],
                source: format!("o:{i}"),
            })
            .collect();
        let jobs = build(
            3,
            Kind::RoundRobin,
            5,
            &openings,
            SymmetryMode::None,
            1,
            (15, 15),
        );
        assert_eq!(jobs.len(), 3 * 5);
        for (i, j) in jobs.iter().enumerate() {
            assert_eq!(j.id, i);
        }
        // The first two games: pairing 0, pair 0, colours swapped, same opening.
        assert_eq!((jobs[0].black, jobs[0].white), (0, 1));
        assert_eq!((jobs[1].black, jobs[1].white), (1, 0));
        assert_eq!(jobs[0].opening, jobs[1].opening);
        assert_eq!(jobs[0].opening_source, "o:0");
        // Pair 1 uses the second opening, pair 2 the first again.
        let p1: Vec<_> = jobs.iter().filter(|j| j.pair == 1).collect();
        assert!(p1.iter().all(|j| j.opening_source == "o:1"));
        let p2: Vec<_> = jobs.iter().filter(|j| j.pair == 2).collect();
        assert_eq!(p2.len(), 3); // odd game count: the last pair has one game per pairing
        assert!(p2.iter().all(|j| j.opening_source == "o:0"));
        // Every pairing gets the same number of games.
        for pi in 0..3 {
            let g: Vec<_> = jobs.iter().filter(|j| j.pairing == pi).collect();
            assert_eq!(g.len(), 5);
        }
        // Random symmetry: both games of a pair share it; it is seeded.
        let a = build(
            2,
            Kind::Gauntlet,
            16,
            &openings,
            SymmetryMode::Random,
            9,
            (15, 15),
        );
        let b = build(
            2,
            Kind::Gauntlet,
            16,
            &openings,
            SymmetryMode::Random,
            9,
            (15, 15),
        );
        assert_eq!(
            a.iter().map(|j| j.opening.clone()).collect::<Vec<_>>(),
            b.iter().map(|j| j.opening.clone()).collect::<Vec<_>>()
        );
        for pair in a.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].symmetry, pair[1].symmetry);
        }
        assert!(a.iter().any(|j| j.symmetry != Symmetry::IDENTITY));
        // No openings: empty boards.
        let e = build(
            2,
            Kind::RoundRobin,
            2,
            &[],
            SymmetryMode::Random,
            1,
            (15, 15),
        );
        assert!(e.iter().all(|j| j.opening.is_empty()));
    }

    #[test]
    fn shards_partition_the_schedule() {
        let s = Shard::parse("2/3").unwrap();
        assert!(s.contains(1) && s.contains(4) && !s.contains(0) && !s.contains(2));
        for n in 1..5 {
            for i in 0..50 {
                let owners = (1..=n).filter(|&k| Shard { k, n }.contains(i)).count();
                assert_eq!(owners, 1);
            }
        }
        assert!(Shard::parse("0/2").is_err());
        assert!(Shard::parse("3/2").is_err());
        assert!(Shard::parse("1-2").is_err());
    }
}
