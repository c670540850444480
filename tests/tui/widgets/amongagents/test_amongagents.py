"""AmongAgents played by a person in the TUI, keys only, against four scripted bots on the embedded
server: the ship map, moving along a task's way, doing the task, reporting a body, speaking at the
meeting (digits typed in the line stay in the line) and voting, at 120x40 and at 80x24."""

from __future__ import annotations

import os
from typing import Any

import pytest

from engine.registry import get
from tests.tui.helpers import on_screen, our_turn_or_end, wait_for, wait_for_text
from tui.app import ParlorApp
from tui.widgets.amongagents.game import KEYS, AmongAgentsGame
from tui.widgets.amongagents.ship_map import SHORT, ShipMap

# At this seed seat 0 is a crewmate, and playing as `_choice` does it moves, does a task, moves,
# finds a body and reports it, speaks three times and votes (asserted below).
SEED = 0
SEATS = ["human"] + ["scripted:agent"] * 4
SPEECH = "I saw 2 people near 3 rooms"
IMPOSTOR_SEED = 2  # seat 0 is the impostor


def _choice(legal: dict[str, Any], private: dict[str, Any]) -> tuple[int, str]:
    """What the person does: report a body, else do a task here, else vote for the first
    listed, else walk the shortest way to the nearest unfinished task. (index, what)"""
    ids = [o["id"] for o in legal.get("options") or ()]
    if "report" in ids:
        return ids.index("report"), "report"
    for i, option in enumerate(ids):
        if option.startswith("task:"):
            return i, "task"
    if any(i.startswith("vote:") for i in ids):
        return 0, "vote"
    open_tasks = [t for t in private["tasks"] if not t["done"]]
    path = min((t["path"] for t in open_tasks), key=len)
    return ids.index(f"move:{path[1]}"), "move"


def _events(app, kind: str) -> list[dict[str, Any]]:
    return [e["data"] for e in app.session.events if e["type"] == kind]


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_crewmate_moves_does_a_task_reports_a_body_and_votes(embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="amongagents", seats=SEATS, join_seat=0, seed=SEED)
        turn = await our_turn_or_end(pilot, app)
        assert turn is not None and app.screen.query(AmongAgentsGame)  # the env's own widget
        assert app.session.private["role"] == "Crewmate"
        # Everyone starts in the Cafeteria: the map marks it, and the rooms a corridor away.
        text = await wait_for_text(pilot, "●Cafeteria", "›Weapons", "›Medbay", "1  MOVE from "
                                   "Cafeteria to")
        assert "Timestep 0/50" in text and "≋" not in text  # a crewmate is shown no vents
        done: list[str] = []
        while (turn := await our_turn_or_end(pilot, app)) is not None:
            legal, private = app.session.legal, app.session.private
            if legal["kind"] == "text":  # a meeting's discussion: the line is open
                await wait_for(pilot, lambda: app.screen.focused is not None
                               and app.screen.focused.id == "aa-say", "the speech line")
                await pilot.press(*SPEECH, "enter")
                done.append("speak")
            else:
                index, what = _choice(legal, private)
                await pilot.press(KEYS[index])
                if what == "move" and "move" not in done:  # the map follows the person
                    to = legal["options"][index]["id"].removeprefix("move:")
                    ship = app.screen.query_one(ShipMap)
                    await wait_for(pilot, lambda ship=ship, to=to: ship.state.here == to,
                                   f"the map at {to}")
                    # drawn under its full or its short name, whichever the width allows
                    shown = os.path.commonprefix([to, SHORT.get(to, to)])
                    await wait_for_text(pilot, "●" + shown)
                done.append(what)
            await wait_for(pilot, lambda: app.session.over or app.session.turn is None
                           or app.session.turn["turn"] != turn["turn"]
                           or not app.session.awaiting_us, "our answer to go out")
        assert done[:8] == ["move", "task", "move", "report", "speak", "speak", "speak", "vote"]
        worked = _events(app, "task_worked")
        assert worked and worked[0]["seat"] == 0
        called = _events(app, "meeting_called")
        assert called[0]["seat"] == 0 and called[0]["kind"] == "report" and called[0]["bodies"]
        speeches = [s for s in _events(app, "speech") if s["seat"] == 0]
        assert [s["text"] for s in speeches] == [SPEECH] * 3  # the digits stayed in the line
        votes = [v for v in _events(app, "vote") if v["seat"] == 0]
        assert len(votes) == 1 and votes[0]["target"] is not None
        await on_screen(pilot, app, "result")


async def test_the_map_draws_every_corridor_and_an_impostor_sees_the_vents(embedded):
    """Each of the 24 corridors is drawn (side by side, above and below, corner to corner, or an
    arc), so none is listed under the map; an impostor's map marks the rooms a vent away and
    its legend lists the ship's vents."""
    env = get("amongagents")
    assert env.assign_roles(env.config(), IMPOSTOR_SEED, 5)[0].side == "impostor"
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="amongagents", seats=SEATS, join_seat=0,
                        seed=IMPOSTOR_SEED)
        await our_turn_or_end(pilot, app)
        assert app.session.private["side"] == "impostor"
        lines = [line.plain for line in app.screen.query_one(ShipMap).lines()]
        assert not any(line.startswith(("Also rooms", "Also corridors")) for line in lines)
        board = app.session.env_info("amongagents")["board"]
        assert len(board["corridors"]) == 24 and len(board["rooms"]) == 14
        # The Cafeteria's one vent leads to Admin: marked on the map, and all nine listed.
        text = await wait_for_text(pilot, "≋", "Vents: Reactor–Lower Engine")
        assert text.count("–") >= 9 and "Admin" in app.session.private["vents"]
