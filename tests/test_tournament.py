"""``sos-tui tournament``: round robin and Swiss pairings with balanced first moves, standings
with Sonneborn-Berger and Buchholz, a crosstable, results kept as each game ends so that an
interrupted tournament resumes to the same end, engines that forfeit, and one-line errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from sos_tui.ai import tournament as api
from sos_tui.ai.tournament import Pairing, Played, Standings, Tournament
from sos_tui.cli import main

from .support.helpers import alive, children, ctrl_c_works, until

ENGINES = Path(__file__).parent / "engines"
RAND = f"engine:{sys.executable} {ENGINES / 'rand.py'}"
QUICK = ["--size", "3", "--games-per-pair", "2"]


def firsts(tournament: Tournament) -> Counter:
    return Counter(p.a if p.game % 2 == 0 else p.b for p in tournament.pairings([]))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_round_robin_pairs_everyone_with_everyone_with_first_moves_balanced(n):
    entrants = ("easy", "medium", "hard", "expert", "outside:greedy", "outside:negamax2")[:n]
    for games in (1, 2):
        t = Tournament("round-robin", entrants, size=3, games_per_pair=games)
        pairs = Counter(frozenset((p.a, p.b)) for p in t.pairings([]))
        assert pairs == {frozenset(pair): games for pair in combinations(range(n), 2)}
        assert len(t.pairings([])) == t.planned
        counts = firsts(t)
        assert max(counts.values()) - min(counts.get(i, 0) for i in range(n)) <= 1


def test_a_swiss_tournament_avoids_rematches_and_rotates_the_bye():
    t = Tournament(
        "swiss",
        ("easy", "medium", "hard", "outside:greedy", "outside:negamax2"),
        size=3,
        games_per_pair=1,
        rounds=4,
    )
    games = list(api.run(t))
    assert len(games) == t.planned == 8
    met = Counter(frozenset((g.pairing.a, g.pairing.b)) for g in games)
    assert max(met.values()) == 1  # nobody met twice
    table = Standings(t, games)
    assert sorted(table.byes) == [0, 1, 1, 1, 1]  # four rounds, four different entrants rested


def played(a, b, result, number, round_=1):
    return Played(Pairing(number, round_, a, b, 0), result, (0, 0))


def test_sonneborn_berger_and_buchholz_break_ties_as_fide_counts_them():
    # A beats B, B beats C, C draws A: A 1.5, B 1, C 0.5
    games = [played(0, 1, 1.0, 0), played(1, 2, 1.0, 1, 2), played(2, 0, 0.5, 2, 3)]
    rr = Standings(Tournament("round-robin", ("easy", "medium", "hard"), games_per_pair=1), games)
    assert rr.points == [1.5, 1.0, 0.5]
    assert rr.tie_break == [1 * 1.0 + 0.5 * 0.5, 1 * 0.5, 0.5 * 1.5]
    assert [row["crosstable"] for row in rr.rows()] == [[None, 1.0, 0.5], [0.0, None, 1.0], [0.5, 0.0, None]]
    swiss = Standings(Tournament("swiss", ("easy", "medium", "hard"), games_per_pair=1, rounds=2), games)
    assert swiss.byes == [1, 1, 1] and swiss.points == [2.5, 2.0, 1.5]  # a bye scores a win
    assert swiss.tie_break == [2.0 + 1.5, 2.5 + 1.5, 2.0 + 2.5]  # the points of the two met


def test_each_entrant_is_rated_from_the_tournaments_games_in_their_order():
    # A beats B twice and C once; B beats C twice; C draws A once; D has not played yet
    games = [played(0, 1, 1.0, 0), played(1, 2, 1.0, 1), played(0, 2, 1.0, 2), played(1, 0, 0.0, 3),
             played(2, 1, 0.0, 4), played(2, 0, 0.5, 5)]
    rows = Standings(Tournament("round-robin", ("easy", "medium", "hard", "expert"), games_per_pair=2),
                     games).rows()
    rated = {row["entrant"]: row for row in rows}
    assert rated["easy"]["rating"] > rated["medium"]["rating"] > rated["hard"]["rating"]
    assert all(rated[name]["provisional"] and rated[name]["deviation"] > 0 for name in ("easy", "medium"))
    assert (rated["expert"]["rating"], rated["expert"]["provisional"]) == (None, None)
    shuffled = Standings(Tournament("round-robin", ("easy", "medium", "hard", "expert"), games_per_pair=2),
                         games[::-1]).rows()
    assert [row["rating"] for row in shuffled] == [row["rating"] for row in rows]  # by game number


def tournament_cli(*args: str) -> list[str]:
    return [
        "tournament",
        "--format",
        "round-robin",
        "--entrants",
        "easy,medium,outside:greedy",
        *QUICK,
        *args,
    ]


def test_an_interrupted_tournament_resumes_to_the_same_results(tmp_path, monkeypatch, capsys):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert main(tournament_cli("--out", str(whole), "--json", "--seed", "3")) == 0
    uninterrupted = json.loads(capsys.readouterr().out)
    real, calls = Tournament.play, []

    def stopped_at_the_fourth(self, pairing):
        calls.append(pairing)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(self, pairing)

    monkeypatch.setattr(Tournament, "play", stopped_at_the_fourth)
    assert main(tournament_cli("--out", str(cut), "--json", "--seed", "3")) == 130
    assert "interrupted after 3 of 6 games; run the same command to resume" in capsys.readouterr().err
    assert len(cut.read_text().splitlines()) == 1 + 3
    with cut.open("a") as out:
        out.write('{"number": 3, "rou')  # a line cut short by the interruption
    monkeypatch.setattr(Tournament, "play", real)
    assert main(tournament_cli("--out", str(cut), "--json", "--seed", "3")) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert cut.read_text() == whole.read_text()
    assert resumed["standings"] == uninterrupted["standings"] and resumed["games"] == 6


def test_the_standings_and_the_crosstable_are_printed(capsys):
    assert main(tournament_cli()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1/6, round 1: ")
    assert out[6] == "Round robin: 3 entrants, 3x3 general, 6 of 6 games, seed 0"
    assert out[7].split() == ["#", "Entrant", "Points", "SB", "W", "D", "L", "Rating"]
    assert out[11] == "Crosstable (points against each, by rank):"
    table = [line.split() for line in out[13:16]]
    assert [row[0] for row in table] == ["1", "2", "3"]
    assert [row[2 + rank] for rank, row in enumerate(table)] == ["x", "x", "x"]  # no one plays themself
    points = {row[1]: float(row[2]) for row in (line.split() for line in out[8:11])}
    for row in table:  # a row adds up to the entrant's points (no byes in a round robin)
        assert sum(float(cell) for cell in row[2:] if cell != "x") == points[row[1]]


def test_an_engine_entrant_that_misbehaves_loses_its_games_with_the_reason_kept(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    crash = f"engine:{sys.executable} {ENGINES / 'misbehave.py'} crash"
    assert (
        main(
            [
                "tournament",
                "--format",
                "round-robin",
                "--entrants",
                f"easy,{RAND},{crash}",
                *QUICK,
                "--out",
                str(out),
                "--time-limit",
                "0.2",
            ]
        )
        == 0
    )
    games = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    forfeits = [g for g in games if g["forfeit"] is not None]
    assert len(forfeits) == 4 and all(
        g["forfeit"] == 2 and "stopped (exit status 1)" in g["reason"] for g in forfeits
    )
    text = capsys.readouterr().out
    assert "loses by forfeit: engine Misbehave crash stopped (exit status 1)" in text
    assert [pid for pid in children(os.getpid()) if alive(pid) and "tests/engines" in _cmdline(pid)] == []


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--entrants", "easy,engine:"], "engine:: the engine command is empty"),
        (
            ["--entrants", "easy,engine:no-such-engine-anywhere"],
            "engine:no-such-engine-anywhere: engine no-such-engine-anywhere could not start: No such file",
        ),
        (["--entrants", "easy,medium,Easy"], "'easy' is entered twice"),
        (
            ["--entrants", "easy,medium", "--games-per-pair", "0"],
            "--games-per-pair must be from 1 to 100,000, not 0",
        ),
        (["--entrants", "easy,grandmaster"], "unknown entrant 'grandmaster'"),
        (["--entrants", "easy,medium", "--rounds", "1"], "--rounds is for a Swiss tournament"),
        (["--entrants", "easy"], "a tournament needs 2 to 64 entrants, not 1"),
    ],
)
def test_bad_input_is_a_one_line_error(args, error, capsys):
    assert main(["tournament", "--format", "round-robin", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sos-tui tournament: ") and error in err and err.count("\n") == 1


def test_another_tournaments_results_file_is_refused(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(tournament_cli("--out", str(out))) == 0
    before = out.read_text()
    capsys.readouterr()
    assert main(tournament_cli("--out", str(out), "--seed", "9")) == 2
    assert "holds the results of another tournament" in capsys.readouterr().err
    (tmp_path / "notes.txt").write_text("my notes\n")
    assert main(tournament_cli("--out", str(tmp_path / "notes.txt"))) == 2
    assert "is not a tournament's results file" in capsys.readouterr().err
    assert out.read_text() == before and (tmp_path / "notes.txt").read_text() == "my notes\n"


def test_ctrl_c_stops_a_tournament_and_its_engine_at_once(tmp_path):
    hang = f"engine:{sys.executable} {ENGINES / 'misbehave.py'} hang"
    out = tmp_path / "r.jsonl"
    process = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("sos-tui")),
            "tournament",
            "--format",
            "round-robin",
            "--entrants",
            f"easy,{hang}",
            "--size",
            "3",
            "--time-limit",
            "30",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=ctrl_c_works,
    )
    try:
        deadline, engines = time.monotonic() + 20, []
        while not engines and time.monotonic() < deadline:  # a bound for a stuck test only
            if out.exists():  # past the check of the entrants: the first game's engine
                engines = [pid for pid in children(process.pid) if "misbehave" in _cmdline(pid)]
            time.sleep(0.02)
        assert engines
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 130 and b"interrupted after 0 of 2 games" in err
    until(lambda: not alive(engines[0]), "the engine to end")  # killed with its group: gone a moment later


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.parametrize("form", ["round-robin", "swiss"])
def test_a_tournament_resumed_after_any_game_plays_the_same_games(form):
    t = Tournament(
        form,
        ("easy", "medium", "outside:greedy", "outside:negamax3", "outside:negamax2"),
        size=3,
        games_per_pair=1,
        rounds=3 if form == "swiss" else None,
        seed=5,
    )
    games = list(api.run(t))
    assert len(games) == t.planned
    for cut in range(len(games)):
        assert list(api.run(t, games[:cut])) == games[cut:]
