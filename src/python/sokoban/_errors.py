"""The exceptions of the sokoban package (raised from its native part too)."""

from typing import Any, Optional, Tuple


class ParseError(ValueError):
    """A level that cannot be read.

    ``line`` and ``column`` (both from 1) point at the fault; ``source`` is
    the file it was read from, if any; ``message`` says what is wrong.
    """

    def __init__(self, message: str, line: int, column: int, source: Optional[str] = None):
        where = f"{source}:" if source else ""
        super().__init__(f"{where}{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column
        self.source = source

    def __reduce__(self) -> Tuple[Any, ...]:  # keep the attributes through pickling
        return (type(self), (self.message, self.line, self.column, self.source))


class IllegalMove(ValueError):
    """A move that cannot be made: into a wall, or a box that cannot go on.

    ``index`` is the step's position in the moves (from 0), ``letter`` the
    move as LURD writes it, ``reason`` what stops it.
    """

    def __init__(self, reason: str, index: int, letter: str):
        super().__init__(f"move {index} ({letter}) {reason}")
        self.reason = reason
        self.index = index
        self.letter = letter

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.reason, self.index, self.letter))
