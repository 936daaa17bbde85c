//! In-process self-play: two searchers with tiny limits play whole games under every rule on
//! 15×15 and 20×20, and every move is checked: on the board, on an empty square, never a renju
//! foul for black unless every square is one, a win taken when there is one, and the win judged
//! alike by `Grid::makes_win`, by the pattern tables (`Threat::Five`) and by an independent scan
//! of the whole board for a winning line (written here from protocol.md §7).

mod common;

use common::show;
use pentad::notation::{parse_pos_moves, pos_to_str};
use pentad::search::{Limits, Searcher};
use pentad::types::Cell;
use pentad::{Board, Color, Pos, Rule, Threat};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Is there a winning line of `color` anywhere on the board? Every maximal run of the colour in
/// the four directions is judged by the rule's definition.
fn scan_win(b: &Board, color: Color, rule: Rule) -> bool {
    let (w, h) = (b.width() as i64, b.height() as i64);
    let at = |x: i64, y: i64| -> Cell {
        match b.pos(x, y) {
            Some(p) => b.cell(p),
            None => Cell::Wall,
        }
    };
    let own = Cell::stone(color);
    let opp = Cell::stone(color.opp());
    for y in 0..h {
        for x in 0..w {
            if at(x, y) != own {
                continue;
            }
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if at(x - dx, y - dy) == own {
                    continue; // not the start of the run
                }
                let mut len = 0;
                while at(x + len * dx, y + len * dy) == own {
                    len += 1;
                }
                let before = at(x - dx, y - dy);
                let after = at(x + len * dx, y + len * dy);
                let blocked = before == opp && after == opp;
                let wins = match rule {
                    Rule::Freestyle => len >= 5,
                    Rule::Standard => len == 5,
                    Rule::Renju if color == Color::Black => len == 5,
                    Rule::Renju => len >= 5,
                    Rule::Caro => len > 5 || (len == 5 && !blocked),
                    Rule::CaroExact => len == 5 && !blocked,
                };
                if wins {
                    return true;
                }
            }
        }
    }
    false
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Result {
    Win(Color),
    /// Black had only fouls left and played one (renju).
    Foul,
    Draw,
}

struct Game {
    size: usize,
    rule: Rule,
    opening: &'static str,
    /// Search depths of black's and white's searcher.
    depth: [i32; 2],
}

fn limits(depth: i32) -> Limits {
    let mut l = Limits::depth(depth);
    l.max_nodes = Some(2048);
    // Safety nets only: the depth should end every search long before these.
    l.budget = pentad::time::Budget {
        soft: Duration::from_millis(150),
        hard: Duration::from_millis(400),
    };
    l
}

/// Plays a game; returns its result, the stones on the board at the end, and how many renju
/// foul squares black had to avoid over the game.
fn play(g: &Game) -> (Result, usize, usize) {
    let tag = format!("{}x{} {:?} {}", g.size, g.size, g.rule, g.opening);
    let mut b = Board::square(g.size, g.rule).unwrap();
    for (x, y) in parse_pos_moves(g.opening).unwrap() {
        let p = Pos::new(x, y);
        assert!(
            b.is_legal(p),
            "{tag}: opening move {} illegal",
            pos_to_str(p)
        );
        b.play(p);
    }
    let mut searchers = [Searcher::new(1 << 20), Searcher::new(1 << 20)];
    let stop = AtomicBool::new(false);
    let mut fouls_seen = 0;
    loop {
        let me = b.side_to_move();
        let empties: Vec<Pos> = b.squares().filter(|&p| b.is_empty(p)).collect();
        if empties.is_empty() {
            return (Result::Draw, b.stone_count(), fouls_seen);
        }
        let fouls = if g.rule == Rule::Renju && me == Color::Black {
            empties.iter().filter(|&&p| b.is_foul(me, p)).count()
        } else {
            0
        };
        fouls_seen += fouls;
        let has_legal = fouls < empties.len();
        let my_fives: Vec<Pos> = empties
            .iter()
            .copied()
            .filter(|&p| b.threat(me, p) == Threat::Five)
            .collect();
        let their_fives: Vec<Pos> = empties
            .iter()
            .copied()
            .filter(|&p| b.threat(me.opp(), p) == Threat::Five)
            .collect();

        let out = searchers[me.idx()].search(&b, &limits(g.depth[me.idx()]), &stop, &mut |_| {});
        let p = out.best;
        let ctx = format!(
            "{tag}, move {} by {:?}\n{}",
            b.stone_count() + 1,
            me,
            show(&b, Some((p, '@')))
        );
        assert!(
            !p.is_none(),
            "{}: no move on a board with empty squares",
            ctx
        );
        assert!(
            p.x() < b.width() && p.y() < b.height(),
            "{}: off the board",
            ctx
        );
        assert!(b.is_empty(p), "{}: occupied square", ctx);
        let foul = g.rule == Rule::Renju && me == Color::Black && b.grid().is_renju_foul(p);
        assert_eq!(
            foul,
            b.is_foul(me, p),
            "{}: Board::is_foul and the judge differ",
            ctx
        );
        assert!(
            !foul || !has_legal,
            "{}: black played a foul with legal moves left",
            ctx
        );
        if !my_fives.is_empty() {
            assert!(
                my_fives.contains(&p),
                "{}: a win on the spot was missed",
                ctx
            );
        } else if their_fives.len() == 1 && !b.is_foul(me, their_fives[0]) {
            assert_eq!(
                p, their_fives[0],
                "{}: the only block of a five was missed",
                ctx
            );
        }

        let judged = b.grid().makes_win(p, me, g.rule);
        let table = b.threat(me, p) == Threat::Five;
        assert_eq!(judged, table, "{}: makes_win and Threat::Five differ", ctx);
        b.play(p);
        assert_eq!(
            b.grid().makes_win(p, me, g.rule),
            judged,
            "{}: makes_win after",
            ctx
        );
        assert_eq!(
            scan_win(&b, me, g.rule),
            judged,
            "{}: the board scan disagrees",
            ctx
        );
        assert!(
            !scan_win(&b, me.opp(), g.rule),
            "{}: the opponent has a win",
            ctx
        );
        if judged {
            return (Result::Win(me), b.stone_count(), fouls_seen);
        }
        if foul {
            return (Result::Foul, b.stone_count(), fouls_seen);
        }
    }
}

fn run(games: &[Game]) {
    let t = Instant::now();
    for g in games {
        let s = Instant::now();
        let (r, n, fouls) = play(g);
        println!(
            "{}x{} {:?} from {}: {r:?} after {n} stones, {fouls} foul squares avoided ({:.1}s)",
            g.size,
            g.size,
            g.rule,
            g.opening,
            s.elapsed().as_secs_f64()
        );
    }
    println!("{} games in {:.1}s", games.len(), t.elapsed().as_secs_f64());
}

#[test]
fn selfplay_15x15_every_rule() {
    run(&[
        Game {
            size: 15,
            rule: Rule::Freestyle,
            opening: "h8i9",
            depth: [2, 1],
        },
        Game {
            size: 15,
            rule: Rule::Freestyle,
            opening: "h8h9j8",
            depth: [2, 2],
        },
        Game {
            size: 15,
            rule: Rule::Standard,
            opening: "h8j8i9",
            depth: [1, 2],
        },
        Game {
            size: 15,
            rule: Rule::Standard,
            opening: "h8g7",
            depth: [2, 2],
        },
        Game {
            size: 15,
            rule: Rule::Renju,
            opening: "h8i7j8",
            depth: [2, 1],
        },
        Game {
            size: 15,
            rule: Rule::Renju,
            opening: "h8h9",
            depth: [1, 2],
        },
        Game {
            size: 15,
            rule: Rule::Renju,
            opening: "h8i9j10",
            depth: [2, 2],
        },
        Game {
            size: 15,
            rule: Rule::Caro,
            opening: "h8g9",
            depth: [2, 1],
        },
        Game {
            size: 15,
            rule: Rule::Caro,
            opening: "h8i8h9",
            depth: [2, 2],
        },
        Game {
            size: 15,
            rule: Rule::CaroExact,
            opening: "h8i8",
            depth: [1, 2],
        },
        Game {
            size: 15,
            rule: Rule::CaroExact,
            opening: "h8g8i9",
            depth: [2, 2],
        },
    ]);
}

#[test]
fn selfplay_20x20_every_rule() {
    run(&[
        Game {
            size: 20,
            rule: Rule::Freestyle,
            opening: "k11l12",
            depth: [1, 2],
        },
        Game {
            size: 20,
            rule: Rule::Freestyle,
            opening: "k11k12m11",
            depth: [1, 2],
        },
        Game {
            size: 20,
            rule: Rule::Standard,
            opening: "k11j10l10",
            depth: [2, 1],
        },
        Game {
            size: 20,
            rule: Rule::Standard,
            opening: "k11l10",
            depth: [2, 2],
        },
        Game {
            size: 20,
            rule: Rule::Renju,
            opening: "k11l11",
            depth: [2, 1],
        },
        Game {
            size: 20,
            rule: Rule::Renju,
            opening: "k11l12m11",
            depth: [2, 2],
        },
        Game {
            size: 20,
            rule: Rule::Caro,
            opening: "k11m11l12",
            depth: [1, 2],
        },
        Game {
            size: 20,
            rule: Rule::CaroExact,
            opening: "k11k12",
            depth: [2, 1],
        },
    ]);
}

/// Small boards fill up: the draw at a full board, and fouls that pile up in renju.
#[test]
fn selfplay_small_boards_to_the_end() {
    run(&[
        Game {
            size: 6,
            rule: Rule::Freestyle,
            opening: "c3d4",
            depth: [1, 1],
        },
        Game {
            size: 6,
            rule: Rule::Standard,
            opening: "c3",
            depth: [2, 2],
        },
        Game {
            size: 7,
            rule: Rule::Renju,
            opening: "d4c3",
            depth: [1, 1],
        },
        Game {
            size: 7,
            rule: Rule::Renju,
            opening: "d4",
            depth: [2, 2],
        },
        Game {
            size: 6,
            rule: Rule::Caro,
            opening: "c3d3",
            depth: [1, 1],
        },
        Game {
            size: 6,
            rule: Rule::CaroExact,
            opening: "d4",
            depth: [2, 2],
        },
    ]);
}

/// A crowded renju position where black has nothing but fouls: the searcher must still move.
#[test]
fn renju_black_with_only_fouls_still_moves() {
    // Both empty squares give black six in a row.
    let d = pentad::notation::parse_diagram(
        "
        x x x . x x
        o o x o o x
        x x o x x o
        o o x o o x
        x x o x x o
        x x . x x x",
    )
    .unwrap();
    let mut b = d.to_board(Rule::Renju).unwrap();
    b.set_side_to_move(Color::Black);
    let empties: Vec<Pos> = b.squares().filter(|&p| b.is_empty(p)).collect();
    assert_eq!(empties.len(), 2);
    for &p in &empties {
        assert!(
            b.is_foul(Color::Black, p) && b.grid().is_renju_foul(p),
            "{p:?}"
        );
        assert!(!scan_win(&b, Color::Black, Rule::Renju));
    }
    let stop = AtomicBool::new(false);
    let out = Searcher::new(1 << 20).search(&b, &limits(2), &stop, &mut |_| {});
    assert!(empties.contains(&out.best), "played {:?}", out.best);
}
