"""`replay` over a real websocket (server/net/replays.py, docs/protocol.md "Replays"): every env's
stored game comes back frame by frame as `Replay.seen` rebuilds it, from any seat or from
everywhere; what may not be watched is refused; a seat's replay keeps the seat's secrets; a
live bot-only table is watched only behind its delay. Games are played by `parlor sim` into a
real SQLite file the server then opens."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.registry import env_ids, get
from server.cli import main
from server.replays.replay import Frame, Replay
from tests.server.conftest import Client


def _engine_envs() -> list[str]:  # not the envs tests register
    return [e for e in env_ids() if type(get(e)).__module__.startswith("engine.")]


SMALL = {"colonel-blotto": ["--preset", "small"],
         "socialgrid": ["--config", "max_steps=60", "--config", "vote_interval=20"]}


def _sim(db: Path, env_id: str, *args: str, seed: int = 3) -> None:
    env = get(env_id)
    seats = env.preset_default_players(env.config(None))
    assert main(["sim", env_id, *["--seat", "random"] * seats, *SMALL.get(env_id, []),
                 "--games", "1", "--seed", str(seed), "--quiet", "--db", str(db), *args]) == 0


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replays") / "games.db"
    for env_id in _engine_envs():
        _sim(path, env_id)
    return path


@pytest.fixture
def db(stored: Path, tmp_path: Path) -> Path:
    """The stored games where the test's server opens its database."""
    path = tmp_path / "parlor.db"
    shutil.copy(stored, path)
    return path


def _games(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {env: gid for gid, env in conn.execute("SELECT id, env FROM games")}


def _replay(db: Path, game_id: int) -> Replay:
    conn = sqlite3.connect(db)
    try:
        return Replay.from_db(conn, game_id)
    finally:
        conn.close()


def _same_frame(wire: dict[str, Any], frame: Frame, at: int, seat: int | None) -> None:
    assert wire["at"] == at
    assert wire["index"] == (frame.index if seat is None else None)
    assert wire["clock"] == frame.clock
    assert wire["view"] == frame.view
    assert wire["lines"] == list(frame.lines)
    assert [(e["type"], e["data"]) for e in wire["events"]] == \
        [(e["type"], e["data"]) for e in frame.events]
    d = frame.decision
    if d is None:
        assert wire["decision"] is None
    else:
        assert (wire["decision"]["seat"], wire["decision"]["raw"], wire["decision"]["outcome"]) \
            == (d.seat, d.raw, d.outcome)


async def test_every_env_replays_over_the_wire_as_replay_seen_rebuilds_it(make_server, db):
    server = await make_server()
    client = await Client.connect(server.url, "ann")
    for env_id, game_id in sorted(_games(db).items()):
        replay = _replay(db, game_id)
        for seat in (0, None):
            frames = replay.seen(seat)
            last = len(frames) - 1
            for at in sorted({0, last // 2, last}):
                body = {"game_id": game_id, "at": at} | ({} if seat is None else {"seat": seat})
                msg = await client.request("replay", **body)
                assert msg["type"] == "replay", (env_id, msg)
                assert (msg["game_id"], msg["env"], msg["seat"], msg["live"], msg["count"]) == \
                    (game_id, env_id, seat, False, len(frames))
                assert msg["names"] == list(replay.names) and msg["result"] is not None
                assert msg["jumps"][0]["at"] == 0 and msg["jumps"][0]["label"]
                _same_frame(msg["frame"], frames[at], at, seat)
        past = await client.request("replay", game_id=game_id, at=10**9)
        assert past["frame"]["at"] == past["count"] - 1, env_id
    await client.close()
