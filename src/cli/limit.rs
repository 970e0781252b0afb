//! The one parser of the numbers limits are given in: seconds and whole
//! counts, for every command that takes them.
//!
//! A value out of range is refused while the arguments are read (exit 2,
//! the range in the message), so no search ever meets a time it cannot
//! add to a clock, and `-1` is refused as a value, not taken for a flag.

use clap::{Args, Command};
use sokoban::level::DEFAULT_MAX_CELLS;
use std::time::Duration;

/// `--max-cells`, on every command that reads or makes grids.
#[derive(Debug, Args, Clone)]
pub struct CellsArgs {
    /// Largest grid accepted, in cells (rows x columns).
    #[arg(long, default_value_t = DEFAULT_MAX_CELLS, value_name = "N", value_parser = count(1, u64::MAX))]
    pub max_cells: u64,
}

/// The longest time limit: about 31 years, far from any clock's overflow.
pub const MAX_SECONDS: f64 = 1e9;

/// A time limit in seconds: greater than 0 and at most [`MAX_SECONDS`].
pub fn seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_SECONDS => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "expected seconds greater than 0 and at most {MAX_SECONDS:.0} (about 31 years)"
        )),
    }
}

/// A parser of whole numbers from `min` to `max`, refusing others with the range.
pub fn count(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync {
    move |text: &str| match text.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ if max == u64::MAX => Err(format!("expected a whole number, at least {min}")),
        _ => Err(format!("expected a whole number from {min} to {max}")),
    }
}

/// `command` with every option that takes a value taking `-1` as one, so
/// its parser refuses it with the range instead of clap reading a flag.
pub fn negative_numbers_are_values(command: Command) -> Command {
    command
        .mut_args(|arg| {
            if arg.get_action().takes_values() && !arg.is_positional() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(negative_numbers_are_values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_positive_and_bounded() {
        assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(seconds("1e9"), Ok(Duration::from_secs(1_000_000_000)));
        assert!(seconds("0.000001").is_ok());
        for bad in ["0", "-1", "1e30", "1e9.5", "inf", "NaN", "ten", ""] {
            let why = seconds(bad).unwrap_err();
            assert!(
                why.contains("greater than 0 and at most 1000000000"),
                "{bad}: {why}"
            );
        }
    }

    /// Every option of every command that takes a value reads `-1` as one
    /// (refused or not by its parser), never as an unknown flag.
    #[test]
    fn minus_one_is_a_value_everywhere() {
        let root = crate::cli::command();
        let mut commands = vec![(vec![], root.clone())];
        commands.extend(
            root.get_subcommands()
                .map(|c| (vec![c.get_name().to_string()], c.clone())),
        );
        let mut checked = 0;
        for (path, command) in commands {
            for arg in command.get_arguments() {
                let Some(long) = arg.get_long() else { continue };
                if !arg.get_action().takes_values() || arg.is_require_equals_set() {
                    continue;
                }
                let mut line = vec!["sokoban".to_string()];
                line.extend(path.iter().cloned());
                line.extend([format!("--{long}"), "-1".into()]);
                let got = crate::cli::command().try_get_matches_from(&line);
                let message = got.err().map(|e| e.to_string()).unwrap_or_default();
                assert!(!message.contains("'-- -1'"), "{line:?}: {message}");
                checked += 1;
            }
        }
        assert!(checked > 30, "{checked}");
    }

    /// Every limit shows its default in `--help`, and `--max-input` is on
    /// the commands that read input, and no other.
    #[test]
    fn help_shows_every_default_and_no_idle_option() {
        let limits = [
            "time-limit",
            "max-nodes",
            "max-memory",
            "max-cells",
            "max-input",
            "threads",
            "jobs",
        ];
        let reading = ["sokoban", "bench", "verify", "convert", "optimize", "play"];
        let root = crate::cli::command();
        let mut commands = vec![root.clone()];
        commands.extend(root.get_subcommands().cloned());
        for command in &commands {
            let name = command.get_name();
            for arg in command.get_arguments() {
                let Some(long) = arg.get_long().filter(|l| limits.contains(l)) else {
                    continue;
                };
                let help = arg
                    .get_long_help()
                    .or(arg.get_help())
                    .map(|h| h.to_string());
                let shown = !arg.get_default_values().is_empty()
                    || help.is_some_and(|h| h.contains("[default: "));
                assert!(shown, "{name} --{long}: no default shown");
            }
            let input = command
                .get_arguments()
                .any(|a| a.get_long() == Some("max-input"));
            let reads = reading.contains(&name);
            assert_eq!(input, reads, "{name}");
        }
    }

    #[test]
    fn counts_name_their_range() {
        let threads = count(1, 256);
        assert_eq!(threads("256"), Ok(256));
        assert_eq!(
            threads("0").unwrap_err(),
            "expected a whole number from 1 to 256"
        );
        assert_eq!(
            threads("-1").unwrap_err(),
            "expected a whole number from 1 to 256"
        );
        let nodes = count(0, u64::MAX);
        assert_eq!(nodes("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            nodes("1e3").unwrap_err(),
            "expected a whole number, at least 0"
        );
    }
}
