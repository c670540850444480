"""The `report` reply built from `parlor report`'s comparison: each metric and role a section,
each row with its group, interval, and (for a model or bot) its test against people and the
small-sample warning."""

from __future__ import annotations

import json
import math
import sqlite3

from server.reports import comparison, report_reply
from server.store.store import Store
from tests.server.conftest import Client
from tests.server.net.test_serve_process import ServeProcess
from tests.server.reports import stored_games as stored


def test_the_comparison_becomes_sections_of_rows_with_their_tests(monkeypatch):
    c = comparison
    found = c.Comparison(
        "colonel-blotto", "Colonel Blotto", c.Group("small", "abc123", "1", 14, 2),
        [c.Group(None, "def456", "1", 3, 0)], {"void": 2, "not in the people pool": 0},
        metrics=[c.MetricInfo("win", "rate", "Won", (None,)),
                 c.MetricInfo("correct_guesses", "ratio", "Correct guesses", ("operative",))],
        rows=[c.Row("win", None, "people", "people", 10, 10, 0.5, 0.24, 0.76),
              c.Row("win", None, "scripted:adaptive", "scripted", 4, 4, 1.0, 0.51, 1.0),
              c.Row("win", None, "gpt-x", "paper", 0, 0, 0.6, None, None, "Table 1"),
              c.Row("correct_guesses", "operative", "openai:m", "model", 3, 9, 0.3, 0.1, 0.6)],
        tests=[c.Test("win", None, "scripted:adaptive", 10, 4, "Fisher's exact", -0.5,
                      "odds ratio", math.inf, 0.09, "too few games to say anything")])
    asked = []

    def compare(conn, env, **options):
        asked.append((env, options))
        return found

    monkeypatch.setattr(report_reply, "compare", compare)

    def not_fitted(*args, **kwargs):
        raise report_reply.NotFitted("scored by accuracy")

    monkeypatch.setattr(report_reply, "fitted_ratings", not_fitted)
    reply = report_reply.build(None, "colonel-blotto", "people", None)
    assert asked == [("colonel-blotto", {"pool": "people", "by": "identity", "study": ""})]
    assert reply["title"] == "Colonel Blotto" and "14 finished games" in reply["pooled"]
    assert reply["left_out"][0] == "2 void" and len(reply["left_out"]) == 2
    win, guesses = reply["sections"]
    assert (win["metric"], win["kind"], win["role"]) == ("win", "rate", None)
    assert (guesses["kind"], guesses["role"]) == ("rate", "operative")  # a ratio is a share
    people, bot, paper = win["rows"]
    assert people["group"] == "people" and people["test"] is None
    assert bot["group"] == "bot" and bot["warning"] == "too few games to say anything"
    assert bot["test"] == {"name": "Fisher's exact; effect: odds ratio", "p_value": 0.09,
                           "effect": None}  # no infinity in JSON
    assert paper["group"] == "paper" and paper["low"] is None
    assert reply["notes"] == ["Paper rows: Table 1"]


async def test_a_report_of_stored_blotto_games_has_the_replys_shape(tmp_path):
    store = await Store.open(tmp_path / "parlor.db")
    try:
        for seed in range(6):
            await stored.store_game(store, "colonel-blotto", "small", seed,
                                    [stored.person(f"p{seed % 2}"), stored.bot("random")])
    finally:
        await store.close()
    conn = sqlite3.connect(tmp_path / "parlor.db")
    conn.row_factory = sqlite3.Row
    reply = report_reply.build(conn, "colonel-blotto", None, "kind")
    json.dumps(reply, allow_nan=False)  # what the server sends
    assert "6 finished games" in reply["pooled"]
    win = next(s for s in reply["sections"] if s["metric"] == "win")
    groups = {r["who"]: r["group"] for r in win["rows"]}
    assert groups["people"] == "people" and "bot" in groups.values()
    bot = next(r for r in win["rows"] if r["group"] == "bot")
    assert bot["games"] == 6 and set(bot["test"]) == {"name", "p_value", "effect"}
    assert bot["low"] <= bot["value"] <= bot["high"]
    # the fitted ratings of every player of the pool, last: two people (by pseudonym) and the
    # bot, each provisional at fewer than 10 games
    fitted = reply["sections"][-1]
    assert fitted["metric"] == "fitted_rating" and "6 games" in fitted["label"]
    rows = {r["who"]: r for r in fitted["rows"]}
    assert rows["random"]["group"] == "bot" and rows["random"]["games"] == 6
    people = [r for r in fitted["rows"] if r["group"] == "person"]
    assert len(people) == 2 and all(r["who"].startswith("p-") for r in people)
    assert all(r["low"] <= r["value"] <= r["high"] and "provisional" in r["warning"]
               for r in fitted["rows"])
    assert any(n.startswith("Fitted rating") for n in reply["notes"])


async def test_parlor_serve_answers_report_with_this_builder(tmp_path):
    serve = ServeProcess(tmp_path)
    try:
        ada = await Client.connect(serve.url, "ada")
        reply = await ada.request("report", env="colonel-blotto", pool="mixed")
        assert reply["type"] == "report", reply
        assert reply["pooled"] == "no finished games stored" and reply["sections"] == []
        assert reply["ratings_over_time"] == {"scheme": None, "series": []}
        await ada.close()
    finally:
        serve.stop()
