//! The command line of `pbrain-pentad`, run as a black box: every subcommand's `--help`, argument
//! errors (exit 2, nothing on stdout), runtime failures, a few real invocations, and the
//! protocol when there are no arguments.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run pbrain-pentad")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_subcommand_help_lists_its_options() {
    let commands: [(&str, &[&str]); 6] = [
        (
            "analyze",
            &[
                "MOVES | FILE",
                "--stdin",
                "--rule",
                "--size",
                "--time",
                "--depth",
                "--nodes",
                "--multipv",
                "--threads",
                "--hash",
                "--json",
            ],
        ),
        (
            "play",
            &[
                "--rule",
                "--size",
                "--color",
                "--depth",
                "--time",
                "--load",
                "--hash",
                "--no-color",
            ],
        ),
        ("bench", &["DEPTH", "HASH_MB", "--time", "--make-undo"]),
        (
            "puzzles",
            &[
                "FILE",
                "--task",
                "--time",
                "--nodes",
                "--limit",
                "--threads",
                "--verbose",
                "--threats-only",
            ],
        ),
        (
            "tune",
            &[
                "GAMES.jsonl",
                "--rule",
                "--base",
                "--out",
                "--epochs",
                "--blend",
            ],
        ),
        ("book", &["build", "info"]),
    ];
    for (command, flags) in commands {
        let out = run(&[command, "--help"]);
        assert!(out.status.success(), "{command} --help: {:?}", out.status);
        let help = text(&out.stdout);
        assert!(help.contains(&format!("pbrain-pentad {command}")), "{help}");
        for flag in flags {
            assert!(
                help.contains(flag),
                "{command} --help lacks {flag}:\n{help}"
            );
        }
        // `help COMMAND` says the same.
        let out = run(&["help", command]);
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), help);
    }
    // The British spelling still runs the analysis.
    let out = run(&["analyse", "--help"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("--multipv"));
}

#[test]
fn top_level_help_and_version() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        let help = text(&out.stdout);
        for command in ["bench", "puzzles", "analyze", "play", "tune"] {
            assert!(help.contains(command), "{args:?} lacks {command}:\n{help}");
        }
        assert!(help.contains("PENTAD_LOG"), "{help}");
    }
    let version = format!("pbrain-pentad {}\n", env!("CARGO_PKG_VERSION"));
    for args in [&["--version"][..], &["-V"], &["version"]] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(text(&out.stdout), version);
    }
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let cases: [&[&str]; 12] = [
        &["analyze", "--bogus"],
        &["analyze", "--multipv", "0"],
        &["analyze", "--multipv", "65"],
        &["analyze", "--rule", "chess"],
        &["analyze", "--size", "big"],
        &["analyze", "--time"],
        &["bench", "deep"],
        &["bench", "--time", "100", "6"],
        &["puzzles"],
        &["tune", "--epochs", "many", "--rule", "0", "games.jsonl"],
        &["play", "--color", "red"],
        &["frobnicate"],
    ];
    for args in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn runtime_failures_keep_their_exit_codes() {
    let out = run(&["analyze", "z99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("analyze: "), "{out:?}");
    let out = run(&["play", "--size", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("play: "), "{out:?}");
    let missing = "/nonexistent/pentad-games.jsonl";
    let out = run(&["tune", missing, "--rule", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("pbrain-pentad tune: reading"));
    // An absent puzzle set is skipped, not an error.
    let out = run(&["puzzles", missing]);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("skipped: cannot read"));
}

#[test]
fn analyze_finds_the_vcf_from_separate_words() {
    let moves = "f8 e8 g8 c3 h8 m13 j10 n2 j11 b14 j12 a1";
    let mut args = vec!["analyze"];
    args.extend(moves.split(' '));
    args.extend(["--time", "500"]);
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    let s = text(&out.stdout);
    assert!(s.contains("12 stones, black to move"), "{s}");
    // Two first moves win in 3 plies: j9 (an open four) and j8 (a four, i8, then j9).
    let first = s
        .split("black wins by VCF in 3 plies: ")
        .nth(1)
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no VCF: {s}"));
    assert!(["j8", "j9"].contains(&first), "{s}");
    assert!(s.contains(&format!("best      {first} ")), "{s}");
    // Words around the options still make one move list.
    let out = run(&[
        "analyse", "f8", "e8", "g8", "c3", "--json", "h8", "m13", "--time", "500", "j10", "n2",
        "j11", "b14", "j12", "a1",
    ]);
    assert!(out.status.success(), "{out:?}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["moves"], moves.replace(' ', ""));
    assert!(j["best"] == "j8" || j["best"] == "j9", "{j}");
    assert_eq!(j["win"]["kind"], "VCF");
}

#[test]
fn bench_reports_a_repeatable_count() {
    let count = || {
        let out = run(&["bench", "2"]);
        assert!(out.status.success(), "{out:?}");
        let s = text(&out.stdout);
        assert_eq!(s.lines().filter(|l| l.starts_with("position")).count(), 10);
        let last = s.lines().last().unwrap_or_default().to_string();
        let n: u64 = last
            .strip_prefix("Bench: ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no Bench line: {s}"));
        assert!(n > 0);
        n
    };
    assert_eq!(count(), count());
    let out = run(&["bench", "--make-undo"]);
    assert!(out.status.success(), "{out:?}");
    let s = text(&out.stdout);
    assert_eq!(
        s.lines().filter(|l| l.contains("make+undo/second")).count(),
        10
    );
    assert!(s.lines().last().unwrap().starts_with("Make+undo/second: "));
}

#[test]
fn no_arguments_speaks_the_protocol_and_nothing_on_stderr() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-pentad");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"START 15\nBEGIN\nEND\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let mut lines = s.lines().filter(|l| !l.starts_with("MESSAGE"));
    assert_eq!(lines.next(), Some("OK"), "{s}");
    let mv = lines.next().unwrap_or_default();
    let xy: Vec<u32> = mv.split(',').filter_map(|v| v.parse().ok()).collect();
    assert!(xy.len() == 2 && xy.iter().all(|&v| v < 15), "{s}");
}

#[test]
fn book_info_describes_the_embedded_book_and_refuses_a_bad_file() {
    let out = run(&["book", "info"]);
    assert!(out.status.success());
    let t = text(&out.stdout);
    assert!(
        t.contains("positions: ") && t.contains("built: pbrain-pentad"),
        "{t}"
    );
    let bad = std::env::temp_dir().join(format!("pentad-bad-{}.book", std::process::id()));
    std::fs::write(&bad, b"PENTADBK\x01\x00junk that is no book at all").unwrap();
    let out = run(&["book", "info", "--file", bad.to_str().unwrap()]);
    let _ = std::fs::remove_file(&bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("checksum"), "{err}");
}
