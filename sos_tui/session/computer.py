"""Computer moves from a separate process, awaited without blocking the event loop.

Pure-Python search holds the GIL, so it runs in a one-process ``ProcessPoolExecutor`` started
with *spawn*: the child imports ``sos_tui.ai`` and the engine, nothing of the app or Textual.

- ``choose`` awaits the search. If the process dies (the kernel's OOM killer, a ``kill``), the
  executor reports ``BrokenProcessPool``: a fresh one is started and the search tried once more
  (``on_retry`` is told why); a second failure raises ``ComputerFailed``. A search that raises
  (a bad level, say) fails at once. Nothing ever waits on a process that cannot answer.
- ``run(fn, *args)`` is the same for any picklable job (the game review sends one move at a time).
- ``cancel`` stops a search under way: the executor's processes are terminated and it is
  replaced by a fresh one on the next ``choose``.
- ``shutdown`` leaves no process behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import random
import sys
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from sos_tui.ai.processes import terminate
from sos_tui.engine import GameState, Move
from sos_tui.i18n import N_, _, explain

HINT_LEVEL = "expert"
STOPPED_TWICE = N_("the computer's process stopped twice in a row")


class ComputerFailed(Exception):
    """The computer could not give a move; the message says why, in a player's words and language.

    ``ComputerFailed(template, **params)``: ``template`` and ``params`` stay on it, so
    ``sos_tui.i18n.explain`` says it again in the language current when it is shown."""

    def __init__(self, template: str, /, **params) -> None:
        if not params and ("{" in template or "}" in template):  # a plain message, not a template
            template = template.replace("{", "{{").replace("}", "}}")
        self.template, self.params = template, params
        super().__init__(explain(self))


class ComputerPool:
    def __init__(self, time_limit: float | None = 2.0, seed: int | None = None) -> None:
        self.time_limit = time_limit
        self.seed = random.randrange(2**31) if seed is None else seed
        self._executor: ProcessPoolExecutor | None = None
        self._running: set[Future] = set()
        self._cancels = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # Textual captures sys.stderr; the child inherits the real one.
            with contextlib.redirect_stderr(sys.__stderr__ or sys.stderr):
                self._executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def seed_for(self, state: GameState) -> int:
        """The same game position gets the same seed, so a replayed game gets the same moves."""
        return zlib.crc32(f"{self.seed}:{state.board}:{state.to_move}".encode())

    async def choose(self, level: str, state: GameState,
                     on_retry: Callable[[str], None] | None = None) -> Move:
        """The move the computer of ``level`` plays in ``state``."""
        from sos_tui.ai import choose_move

        return await self.run(choose_move, level, state, self.seed_for(state), self.time_limit,
                              on_retry=on_retry)

    async def run(self, fn: Callable, *args, on_retry: Callable[[str], None] | None = None):
        """``fn(*args)`` in the computer's process (``fn`` and ``args`` must pickle), with the
        same handling as ``choose``: a broken process is restarted once, ``cancel`` stops it."""
        cancels = self._cancels
        for attempt in (1, 2):
            pool = self._pool()
            try:
                future = pool.submit(fn, *args)
            except (BrokenProcessPool, RuntimeError):  # broken, or shut down by a cancel
                self._discard(pool)
                continue
            self._running.add(future)
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                if self._cancels != cancels:
                    raise asyncio.CancelledError from None  # stopped on purpose, not broken
                self._discard(pool)
                if attempt == 1 and on_retry is not None:
                    on_retry(_("the computer's process stopped; starting it again"))
            except ValueError as error:  # the search refused the position or the level
                raise ComputerFailed("{error}", error=error) from error
            finally:
                self._running.discard(future)
        raise ComputerFailed(STOPPED_TWICE)

    def pids(self) -> list[int]:
        """The search processes now running (for tests and diagnostics)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.is_alive()]

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def cancel(self) -> None:
        """Stop any search under way (its process is terminated); the next ``choose`` starts a
        new process. Does nothing when no search runs."""
        if self._running and self._executor is not None:
            self._cancels += 1
            self._discard(self._executor)

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        if pool is self._executor:
            self._executor = None
        for future in list(self._running):
            future.cancel()
        self._running.clear()
        terminate(pool)

    def shutdown(self) -> None:
        if self._executor is not None:
            pool, self._executor = self._executor, None
            terminate(pool)
