//! Stable-Rust fuzzing of the position and rule code (the cargo-fuzz targets `board_ops`,
//! `renju` and `notation` run the same oracles, `tests/fuzz_oracles`): `Board` operation
//! sequences against a plain model, the renju judge in every symmetry, the notation parsers.
//! A deterministic PRNG makes the inputs; `PENTAD_FUZZ_CASES` runs more, `PENTAD_FUZZ_SEED`
//! other ones.

mod fuzz_oracles;

use fuzz_oracles::{board_ops, notation, renju, Rng};
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

fn fuzz(name: &str, salt: u64, n: usize, max_len: usize, oracle: fn(&[u8])) {
    let mut rng = Rng(seed(salt));
    let t0 = Instant::now();
    for i in 0..n {
        let len = (rng.next() % max_len as u64) as usize;
        let data = rng.bytes(len);
        if let Err(e) = std::panic::catch_unwind(|| oracle(&data)) {
            eprintln!("{name}: case {i} failed; input bytes: {data:?}");
            std::panic::resume_unwind(e);
        }
    }
    eprintln!("{name}: {n} cases in {:?}", t0.elapsed());
}

#[test]
fn fuzz_board_operations() {
    fuzz("board_ops", 11, cases(300) * 2 / 3, 1200, board_ops);
}

#[test]
fn fuzz_renju_judge() {
    fuzz("renju", 12, cases(300) * 2, 400, renju);
}

#[test]
fn fuzz_notation() {
    fuzz("notation", 13, cases(300) * 300, 300, notation);
}
