"""The paper's own data, file by file (issue 21): files WE write in the shape of SocialMaze's
public release import whole — Review Decision's accept variants, Rating Estimation's reviews with
no text, two rating files that reuse each other's ids, Find the Spy's passive set in both of its
forms — and a table plays each stored instance over real websockets."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from engine.dataset_task.files import read
from engine.rating_estimation.task import TASK as RATING
from engine.registry import get
from engine.review_decision.task import TASK as REVIEW
from server.cli import main
from server.store import store
from server.store.migrations import MIGRATIONS
from server.store.store import Store
from tests.server.conftest import Client

ROUNDS = [{"round1": "Title: Quiet Gradients\nKeywords: optimisation\nAbstract: We make "
                     "gradients quieter."},
          {"round2": "Reviewer 1: Convincing and clear.\nReviewer 2: Solid analysis."},
          {"round3": "Authors: Thank you; we added the ablation."}]
DECISIONS = ["Accept (Poster)", "Accept: poster", "Accept (Spotlight)", "accept  (oral)",
             "ACCEPT (ORAL)", "Reject"]
REVIEWS = [{"id": f"or-{i}", "decision": d, "statements": ROUNDS}
           for i, d in enumerate(DECISIONS, 1)]


def _product(pid, rating, *texts):
    return {"scenario_id": pid, "true_rating": rating,
            "formatted_reviews": [{"reviewer_id": str(i), "text": t}
                                  for i, t in enumerate(texts, 1)]}


AMAZON = [_product("product_1", 4, "Sturdy and quiet.", ""),
          _product("product_2", 2, " ", "Broke in a week.")]
LLM_WRITTEN = [_product("product_1", 1, "Flimsy; the lid cracked at once."),
               _product("product_2", 5, "Superb, would buy again.")]

WORDS = ["cake", "cake", "cookie", "cake"]
SAID = {1: ["A layered treat with frosting.", "Candles go on top.", "Weddings have tall ones."],
        2: ["Served at birthdays.", "Flour, sugar, eggs, baked.", "Sliced into wedges."],
        3: ["Small and round, dunked in milk.", "Chocolate chips inside.", "Comes in a jar."],
        4: ["The centre of a party table.", "Layers and icing.", "Bakeries sell whole ones."]}
SPY_PROCESSED = {"scenario_id": 7, "normal_word": "cake", "spy_word": "cookie", "spy_player": 3,
                 "player_words": WORDS, "num_rounds": 3,
                 "statements": [[{"player": p, "statement": SAID[p][r]} for p in range(1, 5)]
                                for r in range(3)]}
SPY_RAW = {"scenario_id": "raw-8", "normal_word": "lake", "spy_word": "ocean", "spy_player": 1,
           "num_rounds": 2,
           "descriptions": {f"Player {p}": [f"Round {r}, player {p}: water." for r in (1, 2)]
                            for p in range(1, 5)}}


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def _import(tmp_path, capsys, name, content, *extra):
    path = _write(tmp_path, name, content)
    code = main(["--db", str(tmp_path / "parlor.db"), "maze", "import", str(path), *extra])
    return code, capsys.readouterr().err


def _stored(tmp_path, env):
    with sqlite3.connect(tmp_path / "parlor.db") as c:
        return c.execute("SELECT source, id FROM maze_instances WHERE env = ? ORDER BY source, "
                         "id", (env,)).fetchall()


# -- Review Decision -------------------------------------------------------------------------

def test_every_accept_variant_is_accept_and_keeps_its_label():
    loaded = read(REVIEW, json.dumps(REVIEWS).encode(), "rdp.json")
    assert loaded.problems == []
    answers = [(i.answer["decision"], i.record.get("answer_label")) for i in loaded.instances]
    assert answers == [("Accept", "Accept (Poster)"), ("Accept", "Accept: poster"),
                       ("Accept", "Accept (Spotlight)"), ("Accept", "accept (oral)"),
                       ("Accept", "ACCEPT (ORAL)"), ("Reject", None)]
    odd = read(REVIEW, json.dumps([{**REVIEWS[0], "decision": "Acceptable"}]).encode(), "x")
    assert [p.field for p in odd.problems] == ["decision"]


def test_the_label_is_told_at_the_end():
    env = get("review-decision")
    [first] = read(REVIEW, json.dumps(REVIEWS[:1]).encode(), "rdp.json").instances
    game = env.new_game(env.config(overrides={"instance": json.dumps(dict(first.record))}), 1,
                        1)
    for _ in range(3):
        game.act(0, "Final Decision: Reject")
    assert "the release says 'Accept (Poster)'" in game.result.reason
    setup = game.view(0)["public"]["setup"]
    assert setup["answer"] == {"decision": "Accept"} and setup["answer_label"] == \
        "Accept (Poster)"


def test_an_imported_review_set_is_not_all_reject(tmp_path, capsys):
    code, err = _import(tmp_path, capsys, "rdp.json", REVIEWS)
    assert code == 0 and "6 review-decision instances from rdp.json: 6 new" in err, err
    with sqlite3.connect(tmp_path / "parlor.db") as c:
        answers = [json.loads(r[0])["answer"] for r in c.execute(
            "SELECT record FROM maze_instances")]
    assert answers.count("Accept") == 5 and answers.count("Reject") == 1


# -- Rating Estimation -----------------------------------------------------------------------

def test_a_review_with_no_text_is_kept_and_shown_as_a_rating_only():
    from engine.rating_estimation.task import NO_TEXT

    loaded = read(RATING, json.dumps(AMAZON).encode(), "amazon.json")
    assert loaded.problems == [] and [i.id for i in loaded.instances] == ["product_1",
                                                                          "product_2"]
    env = get("rating-estimation")
    game = env.new_game(env.config(overrides={"instance": json.dumps(
        dict(loaded.instances[1].record))}), 1, 1)
    shown = env.render(game.view(0))
    assert f"Reviewer #1: {NO_TEXT}" in shown and "Reviewer #2: Broke in a week." in shown


async def test_two_files_with_the_same_ids_are_both_stored_and_played(tmp_path, capsys,
                                                                       make_server):
    for name, content in (("amazon.json", AMAZON), ("llm.json", LLM_WRITTEN)):
        code, err = await asyncio.to_thread(_import, tmp_path, capsys, name, content)
        assert code == 0 and "2 new" in err, err
    assert _stored(tmp_path, "rating-estimation") == [
        ("amazon.json", "product_1"), ("amazon.json", "product_2"),
        ("llm.json", "product_1"), ("llm.json", "product_2")]
    srv = await make_server()
    alice = await Client.connect(srv.url, "alice")
    plays = {e["id"]: e["stored_instances"] for e in alice.welcome["envs"]}
    assert plays["find-the-spy"] and plays["rating-estimation"] and not plays["colonel-blotto"]
    listed = await alice.request("list_instances", env="rating-estimation")
    assert [(i["id"], i["source"]) for i in listed["instances"]] == [
        ("product_1", "amazon.json"), ("product_1", "llm.json"),
        ("product_2", "amazon.json"), ("product_2", "llm.json")]
    page = await alice.request("list_instances", env="rating-estimation", limit=1)
    assert (page["next"], page["next_source"]) == ("product_1", "amazon.json")
    second = await alice.request("list_instances", env="rating-estimation", limit=1,
                                 after="product_1", after_source="amazon.json")
    assert [(i["id"], i["source"]) for i in second["instances"]] == [("product_1", "llm.json")]
    only = await alice.request("list_instances", env="rating-estimation", source="llm.json")
    assert {i["source"] for i in only["instances"]} == {"llm.json"}
    ambiguous = await alice.request("create_table", env="rating-estimation",
                                    instance="product_1", seats=["human"])
    assert ambiguous["code"] == "bad_config" and "amazon.json, llm.json" in ambiguous["message"]
    missing = await alice.request("create_table", env="rating-estimation",
                                  instance="product_1", instance_source="nowhere.json",
                                  seats=["human"])
    assert missing["code"] == "unknown_instance" and "nowhere.json" in missing["message"]
    for source, truth in (("llm.json", "1"), ("amazon.json", "4")):
        created = await alice.request("create_table", env="rating-estimation",
                                      instance="product_1", instance_source=source,
                                      seats=["human"], join_seat=0)
        table_id = created["table"]["id"]
        turn = await alice.wait_for("your_turn", table_id=table_id)
        await alice.send("act", table_id=table_id, turn=turn["turn"], action=f"Final Rating: "
                                                                             f"{truth}")
        over = await alice.wait_for("game_over", table_id=table_id)
        assert over["result"]["rewards"] == {"0": 1.0}  # each source's own answer
    await alice.close()


def test_the_schema_moves_stored_instances_to_their_source(tmp_path, monkeypatch):
    db = tmp_path / "old.db"
    ours = next(i for i, m in enumerate(MIGRATIONS) if "maze_instances_by_source" in m)
    with monkeypatch.context() as m:  # a database at the schema before the source was a key
        m.setattr(store, "MIGRATIONS", MIGRATIONS[:ours])
        c = Store._connect(str(db))
        c.execute("INSERT INTO maze_instances VALUES ('rating-estimation', 'product_1', 'h', "
                  "'{}', 'a product', 'amazon.json', 1.0)")
        c.close()
    path = _write(tmp_path, "llm.json", LLM_WRITTEN)
    assert main(["--db", str(db), "maze", "import", str(path)]) == 0
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        assert c.execute("SELECT source, id, summary FROM maze_instances ORDER BY source, id"
                         ).fetchall()[:2] == [("amazon.json", "product_1", "a product"),
                                              ("llm.json", "product_1",
                                               "Flimsy; the lid cracked at once.")]


# -- Find the Spy ----------------------------------------------------------------------------

def test_both_release_forms_load_and_bad_records_are_problems(tmp_path):
    from engine.find_the_spy.dataset import read as read_spy

    bad = [{**SPY_PROCESSED, "scenario_id": 9, "spy_player": 2},
           {**SPY_RAW, "scenario_id": 10, "num_rounds": 3},
           {k: v for k, v in SPY_PROCESSED.items() if k != "statements"} | {"scenario_id": 11},
           {**SPY_PROCESSED, "scenario_id": 12,
            "statements": [[{"player": 6, "statement": "x"}]]}]
    text = "\n".join(json.dumps(r) for r in [SPY_PROCESSED, *bad, SPY_RAW]) + "\n"
    loaded = read_spy(text.encode(), "spy.jsonl")
    assert [r["id"] for r in loaded.instances] == ["7", "raw-8"]
    cake, lake = loaded.instances
    assert cake["words"] == WORDS and len(cake["descriptions"]) == 12
    assert cake["descriptions"][2] == {"round": 1, "player": 3,
                                       "text": "Small and round, dunked in milk."}
    assert lake["words"] == ["ocean", "lake", "lake", "lake"]
    assert [(d["round"], d["player"]) for d in lake["descriptions"]][:5] == [
        (1, 1), (1, 2), (1, 3), (1, 4), (2, 1)]
    said = [(p.line, p.instance_id, p.field) for p in loaded.problems]
    assert said == [(2, "9", "spy_player"), (3, "10", "num_rounds"),
                    (4, "11", "descriptions"), (5, "12", "statements[1][0].player")]
    assert str(loaded.problems[0]).startswith("spy.jsonl (line 2, instance 2, id '9'): field "
                                              "'spy_player'")
    as_list = read_spy(json.dumps([SPY_RAW, SPY_PROCESSED]).encode(), "spy.json")
    assert [r["id"] for r in as_list.instances] == ["raw-8", "7"] and not as_list.problems


async def test_a_stored_spy_game_is_played_passively_as_player_1(tmp_path, capsys,
                                                                 make_server):
    code, err = await asyncio.to_thread(_import, tmp_path, capsys, "spy.json",
                                        [SPY_PROCESSED, SPY_RAW])
    assert code == 0 and "2 find-the-spy instances from spy.json: 2 new" in err, err
    srv = await make_server()
    bob = await Client.connect(srv.url, "bob")
    listed = await bob.request("list_instances", env="find-the-spy")
    assert [i["id"] for i in listed["instances"]] == ["7", "raw-8"]
    # no content hash either: one could try spy words until one hashed the same
    assert all(set(i) == {"id", "summary", "source", "imported"} for i in listed["instances"])
    assert "cookie" not in json.dumps(listed) and "cake" not in json.dumps(listed)
    created = await bob.request("create_table", env="find-the-spy", instance="7",
                                seats=["human"], join_seat=0)
    table_id = created["table"]["id"]
    turn = await bob.wait_for("your_turn", table_id=table_id)
    view = turn["view"]
    assert view["private"]["word"] == "cake" and view["public"]["passive"]
    assert [d["text"] for d in view["public"]["descriptions"]][2] == \
        "Small and round, dunked in milk."
    await bob.send("act", table_id=table_id, turn=turn["turn"], action="Final Answer: Player 3")
    over = await bob.wait_for("game_over", table_id=table_id)
    assert over["result"]["rewards"] == {"0": 1.0}
    assert over["setup"]["spy_player"] == 3 and over["setup"]["recording_id"] == "7"
    await bob.close()


def test_maze_solve_says_a_spy_file_is_played_not_solved(tmp_path, capsys):
    path = _write(tmp_path, "spy.json", [SPY_PROCESSED])
    assert main(["maze", "solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "holds find-the-spy instances: there is no solver" in err
    assert "parlor league maze --file" in err and err.count("\n") == 1
