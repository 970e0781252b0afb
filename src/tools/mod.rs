//! Tools around the solvers, each a thin layer over the library: `gen` makes
//! test data, `bench` measures.

pub mod bench;
pub mod generator;
