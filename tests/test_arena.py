"""The arena: its pure API (ai/arena.py) and the `sos-tui arena` command, stopped by signals."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sos_tui.ai.arena import Match, Tally, play_game, run
from sos_tui.ai.ladder import Ladder
from sos_tui.cli import main

from .support.helpers import alive, children, ctrl_c_works, until


def test_a_match_runs_game_by_game_and_tallies():
    match = Match("medium", "easy", size=4, games=4, seed=1)
    games = list(run(match))
    assert [g.number for g in games] == [0, 1, 2, 3] and [g.a_first for g in games] == [True, False] * 2
    assert games[2][:4] == play_game(match, 2)[:4]  # a game depends only on its number (not times)
    tally = Tally(match)
    for game in games:
        tally.add(game)
    summary = tally.summary()
    assert summary["games"] == 4 == summary["wins"] + summary["draws"] + summary["losses"]
    low, high = summary["ci95"]
    assert low <= summary["score_rate"] <= high
    assert json.loads(json.dumps(summary)) == summary


def test_two_jobs_play_the_same_games():
    match = Match("medium", "easy", size=3, games=4, seed=2)
    assert sorted(g[:4] for g in run(match, jobs=2)) == [g[:4] for g in run(match)]


def test_a_run_of_chosen_games_plays_those_games_of_the_match():
    match = Match("medium", "easy", size=3, games=6, seed=3)
    whole = {g.number: g[:4] for g in run(match)}
    assert [g[:4] for g in run(match, numbers=[4, 1])] == [whole[4], whole[1]]
    assert sorted(g[:4] for g in run(match, jobs=2, numbers=[5, 0, 2])) == [whole[0], whole[2], whole[5]]


# the benchmarks' ladder: subprocesses that play whole games (3-5 s); the arena's own tests cover its games
# by default
@pytest.mark.slow
def test_the_ladder_resumes_a_recorded_row_and_refuses_other_code(tmp_path):
    ladder = [sys.executable, str(Path(__file__).parent.parent / "benchmarks" / "ladder.py"),
              "--record", str(tmp_path), "medium:easy:3:simple"]
    first = subprocess.run([*ladder, "--games", "3"], capture_output=True, text=True, check=True)
    assert "| medium vs easy | 3x3 simple | 3 |" in first.stdout
    record = tmp_path / "medium-easy-3-simple-s1.jsonl"
    assert [json.loads(line)["number"] for line in record.read_text().splitlines()[1:]] == [0, 1, 2]
    whole = subprocess.run([*ladder, "--games", "5"], capture_output=True, text=True, check=True)
    assert [json.loads(line)["number"] for line in record.read_text().splitlines()[1:]] == [0, 1, 2, 3, 4]
    fresh = subprocess.run([*ladder[:3], str(tmp_path / "fresh"), ladder[4], "--games", "5"],
                           capture_output=True, text=True, check=True)
    row = whole.stdout.splitlines()[-1].split("|")[:6]
    assert row == fresh.stdout.splitlines()[-1].split("|")[:6]  # the same games, results and rate
    with record.open("a") as out:  # a run stopped while it wrote game 5
        out.write('{"number": 5, "a_fi')
    cut = subprocess.run([*ladder, "--games", "6"], capture_output=True, text=True, check=True)
    assert "| medium vs easy | 3x3 simple | 6 |" in cut.stdout
    assert [json.loads(line)["number"] for line in record.read_text().splitlines()[1:]] == [0, 1, 2, 3, 4, 5]
    lines = record.read_text().splitlines()
    record.write_text("\n".join([json.dumps({"code": "elsewhere"}), *lines[1:]]) + "\n")
    refused = subprocess.run([*ladder, "--games", "7"], capture_output=True, text=True)
    assert refused.returncode == 1 and "recorded with other code" in refused.stderr
    assert len(record.read_text().splitlines()) == 7  # nothing added


def test_arena_prints_each_game_and_the_report(capsys):
    assert main(["arena", "medium", "easy", "--size", "4", "--games", "4", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\ngame ") + out.startswith("game ") == 4 and "game 4: medium second" in out
    assert "medium: " in out and "wins" in out and "draws" in out and "losses" in out
    assert "score rate" in out and "95% CI" in out
    assert "medium (A) seconds per move: median" in out and "easy (B)" in out
    assert err == ""  # no progress bar unless stderr is a terminal


def test_arena_json_is_one_object(capsys):
    assert main(["arena", "easy", "medium", "--size", "3", "--games", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["level_a"] == "easy" and summary["interrupted"] is False


def test_a_ladder_plays_every_pair_round_by_round():
    ladder = Ladder(size=3, games=2)
    pairs = [(m.level_a, m.level_b) for m in ladder.matches()]
    assert pairs == [("easy", "medium"), ("easy", "hard"), ("easy", "expert"), ("medium", "hard"),
                     ("medium", "expert"), ("hard", "expert")]
    assert [number for _match, number in ladder.schedule()] == [0] * 6 + [1] * 6


def _ladder(argv, capsys) -> dict:
    assert main(["arena", "--ladder", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_ladder_prints_four_ratings_easy_last(capsys):
    report = _ladder(["--size", "3", "--games", "2"], capsys)
    assert report["games"] == 12 and report["interrupted"] is False
    levels = [row["level"] for row in report["ratings"]]
    assert sorted(levels) == ["easy", "expert", "hard", "medium"] and levels[-1] == "easy"
    ratings = [row["rating"] for row in report["ratings"]]
    assert ratings == sorted(ratings, reverse=True) and all(isinstance(r, int) for r in ratings)
    assert all(row["games"] == 6 for row in report["ratings"])


def test_the_ladder_prints_a_table(capsys):
    assert main(["arena", "--ladder", "--size", "3", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ladder: 3x3 general, 1 game a pair, seed 0: 6 played\n")
    assert out.splitlines()[1].split() == ["Level", "Rating", "±", "Games", "W/D/L"]
    assert len(out.splitlines()) == 7  # the line, headings, rule and four levels


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["general", "simple"])
def test_the_ladder_orders_the_levels_on_4x4(mode, capsys):
    report = _ladder(["--size", "4", "--games", "10", "--mode", mode], capsys)
    rating = {row["level"]: row["rating"] for row in report["ratings"]}
    assert rating["easy"] < rating["medium"] < rating["hard"] <= rating["expert"]


@pytest.mark.parametrize("argv", [
    ["wizard", "easy"], ["easy"], ["easy", "hard", "--size", "2"], ["easy", "hard", "--games", "0"],
    ["easy", "hard", "--games", "100001"], ["easy", "hard", "--jobs", "0"],
    ["easy", "hard", "--games", "2", "--jobs", "3"],
    ["easy", "hard", "--jobs", str((os.cpu_count() or 1) + 1)],
    ["easy", "hard", "--mode", "silly"], ["easy", "hard", "--time-limit", "-1"],
    ["easy", "hard", "--games", "x"], [], ["easy", "hard", "--ladder"], ["easy", "--ladder"],
    ["--ladder", "--games", "0"], ["--ladder", "--size", "2"], ["--ladder", "--mode", "silly"],
])
def test_arena_bad_arguments_exit_2_with_one_line(argv, capsys):
    assert main(["arena", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sos-tui arena: ") and "Traceback" not in err


# -- signals: a real process, its workers, and what is left afterwards -------------------------
def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_arena(jobs: int, argv: tuple[str, ...] = ("hard", "hard")) -> tuple[subprocess.Popen, set[int]]:
    """A long arena run in its own process, once its workers (if any) are playing."""
    argv = ["arena", *argv, "--size", "8", "--games", "40", "--jobs", str(jobs)]
    proc = subprocess.Popen([sys.executable, "-m", "sos_tui", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            preexec_fn=ctrl_c_works)
    until(lambda: jobs == 1 or len(children(proc.pid)) >= jobs, "the workers to start", 30)
    workers = children(proc.pid)
    # well into the first games: each process that plays has had 0.3 s of CPU (its start-up,
    # imports included, takes about 0.13 s), however busy the machine
    players = {proc.pid} if jobs == 1 else {pid for pid in workers if "resource_tracker" not in cmdline(pid)}
    with contextlib.suppress(AssertionError):  # a player that ended meanwhile: the test says so
        until(lambda: min(cpu_seconds(pid) for pid in players) >= 0.3, "0.3 s of CPU for each player", 30)
    return proc, workers | children(proc.pid)


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def wait_gone(pids: set[int], seconds: float = 5) -> set[int]:
    """The processes of ``pids`` still alive after at most ``seconds``."""
    with contextlib.suppress(AssertionError):
        until(lambda: not any(alive(p) for p in pids), "the processes to end", seconds)
    return {p for p in pids if alive(p)}


pytestmark_linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


@pytestmark_linux
# on two processes nightly: the same messages and report as on one; ctrl+c on an arena of several
# processes is tested by default in test_engines (no engine left behind)
@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_ctrl_c_stops_the_arena_with_the_games_played(jobs):
    if jobs > (os.cpu_count() or 1):
        pytest.skip("one core")
    proc, workers = start_arena(jobs)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=5)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1].startswith("sos-tui arena: interrupted after ")
    assert "Traceback" not in err
    assert "hard vs hard: 8x8 general" in out
    assert not wait_gone(workers | children(proc.pid))


@pytestmark_linux
def test_ctrl_c_stops_the_ladder_with_the_ratings_so_far():
    proc, _workers = start_arena(1, ("--ladder",))
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=5)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1].startswith("sos-tui arena: interrupted after ")
    assert "of 240 games" in err and "Traceback" not in err
    assert out.startswith("Ladder: 8x8 general, 40 games a pair, seed 0: ")
    assert out.splitlines()[1].split()[:2] == ["Level", "Rating"]


@pytestmark_linux
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_arena_workers_die_with_their_parent(how):
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core")
    proc, workers = start_arena(2)
    assert len(workers) >= 2
    proc.send_signal(how)
    proc.communicate(timeout=5)
    assert not wait_gone(workers)


@pytestmark_linux
def test_a_killed_game_process_stops_the_arena_with_a_message_and_the_games_played():
    """The kernel's OOM killer, say, ends a process in the middle of its game: the arena says so
    and reports the games played, instead of waiting for that game for ever."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core")
    proc, workers = start_arena(2)
    players = [pid for pid in workers if "resource_tracker" not in cmdline(pid)]
    assert players
    os.kill(players[0], signal.SIGKILL)
    try:
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 1
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("sos-tui arena: a process playing a game ended "), err
    assert "hard vs hard: 8x8 general" in out  # the games played so far, reported
    assert not wait_gone(workers | children(proc.pid))


# the benchmarks' ladder: subprocesses that play whole games (3-5 s); the arena's own tests cover its games
# by default
@pytest.mark.slow
def test_losses_replays_the_lost_games_of_a_record_and_solves_them(tmp_path):
    bench = Path(__file__).parent.parent / "benchmarks"
    subprocess.run([sys.executable, str(bench / "ladder.py"), "--record", str(tmp_path), "--games", "4",
                    "easy:medium:4:general"], capture_output=True, text=True, check=True)
    record = tmp_path / "easy-medium-4-general-s1.jsonl"
    games = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    lost = sorted((g["number"], g["scores"][0] - g["scores"][1]) for g in games if g["result"] == 0)
    assert lost  # easy loses to medium
    out = subprocess.run([sys.executable, str(bench / "losses.py"), str(record), "--from", "10"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith(f"{len(lost)} of 4 games lost by easy")
    for (number, final), line in zip(lost, out[1:-1], strict=True):
        # the game played again ends as recorded; 4x4 from 10 empty cells solves at once
        assert line.startswith(f"game {number}: ") and line.endswith(f"final {final:+d}")
        assert "first solved at 10 empty cells" in line or "first solved at 9 empty cells" in line
    forced = [int(line.split("forces ")[1].split(";")[0]) for line in out[1:-1]]
    already = sum(f < 0 for f in forced)
    assert out[-1] == f"{already} of {len(lost)} lost games were already lost at the first position solved"


# the benchmarks' ladder: subprocesses that play whole games (3-5 s); the arena's own tests cover its games
# by default
@pytest.mark.slow
def test_a_record_of_other_code_is_carried_over_only_if_its_games_end_the_same(tmp_path):
    ladder = [sys.executable, str(Path(__file__).parent.parent / "benchmarks" / "ladder.py"),
              "--record", str(tmp_path), "medium:easy:3:general"]
    subprocess.run([*ladder, "--games", "4"], capture_output=True, text=True, check=True)
    record = tmp_path / "medium-easy-3-general-s1.jsonl"
    header, *games = record.read_text().splitlines()
    code = json.loads(header)["plays"]
    assert set(code) == {"medium", "easy"}  # keyed by the behaviour of the two levels
    record.write_text("\n".join([json.dumps({"plays": {"medium": "earlier"}}), *games]) + "\n")
    carried = subprocess.run([*ladder, "--games", "5", "--carry-over", "2"], capture_output=True, text=True,
                             check=True)
    assert "| medium vs easy | 3x3 general | 5 |" in carried.stdout
    header, *now = record.read_text().splitlines()
    earlier = {"plays": {"medium": "earlier"}, "checked": [0, 2]}
    assert json.loads(header) == {"plays": code, "carried": [earlier]}
    assert now[:4] == games and json.loads(now[4])["number"] == 4
    # game 3 recorded with other scores: the code plays differently, and the record stays as it is
    changed = json.loads(now[3])
    changed["scores"] = [changed["scores"][0] + 1, changed["scores"][1]]
    other = json.dumps({"plays": {"medium": "other"}})
    text = "\n".join([other, *now[:3], json.dumps(changed), now[4]]) + "\n"
    record.write_text(text)
    refused = subprocess.run([*ladder, "--games", "6", "--carry-over", "5"], capture_output=True, text=True)
    assert refused.returncode == 1 and "game 3 ends otherwise" in refused.stderr
    assert record.read_text() == text
    plain = subprocess.run([*ladder, "--games", "6"], capture_output=True, text=True)
    assert plain.returncode == 1 and "recorded with other code" in plain.stderr
