//! Every level dialect on the samples: solve, convert, round-trip; and
//! `verify` judging answers.

use sokoban::level::{Format, Level, WriteError, parse_levels, write_levels};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

use common::Scratch;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sokoban"))
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn stdout_of(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The same walls and pieces (names and letters aside).
fn same(a: &Level, b: &Level) -> bool {
    a.grid == b.grid && a.player == b.player && a.boxes == b.boxes && a.goals == b.goals
}

const FORMATS: [Format; 6] = [
    Format::Olympiad,
    Format::Xsb,
    Format::Judge,
    Format::Wkbg,
    Format::Bx,
    Format::SnekobanJson,
];

/// What a format cannot write, and why: every other pair of a sample and a
/// format must write and read back the same levels.
fn refused(file: &str, to: Format) -> Option<WriteError> {
    let no_letter = |name: &str, format: &'static str| WriteError::NoLetter {
        name: name.into(),
        format,
    };
    // Olympiad letters (the judge format's too) have no box or player on a goal.
    let on_goal = match file {
        "box-on-target.xsb" | "multi/one.xsb" => Some("Level 1"),
        "multi/collection.xsb" => Some("microban 1"),
        "dialects/level.wkbg" | "dialects/level.bx" => Some("microban 2"),
        _ => None,
    };
    match (file, to) {
        (_, Format::Olympiad | Format::Judge) if on_goal.is_some() => {
            Some(no_letter(on_goal.unwrap(), "olympiad"))
        }
        // bx has no letter for floor alone, so a row of bare floor is lost.
        ("judge-sample.txt", Format::Bx) => Some(no_letter("Maze #4", "bx")),
        // Snekoban JSON holds one level.
        ("judge-sample.txt", Format::SnekobanJson) => Some(WriteError::OneLevelOnly(4)),
        ("multi/collection.xsb", Format::SnekobanJson) => Some(WriteError::OneLevelOnly(3)),
        _ => None,
    }
}

#[test]
fn every_format_round_trips_on_the_samples() {
    let inputs = [
        ("olympiad.txt", Format::Auto),
        ("judge-sample.txt", Format::Auto),
        ("one-box.xsb", Format::Auto),
        ("box-on-target.xsb", Format::Auto),
        ("multi/collection.xsb", Format::Auto),
        ("multi/one.xsb", Format::Auto),
        ("dialects/maze.wkbg", Format::Wkbg),
        ("dialects/maze.bx", Format::Bx),
        ("dialects/maze.json", Format::SnekobanJson),
        ("dialects/level.wkbg", Format::Wkbg),
        ("dialects/level.bx", Format::Bx),
    ];
    let mut written = 0;
    for (file, format) in inputs {
        let levels = parse_levels(&std::fs::read(sample(file)).unwrap(), format, 1 << 20)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        for to in FORMATS {
            let text = match (write_levels(&levels, to), refused(file, to)) {
                (Ok(text), None) => text,
                (Err(got), Some(why)) => {
                    assert_eq!(got, why, "{file} as {to:?}");
                    continue;
                }
                (got, why) => panic!("{file} as {to:?}: {got:?}, expected {why:?}"),
            };
            let back = parse_levels(text.as_bytes(), to, 1 << 20)
                .unwrap_or_else(|e| panic!("{file} as {to:?}: {e}\n{text}"));
            assert_eq!(back.len(), levels.len(), "{file} as {to:?}");
            for (a, b) in levels.iter().zip(&back) {
                assert!(same(a, b), "{file} as {to:?}:\n{text}");
            }
            written += 1;
        }
    }
    assert_eq!(written, 11 * 6 - 13);
}

#[test]
fn each_dialect_solves_in_both_modes() {
    for (file, format) in [
        ("dialects/maze.wkbg", "wkbg"),
        ("dialects/maze.bx", "bx"),
        ("dialects/maze.json", "snekoban-json"),
    ] {
        let (code, out, err) = stdout_of(bin().arg("--format").arg(format).arg(sample(file)));
        assert_eq!((code, out.as_str()), (Some(0), "eEE\n"), "{file}: {err}");
        let (code, out, _) = stdout_of(
            bin()
                .args(["--multi", "--format", format])
                .arg(sample(file)),
        );
        assert_eq!((code, out.as_str()), (Some(0), "eEE\n"), "{file}");
    }
    // The snekoban file is also recognised without --format.
    let (_, out, _) = stdout_of(bin().arg(sample("dialects/maze.json")));
    assert_eq!(out, "eEE\n");
    for (file, format) in [("dialects/level.wkbg", "wkbg"), ("dialects/level.bx", "bx")] {
        let (code, out, _) = stdout_of(
            bin()
                .args(["--multi", "--format", format])
                .arg(sample(file)),
        );
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "essWennwSnnwwssE\n"),
            "{file}"
        );
    }
}

#[test]
fn dialect_errors_name_their_letters() {
    let mut child = bin()
        .args(["--format", "wkbg"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"WWWW\nWK#BG\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: <stdin>:2:3: unknown character '#' (wkbg levels use W K B G * + .)\n"
    );
}

#[test]
fn convert_writes_and_refuses_what_it_cannot_write() {
    let (code, out, _) = stdout_of(
        bin()
            .args(["convert", "--to", "olympiad"])
            .arg(sample("one-box.xsb")),
    );
    assert_eq!(code, Some(0));
    assert_eq!(out, "#######\n#.S...#\n#.B.T.#\n#.....#\n#######\n");
    // A box on its goal has no olympiad letter.
    let (code, _, err) = stdout_of(
        bin()
            .args(["convert", "--to", "olympiad"])
            .arg(sample("box-on-target.xsb")),
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("use --to xsb"), "{err}");
    let (code, _, err) = stdout_of(
        bin()
            .args(["convert", "--to", "snekoban-json"])
            .arg(sample("multi/collection.xsb")),
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("one level"), "{err}");
}

#[test]
fn verify_judges_a_contestant_file_maze_by_maze() {
    let (code, out, _) = stdout_of(
        bin()
            .arg("verify")
            .arg(sample("judge-sample.txt"))
            .arg(sample("dialects/contestant.txt")),
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        std::fs::read_to_string(sample("dialects/contestant.expected")).unwrap()
    );
    assert!(out.contains("Maze #2: illegal: move 3 (E) pushes a box into a wall"));
    assert!(out.contains("Maze #4: 3 18 solved not optimal (optimum: 3 16)"));
    // The solver's own output passes, also with --optimal.
    let (code, out, _) = stdout_of(
        bin()
            .args(["verify", "--optimal"])
            .arg(sample("judge-sample.txt"))
            .arg(sample("judge-sample.expected")),
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.ends_with("optimal") || l.ends_with("correct"))
            .count(),
        4
    );
}

#[test]
fn verify_single_answers_notations_and_optimality() {
    let maze = sample("olympiad.txt");
    let run = |args: &[&str]| {
        stdout_of(
            bin()
                .arg("verify")
                .args(args)
                .arg(&maze)
                .arg("eennwwWWWWeeeeeesswwwwwwwnNN"),
        )
    };
    assert_eq!(
        run(&[]),
        (Some(0), "6 22 solved optimal\n".into(), String::new())
    );
    let lurd = "rruullLLLLrrrrrrddllllllluUU";
    let (code, out, _) = stdout_of(bin().arg("verify").arg(&maze).arg(lurd));
    assert_eq!((code, out.as_str()), (Some(0), "6 22 solved optimal\n"));
    let (code, out, _) = stdout_of(bin().arg("verify").arg(&maze).arg(lurd.to_uppercase()));
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "6 22 solved optimal (read as udlr)\n")
    );
    // The problem text's printed answer walks into the box.
    let (code, out, _) = stdout_of(
        bin()
            .arg("verify")
            .arg(&maze)
            .arg("eennwwWWWWeeeeeesswwwwwwwnnNN"),
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "illegal: move 27 (n) walk letter where the step pushes a box (use upper case)\n"
    );
    // Legal but longer: fine, unless --optimal.
    let longer = "eennwwWWWWeeeeeesswwwwwwwnNNsn";
    let (code, out, _) = stdout_of(bin().arg("verify").arg(&maze).arg(longer));
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "6 24 solved not optimal (optimum: 6 22)\n")
    );
    let (code, _, _) = stdout_of(bin().args(["verify", "--optimal"]).arg(&maze).arg(longer));
    assert_eq!(code, Some(1));
    // Moves from stdin, and a multi-box level by its box count.
    let mut child = bin()
        .arg("verify")
        .arg(sample("multi/one.xsb"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"nwwSnwwsseEnWneeesWWeesswNenW\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "7 22 solved\n");
}

#[test]
fn trace_draws_every_push_in_the_level_letters() {
    let (code, out, _) = stdout_of(
        bin()
            .arg("--trace")
            .arg(sample("dialects/maze.wkbg"))
            .args(["--format", "wkbg"]),
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "eEE\nstart\nWWWWWWW\nWK.B.GW\nW.....W\nWWWWWWW\n\npush 1 (E)\nWWWWWWW\nW..KBGW\nW.....W\nWWWWWWW\n\npush 2 (E)\nWWWWWWW\nW...K*W\nW.....W\nWWWWWWW\n\n"
    );
    let (_, out, _) = stdout_of(
        bin()
            .arg("--trace=moves")
            .arg(sample("dialects/maze.bx"))
            .args(["--format", "bx"]),
    );
    assert_eq!(out.matches("\nmove ").count(), 3);
}

/// Every command reads a collection as the same levels, whatever its first
/// line (one detector: a bare number is a title), and single-box mode
/// refuses each with the advice to use --multi.
#[test]
fn every_command_reads_a_collection_alike() {
    let dir = Scratch::new("formats-titled");
    let titled = dir.join("titled.xsb");
    let text = "1\n#####\n#@$.#\n#####\n\n2\n#######\n#@$$..#\n#######\n";
    std::fs::write(&titled, text).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let files = [
        titled,
        sample("multi/collection.xsb"),
        sample("multi/collection.sok"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/levels/handmade.xsb"),
    ];
    for file in &files {
        let n = parse_levels(&std::fs::read(file).unwrap(), Format::Auto, 1 << 20)
            .unwrap()
            .len();
        let f = file.display();
        let (code, _, err) = stdout_of(bin().arg(file));
        assert_eq!(code, Some(2), "{f}");
        let advice = ":1:1: this is a multi-box level collection: use --multi\n";
        assert!(err.ends_with(advice), "{f}: {err}");
        let lines = |args: &[&str]| {
            let (_, out, err) = stdout_of(bin().args(args).arg(file));
            assert!(!err.contains("error"), "{f} {args:?}: {err}");
            out.lines().count()
        };
        let json = ["--max-nodes", "1", "--json"];
        assert_eq!(lines(&[&["--multi"][..], &json].concat()), n, "{f}");
        assert_eq!(
            lines(&[&["bench", "--multi"][..], &json].concat()),
            n + 1,
            "{f}"
        );
        assert_eq!(lines(&[&["optimize"][..], &json].concat()), n, "{f}");
        let (code, out, _) = stdout_of(bin().arg("verify").arg(file).arg(&empty));
        assert_eq!(
            (code, out.matches(": missing answer\n").count()),
            (Some(1), n),
            "{f}"
        );
        let (code, out, _) = stdout_of(bin().args(["convert", "--to", "xsb"]).arg(file));
        assert_eq!(code, Some(0), "{f}");
        let back = parse_levels(out.as_bytes(), Format::Xsb, 1 << 20).unwrap();
        assert_eq!(back.len(), n, "{f}");
    }
}

/// An answer argument is a file, `-` (stdin) or moves: a name that is no
/// file is refused (exit 2) instead of judged as moves, and `-` is stdin
/// wherever a file is read.
#[test]
fn a_file_argument_never_becomes_moves() {
    let maze = sample("olympiad.txt");
    let (code, out, err) = stdout_of(bin().arg("verify").arg(&maze).arg("nonexistent.txt"));
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("\"nonexistent.txt\": no such file"), "{err}");
    let fed = |args: &[&str], input: &str| {
        let mut child = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let maze = maze.to_str().unwrap();
    let answer = "eennwwWWWWeeeeeesswwwwwwwnNN\n";
    let level = std::fs::read_to_string(maze).unwrap();
    let solved = (Some(0), "6 22 solved optimal\n".to_string());
    assert_eq!(fed(&["verify", maze, "-"], answer), solved);
    assert_eq!(fed(&["verify", "-", answer.trim()], &level), solved);
    assert_eq!(fed(&["verify", "-", "-"], answer).0, Some(2));
    let one = sample("multi/one.xsb");
    let one = one.to_str().unwrap();
    let solution = "nwwSnwwsseEnWneeesWWeesswNenW";
    let (code, out) = fed(&["optimize", one, "-"], solution);
    assert_eq!((code, out.lines().count()), (Some(0), 1), "{out}");
    let (code, out) = fed(
        &["optimize", "-", solution],
        &std::fs::read_to_string(one).unwrap(),
    );
    assert_eq!((code, out.lines().count()), (Some(0), 1), "{out}");
    assert_eq!(fed(&["optimize", "-", "-"], solution).0, Some(2));
}
