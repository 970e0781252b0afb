//! Generic graph searches, one algorithm per file, over states numbered `0..n`.
//!
//! They know nothing of Sokoban: a caller hands them successor closures. The
//! single-box `--algorithm dijkstra` runs on [`dijkstra()`]; the default
//! single-box search is specialised (see `single::layered`) because its graph
//! has more structure than a generic search can use.

mod dijkstra;

pub use dijkstra::{Dijkstra, dijkstra};
