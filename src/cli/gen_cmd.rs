//! `sokoban gen`: write generated grids (and, on request, their answers).

use super::CliError;
use clap::{Args, ValueEnum};
use sokoban::level::{Maze, maze_name};
use sokoban::moves::Notation;
use sokoban::output::answer_line;
use sokoban::single::{Algorithm, solve};
use sokoban::tools::generator::{GenSpec, Kind, generate};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// What to generate: shared by `gen` and `bench` (where files, or
/// `--multi`, refuse these options: they would be ignored).
#[derive(Debug, Args, Clone)]
pub struct SpecArgs {
    /// Rows of each grid.
    #[arg(long)]
    pub rows: Option<usize>,
    /// Columns of each grid.
    #[arg(long)]
    pub cols: Option<usize>,
    /// Layout family.
    #[arg(long, value_enum, default_value_t = KindArg::Random)]
    pub kind: KindArg,
    /// Wall percentage (random, rooms, corridors).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub walls: u32,
    /// Corridor width of mazes (1 to 3).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=3))]
    pub width: u64,
    /// Percentage of inner maze walls removed to make loops.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub loops: u32,
    /// Seed: the same seed gives the same grids.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of grids.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Keep only solvable grids.
    #[arg(long)]
    pub solvable: bool,
    #[command(flatten)]
    pub cells: super::limit::CellsArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum KindArg {
    Open,
    Random,
    Maze,
    Rooms,
    Corridors,
}

impl SpecArgs {
    /// True when a generator spec was given (`--rows` or `--cols`).
    pub fn given(&self) -> bool {
        self.rows.is_some() || self.cols.is_some()
    }

    /// The grids the spec asks for, in order, named `Maze #k`.
    pub fn mazes(&self) -> Result<Vec<Maze>, CliError> {
        let (Some(rows), Some(cols)) = (self.rows, self.cols) else {
            return Err(CliError::Usage("--rows and --cols go together".into()));
        };
        if rows == 0 || cols == 0 {
            return Err(CliError::Usage(
                "--rows and --cols must be at least 1".into(),
            ));
        }
        let cells = (rows as u64).saturating_mul(cols as u64);
        if cells > self.cells.max_cells {
            return Err(CliError::Usage(format!(
                "grid of {cells} cells is larger than the limit of {} (raise it with --max-cells)",
                self.cells.max_cells
            )));
        }
        let spec = GenSpec {
            rows,
            cols,
            kind: match self.kind {
                KindArg::Open => Kind::Open,
                KindArg::Random => Kind::Random,
                KindArg::Maze => Kind::Maze,
                KindArg::Rooms => Kind::Rooms,
                KindArg::Corridors => Kind::Corridors,
            },
            walls: self.walls,
            width: self.width as usize,
            loops: self.loops,
            seed: self.seed,
        };
        let mut out = Vec::with_capacity(self.count);
        let attempts = (self.count as u64).saturating_mul(1000).max(1000);
        let mut index = 0u64;
        while out.len() < self.count {
            if index >= attempts {
                return Err(CliError::Usage(format!(
                    "found only {} of {} in {attempts} tries: the spec makes too few usable{} grids",
                    out.len(),
                    sokoban::words::count(self.count as u64, "grid", "grids"),
                    if self.solvable { " solvable" } else { "" }
                )));
            }
            if let Some(maze) = generate(&spec, index) {
                let keep = !self.solvable
                    || solve(&maze, Algorithm::Layered)
                        .outcome
                        .solution()
                        .is_some();
                if keep {
                    out.push(maze);
                }
            }
            index += 1;
        }
        Ok(out)
    }
}

#[derive(Debug, Args)]
pub struct GenArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Write the judge format even for a single grid.
    #[arg(long)]
    judge: bool,
    /// Also write the expected answers to this file (the solver's output for the grids).
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
}

pub fn run(args: &GenArgs) -> Result<ExitCode, CliError> {
    if !args.spec.given() {
        return Err(CliError::Usage("gen needs --rows and --cols".into()));
    }
    let mazes = args.spec.mazes()?;
    let judge = args.judge || mazes.len() > 1;
    let mut answers = String::new();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (k, maze) in mazes.iter().enumerate() {
        if judge {
            writeln!(out, "{} {}", maze.grid.rows(), maze.grid.cols())?;
        }
        writeln!(out, "{}", maze.render(maze.player, maze.box_cell))?;
        if args.answers.is_some() {
            let line = answer_line(&solve(maze, Algorithm::Layered).outcome, Notation::Nsew);
            if judge {
                answers.push_str(&format!("{}\n{line}\n\n", maze_name(k + 1)));
            } else {
                answers.push_str(&format!("{line}\n"));
            }
        }
    }
    if judge {
        writeln!(out, "0 0")?;
    }
    out.flush()?;
    if let Some(path) = &args.answers {
        std::fs::write(path, answers).map_err(|error| CliError::Read {
            input: path.display().to_string(),
            error,
        })?;
    }
    Ok(ExitCode::SUCCESS)
}
