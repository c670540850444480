"""Hidden Role Deduction at a table over real websockets (as tests/server/tables/test_socialgrid_tables.py
does for SocialGrid's `tick` pace): with `seconds_per_round` a person who does not answer gets
the default answer (no criminal, Unknown: wrong) and the next round comes, to the end of the
game; without it the table waits for the person."""

from __future__ import annotations

import json

from engine.hidden_role.dataset import to_record
from tests.hidden_role.helpers import FIG6
from tests.server.conftest import Client
from tests.server.net.test_play import rows

FIG6_LINE = json.dumps(to_record(FIG6))


async def test_a_timed_table_answers_for_the_person_and_moves_on(server):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="hidden-role", seats=["human"], join_seat=0,
                      config={"instance": FIG6_LINE, "seconds_per_round": 1})
    first = await ada.wait_for("your_turn")
    assert first["deadline"] is not None and first["legal"]["kind"] == "form"
    revealed, over = [], None
    while over is None:  # ada never answers: every round runs out, then the game ends
        msg = await ada.recv()
        if msg["type"] == "event":
            revealed += [e["data"]["round"] for e in msg["events"] if e["type"] == "statements"]
        elif msg["type"] == "game_over":
            over = msg
    assert revealed[-2:] == [2, 3]  # each timed-out round brought the next one
    assert over["result"]["winners"] == [] and over["result"]["rewards"] == {"0": -1.0}
    defaulted = rows(server.db_path, "SELECT outcome, error FROM actions WHERE seat = 0")
    assert defaulted == [{"outcome": "defaulted", "error": "tick"}] * 3
    scores = [e for e in ada.received if e["type"] == "event"
              for e in e["events"] if e["type"] == "scores"]
    assert [r["both"] for r in scores[0]["data"]["rounds"]] == [False, False, False]


async def test_an_untimed_table_waits_for_the_person(server):
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="hidden-role", seats=["human"], join_seat=0,
                               config={"instance": FIG6_LINE}))["table"]
    turn = await ada.wait_for("your_turn")
    await ada.send("act", table_id=table["id"], turn=turn["turn"],
                   action={"criminal": "2", "role": "Investigator"})
    second = await ada.wait_for("your_turn")
    assert second["turn"] == turn["turn"] + 1
    assert rows(server.db_path, "SELECT outcome FROM actions WHERE seat = 0") == [
        {"outcome": "ok"}]
    await ada.request("leave", table_id=table["id"])
