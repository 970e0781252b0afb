"""Solving from Python: the samples' answers, limits, options, many levels
at once against one at a time, and the tools (verify, optimize, single)."""

import pytest

import sokoban
from conftest import DATA, SAMPLES


def test_the_samples_solve_and_replay():
    levels = sokoban.read_levels(SAMPLES / "multi" / "collection.xsb")
    expected = (SAMPLES / "multi" / "collection.expected").read_text().split("\n\n")
    for level, answer in zip(levels, expected):
        name, line = answer.strip().split("\n")
        solution = sokoban.solve(level)
        assert solution.name == level.name == name
        assert str(solution) == (line if line == "Impossible." else solution.moves)
        if solution:
            assert solution.nsew == line, "the same answer as the command line"
            assert solution.optimal and solution.status is sokoban.Status.SOLVED
            assert level.replay(solution.moves, strict=True).solved
            assert solution.pushes == sum(c.isupper() for c in solution.moves)
            assert solution.walks == sum(c.islower() for c in solution.moves)
        else:
            assert solution.status is sokoban.Status.IMPOSSIBLE
            assert solution.moves is None and solution.limit is None
    one = sokoban.read_levels(SAMPLES / "multi" / "one.xsb")[0]
    assert sokoban.solve(one).nsew == (SAMPLES / "multi" / "one.expected").read_text().strip()


def test_fast_solves_with_a_replayable_answer(microban):
    for level in microban:
        solution = sokoban.solve(level, fast=True, threads=2, time_limit=30)
        assert solution and level.replay(solution.moves).solved


def test_limits_give_a_status_not_an_exception(two_boxes):
    hard = sokoban.read_levels(DATA / "long-runs" / "interrupt.xsb")[2]
    assert hard.name == "perfect 3"
    by_nodes = sokoban.solve(hard, max_nodes=50)
    assert by_nodes.status is sokoban.Status.LIMIT and by_nodes.limit is sokoban.Limit.NODES
    assert str(by_nodes) == "No solution found (node limit 50)."
    assert by_nodes.moves is None and not by_nodes
    by_time = sokoban.solve(hard, time_limit=0.3)
    assert by_time.limit is sokoban.Limit.TIME and by_time.reason == "time limit 0.3 s"
    assert by_time.seconds < 5
    by_memory = sokoban.solve(hard, max_memory_mb=1)
    assert by_memory.limit is sokoban.Limit.MEMORY
    assert sokoban.solve(two_boxes, time_limit=5, max_nodes=1000, max_memory_mb=64)


@pytest.mark.parametrize(
    "options",
    [
        {"time_limit": 0},
        {"time_limit": -1},
        {"time_limit": float("nan")},
        {"max_nodes": 0},
        {"max_memory_mb": 0},
        {"threads": 0},
        {"max_nodes": -1},
        {"max_memory_mb": -5},
    ],
)
def test_bad_options_raise_value_error(two_boxes, options):
    with pytest.raises(ValueError):
        sokoban.solve(two_boxes, **options)
    with pytest.raises(ValueError):
        sokoban.solve_many([two_boxes], **options)


def test_wrong_types_raise_type_error(two_boxes):
    with pytest.raises(TypeError):
        sokoban.solve(str(two_boxes))
    with pytest.raises(TypeError):
        sokoban.solve(two_boxes, max_nodes="10")
    with pytest.raises(TypeError):
        sokoban.solve_many([two_boxes, "#####"])


def test_solve_many_matches_one_at_a_time(microban):
    levels = microban * 4
    alone = [sokoban.solve(level) for level in levels]
    for jobs in (1, 2, 3):
        seen = []
        many = sokoban.solve_many(levels, jobs=jobs, progress=lambda i, s: seen.append((i, s)))
        assert [s.moves for s in many] == [s.moves for s in alone], jobs
        assert [s.name for s in many] == [lv.name for lv in levels]
        assert sorted(i for i, _ in seen) == list(range(len(levels)))
        assert all(many[i] is s for i, s in seen)
    assert [s.moves for s in sokoban.solve_iter(levels, jobs=2)] == [s.moves for s in alone]
    assert sokoban.solve_many([]) == [] and list(sokoban.solve_iter([])) == []
    with pytest.raises(ValueError, match="jobs"):
        sokoban.solve_many(levels, jobs=0)


def test_solve_many_takes_any_iterable_and_limits(microban):
    hard = sokoban.read_levels(DATA / "long-runs" / "interrupt.xsb")[2]
    answers = sokoban.solve_many(iter([hard, microban[0], hard]), jobs=2, max_nodes=100)
    assert [a.status.value for a in answers] == ["limit", "solved", "limit"]


def test_leaving_solve_iter_early_stops_the_rest(microban):
    hard = sokoban.read_levels(DATA / "long-runs" / "interrupt.xsb")[2]
    for solution in sokoban.solve_iter([microban[0], hard, hard], jobs=3):
        assert solution.solved
        break
    assert sokoban.solve(microban[1]), "the next solve is not stopped"


def test_a_failing_progress_callback_stops_the_batch(microban):
    hard = sokoban.read_levels(DATA / "long-runs" / "interrupt.xsb")[2]

    def fail(index, solution):
        raise RuntimeError(f"stop at {index}")

    with pytest.raises(RuntimeError, match="stop at 0"):
        sokoban.solve_many([microban[0], hard, hard], jobs=1, progress=fail)
    assert sokoban.solve(microban[1])


def test_verify_replays_as_a_judge(two_boxes):
    good = sokoban.verify(two_boxes, "RRlldRR")
    assert good == sokoban.Verification(pushes=4, walks=3, solved=True, illegal=None)
    assert good and sokoban.verify(two_boxes, "2R2ld2R").solved
    short = sokoban.verify(two_boxes, "RR")
    assert (short.pushes, short.walks, short.solved, short.illegal) == (2, 0, False, None)
    bad = sokoban.verify(two_boxes, "RRu")
    assert not bad and (bad.pushes, bad.walks) == (2, 0)
    assert bad.illegal == sokoban.IllegalStep(index=2, letter="u", reason="walks into a wall")
    lower = sokoban.verify(two_boxes, "rrlldrr")
    assert lower.illegal.index == 0 and "upper case" in lower.illegal.reason
    assert sokoban.verify(two_boxes, "rrlldrr", strict=False).solved
    nsew = sokoban.verify(two_boxes, "EEwwsEE")
    assert nsew.solved
    assert sokoban.verify(two_boxes, "EEn").illegal.letter == "n"
    for bad_string in ("RRx", "Impossible.", "2(R"):
        with pytest.raises(ValueError):
            sokoban.verify(two_boxes, bad_string)


def test_optimize_never_worsens_and_checks_its_input(two_boxes):
    long = "RRlrlrlldRR"
    better = sokoban.optimize(two_boxes, long)
    assert better and (better.pushes, better.walks) == (4, 3)
    assert two_boxes.replay(better.moves, strict=True).solved
    by_pushes = sokoban.optimize(two_boxes, long, metric="pushes", time_limit=5)
    assert by_pushes.pushes == 4
    with pytest.raises(ValueError, match="metric"):
        sokoban.optimize(two_boxes, long, metric="walks")
    with pytest.raises(ValueError, match="does not solve"):
        sokoban.optimize(two_boxes, "RR")
    with pytest.raises(ValueError, match="move 3"):
        sokoban.optimize(two_boxes, "RRu")
    with pytest.raises(ValueError, match="not a move letter"):
        sokoban.optimize(two_boxes, "RRz")


def test_single_answers_the_olympiad_samples():
    for name in ("olympiad", "impossible"):
        grid = (SAMPLES / f"{name}.txt").read_text()
        expected = (SAMPLES / f"{name}.expected").read_text().strip()
        solution = sokoban.single(grid)
        if expected == "Impossible.":
            assert solution.status is sokoban.Status.IMPOSSIBLE and str(solution) == expected
        else:
            assert solution.nsew == expected and solution.optimal
            assert sokoban.Level(grid).replay(solution.moves, strict=True).solved
    assert sokoban.single(["#######", "#S.B.T#", "#######"]).moves == "rRR"
    home = sokoban.single((SAMPLES / "box-on-target.xsb").read_text())
    assert home.moves == "" and home.pushes == 0 and home.solved


def test_single_refuses_what_is_not_one_grid():
    with pytest.raises(ValueError, match="one grid"):
        sokoban.single((SAMPLES / "judge-sample.txt").read_text())
    with pytest.raises(sokoban.ParseError) as caught:
        sokoban.single("#####\n#SBTx#\n")
    assert (caught.value.line, caught.value.column) == (2, 5)
    with pytest.raises(sokoban.ParseError, match="second box"):
        sokoban.single("######\n#SBBT#\n######")


def test_the_package_documents_itself():
    for name in sokoban.__all__:
        assert getattr(sokoban, name).__doc__, name
    assert "push-optimal" in sokoban.solve.__doc__
    assert sokoban.__version__
