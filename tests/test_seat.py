"""One ``Seat`` value at every edge: the game record, the wire (a ``create``, a seat in a ``state``),
the rooms database (SQLite rows, Redis JSON) and a room's own seats. Each edge writes what it
wrote before (files and stored rooms of older versions still load), reads back what it writes,
and an unknown kind in a file is a clear error, never a traceback."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from sos_tui import i18n
from sos_tui.engine import GameRecord, Mode, PlayerInfo, RecordError, Seat, SeatError, SeatKind
from sos_tui.net.cluster import dump_room, load_room
from sos_tui.net.protocol import CreateMessage, SeatView, StateMessage, parse_client, parse_server
from sos_tui.net.room import RoomSeat
from sos_tui.net.store import SqliteRoomStore, StoredRoom, StoredSeat
from sos_tui.session import SeatKind as SessionSeatKind

ANA, BO = Seat("Ana"), Seat("Bo")
DEEP = Seat("Deep", SeatKind.COMPUTER, "hard")
OPEN = Seat(None, SeatKind.REMOTE)


# -- the value -----------------------------------------------------------------------------------
def test_a_kind_given_as_text_is_read_as_its_seat_kind_and_the_old_names_are_the_same_class():
    seat = Seat("Bot", "computer", "easy")
    assert seat.kind is SeatKind.COMPUTER and seat == Seat("Bot", SeatKind.COMPUTER, "easy")
    assert PlayerInfo is Seat and SessionSeatKind is SeatKind
    assert (seat.is_computer, seat.person, ANA.person, OPEN.person, OPEN.is_open) == (
        True,
        False,
        True,
        True,
        True,
    )
    assert not Seat("Bo", SeatKind.REMOTE).is_open  # taken: it has a name


def test_a_seat_is_a_frozen_value_that_hashes_by_content():
    assert len({Seat("Ana"), Seat("Ana", "human"), DEEP, Seat("Deep", "computer", "hard")}) == 2
    with pytest.raises(AttributeError):
        ANA.name = "Eve"


def test_an_unknown_kind_is_refused_when_the_seat_is_made():
    with pytest.raises(SeatError, match="has unknown kind 'robot'"):
        Seat("Ana", "robot")


@pytest.mark.parametrize(
    ("seat", "label"),
    [(ANA, "Ana"), (DEEP, "Deep (hard)"), (Seat("Eve", SeatKind.COMPUTER), "Eve"), (OPEN, "")],
)
def test_the_label_names_a_computer_with_its_level(seat, label):
    assert seat.label == label


def test_the_record_keeps_every_person_as_human_and_a_computer_as_it_is():
    assert Seat("Bo", SeatKind.REMOTE).recorded == BO
    assert Seat("Bo", SeatKind.HUMAN, "hard").recorded == BO  # a person has no level
    assert DEEP.recorded is DEEP


# -- the game record -----------------------------------------------------------------------------
@pytest.mark.parametrize("seat", [ANA, DEEP, Seat("Eve", SeatKind.COMPUTER)])
def test_a_seat_of_a_record_reads_back_as_itself(seat):
    assert Seat.from_dict(json.loads(json.dumps(seat.to_dict()))) == seat


def test_a_record_writes_its_seats_as_it_always_did():
    record = GameRecord(3, Mode.GENERAL, (ANA, DEEP))
    assert json.loads(record.to_json())["players"] == [
        {"name": "Ana", "kind": "human"},
        {"name": "Deep", "kind": "computer", "level": "hard"},
    ]
    assert '"players": [\n    {\n      "name": "Ana",\n      "kind": "human"\n    },' in record.to_json()


OLD_RECORD = """{
  "format": "sos-game",
  "version": 1,
  "size": 3,
  "mode": "general",
  "players": [
    {"name": "Ann"},
    {"name": "Bot", "kind": "computer", "level": "Hard"},
    {"name": "Cy", "kind": "human"}
  ],
  "moves": ["S a1", "O b2"],
  "started": "2024-05-01T10:00:00+00:00",
  "updated": "2024-05-01T10:05:00+00:00"
}"""


def test_an_old_record_without_ids_or_kinds_still_loads_with_seat_kinds():
    record = GameRecord.from_json(OLD_RECORD)
    assert record.players == (Seat("Ann"), Seat("Bot", SeatKind.COMPUTER, "hard"), Seat("Cy"))
    assert all(type(p.kind) is SeatKind for p in record.players)


@pytest.mark.parametrize("kind", ["robot", "remote", 3, None, ["human"]])
def test_an_unknown_kind_in_a_record_is_a_record_error_naming_the_player_and_the_kind(kind):
    text = OLD_RECORD.replace('{"name": "Cy", "kind": "human"}', json.dumps({"name": "Cy", "kind": kind}))
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(text)
    assert str(caught.value) == f"bad game record: player 3 has unknown kind {kind!r}"


def test_an_unknown_kind_in_a_record_is_explained_in_malay():
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(OLD_RECORD.replace('"kind": "human"', '"kind": "robot"'))
    i18n.set_language("ms")
    assert (
        i18n.explain(caught.value)
        == "rekod permainan rosak: pemain 3 mempunyai jenis yang tidak dikenali 'robot'"
    )


# -- the wire --------------------------------------------------------------------------------------
def test_a_create_sends_every_field_of_its_seats_and_the_server_reads_them_back():
    message = CreateMessage(3, Mode.GENERAL, (ANA, OPEN, DEEP))
    data = json.loads(message.to_json())
    assert data["seats"] == [
        {"name": "Ana", "kind": "human", "level": None},
        {"name": None, "kind": "remote", "level": None},
        {"name": "Deep", "kind": "computer", "level": "hard"},
    ]
    assert parse_client(message.to_json(), first=True) == message


def _state(views: tuple[SeatView, ...]) -> StateMessage:
    return StateMessage("7f3kq-x9m2c", "lobby", 3, Mode.GENERAL, 0, None, "join", None, views, (), 0, None)


def test_a_seat_in_a_state_goes_out_as_before_and_reads_back_as_itself():
    views = (SeatView(ANA), SeatView(BO, connected=False), SeatView(DEEP), SeatView(Seat(None)))
    data = json.loads(_state(views).to_json())
    assert data["seats"][:2] == [
        {"name": "Ana", "kind": "human", "level": None, "connected": True},
        {"name": "Bo", "kind": "human", "level": None, "connected": False},
    ]
    assert list(data["seats"][2]) == ["name", "kind", "level", "connected"]
    assert parse_server(_state(views).to_json()).seats == views


def test_a_seat_of_a_kind_this_version_does_not_know_reads_as_a_person():
    data = json.loads(_state((SeatView(ANA), SeatView(BO))).to_json())
    data["seats"][1].update(kind="robot", level=7, name=["?"])  # a newer (or odd) server
    assert parse_server(json.dumps(data)).seats[1] == SeatView(Seat(None))


def test_a_room_shows_a_joined_remote_seat_as_a_person_connected_or_not():
    seat = RoomSeat(Seat("Bo", SeatKind.REMOTE), "hash-Bo")
    assert seat.view() == SeatView(BO, connected=False)
    assert RoomSeat(DEEP).view() == SeatView(DEEP, connected=True)  # a computer is always there
    assert seat.stored() == StoredSeat(Seat("Bo", SeatKind.REMOTE), "hash-Bo")


# -- the rooms database ------------------------------------------------------------------------------
def _room(*seats: StoredSeat, code: str = "7f3kq-x9m2c") -> StoredRoom:
    return StoredRoom(code, 3, "general", seats, None, 0, 1.0, 2.0, public=True)


ROOM_SEATS = (StoredSeat(ANA, "hash-Ana"), StoredSeat(OPEN), StoredSeat(DEEP))


def test_a_stored_seat_is_kept_as_the_same_row_as_before():
    assert [s.to_row() for s in ROOM_SEATS] == [
        ("human", "Ana", None, "hash-Ana"),
        ("remote", None, None, None),
        ("computer", "Deep", "hard", None),
    ]
    assert tuple(StoredSeat.from_row(s.to_row()) for s in ROOM_SEATS) == ROOM_SEATS


def test_a_room_in_redis_reads_back_as_itself_and_an_old_one_still_loads():
    room = _room(*ROOM_SEATS)
    assert load_room(dump_room(room)) == room
    old = (
        '{"code":"7f3kq-x9m2c","size":3,"mode":"general","seats":[["human","Ana",null,"hash-Ana"],'
        '["remote",null,null,null],["computer","Deep","hard",null]],"record":null,"version":0,'
        '"created":1.0,"active":2.0,"key":null,"creator":null,"public":true}'
    )
    # today's adds the room's clock and rated flag after the same seats
    assert dump_room(room) == old[:-1] + ',"clock":null,"clocks":null,"rated":false}'
    assert load_room(old) == room and all(type(s.seat.kind) is SeatKind for s in load_room(old).seats)


RANDY = Seat("Randy", SeatKind.REMOTE, bot=True)


def test_a_bot_seat_in_a_room_in_redis_keeps_its_mark_and_only_its_row_grows():
    room = _room(StoredSeat(ANA, "hash-Ana"), StoredSeat(RANDY, "hash-Randy"))
    assert load_room(dump_room(room)).seats[1].seat.bot
    assert json.loads(dump_room(room))["seats"] == [
        ["human", "Ana", None, "hash-Ana"],  # as before bots: an older process still reads it
        ["remote", "Randy", None, "hash-Randy", 1],
    ]


def test_an_unknown_kind_in_a_room_in_redis_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="has unknown kind 'robot'"):
        load_room(dump_room(_room(*ROOM_SEATS)).replace('"remote"', '"robot"'))


async def test_a_room_in_sqlite_reads_back_as_itself(tmp_path):
    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    try:
        await store.save(_room(*ROOM_SEATS))
        [kept] = store.load()
        assert kept.seats == ROOM_SEATS
    finally:
        await store.close()


async def test_an_old_room_in_sqlite_loads_and_one_of_an_unknown_kind_is_left_out_with_a_warning(
    tmp_path, caplog
):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    await store.save(_room(*ROOM_SEATS, code="aaaaa-aaaaa"))
    await store.save(_room(*ROOM_SEATS, code="bbbbb-bbbbb"))
    await store.close()
    conn = sqlite3.connect(path)  # the rows as an older sos-tui wrote them: text in every column
    with conn:
        conn.execute("DELETE FROM seats")
        conn.executemany(
            "INSERT INTO seats (code, seat, kind, name, level, token_hash) VALUES (?, ?, ?, ?, ?, ?)",
            [
                ("aaaaa-aaaaa", 0, "human", "Ana", None, "hash-Ana"),
                ("aaaaa-aaaaa", 1, "remote", None, None, None),
                ("aaaaa-aaaaa", 2, "computer", "Deep", "hard", None),
                ("bbbbb-bbbbb", 0, "human", "Ana", None, "hash-Ana"),
                ("bbbbb-bbbbb", 1, "robot", None, None, None),
            ],
        )
    conn.close()
    caplog.set_level(logging.WARNING, logger="sos_tui")
    store = SqliteRoomStore(path)
    try:
        kept = store.load()
    finally:
        await store.close()
    assert [room.code for room in kept] == ["aaaaa-aaaaa"] and kept[0].seats == ROOM_SEATS
    [warning] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "bbbbb-bbbbb" in warning and "has unknown kind 'robot'" in warning and "left out" in warning


async def test_a_bot_seat_in_sqlite_keeps_its_mark(tmp_path):
    store = SqliteRoomStore(tmp_path / "rooms.sqlite3")
    seats = (StoredSeat(ANA, "hash-Ana"), StoredSeat(RANDY, "hash-Randy"))
    try:
        await store.save(_room(*seats))
        [kept] = store.load()
    finally:
        await store.close()
    assert kept.seats == seats and kept.seats[1].seat.bot


async def test_a_rooms_store_of_before_bots_is_brought_up_to_date_and_keeps_its_seats(tmp_path):
    from sos_tui.net.store import SCHEMA_VERSION

    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path)
    await store.save(_room(*ROOM_SEATS))
    await store.close()
    conn = sqlite3.connect(path)  # the seats table of schema 4: no bot column
    with conn:
        conn.executescript("""
            ALTER TABLE seats DROP COLUMN bot;
            PRAGMA user_version = 4;
        """)
    conn.close()
    store = SqliteRoomStore(path)
    try:
        [kept] = store.load()
        assert kept.seats == ROOM_SEATS
        await store.save(_room(StoredSeat(ANA, "hash-Ana"), StoredSeat(RANDY, "hash-Randy")))
        [kept] = store.load()
    finally:
        await store.close()
    assert kept.seats[1].seat.bot
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
