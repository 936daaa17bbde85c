//! End-to-end runs of `pentad-tournament` with the test engine (`tour-test-engine`): a
//! reference opponent and engines that crash, hang, print garbage, play on a stone, overrun the
//! clock, allocate past the memory limit, never say OK, or play a renju foul. Each game must end
//! with the right reason and the tournament must go on to the next game. Engines that print
//! stray lines before their OK or move are judged as each manager would judge them.

use std::path::{Path, PathBuf};
use std::process::Command;
use tournament::record::{Reason, Winner};
use tournament::report::Results;

const BIN: &str = env!("CARGO_BIN_EXE_pentad-tournament");
const ENGINE: &str = env!("CARGO_BIN_EXE_tour-test-engine");

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tour-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn engine(name: &str, args: &str, extra: &[&str]) -> Vec<String> {
    let mut v = vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={ENGINE} {args}"),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

/// Runs the tournament with `args` into `dir`; returns (exit code, stdout, results).
fn run(dir: &Path, args: &[String]) -> (i32, String, Results) {
    let out = Command::new(BIN)
        .args(args)
        .arg("--out")
        .arg(dir)
        .arg("--quiet")
        .output()
        .expect("run pentad-tournament");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or(-1);
    let res = Results::load(&dir.join("results.json"))
        .unwrap_or_else(|e| panic!("no results ({e:#}); stdout:\n{stdout}\nstderr:\n{stderr}"));
    (code, stdout, res)
}

fn args(parts: &[&[String]], rest: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = parts.iter().flat_map(|p| p.iter().cloned()).collect();
    v.extend(rest.iter().map(|s| s.to_string()));
    v
}

/// Plays `games` games of the reference engine against `bad` and checks that every game ends
/// with `reason`, lost by the bad engine.
fn check_fault(
    name: &str,
    bad: &str,
    bad_extra: &[&str],
    reason: Reason,
    rest: &[&str],
) -> Results {
    check_fault_among(name, bad, bad_extra, &[reason], rest)
}

/// Like `check_fault`, where the fault may show as any of `reasons` (a race between the engine
/// and the runner decides which).
fn check_fault_among(
    name: &str,
    bad: &str,
    bad_extra: &[&str],
    reasons: &[Reason],
    rest: &[&str],
) -> Results {
    let dir = scratch(name);
    let a = args(
        &[&engine("good", "", &[]), &engine("bad", bad, bad_extra)],
        &[
            &[
                "--games",
                "2",
                "--turn",
                "400",
                "--match",
                "20000",
                "--tolerance",
                "300",
            ],
            rest,
        ]
        .concat(),
    );
    let (code, stdout, r) = run(&dir, &a);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(r.games.len(), 2, "{stdout}");
    for g in &r.games {
        assert!(
            reasons.contains(&g.reason),
            "game {}: {} ({})",
            g.id,
            g.reason.name(),
            g.detail
        );
        assert_eq!(
            g.score_of(1),
            Some(0.0),
            "the misbehaving engine loses game {}",
            g.id
        );
    }
    assert_eq!(r.summary.engines[0].tally.wins, 2);
    assert!(
        reasons.iter().any(|r| stdout.contains(r.name())),
        "{stdout}"
    );
    r
}

#[test]
fn reference_games_files_and_log() {
    let dir = scratch("reference");
    let openings = dir.join("openings.txt");
    // One pos line, one offset line, a comment, and one illegal opening (skipped).
    std::fs::write(&openings, "# test openings\nh8i9\n0,0, 1,0, 1,3\nh8h8\n").unwrap();
    let log = dir.join("io.log");
    let a = args(
        &[
            &engine("good", "", &[]),
            &engine("rnd", "--mode random --seed 5", &[]),
        ],
        &[
            "--games",
            "4",
            "--turn",
            "1000",
            "--match",
            "30000",
            "--openings",
            openings.to_str().unwrap(),
            "--symmetry",
            "random",
            "--log-io",
            log.to_str().unwrap(),
        ],
    );
    let (code, stdout, r) = run(&dir, &a);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(r.games.len(), 4);
    assert_eq!(r.config.openings_used, 2);
    for g in &r.games {
        assert!(
            matches!(g.reason, Reason::Five | Reason::Draw),
            "{:?}",
            g.reason
        );
        assert!(!g.opening.is_empty());
        let stem = dir.join("games").join(g.file_stem());
        let psq = std::fs::read_to_string(stem.with_extension("psq")).unwrap();
        assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n"), "{psq}");
        assert!(psq.ends_with("-1\n"));
        let lines = psq.lines().count();
        assert_eq!(lines, 1 + g.opening.len() + g.moves.len() + 3);
        let sgf = std::fs::read_to_string(stem.with_extension("sgf")).unwrap();
        assert!(sgf.starts_with("(;GM[4]FF[4]"), "{sgf}");
        // The engines' MESSAGE lines are kept with their moves.
        assert!(g.moves[0].messages[0].starts_with("test engine move"));
    }
    // Games of a pair share the opening with colours swapped.
    assert_eq!(r.games[0].opening, r.games[1].opening);
    assert_eq!((r.games[0].black, r.games[1].black), (0, 1));
    assert_eq!(
        std::fs::read_to_string(dir.join("games.jsonl"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["summary"]["engines"][0]["tally"]["games"], 4);
    assert!(summary.get("games").is_none());
    let io = std::fs::read_to_string(&log).unwrap();
    for needle in [
        "> ABOUT",
        "> START 15",
        "< OK",
        "> INFO rule 0",
        "> INFO time_left",
        "> BOARD",
        "> DONE",
        "> TURN ",
        "> END",
    ] {
        assert!(io.contains(needle), "log lacks '{needle}'");
    }
    assert!(stdout.contains("Elo"), "{stdout}");
}

#[test]
fn crash_mid_game() {
    let r = check_fault("crash", "--mode crash --at 3", &[], Reason::Crash, &[]);
    assert!(
        r.games[0].detail.contains("exit code 3"),
        "{}",
        r.games[0].detail
    );
}

#[test]
fn never_answers() {
    check_fault("hang", "--mode hang --at 2", &[], Reason::Timeout, &[]);
}

#[test]
fn prints_garbage() {
    // Piskvork (here chosen with the engine key) reads the sentence as the move.
    let r = check_fault(
        "garbage",
        "--mode garbage --at 2",
        &["judge=piskvork"],
        Reason::NotAMove,
        &[],
    );
    let d = &r.games[0].detail;
    assert!(d.contains("I think") && d.contains("piskvork"), "{d}");
    // GomocupJudge (the default) passes over it and waits for a move: a loss on time that says
    // which line was ignored, and the line is counted.
    let r = check_fault(
        "garbage-judge",
        "--mode garbage --at 2",
        &[],
        Reason::Timeout,
        &[],
    );
    let d = &r.games[0].detail;
    assert!(
        d.contains("ignored under gomocupjudge") && d.contains("I think"),
        "{d}"
    );
    assert!(r
        .games
        .iter()
        .all(|g| g.ignored_at_end[0].len() + g.ignored_at_end[1].len() == 1));
}

#[test]
fn unrequested_output() {
    // The unrequested line comes right after the move. Read before the next request it is
    // "not a move"; when the reader thread only delivers it after the next request (a loaded
    // machine), it is taken as the answer, a square already played: an illegal move. Either way
    // the game is the misbehaving engine's loss.
    let r = check_fault_among(
        "extra",
        "--mode extra --at 2",
        &[],
        &[Reason::NotAMove, Reason::IllegalMove],
        &[],
    );
    let d = &r.games[0].detail;
    assert!(
        d.contains("before it was asked") || d.contains("on a stone"),
        "{d}"
    );
}

#[test]
fn plays_on_a_stone_or_off_the_board() {
    check_fault(
        "occupied",
        "--mode occupied --at 2",
        &[],
        Reason::IllegalMove,
        &[],
    );
    check_fault(
        "offboard",
        "--mode offboard --at 1",
        &[],
        Reason::IllegalMove,
        &[],
    );
}

#[test]
fn overruns_the_clock() {
    // 1.5 s for a move with turn 400 ms + tolerance 300 ms.
    let r = check_fault(
        "slow",
        "--mode slow --at 2 --ms 1500",
        &[],
        Reason::Timeout,
        &[],
    );
    assert!(r.games[0].detail.contains("700"), "{}", r.games[0].detail);
}

#[test]
fn late_move_within_tolerance_is_accepted() {
    let dir = scratch("tolerance");
    let a = args(
        &[
            &engine("good", "", &[]),
            &engine("late", "--mode slow --at 1 --ms 300", &[]),
        ],
        &[
            "--games",
            "2",
            "--turn",
            "100",
            "--tolerance",
            "1000",
            "--match",
            "20000",
        ],
    );
    let (code, stdout, r) = run(&dir, &a);
    assert_eq!(code, 0, "{stdout}");
    for g in &r.games {
        assert!(!g.reason.is_fault(), "{:?} {}", g.reason, g.detail);
    }
    // The match clock was charged for the slow move.
    let late = &r.summary.engines[1].timing;
    assert!(late.max_ms >= 300);
    assert!(late.left_min_ms.unwrap() <= 20000 - 300);
}

#[test]
fn allocates_past_the_memory_limit() {
    let r = check_fault(
        "memory",
        "--mode memory --at 2 --mb 200",
        &["memory=64M"],
        Reason::Memory,
        &[],
    );
    assert!(r.games[0].peak_memory.iter().any(|&m| m > 64 << 20));
}

#[test]
fn no_ok_to_start() {
    let r = check_fault(
        "nook",
        "--mode no-ok",
        &[],
        Reason::NoOk,
        &["--start-timeout", "300"],
    );
    assert!(r.games[0].detail.contains("no OK"), "{}", r.games[0].detail);
    let r = check_fault(
        "errstart",
        "--mode error-start",
        &[],
        Reason::NoOk,
        &["--judge", "piskvork"],
    );
    assert!(r.games[0].detail.contains("ERROR"), "{}", r.games[0].detail);
    // GomocupJudge never waits for OK: the ERROR is passed over, the OK never comes.
    let r = check_fault(
        "errstart-judge",
        "--mode error-start",
        &[],
        Reason::NoOk,
        &["--start-timeout", "300"],
    );
    let d = &r.games[0].detail;
    assert!(
        d.contains("no OK") && d.contains("'ERROR I do not play today'"),
        "{d}"
    );
}

#[test]
fn reused_engine_is_respawned_after_a_crash() {
    let log_dir = scratch("reuse-log");
    let log = log_dir.join("io.log");
    let r = check_fault(
        "reuse",
        "--mode crash --at 2",
        &["restart=reuse"],
        Reason::Crash,
        &["--each", "restart=reuse", "--log-io", log.to_str().unwrap()],
    );
    assert_eq!(r.games.len(), 2);
    let io = std::fs::read_to_string(&log).unwrap();
    let started = |who: &str| {
        io.lines()
            .filter(|l| l.contains(&format!(" {who}#")) && l.contains("* started"))
            .count()
    };
    // The reference engine is kept (one process, START twice); the crashing one restarted.
    assert_eq!(started("good"), 1, "{io}");
    assert_eq!(started("bad"), 2, "{io}");
    assert_eq!(
        io.lines()
            .filter(|l| l.contains(" good#") && l.ends_with("> START 15"))
            .count(),
        2
    );
}

#[test]
fn renju_foul_loses() {
    let dir = scratch("foul");
    let openings = dir.join("renju.txt");
    // Black g8 h8 i6 i7, white far away: black to move, i8 is a double three.
    std::fs::write(&openings, "g8a1h8a3i6a5i7a7\n").unwrap();
    let a = args(
        &[
            &engine("good", "", &[]),
            &engine("fouler", "--mode foul", &[]),
        ],
        &[
            "--rule",
            "4",
            "--games",
            "2",
            "--turn",
            "1000",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    let (code, stdout, r) = run(&dir, &a);
    assert_eq!(code, 0, "{stdout}");
    let g = r.games.iter().find(|g| g.black == 1).unwrap();
    assert_eq!(g.reason, Reason::Foul, "{}", g.detail);
    assert_eq!(g.winner, Winner::White);
    assert!(g.detail.contains("8,7"), "{}", g.detail);
    // The reference engine as black does not play the foul.
    let g = r.games.iter().find(|g| g.black == 0).unwrap();
    assert_ne!(g.reason, Reason::Foul);
    assert_eq!(r.config.draw_after, 200);
}

#[test]
fn freeze_board_every_move_and_rectangles() {
    let dir = scratch("freeze");
    let log = dir.join("io.log");
    let a = args(
        &[
            &engine("good", "", &["board-every-move"]),
            &engine("rnd", "--mode random --seed 2", &[]),
        ],
        &[
            "--games",
            "2",
            "--size",
            "20x15",
            "--freeze",
            "--crlf",
            "--turn",
            "1000",
            "--log-io",
            log.to_str().unwrap(),
            "--concurrency",
            "2",
        ],
    );
    let (code, stdout, r) = run(&dir, &a);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(r.games.len(), 2);
    assert!(r.games.iter().all(|g| !g.reason.is_fault()));
    let io = std::fs::read_to_string(&log).unwrap();
    assert!(io.contains("> RECTSTART 20,15"));
    assert!(io.contains("* SIGSTOP") && io.contains("* SIGCONT"));
    let boards = io
        .lines()
        .filter(|l| l.contains(" good#") && l.ends_with("> BOARD"))
        .count();
    let turns = io
        .lines()
        .filter(|l| l.contains(" good#") && l.contains("> TURN"))
        .count();
    assert!(boards > 4 && turns == 0, "BOARD {boards}, TURN {turns}");
    assert!(io
        .lines()
        .any(|l| l.contains(" rnd#") && l.contains("> TURN")));
}

#[test]
fn sprt_stops_the_run() {
    let dir = scratch("sprt");
    let a = args(
        &[
            &engine("good", "", &[]),
            &engine("rnd", "--mode random --seed 9", &[]),
        ],
        &[
            "--games",
            "40",
            "--turn",
            "1000",
            "--sprt",
            "elo0=0",
            "elo1=200",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    let (code, stdout, r) = run(&dir, &a);
    assert_eq!(code, 0, "{stdout}");
    // All sweeps: the LLR passes ln(19) after 8 pairs (python3 check in stats.rs terms:
    // LLR_logistic(0, 200, [0,0,0,0,8]) = 3.3475 > 2.9444, with 7 pairs 2.9292).
    // A game already started when the test decides is still played and counted (at most one
    // with one game at a time); it has no partner yet, so the pairs stay at 8.
    assert!((16..=17).contains(&r.games.len()), "{stdout}");
    assert_eq!(r.stopped.as_deref(), Some("sprt H1"));
    let s = r.summary.sprt.as_ref().unwrap();
    assert_eq!(s.decision, "H1");
    assert!((s.llr - 3.347_539_350_415_582).abs() < 1e-6, "{}", s.llr);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
}

#[test]
fn shards_merge_to_the_single_run() {
    let base = scratch("shard");
    let openings = base.join("o.txt");
    std::fs::write(&openings, "h8\nh8i9\nh8g7i9\n0,0, 1,1, 2,2, 3,4\n").unwrap();
    let common = args(
        &[
            &engine("good", "", &[]),
            &engine("rnd", "--mode random --seed 4", &[]),
            &engine("rnd2", "--mode random --seed 8", &[]),
        ],
        &[
            "--games",
            "4",
            "--turn",
            "1000",
            "--openings",
            openings.to_str().unwrap(),
            "--openings-order",
            "random",
            "--symmetry",
            "random",
            "--seed",
            "11",
            "--sprt",
            "elo0=0",
            "elo1=20",
        ],
    );
    let whole_dir = base.join("whole");
    let (code, _, whole) = run(&whole_dir, &common);
    assert_eq!(code, 0);
    assert_eq!(whole.games.len(), 12);
    let mut files = Vec::new();
    for k in 1..=3 {
        let d = base.join(format!("s{k}"));
        let mut a = common.clone();
        a.extend(["--shard".to_string(), format!("{k}/3")]);
        let (code, _, part) = run(&d, &a);
        assert_eq!(code, 0);
        assert_eq!(part.games.len(), 4);
        assert!(part.games.iter().all(|g| g.id % 3 == k - 1));
        files.push(d);
    }
    let merged_path = base.join("merged.json");
    let out = Command::new(BIN)
        .arg("merge")
        .args(&files)
        .arg("--out")
        .arg(&merged_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("SPRT elo0=0 elo1=20"), "{text}");
    let merged = Results::load(&merged_path).unwrap();
    // The same games (moves and results; thinking times differ run to run) and the same
    // tallies, Elo and SPRT.
    assert_eq!(merged.games.len(), whole.games.len());
    for (m, w) in merged.games.iter().zip(&whole.games) {
        assert_eq!((m.id, m.black, m.white), (w.id, w.black, w.white));
        assert_eq!(m.opening, w.opening);
        assert_eq!((m.winner, m.reason), (w.winner, w.reason));
        let mv = |g: &tournament::record::GameRecord| {
            g.moves.iter().map(|x| (x.x, x.y)).collect::<Vec<_>>()
        };
        assert_eq!(mv(m), mv(w));
    }
    for (m, w) in merged.summary.engines.iter().zip(&whole.summary.engines) {
        assert_eq!(m.tally, w.tally);
    }
    for (m, w) in merged.summary.pairings.iter().zip(&whole.summary.pairings) {
        assert_eq!(m.tally, w.tally);
    }
    assert_eq!(merged.summary.sprt, whole.summary.sprt);
}

#[test]
fn bad_setups_are_refused() {
    let dir = scratch("bad");
    let out = Command::new(BIN)
        .args(engine("a", "", &[]))
        .args(["--engine", "name=b", "cmd=/nonexistent/engine"])
        .arg("--out")
        .arg(&dir)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r = Results::load(&dir.join("results.json")).unwrap();
    assert!(r.stopped.unwrap().contains("cannot start engine 'b'"));
    let out = Command::new(BIN)
        .args(engine("a", "", &[]))
        .args(["--openings", "/nonexistent/openings.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// What a manager makes of a stray line.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    /// The game is lost for this reason.
    Lost(Reason),
    /// Recorded as a message with the move.
    Recorded,
    /// Passed over: kept with the move and counted.
    Ignored,
}

/// Two games of the reference engine against one that prints `line` (`--say` before its
/// second move, `--say-start` before its OK), both judged by `judge`; checks the outcome.
fn check_judged(judge: &str, when: &str, line: &str, want: Outcome) {
    let name = format!(
        "judge-{judge}{when}-{}",
        line.split(' ').next().unwrap_or("").to_lowercase()
    );
    let dir = scratch(&name);
    let a = args(
        &[
            &engine("good", "--no-debug", &[]),
            &engine("noisy", &format!("--no-debug {when} '{line}' --at 2"), &[]),
        ],
        &[
            "--games", "2", "--size", "9", "--turn", "400", "--match", "20000", "--judge", judge,
        ],
    );
    let (code, stdout, r) = run(&dir, &a);
    let ctx = format!("{judge}, {when} '{line}'");
    assert_eq!(code, 0, "{ctx}: {stdout}");
    assert_eq!(r.games.len(), 2, "{ctx}: {stdout}");
    assert!(r.config.engines.iter().all(|e| e.judge.name() == judge));
    let noisy_moves = |g: &tournament::record::GameRecord| -> Vec<tournament::record::MoveRecord> {
        let side = usize::from(g.white == 1);
        g.moves
            .iter()
            .enumerate()
            .filter(|(i, _)| g.mover(*i) == side)
            .map(|(_, m)| m.clone())
            .collect()
    };
    let ignored = r.summary.engines[1].lines.ignored;
    for g in &r.games {
        match want {
            Outcome::Lost(reason) => {
                assert_eq!(g.reason, reason, "{ctx}: game {}: {}", g.id, g.detail);
                assert_eq!(g.score_of(1), Some(0.0), "{ctx}: game {}", g.id);
                assert!(
                    g.detail.contains(line) && g.detail.contains(judge),
                    "{ctx}: {}",
                    g.detail
                );
            }
            Outcome::Recorded => {
                assert!(
                    !g.reason.is_fault(),
                    "{ctx}: {} {}",
                    g.reason.name(),
                    g.detail
                );
                assert!(
                    noisy_moves(g)
                        .iter()
                        .any(|m| m.messages.iter().any(|x| x == line)),
                    "{ctx}: game {} has no message '{line}'",
                    g.id
                );
            }
            Outcome::Ignored => {
                assert!(
                    !g.reason.is_fault(),
                    "{ctx}: {} {}",
                    g.reason.name(),
                    g.detail
                );
                assert!(
                    noisy_moves(g)
                        .iter()
                        .any(|m| m.ignored.iter().any(|x| x == line)),
                    "{ctx}: game {} does not keep '{line}'",
                    g.id
                );
                let sgf = std::fs::read_to_string(
                    dir.join("games").join(g.file_stem()).with_extension("sgf"),
                )
                .unwrap();
                assert!(sgf.contains(&format!("ignored: {line}")), "{ctx}: {sgf}");
            }
        }
    }
    match want {
        Outcome::Ignored => {
            assert_eq!(ignored, 2, "{ctx}");
            assert!(
                stdout.contains(&format!("judge {judge}: lines ignored 2 (in 2 games)")),
                "{ctx}: {stdout}"
            );
        }
        Outcome::Recorded => assert_eq!(ignored, 0, "{ctx}"),
        Outcome::Lost(_) => {}
    }
    // The reference engine printed nothing stray.
    assert_eq!(r.summary.engines[0].lines.ignored, 0, "{ctx}");
}

const STRAY: [&str; 4] = [
    "ERROR Unknown command: TIME_LEFT",
    "UNKNOWN command",
    "DEBUG eval +3",
    "thinking hard",
];

/// Each manager's outcome for the four STRAY lines before a move, then for ERROR and DEBUG
/// before OK.
fn check_profile(judge: &str, before_move: [Outcome; 4], before_ok: [Outcome; 2]) {
    for (line, want) in STRAY.iter().zip(before_move) {
        check_judged(judge, "--say", line, want);
    }
    for (line, want) in ["ERROR not ready", "DEBUG loading"].iter().zip(before_ok) {
        check_judged(judge, "--say-start", line, want);
    }
}

#[test]
fn piskvork_loses_on_any_stray_line_but_debug() {
    use Outcome::*;
    let lost = Lost(Reason::NotAMove);
    check_profile(
        "piskvork",
        [lost, lost, Ignored, lost],
        [Lost(Reason::NoOk), Ignored],
    );
}

#[test]
fn c_gomoku_cli_records_error_unknown_debug_and_ignores_the_rest() {
    use Outcome::*;
    check_profile(
        "cgomokucli",
        [Recorded, Recorded, Recorded, Ignored],
        [Lost(Reason::NoOk), Recorded],
    );
}

#[test]
fn gomocup_judge_ignores_what_it_cannot_parse() {
    use Outcome::*;
    check_profile(
        "gomocupjudge",
        [Ignored, Ignored, Ignored, Ignored],
        [Ignored, Ignored],
    );
}

#[test]
fn judge_local_takes_error_and_unknown_as_messages_and_dies_on_debug() {
    use Outcome::*;
    let lost = Lost(Reason::NotAMove);
    check_profile(
        "jlocal",
        [Recorded, Recorded, lost, lost],
        [Recorded, Lost(Reason::NoOk)],
    );
}
