"""Boxoban from Python against `sokoban bench`: the same levels, the same
options, the same answers, and both totals side by side.

    python tests/python/bench_boxoban.py [LEVELS] [--jobs N] [--fast] [--time-limit T]

LEVELS defaults to the shared 1000 Boxoban medium levels. The command line
runs first (`target/release/sokoban`, or `--cli PATH`), then `solve_many`
with the same options. Printed: each run's wall time and its total of
per-level seconds (what `bench` calls "total"), their ratio, and whether every
answer matched. Push-optimal answers must match move for move; with `--fast`
the lanes race, so only the statuses are compared. Not a test: pytest does
not collect it (its name has no `test_`).
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import sokoban

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ROOT.parent / "shared" / "levels" / "boxoban-medium-1000.xsb"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("levels", nargs="?", type=Path, default=LEVELS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--cli", type=Path, default=ROOT / "target" / "release" / "sokoban")
    return parser.parse_args()


def run_cli(args: argparse.Namespace) -> tuple:
    """`sokoban bench --json`: its records, total seconds and wall time."""
    command = [str(args.cli), "bench", "--multi", "--json", "--jobs", str(args.jobs)]
    if args.fast:
        command.append("--fast")
    if args.time_limit is not None:
        command += ["--time-limit", str(args.time_limit)]
    started = time.perf_counter()
    done = subprocess.run(command + [str(args.levels)], capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 3):
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    summary = records.pop()
    return records, summary["seconds"], wall


def run_python(args: argparse.Namespace) -> tuple:
    """`solve_many` on the same levels: its solutions, total and wall time."""
    started = time.perf_counter()
    levels = sokoban.read_levels(args.levels)
    solutions = sokoban.solve_many(
        levels, jobs=args.jobs, fast=args.fast, time_limit=args.time_limit
    )
    wall = time.perf_counter() - started
    return solutions, sum(s.seconds for s in solutions), wall


def differences(records: list, solutions: list, fast: bool) -> list:
    """The levels whose answers differ, by name."""
    if len(records) != len(solutions):
        return [f"{len(records)} answers from the command line, {len(solutions)} from Python"]
    wrong = []
    for record, solution in zip(records, solutions):
        same = record["name"] == solution.name and record["status"] == solution.status.value
        if same and not fast and solution.solved:
            same = record["moves"] == solution.nsew
        if not same:
            wrong.append(solution.name)
    return wrong


def main() -> None:
    args = arguments()
    records, cli_total, cli_wall = run_cli(args)
    solutions, py_total, py_wall = run_python(args)
    solved = sum(1 for s in solutions if s.solved)
    print(f"levels: {args.levels} ({len(solutions)}, {solved} solved)")
    print(f"options: jobs {args.jobs}, fast {args.fast}, time limit {args.time_limit}")
    print(f"sokoban bench : total {cli_total:8.3f} s, wall {cli_wall:8.3f} s")
    print(f"solve_many    : total {py_total:8.3f} s, wall {py_wall:8.3f} s")
    print(f"python / cli  : total {py_total / cli_total:.3f}, wall {py_wall / cli_wall:.3f}")
    wrong = differences(records, solutions, args.fast)
    print("answers: the same" if not wrong else f"answers differ: {', '.join(wrong[:10])}")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
