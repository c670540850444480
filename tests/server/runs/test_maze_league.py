"""`parlor league maze`: every model on the same puzzles, accuracy with a Wilson interval and the
task's breakdowns beside the paper's numbers, resumable, and bad input in one line."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3

import pytest

from server.cli import main


def _run(tmp_path, *extra):
    out, printed = tmp_path / "report.json", io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["league", "maze", "--task", "hidden-role", "--seat", "scripted:solver",
                     "scripted:deceived", "--instances", "12", "--preset", "released-easy",
                     "--db", str(tmp_path / "maze.db"), "--json", str(out), "--quiet",
                     *extra]) == 0
    return json.loads(out.read_text()), printed.getvalue()


def test_models_play_the_same_instances_and_are_scored_as_the_paper(tmp_path):
    report, printed = _run(tmp_path)
    task = report["tasks"]["hidden-role"]
    solver, deceived = task["models"]["scripted:solver"], task["models"]["scripted:deceived"]
    assert solver["games"] == deceived["games"] == 12
    assert solver["accuracy"] == 1.0 and solver["accuracy_95"][1] == pytest.approx(1.0)
    assert 0 <= deceived["accuracy"] < 1 and deceived["deceived_baseline"] > 0.5
    assert sum(r["games"] for r in solver["by_role"].values()) == 12
    assert task["published"]["DeepSeek-R1"] == 85.6 and "released" in task["published_on"]
    assert "paper (Table 8" in printed and "Table 2" in printed
    with sqlite3.connect(tmp_path / "maze.db") as c:
        seeds = c.execute("SELECT s.identity, CAST(g.seed AS INTEGER) AS seed FROM games g JOIN "
                          "seats s ON s.game_id = g.id ORDER BY seed").fetchall()
    by_model: dict[str, list[int]] = {}
    for identity, seed in seeds:
        by_model.setdefault(identity, []).append(seed)
    assert by_model["scripted:solver"] == by_model["scripted:deceived"] == list(range(12))
    again, _ = _run(tmp_path)
    assert again["played_now"] == 0
    assert again["tasks"] == report["tasks"]


@pytest.mark.parametrize("argv, message", [
    (["--task", "chess", "--seat", "random", "--instances", "2"], "unknown task 'chess'"),
    (["--seat", "random", "--instances", "0"], "--instances must be at least 1"),
    (["--seat", "random", "random", "--instances", "2"], "names random more than once"),
    (["--task", "hidden-role", "--seat", "random", "--instances", "2", "--preset", "huge"],
     "hidden-role has no preset 'huge'"),
    (["--task", "hidden-role", "--seat", "scripted:nope", "--instances", "2"],
     "unknown bot 'scripted:nope'"),
])
def test_bad_input_exits_2_with_one_line(argv, message, tmp_path, capsys):
    assert main(["league", "maze", *argv, "--db", str(tmp_path / "x.db"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_task_prefix_seats_a_model_in_one_task_only(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["league", "maze", "--task", "hidden-role", "social-graph", "--seat",
                 "scripted:solver", "social-graph:scripted:majority", "--instances", "4",
                 "--db", str(tmp_path / "m.db"), "--json", str(out), "--quiet"]) == 0
    tasks = json.loads(out.read_text())["tasks"]
    assert list(tasks["hidden-role"]["models"]) == ["scripted:solver"]
    assert list(tasks["social-graph"]["models"]) == ["scripted:solver", "scripted:majority"]
    assert tasks["social-graph"]["models"]["scripted:solver"]["accuracy"] == 1.0
    assert tasks["social-graph"]["published"]["o1"] == 99.2
    assert main(["league", "maze", "--task", "social-graph", "--seat",
                 "hidden-role:scripted:deceived", "--instances", "2"]) == 2
    assert "no --seat plays social-graph" in capsys.readouterr().err


def test_dataset_tasks_report_the_majority_baseline_and_the_paper(tmp_path):
    out, printed = tmp_path / "r.json", io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["league", "maze", "--task", "rating-estimation", "review-decision",
                     "user-profile", "find-the-spy", "--seat", "random",
                     "review-decision:scripted:majority", "user-profile:scripted:heuristic",
                     "--instances", "10", "--db", str(tmp_path / "d.db"), "--json", str(out),
                     "--quiet"]) == 0
    tasks = json.loads(out.read_text())["tasks"]
    review = tasks["review-decision"]["models"]["scripted:majority"]
    # always Reject: right exactly as often as the majority class of these instances
    assert review["accuracy"] == review["majority_baseline"]
    assert review["right_stage1"] == review["right_stage2"] == review["accuracy"]
    assert tasks["review-decision"]["published"]["GPT-4o"] == 90.2
    profile = tasks["user-profile"]["models"]["scripted:heuristic"]
    assert set(profile["by_kind"]) == {"user", "item"} and profile["games"] == 10
    assert tasks["user-profile"]["published"]["Human (avg.)"] == 73.9
    assert tasks["find-the-spy"]["preset"] == "passive"  # the league's one-solver task
    assert tasks["rating-estimation"]["published"]["o1"] == 76.2
    text = printed.getvalue()
    assert "majority class (always the most common decision)" in text
    assert "info/reviews/rebuttal (Table 5): GPT-4o 55.3/86.2/90.2" in text
    assert "by query kind: item" in text


# -- the paper's data: imported instances (issue 21) ------------------------------------------

def _league(tmp_path, *argv):
    out, printed = tmp_path / "imported.json", io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["league", "maze", *argv, "--json", str(out), "--quiet"])
    assert code == 0
    report = json.loads(out.read_text())
    return report["tasks"], printed.getvalue(), report["played_now"]


def test_a_league_plays_a_dataset_file_we_give_it(tmp_path):
    from tests.server.commands.test_maze_release import AMAZON

    path = tmp_path / "amazon.json"
    path.write_text(json.dumps(AMAZON), "utf-8")
    tasks, printed, _ = _league(tmp_path, "--file", str(path), "--seat", "scripted:majority",
                             "--db", str(tmp_path / "l.db"))
    rating = tasks["rating-estimation"]
    assert list(tasks) == ["rating-estimation"]
    assert rating["instances"] == {"imported": 2, "sources": {"amazon.json": 2}}
    # always 4: right on product_1 (4 stars), wrong on product_2 (2)
    assert rating["models"]["scripted:majority"]["games"] == 2
    assert rating["models"]["scripted:majority"]["accuracy"] == 0.5
    assert rating["published"]["GPT-4o"] == 76.0
    assert "on imported instances: rating-estimation 2 (amazon.json 2)" in printed
    assert "paper (Table 8" in printed


def test_a_league_plays_the_stored_instances_by_task_and_source(tmp_path, capsys):
    from tests.server.commands.test_maze_release import (
        AMAZON,
        LLM_WRITTEN,
        REVIEWS,
        SPY_PROCESSED,
        SPY_RAW,
    )

    db = str(tmp_path / "parlor.db")
    for name, content in (("amazon.json", AMAZON), ("llm.json", LLM_WRITTEN),
                          ("rdp.json", REVIEWS), ("spy.json", [SPY_PROCESSED, SPY_RAW])):
        path = tmp_path / name
        path.write_text(json.dumps(content), "utf-8")
        assert main(["--db", db, "maze", "import", str(path)]) == 0
    seats = ["rating-estimation:scripted:majority", "review-decision:scripted:majority",
             "find-the-spy:scripted:describer"]
    tasks, _, played = _league(tmp_path, "--stored", "--db", db, "--seat", *seats)
    assert played == 4 + 6 + 2
    assert list(tasks) == ["find-the-spy", "rating-estimation", "review-decision"]
    rating = tasks["rating-estimation"]
    assert rating["instances"]["sources"] == {"amazon.json": 2, "llm.json": 2}
    assert rating["models"]["scripted:majority"]["accuracy"] == 0.25  # 4 stars on 1 of 4
    review = tasks["review-decision"]["models"]["scripted:majority"]
    assert review["games"] == 6 and review["accuracy"] == pytest.approx(1 / 6)  # 5 accepted
    # words outside our bank: the describer names itself, right where Player 1 is the spy
    spy = tasks["find-the-spy"]
    assert spy["models"]["scripted:describer"]["accuracy"] == 0.5
    assert spy["published"]["Human (avg.)"] == 84.4
    again, _, played = _league(tmp_path, "--stored", "--db", db, "--seat", *seats)
    assert played == 0 and again["review-decision"]["models"] == tasks["review-decision"]["models"]
    out = tmp_path / "answers.jsonl"  # the paper's data exported as answers, labels and all
    assert main(["export", "--format", "socialmaze", "--db", db, "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    labels = {r["instance_id"]: r["expected_label"] for r in rows
              if r["env_name"] == "review-decision"}
    assert labels["or-1"] == "Accept (Poster)" and labels["or-6"] is None
    assert {r["instance_id"] for r in rows if r["env_name"] == "find-the-spy"} == {"7", "raw-8"}
    one, _, _ = _league(tmp_path, "--stored", "--source", "llm.json", "--db", db, "--seat", *seats)
    assert list(one) == ["rating-estimation"]
    assert one["rating-estimation"]["models"]["scripted:majority"]["accuracy"] == 0.0
    for argv, says in ((["--stored", "--task", "user-profile", "--db", db],
                        "no stored user-profile instance"),
                       (["--stored"], "give --db"),
                       (["--source", "x.json", "--db", db], "give --stored too"),
                       (["--db", db], "--instances N is required")):
        assert main(["league", "maze", "--seat", "random", *argv, "--quiet"]) == 2
        assert says in capsys.readouterr().err
