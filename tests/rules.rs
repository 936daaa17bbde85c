//! Which lines win under each rule (`tests/fixtures/wins.txt`), judged by `Grid::makes_win` and by
//! the incremental pattern tables (`Board::threat(..) == Threat::Five`), which must agree; the
//! same agreement on every square of every fixture and of pseudo-random positions.

mod common;

use common::{board_of, load, show, swap_colors, Fixture, Rng, RULES};
use pentad::notation::Diagram;
use pentad::{Board, Color, Pos, Rule, Threat};

/// Expected winners of a fixture: for each rule, (black playing the drawn board, white playing
/// the colour-swapped board).
fn expected(f: &Fixture) -> Vec<(Rule, [bool; 2])> {
    let toks: Vec<&str> = f
        .get("wins")
        .unwrap_or_else(|| panic!("line {} ({}): no `wins:` line", f.line, f.title))
        .split_whitespace()
        .collect();
    for t in &toks {
        assert!(
            RULES.iter().any(|(_, n)| n == t) || *t == "renju-black" || *t == "renju-white",
            "line {} ({}): unknown rule name {t}",
            f.line,
            f.title
        );
    }
    let has = |t: &str| toks.contains(&t);
    RULES
        .iter()
        .map(|&(rule, name)| {
            let both = has(name);
            let pair = if rule == Rule::Renju {
                [both || has("renju-black"), both || has("renju-white")]
            } else {
                [both, both]
            };
            (rule, pair)
        })
        .collect()
}

fn played_square(f: &Fixture) -> Pos {
    let m = f.diagram.marked('*');
    assert_eq!(
        m.len(),
        1,
        "line {} ({}): mark one square *",
        f.line,
        f.title
    );
    m[0]
}

#[test]
fn wins_and_non_wins_under_every_rule() {
    let fx = load("wins.txt");
    assert!(fx.len() >= 20);
    let mut failures = Vec::new();
    for f in &fx {
        let p = played_square(f);
        for (rule, want) in expected(f) {
            for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
                // The drawn board is black's view; white plays the board with colours swapped.
                let d: Diagram = if color == Color::Black {
                    f.diagram.clone()
                } else {
                    swap_colors(&f.diagram)
                };
                let b = board_of(&d, rule);
                let judged = b.grid().makes_win(p, color, rule);
                let table = b.threat(color, p) == Threat::Five;
                let mut placed = b.clone();
                placed.put(p, color);
                let after = placed.grid().makes_win(p, color, rule);
                if judged != want[i] || table != want[i] || after != want[i] {
                    failures.push(format!(
                        "line {} \"{}\", {rule:?}, {} plays {p:?}: expected win = {}, makes_win \
                         before = {judged}, after = {after}, Threat::Five = {table}\n{}",
                        f.line,
                        f.title,
                        common::color_name(color),
                        want[i],
                        show(&b, Some((p, '*')))
                    ));
                }
                if rule == Rule::Renju && color == Color::Black && want[i] {
                    assert!(
                        !b.is_foul(Color::Black, p) && !b.grid().is_renju_foul(p),
                        "line {} ({}): a winning renju move judged foul",
                        f.line,
                        f.title
                    );
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `makes_win` against the pattern tables on one board, every empty square, both colours.
fn cross_check(b: &Board, rule: Rule, what: &str, failures: &mut Vec<String>) -> usize {
    let mut fives = 0;
    for p in b.squares() {
        if !b.is_empty(p) {
            continue;
        }
        for color in [Color::Black, Color::White] {
            let judged = b.grid().makes_win(p, color, rule);
            let table = b.threat(color, p) == Threat::Five;
            fives += judged as usize;
            if judged != table && failures.len() < 20 {
                failures.push(format!(
                    "{what}, {rule:?}, {} at {p:?}: makes_win = {judged}, Threat::Five = {table}\n{}",
                    common::color_name(color),
                    show(b, Some((p, '?')))
                ));
            }
            if judged != b.wins_by(color, p) && failures.len() < 20 {
                failures.push(format!("{what}, {rule:?}: wins_by disagrees at {p:?}"));
            }
        }
        if rule == Rule::Renju {
            let judge = b.grid().is_renju_foul(p);
            if judge != b.is_foul(Color::Black, p) && failures.len() < 20 {
                failures.push(format!(
                    "{what}: Board::is_foul = {} but the judge says {judge} at {p:?}\n{}",
                    b.is_foul(Color::Black, p),
                    show(b, Some((p, '?')))
                ));
            }
            if judge && b.grid().makes_win(p, Color::Black, rule) && failures.len() < 20 {
                failures.push(format!("{what}: a renju five judged foul at {p:?}"));
            }
        }
    }
    fives
}

#[test]
fn every_square_of_every_fixture_agrees() {
    let mut failures = Vec::new();
    let mut fixtures = load("wins.txt");
    fixtures.extend(load("renju_fouls.txt"));
    for f in &fixtures {
        for (rule, _) in RULES {
            for d in [f.diagram.clone(), swap_colors(&f.diagram)] {
                let b = board_of(&d, rule);
                cross_check(
                    &b,
                    rule,
                    &format!("line {} \"{}\"", f.line, f.title),
                    &mut failures,
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pseudo-random crowded positions (runs of stones, walls now and then) on several board sizes.
/// `PENTAD_RANDOM_ROUNDS` sets how many (60 by default).
#[test]
fn random_positions_agree() {
    let rounds: usize = std::env::var("PENTAD_RANDOM_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng(0x5EED_2024);
    let mut failures = Vec::new();
    let mut fives = 0;
    let mut positions = 0;
    for round in 0..rounds {
        let (w, h) = [(15, 15), (9, 9), (20, 20), (7, 11), (5, 5), (12, 8)][round % 6];
        let rule = RULES[round % 5].0;
        let mut b = Board::new(w, h, rule).unwrap();
        let stones = w * h * (25 + rng.below(30)) / 100;
        let mut placed = 0;
        while placed < stones {
            // Lay short runs so that fours, fives and overlines are common.
            let (x, y) = (rng.below(w), rng.below(h));
            let (dx, dy) = [(1i64, 0i64), (0, 1), (1, 1), (1, -1)][rng.below(4)];
            let color = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            let len = 1 + rng.below(5);
            for k in 0..len as i64 {
                let Some(p) = b.pos(x as i64 + k * dx, y as i64 + k * dy) else {
                    break;
                };
                if b.is_empty(p) && rng.below(6) != 0 {
                    if rng.below(60) == 0 {
                        b.put_wall(p);
                    } else {
                        b.put(p, color);
                    }
                    placed += 1;
                }
            }
        }
        positions += 1;
        fives += cross_check(&b, rule, &format!("random position {round}"), &mut failures);
        // The same stones judged under the other rules.
        for (other, _) in RULES {
            if other != rule {
                let mut c = b.clone();
                c.set_rule(other);
                cross_check(
                    &c,
                    other,
                    &format!("random position {round}"),
                    &mut failures,
                );
            }
        }
    }
    println!("{positions} random positions, {fives} winning squares under their own rule");
    assert!(
        fives > rounds,
        "the random positions should hold many fives"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rule_numbers() {
    for (v, r) in [
        (0, Rule::Freestyle),
        (1, Rule::Standard),
        (2, Rule::Renju),
        (4, Rule::Renju),
        (8, Rule::Caro),
        (9, Rule::CaroExact),
    ] {
        assert_eq!(Rule::from_info(v), r, "INFO rule {v}");
    }
    for (r, name) in RULES {
        assert_eq!(Rule::from_info(r.info_value()), r);
        assert_eq!(Rule::parse(name), Some(r));
    }
}

/// Renju: black's exact five wins, black's overline neither wins nor is allowed, white's
/// overline wins; the same stones under freestyle are all wins.
#[test]
fn renju_overline_by_colour() {
    let d = pentad::notation::parse_diagram(
        "
        . . . . . . . . .
        . x x x * x x . .
        . . . . . . . . .
        . o o o + o o . .
        . . . . . . . . .",
    )
    .unwrap();
    let b = board_of(&d, Rule::Renju);
    let (pb, pw) = (Pos::new(4, 1), Pos::new(4, 3));
    assert!(!b.grid().makes_win(pb, Color::Black, Rule::Renju));
    assert!(b.grid().is_renju_foul(pb));
    assert!(b.is_foul(Color::Black, pb));
    assert_eq!(b.side_to_move(), Color::Black);
    assert!(!b.is_legal(pb));
    assert!(b.grid().makes_win(pw, Color::White, Rule::Renju));
    assert_eq!(b.threat(Color::White, pw), Threat::Five);
    assert!(!b.is_foul(Color::White, pw));
    let f = board_of(&d, Rule::Freestyle);
    assert!(f.grid().makes_win(pb, Color::Black, Rule::Freestyle));
    assert!(!f.is_foul(Color::Black, pb));
}
