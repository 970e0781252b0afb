//! Fuzz target `single_solve`: the body is `sokoban::fuzzing::single_solve`, which `cargo test` replays.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sokoban::fuzzing::single_solve(data));
