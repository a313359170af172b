"""The rules of SOS on immutable values.

The rules of the game live in this module and in ``endings`` (whose ``EndingRules`` ``GameState``
inherits): here what a move is, which triples a letter completes, who moves next and when the
board ends the game; there a seat dropping out, a game ended by hand, and who won. Nothing here
does I/O or imports the rest of the package.

The board is a string of ``size * size`` characters, row-major: ``"S"``, ``"O"`` or ``"."``.
Strings are immutable, hash by content and copy fast, which makes ``play`` cheap enough for
computer players to search with.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import NamedTuple

from .endings import DROPS, Drop, Ending, EndingError, EndingRules, Outcome, Termination  # noqa: F401 (importable from here too)
from .text import RuleError

MIN_SIZE = 3
MAX_SIZE = 26
MIN_PLAYERS = 2
LETTERS = ("S", "O")
EMPTY = "."
COLUMNS = "abcdefghijklmnopqrstuvwxyz"

Cell = tuple[int, int]


class Mode(StrEnum):
    """The two variants: ``general`` (most SOSs wins) and ``simple`` (first SOS wins)."""

    GENERAL = "general"
    SIMPLE = "simple"


class IllegalMoveError(RuleError):
    """A move that the rules do not allow in this position."""


class CellTakenError(IllegalMoveError):
    """A move on a cell that already holds a letter: ``cell`` names it (``"b3"``), ``letter`` is
    the letter there."""

    @property
    def cell(self) -> str:
        return self.params["cell"]

    @property
    def letter(self) -> str:
        return self.params["letter"]


class InvalidMoveError(RuleError):
    """Text that is not a move in SOS notation (``"S b3"``)."""


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Write ``letter`` into the cell at ``row`` (0 = top) and ``col`` (0 = left)."""

    row: int
    col: int
    letter: str

    def __str__(self) -> str:
        return f"{self.letter} {cell_name(self.row, self.col)}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in notation: letter, column a..z, row counted from 1 at the top.

        >>> Move.parse("S b3")
        Move(row=2, col=1, letter='S')
        >>> str(Move.parse("o A10"))
        'O a10'
        """
        parts = text.split()
        if len(parts) != 2:
            raise InvalidMoveError("{text!r} is not a move: expected a letter and a cell, like 'S b3'",
                                   text=text)
        letter, where = parts[0].upper(), parts[1].lower()
        if letter not in LETTERS:
            raise InvalidMoveError("{text!r} is not a move: the letter must be S or O", text=text)
        row, col = parse_cell(where)
        return cls(row, col, letter)


def cell_name(row: int, col: int) -> str:
    """``cell_name(2, 1) == "b3"``: column letter, then row counted from 1."""
    column = COLUMNS[col] if 0 <= col < len(COLUMNS) else f"[{col}]"
    return f"{column}{row + 1}"


def _typed(row, col) -> str:
    """The cell as a player types it (``x9``), even beyond the board; a row and column that no
    notation names (only code makes them) as they are: ``(-1, 0)``."""
    if isinstance(row, int) and isinstance(col, int) and row >= 0 and 0 <= col < len(COLUMNS):
        return cell_name(row, col)
    return f"({row!r}, {col!r})"


def parse_cell(text: str) -> Cell:
    """``parse_cell("b3") == (2, 1)``; raises InvalidMoveError for anything else."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not (text[1:].isascii() and text[1:].isdigit()):
        raise InvalidMoveError("{text!r} is not a cell: expected a column a..z and a row number, like 'b3'",
                               text=text)
    row = int(text[1:]) - 1
    if row < 0:
        raise InvalidMoveError("{text!r} is not a cell: rows are counted from 1", text=text)
    return row, COLUMNS.index(text[0])


class SosLine(NamedTuple):
    """One completed S-O-S: who scored it, its three cells in board order, and the move index."""

    player: int
    cells: tuple[Cell, Cell, Cell]
    move_index: int


class _Triples(NamedTuple):
    """For each cell index, the triples a letter written there could complete.

    ``for_s[i]`` holds ``(o, s, cells)``: an S at i completes ``cells`` when index o holds O and
    index s holds S. ``for_o[i]`` holds ``(s1, s2, cells)``: an O at i completes ``cells`` when
    both indexes hold S.
    """

    for_s: tuple[tuple[tuple[int, int, tuple[Cell, Cell, Cell]], ...], ...]
    for_o: tuple[tuple[tuple[int, int, tuple[Cell, Cell, Cell]], ...], ...]


_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@cache
def triples(size: int) -> _Triples:
    """Every straight triple of a ``size`` x ``size`` board, indexed by the cell that completes it."""
    for_s: list[list] = [[] for _ in range(size * size)]
    for_o: list[list] = [[] for _ in range(size * size)]
    for r in range(size):
        for c in range(size):
            for dr, dc in _DIRECTIONS:
                r2, c2 = r + 2 * dr, c + 2 * dc
                if not (0 <= r2 < size and 0 <= c2 < size):
                    continue
                cells = ((r, c), (r + dr, c + dc), (r2, c2))
                a, m, b = (x * size + y for x, y in cells)
                ordered = tuple(sorted(cells))
                for_s[a].append((m, b, ordered))
                for_s[b].append((m, a, ordered))
                for_o[m].append((a, b, ordered))
    return _Triples(tuple(map(tuple, for_s)), tuple(map(tuple, for_o)))


@dataclass(frozen=True, slots=True)
class _Game:
    """The static facts every state of one game shares, worked out once per setting (slots: read
    on every move, and a slot is the cheapest attribute to read)."""

    size: int
    mode: Mode
    players: int
    cells: int  # size * size: the move that makes count equal this one ends the game
    simple: bool  # a scoring move ends the game
    for_s: tuple  # triples(size).for_s
    for_o: tuple  # triples(size).for_o

    def with_players(self, players: int) -> _Game:
        """The same board and mode for ``players`` players."""
        return _game(self.size, self.mode, players)


@lru_cache(maxsize=256)  # players has no upper bound, so neither would a plain cache
def _game(size: int, mode: Mode, players: int) -> _Game:
    lines = triples(size)
    return _Game(size, mode, players, size * size, mode is Mode.SIMPLE, lines.for_s, lines.for_o)


class _Position(NamedTuple):
    """What one state of a game holds, by name; ``GameState`` adds the rules to it.

    ``game``: the static facts shared by every state of the game (``_Game``). ``history``: the moves
    as a cons list, newest first: ``(previous history, Move, mover)``, None before the first.
    ``found``: the completed lines likewise, ``(previous, SosLine)``. ``ending``: None in an
    ordinary game, else the drops and the termination (``Ending``). ``memo``: what is worked out
    from them on demand (moves, movers, lines, points), filled the first time it is asked for.
    """

    game: _Game
    board: str
    to_move: int
    scores: tuple[int, ...]
    history: tuple | None
    found: tuple | None
    move_count: int
    is_over: bool
    ending: Ending | None
    memo: dict


class _StateValue:
    """What makes a ``GameState`` a value, for it to inherit: immutable, equal and hashed by
    content, pickled as its moves (``from_moves`` rebuilds it), shown by ``repr`` and, as a board
    with column letters and row numbers, by ``str``. Reads the fields of ``_Position`` by name."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"GameState is immutable: cannot set {name!r}; use play()")

    def __delattr__(self, name):
        raise AttributeError(f"GameState is immutable: cannot delete {name!r}")

    def _key(self):
        game = self.game
        return (game.size, game.mode, game.players, self.moves, self.ending)

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or (self.board == other.board and self._key() == other._key())

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        game = self.game
        return hash((game.size, game.mode, game.players, self.board, self.move_count, self.ending))

    def _unordered(self, other):
        return NotImplemented

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __reduce__(self):
        game = self.game
        ending = self.ending
        if ending is None:
            return (GameState.from_moves, (self.moves, game.size, game.mode.value, game.players))
        return (GameState.from_moves, (self.moves, game.size, game.mode.value, game.players,
                                       tuple(tuple(d) for d in ending.drops), ending.termination))

    def __repr__(self):
        game = self.game
        return (f"GameState(size={game.size}, mode={game.mode.value!r}, players={game.players}, "
                f"moves={self.move_count}, scores={self.scores})")

    def __str__(self) -> str:
        """The board as text, with column letters and row numbers."""
        size, board = self.game.size, self.board
        width = len(str(size))
        rows = [" " * (width + 1) + " ".join(COLUMNS[:size])]
        for r in range(size):
            cells = board[r * size:(r + 1) * size]
            rows.append(f"{r + 1:>{width}} " + " ".join(cells))
        return "\n".join(rows)


class GameState(EndingRules, _StateValue, _Position):
    """A position of SOS with its whole history. Immutable: ``play`` returns a new state.

    >>> state = GameState.new(size=3, mode="general", players=2)
    >>> state = state.play(Move(0, 0, "S")).play(Move(0, 2, "S"))
    >>> later = state.play(Move.parse("O b1"))
    >>> later.scores, later.to_move, state.scores
    ((1, 0), 0, (0, 0))

    Its fields are ``_Position``'s, read by name: ``board`` (row-major ``'S'``, ``'O'`` and
    ``'.'``), ``to_move`` (the index of the player to move), ``scores`` (SOS lines completed by each
    player), ``move_count`` (moves played so far), ``is_over`` and ``ending`` (None unless a seat
    dropped out or the game was ended by hand: see ``drop``, ``end`` and ``termination``, which it
    inherits from ``endings.EndingRules``). A named tuple underneath, because that is the cheapest
    immutable value Python builds, and ``play``, the engine's hot path, builds one per move
    (``benchmarks/engine.py``; a frozen slotted dataclass, written field by field, makes ``play``
    about 0.6 times as fast). Equality and hashing are by content (settings and moves); states do
    not order (``_StateValue``).
    """

    __slots__ = ()

    @classmethod
    def new(cls, size: int = 6, mode: Mode | str = Mode.GENERAL, players: int = 2) -> GameState:
        """The empty board. Raises ValueError for a size outside 3..26, fewer than 2 players
        or an unknown mode."""
        if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise RuleError("board size must be a whole number from {low} to {high}, not {size!r}",
                            low=MIN_SIZE, high=MAX_SIZE, size=size)
        if not isinstance(players, int) or players < MIN_PLAYERS:
            raise RuleError("a game needs at least {low} players, not {players!r}", low=MIN_PLAYERS,
                            players=players)
        try:
            mode = Mode(mode)
        except ValueError:
            raise RuleError("mode must be 'general' or 'simple', not {mode!r}", mode=mode) from None
        game = _game(size, mode, players)
        return _make(cls, (game, EMPTY * game.cells, 0, (0,) * players, None, None, 0, False, None, {}))

    @classmethod
    def from_moves(cls, moves, size: int = 6, mode: Mode | str = Mode.GENERAL, players: int = 2,
                   drops=(), end: Termination | str | None = None) -> GameState:
        """Replay ``moves`` (Move values or notation strings) from the empty board, with the
        ``drops`` (``Drop`` values or ``(seat, why, after)``) at their places and ``end``
        (agreement or abort) after the last move."""
        *_, state = cls.replay(moves, size, mode, players, drops, end)
        return state

    @classmethod
    def replay(cls, moves, size: int = 6, mode: Mode | str = Mode.GENERAL, players: int = 2,
               drops=(), end: Termination | str | None = None):
        """Every state of ``from_moves``: after 0 moves, after 1, ... (a state with the drops made
        after that many moves, the last one ended by ``end``). Raises the engine's errors, or
        EndingError for a drop placed after more moves than the game has."""
        state = cls.new(size, mode, players)
        pending = sorted((Drop(*drop) for drop in drops), key=lambda drop: drop.after)
        moves = list(moves)
        for count in range(len(moves) + 1):
            while pending and pending[0].after == count:
                drop = pending.pop(0)
                state = state.drop(drop.seat, drop.why)
            if count == len(moves):
                break
            yield state
            move = moves[count]
            state = state.play(Move.parse(move) if isinstance(move, str) else move)
        if pending:
            raise EndingError("a drop after move {after} of a game of {count} moves", after=pending[0].after,
                              count=len(moves))
        if end is not None and Termination(end) in (Termination.AGREEMENT, Termination.ABORT):
            state = state.end(end)
        yield state

    # -- static facts ---------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Cells along one side of the board."""
        return self.game.size

    @property
    def mode(self) -> Mode:
        """Mode.GENERAL or Mode.SIMPLE."""
        return self.game.mode

    @property
    def players(self) -> int:
        """How many players take turns."""
        return self.game.players

    # -- the position ---------------------------------------------------------------------
    def cell(self, row: int, col: int) -> str | None:
        """``"S"``, ``"O"`` or ``None`` for an empty cell."""
        size = self.game.size
        if not (0 <= row < size and 0 <= col < size):
            raise IndexError(f"{cell_name(row, col)} is off the {size}x{size} board")
        letter = self.board[row * size + col]
        return None if letter == EMPTY else letter

    @property
    def empty_cells(self) -> int:
        return self.game.cells - self.move_count

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move from the empty board, oldest first."""
        return self._unroll("moves", self.history, 1)

    @property
    def movers(self) -> tuple[int, ...]:
        """The player who made each move, oldest first."""
        return self._unroll("movers", self.history, 2)

    @property
    def lines(self) -> tuple[SosLine, ...]:
        """Every completed SOS, oldest first."""
        return self._unroll("lines", self.found, 1)

    def _unroll(self, key: str, chain, field: int) -> tuple:
        memo = self.memo
        cached = memo.get(key)
        if cached is None:
            items = []
            while chain is not None:
                items.append(chain[field])
                chain = chain[0]
            cached = memo[key] = tuple(reversed(items))
        return cached

    @property
    def points_by_move(self) -> tuple[int, ...]:
        """The SOS lines each move completed, oldest first (a move can complete up to 8)."""
        memo = self.memo
        cached = memo.get("points")
        if cached is None:
            points = [0] * self.move_count
            for line in self.lines:
                points[line.move_index] += 1
            cached = memo["points"] = tuple(points)
        return cached

    @property
    def last_move(self) -> Move | None:
        history = self.history
        return None if history is None else history[1]

    # -- moving ---------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every empty cell with S and with O, row-major, S before O. Empty once over."""
        if self.is_over:
            return []
        size = self.game.size
        return [
            Move(i // size, i % size, letter)
            for i, here in enumerate(self.board)
            if here == EMPTY
            for letter in LETTERS
        ]

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def completes(self, move: Move) -> tuple[tuple[Cell, Cell, Cell], ...]:
        """The triples ``move`` would complete here (cells in board order), without playing it."""
        index = self._check(move)
        game, board = self.game, self.board
        if move.letter == "S":
            return tuple(cells for o, s, cells in game.for_s[index] if board[o] == "O" and board[s] == "S")
        return tuple(cells for a, b, cells in game.for_o[index] if board[a] == "S" and board[b] == "S")

    def _check(self, move: Move) -> int:
        """The index of ``move``'s cell; raises IllegalMoveError, the first of these that applies:
        the game is over, the letter is not S or O, the cell is off the board, the cell is taken."""
        if self.is_over:
            raise IllegalMoveError("cannot play {move}: the game is already over", move=str(move))
        letter, row, col, size = move.letter, move.row, move.col, self.game.size
        if letter not in LETTERS:
            raise IllegalMoveError("cannot play {letter!r}: the letter must be S or O", letter=letter)
        if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < size and 0 <= col < size):
            cell = _typed(row, col)
            typed = f"{letter} {cell}"
            raise IllegalMoveError("cannot play {move}: {cell} is off the {size}x{size} board",
                                   move=typed, cell=cell, size=size)
        index = row * size + col
        taken = self.board[index]
        if taken != EMPTY:
            raise CellTakenError("cannot play {move}: {cell} already holds {letter}",
                                   move=str(move), cell=cell_name(row, col), letter=taken)
        return index

    def play(self, move: Move) -> GameState:
        """The state after ``move``. Raises IllegalMoveError, and leaves this state as it was."""
        # The hot path of every replay, so written out by hand: cheap checks that hand over to
        # _check (the one place for the order and wording of errors) only when something is off,
        # nothing built for the lines unless one is completed, and one new value for the state.
        game, board, mover, scores, history, found, count, over, ending, _ = self  # _Position's fields
        if over:
            self._check(move)  # raises: the game is already over
        if ending is not None:
            return self._play_among_still_in(move)
        letter, row, col, size = move.letter, move.row, move.col, game.size
        if letter == "S":
            table, need = game.for_s, "O"  # an S completes a triple whose middle holds O, far end S
        elif letter == "O":
            table, need = game.for_o, "S"  # an O completes a triple with S at both ends
        else:
            self._check(move)  # raises: the letter must be S or O
        if (type(row) is not int or type(col) is not int or not (0 <= row < size and 0 <= col < size)
                or board[row * size + col] != EMPTY):
            self._check(move)  # raises (off the board, cell taken), or returns for a bool row or col
        index = row * size + col
        completed = None
        for a, b, cells in table[index]:
            if board[a] == need and board[b] == "S":
                if completed is None:
                    completed = [cells]
                else:
                    completed.append(cells)
        board = board[:index] + letter + board[index + 1:]
        history = (history, move, mover)
        count += 1
        if completed is None:
            return _make(GameState, (game, board, (mover + 1) % game.players, scores, history, found, count,
                                     count == game.cells, None, {}))
        # a scoring move keeps the turn (and ends a simple game)
        scores = scores[:mover] + (scores[mover] + len(completed),) + scores[mover + 1:]
        for cells in completed:
            found = (found, SosLine(mover, cells, count - 1))
        return _make(GameState, (game, board, mover, scores, history, found, count,
                                 game.simple or count == game.cells, None, {}))


_make = tuple.__new__  # one call builds a state from its fields (GameState.__setattr__ refuses everyone)
