//! Regression tests for the faults the fuzzers found (tests/fuzz_protocol.rs,
//! tests/fuzz_position.rs, `make fuzz`). Each one ran into an arithmetic overflow: a panic in
//! the debug and fuzz builds (overflow checks), a silently wrapped value in the release build.

use pentad::notation::parse_offset_moves;
use pentad::protocol::run;
use pentad::time::TimeControl;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Found by `fuzz_sessions`: `INFO timeout_turn` near i64::MAX (or a huge `time_increment` or
/// `time_left`) overflowed `hard * SOFT_SHARE_PCT` / `increment * 3` / `share * 3` in
/// `TimeControl::budget` (src/time.rs). In a debug build the session thread panicked, so the
/// engine never answered again; in release the soft limit wrapped (a weak instant move).
#[test]
fn fuzz_regression_time_budget_huge_values() {
    let big = [
        i64::MAX,
        i64::MAX - 1,
        i64::MAX / 2,
        1 << 62,
        9_000_000_000_000_000,
    ];
    for &v in &big {
        let cases = [
            TimeControl {
                turn_ms: Some(v),
                ..TimeControl::default()
            },
            TimeControl {
                turn_ms: Some(v),
                match_ms: Some(v),
                left_ms: Some(v / 2),
                increment_ms: v,
                learned_increment_ms: 0,
            },
            TimeControl {
                turn_ms: None,
                match_ms: Some(180_000),
                left_ms: Some(100_000),
                increment_ms: v,
                learned_increment_ms: 0,
            },
            TimeControl {
                turn_ms: Some(5_000),
                match_ms: Some(v),
                left_ms: Some(v - 1),
                increment_ms: 0,
                learned_increment_ms: v,
            },
        ];
        for tc in cases {
            let b = tc.budget(false);
            assert!(b.soft <= b.hard, "{tc:?}: {b:?}");
            assert!(b.soft > Duration::ZERO, "{tc:?}: {b:?}");
        }
    }
}

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The same through the protocol: a huge `timeout_turn` still gets a move.
#[test]
fn fuzz_regression_session_huge_timeout_turn() {
    let out = Buf::default();
    let script = "START 15\nINFO timeout_turn 9223372036854775807\nINFO max_depth 2\nBEGIN\n";
    run(Cursor::new(script.as_bytes().to_vec()), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let answers: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert_eq!(answers[0], "OK");
    assert!(answers[1].split_once(',').is_some(), "{text}");
}

/// Found by `fuzz_notation`: an offset near i64::MAX overflowed `offset + centre` in
/// `parse_offset_moves` (src/notation.rs; the tournament runner reads opening files with it).
#[test]
fn fuzz_regression_offset_overflow() {
    for s in [
        "9223372036854775807,0",
        "0,9223372036854775807",
        "-9223372036854775808,0",
        "9223372036854775807,9223372036854775807",
    ] {
        assert!(parse_offset_moves(s, 15, 15).is_err(), "{s}");
    }
}
