"""An engine program as a player: started from its command, asked for moves through the SOS
engine protocol, stopped (``docs/engine-protocol.md``).

Every way an engine can fail is an ``EngineError`` whose ``failure`` says which (``Failure``)
and whose message says what it did; the process is stopped before it is raised, with every
process it started (it runs in a session of its own, and the whole group is killed). Nothing
the engine does can block the caller past the protocol's time limits: its lines are read, and
ours written, by threads of their own, and the caller only waits on a queue with a deadline.

>>> import sys
>>> with EngineClient(f"{sys.executable} tests/engines/rand.py") as engine:
...     engine.name
'Random'
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass
from enum import StrEnum

from sos_tui.engine import GameState, Move, printable, shorten
from sos_tui.engine.text import RuleError
from sos_tui.i18n import N_

from .protocol import (
    MAX_LINE,
    BestMove,
    Go,
    Id,
    Info,
    IsReady,
    NewGame,
    Position,
    ProtocolError,
    Quit,
    ReadyOk,
    Sos,
    SosOk,
    move_text,
    parse_answer,
)


@dataclass(frozen=True)
class Limits:
    """The protocol's time limits, in seconds (the documented defaults)."""

    handshake: float = 10.0  # for sosok after sos, and for readyok after isready
    margin: float = 1.0  # past go's movetime, for bestmove
    quit_grace: float = 1.0  # after quit, before the process is killed


class Failure(StrEnum):
    START = "start"  # the command could not be run
    CRASH = "crash"  # the process ended
    GARBAGE = "garbage"  # a line outside the protocol, or one out of place
    ILLEGAL = "illegal"  # bestmove with a move the rules refuse
    TIME = "time"  # no bestmove within movetime + margin
    HANG = "hang"  # no answer to sos or isready within the handshake limit


class EngineError(RuleError):
    """An engine that misbehaved; ``failure`` says how. Raise with ``EngineError(failure,
    template, **params)``."""

    def __init__(self, failure: Failure | str, template: str, /, **params) -> None:
        self.failure = Failure(failure)
        super().__init__(template, **params)

    def __reduce__(self):  # through a process pool: keep the failure too
        return _rebuild, (self.failure, self.template, self.params)


def _rebuild(failure, template, params):
    return EngineError(failure, template, **params)


_EOF = object()
_LIVE: weakref.WeakSet = weakref.WeakSet()
"""The engines this process started and has not stopped yet (``stop_all``)."""
_STARTING = [0]
"""How many engines are being started now: their process may exist but not be in ``_LIVE`` yet."""
_ASKED: list = []
"""What ``stop_all`` was asked to call while an engine was being started (done once it is in)."""
_STARTS = threading.Lock()
MAX_INFO = 10_000
"""The most ``info`` lines an engine may send before one answer: past that it is flooding."""


def _shown(text: str, limit: int = 60) -> str:
    return shorten(printable(text), limit)


class EngineClient:
    """The engine program ``command`` (split as a shell would, run without one), started and
    through its handshake on creation (with ``greet=False``, by ``greet()`` or the first
    ``best_move``: the process is there at once, to be stopped from another thread while the
    handshake waits): ``name`` and ``author`` are what it said about itself.
    ``best_move(state, movetime_ms)`` asks for a move; ``close()`` stops it (also on ``with``)."""

    def __init__(self, command: str, limits: Limits = Limits(), greet: bool = True) -> None:
        self.command, self.limits = command, limits
        self.name = self.author = None
        self._lines: queue.Queue = queue.Queue()
        self._out: queue.Queue = queue.Queue()
        self._game: NewGame | None = None
        self._greeted = False
        with _STARTS:
            _STARTING[0] += 1
        try:
            self.process = self._start()
            _LIVE.add(self)
        finally:
            with _STARTS:
                _STARTING[0] -= 1
            while _ASKED and not _STARTING[0]:
                stop_all(_ASKED.pop(0))
        if greet:
            self.greet()

    def greet(self) -> None:
        """The handshake, once (EngineError, the engine stopped, if it fails)."""
        if not self._greeted:
            try:
                self._handshake()
            except BaseException:
                self.close(polite=False)
                raise
            self._greeted = True

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def shown(self) -> str:
        """The engine's name for messages: its ``id name``, else its command."""
        return _shown(self.name or self.command, 40)

    def _start(self) -> subprocess.Popen:
        try:
            args = shlex.split(self.command)
        except ValueError as error:
            raise EngineError(
                Failure.START,
                N_("cannot read the engine command {command}: {error}"),
                command=_shown(self.command),
                error=str(error),
            ) from None
        if not args:
            raise EngineError(Failure.START, N_("the engine command is empty"))
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineError(
                Failure.START,
                N_("engine {command} could not start: {error}"),
                command=_shown(self.command),
                error=error.strerror or str(error),
            ) from None
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()
        threading.Thread(target=self._write, args=(process.stdin,), daemon=True).start()
        return process

    # -- the threads that touch the pipes -------------------------------------------------
    def _read(self, stream) -> None:
        try:
            while True:
                raw = stream.readline(MAX_LINE * 4 + 2)
                if not raw:
                    break
                if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
                    self._lines.put(
                        ProtocolError(N_("a line can be at most {most} characters"), most=MAX_LINE)
                    )
                    break
                try:
                    self._lines.put(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    self._lines.put(ProtocolError(N_("a line that is not UTF-8 text")))
                    break
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def _write(self, stream) -> None:
        try:
            while (line := self._out.get()) is not None:
                stream.write(line.encode() + b"\n")
                stream.flush()
        except (OSError, ValueError):
            pass

    def _send(self, command) -> None:
        self._out.put(str(command))

    def _answer(self, deadline: float, on_timeout: EngineError):
        """The engine's next answer that is not ``info`` (blank lines skipped), by ``deadline``
        (``time.monotonic``); raises ``on_timeout`` past it, and EngineError for garbage, a flood
        of ``info`` or an end."""
        skipped = 0
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise on_timeout from None
            if line is _EOF:
                raise self._crashed()
            if isinstance(line, ProtocolError):
                raise self._garbage(line)
            if not line.strip():
                continue
            try:
                answer = parse_answer(line)
            except ProtocolError as error:
                raise self._garbage(error) from None
            if not isinstance(answer, Info):
                return answer
            skipped += 1
            if skipped > MAX_INFO:
                raise self._garbage(ProtocolError(N_("more than {most} info lines in a row"), most=MAX_INFO))

    def _crashed(self) -> EngineError:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(0.5)
        status = self.process.returncode
        return EngineError(
            Failure.CRASH,
            N_("engine {name} stopped (exit status {status})"),
            name=self.shown,
            status="?" if status is None else status,
        )

    def _garbage(self, error: BaseException) -> EngineError:
        return EngineError(
            Failure.GARBAGE, N_("engine {name} broke the protocol: {error}"), name=self.shown, error=error
        )

    def _out_of_place(self, answer, expected: str) -> EngineError:
        return EngineError(
            Failure.GARBAGE,
            N_("engine {name} sent {line} where {expected} was expected"),
            name=self.shown,
            line=_shown(str(answer)),
            expected=expected,
        )

    def _hang(self, command: str) -> EngineError:
        return EngineError(
            Failure.HANG,
            N_("engine {name} did not answer {command} within {seconds:g} s"),
            name=self.shown,
            command=command,
            seconds=self.limits.handshake,
        )

    # -- the protocol -----------------------------------------------------------------------
    def _handshake(self) -> None:
        self._send(Sos())
        deadline = time.monotonic() + self.limits.handshake
        while not isinstance(answer := self._answer(deadline, self._hang("sos")), SosOk):
            if not isinstance(answer, Id):
                raise self._out_of_place(answer, "sosok")
            if answer.field == "name":
                self.name = answer.text
            else:
                self.author = answer.text
        self.ready()

    def ready(self) -> None:
        """``isready``, and its ``readyok`` within the handshake limit."""
        self._send(IsReady())
        answer = self._answer(time.monotonic() + self.limits.handshake, self._hang("isready"))
        if not isinstance(answer, ReadyOk):
            raise self._out_of_place(answer, "readyok")

    def best_move(self, state: GameState, movetime: int) -> Move:
        """The engine's move in ``state`` (a game not over), asked with ``go movetime`` (ms): a
        ``newgame`` first when the game is not the one it was told of, then ``position``.
        EngineError (the engine stopped) if it fails in any way."""
        self.greet()
        try:
            return self._best_move(state, movetime)
        except BaseException:  # misbehaved, or interrupted (ctrl+c) mid-search
            self.close(polite=False)
            raise

    def _best_move(self, state: GameState, movetime: int) -> Move:
        game = NewGame(state.size, state.mode, state.players)
        if game != self._game:
            self._send(game)
            self.ready()
            self._game = game
        self._send(Position(state.moves))
        self._send(Go(movetime))
        limit = movetime / 1000 + self.limits.margin
        late = EngineError(
            Failure.TIME,
            N_("engine {name} did not move within {ms} ms and {margin:g} s more"),
            name=self.shown,
            ms=movetime,
            margin=self.limits.margin,
        )
        answer = self._answer(time.monotonic() + limit, late)
        if not isinstance(answer, BestMove):
            raise self._out_of_place(answer, "bestmove")
        move = answer.move
        try:
            state.play(move)
        except ValueError as error:
            raise EngineError(
                Failure.ILLEGAL,
                N_("engine {name} played an illegal move {move}: {error}"),
                name=self.shown,
                move=move_text(move),
                error=error,
            ) from None
        return move

    def close(self, polite: bool = True) -> None:
        """Stop the engine: ``quit`` (if ``polite``: not to an engine that misbehaved or is being
        dropped mid-search), then, past the grace, the whole process group killed. Every process
        it started is gone when this returns."""
        process = self.process
        if getattr(self, "_closed", False):
            return
        self._closed = True
        _LIVE.discard(self)
        if polite and process.poll() is None:
            self._send(Quit())
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(self.limits.quit_grace)
        self._out.put(None)
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)  # its children too, even after it exited
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5)
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                stream.close()

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def stop_all(then=None) -> None:
    """Kill every engine this process started and has not stopped, with their processes, then call
    ``then``: for a worker process told to end now (``arena.py``), whose ``finally`` clauses will
    not run. Asked while an engine is being started (a signal's handler runs inside ``Popen``,
    before the process is known here), both wait until that engine is in: else it would live on."""
    if _STARTING[0]:
        _ASKED.append(then)
        return
    for engine in list(_LIVE):
        engine.close(polite=False)
    if then is not None:
        then()


def probe(command: str, limits: Limits = Limits()) -> str | None:
    """Start the engine program ``command``, shake hands and stop it: its ``id name`` (None if it
    gave none). EngineError if it cannot play, so that a command line is checked before a game."""
    with EngineClient(command, limits) as engine:
        return engine.name


class EnginePlayer:
    """An engine program as a computer player of the arena (``choose_move``), asked with ``go
    movetime`` ``movetime`` ms: started on its first move, stopped by ``close``."""

    def __init__(self, command: str, movetime: int, limits: Limits = Limits()) -> None:
        self.command, self.movetime, self.limits = command, movetime, limits
        self.client: EngineClient | None = None

    def choose_move(self, state: GameState) -> Move:
        if self.client is None:
            self.client = EngineClient(self.command, self.limits)
        return self.client.best_move(state, self.movetime)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
