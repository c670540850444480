"""`parlor league socialgrid-elo`: the schedule, a tiny league end to end through the CLI, its
Elo against a hand computation, resuming (after a subset and after a kill) and determinism."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bots.registry import available
from engine.socialgrid.league import episode_seed, schedule
from server.cli import main
from server.store.ratings import elo_league

MODELS = ["random", "scripted:agent"]
SMALL = ["--config", "max_steps=120", "--config", "room_size=7"]  # a game in well under 1 s
ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif("scripted:agent" not in available("socialgrid"),
                                reason="SocialGrid's scripted:agent is not registered")


def _args(episodes: int, *extra: str) -> list[str]:
    return ["league", "socialgrid-elo", "--models", *MODELS, "--episodes", str(episodes),
            *SMALL, "--quiet", *extra]


def _league(tmp: Path, name: str, episodes: int, *extra: str, db: bool = True
            ) -> dict[str, Any]:
    """Run a league through the CLI; its --json report."""
    out = tmp / f"{name}.json"
    where = ["--db", str(tmp / f"{name}.db")] if db else []
    assert main(_args(episodes, *where, "--json", str(out), *extra)) == 0
    return json.loads(out.read_text())


def _same_league(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("standings", "matches", "episodes", "counted", "void"):
        assert a[key] == b[key], key


def _games(db: Path, status: str = "finished") -> list[sqlite3.Row]:
    with sqlite3.connect(db) as c:
        c.row_factory = sqlite3.Row
        return c.execute("SELECT id, seed, metrics FROM games WHERE status = ? ORDER BY id",
                         (status,)).fetchall()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    """An uninterrupted 2-model, 2-episode league: its folder, report and printed table."""
    tmp = tmp_path_factory.mktemp("league")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        report = _league(tmp, "reference", 2)
    return tmp, report, printed.getvalue()


def test_schedule_every_ordered_pair_with_self_play_and_distinct_seeds() -> None:
    models = ["a", "b", "c"]
    episodes = schedule(models, 2, base_seed=7)
    assert len(episodes) == 2 * len(models) ** 2
    assert {(e.crew, e.impostor) for e in episodes} == {(x, y) for x in models for y in models}
    assert sum(e.self_play for e in episodes) == 2 * len(models)
    assert len({e.seed for e in episodes}) == len(episodes)
    assert schedule(models, 2, base_seed=7) == episodes  # deterministic
    assert [e.number for e in episodes[:9]] == [0] * 9  # round by round
    # A seed belongs to its pair and episode: more models or episodes keep the old ones.
    assert episodes[1].seed == episode_seed(7, "a", "b", 0)
    assert {e.seed for e in episodes} <= {e.seed for e in schedule([*models, "d"], 3, 7)}
    assert {e.seed for e in schedule(models, 2, 8)}.isdisjoint(e.seed for e in episodes)


def test_tiny_league_prints_the_table_and_elo_matches_the_stored_outcomes(
        reference: tuple[Path, dict[str, Any], str]) -> None:
    tmp, report, printed = reference
    assert "Crew Elo" in printed and "8 episodes: 8 counted, 0 void" in printed
    assert all(model in printed for model in MODELS)
    games = _games(tmp / "reference.db")
    assert len(games) == 8 and report["counted"] == 8
    # By hand: each stored game's crew and impostor models and its outcome, in schedule order
    # (one game at a time, so game ids follow the schedule).
    matches = []
    with sqlite3.connect(tmp / "reference.db") as c:
        for game_id, _, text in games:
            metrics = json.loads(text)
            side = {m["impostor"]: c.execute(
                "SELECT identity FROM seats WHERE game_id = ? AND seat = ?",
                (game_id, int(seat))).fetchone()[0] for seat, m in metrics["seats"].items()}
            matches.append((side[0], side[1], float(metrics["game"]["crew_won"])))
    assert [tuple(m) for m in report["matches"]] == matches
    expected = elo_league(matches)
    ratings = {row["model"]: row["crew_elo"] for row in report["standings"]}
    assert ratings == pytest.approx(expected)
    for model, rating in ratings.items():
        assert f"{rating:>8.0f}" in next(line for line in printed.splitlines()
                                         if line.startswith(model))
    assert [row["crew_elo"] for row in report["standings"]] == sorted(ratings.values(),
                                                                    reverse=True)
    for row in report["standings"]:
        assert row["crew_games"] == row["impostor_games"] == 4
        assert row["games"] == 6  # two self-play games count once


def test_a_longer_league_resumes_from_a_shorter_one(
        reference: tuple[Path, dict[str, Any], str], tmp_path: Path) -> None:
    _league(tmp_path, "grown", 1)
    assert len(_games(tmp_path / "grown.db")) == 4
    grown = _league(tmp_path, "grown", 2)
    assert grown["played"] == 4 and len(_games(tmp_path / "grown.db")) == 8
    _same_league(grown, reference[1])


def test_a_killed_league_continues_where_it_stopped(
        reference: tuple[Path, dict[str, Any], str], tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    run = subprocess.Popen([sys.executable, "-m", "server.cli", *_args(2, "--db", str(db))],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while not (db.exists() and _finished(db) >= 2) and time.monotonic() < deadline:
            assert run.poll() is None, "the league ended before it was killed"
            time.sleep(0.02)
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    done = _finished(db)
    assert 2 <= done < 8
    resumed = _league(tmp_path, "killed", 2)
    finished = _games(db)
    assert resumed["played"] == 8 - done
    assert len(finished) == 8 and len({g["seed"] for g in finished}) == 8  # none played twice
    assert len(_games(db, "running")) == 0  # the killed game was voided, then played again
    _same_league(resumed, reference[1])


def _finished(db: Path) -> int:
    try:
        return len(_games(db))
    except sqlite3.OperationalError:  # the file exists before its tables
        return 0


def test_same_inputs_same_outcomes_whatever_the_concurrency(
        reference: tuple[Path, dict[str, Any], str], tmp_path: Path) -> None:
    again = _league(tmp_path, "again", 2, "--concurrency", "3", db=False)
    _same_league(again, reference[1])
    assert again["played"] == 8


@pytest.mark.parametrize("extra", [
    ["--episodes", "0"],
    ["--models", "random", "nobody:here"],
    ["--models", "random", "random"],
    ["--models", "human", "random"],
    ["--preset", "no-such-preset"],
    ["--preset", "navigation"],  # no impostors to seat
    ["--config", "room_size=3"],
])
def test_bad_input_exits_2_with_one_line(extra: list[str], capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    args = ["league", "socialgrid-elo", "--models", *MODELS, "--episodes", "1", *extra]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("parlor league socialgrid-elo: error:")
