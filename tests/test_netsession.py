"""The network session with no screen (``sos_tui.net.netsession``, ``sos_tui.net.host``): a game
hosted, restored and ended by a ``Host``; a client session that follows the game and reconnects by
itself after a drop or a server restart, against a real server on 127.0.0.1."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from sos_tui.engine import Move, Seat, SeatKind
from sos_tui.net import RemoteGame, Server, TokenStore
from sos_tui.net.host import Host
from sos_tui.net.netsession import NetSession, NetStatus, reconnect_delay
from sos_tui.net.protocol import StateMessage
from sos_tui.net.vocabulary import Phase
from sos_tui.session import ChangeKind

from .support.helpers import WAIT, FirstMove, free_port, running


def quick(attempt: int) -> float:
    return 0.01


class Follower:
    """A ``NetSession`` run in the background, what it heard and was told kept, to wait on."""

    def __init__(self, session: NetSession) -> None:
        self.session = session
        self.heard: list = []
        self.gone: list[list[str]] = []  # who had just gone, at each message heard
        self.told: list[NetStatus] = []
        self.backs = 0  # how many times it came back after a loss
        self.changes: list = []
        self.ended = None  # what ended it for good
        self.changed = asyncio.Event()
        session.subscribe(lambda change: (self.changes.append(change), self.changed.set()))
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        self.ended = await self.session.run(self._heard, self._told)
        self.changed.set()

    def _heard(self, message) -> None:
        self.heard.append(message)
        self.gone.append(self.session.gone)
        self.backs += message is None and self.session.back
        self.changed.set()

    def _told(self, status: NetStatus) -> None:
        self.told.append(status)
        self.changed.set()

    def moves(self) -> int:
        """How many moves the game shown here has (-1 before it has a position)."""
        game = self.session.game
        return -1 if game is None or game.state is None else len(game.state.moves)

    async def until(self, predicate) -> None:
        async def wait():
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), WAIT)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.session.close()


def seats(*kinds: str) -> list[dict]:
    return [{"kind": kind} if kind != "computer" else {"kind": kind, "level": "easy"} for kind in kinds]


async def test_a_dropped_connection_comes_back_by_itself_to_the_same_seat_and_the_game_goes_on():
    async with running() as server:
        room = server.create_room(3, "general", seats("remote", "computer"))
        ana = Follower(NetSession.join(server.url(room), "Ana", TokenStore(), delay=quick))
        try:
            await ana.until(lambda: ana.session.status.phase is Phase.PLAYING and ana.session.game.my_turn)
            await ana.session.game.play(Move.parse("S a1"))
            await ana.until(lambda: len(ana.changes) >= 2)  # Ana's move, the computer's answer
            await room.seats[0].client.ws.close()  # the connection drops; the room and the seat stay
            await ana.until(lambda: ana.backs == 1)
            assert [s.attempt for s in ana.told if s.reconnecting] == [1]
            status = ana.session.status
            assert status.lost is None and status.attempt == 0 and ana.session.game.my_seats == (0,)
            assert len(ana.session.game.state.moves) == 2 and ana.ended is None
            await ana.session.game.play(Move.parse("O b2"))  # the game goes on from where it was
            await ana.until(lambda: len(room.session.state.moves) >= 3)
            assert [c.kind for c in ana.changes[-2:]] == [ChangeKind.MOVE, ChangeKind.MOVE]
        finally:
            await ana.close()


async def test_a_server_restarted_without_the_game_ends_the_tries_with_why():
    port = free_port()
    server = Server(computer=FirstMove())
    await server.start("127.0.0.1", port)
    try:
        room = server.create_room(3, "general", seats("remote", "computer"))
        ana = Follower(NetSession.join(server.url(room), "Ana", TokenStore(), delay=quick))
        try:
            await ana.until(lambda: ana.session.status.phase is Phase.PLAYING)
            await server.stop()  # the server goes: the session keeps trying by itself
            await ana.until(lambda: any(s.attempt >= 2 for s in ana.told))
            assert ana.session.status.reconnecting and ana.ended is None
            again = Server(computer=FirstMove())
            await again.start("127.0.0.1", port)  # back on the same port, without the game
            try:
                await ana.until(lambda: ana.ended is not None)
            finally:
                await again.stop()
            assert "no game with that code" in str(ana.ended) and not ana.ended.retry
            status = ana.session.status
            assert status.lost is ana.ended and status.attempt > 0 and not status.ended
        finally:
            await ana.close()
    finally:
        await server.stop()


async def test_a_seat_taken_up_elsewhere_is_let_go_without_a_try():
    async with running() as server:
        room = server.create_room(3, "general", seats("remote", "computer"))
        ana = Follower(NetSession.join(server.url(room), "Ana", TokenStore(), delay=quick))
        try:
            await ana.until(lambda: ana.session.status.phase is Phase.PLAYING)
            elsewhere = RemoteGame(server.url(room), "Ana", token=ana.session.game.token, tokens=TokenStore())
            await elsewhere.connect()
            try:
                await ana.until(lambda: ana.ended is not None)
            finally:
                await elsewhere.close()
            assert ana.ended.code == "replaced" and not any(s.reconnecting for s in ana.told)
        finally:
            await ana.close()


async def test_a_spectator_and_a_finished_game_are_not_reconnected():
    async with running() as server:
        room = server.create_room(3, "general", seats("remote", "computer"))
        ana = Follower(NetSession.join(server.url(room), "Ana", TokenStore(), delay=quick))
        watcher = Follower(NetSession.join(server.url(room), None, TokenStore(), delay=quick))
        try:
            await ana.until(lambda: ana.session.status.phase is Phase.PLAYING)
            await watcher.until(lambda: watcher.session.status.phase is Phase.PLAYING)
            assert watcher.session.game.my_seats == ()
            for client in [c for c in room.clients if not c.seats]:
                await client.ws.close()
            await watcher.until(lambda: watcher.ended is not None)
            assert not any(s.reconnecting for s in watcher.told)
            game = ana.session.game
            while not game.state.is_over:  # Ana plays the game out against the computer
                version = game.version
                if game.my_turn:
                    await game.play(game.state.legal_moves()[0])
                await ana.until(lambda v=version: game.version > v)
            await server.stop()
            await ana.until(lambda: ana.ended is not None)
            assert ana.session.status.lost is None  # the game was over: nothing was lost
            assert not any(s.reconnecting for s in ana.told)
        finally:
            await watcher.close()
            await ana.close()


async def test_a_host_stopped_and_started_again_brings_back_the_game_and_its_seats(tmp_path, monkeypatch):
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(tmp_path))
    port = free_port()
    plan = dict(size=3, mode="general", seats=[Seat(None, SeatKind.REMOTE)] * 2, bind="127.0.0.1", port=port)
    host = Host(**plan, computer=FirstMove())
    await host.open()
    assert host.kept is None
    room = await host.start()
    bo = Follower(NetSession.join(host.url(), "Bo", TokenStore(), delay=quick))
    cy = Follower(NetSession.join(host.url(), "Cy", TokenStore(), delay=quick))
    try:
        await bo.until(lambda: bo.session.status.phase is Phase.PLAYING)
        await bo.session.game.play(Move.parse("S a1"))
        await cy.until(lambda: cy.moves() == 1)
        await host.stop()  # the host's process stops: the game stays on disk; the joiners keep trying
        await bo.until(lambda: bo.session.status.reconnecting)
        again = Host(**plan, computer=FirstMove())
        await again.open()
        assert again.unfinished is not None and len(again.unfinished.moves) == 1
        restored = await again.start()
        assert restored.code == room.code and again.url() == host.url()
        await bo.until(lambda: bo.backs == 1)
        await cy.until(lambda: cy.backs == 1)
        assert bo.session.game.my_seats == (0,) and cy.session.game.my_seats == (1,)
        await cy.session.game.play(Move.parse("O b1"))
        await bo.until(lambda: bo.moves() == 2)
        await again.end("{name} ended the game", name="Ann")  # the game ends for everyone
        await bo.until(lambda: bo.ended is not None)
        assert bo.session.game.ended and "Ann ended the game" in str(bo.ended)
        assert bo.session.status.ended and not bo.told[-1].reconnecting  # not tried again
        last = Host(**plan)
        await last.open()
        assert last.kept is None  # ended: forgotten on disk
        await last.stop()
    finally:
        await bo.close()
        await cy.close()


async def test_a_joiners_session_hears_every_message_and_says_who_left():
    async with running() as server:
        room = server.create_room(3, "general", seats("remote", "remote"))
        ana = Follower(NetSession.join(server.url(room), "Ana", TokenStore(), delay=quick))
        bo = Follower(NetSession.join(server.url(room), "Bo", TokenStore(), delay=quick))
        try:
            await ana.until(lambda: ana.session.status.phase is Phase.PLAYING)
            assert ana.heard[0] is None  # the state taken in on connecting
            await bo.session.leave()
            await ana.until(lambda: ana.session.status.waiting_for == ("Bo",))
            states = [i for i, m in enumerate(ana.heard) if isinstance(m, StateMessage)]
            quit = next(i for i in states if ana.heard[i].change == "quit")
            assert ana.gone[quit] == ["Bo"] and ana.gone[-1] in ([], ["Bo"])
            assert ana.session.leaving_asks and ana.session.playing
        finally:
            await ana.close()
            await bo.close()


@given(st.integers(min_value=1, max_value=200))
def test_the_pause_before_a_reconnection_grows_from_a_quarter_second_to_at_most_fifteen(attempt):
    delay = reconnect_delay(attempt)
    base = min(15.0, 0.25 * 2 ** (attempt - 1))
    assert 0.5 * base <= delay <= 1.5 * base <= 22.5


async def test_the_vocabulary_goes_on_the_wire_as_the_same_words():
    import json

    from sos_tui.net.vocabulary import StateChange, VoteKind

    async with running() as server:
        room = server.create_room(3, "general", seats("remote", "remote"))
        assert room.phase is Phase.LOBBY
        sent = json.loads(room.state_message(StateChange.QUIT).to_json())
        assert (sent["phase"], sent["change"]) == ("lobby", "quit")
    assert [str(kind) for kind in VoteKind] == ["undo", "rematch"]
    assert [str(phase) for phase in Phase] == ["lobby", "playing", "over"]
    assert Phase.read("paused") is Phase.PLAYING and StateChange.read("resign") is StateChange.NONE


async def test_a_host_told_to_forget_its_kept_game_starts_a_new_one(tmp_path, monkeypatch):
    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(tmp_path))
    plan = dict(
        size=3,
        mode="general",
        seats=[Seat(None, SeatKind.REMOTE), Seat(None, SeatKind.REMOTE)],
        bind="127.0.0.1",
        port=free_port(),
    )
    host = Host(**plan)
    first = await host.start()  # opens the rooms database itself
    bo = Follower(NetSession.join(host.url(), "Bo", TokenStore(), delay=quick))
    cy = Follower(NetSession.join(host.url(), "Cy", TokenStore(), delay=quick))
    try:
        await bo.until(lambda: bo.session.status.phase is Phase.PLAYING)
        await bo.session.game.play(Move.parse("S a1"))
        await cy.until(lambda: cy.moves() == 1)
    finally:
        await bo.close()
        await cy.close()
    await host.stop()
    again = Host(**plan)
    await again.open()
    assert again.unfinished is not None
    again.forget()
    room = await again.start()
    assert room.code != first.code and room.session is None  # a new game, waiting for its players
    await again.end("{name} ended the game", name="Ann")
    last = Host(**plan)
    await last.open()
    assert last.kept is None
    await last.stop()


async def test_a_kept_seat_reads_back_as_a_seat_kind(tmp_path, monkeypatch):
    from sos_tui.net.host import open_store

    monkeypatch.setenv("SOS_TUI_DATA_DIR", str(tmp_path))
    async with running(store=open_store()) as server:
        await server.create_room(3, "general", seats("remote", "computer"), public=True).saved()
        (kept,) = server.store.load()
        assert [s.seat.kind for s in kept.seats] == [SeatKind.REMOTE, SeatKind.COMPUTER]
        assert all(type(s.seat.kind) is SeatKind for s in kept.seats)
        await server.store.close()
