//! Stable-Rust fuzzing of the protocol front end (the cargo-fuzz targets `command_line` and
//! `session` run the same oracles, `tests/fuzz_oracles`): a deterministic PRNG makes the input
//! bytes, so every run checks the same cases; `PENTAD_FUZZ_CASES` (a number) runs more, and
//! `PENTAD_FUZZ_SEED` other ones.

mod fuzz_oracles;

use fuzz_oracles::{command_line, session, Rng};
use std::time::Instant;

fn cases(default: usize) -> usize {
    std::env::var("PENTAD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn seed(salt: u64) -> u64 {
    let s: u64 = std::env::var("PENTAD_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9E37_79B9);
    s ^ salt.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1
}

#[test]
fn fuzz_command_lines() {
    let mut rng = Rng(seed(1));
    let t0 = Instant::now();
    let n = cases(300_000);
    for _ in 0..n {
        let len = (rng.next() % 64) as usize;
        command_line(&rng.bytes(len));
    }
    eprintln!("fuzz_command_lines: {n} cases in {:?}", t0.elapsed());
}

/// Sessions from the PRNG; the first byte picks the engine (below 24: the real searcher).
fn sessions(salt: u64, n: usize, real: bool) {
    let mut rng = Rng(seed(salt));
    let t0 = Instant::now();
    for i in 0..n {
        let len = 8 + (rng.next() % 400) as usize;
        let mut data = rng.bytes(len);
        data[0] = if real { 0 } else { 255 };
        let r = std::panic::catch_unwind(|| session(&data));
        if let Err(e) = r {
            eprintln!("case {i} failed; input bytes: {data:?}");
            std::panic::resume_unwind(e);
        }
    }
    eprintln!(
        "fuzz sessions ({}): {n} in {:?}",
        if real { "real engine" } else { "fake engine" },
        t0.elapsed()
    );
}

#[test]
fn fuzz_sessions_fake_engine() {
    sessions(2, cases(300), false);
}

#[test]
fn fuzz_sessions_real_engine() {
    sessions(3, cases(300) / 25, true);
}
