"""Types of the native part of the sokoban package (use ``sokoban`` itself)."""

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

VERSION: str

Cell = Tuple[int, int]

class Level:
    """A Sokoban level: walls, goals, boxes and the player.

    Levels are values: ``step`` and ``replay`` return a new level. Cells are
    ``(row, column)`` from 0 at the top left; ``str(level)`` is XSB.
    """

    def __init__(self, text: Union[str, Sequence[str]], name: Optional[str] = None) -> None:
        """Reads one level from text or a list of rows, in any format the
        command line reads. Raises ``ParseError`` (with ``line`` and
        ``column``), or ``ValueError`` when the text holds several levels."""
    @staticmethod
    def from_xsb(text: str, name: Optional[str] = None) -> Level:
        """Reads one level written in XSB letters (``# @ + $ * .``, space or ``-`` floor)."""
    @staticmethod
    def from_rows(rows: Sequence[str], name: Optional[str] = None) -> Level:
        """Reads one level from its rows."""
    @staticmethod
    def from_gym(room_fixed: Any, room_state: Any, name: Optional[str] = None) -> Level:
        """Reads gym-sokoban's arrays (numpy or nested lists). ``room_fixed``:
        0 wall, 1 floor, 2 goal; ``room_state``: 0 wall, 1 floor, 2 goal,
        3 box on a goal, 4 box, 5 player (6, player on a goal, is read too).
        A bad cell raises ``ParseError`` at its row and column (from 1)."""
    def to_gym(self) -> Tuple[Any, Any]:
        """``(room_fixed, room_state)`` as numpy integer arrays, in
        gym-sokoban's codes; floor outside the walls becomes wall. Needs numpy."""
    @property
    def name(self) -> str:
        """The level's title, or ``"Level k"``."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def player(self) -> Cell: ...
    @property
    def boxes(self) -> List[Cell]:
        """Box cells in reading order."""
    @property
    def goals(self) -> List[Cell]:
        """Goal cells in reading order."""
    @property
    def solved(self) -> bool:
        """True when every goal holds a box."""
    def is_wall(self, row: int, col: int) -> bool:
        """True for a wall (and for any cell outside the grid)."""
    def step(self, direction: str) -> Level:
        """The level after one step (``u d l r``, ``n s e w`` or ``up``,
        ``north``, ...), pushing the box ahead if there is one. Raises
        ``IllegalMove`` into a wall or a box that cannot move, ``ValueError``
        for a direction it does not know."""
    def replay(self, moves: str, *, strict: bool = False) -> Level:
        """The level after ``moves`` (LURD or nsew, run-length codes
        expanded). With ``strict``, letter case must tell walks from pushes.
        Raises ``IllegalMove`` (with ``index``) at the first illegal move,
        ``ValueError`` for a string that is not moves."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def read_levels(text: bytes, format: str, source: Optional[str]) -> List[Level]: ...
def solve(
    level: Level,
    fast: bool,
    time_limit: Optional[float],
    max_nodes: Optional[int],
    max_memory_mb: Optional[int],
    threads: Optional[int],
) -> Dict[str, Any]: ...

class Batch:
    def __init__(
        self,
        levels: List[Level],
        jobs: Optional[int],
        fast: bool,
        time_limit: Optional[float],
        max_nodes: Optional[int],
        max_memory_mb: Optional[int],
        threads: Optional[int],
    ) -> None: ...
    def __iter__(self) -> Iterator[Tuple[int, Dict[str, Any]]]: ...
    def __next__(self) -> Tuple[int, Dict[str, Any]]: ...
    def close(self) -> None: ...

def verify(level: Level, moves: str, strict: bool) -> Dict[str, Any]: ...
def optimize(
    level: Level,
    moves: str,
    metric: str,
    time_limit: Optional[float],
    max_nodes: Optional[int],
    max_memory_mb: Optional[int],
    threads: Optional[int],
) -> Dict[str, Any]: ...
def single(grid: str) -> Dict[str, Any]: ...
