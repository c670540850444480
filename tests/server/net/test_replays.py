"""`replay` over a real websocket (server/net/replays.py, docs/protocol.md "Replays"): every env's
stored game comes back frame by frame as `Replay.seen` rebuilds it, from any seat or from
everywhere; what may not be watched is refused; a seat's replay keeps the seat's secrets; a
live bot-only table is watched only behind its delay. Games are played by `parlor sim` into a
real SQLite file the server then opens."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import threading
from pathlib import Path
from typing import Any

import cachetools
import pytest

from bots.base import Bot, Decision
from bots.registry import SCRIPTED, register_scripted
from engine.registry import get
from server.net.replays import BEFORE_EVENTS, BEFORE_LINES
from server.replays.extras import extras_for
from server.replays.replay import Frame, ReplayMismatch
from server.store.study import parse_study
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over
from tests.server.net.test_study import STUDY
from tests.server.replays.test_replay import _games, _replay
from tests.server.replays.test_replay import db as every_env  # noqa: F401 (a fixture)


@pytest.fixture
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A game of every env, played by random bots, where the test's server opens its
    database."""
    path = tmp_path / "parlor.db"
    shutil.copy(request.getfixturevalue("every_env"), path)
    return path


def _same_frame(wire: dict[str, Any], frames: list[Frame], at: int, seat: int | None) -> None:
    frame = frames[at]
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
    # The transcript before it: whole frames back to the setup or to about a page of lines.
    before, start = wire["before"], wire["before"]["from"]
    assert before["lines"] == [line for f in frames[start:at] for line in f.lines]
    assert [e["type"] for e in before["events"]] == \
        [e["type"] for f in frames[start:at] for e in f.events]
    assert start == 0 or len(before["lines"]) >= BEFORE_LINES or \
        len(before["events"]) >= BEFORE_EVENTS


async def test_every_env_replays_over_the_wire_as_replay_seen_rebuilds_it(make_server, db):
    server = await make_server()
    client = await Client.connect(server.url, "ann")
    for env_id, game_id in sorted(_games(db).items()):
        replay = _replay(db, env_id)
        for seat in (0, None):
            frames = replay.seen(seat)
            extras = extras_for(replay, seat, frames)
            last = len(frames) - 1
            for at in sorted({0, last // 2, last}):
                body = {"game_id": game_id, "at": at} | ({} if seat is None else {"seat": seat})
                msg = await client.request("replay", **body)
                assert msg["type"] == "replay", (env_id, msg)
                assert (msg["game_id"], msg["env"], msg["seat"], msg["live"], msg["count"]) == \
                    (game_id, env_id, seat, False, len(frames))
                assert msg["names"] == list(replay.names) and msg["result"] is not None
                assert msg["jumps"][0]["at"] == 0 and msg["jumps"][0]["label"]
                assert msg["extras"] == json.loads(json.dumps(extras, default=list)), env_id
                _same_frame(msg["frame"], frames, at, seat)
        past = await client.request("replay", game_id=game_id, at=10**9)
        assert past["frame"]["at"] == past["count"] - 1, env_id
    await client.close()


def _error(msg: dict[str, Any], code: str) -> str:
    assert msg["type"] == "error" and msg["code"] == code, msg
    return msg["message"]


async def test_what_cannot_be_replayed_is_refused_with_its_own_code(make_server, db):
    games = _games(db)
    blotto = games["colonel-blotto"]
    server = await make_server()
    with sqlite3.connect(db) as conn:  # a game another process on the file is playing
        conn.execute("INSERT INTO games (table_id, env, rules_version, config, seed, started) "
                     "SELECT 'elsewhere.t1', env, rules_version, config, seed, started FROM "
                     "games WHERE id = ?", (blotto,))
        running = conn.execute("SELECT max(id) FROM games").fetchone()[0]
    ann = await Client.connect(server.url, "ann")
    assert "no game 9999" in _error(await ann.request("replay", game_id=9999), "unknown_game")
    with sqlite3.connect(db) as conn:  # a game of an env this Parlor no longer has
        conn.execute("UPDATE games SET env = 'checkers' WHERE id = ?", (games["hidden-role"],))
    assert "checkers" in _error(await ann.request("replay", game_id=games["hidden-role"]),
                                "unknown_game")
    assert "still being played" in _error(await ann.request("replay", game_id=running),
                                          "forbidden")
    assert "seats are 0..1" in _error(await ann.request("replay", game_id=blotto, seat=2),
                                      "bad_seat")
    _error(await ann.request("replay", table_id="t404"), "unknown_table")
    for body in ({"game_id": blotto, "table_id": "t1"}, {}, {"seat": 0},
                 {"game_id": blotto, "at": -1}, {"game_id": blotto, "seat": True},
                 {"game_id": 0}, {"game_id": "1"}, {"game_id": blotto, "at": 1.5},
                 {"game_id": blotto, "perspective": 0}):
        _error(await ann.request("replay", **body), "bad_message")
    stranger = await Client.connect(server.url)
    _error(await stranger.request("replay", game_id=blotto), "hello_required")
    # A table whose game has not begun.
    table = (await ann.request("create_table", env="colonel-blotto",
                               seats=["human", "human"]))["table"]
    _error(await ann.request("replay", table_id=table["id"]), "unknown_game")
    # A game under way at this server, by its id and by its table's.
    playing = (await ann.request("create_table", env="colonel-blotto", seed=1, join_seat=0,
                                 seats=["human", "random"]))["table"]
    await ann.wait_for("your_turn")
    gid = server.tables[playing["id"]].game_id
    _error(await ann.request("replay", game_id=gid), "forbidden")
    assert "--omniscient-delay" in _error(await ann.request("replay", table_id=playing["id"]),
                                          "forbidden")
    await ann.close()
    await stranger.close()


async def test_a_tampered_game_is_a_replay_mismatch_saying_where(make_server, db):
    gid = _games(db)["colonel-blotto"]
    with sqlite3.connect(db) as conn:  # the same troops on other fields
        conn.execute("UPDATE actions SET raw = json_object('A', raw ->> 'B', 'B', raw ->> 'C', "
                     "'C', raw ->> 'A') WHERE game_id = ? AND idx = 0", (gid,))
    with pytest.raises(ReplayMismatch) as expected:
        _replay(db, "colonel-blotto").seen(None)
    server = await make_server()
    ann = await Client.connect(server.url, "ann")
    for seat in (None, 1, None):  # the second omniscient request is answered from the cache
        body = {"game_id": gid} | ({} if seat is None else {"seat": seat})
        message = _error(await ann.request("replay", **body), "replay_mismatch")
        assert message == str(expected.value) and "differs" in message
    await ann.close()


async def test_a_study_server_replays_only_the_games_one_sat_in(make_server, db):
    server = await make_server(study=parse_study(STUDY))
    ann = await Client.connect(server.url, "ann")
    agreed = await ann.request("consent", consent_hash=server.study.consent_hash, agree=True,
                               answers={"english": "native"})
    assert agreed["study"]["status"] == "agreed"
    assert "only the games you played" in _error(
        await ann.request("replay", game_id=_games(db)["colonel-blotto"]), "forbidden")
    await ann.request("create_table", env="colonel-blotto", preset="small", seed=2,
                      join_seat=0, seats=["human", "random"])
    over = await play_until_over(ann)
    own = await ann.request("replay", game_id=over["game_id"], seat=1)
    assert own["type"] == "replay" and own["kinds"] == ["human", "bot"]
    bob = await Client.connect(server.url, "bob")
    _error(await bob.request("replay", game_id=over["game_id"]), "forbidden")
    await ann.close()
    await bob.close()


# Secret Mafia, seed 7: seats 0 and 3 Villagers, 1 Detective, 2 Doctor, 4 and 5 Mafia. Two games
# that differ only in their first night's hidden moves (the Mafia's notes, a Mafia member's
# refused vote for a teammate, whom the Detective investigates); then the Mafia kill on.
NIGHT_ONE = {
    "a": {4: [{"target": "3", "note": "three"}], 5: [{"target": "3"}], 2: ["[0]"], 1: ["[4]"]},
    "b": {4: [{"target": "3", "note": "something else entirely"}],
          5: [{"target": "4"}, {"target": "3"}], 2: ["[0]"], 1: ["[5]"]}}


async def _store_mafia_game(db: Path, variant: str) -> int:
    """Play the game `variant` on the engine and store it as a table would."""
    from server.store.store import Rows, Store, event_rows

    env = get("secret-mafia")
    game = env.new_game(env.config(None), 7, 6)
    assert [r.name for r in game.roles] == ["Villager", "Detective", "Doctor", "Villager",
                                            "Mafia", "Mafia"]
    plan = {seat: list(moves) for seat, moves in NIGHT_ONE[variant].items()}
    store = await Store.open(db)
    try:
        gid = await store.create_game(
            table_id=f"mafia-{variant}", env=env.id, rules_version=env.rules_version,
            preset=None, config=game.config.to_json(), seed=7,
            seats=[{"identity": "random", "kind": "bot", "name": "random", "settings": {}}] * 6)
        await store.write_rows(Rows(events=event_rows(gid, game.events)))
        while not game.over:
            seat, clock = min(game.pending()), game.clock
            if clock["phase"] == "night" and clock["day"] == 1:
                action = plan[seat].pop(0)
            elif clock["phase"] == "night" and game.roles[seat].name == "Mafia":
                action = {"target": game.legal(seat).fields[0].options[-1].id}
            else:
                action = game.default_action(seat)
            events = game.act(seat, action)
            await store.write_rows(store.action_rows(gid, game.step - 1, game.last_action(),
                                                     events))
        await store.finish_game(gid, record=game.record(), statuses={}, metrics={})
    finally:
        await store.close()
    return gid


async def _all_frames(client: Client, **body: Any) -> list[dict[str, Any]]:
    """Every position's reply, without what names the game."""
    first = await client.request("replay", **body)
    assert first["type"] == "replay", first
    replies = [first] + [await client.request("replay", **body, at=at)
                         for at in range(1, first["count"])]
    return [{k: v for k, v in r.items() if k not in ("ref", "game_id", "table_id")}
            for r in replies]


async def test_a_villagers_replay_hides_the_night_and_says_the_same_of_different_nights(
        make_server, tmp_path):
    db = tmp_path / "parlor.db"
    a, b = await _store_mafia_game(db, "a"), await _store_mafia_game(db, "b")
    server = await make_server()
    ann = await Client.connect(server.url, "ann")
    for villager in (0, 3):
        seen_a = await _all_frames(ann, game_id=a, seat=villager)
        seen_b = await _all_frames(ann, game_id=b, seat=villager)
        assert seen_a == seen_b  # the same positions, frames and numbers, byte for byte
        before_the_end = repr([r["frame"] for r in seen_a[:-1]])
        for secret in ("three", "something else", "Mafia member", "fellow Mafia", "'Mafia'",
                       "'mafia_vote'", "'mafia_target'", "'protected'", "'investigated'",
                       "'invalid_move'"):
            assert secret not in before_the_end, secret
        assert "Your role: Villager" in before_the_end
        end = seen_a[-1]["frame"]
        revealed = [e for e in end["events"] if e["type"] == "setup_revealed"]
        assert revealed and "Mafia" in repr(revealed) and "Detective" in repr(revealed)
        assert all(r["frame"]["index"] is None for r in seen_a)
        assert all(r["frame"]["decision"] is None or r["frame"]["decision"]["seat"] == villager
                   for r in seen_a)
    # From everywhere the two nights differ: one action more, the notes, the refused vote.
    everywhere_a = await ann.request("replay", game_id=a)
    everywhere_b = await ann.request("replay", game_id=b, at=10)
    assert everywhere_b["count"] == everywhere_a["count"] + 1
    night = repr([(await ann.request("replay", game_id=b, at=at))["frame"] for at in range(6)])
    assert "something else entirely" in night and "invalid_move" in night
    mafia = repr([r["frame"] for r in await _all_frames(ann, game_id=a, seat=4)])
    assert "three" in mafia
    await ann.close()


class Gated(Bot):
    """A bot that plays its planned moves, each only when the test lets it."""

    def __init__(self, plan: list[str]) -> None:
        self.plan = list(plan)
        self.gate = asyncio.Semaphore(0)

    async def decide(self, view, legal, memory):
        await self.gate.acquire()
        return Decision(self.plan.pop(0))


@pytest.fixture
def gated():
    """Seats `scripted:gated` take the next of the bots queued here."""
    queue: list[Gated] = []
    register_scripted("colonel-blotto", "gated", "test bot")(lambda seed: queue.pop(0))
    yield queue
    SCRIPTED["colonel-blotto"].pop("gated")


async def _until(check) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def _gated_table(client: Client, server, queue: list[Gated], plans: list[list[str]]
                       ) -> Any:
    """A bot-only Blotto table whose two bots make their plans' moves, seat 0 then seat 1 each
    round, and then wait: the table stays in play after them."""
    bots = [Gated(plan) for plan in plans]
    queue.extend(bots)
    reply = await client.request("create_table", env="colonel-blotto", seed=3,
                                 config={"rounds": 20, "win_rounds": 20},
                                 seats=["scripted:gated"] * 2)
    table = server.tables[reply["table"]["id"]]
    assert [s.bot for s in table.seats] == bots
    for made in range(sum(map(len, plans))):
        bots[made % 2].gate.release()
        await _until(lambda made=made: table.game is not None and table.game.step == made + 1)
    return table


SAME = [["[A7 B7 C6]", "[A10 B5 C5]"], ["[A6 B7 C7]", "[A5 B10 C5]"]]


@pytest.mark.parametrize("durability", ["action", "game"])
async def test_a_live_bot_table_is_watched_only_behind_its_delay(make_server, gated,
                                                                 durability):
    delay = 2
    server = await make_server(omniscient_delay=delay, durability=durability)
    ann = await Client.connect(server.url, "ann")
    # Two tables alike but for their last `delay` moves (the third round): whoever watches
    # them live sees the same, byte for byte.
    one = await _gated_table(ann, server, gated, [SAME[0] + ["[A1 B1 C18]"],
                                                  SAME[1] + ["[A18 B1 C1]"]])
    other = await _gated_table(ann, server, gated, [SAME[0] + ["[A2 B16 C2]"],
                                                    SAME[1] + ["[A2 B2 C16]"]])
    assert one.status == other.status == "playing" and one.game.step == 6
    seen = [await _all_frames(ann, table_id=t.id) for t in (one, other)]
    assert seen[0] == seen[1]
    assert seen[0][0]["live"] and seen[0][0]["seat"] is None
    assert seen[0][0]["count"] == one.game.step - delay + 1  # positions 0..actions - delay
    assert [r["frame"]["index"] for r in seen[0]] == list(range(one.game.step - delay + 1))
    assert "C18" not in repr(seen[0]) and "C16" not in repr(seen[0])
    past = await ann.request("replay", table_id=one.id, at=99)
    assert past["frame"]["index"] == 4
    assert "never from a seat" in _error(await ann.request("replay", table_id=one.id, seat=0),
                                         "forbidden")
    # Before `delay` actions only the setup shows.
    early = await _gated_table(ann, server, gated, [["[A7 B7 C6]"], ["[A6 B7 C7]"]])
    setup = await ann.request("replay", table_id=early.id, at=5)
    assert (setup["count"], setup["frame"]["index"], setup["frame"]["decision"]) == (1, 0, None)
    # As the game goes on, so does the view (the round of the last two moves shows now).
    one.seats[0].bot.plan.append("[A3 B3 C14]")
    one.seats[0].bot.gate.release()
    await _until(lambda: one.game.step == 7)
    later = await ann.request("replay", table_id=one.id, at=99)
    assert later["count"] == 6 and "C18" in repr(later["frame"])
    # A table with a person is not watched live, nor is one without its game yet.
    person = await ann.request("create_table", env="colonel-blotto", seed=1, join_seat=0,
                               seats=["human", "random"])
    await ann.wait_for("your_turn")
    assert "seats a person" in _error(
        await ann.request("replay", table_id=person["table"]["id"]), "forbidden")
    waiting = await ann.request("create_table", env="colonel-blotto", seats=["human", "random"])
    _error(await ann.request("replay", table_id=waiting["table"]["id"]), "unknown_game")
    # A finished table's id means its stored game.
    done = await ann.request("create_table", env="colonel-blotto", preset="small", seed=4,
                             seats=["random", "random"])
    table = server.tables[done["table"]["id"]]
    await _until(lambda: table.status == "over")
    ended = await ann.request("replay", table_id=table.id)
    assert (ended["live"], ended["game_id"], ended["table_id"]) == \
        (False, table.game_id, table.id)
    assert ended["count"] == table.game.step + 1 and ended["result"] is not None
    by_id = await ann.request("replay", game_id=table.game_id)  # the same build, kept
    assert (by_id["game_id"], by_id["table_id"]) == (table.game_id, None)
    assert by_id["frame"] == ended["frame"]
    await ann.close()


async def test_no_live_replay_without_the_hosts_delay(make_server, gated):
    server = await make_server()
    ann = await Client.connect(server.url, "ann")
    table = await _gated_table(ann, server, gated, SAME)
    assert "--omniscient-delay" in _error(await ann.request("replay", table_id=table.id),
                                          "forbidden")
    _error(await ann.request("replay", game_id=table.game_id), "forbidden")
    await ann.close()


async def test_requests_for_one_perspective_share_one_rebuild_and_then_the_cache(
        make_server, db, monkeypatch):
    from server.net import replays

    builds, asked, go = [], [], threading.Event()
    real_build, real_row = replays.build, replays.game_row

    def slow_build(*args, **kwargs):
        builds.append(args[1])
        assert go.wait(10)
        return real_build(*args, **kwargs)

    def counted_row(*args):
        asked.append(args[1])
        return real_row(*args)

    monkeypatch.setattr(replays, "build", slow_build)
    monkeypatch.setattr(replays, "game_row", counted_row)
    gid = _games(db)["three-player-ipd"]
    server = await make_server()
    clients = [await Client.connect(server.url, f"p{i}") for i in range(4)]
    sent = [await c.send("replay", game_id=gid, seat=1, at=i) for i, c in enumerate(clients)]
    await _until(lambda: len(asked) == 4)  # each request past its checks, waiting on the one
    go.set()
    for i, (client, ref) in enumerate(zip(clients, sent, strict=True)):
        reply = await client.wait_for("replay", ref=ref)
        assert reply["frame"]["at"] == i
    again = await clients[0].request("replay", game_id=gid, seat=1, at=2)
    assert builds == [1] and again["frame"]["at"] == 2
    everywhere = await clients[0].request("replay", game_id=gid)
    assert builds == [1, None] and everywhere["seat"] is None
    # A build too large for the cache is answered, and made again next time.
    server.replays.cache = cachetools.LRUCache(10, getsizeof=lambda b: b.size)
    for _ in range(2):
        assert (await clients[1].request("replay", game_id=gid, seat=2))["seat"] == 2
    assert builds == [1, None, 2, 2]
    for c in clients:
        await c.close()


async def test_parlor_serve_takes_the_delay_and_says_so(tmp_path):
    from tests.server.net.test_serve_process import ServeProcess, parlor

    refused = parlor("serve", "--omniscient-delay", "0", "--db", str(tmp_path / "x.db"))
    assert refused.returncode == 2 and "whole number of actions, 1 or more" in refused.stderr
    server = ServeProcess(tmp_path, "--omniscient-delay", "3")
    try:
        assert "Omniscient delay: anyone may watch a table of bots only from everywhere, 3 " \
               "actions behind" in server.output()
        ann = await Client.connect(server.url, "ann")
        person = await ann.request("create_table", env="colonel-blotto", seats=["human", "random"],
                                   join_seat=0)
        await ann.wait_for("your_turn")
        # The delay is on: what is refused now is the person at the table.
        assert "seats a person" in _error(
            await ann.request("replay", table_id=person["table"]["id"]), "forbidden")
        await ann.close()
    finally:
        server.stop()


async def test_a_bot_output_too_long_for_a_client_is_left_out_of_its_frame_and_said(
        make_server, db):
    gid = _games(db)["colonel-blotto"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE actions SET raw_output = ? WHERE game_id = ? AND idx = 0",
                     ("thinking " * 200_000, gid))
    server = await make_server()
    ann = await Client.connect(server.url, "ann")
    step = await ann.request("replay", game_id=gid, at=1)  # a client reading up to 1 MiB
    assert step["frame"]["decision"]["raw_output"].startswith("(left out: this step's frame")
    assert step["frame"]["decision"]["raw"] == _replay(db, "colonel-blotto").actions[0].raw
    await ann.close()
