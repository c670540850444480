"""`seconds_per_round`: a person's time for each round's answer (like Social Graph's
`seconds_per_question`). 0 leaves the table's turn timer in charge; a number makes `pace` ask the
server for the default move when it runs out — no criminal named, role Unknown, scored wrong —
and the next round comes. The same game over a real table is in
tests/server/tables/test_hidden_role_timer.py."""

from __future__ import annotations

import json

import pytest

from engine.core import ConfigError, GameRecord
from engine.hidden_role.config import MAX_SECONDS
from engine.hidden_role.dataset import to_record
from engine.registry import get
from tests.hidden_role.helpers import FIG6

ENV = get("hidden-role")


def imported(**overrides) -> object:
    config = ENV.config(overrides={"instance": json.dumps(to_record(FIG6)), **overrides})
    return ENV.new_game(config, seed=1, players=1)


def scored(game) -> list[tuple[bool, bool, bool]]:
    return [(e.data["crim"], e.data["self"], e.data["both"]) for e in game.events
            if e.type == "answer_scored"]


def test_seconds_per_round_is_checked_with_a_clear_error():
    assert ENV.config().seconds_per_round == 0  # every preset: the table's timer
    assert all(c.seconds_per_round == 0 for c in ENV.presets.values())
    for seconds in (0, 1, 90, MAX_SECONDS):
        assert ENV.config(overrides={"seconds_per_round": seconds}).seconds_per_round == seconds
    for seconds in (-1, MAX_SECONDS + 1):
        with pytest.raises(ConfigError, match=rf"seconds_per_round must be between 0 \(the "
                                              rf"table's timer\) and {MAX_SECONDS}, got "
                                              rf"{seconds}"):
            ENV.config(overrides={"seconds_per_round": seconds})
    for wrong in ("90", 1.5, True):
        with pytest.raises(ConfigError, match="seconds_per_round"):
            ENV.config(overrides={"seconds_per_round": wrong})


def test_pace_is_the_setting_or_none():
    assert imported().pace(0) is None  # by default the table's turn timer applies
    game = imported(seconds_per_round=45)
    assert game.pace(0) == 45.0
    game.act(0, {"criminal": "2", "role": "Investigator"})
    assert game.pace(0) == 45.0  # every round has the same time


def test_a_timed_out_round_is_answered_wrong_and_the_next_round_comes():
    game = imported(seconds_per_round=30)
    game.act_default(0, "tick")
    public = game.view(0)["public"]
    assert not game.over and public["round"] == 2 and len(public["statements"]) == 12
    assert game.view(0)["private"]["my_answers"] == [{"round": 1, "criminal": None,
                                                      "role": "Unknown"}]
    assert scored(game) == [(False, False, False)]
    assert [e.data["round"] for e in game.events if e.type == "statements"] == [1, 2]
    game.act(0, {"criminal": "2", "role": "Investigator"})
    game.act_default(0, "tick")  # the last round runs out too: the game is lost
    assert game.over and game.result.winners == () and game.result.rewards == {0: -1.0}
    assert scored(game) == [(False, False, False), (True, True, True), (False, False, False)]
    assert [a.outcome for a in game.actions] == ["defaulted", "ok", "defaulted"]


def test_a_timed_game_replays_from_its_record():
    game = imported(seconds_per_round=30)
    game.act_default(0, "tick")
    game.act(0, {"criminal": "2", "role": "Investigator"})
    game.act(0, {"criminal": "2", "role": "Investigator"})
    record = GameRecord.from_json(json.loads(json.dumps(game.record().to_json())))
    assert record.config["seconds_per_round"] == 30
    again = ENV.replay(record)
    assert again.result == game.result
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
