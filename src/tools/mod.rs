//! Tools around the solvers, each a thin layer over the library: `gen` makes
//! test data, `bench` measures, `verify` judges given answers, which
//! `answers` reads from answer files.

pub mod answers;
pub mod bench;
pub mod generator;
pub mod judge;
pub mod merge;
pub mod shard;
pub mod verify;
