"""Campaigns (issue 27): a manifest written before anything runs gives the same games every
time; a run killed or interrupted mid-campaign resumes with no game lost or played twice; the
budget stops new games; the per-endpoint limits hold at a real endpoint; one SDK client serves
every seat; every league plays through the runner and its report follows `campaign run`."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import openai
import pytest

from server.cli import main
from server.runs.campaign.manifest import Manifest, ManifestError, Match
from tests.fakes import FakeOpenAI, Reply
from tests.fakes.seating import FAST

ROOT = Path(__file__).resolve().parents[3]


def plan_sim(tmp_path: Path, games: int, *seats: str, name: str = "c.jsonl") -> Path:
    path = tmp_path / name
    args = [a for s in (seats or ("random", "scripted:adaptive")) for a in ("--seat", s)]
    assert main(["sim", "colonel-blotto", *args, "--games", str(games), "--preset", "small",
                 "--plan", str(path)]) == 0
    return path


def finished_keys(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [k for (k,) in conn.execute(
            "SELECT game_key FROM games WHERE status = 'finished' ORDER BY id")]


def statuses(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT status, count(*) FROM games GROUP BY status"))


def test_the_same_plan_writes_the_same_manifest(tmp_path, capsys):
    first = plan_sim(tmp_path, 5, name="a.jsonl")
    second = plan_sim(tmp_path, 5, name="b.jsonl")
    assert first.read_bytes() == second.read_bytes()
    manifest = Manifest.read(first)
    assert len(manifest.games) == 5 and [m.seed for m in manifest.games] == [0, 1, 2, 3, 4]
    assert "campaign " + manifest.id in capsys.readouterr().out
    longer = Manifest.read(plan_sim(tmp_path, 6, name="c.jsonl"))
    assert longer.id != manifest.id and longer.keys[:5] == manifest.keys  # same games, same keys
    huge = Manifest("t", False, (Match("colonel-blotto", None, ("random", "random"), 2 ** 100),))
    huge.write(tmp_path / "h.jsonl")
    assert Manifest.read(tmp_path / "h.jsonl").games[0].seed == 2 ** 100


def test_an_edited_cut_or_foreign_manifest_is_refused_before_the_database_is_made(tmp_path,
                                                                                  capsys):
    path = plan_sim(tmp_path, 3)
    lines = path.read_text().splitlines()
    db = tmp_path / "x.db"
    edited = json.loads(lines[2]) | {"seed": 99}
    cases = {"edited.jsonl": [lines[0], lines[1], json.dumps(edited), lines[3]],
             "cut.jsonl": lines[:3], "foreign.jsonl": ['{"hello": 1}'],
             "garbage.jsonl": [lines[0], "{not json"]}
    said = {}
    for name, text in cases.items():
        (tmp_path / name).write_text("\n".join(text) + "\n")
        assert main(["campaign", "run", str(tmp_path / name), "--db", str(db)]) == 2
        said[name] = capsys.readouterr().err
    assert "do not hash to its id" in said["edited.jsonl"]
    assert "header says 3 games, the file holds 2" in said["cut.jsonl"]
    assert "not a Parlor campaign manifest" in said["foreign.jsonl"]
    assert "line 2: not JSON" in said["garbage.jsonl"]
    assert not db.exists()
    twice = Match("colonel-blotto", None, ("random", "random"), 1)
    with pytest.raises(ManifestError, match="games 0 and 1 are the same game"):
        Manifest("t", False, (twice, twice))


def test_a_rerun_plays_only_what_is_missing_and_the_league_reads_its_campaign(tmp_path,
                                                                            capsys):
    plan = tmp_path / "grid.jsonl"
    league = ["league", "impostor", "--models", "scripted:describer", "random", "--tiers",
              "easy", "--modes", "homogeneous", "--games-per-experiment", "2"]
    assert main([*league, "--plan", str(plan)]) == 0
    assert "4 games planned" in capsys.readouterr().out
    db = tmp_path / "grid.db"
    assert main(["campaign", "run", str(plan), "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "4 games played now, 0 finished before, of 4" in out
    assert "Impostor win % by mode x tier" in out  # the league's report follows
    assert main(["campaign", "run", str(plan), "--db", str(db), "--quiet"]) == 0
    assert "0 games played now, 4 finished before" in capsys.readouterr().out
    assert main([*league, "--db", str(db), "--quiet"]) == 0  # the league finds them too
    assert "0 games played now, 4 found already stored" in capsys.readouterr().out
    assert len(finished_keys(db)) == 4
    assert main(["campaign", "status", str(plan), "--db", str(db), "--json"]) == 0
    held = json.loads(capsys.readouterr().out)
    assert held["finished"] == 4 and held["to_play"] == 0 and held["void"] == 0


def _run_in_child(plan: Path, db: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "server.cli", "campaign", "run", str(plan),
                             "--db", str(db), "--quiet", "--concurrency", "2"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


def _wait_for_finished(db: Path, n: int, child: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        try:
            if len(finished_keys(db)) >= n:
                return
        except sqlite3.Error:  # not made yet, or busy
            pass
        time.sleep(0.05)
    raise AssertionError(f"the campaign did not reach {n} games: {child.communicate()}")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_campaign_stopped_mid_run_resumes_with_no_game_lost_or_twice(tmp_path, capsys, how):
    games = 150
    plan = plan_sim(tmp_path, games)
    db = tmp_path / "c.db"
    child = _run_in_child(plan, db)
    _wait_for_finished(db, 5, child)
    child.send_signal(how)
    code = child.wait(timeout=60)
    assert code == (130 if how == signal.SIGINT else -signal.SIGKILL)
    before = statuses(db)
    assert 5 <= before.get("finished", 0) < games
    if how == signal.SIGINT:  # stopped cleanly: what was playing is void, nothing left running
        assert "running" not in before
    capsys.readouterr()
    assert main(["campaign", "run", str(plan), "--db", str(db), "--quiet"]) == 0
    assert f"finished before, of {games}" in capsys.readouterr().out
    keys = finished_keys(db)
    assert len(keys) == len(set(keys)) == games
    assert set(keys) == set(Manifest.read(plan).keys)
    assert "running" not in statuses(db)  # the killed run's games were voided, then replayed


class Endpoint:
    """A fake OpenAI-compatible model that takes `delay` s a call and plays Blotto's even
    split, recording the start of every call and the most calls it had in flight at once."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.starts: list[float] = []
        self.in_flight = 0
        self.most = 0
        self._lock = threading.Lock()

    def __call__(self, request):
        if "ready" in request.last_user_text():  # the endpoint check before the first game
            return Reply("ready")
        with self._lock:
            self.starts.append(time.monotonic())
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        time.sleep(self.delay)
        with self._lock:
            self.in_flight -= 1
        return Reply("[A7 B7 C6]", prompt_tokens=1000, completion_tokens=100)


def _llm_plan(tmp_path: Path, fake: FakeOpenAI, games: int, name: str = "llm.jsonl") -> Path:
    spec = f"openai-compatible:m@{fake.base_url}?{FAST}"
    return plan_sim(tmp_path, games, spec, spec, name=name)


def test_the_budget_stops_new_games_and_a_rerun_with_more_finishes(tmp_path, capsys,
                                                                   monkeypatch):
    prices = tmp_path / "prices.json"  # $1 a million prompt tokens: a call costs $0.0011
    prices.write_text(json.dumps({"openai-compatible:m": {"input": 1.0, "output": 0.0}}))
    monkeypatch.setenv("PARLOR_PRICES", str(prices))
    with FakeOpenAI(responder=Endpoint()) as fake:
        plan = _llm_plan(tmp_path, fake, 10)
        db = tmp_path / "b.db"
        # a game is 5 rounds of 2 calls: $0.01; the budget is reached during the third game
        assert main(["campaign", "run", str(plan), "--db", str(db), "--quiet",
                     "--budget", "0.025"]) == 0
        out, err = capsys.readouterr()
        assert "the budget was reached: no new game was started" in out
        assert "still to play (the budget stopped it)" in err
        done = len(finished_keys(db))
        assert 2 <= done < 10
        assert main(["campaign", "run", str(plan), "--db", str(db), "--quiet",
                     "--budget", "1"]) == 0
    assert len(finished_keys(db)) == 10
    assert f"{10 - done} games played now, {done} finished before" in capsys.readouterr().out
    assert main(["campaign", "status", str(plan), "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["spend"] == pytest.approx(10 * 10 * 0.001)


def test_calls_in_flight_per_endpoint_are_held_to_the_limit(tmp_path, capsys):
    with FakeOpenAI(responder=(endpoint := Endpoint(delay=0.05))) as fake:
        plan = _llm_plan(tmp_path, fake, 6)
        assert main(["campaign", "run", str(plan), "--db", str(tmp_path / "free.db"),
                     "--quiet", "--concurrency", "6"]) == 0
        free = endpoint.most
        endpoint.most = 0
        assert main(["campaign", "run", str(plan), "--db", str(tmp_path / "held.db"),
                     "--quiet", "--concurrency", "6", "--limit", "openai-compatible=2"]) == 0
    assert free > 2  # without the limit the six games' seats overlap
    assert endpoint.most == 2


def test_requests_per_minute_per_endpoint_are_held_to_the_limit(tmp_path, capsys,
                                                               monkeypatch):
    monkeypatch.setattr("bots.llm.limits.WINDOW", 1.0)  # a "minute" of one second
    with FakeOpenAI(responder=(endpoint := Endpoint())) as fake:
        plan = _llm_plan(tmp_path, fake, 1)  # 10 calls
        assert main(["campaign", "run", str(plan), "--db", str(tmp_path / "r.db"), "--quiet",
                     "--concurrency", "2", "--limit", "openai-compatible=8/4"]) == 0
    starts = endpoint.starts
    assert len(starts) == 10
    # no window of one second holds more than 4 starts (the endpoint sees a call some
    # milliseconds after the client starts it: a fifth of a second of slack)
    assert all(sum(1 for t in starts if s <= t < s + 0.8) <= 4 for s in starts)
    assert starts[-1] - starts[0] >= 1.8  # 10 calls at 4 a second span two windows at least


def test_every_seat_and_game_shares_one_client_per_endpoint(tmp_path, capsys, monkeypatch):
    made = []
    real = openai.AsyncOpenAI.__init__

    def counted(self, *args, **kwargs):
        made.append(kwargs.get("base_url"))
        real(self, *args, **kwargs)

    monkeypatch.setattr(openai.AsyncOpenAI, "__init__", counted)
    with FakeOpenAI(responder=Endpoint()) as fake:
        plan = _llm_plan(tmp_path, fake, 6)
        assert main(["campaign", "run", str(plan), "--db", str(tmp_path / "s.db"), "--quiet",
                     "--concurrency", "3"]) == 0
    # the endpoint check before the first game makes its own; the 12 seats share one
    assert len(made) == 2
