//! A whole protocol session through pentad::protocol::run_with, with the fake engine (good,
//! absent, garbage, occupied and foul moves, panics, searches that end only when stopped).
//! The oracle is shared with the stable property tests (`tests/fuzz_oracles`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_oracles/mod.rs"]
mod oracles;

fuzz_target!(|data: &[u8]| oracles::session_fake(data));
