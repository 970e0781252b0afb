//! Fuzz target `multi_solve`: the body is `sokoban::fuzzing::multi_solve`, which `cargo test` replays.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sokoban::fuzzing::multi_solve(data));
