"""The seat tokens kept in the data folder (``net-seats.json``): by game address and by whose they
are, so a host's own seats and a joiner's seat in one data folder (one person at two terminals,
``sos-tui web`` tabs that host and join each other) never take each other's place; old files read
and migrated, corrupt or foreign ones read as no token; lock files pruned with their tokens."""

from __future__ import annotations

import json

import pytest

from sos_tui.net import tokens as tokens_module
from sos_tui.net.tokens import SeatKey, TokenStore

URL = "ws://127.0.0.1:7531/7f3kq-x9m2c"
HOST = SeatKey.host(URL)
BO = SeatKey.player(URL, "Bo")


def test_a_hosts_own_seats_and_a_joiners_seat_at_one_address_keep_their_own_tokens(tmp_path):
    path = tmp_path / "net-seats.json"
    host, joiner = TokenStore(path), TokenStore(path)  # two terminals, one data folder
    host.keep(HOST, "host-token")
    joiner.keep(BO, "bo-token")  # the joiner's welcome came last
    host.keep(HOST, "host-token")  # and the host's again (it reconnected)
    again = TokenStore(path)  # both restarted
    assert again.find(HOST) == "host-token"
    assert again.find(BO) == "bo-token"
    assert again.find(SeatKey.player(URL, "bo")) == "bo-token"  # names as the room compares them
    assert again.find(SeatKey.player(URL, "Cy")) is None  # someone else joins as someone else
    assert again.find(SeatKey.host("ws://127.0.0.1:7531/aaaaa-bbbbb")) is None
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert (saved["format"], saved["version"]) == ("sos-tui-seats", 2)
    assert sorted((s["role"], s["name"], s["token"]) for s in saved["seats"]) == [
        ("host", None, "host-token"), ("player", "bo", "bo-token")]


def test_a_seat_played_by_another_process_is_not_offered_and_the_others_are(tmp_path):
    path = tmp_path / "net-seats.json"
    playing = TokenStore(path)
    playing.keep(BO, "bo-token")
    playing.keep(HOST, "host-token")
    playing.hold(BO)  # Bo's terminal plays that seat now
    other = TokenStore(path)
    assert other.in_use(BO) and other.find(BO) is None
    assert other.find(HOST) == "host-token"
    playing.release(BO)  # the terminal closed (or crashed: the lock goes with the process)
    assert not other.in_use(BO) and other.find(BO) == "bo-token"


def test_a_file_of_the_first_format_is_read_then_migrated_by_whoever_gets_its_seat_back(tmp_path):
    path = tmp_path / "net-seats.json"
    path.write_text(json.dumps({"format": "sos-tui-seats", "version": 1, "seats": {
        URL: {"token": "old-token", "saved": 5.0},
        "ws://127.0.0.1:7531/aaaaa-bbbbb": {"token": "other-token", "saved": 6.0}}}), encoding="utf-8")
    store = TokenStore(path)
    # whose it was is not known: offered to whoever asks at that address, until one keeps it
    assert store.find(HOST) == store.find(BO) == "old-token"
    store.keep(BO, "old-token")  # the server seated Bo with it: it is Bo's
    again = TokenStore(path)
    assert again.find(BO) == "old-token" and again.find(HOST) is None
    assert again.find(SeatKey.player("ws://127.0.0.1:7531/aaaaa-bbbbb", "Ann")) == "other-token"
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == 2 and sorted(s["role"] for s in saved["seats"]) == ["player", "unknown"]


@pytest.mark.parametrize("content", [
    b"\xff\xfe\x00garbage", b"", b"[]", b"null", b"{\"seats\": 7}", b"[" * 100_000,
    json.dumps({"format": "someone-elses", "version": 2, "seats": [
        {"address": URL, "role": "host", "token": "theirs", "saved": 1}]}).encode(),
    json.dumps({"format": "sos-tui-seats", "version": 2, "seats": [
        7, "x", None, {"address": 5}, {"address": URL, "role": "king", "token": "t"},
        {"address": URL, "role": "host", "token": "x" * 500}, {"address": URL, "role": "host", "token": 9},
        {"address": URL, "role": "player", "name": ["Bo"], "token": "t"}]}).encode(),
    json.dumps({"format": "sos-tui-seats", "version": 1, "seats": {URL: "t", "x": {"token": []}}}).encode(),
])
def test_a_corrupt_or_foreign_file_holds_no_token_and_the_next_one_kept_replaces_it(tmp_path, content):
    path = tmp_path / "net-seats.json"
    path.write_bytes(content)
    store = TokenStore(path)
    assert store.find(HOST) is None and store.find(BO) is None
    store.keep(BO, "bo-token")
    assert TokenStore(path).find(BO) == "bo-token"


def test_a_folder_in_place_of_the_file_and_no_file_at_all_keep_tokens_in_no_file(tmp_path):
    (tmp_path / "net-seats.json").mkdir()
    store = TokenStore(tmp_path / "net-seats.json")
    store.keep(HOST, "host-token")  # cannot be written: not kept, and nothing is raised
    assert store.find(HOST) is None
    memory = TokenStore()  # no data folder: kept in memory
    memory.keep(HOST, "host-token")
    memory.keep(BO, "bo-token")
    assert (memory.find(HOST), memory.find(BO)) == ("host-token", "bo-token")


def test_the_oldest_tokens_go_with_their_lock_files_but_not_a_lock_still_held(tmp_path, monkeypatch):
    monkeypatch.setattr(tokens_module, "MAX_TOKENS", 2)
    path = tmp_path / "net-seats.json"
    locks = tmp_path / "net-seats.json.locks"
    first, second = TokenStore(path), TokenStore(path)
    keys = [SeatKey.player(f"ws://127.0.0.1:7531/aaaaa-bbbb{n}", "Bo") for n in range(4)]
    first.keep(keys[0], "t0")
    first.hold(keys[0])  # still played, by the first process
    second.keep(keys[1], "t1")
    second.hold(keys[1])
    second.release(keys[1])
    (locks / "0123456789abcdef0123456789abcdef").write_text("")  # a lock file of no token
    assert len(list(locks.iterdir())) == 3
    second.keep(keys[2], "t2")
    second.keep(keys[3], "t3")  # two kept at most: the first two tokens are forgotten
    assert [second.find(k) for k in keys] == [None, None, "t2", "t3"]
    assert sorted(p.name for p in locks.iterdir()) == [keys[0].lock_name]  # held: left alone
    first.release(keys[0])
    second.keep(keys[3], "t3")
    assert list(locks.iterdir()) == []
