//! The renju foul judge on arbitrary positions, in every symmetry.
//! The oracle is shared with the stable property tests (`tests/fuzz_oracles`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_oracles/mod.rs"]
mod oracles;

fuzz_target!(|data: &[u8]| oracles::renju(data));
