//! Renju fouls for black, position by position (`tests/fixtures/renju_fouls.txt`), judged by the
//! board (`Board::is_foul`, the pattern-table filter in front of the judge) and by the referee
//! judge itself (`Grid::is_renju_foul`), in all eight symmetries of each board.

mod common;

use common::{board_of, load, show, transform, Fixture};
use pentad::{Color, Pos, Rule, Threat};

const FILE: &str = "renju_fouls.txt";

fn fixtures() -> Vec<Fixture> {
    let f = load(FILE);
    assert!(!f.is_empty(), "no fixtures in {FILE}");
    f
}

/// The marked squares of a fixture with the verdict they carry (true = foul).
fn expectations(f: &Fixture, sym: usize) -> Vec<(Pos, bool)> {
    let d = transform(&f.diagram, sym);
    let mut v: Vec<(Pos, bool)> = d.marked('!').into_iter().map(|p| (p, true)).collect();
    v.extend(d.marked('*').into_iter().map(|p| (p, false)));
    v
}

#[test]
fn fixture_file_is_well_formed() {
    let fx = fixtures();
    let mut squares = 0;
    for f in &fx {
        let marks = expectations(f, 0);
        assert!(
            !marks.is_empty(),
            "line {} ({}): no square marked ! or *",
            f.line,
            f.title
        );
        for &(x, y, c) in &f.diagram.marks {
            assert!(
                c == '!' || c == '*',
                "line {} ({}): unknown mark '{c}' at {x},{y}",
                f.line,
                f.title
            );
        }
        squares += marks.len();
    }
    let fouls: usize = fx.iter().map(|f| f.diagram.marked('!').len()).sum();
    println!(
        "{} positions, {squares} judged squares ({fouls} fouls, {} allowed)",
        fx.len(),
        squares - fouls
    );
    assert!(fx.len() >= 60, "expected at least 60 positions");
}

/// Every marked square, in every symmetry, judged by the board and by the judge.
#[test]
fn marked_squares_match_the_referee_verdicts() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in fixtures() {
        let syms = if f.diagram.width == f.diagram.height {
            0..8
        } else {
            0..1
        };
        for sym in syms {
            let d = transform(&f.diagram, sym);
            let b = board_of(&d, Rule::Renju);
            for (p, foul) in expectations(&f, sym) {
                checked += 1;
                let by_board = b.is_foul(Color::Black, p);
                let by_judge = b.grid().is_renju_foul(p);
                if by_board != foul || by_judge != foul {
                    failures.push(format!(
                        "line {} \"{}\" (symmetry {sym}) at {p:?}: expected {}, Board::is_foul \
                         says {by_board}, Grid::is_renju_foul says {by_judge}\n{}",
                        f.line,
                        f.title,
                        if foul { "foul" } else { "allowed" },
                        show(&b, Some((p, if foul { '!' } else { '*' })))
                    ));
                }
                if b.is_foul(Color::White, p) {
                    failures.push(format!(
                        "line {} \"{}\" (symmetry {sym}) at {p:?}: white judged foul",
                        f.line, f.title
                    ));
                }
            }
        }
    }
    println!("{checked} judged squares (with symmetries)");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The board's cheap filter (`may_be_foul`) must never hide a foul the judge finds; a square
/// where black makes five is never a foul; white is never restricted; occupied squares are not
/// judged fouls.
#[test]
fn every_square_of_every_fixture_agrees_with_the_judge() {
    let mut failures = Vec::new();
    let mut fouls = 0;
    for f in fixtures() {
        let b = board_of(&f.diagram, Rule::Renju);
        for p in b.squares() {
            let judge = b.grid().is_renju_foul(p);
            if !b.is_empty(p) {
                if judge {
                    failures.push(format!("line {}: occupied {p:?} judged foul", f.line));
                }
                continue;
            }
            fouls += judge as usize;
            if b.is_foul(Color::Black, p) != judge {
                failures.push(format!(
                    "line {} \"{}\" at {p:?}: Board::is_foul {} but the judge says {judge}\n{}",
                    f.line,
                    f.title,
                    b.is_foul(Color::Black, p),
                    show(&b, Some((p, '?')))
                ));
            }
            if b.grid().makes_win(p, Color::Black, Rule::Renju) && judge {
                failures.push(format!(
                    "line {} \"{}\" at {p:?}: black makes five yet is judged foul",
                    f.line, f.title
                ));
            }
            let five_by_table = b.threat(Color::Black, p) == Threat::Five;
            if five_by_table != b.grid().makes_win(p, Color::Black, Rule::Renju) {
                failures.push(format!(
                    "line {} \"{}\" at {p:?}: pattern tables say five = {five_by_table}, \
                     makes_win disagrees\n{}",
                    f.line,
                    f.title,
                    show(&b, Some((p, '?')))
                ));
            }
            if b.is_foul(Color::White, p) {
                failures.push(format!("line {}: white foul at {p:?}", f.line));
            }
        }
    }
    println!("{fouls} foul squares over all fixture boards");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Under any other rule nothing is a foul, even on squares that are renju fouls.
#[test]
fn fouls_are_renju_only() {
    for f in fixtures() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroExact] {
            let b = board_of(&f.diagram, rule);
            for p in f.diagram.marked('!') {
                assert!(
                    !b.is_foul(Color::Black, p),
                    "line {} ({}): foul at {p:?} under {rule:?}",
                    f.line,
                    f.title
                );
                assert!(b.is_empty(p));
            }
        }
    }
}

/// Stones put on the board and taken off again leave the verdicts as they were: the foul squares
/// depend on the stones only, not on how the incremental state got there.
#[test]
fn judged_the_same_after_put_and_remove() {
    for f in fixtures().into_iter().take(20) {
        let b = board_of(&f.diagram, Rule::Renju);
        let mut c = b.clone();
        let extra: Vec<Pos> = b.squares().filter(|&p| b.is_empty(p)).take(3).collect();
        for &p in &extra {
            c.put(p, Color::White);
        }
        for _ in &extra {
            let last = c.last_move().unwrap();
            c.remove(last);
        }
        for (p, foul) in expectations(&f, 0) {
            assert_eq!(
                c.is_foul(Color::Black, p),
                foul,
                "line {} ({}): at {p:?} after put/remove",
                f.line,
                f.title
            );
        }
    }
}
