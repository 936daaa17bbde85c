//! End-to-end tests of the runner: the `protocol-tests` binary against `fake-pbrain`, a tiny
//! engine that can be told to misbehave, on the scenarios in `testdata/`.

use std::path::PathBuf;
use std::process::Command;

fn testdata(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs the runner; returns (exit code, stdout).
fn run(fake_flags: &str, files: &[&str], extra: &[&str]) -> (i32, String) {
    let engine = format!("{} {fake_flags}", env!("CARGO_BIN_EXE_fake-pbrain"));
    let out = Command::new(env!("CARGO_BIN_EXE_protocol-tests"))
        .arg("--engine")
        .arg(engine)
        .args(extra)
        .args(files.iter().map(|f| testdata(f)))
        .output()
        .expect("runner starts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), stdout)
}

fn summary(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or("")
}

#[test]
fn a_good_session_passes() {
    let (code, out) = run("", &["session_ok.scn"], &[]);
    assert_eq!(summary(&out), "1 passed, 0 failed", "{out}");
    assert_eq!(code, 0);
    assert!(out.starts_with("ok "), "{out}");
}

#[test]
fn crlf_output_fails_exact_and_framing_checks() {
    let (code, out) = run("--crlf", &["session_ok.scn"], &[]);
    assert_eq!(summary(&out), "0 passed, 1 failed", "{out}");
    assert_eq!(code, 1);
    assert!(out.contains("'OK\\r'") || out.contains("CR"), "{out}");
}

#[test]
fn stderr_output_fails_no_stderr() {
    let (_, out) = run("--stderr", &["session_ok.scn"], &[]);
    assert!(
        out.contains("wrote to stderr: 'fake-pbrain starting'"),
        "{out}"
    );
}

#[test]
fn startup_banner_breaks_silence() {
    let (_, out) = run("--banner", &["session_ok.scn"], &[]);
    assert!(out.contains("expected no output for 200 ms"), "{out}");
}

#[test]
fn ignoring_end_fails_exit() {
    let (code, out) = run("--ignore-end", &["session_ok.scn"], &[]);
    assert_eq!(code, 1);
    assert!(
        out.contains("still running 500 ms after the last command"),
        "{out}"
    );
}

#[test]
fn wrong_exit_code_fails() {
    let (_, out) = run("--exit-code 3", &["session_ok.scn"], &[]);
    assert!(out.contains("exit code 3, not code 0"), "{out}");
}

#[test]
fn a_second_move_line_is_caught() {
    let (_, out) = run("--two-moves --messages", &["messages.scn"], &[]);
    assert!(out.contains("FAILED"), "{out}");
}

#[test]
fn messages_are_counted() {
    let (_, out) = run("", &["messages.scn"], &[]);
    assert!(out.contains("0 MESSAGE line(s), wanted exactly 2"), "{out}");
    let (code, out) = run("--messages", &["messages.scn"], &[]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn time_bounds_and_scaling() {
    let (_, out) = run("--slow 800", &["timing.scn"], &[]);
    assert!(out.contains("limit 500 ms"), "{out}");
    let (code, out) = run("--slow 700", &["timing.scn"], &["--time-scale", "3"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn early_answers_skip() {
    let (code, out) = run("", &["skip.scn"], &[]);
    assert_eq!(summary(&out), "0 passed, 0 failed, 1 skipped", "{out}");
    assert_eq!(code, 0);
}

#[test]
fn peak_memory() {
    let (code, out) = run("", &["memory.scn"], &[]);
    assert_eq!(code, 0, "{out}");
    let (_, out) = run("--alloc 100", &["memory.scn"], &[]);
    if cfg!(target_os = "linux") {
        assert!(out.contains("is not below 67108864"), "{out}");
    } else {
        assert!(out.contains("skipped"), "{out}");
    }
}

#[test]
fn failures_are_reported_not_hung() {
    let (code, out) = run("", &["wrong.scn", "no_reply.scn", "broken.scn"], &[]);
    assert_eq!(code, 1);
    assert_eq!(summary(&out), "0 passed, 3 failed", "{out}");
    assert!(out.contains("move 7,7 is not one of {0,0}"), "{out}");
    assert!(out.contains("no reply within 300 ms"), "{out}");
    assert!(out.contains("unknown keyword 'frobnicate'"), "{out}");
}

#[test]
fn filter_and_list() {
    let dir = testdata("");
    let out = Command::new(env!("CARGO_BIN_EXE_protocol-tests"))
        .args([
            "--list", "--dir", &dir, "--filter", "skip", "--filter", "timing",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, vec!["skip", "timing"], "{text}");
}

#[test]
fn the_shipped_scenarios_parse() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let out = Command::new(env!("CARGO_BIN_EXE_protocol-tests"))
        .args(["--list", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("parse error"), "{text}");
    // One scenario per checklist item P1-P26, T1-T6, R1-R3 (R3 in four files), and the
    // Yixin-Board items Y1-Y13.
    let mut covered: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
        .collect();
    covered.dedup();
    let mut want: Vec<String> = (1..=26).map(|i| format!("P{i}")).collect();
    want.extend(["R1", "R2", "R3"].map(String::from));
    want.extend((1..=6).map(|i| format!("T{i}")));
    want.extend((1..=13).map(|i| format!("Y{i}")));
    assert_eq!(covered, want);
}

#[test]
fn usage_errors_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_protocol-tests"))
        .args(["--bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_protocol-tests"))
        .arg(testdata("skip.scn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "no --engine");
}

#[test]
fn endless_output_does_not_hang_the_runner() {
    let t = std::time::Instant::now();
    let (code, out) = run("--flood", &["eof.scn"], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("still running 500 ms"), "{out}");
    assert!(t.elapsed().as_secs() < 10);
    let (code, out) = run("", &["eof.scn"], &[]);
    assert_eq!(code, 0, "{out}");
}
