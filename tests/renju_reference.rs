//! The renju judge against an independent reference written from the RIF definitions
//! (renju.net rifrules, protocol.md §7.4) rather than from the referees' shape tests:
//!
//! * FIVE: the stone is in a run of exactly five;
//! * FOUR: a line through the stone where one more stone makes exactly five with it; two fours
//!   on one line count twice when they are made of different stones (`XXX.X.XXX`);
//! * STRAIGHT FOUR: an unbroken run of four whose both ends complete an exact five;
//! * THREE: a line where one more stone makes a straight four with it, "without at the same time
//!   a five in a row being made" (the referees' reading: the stone that makes the straight four
//!   must itself be allowed, judged recursively, a five counting as not allowed);
//! * the order of the referees: five (allowed), double four, double three, overline.
//!
//! Pseudo-random crowded positions are judged by both on every empty square.

mod common;

use common::{show, Rng};
use pentad::types::Cell;
use pentad::{Board, Color, Pos, Rule};

const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain board: 0 empty, 1 black, 2 white, 3 wall.
#[derive(Clone)]
struct Plain {
    w: i64,
    h: i64,
    c: Vec<u8>,
}

impl Plain {
    fn of(b: &Board) -> Plain {
        let (w, h) = (b.width() as i64, b.height() as i64);
        let mut c = vec![0; (w * h) as usize];
        for y in 0..h {
            for x in 0..w {
                c[(y * w + x) as usize] = match b.cell(Pos::new(x as usize, y as usize)) {
                    Cell::Empty => 0,
                    Cell::Black => 1,
                    Cell::White => 2,
                    Cell::Wall => 3,
                };
            }
        }
        Plain { w, h, c }
    }
    fn at(&self, x: i64, y: i64) -> u8 {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            3
        } else {
            self.c[(y * self.w + x) as usize]
        }
    }
    fn set(&mut self, x: i64, y: i64, v: u8) {
        self.c[(y * self.w + x) as usize] = v;
    }
    /// Length of the black run through (x, y) along (dx, dy), and its two ends (inclusive).
    fn run(&self, x: i64, y: i64, (dx, dy): (i64, i64)) -> (i64, i64, i64) {
        let mut lo = 0;
        while self.at(x + (lo - 1) * dx, y + (lo - 1) * dy) == 1 {
            lo -= 1;
        }
        let mut hi = 0;
        while self.at(x + (hi + 1) * dx, y + (hi + 1) * dy) == 1 {
            hi += 1;
        }
        (hi - lo + 1, lo, hi)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    Allowed,
    Five,
    DoubleFour,
    DoubleThree,
    Overline,
}

/// The distinct fours through (x, y) on one line (black on (x, y)): sets of four stones
/// (offsets along the line) that one more stone turns into an exact five.
fn fours(g: &mut Plain, x: i64, y: i64, d: (i64, i64)) -> usize {
    let mut sets: Vec<Vec<i64>> = Vec::new();
    for k in -4..=4i64 {
        let (ex, ey) = (x + k * d.0, y + k * d.1);
        if k == 0 || g.at(ex, ey) != 0 {
            continue;
        }
        g.set(ex, ey, 1);
        let (len, lo, hi) = g.run(x, y, d);
        g.set(ex, ey, 0);
        if len == 5 && (lo..=hi).contains(&k) {
            let set: Vec<i64> = (lo..=hi).filter(|&i| i != k).collect();
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
    }
    sets.len()
}

/// Squares (offsets) on one line that turn the stone on (x, y) into part of a straight four.
fn straight_four_points(g: &mut Plain, x: i64, y: i64, d: (i64, i64)) -> Vec<i64> {
    let mut pts = Vec::new();
    for k in -3..=3i64 {
        let (ex, ey) = (x + k * d.0, y + k * d.1);
        if k == 0 || g.at(ex, ey) != 0 {
            continue;
        }
        g.set(ex, ey, 1);
        let (len, lo, hi) = g.run(x, y, d);
        if len == 4 && (lo..=hi).contains(&k) {
            // Both ends must be empty and each must make exactly five.
            let ends_make_five = [lo - 1, hi + 1].iter().all(|&e| {
                let (cx, cy) = (x + e * d.0, y + e * d.1);
                if g.at(cx, cy) != 0 {
                    return false;
                }
                g.set(cx, cy, 1);
                let five = g.run(x, y, d).0 == 5;
                g.set(cx, cy, 0);
                five
            });
            if ends_make_five {
                pts.push(k);
            }
        }
        g.set(ex, ey, 0);
    }
    pts
}

/// Black on the empty square (x, y): `top` for the move itself (a five is allowed), else a
/// straight-four point inside the judgement (a five is not).
fn judge(g: &mut Plain, x: i64, y: i64, top: bool) -> V {
    if g.at(x, y) != 0 {
        return V::Allowed;
    }
    g.set(x, y, 1);
    let v = if DIRS.iter().any(|&d| g.run(x, y, d).0 == 5) {
        if top {
            V::Allowed
        } else {
            V::Five
        }
    } else if DIRS.iter().map(|&d| fours(g, x, y, d)).sum::<usize>() >= 2 {
        V::DoubleFour
    } else if DIRS
        .iter()
        .filter(|&&d| {
            straight_four_points(g, x, y, d)
                .into_iter()
                .any(|k| judge(g, x + k * d.0, y + k * d.1, false) == V::Allowed)
        })
        .count()
        >= 2
    {
        V::DoubleThree
    } else if DIRS.iter().any(|&d| g.run(x, y, d).0 >= 6) {
        V::Overline
    } else {
        V::Allowed
    };
    g.set(x, y, 0);
    v
}

/// Lines through the empty square (x, y) that hold a three by shape (with a straight-four point),
/// before asking whether those points are allowed.
fn raw_threes(g: &mut Plain, x: i64, y: i64) -> usize {
    g.set(x, y, 1);
    let five = DIRS.iter().any(|&d| g.run(x, y, d).0 == 5);
    let n = DIRS
        .iter()
        .filter(|&&d| !five && !straight_four_points(g, x, y, d).is_empty())
        .count();
    g.set(x, y, 0);
    n
}

/// A crowded position: black and white runs in the middle of the board.
fn random_position(rng: &mut Rng, (w, h): (usize, usize)) -> Board {
    let mut b = Board::new(w, h, Rule::Renju).unwrap();
    let (sw, sh) = (7 + rng.below(w - 6), 7 + rng.below(h - 6));
    let (ox, oy) = ((w - sw) / 2, (h - sh) / 2);
    let stones = sw * sh * (30 + rng.below(25)) / 100;
    let mut placed = 0;
    while placed < stones {
        let (x, y) = (ox + rng.below(sw), oy + rng.below(sh));
        let (dx, dy) = DIRS[rng.below(4)];
        // More black than white, so that black shapes (and fouls) are common.
        let color = if rng.below(5) < 3 {
            Color::Black
        } else {
            Color::White
        };
        for k in 0..1 + rng.below(4) as i64 {
            let Some(p) = b.pos(x as i64 + k * dx, y as i64 + k * dy) else {
                break;
            };
            if b.is_empty(p) && rng.below(4) != 0 {
                b.put(p, color);
                placed += 1;
            }
        }
    }
    b
}

#[test]
fn reference_judge_on_fixtures() {
    for f in common::load("renju_fouls.txt") {
        let b = common::board_of(&f.diagram, Rule::Renju);
        let mut g = Plain::of(&b);
        for (mark, foul) in [('!', true), ('*', false)] {
            for p in f.diagram.marked(mark) {
                let v = judge(&mut g, p.x() as i64, p.y() as i64, true);
                assert_eq!(
                    v != V::Allowed,
                    foul,
                    "line {} ({}): reference says {v:?} at {p:?}",
                    f.line,
                    f.title
                );
            }
        }
    }
}

#[test]
fn judge_agrees_with_the_reference_on_random_positions() {
    let rounds: usize = std::env::var("PENTAD_RANDOM_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut rng = Rng(0xF0_u64 << 32 | 0x5EED);
    let mut kinds = std::collections::BTreeMap::new();
    let mut differ = Vec::new();
    let mut squares = 0;
    for round in 0..rounds {
        let size = [(15, 15), (15, 15), (11, 11), (20, 20), (9, 15), (20, 12)][round % 6];
        let b = random_position(&mut rng, size);
        let mut g = Plain::of(&b);
        for p in b.squares().filter(|&p| b.is_empty(p)) {
            squares += 1;
            let r = judge(&mut g, p.x() as i64, p.y() as i64, true);
            *kinds.entry(format!("{r:?}")).or_insert(0) += 1;
            if r == V::Allowed && raw_threes(&mut g, p.x() as i64, p.y() as i64) >= 2 {
                // Two threes by shape, but not two real ones: the recursion decided.
                *kinds
                    .entry("Allowed, fake double three".into())
                    .or_insert(0) += 1;
            }
            let j = b.grid().is_renju_foul(p);
            if j != b.is_foul(Color::Black, p) {
                differ.push(format!(
                    "position {round} at {p:?}: Board::is_foul != the judge"
                ));
            }
            if j != (r != V::Allowed) {
                differ.push(format!(
                    "position {round} at {p:?}: judge says {}, reference says {r:?}\n{}",
                    if j { "foul" } else { "allowed" },
                    show(&b, Some((p, '?')))
                ));
            }
        }
    }
    println!(
        "{squares} squares judged; reference verdicts {kinds:?}; {} differ",
        differ.len()
    );
    for d in differ.iter().take(10) {
        println!("{d}");
    }
    assert!(differ.is_empty(), "{} squares differ", differ.len());
}
