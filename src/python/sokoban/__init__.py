"""Exact Sokoban solving from Python, at native speed.

Read levels (``Level``, ``read_levels``), solve them push-optimally or fast
(``solve``, ``solve_many``, ``solve_iter``), check plans (``verify``,
``Level.step``, ``Level.replay``), shorten solutions (``optimize``) and
answer the olympiad single-box problem (``single``).

Moves are strings in LURD: ``l u r d`` walk, ``L U R D`` push. Cells are
``(row, column)`` tuples counted from 0 at the top left, as numpy indexes.

    >>> import sokoban
    >>> level = sokoban.Level.from_xsb("#######\\n#@$ .##\\n#######")
    >>> sokoban.solve(level).moves
    'RR'
"""

import enum
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from . import _sokoban
from ._errors import IllegalMove, ParseError
from ._sokoban import Level

__version__: str = _sokoban.VERSION

__all__ = [
    "IllegalMove",
    "IllegalStep",
    "Level",
    "Limit",
    "ParseError",
    "Solution",
    "Status",
    "Verification",
    "optimize",
    "read_levels",
    "single",
    "solve",
    "solve_iter",
    "solve_many",
    "verify",
]


class Status(str, enum.Enum):
    """How a solve ended; ``str()`` gives the value, as in ``--json`` records."""

    SOLVED = "solved"
    """A solution was found."""
    IMPOSSIBLE = "impossible"
    """The whole search space was explored: the level has no solution."""
    LIMIT = "limit"
    """A limit was reached first (see ``Solution.limit``)."""

    def __str__(self) -> str:
        return self.value


class Limit(str, enum.Enum):
    """The limit that stopped a solve."""

    TIME = "time"
    NODES = "nodes"
    MEMORY = "memory"
    TOO_LARGE = "too_large"
    """The level has more floor cells than the search can number."""
    INTERRUPTED = "interrupted"
    """Ctrl-C in another thread's solve (which raised KeyboardInterrupt) stops every solve."""
    OTHER = "other"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Solution:
    """The answer to one level.

    ``moves`` (LURD), ``pushes`` and ``walks`` are set when ``status`` is
    ``Status.SOLVED``, else None. ``optimal`` is True when the push count is
    proven minimal. ``limit`` and ``reason`` (in words, e.g. ``"time limit
    10 s"``) say what stopped a solve with ``Status.LIMIT``. ``nodes`` are the
    positions expanded, ``seconds`` the time taken. ``bool(solution)`` is
    True when solved.
    """

    name: str
    status: Status
    moves: Optional[str] = None
    pushes: Optional[int] = None
    walks: Optional[int] = None
    optimal: bool = False
    limit: Optional[Limit] = None
    reason: Optional[str] = None
    nodes: int = 0
    generated: int = 0
    seconds: float = 0.0

    @classmethod
    def _from_native(cls, raw: Dict[str, Any]) -> "Solution":
        raw["status"] = Status(raw["status"])
        if raw["limit"] is not None:
            raw["limit"] = Limit(raw["limit"])
        return cls(**raw)

    @property
    def solved(self) -> bool:
        """True when a solution was found."""
        return self.status is Status.SOLVED

    def __bool__(self) -> bool:
        return self.solved

    @property
    def nsew(self) -> Optional[str]:
        """The moves in the olympiad's letters (``n s e w`` walks, ``N S E W`` pushes)."""
        return None if self.moves is None else self.moves.translate(_NSEW)

    def __str__(self) -> str:
        """The answer line the command line prints."""
        if self.status is Status.SOLVED:
            return self.moves or ""
        if self.status is Status.IMPOSSIBLE:
            return "Impossible."
        return f"No solution found ({self.reason})."


_NSEW = str.maketrans("udlrUDLR", "nsweNSWE")


@dataclass(frozen=True)
class IllegalStep:
    """The first move of a plan that cannot be made."""

    index: int
    """Its position among the moves, from 0."""
    letter: str
    reason: str


@dataclass(frozen=True)
class Verification:
    """What replaying a move string found; ``bool()`` is ``solved``."""

    pushes: int
    """Pushes made (up to the first illegal step, if any)."""
    walks: int
    solved: bool
    """Every move legal, and every goal holds a box at the end."""
    illegal: Optional[IllegalStep] = None

    def __bool__(self) -> bool:
        return self.solved


def read_levels(
    source: Union[str, bytes, "os.PathLike[str]"], *, format: str = "auto"
) -> List[Level]:
    """Reads every level of a file or a text, with their names.

    ``source`` is a path (``os.PathLike``, or ``str`` without a newline), or
    the text itself (``str`` holding a newline, or ``bytes``). Every format
    the command line reads is read: XSB and SOK collections (Boxoban files
    included), olympiad letters, judge files, wkbg, bx, snekoban JSON; name
    one with ``format`` ("xsb", "olympiad", "judge", "wkbg", "bx",
    "snekoban-json") or let ``"auto"`` tell. A level's title (or
    ``"Level k"``) is its ``name``. Raises ``ParseError`` with the line and
    column of the first fault.
    """
    is_path = isinstance(source, str) and source != "" and "\n" not in source
    if is_path or isinstance(source, os.PathLike):
        path = os.fspath(source)
        with open(path, "rb") as f:
            return _sokoban.read_levels(f.read(), format, str(path))
    data = source.encode() if isinstance(source, str) else bytes(source)
    return _sokoban.read_levels(data, format, None)


def solve(
    level: Level,
    *,
    fast: bool = False,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_memory_mb: Optional[int] = None,
    threads: Optional[int] = None,
) -> Solution:
    """Solves one level.

    By default the answer is push-optimal (fewest pushes, then short walks).
    ``fast=True`` runs a portfolio of searches on ``threads`` threads (default:
    every core) and takes the first answer: it reaches much harder levels, and
    ``Solution.optimal`` says whether the answer is still push-optimal.

    Limits: ``time_limit`` in seconds, ``max_nodes`` positions generated,
    ``max_memory_mb`` of search memory (default: a quarter of the machine's
    memory). A limit reached gives ``Status.LIMIT``, never an exception.
    The GIL is released while solving; Ctrl-C stops the search and raises
    ``KeyboardInterrupt``.
    """
    raw = _sokoban.solve(level, fast, time_limit, max_nodes, max_memory_mb, threads)
    return Solution._from_native(raw)


def solve_iter(
    levels: Iterable[Level],
    *,
    jobs: Optional[int] = None,
    fast: bool = False,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_memory_mb: Optional[int] = None,
    threads: Optional[int] = None,
) -> Iterator[Solution]:
    """Solves many levels, ``jobs`` at once (default: every core), and yields
    their solutions in input order as they are ready.

    The other options are ``solve``'s, for each level (the default memory
    and ``threads`` are shared out between the jobs). Progress bars wrap it:
    ``for s in tqdm(solve_iter(levels), total=len(levels))``. Leaving the
    loop early stops the levels under way.
    """
    batch = _sokoban.Batch(
        list(levels), jobs, fast, time_limit, max_nodes, max_memory_mb, threads
    )
    return _in_order(batch)


def _in_order(batch: "_sokoban.Batch") -> Iterator[Solution]:
    """The batch's answers, each held back until those before it came."""
    waiting = {}
    due = 0
    try:
        for index, raw in batch:
            waiting[index] = Solution._from_native(raw)
            while due in waiting:
                yield waiting.pop(due)
                due += 1
    finally:
        batch.close()


def solve_many(
    levels: Iterable[Level],
    *,
    jobs: Optional[int] = None,
    fast: bool = False,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_memory_mb: Optional[int] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, Solution], object]] = None,
) -> List[Solution]:
    """Solves many levels, ``jobs`` at once (default: every core), and returns
    their solutions in input order.

    The other options are ``solve``'s, for each level (the default memory
    and ``threads`` are shared out between the jobs). ``progress``, if
    given, is called as ``progress(index, solution)`` as each level is done
    (in the order they finish), e.g. ``lambda i, s: bar.update()`` for a
    tqdm bar. The GIL is released while solving; Ctrl-C stops every level
    and raises ``KeyboardInterrupt``.
    """
    levels = list(levels)
    batch = _sokoban.Batch(levels, jobs, fast, time_limit, max_nodes, max_memory_mb, threads)
    solutions: List[Optional[Solution]] = [None] * len(levels)
    try:
        for index, raw in batch:
            solution = Solution._from_native(raw)
            solutions[index] = solution
            if progress is not None:
                progress(index, solution)
    finally:
        batch.close()
    return solutions  # type: ignore[return-value]


def verify(level: Level, moves: str, *, strict: bool = True) -> Verification:
    """Replays ``moves`` on ``level`` as a judge would.

    ``moves`` are LURD or the olympiad's ``nsew`` letters; run-length codes
    (``3l2U``) are expanded. With ``strict`` (the default), letter case must
    tell walks from pushes; with ``strict=False`` any move pushes a box it
    walks into. The replay stops at the first illegal move, reported in
    ``Verification.illegal``. A string that is not moves raises ``ValueError``.
    """
    raw = _sokoban.verify(level, moves, strict)
    illegal = raw.pop("illegal")
    step = IllegalStep(*illegal) if illegal is not None else None
    return Verification(illegal=step, **raw)


def optimize(
    level: Level,
    moves: str,
    *,
    metric: str = "moves",
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_memory_mb: Optional[int] = None,
    threads: Optional[int] = None,
) -> Solution:
    """Shortens a solution of ``level``: the answer is never worse than
    ``moves`` on the ``metric``.

    ``metric="moves"``: fewest moves, then fewest pushes; ``"pushes"``: fewest
    pushes, then fewest moves. Without ``time_limit`` the search ends when
    its widest round finds no gain. Raises ``ValueError`` when ``moves`` are
    not moves, have an illegal step or do not solve the level; Ctrl-C stops
    it and raises ``KeyboardInterrupt``.
    """
    raw = _sokoban.optimize(
        level, moves, metric, time_limit, max_nodes, max_memory_mb, threads
    )
    return Solution._from_native(raw)


def single(grid: Union[str, Sequence[str]]) -> Solution:
    """Solves the olympiad's single-box problem ("Pushing Boxes") exactly.

    ``grid`` is text or a list of rows: ``#`` wall, ``.`` floor, ``S`` player,
    ``B`` box, ``T`` target (or XSB letters with one box and one goal). The
    answer has the fewest pushes, then the fewest walks; ``Solution.nsew``
    writes it in the olympiad's letters.
    """
    text = grid if isinstance(grid, str) else "\n".join(grid)
    return Solution._from_native(_sokoban.single(text))
