"""Shared paths and levels for the Python package's tests."""

from pathlib import Path

import pytest

import sokoban

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
DATA = ROOT / "tests" / "data"


@pytest.fixture
def two_boxes() -> sokoban.Level:
    return sokoban.Level.from_xsb("#######\n#@$ .##\n# $ . #\n#######", name="two")


@pytest.fixture
def microban() -> list:
    return sokoban.read_levels(DATA / "levels" / "microban.xsb")
