"""SocialGrid's metrics read from real game records (engine/socialgrid/metrics.py): a crewmate
that follows the oracle to its first task and works it has PSR, TP and PE as computed by hand
from the walk; ballots, kills and the outcome land in the right seats."""

from __future__ import annotations

import pytest

from engine.registry import get
from engine.socialgrid.moves import DO_TASK, NOOP, TURN_BACK, TURN_LEFT, TURN_RIGHT
from tests.socialgrid.test_rules import known_map  # noqa: F401 (a fixture)

ENV = get("socialgrid")
SOLO = {"room_size": 7, "rows": 1, "cols": 2, "impostors": 0, "oracle": "high",
        "vote_interval": 0, "max_steps": 60}


def act(g, seat, action):
    return g.act(seat, {"choice": str(action)})


def test_an_oracle_walk_to_a_task_gives_the_hand_computed_efficiency():
    g = ENV.new_game(ENV.config("navigation", SOLO), 3, 1)
    first = g.tasks[0][0]
    start = g.poses[0]
    distance = g.oracle.distance(start, first.station, g.closed)
    moves = turns = 0
    while g.poses[0] is not None and g.oracle.distance(g.poses[0], first.station, g.closed):
        action = g.oracle.best_action(g.poses[0], first.station, g.closed)
        turns += action in (TURN_LEFT, TURN_RIGHT, TURN_BACK)
        moves += 1
        act(g, 0, action)
    for _ in range(first.required):
        act(g, 0, DO_TASK)
    while not g.over:
        act(g, 0, NOOP)
    seat = ENV.game_metrics(g.record())["seats"]["0"]
    steps = moves + first.required  # the task was done after this many steps
    # Turns cost half a step in the oracle's distance (an OPEN_DOOR costs its full step).
    assert distance == moves - turns / 2
    assert seat["tasks_done"] == 1 and seat["tp"] == pytest.approx(1 / 3)
    # PP: the mean PE over completed tasks (one): (L_opt = distance + toggles) / steps taken.
    assert seat["pp"] == pytest.approx((distance + first.required) / steps)
    assert seat["psr"] == pytest.approx(1 / 3)  # only the first station was ever faced
    assert seat["noop_stall"] > 0 and seat["steps"] == 60
    game = ENV.game_metrics(g.record())["game"]
    assert game["crew_won"] == 0 and game["impostors_won"] == 0 and game["end_step"] == 60


@pytest.mark.usefixtures("known_map")  # test_rules.four's deal
def test_ballots_kills_and_outcomes_reach_the_right_seats():
    from tests.socialgrid.test_rules import four, step

    g = four(kill_cooldown=0, vote_interval=0)
    step(g, None, None, 13, None)  # seat 2 kills seat 0, seat 1 sees it
    step(g, 11, None, None)  # seat 1 reports
    g.act(1, {"vote": "2", "trust_2": 0.1, "trust_3": 0.9, "thought": "I saw the kill"})
    g.act(2, {"vote": "1", "trust_1": 0.2, "trust_3": 0.8})
    g.act(3, {"vote": "skip"})
    metrics = ENV.game_metrics(g.record())
    seats = metrics["seats"]
    assert seats["2"]["kills"] == 1 and seats["2"]["impostor"] == 1
    assert seats["1"]["votes"] == 1 and seats["1"]["detection_accuracy"] == 1.0
    assert seats["3"]["skips"] == 1 and seats["3"]["detection_accuracy"] is None
    # Brier for seat 1: trust 0.1 in the impostor ((1 - 0.1) - 1)^2 = 0.01, and 0.9 in a
    # crewmate ((1 - 0.9) - 0)^2 = 0.01: 0.01 on average.
    assert seats["1"]["brier"] == pytest.approx(0.01)
    assert metrics["game"]["strong_votes"] == 1  # "saw ... kill": strong evidence
    # The tie (1 vote each, one skip) ejects nobody; the game goes on: no outcome yet.
    assert metrics["game"]["ejections"] == 0


def test_a_record_with_version_1s_trace_dicts_gives_the_same_metrics():
    """Traces are compact rows since rules version 2 (a dict per seat and step held several
    times the memory); records stored before still read the same."""
    import dataclasses

    g = ENV.new_game(ENV.config("navigation", SOLO), 3, 2)
    for _ in range(12):
        for seat, action in zip(sorted(g.pending()), (TURN_LEFT, DO_TASK), strict=False):
            act(g, seat, action)
    while not g.over:
        for seat in sorted(g.pending()):
            act(g, seat, NOOP)
    record = g.record()

    def as_dicts(seats):
        return {str(row[0]): {"action": row[1], "before": row[2:5], "after": row[5:8],
                              **(row[8] if len(row) > 8 else {})} for row in seats}

    old = dataclasses.replace(record, events=[
        dataclasses.replace(e, data={**e.data, "seats": as_dicts(e.data["seats"])})
        if e.type == "trace" else e for e in record.events])
    assert all(isinstance(row, list) for e in record.events if e.type == "trace"
               for row in e.data["seats"])
    assert ENV.game_metrics(old) == ENV.game_metrics(record)
