//! Levels back to text, in any dialect: for `convert` and round trips.

use super::{Alphabet, Format, Level, write_cells, write_snekoban};
use thiserror::Error;

/// Why a level cannot be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WriteError {
    #[error(
        "{name}: {format} letters cannot write this level (a box or player on a goal, or a row of bare floor); use --to xsb"
    )]
    NoLetter { name: String, format: &'static str },
    #[error("snekoban JSON holds one level, and the input has {0}")]
    OneLevelOnly(usize),
    #[error("choose a format to write (auto only reads)")]
    Auto,
}

/// Writes levels in `format`: titles as `; name` lines where the format has
/// room for them, levels separated by empty lines (judge files: headers and `0 0`).
pub fn write_levels(levels: &[Level], format: Format) -> Result<String, WriteError> {
    let mut out = String::new();
    match format {
        Format::Auto => return Err(WriteError::Auto),
        Format::SnekobanJson => {
            let [level] = levels else {
                return Err(WriteError::OneLevelOnly(levels.len()));
            };
            out.push_str(&write_snekoban(
                &level.grid,
                level.player,
                &level.boxes,
                &level.goals,
            ));
            out.push('\n');
        }
        Format::Judge => {
            for level in levels {
                let rows = draw(level, Alphabet::Olympiad)?;
                out.push_str(&format!(
                    "{} {}\n{rows}\n",
                    level.grid.rows(),
                    level.grid.cols()
                ));
            }
            out.push_str("0 0\n");
        }
        Format::Olympiad | Format::Xsb | Format::Wkbg | Format::Bx => {
            let alphabet = format.alphabet().expect("a letter format");
            for (k, level) in levels.iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                // A lone olympiad grid has no title line in its format.
                if levels.len() > 1 || alphabet != Alphabet::Olympiad {
                    out.push_str(&format!("; {}\n", level.name));
                }
                out.push_str(&draw(level, alphabet)?);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

fn draw(level: &Level, alphabet: Alphabet) -> Result<String, WriteError> {
    write_cells(
        &level.grid,
        alphabet,
        level.player,
        &level.boxes,
        &level.goals,
        false,
    )
    .ok_or_else(|| WriteError::NoLetter {
        name: level.name.clone(),
        format: alphabet.name(),
    })
}
