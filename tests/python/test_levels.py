"""Levels from Python: every way in (text, rows, files of every format, gym
arrays), every way out (XSB, gym arrays), moves on them, and every error."""

import pickle

import numpy as np
import pytest

import sokoban
from conftest import DATA, SAMPLES


def test_a_level_from_xsb_knows_its_pieces(two_boxes):
    assert (two_boxes.width, two_boxes.height) == (7, 4)
    assert two_boxes.player == (1, 1)
    assert two_boxes.boxes == [(1, 2), (2, 2)]
    assert two_boxes.goals == [(1, 4), (2, 4)]
    assert two_boxes.name == "two"
    assert not two_boxes.solved
    assert two_boxes.is_wall(0, 0) and not two_boxes.is_wall(1, 3)
    assert two_boxes.is_wall(-1, 3) and two_boxes.is_wall(1, 99)
    assert str(two_boxes) == "#######\n#@$ .##\n# $ . #\n#######"


def test_text_rows_and_constructor_agree(two_boxes):
    rows = str(two_boxes).split("\n")
    assert sokoban.Level.from_rows(rows) == two_boxes
    assert sokoban.Level(rows) == two_boxes
    assert sokoban.Level(str(two_boxes)) == two_boxes
    assert hash(sokoban.Level(rows)) == hash(two_boxes)
    assert two_boxes != two_boxes.step("r")
    assert two_boxes != "not a level"


def test_levels_pickle(two_boxes):
    back = pickle.loads(pickle.dumps(two_boxes))
    assert back == two_boxes and back.name == "two"


def test_read_levels_keeps_names_from_files_text_and_bytes():
    path = SAMPLES / "multi" / "collection.xsb"
    names = ["microban 1", "microban 2", "A box stuck in a corner"]
    assert [lv.name for lv in sokoban.read_levels(path)] == names
    assert [lv.name for lv in sokoban.read_levels(str(path))] == names
    text = path.read_text()
    assert sokoban.read_levels(text) == sokoban.read_levels(path)
    assert sokoban.read_levels(text.encode()) == sokoban.read_levels(path)
    sok = sokoban.read_levels(SAMPLES / "multi" / "collection.sok")
    assert sok[0].name == "The first"


def test_boxoban_files_read_with_their_names():
    levels = sokoban.read_levels(DATA / "levels" / "boxoban-medium-1000.xsb")
    assert levels[0].name == "boxoban-medium 0"
    assert all((lv.width, lv.height, len(lv.boxes)) == (10, 10, 4) for lv in levels)


def test_every_dialect_reads_the_same_level():
    xsb = sokoban.read_levels("#####\n#@$.#\n#####\n")[0]
    for text, fmt, auto in [
        ("#####\n#SBT#\n#####\n", "olympiad", True),
        ("WWWWW\nWKBGW\nWWWWW\n", "wkbg", False),
        ("#####\n#&B.#\n#####\n", "bx", False),
        ("3 5\n#####\n#SBT#\n#####\n0 0\n", "judge", True),
    ]:
        assert sokoban.read_levels(text, format=fmt) == [xsb], fmt
        if auto:  # as on the command line, "auto" tells these from XSB
            assert sokoban.read_levels(text) == [xsb], fmt
    assert len(sokoban.read_levels(SAMPLES / "dialects" / "maze.json")) == 1
    assert sokoban.read_levels(SAMPLES / "dialects" / "level.bx", format="bx")


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("#####\n#@$x#\n#####", 2, 4, "unknown character 'x'"),
        ("######\n#@$.@#\n######", 2, 5, "a second player"),
        ("#####\n# $.#\n#####", 1, 1, "no player"),
        ("######\n#@$$.#\n######", 1, 1, "2 boxes but 1 goal"),
        ("#####\n#\t@$.#\n#####", 2, 2, "tab"),
    ],
)
def test_a_bad_level_raises_parse_error_at_its_place(text, line, column, words):
    with pytest.raises(sokoban.ParseError) as caught:
        sokoban.Level.from_xsb(text)
    error = caught.value
    assert (error.line, error.column) == (line, column)
    assert words in error.message
    assert str(error).startswith(f"{line}:{column}: ")
    assert isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))
    assert (again.line, again.column, again.message) == (line, column, error.message)


def test_a_bad_file_names_itself(tmp_path):
    bad = tmp_path / "bad.xsb"
    bad.write_text("; one\n#####\n#@$.#\n#####\n\n#####\n#@$x#\n#####\n")
    with pytest.raises(sokoban.ParseError) as caught:
        sokoban.read_levels(bad)
    assert (caught.value.line, caught.value.column) == (7, 4)
    assert caught.value.source == str(bad)
    assert str(caught.value).startswith(f"{bad}:7:4: ")
    with pytest.raises(FileNotFoundError):
        sokoban.read_levels(tmp_path / "missing.xsb")
    with pytest.raises(sokoban.ParseError):
        sokoban.read_levels("")
    with pytest.raises(ValueError, match="unknown format"):
        sokoban.read_levels("#####\n#@$.#\n#####\n", format="sok")


def test_one_level_means_one():
    with pytest.raises(ValueError, match="holds 3 levels"):
        sokoban.Level((SAMPLES / "multi" / "collection.xsb").read_text())
    with pytest.raises(TypeError):
        sokoban.Level.from_rows("#####")


def gym_room():
    """A room in gym-sokoban's codes: the player, a box, a goal, a box on a goal."""
    fixed = np.array(
        [[0, 0, 0, 0, 0, 0], [0, 1, 1, 2, 2, 0], [0, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0]]
    )
    state = np.array(
        [[0, 0, 0, 0, 0, 0], [0, 5, 4, 2, 3, 0], [0, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0]]
    )
    return fixed, state


def test_gym_arrays_round_trip():
    fixed, state = gym_room()
    level = sokoban.Level.from_gym(fixed, state)
    assert str(level) == "######\n#@$.*#\n#    #\n######"
    assert level.boxes == [(1, 2), (1, 4)] and level.goals == [(1, 3), (1, 4)]
    assert level.name == "gym"
    back_fixed, back_state = level.to_gym()
    assert np.array_equal(back_fixed, fixed) and np.array_equal(back_state, state)
    assert sokoban.Level.from_gym(fixed.tolist(), state.tolist()) == level


def test_gym_positions_follow_the_moves():
    fixed, state = gym_room()
    level = sokoban.Level.from_gym(fixed, state).step("right")
    new_fixed, new_state = level.to_gym()
    assert np.array_equal(new_fixed, fixed)
    assert new_state[1].tolist() == [0, 1, 5, 3, 3, 0]
    assert level.solved


def test_player_on_a_target_reads_from_either_code():
    fixed = [[0, 0, 0, 0, 0], [0, 2, 1, 1, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]]
    for code in (5, 6):
        state = [[0, 0, 0, 0, 0], [0, code, 4, 1, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]]
        level = sokoban.Level.from_gym(fixed, state)
        assert str(level).split("\n")[1] == "#+$ #"
        assert level.to_gym()[1][1, 1] == 5


def test_every_boxoban_level_round_trips_through_gym():
    for level in sokoban.read_levels(DATA / "levels" / "boxoban-medium-1000.xsb"):
        fixed, state = level.to_gym()
        assert fixed.shape == (10, 10) and state.shape == (10, 10)
        assert sokoban.Level.from_gym(fixed, state, name=level.name) == level


def test_floor_outside_the_walls_becomes_wall_in_gym():
    level = sokoban.Level.from_xsb("  #####\n  #@$.#\n  #####")
    fixed, state = level.to_gym()
    assert fixed[:, :2].sum() == 0 and state[:, :2].sum() == 0
    assert sokoban.Level.from_gym(fixed, state).boxes == level.boxes


def test_bad_gym_arrays_are_refused():
    fixed, state = gym_room()
    state[2, 3] = 0
    with pytest.raises(sokoban.ParseError) as caught:
        sokoban.Level.from_gym(fixed, state)
    assert (caught.value.line, caught.value.column) == (3, 4)
    state[2, 3] = 9
    with pytest.raises(sokoban.ParseError, match="not gym-sokoban's"):
        sokoban.Level.from_gym(fixed, state)
    with pytest.raises(ValueError, match="same shape"):
        sokoban.Level.from_gym(fixed, state[:, :3])
    with pytest.raises(ValueError, match="2-D"):
        sokoban.Level.from_gym(np.zeros(4), np.zeros(4))
    fixed, state = gym_room()
    state[1, 1] = 1
    with pytest.raises(sokoban.ParseError, match="no player"):
        sokoban.Level.from_gym(fixed, state)


def test_step_and_replay_give_the_position_after_the_moves(two_boxes):
    after = two_boxes.step("r")
    assert after.player == (1, 2) and after.boxes == [(1, 3), (2, 2)]
    assert two_boxes.player == (1, 1), "levels are values"
    for name in ("R", "e", "east", "Right"):
        assert two_boxes.step(name) == after
    end = two_boxes.replay("RRlldRR")
    assert end.solved and end.player == (2, 3)
    assert two_boxes.replay("rrlldrr") == end, "not strict: case is free"
    assert two_boxes.replay("2R2l d2R") == end, "run lengths and spaces"
    assert two_boxes.replay("") == two_boxes


def test_illegal_moves_and_bad_strings_raise(two_boxes):
    with pytest.raises(sokoban.IllegalMove) as caught:
        two_boxes.replay("RRR")
    assert (caught.value.index, caught.value.letter) == (2, "R")
    assert caught.value.reason == "pushes a box into a wall"
    assert str(caught.value) == "move 2 (R) pushes a box into a wall"
    with pytest.raises(sokoban.IllegalMove, match="walks into a wall"):
        two_boxes.step("u")
    with pytest.raises(sokoban.IllegalMove) as caught:
        two_boxes.replay("rr", strict=True)
    assert caught.value.index == 0 and "use upper case" in caught.value.reason
    assert isinstance(caught.value, ValueError)
    with pytest.raises(ValueError, match="not a move letter"):
        two_boxes.replay("RRx")
    with pytest.raises(ValueError, match="run-length"):
        two_boxes.replay("3(R")
    with pytest.raises(ValueError, match="not a direction"):
        two_boxes.step("upward")
