//! One level's solve, fenced: a panic in it (a bug) becomes an error for
//! that level, and a collection run goes on with the next instead of
//! losing every answer still to come.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Names a level whose solve panics on purpose, so tests can check a failing
/// lane is reported and the run goes on.
const FAULT_VARIABLE: &str = "SOKOBAN_FAULT_LEVEL";

/// Runs `solve` for the level `name`; a panic in it is its message.
pub fn guarded<T>(name: &str, solve: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(|| {
        if std::env::var_os(FAULT_VARIABLE).is_some_and(|v| v == name) {
            panic!("fault injected by {FAULT_VARIABLE}");
        }
        solve()
    }))
    .map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into())
    })
}

/// The error line for a level whose solve failed.
pub fn failure(name: &str, why: &str) -> String {
    format!("error: {name}: internal error, level skipped: {why}")
}
