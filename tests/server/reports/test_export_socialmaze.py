"""`parlor export --format socialmaze`: one row per answer of the six SocialMaze tasks, people's
and bots' alike, from the events that were scored: the instance's id and hash, the player, which
answer, the answer, the expected one, right or not, and the decision's time."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from server.cli import main
from server.store.pseudonyms import Pseudonyms
from tests.dataset_task.test_game import PAPER
from tests.server.conftest import Client


def _sim(db: str, env: str, seats: list[str], games: int, *extra: str) -> None:
    argv = ["sim", env, *[a for s in seats for a in ("--seat", s)], "--games", str(games),
            "--db", db, "--quiet", *extra]
    assert main(argv) == 0


async def test_every_answer_is_a_row(tmp_path, capsys, make_server):
    srv = await make_server()
    ada = await Client.connect(srv.url, "ada")
    created = await ada.request("create_table", env="review-decision", seats=["human"],
                                join_seat=0, config={"instance": json.dumps(PAPER)})
    table_id = created["table"]["id"]
    for answer in ("Final Decision: Accept", "no idea", "Final Decision: Reject"):
        turn = await ada.wait_for("your_turn", table_id=table_id)
        await ada.send("act", table_id=table_id, turn=turn["turn"], action=answer)
    await ada.wait_for("game_over", table_id=table_id)
    await ada.close()
    await srv.stop()
    db = str(tmp_path / "parlor.db")
    await asyncio.to_thread(_sim, db, "hidden-role", ["scripted:solver"], 2)
    await asyncio.to_thread(_sim, db, "social-graph", ["scripted:solver"], 1)
    await asyncio.to_thread(_sim, db, "find-the-spy", ["scripted:describer"] * 4, 1)
    await asyncio.to_thread(_sim, db, "colonel-blotto", ["random", "random"], 1)  # not maze
    capsys.readouterr()
    out = tmp_path / "answers.jsonl"
    assert await asyncio.to_thread(main, ["export", "--format", "socialmaze", "--db", db,
                                          "--out", str(out)]) == 0
    assert "wrote 17 rows (5 games)" in capsys.readouterr().err  # 3 + 2 x 3 + 4 + 4
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    person = [r for r in rows if r["env_name"] == "review-decision"]
    assert [(r["number"], r["answer"], r["right"]) for r in person] == [
        (1, {"decision": "Accept"}, False), (2, {"decision": None}, False),
        (3, {"decision": "Reject"}, True)]
    first = person[0]
    with sqlite3.connect(db) as conn:  # a person by pseudonym, unless names are asked for
        ada = Pseudonyms(conn).label("human:ada", "human")
    assert (first["player"], first["player_kind"], first["seat"]) == (ada, "human", 0)
    assert "human:ada" not in out.read_text()
    assert first["instance_id"] == "demo-1" and len(first["content_hash"]) == 64
    assert first["expected"] == {"decision": "Reject"} and first["position"]["stage"] == 1
    assert first["latency_ms"] is not None and first["outcome"] == "ok"
    hidden = [r for r in rows if r["env_name"] == "hidden-role"]
    assert len(hidden) == 6 and all(r["player"] == "scripted:solver" for r in hidden)
    assert [r["position"]["round"] for r in hidden[:3]] == [1, 2, 3]
    assert hidden[2]["right"] and hidden[2]["answer"] == hidden[2]["expected"]
    graph = [r for r in rows if r["env_name"] == "social-graph"]
    assert len(graph) == 4 and all(r["right"] and r["answer"] == r["expected"] for r in graph)
    assert [r["position"]["kind"] for r in graph] == ["pairwise", "membership", "group_count",
                                                      "pair_count"]
    spy = [r for r in rows if r["env_name"] == "find-the-spy"]
    assert sorted(r["seat"] for r in spy) == [0, 1, 2, 3]
    assert all(r["right"] == (r["answer"] == r["expected"]) for r in spy)
