//! `--shard K/N`: one slice of a collection, so a million levels can be split
//! over many machines (GNU parallel, a Slurm job array) and the JSON lines of
//! the slices concatenated and merged afterwards.
//!
//! Slice K of N holds the levels whose 0-based index in the whole input is
//! K mod N: every level is in exactly one slice, and each slice samples the
//! whole collection (collections grow harder towards the end).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Slice `k` of `n` (`0 <= k < n`); in JSON, its `K/N` text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

/// Why a `K/N` text is no shard.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShardError {
    #[error("expected K/N (two whole numbers, such as 0/4), not {}", crate::words::quote(.0))]
    Shape(String),
    #[error("N must be at least 1")]
    NoSlices,
    #[error("K counts from 0, so it must be below N ({k}/{n})")]
    KTooLarge { k: usize, n: usize },
}

impl Shard {
    /// True when the level at `index` (0-based, over the whole input) is in this slice.
    pub fn contains(self, index: usize) -> bool {
        index % self.n == self.k
    }

    /// The items of this slice, each with its index in the whole input.
    pub fn select<T>(self, items: Vec<T>) -> Vec<(usize, T)> {
        items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.contains(*i))
            .collect()
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let shape = || ShardError::Shape(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(shape)?;
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| shape());
        let (k, n) = (number(k)?, number(n)?);
        match (k, n) {
            (_, 0) => Err(ShardError::NoSlices),
            (k, n) if k >= n => Err(ShardError::KTooLarge { k, n }),
            (k, n) => Ok(Shard { k, n }),
        }
    }
}

impl TryFrom<String> for Shard {
    type Error = ShardError;

    fn try_from(text: String) -> Result<Shard, ShardError> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_refuse() {
        assert_eq!("1/4".parse(), Ok(Shard { k: 1, n: 4 }));
        assert_eq!("0/1".parse(), Ok(Shard { k: 0, n: 1 }));
        assert_eq!(
            "4/4".parse::<Shard>(),
            Err(ShardError::KTooLarge { k: 4, n: 4 })
        );
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoSlices));
        for bad in ["1", "a/4", "1/", "-1/4", "1/4/2"] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(ShardError::Shape(_))),
                "{bad}"
            );
        }
        assert_eq!(Shard { k: 2, n: 5 }.to_string(), "2/5");
    }

    #[test]
    fn slices_cover_every_index_exactly_once() {
        for n in 1..=9 {
            for len in [0, 1, n - 1, n, n + 1, 3 * n + 2] {
                let mut seen = vec![0; len];
                for k in 0..n {
                    let slice = Shard { k, n }.select((0..len).collect());
                    for (i, item) in slice {
                        assert_eq!(i, item);
                        seen[i] += 1;
                    }
                }
                assert!(seen.iter().all(|&c| c == 1), "n {n} len {len}");
            }
        }
    }
}
