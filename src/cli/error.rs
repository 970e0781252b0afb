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
            CliError::Parse { .. } | CliError::Read { .. } | CliError::Usage(_) => Status::Invalid,
            CliError::Output(_) | CliError::Write { .. } => Status::Rejected,
        }
    }
}
