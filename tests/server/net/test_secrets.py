"""Hidden information stays hidden over real websockets until the game ends (issue 21).

A table playing an imported puzzle or a recorded game carries it whole in its config, answer and
all: every message the seat, a spectator and a stranger listing tables receive before
`game_over` is searched for the record, its id, its content hash and the secret words; the end
reveals them. A table with people gets a secret 128-bit seed from the server (a seed a player
chose would deal them the hidden setup), shown only at the end; bot tables and `parlor sim` keep
their chosen, repeatable seeds."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

import pytest

from bots.registry import make_bot
from engine.config import HIDDEN
from engine.dataset_task.files import dumps as dataset_line
from engine.hidden_role.dataset import dump_jsonl
from engine.hidden_role.generator import generate as hidden_role_puzzle
from engine.registry import get
from engine.social_graph.dataset import dumps as social_graph_line
from engine.social_graph.generator import generate as social_graph_puzzle
from server.cli import main
from tests.server.conftest import Client

SPY_WORD = "quokka"  # the recording's odd word: the solver (Player 1) holds "pond"
RECORDED = {"id": "leak-probe-spy", "words": ["pond", "pond", SPY_WORD, "pond"],
            "descriptions": [{"round": 1, "player": p, "text": f"Player {p} talks about water."}
                             for p in (1, 2, 3, 4)]}


def _dataset(env_id: str) -> str:
    env = get(env_id)
    return dataset_line(env.task.generate(3, env.config()))


# env, preset, the hidden config field and its value, the bot that answers for the seat,
# secret words besides the record itself
CASES = [
    ("hidden-role", "paper", "instance",
     dump_jsonl([hidden_role_puzzle("full", 6, 3, "uniform", seed=3)]).strip(),
     "scripted:solver", ()),
    ("social-graph", "easy", "instance", social_graph_line(social_graph_puzzle(3, "easy")),
     "scripted:solver", ()),
    ("rating-estimation", "paper", "instance", _dataset("rating-estimation"), "scripted:majority",
     ()),
    ("review-decision", "paper", "instance", _dataset("review-decision"), "scripted:majority",
     ()),
    ("user-profile", "paper", "instance", _dataset("user-profile"), "scripted:majority", ()),
    ("find-the-spy", "passive", "recorded", json.dumps(RECORDED), "scripted:describer",
     (SPY_WORD,)),
]


async def _play(url: str, env_id: str, preset: str, field: str, value: str, bot_spec: str
                ) -> tuple[list[Client], dict[str, Any]]:
    """A table of one person playing `value`, watched by a spectator and listed by a stranger
    after every move; the clients (seat, spectator, stranger) and the seat's game_over."""
    seat, watcher, stranger = [await Client.connect(url, n) for n in ("solver", "watcher", "eve")]
    created = await seat.request("create_table", env=env_id, preset=preset,
                                 config={field: value}, seats=["human"])
    table_id = created["table"]["id"]
    await watcher.request("spectate", table_id=table_id)
    await stranger.request("list_tables")
    await seat.request("join", table_id=table_id, seat=0)
    bot = make_bot(bot_spec, env_id, 0)
    while True:
        msg = await seat.recv()
        if msg["type"] == "game_over":
            over = msg
            break
        if msg["type"] == "your_turn":
            decision = await bot.decide(msg["view"], msg["legal"], {})
            await seat.send("act", table_id=table_id, turn=msg["turn"], action=decision.action)
            await stranger.request("list_tables")
            await stranger.request("history", table_id=table_id)
    await watcher.wait_for("game_over", table_id=table_id)
    await stranger.request("list_tables")
    return [seat, watcher, stranger], over


def _ended(msg: dict[str, Any]) -> bool:
    """The game is over in this message: game_over, or the events that end it (the hidden setup
    revealed)."""
    return msg["type"] == "game_over" or '"setup_revealed"' in json.dumps(msg)


@pytest.mark.parametrize(("env_id", "preset", "field", "value", "bot", "words"), CASES,
                         ids=[c[0] for c in CASES])
async def test_no_message_before_the_end_holds_the_puzzle_and_the_end_reveals_it(
        make_server, tmp_path, env_id, preset, field, value, bot, words):
    srv = await make_server(client_seeds=False)
    clients, over = await _play(srv.url, env_id, preset, field, value, bot)
    setup = over["setup"]
    instance_id = setup.get("instance_id") or setup.get("recording_id")
    secrets = [json.dumps(value)[1:-1], value, instance_id, *words]
    secrets += [setup[k] for k in ("content_hash", "groups") if k in setup]
    assert all(secrets) and {"answer", "answers", "spy_word"} & setup.keys()
    for who, client in zip(("seat", "spectator", "stranger"), clients, strict=True):
        end = next((i for i, m in enumerate(client.received) if _ended(m)),
                   len(client.received))
        for msg in client.received[:end]:
            text = json.dumps(msg)
            leaked = [s for s in secrets if s in text]
            assert not leaked, f"{msg['type']} to the {who} holds {leaked}"
            for table in [msg.get("table"), *(msg.get("tables") or [])]:
                if table:
                    assert table["config"][field] == HIDDEN
        for msg in client.received[end:]:  # a lobby listing after the end still hides it
            assert value not in json.dumps(msg)
    for client in clients[:2]:  # the seat and the spectator are told everything at the end
        told = json.dumps(next(m for m in client.received if m["type"] == "game_over"))
        assert all(json.dumps(s)[1:-1] in told for s in secrets[2:])
    with sqlite3.connect(tmp_path / "parlor.db") as c:  # the record keeps it, for replay
        stored = json.loads(c.execute("SELECT config FROM games").fetchone()[0])
    assert stored[field] == value
    for client in clients:
        await client.close()


async def test_a_stored_instance_played_by_id_stays_hidden(make_server, tmp_path, capsys):
    line = _dataset("rating-estimation")
    path = tmp_path / "re.jsonl"
    path.write_text(line + "\n", "utf-8")
    # the command runs outside the event loop, as from a shell beside the server
    assert await asyncio.to_thread(main, ["--db", str(tmp_path / "parlor.db"), "maze",
                                          "import", str(path)]) == 0
    instance_id = json.loads(line)["id"]
    srv = await make_server(client_seeds=False)
    alice, eve = [await Client.connect(srv.url, n) for n in ("alice", "eve")]
    created = await alice.request("create_table", env="rating-estimation",
                                  instance=instance_id, seats=["human"], join_seat=0)
    assert created["table"]["config"]["instance"] == HIDDEN
    listed = await eve.request("list_tables")
    assert listed["tables"][0]["config"]["instance"] == HIDDEN
    answer = json.dumps(json.loads(line)["answer"])
    assert instance_id not in json.dumps(created) + json.dumps(listed)
    assert answer not in json.dumps(listed)
    for client in (alice, eve):
        await client.close()


# -- seeds ------------------------------------------------------------------------------------
async def _one_blotto_game(url: str, name: str, **create: Any) -> tuple[Client, dict[str, Any]]:
    """A person plays Colonel Blotto against a bot to the end; the client and its game_over."""
    me = await Client.connect(url, name)
    created = await me.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "scripted:uniform"], join_seat=0, **create)
    assert created["type"] == "table", created
    table_id = created["table"]["id"]
    while True:
        msg = await me.recv()
        if msg["type"] == "game_over":
            return me, msg
        if msg["type"] == "your_turn":
            await me.send("act", table_id=table_id, turn=msg["turn"], action="[A7 B7 C6]")


async def test_a_table_with_people_gets_a_secret_128_bit_seed_shown_at_the_end(make_server,
                                                                            tmp_path):
    srv = await make_server(client_seeds=False)
    seeds = []
    for name in ("ann", "bob"):
        me, over = await _one_blotto_game(srv.url, name)
        seed = over["seed"]
        assert isinstance(seed, str) and int(seed) >= 2**64  # 128 random bits: < 2^64 is 2^-64
        end = me.received.index(over)
        assert not any(seed in json.dumps(m) for m in me.received[:end])
        seeds.append(seed)
        await me.close()
    assert seeds[0] != seeds[1]
    with sqlite3.connect(tmp_path / "parlor.db") as c:  # kept whole, as text of its digits
        assert [r[0] for r in c.execute("SELECT seed FROM games ORDER BY id")] == seeds
    game = await srv.store.game(1)
    assert game is not None and game["seed"] == int(seeds[0])
    record = await srv.store.load_record(1)
    assert record is not None and record.seed == int(seeds[0])
    replayed = get("colonel-blotto").replay(record)  # the seed replays the game
    assert replayed.over and replayed.result == record.result


async def test_a_chosen_seed_is_refused_at_a_table_with_people(make_server):
    srv = await make_server(client_seeds=False)
    alice = await Client.connect(srv.url, "alice")
    for seats in (["human", "scripted:uniform"], ["human", "human"]):
        refused = await alice.request("create_table", env="colonel-blotto", seats=seats,
                                      seed=7)
        assert refused["type"] == "error" and refused["code"] == "bad_config"
        assert "allow-client-seeds" in refused["message"]
    mafia = await alice.request("create_table", env="secret-mafia",
                                seats=["human", *["random"] * 5], seed=3)
    assert mafia["type"] == "error" and mafia["code"] == "bad_config"
    assert srv.tables == {}
    await alice.close()


async def test_bot_tables_and_hosts_that_allow_it_keep_chosen_seeds(make_server):
    srv = await make_server(client_seeds=False)
    alice = await Client.connect(srv.url, "alice")
    overs = []
    for _ in range(2):  # a bot-only table with a seed plays the same game each time
        created = await alice.request("create_table", env="colonel-blotto", preset="small",
                                      seats=["random", "random"], seed=11)
        table_id = created["table"]["id"]
        await alice.request("spectate", table_id=table_id)
        over = await alice.wait_for("game_over", table_id=table_id)
        overs.append(over)
    assert overs[0]["seed"] == overs[1]["seed"] == "11"
    assert overs[0]["result"] == overs[1]["result"]
    await alice.close()
    allowing = await make_server(client_seeds=True)
    me, over = await _one_blotto_game(allowing.url, "carol", seed=5)
    assert over["seed"] == "5"
    await me.close()


def test_parlor_sim_plays_its_seeds(tmp_path, capsys):
    db = tmp_path / "sim.db"
    args = ["sim", "colonel-blotto", "--preset", "small", "--seat", "random", "--seat",
            "random", "--games", "2", "--seed", "40", "--db", str(db), "--quiet"]
    assert main(args) == 0
    with sqlite3.connect(db) as c:
        first = c.execute("SELECT seed, result FROM games ORDER BY id").fetchall()
    assert [int(s) for s, _ in first] == [40, 41]
    db.unlink()
    assert main(args) == 0
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT seed, result FROM games ORDER BY id").fetchall() == first


async def test_seeds_stored_before_become_text_and_read_back_as_numbers(tmp_path):
    from server.store.migrations import MIGRATIONS
    from server.store.names import skeleton
    from server.store.store import Store
    from tests.server.conftest import schema_at

    before = next(i for i, script in enumerate(MIGRATIONS) if "seed_digits" in script)
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as c:
        c.create_function("name_skeleton", 1, skeleton, deterministic=True)  # as the store does
        schema_at(c, before)
        c.execute("INSERT INTO games (table_id, env, rules_version, config, seed, started, "
                  "status) VALUES ('t1', 'colonel-blotto', '1', '{}', 9007199254740993, 0, "
                  "'void')")
    store = await Store.open(str(db))
    try:
        game = await store.game(1)
        assert game is not None and game["seed"] == 9007199254740993
        listed = await store.games()
        assert [g["seed"] for g in listed] == [9007199254740993]
    finally:
        await store.close()
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT seed, typeof(seed) FROM games").fetchone() == \
            ("9007199254740993", "text")
