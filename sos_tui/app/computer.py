"""Computer moves and hints, computed in a separate process so the UI never waits.

Pure-Python search holds the GIL, so it runs in a one-process ``multiprocessing`` pool (spawned:
no forked copy of the running app). A cancelled search is stopped by terminating that pool; the
next search starts a fresh one. ``shutdown`` leaves no process behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import random
import sys
import zlib
from typing import TYPE_CHECKING

from sos_tui.engine import GameState, Move

if TYPE_CHECKING:
    from .app import SosApp

HINT_LEVEL = "expert"


def _choose(level: str, state: GameState, seed: int, time_limit: float | None) -> Move:
    from sos_tui.ai import choose_move

    return choose_move(level, state, seed, time_limit)


class ComputerRunner:
    def __init__(self, app: SosApp, delay: float = 0.5, time_limit: float | None = 2.0,
                 seed: int | None = None) -> None:
        self.app = app
        self.delay = delay  # the shortest time a computer move takes, so people can follow a chain
        self.time_limit = time_limit
        self.seed = random.randrange(2**31) if seed is None else seed
        self._pool = None
        self._busy = 0  # searches in flight in the pool

    def _run(self, level: str, state: GameState) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if self._pool is None:
            # Textual captures sys.stderr; multiprocessing hands its file descriptor to the
            # process it starts, so it must see the real one.
            with contextlib.redirect_stderr(sys.__stderr__ or sys.stderr):
                self._pool = multiprocessing.get_context("spawn").Pool(1)

        def done(result, ok=True):
            def settle():
                self._busy -= 1
                if not future.done():
                    (future.set_result if ok else future.set_exception)(result)
            loop.call_soon_threadsafe(settle)

        self._busy += 1
        seed = zlib.crc32(f"{self.seed}:{state.board}".encode())  # the same game, the same moves
        self._pool.apply_async(_choose, (level, state, seed, self.time_limit), callback=done,
                               error_callback=lambda error: done(error, ok=False))
        return future

    def play_for(self, state: GameState, level: str) -> None:
        app = self.app
        app.run_worker(self._play(app, state, level), group="computer", exclusive=True)

    async def _play(self, app: SosApp, state: GameState, level: str) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        app.set_thinking(True)
        try:
            move = await self._run(level, state)
            await asyncio.sleep(max(0.0, self.delay - (loop.time() - started)))
        except Exception as error:  # a crashed search must not take the game down
            app.notify(f"The computer could not move: {error}", severity="error")
            return
        finally:
            app.set_thinking(False)
        if app.state is state:
            app.play(move)

    def hint_for(self, state: GameState) -> None:
        app = self.app
        app.run_worker(self._hint(app, state), group="hint", exclusive=True)

    async def _hint(self, app: SosApp, state: GameState) -> None:
        app.set_thinking(True)
        try:
            move = await self._run(HINT_LEVEL, state)
        except Exception as error:
            app.notify(f"No hint: {error}", severity="error")
            return
        finally:
            app.set_thinking(False)
        app.show_hint(state, move)

    def cancel(self) -> None:
        """Forget any search under way; a running one is stopped with its process."""
        self.app.workers.cancel_group(self.app, "computer")
        self.app.workers.cancel_group(self.app, "hint")
        self.app.set_thinking(False)
        if self._busy and self._pool is not None:
            self._pool.terminate()
            self._pool = None
            self._busy = 0

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
            self._busy = 0
