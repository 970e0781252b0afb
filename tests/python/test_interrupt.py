"""Ctrl-C during a long solve raises KeyboardInterrupt within a moment, and
the package solves again afterwards. Each case runs in a child process that
starts a search no test could wait for and gets SIGINT a second later."""

import signal
import subprocess
import sys
import time

import pytest

from conftest import DATA

CHILD = r"""
import signal, sys, sokoban
# A shell that starts jobs in the background hands them Ctrl-C ignored, and
# Python then leaves it so: take it back, as an interactive session has it.
signal.signal(signal.SIGINT, signal.default_int_handler)
path, index, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
level = sokoban.read_levels(path)[index]
small = sokoban.Level.from_xsb("#####\n#@$.#\n#####")
if how == "optimize":
    moves = sokoban.solve(level, fast=True, threads=2).moves
print("started", flush=True)
try:
    if how == "solve":
        sokoban.solve(level)
    elif how == "fast":
        sokoban.solve(level, fast=True, threads=2)
    elif how == "many":
        sokoban.solve_many([small, level, level, level], jobs=2)
    elif how == "iter":
        for _ in sokoban.solve_iter([level] * 3, jobs=2, fast=True, threads=1):
            pass
    elif how == "optimize":
        sokoban.optimize(level, moves, metric="pushes", threads=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    assert sokoban.solve(small).moves == "R"
    print("solved again", flush=True)
    raise
print("finished", flush=True)
"""

LONG = str(DATA / "long-runs" / "interrupt.xsb")  # level 2: perfect 3
HUGE = str(DATA / "long-runs" / "huge.xsb")
SLOW_START = str(DATA / "long-runs" / "slow-start.xsb")


def interrupt(*args: str) -> tuple:
    """Runs the child, sends SIGINT a second after it starts, and returns
    its exit status, output and how long it took to end after the signal."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline() == "started\n"
    time.sleep(1.0)
    assert child.poll() is None, "the solve ended before the signal"
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("the interpreter hung after Ctrl-C")
    return child.returncode, out, err, time.monotonic() - sent


@pytest.mark.parametrize(
    "args",
    [
        (LONG, "2", "solve"),
        (HUGE, "0", "fast"),
        (SLOW_START, "0", "fast"),
        (LONG, "2", "many"),
        (SLOW_START, "0", "iter"),
        (LONG, "2", "optimize"),
    ],
    ids=["solve", "fast", "fast-slow-start", "solve_many", "solve_iter", "optimize"],
)
def test_ctrl_c_raises_keyboard_interrupt_at_once(args):
    code, out, err, took = interrupt(*args)
    assert out == "interrupted\nsolved again\n", err
    assert "KeyboardInterrupt" in err
    assert code != 0
    # Python's own start and exit are in this; the search stops in milliseconds.
    assert took < 3.0, f"{took:.2f} s"
