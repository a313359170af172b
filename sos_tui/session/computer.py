"""Computer moves from a separate process, awaited without blocking the event loop.

Pure-Python search holds the GIL, so it runs in a one-process ``ProcessPoolExecutor`` started
with *spawn*: the child imports ``sos_tui.ai`` and the engine, nothing of the app or Textual.

One pool serves several owners (the game screen, the replay's review, a hosted server's rooms),
and no owner can stop another's search:

- Each search is one ``await pool.choose(...)`` (or ``pool.run(fn, *args)``, for any picklable
  job: the review sends one move at a time), and the task awaiting it is its handle. The pool
  lets one search at a time into its process; the others wait their turn in the pool, not in the
  process. Cancelling a task that waits only takes its search out of the queue; cancelling the
  task whose search is running terminates the process, which holds nothing else, and the next
  search starts a fresh one. (One process, not one per owner: a search is short, owners rarely
  overlap, and a second idle process would cost memory for nothing.)
- If the process dies on its own (the kernel's OOM killer, a ``kill``), the executor reports
  ``BrokenProcessPool``: a fresh one is started and the search tried once more (``on_retry`` is
  told why); a second failure raises ``ComputerFailed``. A search that raises (a bad level, say)
  fails at once. Nothing ever waits on a process that cannot answer.
- ``shutdown`` leaves no process behind.

A seat played by an outside engine program (``Seat.engine``, docs/engine-protocol.md) is asked
by ``engine_move`` instead: its program runs as long as its game, is asked with ``go movetime``
(the time limit), and is stopped when its search is cancelled (the next move starts it again:
the whole game is sent each time). An engine that misbehaves loses (``ai.engines.forfeit``);
until a session can end a game that way, the move fails with a ``ComputerFailed`` that says why
and carries the forfeit (``.forfeit``). Only a command given to this process (``trust_engine``,
from its command line) is ever run: a game file names an engine, it does not start one.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import random
import sys
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from sos_tui.engine import GameState, Move, printable, shorten
from sos_tui.i18n import N_, _, explain

from .session import GameSession

HINT_LEVEL = "expert"
HINTS_KEPT = 8
"""Hints remembered, by position: asking again, or after an undo and a redo, costs no search."""
STOPPED_TWICE = N_("the computer's process stopped twice in a row")
ENGINES_KEPT = 8
"""Engine programs left running between moves; past that, the one asked longest ago is stopped."""
ENGINE_MOVETIME = 2.0
"""Seconds per move an engine is given when the pool has no time limit."""
_TRUSTED: set[str] = set()


def trust_engine(command: str) -> None:
    """Let this process run the engine program ``command`` (given on its command line)."""
    _TRUSTED.add(command)


class ComputerFailed(Exception):
    """The computer could not give a move; the message says why, in a player's words and language.

    ``ComputerFailed(template, **params)``: ``template`` and ``params`` stay on it, so
    ``sos_tui.i18n.explain`` says it again in the language current when it is shown."""

    def __init__(self, template: str, /, **params) -> None:
        if not params and ("{" in template or "}" in template):  # a plain message, not a template
            template = template.replace("{", "{{").replace("}", "}}")
        self.template, self.params = template, params
        super().__init__(explain(self))


class ComputerStopped(ComputerFailed):
    """The computer's process stopped twice in a row: no move (the caller may say so in its own words)."""

    def __init__(self) -> None:
        super().__init__(STOPPED_TWICE)


class ComputerPool:
    def __init__(self, time_limit: float | None = 2.0, seed: int | None = None) -> None:
        self.time_limit = time_limit
        self.seed = random.randrange(2**31) if seed is None else seed
        self._executor: ProcessPoolExecutor | None = None
        self._turns: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        self._jobs = 0  # searches running or waiting their turn
        self._hints: dict[GameState, Move] = {}  # the last HINTS_KEPT positions' hints, oldest first
        self._engines: dict[tuple[str, int], object] = {}  # (game id, seat) -> EngineClient, oldest first

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # Textual captures sys.stderr; the child inherits the real one.
            with contextlib.redirect_stderr(sys.__stderr__ or sys.stderr):
                self._executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def _turn(self) -> asyncio.Lock:
        """The lock a search holds while it is in the process (one per event loop: a lock belongs
        to the loop it first waits on)."""
        loop = asyncio.get_running_loop()
        if self._turns is None or self._turns[0] is not loop:
            self._turns = loop, asyncio.Lock()
        return self._turns[1]

    def seed_for(self, state: GameState) -> int:
        """The same game position gets the same seed, so a replayed game gets the same moves."""
        return zlib.crc32(f"{self.seed}:{state.board}:{state.to_move}".encode())

    async def choose(self, level: str, state: GameState,
                     on_retry: Callable[[str], None] | None = None, time_limit: float | None = None) -> Move:
        """The move the computer of ``level`` plays in ``state``, searched at most ``time_limit``
        seconds if given (a timed game's share), else the pool's own limit."""
        from sos_tui.ai import choose_move

        limit = self.time_limit if time_limit is None else time_limit
        return await self.run(choose_move, level, state, self.seed_for(state), limit, on_retry=on_retry)

    async def hint(self, state: GameState, on_retry: Callable[[str], None] | None = None) -> Move:
        """The move to suggest to a person in ``state``: searched once for each position (a
        state is a value: the same board after the same moves), then given again from memory."""
        move = self._hints.get(state)
        if move is None:
            move = await self.choose(HINT_LEVEL, state, on_retry)
            self._hints[state] = move
            if len(self._hints) > HINTS_KEPT:
                del self._hints[next(iter(self._hints))]
        return move

    async def run(self, fn: Callable, *args, on_retry: Callable[[str], None] | None = None):
        """``fn(*args)`` in the computer's process (``fn`` and ``args`` must pickle), after the
        searches before it, with the same handling as ``choose``: a broken process is restarted
        once; cancelling the awaiting task stops this search alone."""
        self._jobs += 1
        try:
            async with self._turn():
                return await self._run(fn, args, on_retry)
        finally:
            self._jobs -= 1

    async def _run(self, fn: Callable, args: tuple, on_retry: Callable[[str], None] | None):
        for attempt in (1, 2):
            pool = self._pool()
            try:
                return await asyncio.wrap_future(pool.submit(fn, *args))
            except asyncio.CancelledError:
                self._discard(pool)  # only this search is in the process
                raise
            except BrokenProcessPool:
                self._discard(pool)
                if attempt == 1 and on_retry is not None:
                    on_retry(_("the computer's process stopped; starting it again"))
            except ValueError as error:  # the search refused the position or the level
                raise ComputerFailed("{error}", error=error) from error
        raise ComputerStopped()

    async def engine_move(self, key: tuple[str, int], command: str, state: GameState) -> Move:
        """The move of the engine program ``command`` playing seat ``key`` = (game id, seat) in
        ``state``; its program is started on first use and kept for the next move."""
        from sos_tui.ai.engines.client import EngineClient, EngineError
        from sos_tui.ai.engines.forfeit import forfeit

        if command not in _TRUSTED:
            raise ComputerFailed(N_("the engine {command} was not given on this command line: a game file "
                                    "does not start programs"), command=shorten(printable(command), 60))
        movetime = max(1, round((self.time_limit or ENGINE_MOVETIME) * 1000))
        try:
            # started here, its handshake in the thread: a cancel while it waits can stop it
            engine = self._engines.pop(key, None) or EngineClient(command, greet=False)
            move = await asyncio.to_thread(engine.best_move, state, movetime)
        except asyncio.CancelledError:
            threading.Thread(target=engine.close, args=(False,), daemon=True).start()
            raise
        except EngineError as error:
            failed = ComputerFailed("{error}", error=error)
            failed.forfeit = forfeit(state, state.to_move, error)
            raise failed from None
        self._engines[key] = engine
        while len(self._engines) > ENGINES_KEPT:
            self._engines.pop(next(iter(self._engines))).close(polite=False)  # never blocks the loop
        return move

    def engine_pids(self) -> list[int]:
        """The engine programs now running (for tests)."""
        return [engine.pid for engine in self._engines.values()]

    def pids(self) -> list[int]:
        """The search processes now running (for tests and diagnostics)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.is_alive()]

    @property
    def busy(self) -> bool:
        """A search is running or waiting its turn."""
        return self._jobs > 0

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        if pool is self._executor:
            self._executor = None
        _terminate(pool)

    def shutdown(self) -> None:
        engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            engine.close()
        if self._executor is not None:
            pool, self._executor = self._executor, None
            _terminate(pool)


def _terminate(pool: ProcessPoolExecutor) -> None:
    # imported here: sos_tui.ai.processes brings the whole AI package (sos_tui.ai's __init__),
    # which the app's first screen does not need; only a pool that was started is terminated
    from sos_tui.ai.processes import terminate

    terminate(pool)


async def computer_move(session: GameSession, pool: ComputerPool, delay: float = 0.0,
                        on_retry: Callable[[str], None] | None = None) -> Move | None:
    """The move of the computer to move in ``session``, chosen by ``pool`` and given no sooner
    than ``delay`` seconds after the call (so a person can follow a chain of computer moves).
    None when no computer is to move, or when the session changed meanwhile (an undo, a pause):
    a move returned answers the session as it stands, for ``session.play_computer(move,
    session.version)``. ComputerFailed if the computer cannot move; cancel the awaiting task to
    stop the search (its process with it). In a timed game the computer spends its own clock: the
    search and the delay are cut to its share of the time left (``session.think_limit``)."""
    level, version, state = session.computer_level, session.version, session.state
    if level is None:
        return None
    timed = {}  # an untimed game asks as before (a pool that knows no time limit serves it)
    if session.timed:
        timed["time_limit"] = session.think_limit(pool.time_limit)
        delay = min(delay, timed["time_limit"])
    loop = asyncio.get_running_loop()
    started = loop.time()
    engine = session.seat_to_move.engine
    if engine is not None:
        move = await pool.engine_move((session.game_id, state.to_move), engine, state)
    else:
        move = await pool.choose(level, state, on_retry=on_retry, **timed)
    await asyncio.sleep(max(0.0, delay - (loop.time() - started)))
    return move if session.version == version else None
