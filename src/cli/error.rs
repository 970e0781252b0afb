//! Errors of the command line and their exit statuses.

use super::Status;
use sokoban::level::ParseError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CliError {
    /// Invalid input: `<source>:<line>:<col>: <what>`.
    #[error("{input}:{error}")]
    Parse { input: String, error: ParseError },
    #[error("{input}: {error}")]
    Read {
        input: String,
        error: std::io::Error,
    },
    #[error("{0}")]
    Usage(String),
    /// An input over `--max-input`, refused before it is read whole.
    #[error(
        "{input}:1:1: input larger than the limit of {} MB (raise it with --max-input)",
        limit >> 20
    )]
    TooBig { input: String, limit: u64 },
    #[error("writing {output}: {error}")]
    Write {
        output: String,
        error: std::io::Error,
    },
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
}

impl CliError {
    pub fn exit_status(&self) -> Status {
        match self {
            CliError::Parse { .. }
            | CliError::Read { .. }
            | CliError::Usage(_)
            | CliError::TooBig { .. } => Status::Invalid,
            CliError::Output(_) | CliError::Write { .. } => Status::Rejected,
        }
    }
}
