"""One network game from this terminal's side, with no screen: ``NetSession`` opens the game (a
join, a room created on a ``sos-tui server``, or a game hosted in this process by a ``Host``),
follows it, and reconnects by itself when the connection drops, with the seat's token, after a
growing, jittered pause. A front end (the terminal app's network screen, the line mode) hears
every message the server sends, reads a typed ``NetStatus``, and gets the game's ``Change`` events
by ``subscribe``, as from any ``session.GameSource``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sos_tui.i18n import N_, _, explain
from sos_tui.session import Change, SeatKind
from sos_tui.storage import StorageError

from .client import NetError, RemoteGame, create_room
from .host import Host
from .protocol import ServerMessage
from .tokens import SeatKey, TokenStore
from .vocabulary import Phase

Heard = Callable[[ServerMessage | None], None]
"""Told each message from the server once taken in, and None after each (re)connection."""


def reconnect_delay(attempt: int) -> float:
    """Seconds before reconnection ``attempt`` (1, 2, ...): 0.25 s doubling up to 15 s, each spread
    by half either way so that the players of a restarted server do not all come back at once."""
    return min(15.0, 0.25 * 2 ** (attempt - 1)) * random.uniform(0.5, 1.5)


@dataclass(frozen=True)
class NetStatus:
    """Where the game stands for this terminal: its ``phase`` (None before it is first reached),
    whom it waits for, the seats still open, and the connection: ``lost`` (why, while it is down),
    ``attempt`` (the reconnection under way; 0 when connected or not trying), ``ended`` (the
    server closed the game for good) and ``back`` (connected again after a loss)."""

    phase: Phase | None = None
    waiting_for: tuple[str, ...] = ()
    open_seats: int = 0
    lost: NetError | None = None
    attempt: int = 0
    ended: bool = False
    back: bool = False

    @property
    def reconnecting(self) -> bool:
        return self.lost is not None and self.attempt > 0


class NetSession:
    """A network game followed from here: ``opener`` makes the connected ``RemoteGame`` (see the
    ``join``, ``on_server`` and ``hosting`` constructors); ``run`` follows it until it cannot come
    back, reconnecting by itself meanwhile. ``host`` is the game's ``Host`` when this process
    serves it (a host's own game is not reconnected to: its server is here)."""

    def __init__(
        self,
        opener: Callable[[], Awaitable[RemoteGame]],
        *,
        host: Host | None = None,
        join_url: str | None = None,
        delay: Callable[[int], float] = reconnect_delay,
    ) -> None:
        self._opener = opener
        self.host = host
        self.join_url = join_url  # the address to give friends, once known
        self.delay = delay
        self.game: RemoteGame | None = None
        self.lost: NetError | None = None
        self.attempt = 0
        self.back = False
        self.host_player: str | None = None  # the name of the host's seat here, said as who ended the game
        self._waiting: tuple[str, ...] = ()  # who the game waited for at the last message
        self._listeners: list[Callable[[Change], None]] = []

    # -- ways in ----------------------------------------------------------------------------
    @classmethod
    def join(
        cls, url: str, name: str | None, tokens: TokenStore | None = None, host: bool = False, **options
    ) -> NetSession:
        """The game at ``url`` (``ws://HOST:PORT/CODE``), joined as ``name`` (``host``: with the
        token of the host's own seats)."""
        return cls(lambda: _connected(RemoteGame(url, name, tokens=tokens, host=host)), **options)

    @classmethod
    def of(cls, game: RemoteGame, **options) -> NetSession:
        """A game already joined (a seat taken from a server's lobby)."""
        session = cls(lambda: _connected(game), **options)
        session._opened(game)
        return session

    @classmethod
    def on_server(cls, plan, tokens: TokenStore | None = None, **options) -> NetSession:
        """A new game created on the ``sos-tui server`` of ``plan`` (a ``run.HostPlan``), its
        creator's seats played here."""
        session: NetSession

        async def opener() -> RemoteGame:
            url, token, _seats = await create_room(
                plan.server_url, plan.size, plan.mode, plan.seats, public=plan.public, clock=plan.clock,
                rated=plan.rated, bot=plan.bot
            )
            if sum(seat.is_open for seat in plan.seats) > (plan.bot is not None):  # a seat left for friends
                session.join_url = url
            return await _connected(RemoteGame(url, host_name(plan), token=token, tokens=tokens, host=True))

        session = cls(opener, **options)
        return session

    @classmethod
    def hosting(
        cls,
        host: Host,
        name: str | None,
        reachable: str,
        continue_kept: Callable[[int], Awaitable[bool]],
        tokens: TokenStore | None = None,
        **options,
    ) -> NetSession:
        """A game served in this process by ``host`` (its server's address for friends is
        ``reachable``), its seats of kind human played here as ``name``. An unfinished game kept
        on disk for the same plan is continued if ``continue_kept(moves)`` says so, else forgotten."""
        session: NetSession

        async def opener() -> RemoteGame:
            store = tokens if tokens is not None else TokenStore.default()
            try:
                await host.open()
                if host.unfinished is not None and not await continue_kept(len(host.unfinished.moves)):
                    host.forget()
                room = await host.start()
            except StorageError as problem:  # the rooms database: said, not a traceback
                await host.stop()
                raise NetError(explain(problem), retry=False) from None
            except OSError as problem:
                where = f"{host.bind}:{host.port}"
                raise NetError(
                    N_("cannot listen on {address}: {reason}"),
                    retry=False,
                    address=where,
                    reason=problem.strerror or problem,
                ) from None
            session.join_url = host.url(reachable)
            token = room.host_token(store.find(SeatKey.host(host.url())))
            return await _connected(RemoteGame(host.url(), name, token=token, tokens=store, host=True))

        session = cls(opener, host=host, **options)
        session.host_player = name
        return session

    @classmethod
    def for_plan(
        cls,
        plan,
        tokens: TokenStore | None = None,
        *,
        computer=None,
        keeper=None,
        continue_kept: Callable[[int], Awaitable[bool | None]] | None = None,
    ) -> NetSession:
        """The session of a ``run.JoinPlan`` or ``run.HostPlan`` (on a server, or served here by
        a ``Host`` whose computer seats think in ``computer``, asking ``continue_kept`` about a
        kept game); each finished game this player sat in goes into ``keeper`` (a ``Keeper``)."""
        from .run import JoinPlan, reachable_host

        if isinstance(plan, JoinPlan):
            session = cls.join(plan.url, plan.name, tokens, host=plan.host)
        elif plan.server_url is not None:
            session = cls.on_server(plan, tokens)
        else:  # the host's own server keeps the host's copy of each finished game
            listeners = [keeper.on_change] if keeper is not None else []
            host = Host.of(plan, computer=computer, computer_delay=0.5, listeners=listeners)
            session = cls.hosting(host, host_name(plan), reachable_host(plan.bind), continue_kept, tokens)
        if keeper is not None:
            session.keep_in(keeper)
        return session

    # -- what a front end reads --------------------------------------------------------------
    @property
    def status(self) -> NetStatus:
        game = self.game
        if game is None:
            return NetStatus(lost=self.lost, attempt=self.attempt)
        return NetStatus(
            Phase.read(game.phase),
            game.waiting_for,
            game.open_seats,
            self.lost,
            self.attempt,
            game.ended,
            self.back,
        )

    @property
    def gone(self) -> list[str]:
        """Who the game waits for since the last message (read while hearing it)."""
        game = self.game
        return [name for name in game.waiting_for if name not in self._waiting] if game is not None else []

    @property
    def leaving_asks(self) -> bool:
        """Leaving now would leave others waiting: this player holds a seat in a game under way, or
        hosts a game not over yet (its leaving ends it)."""
        game = self.game
        if game is None or not game.connected or game.phase == Phase.OVER:
            return False
        return self.host is not None or (bool(game.my_seats) and game.phase == Phase.PLAYING)

    @property
    def playing(self) -> bool:
        """A game under way that has not ended for good."""
        game = self.game
        return game is not None and not game.ended and game.state is not None and not game.state.is_over

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``listener`` with every change of the game (a start or rematch, a move, an undo),
        across reconnections; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def keep_in(self, keeper) -> None:
        """Put each finished game this player sat in into ``keeper`` (a ``session.Keeper``: their
        history), once; a hosted game's copy is the host's server's to keep. A network game in
        progress is not autosaved here: it lives in its room."""
        recorded: set[str] = set()

        def keep(change: Change) -> None:
            game = self.game
            if (
                change.finished
                and self.host is None
                and game is not None
                and game.my_seats
                and change.record.game_id not in recorded
            ):
                recorded.add(change.record.game_id)
                keeper.on_change(change)

        self.subscribe(keep)

    def _changed(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    def _opened(self, game: RemoteGame) -> None:
        self.game = game
        game.subscribe(self._changed)

    # -- following the game -------------------------------------------------------------------
    async def open(self) -> RemoteGame:
        """Reach the game the first time (NetError if it cannot be)."""
        if self.game is None:
            self._opened(await self._opener())
        return self.game

    async def run(self, heard: Heard, told: Callable[[NetStatus], None] = lambda status: None) -> NetError:
        """Follow the game: ``heard`` each message, ``told`` the status when the connection goes
        or comes back. A lost connection is tried again by itself while ``comes_back``; returns
        what ended it for good (the game over and closed, refused, replaced, or gone)."""
        self.lost, self.attempt, self.back = None, 0, False
        told(self.status)
        while True:
            try:
                if self.game is None:
                    await self.open()
                elif not self.game.connected:
                    await self.game.connect()
                self.back, self.lost, self.attempt = self.attempt > 0, None, 0
                heard(None)
                self.back, self._waiting = False, self.game.waiting_for
                async for message in self.game.updates():
                    heard(message)
                    self._waiting = self.game.waiting_for
            except NetError as problem:
                if not self.comes_back(problem):
                    if not self.over:
                        self.lost = problem
                    told(self.status)
                    return problem
                self.lost, self.attempt = problem, self.attempt + 1
                told(self.status)
                await asyncio.sleep(self.delay(self.attempt))

    @property
    def over(self) -> bool:
        game = self.game
        return game is not None and game.state is not None and game.state.is_over

    def comes_back(self, problem: NetError) -> bool:
        """Worth trying again by itself: a seat in a game under way that the server has not ended
        (a dropped connection, a server restarting)."""
        game = self.game
        return (
            game is not None
            and self.host is None
            and problem.retry
            and not game.ended
            and bool(game.my_seats)
            and game.state is not None
            and not game.state.is_over
        )

    async def leave(self) -> None:
        """Leave on purpose: a joiner says goodbye (the seat stays theirs), a host ends the game
        for everyone."""
        if self.host is not None:
            await self.end_hosting()
        elif self.game is not None:
            await self.game.leave()

    async def end_hosting(self) -> None:
        """A hosted game ends for everyone, and is forgotten on disk (nothing when not hosting)."""
        host, self.host = self.host, None
        if host is not None:
            await host.end(N_("{name} ended the game"), name=self.host_player or _("the host"))

    async def close(self) -> None:
        """Let the connection go (the seat stays this player's; a hosted game ends with it)."""
        if self.game is not None:
            await self.game.close()


async def _connected(game: RemoteGame) -> RemoteGame:
    await game.connect()
    return game


def host_name(plan) -> str | None:
    """The name of the first person's seat of a ``run.HostPlan`` (the host, at this terminal)."""
    names = [s.name for s in plan.seats if s.kind is SeatKind.HUMAN]
    return names[0] if names else None
