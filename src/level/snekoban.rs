//! The snekoban JSON dialect: a list of rows, each a list of cells, each a
//! list of object names among "wall", "computer" (a box), "target" and
//! "player". JSON errors keep their line and column; a bad cell is pointed at
//! by a small scan that finds where each cell's list starts.

use super::alphabet::{Alphabet, Cell};
use super::board::{Board, Placed};
use super::error::{ParseError, ParseErrorKind};
use crate::grid::Grid;

/// Reads a snekoban level into a board (drawn in XSB letters when shown).
pub fn read(text: &str, max_cells: u64) -> Result<Board, ParseError> {
    let rows: Vec<Vec<Vec<String>>> = serde_json::from_str(text).map_err(|e| {
        ParseError::new(
            e.line().max(1),
            char_column(text, e.line(), e.column()),
            ParseErrorKind::Other(crate::words::clip(
                &format!("invalid snekoban JSON: {e}")
                    .replace(&format!(" at line {} column {}", e.line(), e.column()), ""),
            )),
        )
    })?;
    if rows.is_empty() {
        return Err(ParseError::new(1, 1, ParseErrorKind::Empty));
    }
    let positions = cell_positions(text);
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let cells = rows.len() as u64 * cols as u64;
    if cells > max_cells {
        return Err(ParseError::new(
            1,
            1,
            ParseErrorKind::TooLarge {
                cells,
                limit: max_cells,
            },
        ));
    }
    let mut board = Board {
        grid: Grid::new(rows.len(), cols),
        alphabet: Alphabet::Xsb,
        players: Vec::new(),
        boxes: Vec::new(),
        goals: Vec::new(),
    };
    for (r, row) in rows.iter().enumerate() {
        for (c, objects) in row.iter().enumerate() {
            let cell = board.grid.cell(r, c);
            let (line, col) = positions.get(&(r, c)).copied().unwrap_or((1, 1));
            let placed = Placed { cell, line, col };
            let mut wall = false;
            for name in objects {
                match name.as_str() {
                    "wall" => wall = true,
                    "computer" => board.boxes.push(placed),
                    "target" => board.goals.push(placed),
                    "player" => board.players.push(placed),
                    other => {
                        return Err(ParseError::new(
                            line,
                            col,
                            ParseErrorKind::Other(format!(
                                "unknown object {} (snekoban cells hold \"wall\", \"computer\", \"target\", \"player\")",
                                crate::words::quote(other)
                            )),
                        ));
                    }
                }
            }
            if !wall {
                board.grid.set_floor(cell);
            } else if objects.len() > 1 {
                return Err(ParseError::new(
                    line,
                    col,
                    ParseErrorKind::Other("a wall cell holds another object".into()),
                ));
            }
        }
    }
    Ok(board)
}

/// Writes a level as snekoban JSON, one row per line.
/// serde_json counts columns in bytes; errors count characters.
fn char_column(text: &str, line: usize, byte_col: usize) -> usize {
    let Some(row) = text.lines().nth(line.saturating_sub(1)) else {
        return byte_col.max(1);
    };
    let mut end = byte_col.min(row.len());
    while !row.is_char_boundary(end) {
        end -= 1;
    }
    row[..end].chars().count().max(1)
}

pub fn write(grid: &Grid, player: usize, boxes: &[usize], goals: &[usize]) -> String {
    let mut out = String::from("[\n");
    for r in 0..grid.rows() {
        let cells: Vec<String> = (0..grid.cols())
            .map(|c| {
                let cell = grid.cell(r, c);
                let meaning = Cell {
                    wall: grid.is_wall(cell),
                    player: cell == player,
                    boxed: boxes.contains(&cell),
                    goal: goals.contains(&cell),
                };
                let mut names = Vec::new();
                if meaning.wall {
                    names.push("\"wall\"");
                }
                if meaning.goal {
                    names.push("\"target\"");
                }
                if meaning.boxed {
                    names.push("\"computer\"");
                }
                if meaning.player {
                    names.push("\"player\"");
                }
                format!("[{}]", names.join(", "))
            })
            .collect();
        out.push_str("  [");
        out.push_str(&cells.join(", "));
        out.push(']');
        if r + 1 < grid.rows() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push(']');
    out
}

/// Line and column (1-based) of the `[` opening each cell, by (row, col).
fn cell_positions(text: &str) -> std::collections::HashMap<(usize, usize), (usize, usize)> {
    let mut out = std::collections::HashMap::new();
    let (mut line, mut col) = (1, 0);
    let mut depth = 0;
    let (mut row, mut cell) = (0usize, 0usize);
    let mut in_string = false;
    let mut escaped = false;
    for ch in text.chars() {
        if ch == '\n' {
            line += 1;
            col = 0;
            continue;
        }
        col += 1;
        if in_string {
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => in_string = true,
            '[' => {
                depth += 1;
                if depth == 3 {
                    out.insert((row, cell), (line, col));
                }
            }
            ']' => {
                depth -= 1;
                if depth == 1 {
                    row += 1;
                    cell = 0;
                }
            }
            ',' if depth == 2 => cell += 1,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_count_columns_in_characters() {
        // Found by fuzzing: serde_json's byte column ran past the line's characters.
        let e = read("[[[\"é\x01\"]]]", 100).unwrap_err();
        assert_eq!((e.line, e.col), (1, 6));
    }

    #[test]
    fn reads_and_points_at_bad_cells() {
        let text = "[[[\"wall\"], [\"player\"], [], [\"computer\"], [\"target\"], [\"wall\"]]]";
        let b = read(text, 100).unwrap();
        assert_eq!((b.players.len(), b.boxes.len(), b.goals.len()), (1, 1, 1));
        assert_eq!((b.boxes[0].line, b.boxes[0].col), (1, 29));
        let e = read("[\n [[], [\"robot\"]]\n]", 100).unwrap_err();
        assert_eq!((e.line, e.col), (2, 7));
        let e = read("[[[]]", 100).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.kind.to_string().starts_with("invalid snekoban JSON"),
            "{}",
            e.kind
        );
    }
}
