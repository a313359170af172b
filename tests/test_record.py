"""Tests for game records (sos_tui.engine.record): the JSON file format, its errors, and transcripts."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from sos_tui.engine import (
    COMPUTER_LEVELS,
    FORMAT,
    MAX_NAME,
    MAX_PLAYERS,
    VERSION,
    GameRecord,
    GameState,
    Mode,
    Move,
    PlayerInfo,
    RecordError,
    Termination,
    check_name,
    check_names,
    transcript,
)
from sos_tui.engine.clock import TimeControl

STARTED = "2024-05-01T12:00:00+00:00"
UPDATED = "2024-05-01T12:10:00+00:00"

ANN, BOB = PlayerInfo("Ann"), PlayerInfo("Bob")
# A finished 3x3 general game won by the second player, 0 to 1.
WON_BY_BOB = ["O c2", "S a2", "S a3", "S b1", "S b2", "S c1", "S a1", "S c3", "S b3"]


def record_of(moves, size=3, mode="general", players=(ANN, BOB)) -> GameRecord:
    state = GameState.from_moves(moves, size=size, mode=mode, players=len(players))
    return GameRecord(size, Mode(mode), tuple(players), state.moves, STARTED, UPDATED)


def valid_dict(**changes) -> dict:
    data = record_of(["S a1", "O b2", "S c3"]).to_dict()
    data.update(changes)
    return data


def load_error(data) -> str:
    """The message of the RecordError raised when loading ``data`` (a dict, or text as is)."""
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(text)
    return str(caught.value)


# -- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        record_of([]),
        record_of(["S a1", "O b2", "S c3"]),
        record_of(WON_BY_BOB),
        record_of(["S a1", "S c1", "S a3", "O b1"], size=5, mode="simple"),  # finished by the SOS
        record_of(
            ["S a1", "O b1", "S c1", "O d4", "S e5"],
            size=5,
            players=(ANN, PlayerInfo("Deep", "computer", "hard"), PlayerInfo("Eve", "computer", "easy")),
        ),
        record_of(["O a1"], size=26, players=(PlayerInfo("Zed", "computer"), ANN, BOB, PlayerInfo("Kim"))),
    ],
    ids=["empty", "unfinished", "finished-general", "finished-simple", "three-players", "four-on-26x26"],
)
def test_json_round_trip_gives_an_equal_record_and_state(record):
    loaded = GameRecord.from_json(record.to_json())
    assert loaded == record
    assert loaded.players == record.players
    assert loaded.mode is record.mode
    assert loaded.state == record.state
    assert loaded.to_json() == record.to_json()


def test_round_trip_from_bytes():
    record = record_of(WON_BY_BOB)
    assert GameRecord.from_json(record.to_json().encode("utf-8")) == record


def test_json_layout():
    record = record_of(
        ["S a1", "S c1", "O b1"],
        mode="simple",
        players=(ANN, PlayerInfo("Deep", "computer", "hard"), PlayerInfo("Eve", "computer")),
    )
    data = json.loads(record.to_json())
    assert data == {
        "format": "sos-game",
        "version": 1,
        "id": record.game_id,
        "size": 3,
        "mode": "simple",
        "players": [
            {"name": "Ann", "kind": "human"},
            {"name": "Deep", "kind": "computer", "level": "hard"},
            {"name": "Eve", "kind": "computer"},
        ],
        "moves": ["S a1", "S c1", "O b1"],
        "started": STARTED,
        "updated": UPDATED,
        "result": {"over": True, "scores": [0, 0, 1], "winners": [2], "text": "Eve wins"},
        "termination": "normal",
    }
    assert (FORMAT, VERSION) == ("sos-game", 1)
    assert record.to_json().endswith("}\n")


# -- result fields -----------------------------------------------------------------------------


def result(record: GameRecord) -> dict:
    return record.to_dict()["result"]


def test_result_of_an_unfinished_game():
    record = record_of(["S a1", "S c1", "O b1"])
    assert result(record) == {"over": False, "scores": [1, 0], "winners": [], "text": "unfinished"}
    assert record.result_text() == "unfinished"


def test_result_of_a_won_game():
    expected = {"over": True, "scores": [0, 1], "winners": [1], "text": "Bob wins"}
    assert result(record_of(WON_BY_BOB)) == expected


def test_result_of_a_draw_between_everyone():
    all_o = [f"O {c}{r}" for r in (1, 2, 3) for c in "abc"]
    record = record_of(all_o, players=(ANN, BOB, PlayerInfo("Cy")))
    assert result(record) == {"over": True, "scores": [0, 0, 0], "winners": [0, 1, 2], "text": "draw"}


def test_result_of_a_draw_between_some_players_names_them():
    moves = ["S a3", "O b3", "S c3", "S c2", "S a1", "S c1", "O a2", "S b1", "O b2"]
    record = record_of(moves, players=(ANN, BOB, PlayerInfo("Cy")))
    assert result(record) == {
        "over": True, "scores": [2, 0, 2], "winners": [0, 2], "text": "draw between Ann, Cy"}


def test_the_stored_result_is_recomputed_not_trusted():
    data = record_of(WON_BY_BOB).to_dict()
    data["result"] = {"over": False, "scores": [9, 9], "winners": [0], "text": "Ann wins"}
    loaded = GameRecord.from_dict(data)
    assert result(loaded)["text"] == "Bob wins"
    assert result(loaded)["scores"] == [0, 1]


# -- building records --------------------------------------------------------------------------


def test_for_state_names_default_seats_and_keeps_the_moves():
    state = GameState.from_moves(["S a1", "O b2"], size=4, players=3)
    record = GameRecord.for_state(state)
    assert record.players == (PlayerInfo("Player 1"), PlayerInfo("Player 2"), PlayerInfo("Player 3"))
    assert (record.size, record.mode, record.moves) == (4, Mode.GENERAL, state.moves)
    assert record.state == state
    assert record.started == record.updated and record.started.endswith("+00:00")


def test_for_state_keeps_a_given_start_time_and_checks_the_seat_count():
    state = GameState.new(size=3)
    assert GameRecord.for_state(state, [ANN, BOB], started=STARTED).started == STARTED
    with pytest.raises(ValueError, match="1 seats named for a 2-player game"):
        GameRecord.for_state(state, [ANN])


def test_with_state_moves_the_record_on_and_keeps_the_rest():
    record = record_of(["S a1"])
    later = GameState.from_moves(["S a1", "O b1", "S c1"], size=3)
    moved = record.with_state(later)
    assert moved.moves == later.moves
    assert moved.state == later
    assert (moved.players, moved.started, moved.size) == (record.players, STARTED, 3)
    assert moved.updated != UPDATED
    assert record.moves == (Move.parse("S a1"),)  # the record itself is unchanged


def test_player_info():
    bot = PlayerInfo("Deep", "computer", "hard")
    assert bot.is_computer and not ANN.is_computer
    assert bot.to_dict() == {"name": "Deep", "kind": "computer", "level": "hard"}
    assert ANN.to_dict() == {"name": "Ann", "kind": "human"}
    assert (bot.label, ANN.label, PlayerInfo("Eve", "computer").label) == ("Deep (hard)", "Ann", "Eve")


def test_missing_timestamps_load_as_empty_and_updated_defaults_to_started():
    data = valid_dict()
    del data["started"], data["updated"]
    assert (GameRecord.from_dict(data).started, GameRecord.from_dict(data).updated) == ("", "")
    data["started"] = STARTED
    assert GameRecord.from_dict(data).updated == STARTED


# -- errors ------------------------------------------------------------------------------------


def test_record_error_is_one_value_error_type():
    assert issubclass(RecordError, ValueError)
    with pytest.raises(ValueError):
        GameRecord.from_json("nope")


def test_invalid_json():
    assert "not a game record: the file is not valid JSON" in load_error("this is not json")


def test_empty_file():
    assert "not valid JSON" in load_error("")


def test_truncated_file():
    text = record_of(WON_BY_BOB).to_json()
    assert "not valid JSON" in load_error(text[: len(text) // 2])


def test_bytes_that_are_not_utf8():
    assert "not valid JSON" in load_error(b"\xff\xfe\xfa{")


def test_absurdly_nested_json():
    assert "not valid JSON" in load_error("[" * 100_000)


@pytest.mark.parametrize("text", ["[1, 2, 3]", '"sos-game"', "42", "null", "{}"])
def test_json_that_is_not_an_object_with_the_format(text):
    assert load_error(text) == 'not a game record: expected "format": "sos-game"'


def test_a_list_of_records_is_not_a_record():
    assert "not a game record" in load_error(json.dumps([valid_dict()]))


def test_a_foreign_format():
    assert "expected \"format\": \"sos-game\"" in load_error(valid_dict(format="chess-game"))


def test_a_newer_version_asks_for_an_update():
    message = load_error(valid_dict(version=VERSION + 1))
    assert "newer" in message
    assert "update sos-tui" in message
    assert "version 2" in message


@pytest.mark.parametrize("version", [None, "1", 1.0, True])
def test_a_version_that_is_not_a_whole_number(version):
    assert '"version" must be a whole number' in load_error(valid_dict(version=version))


def test_version_zero_is_unknown():
    assert load_error(valid_dict(version=0)) == "unknown game record version 0"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"size": "5"}, ['"size"', "'5'"]),
        ({"size": None}, ['"size"', "None"]),
        ({"size": True}, ['"size"', "True"]),
        ({"size": 2}, ["bad game settings", "board size must be a whole number from 3 to 26, not 2"]),
        ({"size": 27}, ["bad game settings", "not 27"]),
        ({"mode": "foo"}, ["bad game settings", "mode must be 'general' or 'simple', not 'foo'"]),
        ({"mode": 1}, ['"mode"', "1"]),
        ({"players": []}, ['"players" must hold 2 to 6 players, not 0']),
        ({"players": [{"name": "Ann"}]}, ['"players" must hold 2 to 6 players, not 1']),
        ({"players": "Ann, Bob"}, ['"players"', "'Ann, Bob'"]),
        ({"players": [{"name": "Ann"}, {"kind": "human"}]}, ['player 2 needs a "name"']),
        ({"players": [{"name": "Ann"}, {"name": "  "}]}, ['player 2 needs a "name"']),
        ({"players": [{"name": "Ann"}, "Bob"]}, ['player 2 needs a "name"']),
        ({"players": [{"name": "Ann", "kind": "robot"}, {"name": "Bob"}]},
         ["player 1 has unknown kind 'robot'"]),
        ({"players": [{"name": "Ann"}, {"name": "Bot", "kind": "computer", "level": 3}]},
         ['player 2 has a bad "level"']),
        ({"moves": "S a1"}, ['"moves"']),
        ({"started": 12}, ['"started"']),
    ],
)
def test_missing_or_bad_fields(changes, expected):
    message = load_error(valid_dict(**changes))
    for text in expected:
        assert text in message


@pytest.mark.parametrize("name", ["size", "mode", "players", "moves"])
def test_a_missing_field_is_named(name):
    data = valid_dict()
    del data[name]
    assert f'"{name}"' in load_error(data)


def test_a_move_that_is_not_notation_names_the_move_number():
    message = load_error(valid_dict(moves=["S a1", "O b2", "X b3"]))
    assert message.startswith("move 3 ('X b3'): ")
    assert "the letter must be S or O" in message


def test_a_move_that_is_not_a_string_names_the_move_number():
    assert load_error(valid_dict(moves=["S a1", 7])) == "move 2: expected notation like 'S b3', not 7"


def test_an_illegal_move_names_the_move_number_and_the_problem():
    message = load_error(valid_dict(moves=["S a1", "O b2", "S a1"]))
    assert message == "move 3 ('S a1'): cannot play S a1: a1 already holds S"


def test_a_move_off_the_board_names_the_move_number():
    message = load_error(valid_dict(moves=["S a1", "O d1"]))
    assert message.startswith("move 2 ('O d1'): ")
    assert "off the 3x3 board" in message


def test_a_move_after_the_game_ended_is_refused():
    message = load_error(valid_dict(mode="simple", moves=["S a1", "S c1", "O b1", "S c3"]))
    assert message == "move 4 ('S c3'): cannot play S c3: the game is already over"


# -- transcript --------------------------------------------------------------------------------


def test_transcript_of_a_finished_game():
    record = record_of(WON_BY_BOB, players=(ANN, PlayerInfo("Deep", "computer", "hard")))
    assert transcript(record) == (
        "SOS, general game, 3x3\n"
        "Players: 1. Ann, 2. Deep (computer, hard)\n"
        f"Started: {STARTED}\n"
        "\n"
        "1. Ann: O c2\n"
        "2. Deep: S a2\n"
        "3. Ann: S a3\n"
        "4. Deep: S b1\n"
        "5. Ann: S b2\n"
        "6. Deep: S c1\n"
        "7. Ann: S a1\n"
        "8. Deep: S c3  +1\n"
        "9. Deep: S b3\n"
        "\n"
        "  a b c\n"
        "1 S S S\n"
        "2 S S O\n"
        "3 S S S\n"
        "\n"
        "Scores: Ann 0, Deep 1\n"
        "Result: Deep wins\n"
    )


def test_transcript_shows_multi_point_moves_and_pads_move_numbers():
    # Ten moves, so numbers are right-aligned to two digits; the tenth completes two lines.
    moves = ["S a1", "S c1", "S a3", "S c3", "O e5", "S e1", "S e3", "O d5", "O c5", "O b2"]
    record = record_of(moves, size=5, players=(ANN, BOB, PlayerInfo("Cy")))
    lines = transcript(record).splitlines()
    assert lines[0] == "SOS, general game, 5x5"
    assert lines[1] == "Players: 1. Ann, 2. Bob, 3. Cy"
    assert lines[4] == " 1. Ann: S a1"
    assert lines[13] == "10. Ann: O b2  +2"
    assert "Scores: Ann 2, Bob 0, Cy 0" in lines
    assert lines[-1] == "Result: unfinished"


def test_transcript_of_a_simple_draw():
    moves = [f"O {c}{r}" for r in (1, 2, 3) for c in "abc"]
    text = transcript(record_of(moves, mode="simple"))
    assert text.startswith("SOS, simple game, 3x3\n")
    assert "\n  a b c\n1 O O O\n2 O O O\n3 O O O\n" in text
    assert text.endswith("Scores: Ann 0, Bob 0\nResult: draw\n")
    assert "  +" not in text  # no move scored


def test_transcript_of_an_empty_game():
    text = transcript(record_of([]))
    assert "\n\n\n  a b c\n1 . . .\n" in text  # no move lines between header and board
    assert text.endswith("Result: unfinished\n")


# -- the game id -------------------------------------------------------------------------------


def test_a_new_record_gets_a_fresh_id_that_with_state_and_saving_keep():
    first, second = record_of([]), record_of([])
    assert len(first.game_id) == 32 and int(first.game_id, 16) >= 0
    assert first.game_id != second.game_id
    moved = first.with_state(GameState.from_moves(["S a1"], size=3))
    assert moved.game_id == first.game_id
    assert GameRecord.from_json(moved.to_json()).game_id == first.game_id
    assert json.loads(first.to_json())["id"] == first.game_id


def test_for_state_makes_an_id_or_keeps_the_one_given():
    state = GameState.new(size=3)
    assert GameRecord.for_state(state).game_id != GameRecord.for_state(state).game_id
    assert GameRecord.for_state(state, game_id="abc123").game_id == "abc123"


def test_an_old_file_without_an_id_always_maps_to_the_same_game():
    data = valid_dict()
    del data["id"]
    one, two = GameRecord.from_dict(data), GameRecord.from_dict(json.loads(json.dumps(data)))
    assert one.game_id == two.game_id and len(one.game_id) == 32
    data["moves"] = ["S a1"]  # the same game, moved on: still the same id
    assert GameRecord.from_dict(data).game_id == one.game_id
    other = dict(data, players=[{"name": "Ann"}, {"name": "Cy"}])
    assert GameRecord.from_dict(other).game_id != one.game_id
    assert GameRecord.from_dict(dict(data, started="2024-05-02T12:00:00+00:00")).game_id != one.game_id


@pytest.mark.parametrize("game_id", ["", "../../etc/passwd", "a" * 65, 7, None, "x y"])
def test_a_bad_id_is_refused_by_name(game_id):
    assert '"id"' in load_error(valid_dict(id=game_id))


# -- names, seats and levels -------------------------------------------------------------------


def test_the_limits():
    assert (MAX_PLAYERS, MAX_NAME) == (6, 24)
    assert COMPUTER_LEVELS == ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize("name", ["Ann", "  Zoë  ", "李小龙", "a" * 24, "Ann 🙂", "x[/b]", "[b red]x[/]"])
def test_good_names_are_trimmed(name):
    assert check_name(name) == name.strip()


@pytest.mark.parametrize(("name", "rule"), [
    ("", "cannot be empty"),
    ("   ", "cannot be empty"),
    ("a" * 25, "at most 24 characters, not 25"),
    ("x" * 100_000, "at most 24 characters, not 100000"),
    ("Ann\x1b[31m", "a control character (\\x1b)"),
    ("Ann\nBo", "a control character (\\x0a)"),
    ("\u202eevil", "an invisible formatting character (\\u202e)"),
    ("x\u200dy", "an invisible formatting character (\\u200d)"),
    ("An\udce9", "a lone surrogate (\\udce9)"),
    ("\ue000x", "a private-use character (\\ue000)"),
    ("\U000e0000x", "an unassigned character"),
    ("a\u2028b", "a line break (\\u2028)"),
])
def test_bad_names_say_which_rule_they_break(name, rule):
    with pytest.raises(ValueError) as caught:
        check_name(name)
    assert rule in str(caught.value)
    assert "\x1b" not in str(caught.value) and len(str(caught.value)) < 120


def test_names_in_a_game_must_differ_ignoring_case():
    assert check_names([" Ann", "Bo "]) == ("Ann", "Bo")
    with pytest.raises(ValueError, match="two players are called 'ann'"):
        check_names(["Ann", "Bo", "ann"])


@pytest.mark.parametrize(("players", "says"), [
    ([{"name": f"P{i}"} for i in range(7)], '"players" must hold 2 to 6 players, not 7'),
    ([{"name": f"P{i}"} for i in range(40)], "not 40"),
    ([{"name": "Ann"}], "not 1"),
    ([{"name": "Ann"}, {"name": "ANN"}], "two players are called 'ANN'"),
    ([{"name": "Ann"}, {"name": "x" * 100_000}], 'player 2 "name": a name can be at most 24'),
    ([{"name": "Ann"}, {"name": "B\ud800"}], 'player 2 "name": a name cannot hold a lone surrogate'),
    ([{"name": "Ann"}, {"name": "B\x1b]0;pwned\x07"}], 'player 2 "name": a name cannot hold a control'),
    ([{"name": "Ann"}, {"name": "Bot", "kind": "computer", "level": "godlike"}],
     "player 2 \"level\" is unknown: 'godlike' (choose easy, medium, hard, expert)"),
])
def test_bad_seats_in_a_file_are_record_errors_naming_the_field(players, says):
    message = load_error(valid_dict(players=players))
    assert says in message
    assert "\x1b" not in message and len(message) < 200


def test_a_lone_surrogate_read_from_json_text_is_refused():
    text = record_of([]).to_json().replace('"Bob"', '"B\\udce9"')
    assert "lone surrogate" in load_error(text)


def test_names_in_a_file_are_trimmed_and_levels_lowercased():
    data = valid_dict(players=[{"name": " Ann "}, {"name": "Bot", "kind": "computer", "level": "Hard"}])
    assert GameRecord.from_dict(data).players == (ANN, PlayerInfo("Bot", "computer", "hard"))


def test_the_transcript_shows_names_as_data():
    evil = PlayerInfo("\u202eBo[b]")
    record = record_of(WON_BY_BOB, players=(PlayerInfo("Ann"), evil))
    record = GameRecord(3, Mode.GENERAL, (PlayerInfo("A\x1b[2J"), evil), record.moves)  # built, not loaded
    text = transcript(record)
    assert "\x1b" not in text and "\u202e" not in text
    assert "A\\x1b[2J" in text and "\\u202eBo[b] wins" in text


def test_to_dict_with_the_replayed_state_gives_the_same_object_without_replaying():
    from sos_tui.engine import GameRecord, Mode, Move, PlayerInfo

    record = GameRecord(3, Mode.GENERAL, (PlayerInfo("Ana"), PlayerInfo("Bo")),
                        tuple(Move.parse(m) for m in ("S a1", "O b1", "S c1")))
    assert record.to_dict(record.state) == record.to_dict()
    other = GameRecord(3, Mode.GENERAL, record.players).state  # not this record's position: ignored
    assert record.to_dict(other) == record.to_dict()


def test_a_record_made_from_a_state_keeps_it_and_a_changed_record_replays():
    state = GameState.from_moves(["S a1", "O b1", "S c1"], 3)
    record = GameRecord.for_state(state).with_state(state)
    assert record.state is state  # saving it on every move replays nothing
    shorter = replace(record, moves=record.moves[:2])
    assert shorter.state.moves == record.moves[:2] and shorter.state.scores == (0, 0)
    assert record.state.scores == (1, 0)
    assert record == replace(record, _state=None)  # the kept state is no part of the record's value


# -- timed games: the time control and each move's time -----------------------------------------


def timed(moves=("S a1", "O b2", "S c3"), clock="5+3", spent=(1200, 800, 4_000)) -> GameRecord:
    return replace(record_of(list(moves)), clock=TimeControl.parse(clock), spent_ms=tuple(spent))


@pytest.mark.parametrize("clock", ["5+3", "0.5+0", "2d"])
def test_a_timed_record_keeps_its_clock_and_each_moves_time(clock):
    record = timed(clock=clock)
    data = json.loads(record.to_json())
    assert (data["clock"], data["spent_ms"]) == (clock, [1200, 800, 4_000])
    loaded = GameRecord.from_json(record.to_json())
    assert loaded == record and str(loaded.clock) == clock and loaded.spent_ms == (1200, 800, 4_000)


def test_a_stored_clock_may_be_its_dict():
    record = timed()
    data = record.to_dict()
    data["clock"] = {"initial_ms": 300_000, "increment_ms": 3_000}
    assert GameRecord.from_dict(data) == record


def test_an_untimed_record_has_no_clock_fields_and_old_records_load_unchanged():
    record = record_of(["S a1", "O b2"])
    data = record.to_dict()
    assert "clock" not in data and "spent_ms" not in data
    loaded = GameRecord.from_dict(data)
    assert loaded == record and (loaded.clock, loaded.spent_ms) == (None, None)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"clock": "5+"}, 'bad game record: "clock": the increment is missing after'),
        ({"clock": "-1+0"}, 'bad game record: "clock": the minutes cannot be negative'),
        ({"clock": 5}, 'bad game record: "clock": expected a time control'),
        ({"clock": None}, 'bad game record: "clock": expected a time control'),
        ({"clock": {"days": 4}}, 'bad game record: "clock": days per move must be one of 1, 2, 3, 7'),
        ({"spent_ms": [1, 2]}, '"spent_ms" must list the milliseconds each of the 3 moves took, not [1, 2]'),
        ({"spent_ms": [1, 2, -3]}, '"spent_ms" must list'),
        ({"spent_ms": [1, 2, 3.5]}, '"spent_ms" must list'),
        ({"spent_ms": [1, 2, True]}, '"spent_ms" must list'),
        ({"spent_ms": [1, 2, 10**12]}, '"spent_ms" must list'),
        ({"spent_ms": "1,2,3"}, '"spent_ms" must list'),
        ({"spent_ms": None}, '"spent_ms" must list'),
    ],
)
def test_a_bad_clock_in_a_file_is_a_record_error(changes, expected):
    data = timed().to_dict()
    data.update(changes)
    assert expected in load_error(data)


def test_a_clock_without_move_times_or_times_without_a_clock_are_record_errors():
    data = timed().to_dict()
    del data["spent_ms"]
    assert '"spent_ms" must list' in load_error(data)
    data = timed().to_dict()
    del data["clock"]
    assert 'bad game record: "clock": expected a time control' in load_error(data)


def test_a_timed_record_moved_back_keeps_the_times_of_the_moves_left_and_moved_on_needs_them():
    record = timed()
    back = record.with_state(GameState.from_moves(["S a1"], 3))
    assert back.spent_ms == (1200,) and back.clock == record.clock
    on = back.with_state(GameState.from_moves(["S a1", "O c1"], 3), spent_ms=(1200, 5))
    assert on.spent_ms == (1200, 5)
    with pytest.raises(ValueError, match="time spent on each move"):
        back.with_state(GameState.from_moves(["S a1", "O c1"], 3))
    assert record_of([]).with_state(GameState.from_moves(["S a1"], 3)).spent_ms is None
# -- how it ended: termination and drops --------------------------------------------------------
CY = PlayerInfo("Cy")


def test_a_resigned_game_round_trips_with_its_termination_and_drops():
    state = GameState.from_moves(["S a1", "O b2"], size=4, players=3).drop(1, "resign")
    state = state.play(Move.parse("S c3")).drop(2, "time")
    record = GameRecord.for_state(state, (ANN, BOB, CY))
    data = record.to_dict()
    assert data["termination"] == "time"
    assert data["drops"] == [{"seat": 1, "why": "resign", "after": 2}, {"seat": 2, "why": "time", "after": 3}]
    loaded = GameRecord.from_json(record.to_json())
    assert loaded == record and loaded.state == state and loaded.termination is Termination.TIME
    assert loaded.result_text() == "Ann wins"
    assert loaded.ending_text() == "Bob resigned; Ann won on time"
    assert "Ended: Bob resigned; Ann won on time" in transcript(loaded)


@pytest.mark.parametrize(("termination", "text", "result"), [
    ("agreement", "drawn by agreement", "draw"),
    ("abort", "aborted", "aborted"),
])
def test_a_game_ended_by_hand_round_trips(termination, text, result):
    state = GameState.from_moves(["S a1"], size=3).end(termination)
    record = GameRecord.for_state(state, (ANN, BOB))
    loaded = GameRecord.from_json(record.to_json())
    assert loaded.state == state and loaded.to_dict()["termination"] == termination
    assert loaded.ending_text() == text and loaded.result_text() == result


def test_older_records_load_as_ordinary_games():
    data = record_of(WON_BY_BOB).to_dict()
    del data["termination"]
    loaded = GameRecord.from_dict(data)
    assert loaded.termination is Termination.NORMAL and loaded.drops == () and loaded.ending_text() == ""
    running = valid_dict()
    assert "termination" not in running and "drops" not in running
    assert GameRecord.from_dict(running).termination is None


@pytest.mark.parametrize(("changes", "message"), [
    ({"termination": "surrender"}, 'unknown "termination" \'surrender\''),
    ({"termination": 3}, 'unknown "termination" 3'),
    ({"termination": "resign"}, '"termination" is resign, but its moves and drops end the game otherwise'),
    ({"drops": "Bob"}, '"drops" must be a list'),
    ({"drops": [{"seat": 5, "why": "resign", "after": 1}]}, "drop 1 must name a seat (0 to 1)"),
    ({"drops": [{"seat": 1, "why": "agreement", "after": 1}]}, "drop 1 must name a seat"),
    ({"drops": [{"seat": 1, "why": "resign", "after": 9}]}, "drop 1 must name a seat"),
    ({"drops": [{"seat": 1, "why": "resign", "after": 1}]}, "move 2 ('O b2'): cannot play O b2: the game is "
                                                           "already over"),
])
def test_a_bad_ending_in_a_file_is_a_clear_error(changes, message):
    assert message in load_error(valid_dict(**changes))
