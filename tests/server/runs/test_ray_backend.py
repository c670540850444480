"""A campaign on Ray (server/runs/campaign/ray_backend.py) against a local Ray this module
starts: the same stored games as the local backend, nothing played twice on a rerun, a campaign
half played locally finished on Ray, a killed worker's batch replayed and stored once, and the
command line joining the cluster by its address."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import ray

from server.cli import main
from server.runs.campaign.manifest import Manifest, Match
from server.runs.campaign.options import RunError, RunOptions, RunOutcome
from server.runs.campaign.runner import open_server, play
from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST
from tests.server.runs.test_campaign import Endpoint
from tests.server.runs.test_honest_sim import closed_port

ROOT = Path(__file__).resolve().parents[3]
# One Ray for the module (it takes seconds to start): its tests on one xdist worker.
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.server.runs import crash_once_bot

    folder = tmp_path_factory.mktemp("ray")
    marker = folder / "crashed"
    prices = folder / "prices.json"  # $1 a million prompt tokens: a fake call costs $0.001
    prices.write_text(json.dumps({"openai-compatible:m": {"input": 1.0, "output": 0.0}}))
    # The workers find the tests' bots (this checkout first) and the crash bot's marker.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False, runtime_env={"env_vars": {
                 "PYTHONPATH": path, crash_once_bot.MARKER: str(marker),
                 "PARLOR_PRICES": str(prices)}})
    try:
        yield ray.get_runtime_context().gcs_address, marker
    finally:
        ray.shutdown()
        crash_once_bot.unregister()


def blotto(seats: tuple[str, ...] = ("random", "scripted:adaptive"), games: int = 12,
           tag: str = "ray-test", preset: str | None = None) -> Manifest:
    return Manifest(tag, True, tuple(Match("colonel-blotto", preset, seats, seed)
                                     for seed in range(games)))


def impostor(tmp: Path) -> Manifest:
    path = tmp / "impostor.jsonl"
    assert main(["league", "impostor", "--models", "scripted:describer", "scripted:terse",
                 "--tiers", "easy", "--modes", "homogeneous", "cross_play",
                 "--games-per-experiment", "2", "--plan", str(path)]) == 0
    return Manifest.read(path)


def run(db: Path, manifest: Manifest, backend: str, budget: float | None = None) -> RunOutcome:
    async def go() -> RunOutcome:
        server = await open_server(str(db), manifest)
        try:
            return await play(server, str(db), manifest, RunOptions(
                concurrency=2, quiet=True, backend=backend, budget=budget))
        finally:
            await server.stop()

    return asyncio.run(go())


def stored(db: Path) -> dict[str, tuple[Any, ...]]:
    """Per game key, what decides and tells a finished game; each key stored once."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT g.game_key, g.seed, g.env, g.result, g.metrics, "
            "(SELECT count(*) FROM actions a WHERE a.game_id = g.id), "
            "(SELECT group_concat(identity, ' ') FROM (SELECT identity FROM seats s "
            " WHERE s.game_id = g.id ORDER BY seat)) "
            "FROM games g WHERE g.status = 'finished'").fetchall()
    assert all(n == 1 for n in Counter(r[0] for r in rows).values())
    return {r[0]: (r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6]) for r in rows}


def ratings(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT env, identity, round(mu, 9), round(sigma, 9) FROM ratings "
                            "ORDER BY env, identity").fetchall()


@pytest.mark.parametrize("which", ["blotto", "impostor"])
def test_ray_stores_the_games_the_local_backend_stores(cluster, tmp_path, which):
    manifest = blotto() if which == "blotto" else impostor(tmp_path)
    local = run(tmp_path / "local.db", manifest, "local")
    on_ray = run(tmp_path / "ray.db", manifest, "ray")
    assert local.played == on_ray.played == len(manifest.games)
    games = stored(tmp_path / "ray.db")
    assert set(games) == set(manifest.keys)
    assert games == stored(tmp_path / "local.db")
    assert ratings(tmp_path / "ray.db") == ratings(tmp_path / "local.db")
    if which == "blotto":  # a rated manifest: the merged games were rated once, at the end
        assert ratings(tmp_path / "ray.db")

    again = run(tmp_path / "ray.db", manifest, "ray")  # a rerun plays nothing
    assert (again.played, again.already) == (0, len(manifest.games))
    assert stored(tmp_path / "ray.db") == games


def test_a_campaign_half_played_here_is_finished_on_ray(cluster, tmp_path):
    whole = blotto()
    half = Manifest(whole.tag, whole.rated, whole.games[:6])  # the same games, so the same keys
    assert run(tmp_path / "db", half, "local").played == 6
    outcome = run(tmp_path / "db", whole, "ray")
    assert (outcome.already, outcome.played) == (6, 6)
    assert set(stored(tmp_path / "db")) == set(whole.keys)  # each once
    run(tmp_path / "all-here.db", whole, "local")
    assert stored(tmp_path / "db") == stored(tmp_path / "all-here.db")


def test_a_killed_worker_s_batch_is_played_again_and_stored_once(cluster, tmp_path):
    _, marker = cluster  # (it registered scripted:crash-once here, which never crashes here)
    manifest = blotto(seats=("random", "scripted:crash-once"), games=8, tag="ray-crash")
    outcome = run(tmp_path / "db", manifest, "ray")
    assert marker.exists()  # a worker died mid-batch
    assert outcome.played == 8
    assert set(stored(tmp_path / "db")) == set(manifest.keys)
    with sqlite3.connect(tmp_path / "db") as conn:  # nothing of the dead attempt
        assert conn.execute("SELECT count(*), count(DISTINCT table_id) FROM games").fetchone() \
            == (8, 8)


def test_the_command_line_runs_a_manifest_on_the_cluster_at_its_address(cluster, tmp_path):
    address, _ = cluster
    manifest = blotto(games=6, tag="ray-cli")
    manifest.write(tmp_path / "plan.jsonl")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    command = [sys.executable, "-m", "server.cli", "campaign", "run", str(tmp_path / "plan.jsonl"),
               "--db", str(tmp_path / "cli.db"), "--backend", "ray", "--address", address]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"Campaign {manifest.id}: 6 games played now, 0 finished before, of 6" in done.stdout
    assert done.stderr.splitlines()[-1].startswith("parlor campaign run: 6/6 games in ")
    assert set(stored(tmp_path / "cli.db")) == set(manifest.keys)


def test_an_unreachable_llm_seat_is_found_on_the_cluster_before_any_game(cluster, tmp_path):
    spec = f"openai-compatible:m@http://127.0.0.1:{closed_port()}/v1?timeout=5&retries=0"
    manifest = blotto(seats=("random", spec), games=2, tag="ray-unreachable")
    with pytest.raises(RunError) as refused:
        run(tmp_path / "db", manifest, "ray")
    assert f"{spec} cannot play: endpoint" in str(refused.value)
    assert "no game was played" in str(refused.value) and refused.value.status == 1
    assert stored(tmp_path / "db") == {}


def test_the_budget_counts_finished_batches_and_a_rerun_finishes(cluster, tmp_path):
    with FakeOpenAI(responder=Endpoint()) as fake:  # the nodes call it: keys and all are theirs
        spec = f"openai-compatible:m@{fake.base_url}?{FAST}"
        manifest = blotto(seats=(spec, spec), games=12, tag="ray-budget", preset="small")
        # A game is 5 rounds of 2 calls: $0.01. The first batches go out before any spend is
        # known (2 games per task, 4 tasks): their games are played, and no batch after them.
        first = run(tmp_path / "db", manifest, "ray", budget=0.025)
        assert first.budget_reached and 2 <= first.played < 12
        assert (first.meter.calls, first.meter.cost) == (10 * first.played,
                                                         pytest.approx(first.played * 0.01))
        assert len(stored(tmp_path / "db")) == first.played
        rest = run(tmp_path / "db", manifest, "ray", budget=1.0)
    assert (rest.already, rest.played, rest.budget_reached) == (first.played, 12 - first.played,
                                                                False)
    assert set(stored(tmp_path / "db")) == set(manifest.keys)
