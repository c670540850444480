"""SocialGrid at a table over real websockets: the `lockstep` pace waits for a person, the
`tick` pace makes a person who has not moved stand still and goes on."""

from __future__ import annotations

from tests.server.conftest import Client
from tests.server.net.test_play import rows

SEATS = ["human"] + ["random"] * 6


async def test_a_tick_table_moves_on_without_the_person(server):
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="socialgrid", seats=SEATS, seed=4,
                               join_seat=0, config={"pace": "tick", "tick_ms": 150}))["table"]
    first = await ada.wait_for("your_turn")
    assert first["deadline"] is not None
    steps = []
    while len(steps) < 3:  # ada never answers: the steps go on, one tick each
        msg = await ada.recv()
        if msg["type"] == "event":
            steps += [e["data"]["step"] for e in msg["events"] if e["type"] == "step"]
    assert steps[:3] == [1, 2, 3]
    stood = rows(server.db_path, "SELECT outcome, error FROM actions WHERE seat = 0")
    assert stood[:3] == [{"outcome": "defaulted", "error": "tick"}] * 3
    await ada.request("leave", table_id=table["id"])


async def test_a_lockstep_table_waits_for_the_person(server):
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="socialgrid", seats=SEATS, seed=4,
                               join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")
    noop = next(o["id"] for o in turn["legal"]["options"] if o["label"] == "NOOP")
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action={"choice": noop})
    msg = await ada.wait_for("event")
    while not any(e["type"] == "step" for e in msg["events"]):
        msg = await ada.wait_for("event")
    assert [e["data"]["step"] for e in msg["events"] if e["type"] == "step"] == [1]
    second = await ada.wait_for("your_turn")
    assert second["turn"] == turn["turn"] + 1
    assert rows(server.db_path, "SELECT count(*) n FROM actions WHERE seat = 0")[0]["n"] == 1
    await ada.request("leave", table_id=table["id"])


async def test_a_player_count_the_config_forbids_is_refused_when_the_table_is_made(server):
    """Two players with one impostor leave one crewmate (not more than the impostors); ten on
    one 7x7 room need 24 stations where 8 fit: each request gets one `bad_config` naming the
    rule, and no table is left waiting."""
    ada = await Client.connect(server.url, "ada")
    requests = [
        ({"seats": ["human", "random"], "config": {"impostors": 1}},
         "more crewmates than impostors"),
        ({"seats": ["random"] * 10, "config": {"room_size": 7, "rows": 1, "cols": 1}},
         "task stations"),
    ]
    for body, rule in requests:
        before = len(ada.received)
        reply = await ada.request("create_table", env="socialgrid", seed=3, **body)
        assert reply["type"] == "error" and reply["code"] == "bad_config"
        assert rule in reply["message"]
        assert [m["type"] for m in ada.received[before:]] == ["error"]
    lobby = await ada.request("list_tables")
    assert lobby["tables"] == []
    assert not server.tables
