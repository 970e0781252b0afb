//! The character sets levels are written in, for reading and for writing.
//!
//! One table per dialect, so a reader and a writer can never disagree: each
//! character stands for a wall, or floor with some of player, box and goal.

/// What one cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cell {
    pub wall: bool,
    pub player: bool,
    pub boxed: bool,
    pub goal: bool,
}

impl Cell {
    const WALL: Cell = Cell {
        wall: true,
        player: false,
        boxed: false,
        goal: false,
    };

    const fn floor(player: bool, boxed: bool, goal: bool) -> Cell {
        Cell {
            wall: false,
            player,
            boxed,
            goal,
        }
    }
}

/// A level dialect's letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// `#` wall, `.` floor, `S` player, `B` box, `T` target (the olympiad's).
    Olympiad,
    /// `#` wall, space floor, `@` player, `+` player on goal, `$` box, `*` box on goal, `.` goal.
    Xsb,
    /// `W` wall, `K` keeper, `B` box, `G` goal, `*` box on goal, `+` keeper on goal, `.` floor.
    Wkbg,
    /// `#` wall, `.` goal, `B` box, `X` box on goal, `&` player, `%` player on goal, space floor.
    Bx,
}

impl Alphabet {
    /// Every character of the dialect and what it means; the first one listed
    /// for a meaning is the one written.
    fn table(self) -> &'static [(char, Cell)] {
        const OLYMPIAD: &[(char, Cell)] = &[
            ('#', Cell::WALL),
            ('.', Cell::floor(false, false, false)),
            ('S', Cell::floor(true, false, false)),
            ('B', Cell::floor(false, true, false)),
            ('T', Cell::floor(false, false, true)),
        ];
        const XSB: &[(char, Cell)] = &[
            ('#', Cell::WALL),
            (' ', Cell::floor(false, false, false)),
            ('-', Cell::floor(false, false, false)),
            ('_', Cell::floor(false, false, false)),
            ('@', Cell::floor(true, false, false)),
            ('+', Cell::floor(true, false, true)),
            ('$', Cell::floor(false, true, false)),
            ('*', Cell::floor(false, true, true)),
            ('.', Cell::floor(false, false, true)),
        ];
        const WKBG: &[(char, Cell)] = &[
            ('W', Cell::WALL),
            ('.', Cell::floor(false, false, false)),
            ('K', Cell::floor(true, false, false)),
            ('+', Cell::floor(true, false, true)),
            ('B', Cell::floor(false, true, false)),
            ('*', Cell::floor(false, true, true)),
            ('G', Cell::floor(false, false, true)),
        ];
        const BX: &[(char, Cell)] = &[
            ('#', Cell::WALL),
            (' ', Cell::floor(false, false, false)),
            ('&', Cell::floor(true, false, false)),
            ('%', Cell::floor(true, false, true)),
            ('B', Cell::floor(false, true, false)),
            ('X', Cell::floor(false, true, true)),
            ('.', Cell::floor(false, false, true)),
        ];
        match self {
            Alphabet::Olympiad => OLYMPIAD,
            Alphabet::Xsb => XSB,
            Alphabet::Wkbg => WKBG,
            Alphabet::Bx => BX,
        }
    }

    /// What a character means, or `None` for a character of another dialect.
    pub fn read(self, ch: char) -> Option<Cell> {
        self.table()
            .iter()
            .find(|(c, _)| *c == ch)
            .map(|(_, cell)| *cell)
    }

    /// The character for a cell, or `None` when the dialect cannot write it
    /// (the olympiad letters have none for a box or player on the target).
    pub fn write(self, cell: Cell) -> Option<char> {
        let cell = if cell.wall { Cell::WALL } else { cell };
        self.table()
            .iter()
            .find(|(_, c)| *c == cell)
            .map(|(ch, _)| *ch)
    }

    /// The wall character (a level row holds at least one).
    pub fn wall(self) -> char {
        self.table()[0].0
    }

    /// The characters that may stand in a level row.
    pub fn is_cell_char(self, ch: char) -> bool {
        self.read(ch).is_some()
    }

    /// The letters, for error messages.
    pub fn letters(self) -> &'static str {
        match self {
            Alphabet::Olympiad => "olympiad grids use # . S B T",
            Alphabet::Xsb => "XSB levels use # @ + $ * . and space",
            Alphabet::Wkbg => "wkbg levels use W K B G * + .",
            Alphabet::Bx => "bx levels use # . B X & % and space",
        }
    }

    /// Its `--format` name.
    pub fn name(self) -> &'static str {
        match self {
            Alphabet::Olympiad => "olympiad",
            Alphabet::Xsb => "xsb",
            Alphabet::Wkbg => "wkbg",
            Alphabet::Bx => "bx",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_written_character_reads_back() {
        for alphabet in [
            Alphabet::Olympiad,
            Alphabet::Xsb,
            Alphabet::Wkbg,
            Alphabet::Bx,
        ] {
            for &(ch, cell) in alphabet.table() {
                let written = alphabet.write(cell).unwrap();
                assert_eq!(alphabet.read(written), Some(cell), "{alphabet:?} {ch:?}");
            }
            assert!(alphabet.read(alphabet.wall()).unwrap().wall);
        }
        let on_target = Cell::floor(false, true, true);
        assert_eq!(Alphabet::Olympiad.write(on_target), None);
        assert_eq!(Alphabet::Xsb.write(on_target), Some('*'));
    }
}
