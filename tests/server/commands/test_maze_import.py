"""`parlor maze import FILE` stores a file's SocialMaze instances in the database; a table plays
one by id over real websockets (`create_table.instance`), `list_instances` lists them, and the
game's record carries the whole instance. Bad files, unknown ids and wrong requests get clear
errors and lose nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from server.cli import main
from tests.server.conftest import Client

PAPER = {"id": "or-17", "decision": "Accept", "statements": [
    {"round1": "Title: Quiet Gradients\nKeywords: optimisation\nAbstract: We make gradients "
               "quieter."},
    {"round2": "Reviewer 1: Convincing and clear.\nReviewer 2: Solid analysis."},
    {"round3": "Authors: Thank you; we added the ablation."}]}


def _import(tmp_path, capsys, name, content, *extra):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    code = main(["--db", str(tmp_path / "parlor.db"), "maze", "import", str(path), *extra])
    return code, capsys.readouterr().err


def _stored(tmp_path):
    with sqlite3.connect(tmp_path / "parlor.db") as c:
        return c.execute("SELECT env, id, source FROM maze_instances ORDER BY env, id").fetchall()


def test_import_tells_the_task_stores_once_and_refuses_other_content(tmp_path, capsys):
    broken = {"id": "or-18", "decision": "Perhaps", "statements": PAPER["statements"]}
    code, err = _import(tmp_path, capsys, "rdp.json", [PAPER, broken])
    assert code == 0
    assert "rdp.json (instance 2, id 'or-18'): field 'decision'" in err
    assert "1 review-decision instance from rdp.json: 1 new; 1 problem" in err
    assert _stored(tmp_path) == [("review-decision", "or-17", "rdp.json")]
    code, err = _import(tmp_path, capsys, "rdp.json", [PAPER])
    assert code == 0 and "0 new, 1 already stored" in err
    edited = {**PAPER, "decision": "Reject"}
    # the same source (named with --source: the file was renamed) with other content
    code, err = _import(tmp_path, capsys, "rdp2.json", [edited], "--source", "rdp.json")
    assert code == 1 and "1 id already stored with other content" in err and "or-17" in err
    code, err = _import(tmp_path, capsys, "rdp2.json", [edited], "--source", "rdp.json",
                        "--replace")
    assert code == 0 and "1 replaced" in err
    assert _stored(tmp_path) == [("review-decision", "or-17", "rdp.json")]
    with sqlite3.connect(tmp_path / "parlor.db") as c:
        assert json.loads(c.execute("SELECT record FROM maze_instances").fetchone()[0])[
            "answer"] == "Reject"


def test_every_task_imports_our_jsonl(tmp_path, capsys):
    for task in ("hidden-role", "social-graph", "rating-estimation", "review-decision",
                 "user-profile"):
        out = tmp_path / f"{task}.jsonl"
        assert main(["maze", "generate", "--task", task, "--count", "2", "--out", str(out)]) == 0
        code, err = _import(tmp_path, capsys, out.name, out.read_text("utf-8"))
        assert code == 0 and f"2 {task} instances" in err, err
    assert len(_stored(tmp_path)) == 10


@pytest.mark.parametrize(("content", "extra", "says"), [
    ("not json at all", (), "cannot tell which task"),
    ("[]", ("--task", "rating-estimation"), "no instance of rating-estimation"),
    ("{}", ("--task", "chess"), "unknown task 'chess'"),
])
def test_unusable_files_exit_2(tmp_path, capsys, content, extra, says):
    code, err = _import(tmp_path, capsys, "bad.json", content, *extra)
    assert code == 2 and says in err


async def test_a_table_plays_a_stored_instance_by_id(tmp_path, capsys, make_server):
    # the command runs outside the event loop, as from a shell beside the server
    assert (await asyncio.to_thread(_import, tmp_path, capsys, "rdp.json", [PAPER]))[0] == 0
    srv = await make_server()
    alice = await Client.connect(srv.url, "alice")
    listed = await alice.request("list_instances", env="review-decision")
    assert [(i["id"], i["source"]) for i in listed["instances"]] == [("or-17", "rdp.json")]
    assert listed["instances"][0]["summary"] == "Quiet Gradients" and listed["next"] is None
    created = await alice.request("create_table", env="review-decision", instance="or-17",
                                  seats=["human"], join_seat=0)
    table_id = created["table"]["id"]
    turn = await alice.wait_for("your_turn", table_id=table_id)
    evidence = turn["view"]["public"]["evidence"]
    assert evidence[0]["items"][0] == ["Title", "Quiet Gradients"]
    for stage in range(3):
        if stage:
            turn = await alice.wait_for("your_turn", table_id=table_id)
        await alice.send("act", table_id=table_id, turn=turn["turn"],
                         action="Final Decision: Accept")
    over = await alice.wait_for("game_over", table_id=table_id)
    assert over["result"]["rewards"] == {"0": 1.0}
    with sqlite3.connect(tmp_path / "parlor.db") as c:
        config = json.loads(c.execute("SELECT config FROM games").fetchone()[0])
    assert json.loads(config["instance"])["id"] == "or-17"  # the game replays without the row
    await alice.close()


async def test_bad_instance_requests_get_clear_errors(tmp_path, capsys, make_server):
    # the command runs outside the event loop, as from a shell beside the server
    assert (await asyncio.to_thread(_import, tmp_path, capsys, "rdp.json", [PAPER]))[0] == 0
    srv = await make_server()
    bob = await Client.connect(srv.url, "bob")
    cases = [
        (dict(env="review-decision", instance="or-99"), "unknown_instance", "parlor maze import"),
        (dict(env="colonel-blotto", instance="or-17"), "bad_config", "plays no stored"),
        (dict(env="review-decision", instance="or-17", config={"instance": "{}"}), "bad_config",
         "not both"),
        (dict(env="chess", instance="or-17"), "unknown_env", "chess"),
    ]
    for body, code, says in cases:
        reply = await bob.request("create_table", seats=["human"], **body)
        assert reply["type"] == "error" and reply["code"] == code and says in reply["message"]
    empty = await bob.request("list_instances", env="user-profile")
    assert empty["instances"] == [] and empty["next"] is None
    unknown = await bob.request("list_instances", env="chess")
    assert unknown["code"] == "unknown_env"
    assert (await bob.request("list_envs"))["type"] == "envs"  # the connection still works
    await bob.close()
