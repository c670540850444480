"""A game's action record is kept compactly (issue 21: a long SocialGrid game keeps tens of
thousands of actions): equal small structured moves share one stored copy, meta is kept flat,
and the records handed out are the same as ever, each with its own copies."""

from __future__ import annotations

import random

from engine.core import SHARED_ACTIONS
from engine.registry import get

ENV = get("socialgrid")


def _long_game(steps: int):
    game = ENV.new_game(ENV.config("navigation", {"impostors": 0, "max_steps": steps}), 3, 3)
    rng = random.Random(5)
    while not game.over:
        for seat in sorted(game.pending()):
            options = game.legal(seat).options
            choice = rng.choice(options).id if options else None
            game.act(seat, {"choice": choice} if choice is not None else "noop",
                     meta={"latency_ms": rng.random()})
    return game


def test_equal_moves_share_one_stored_copy_and_records_are_unchanged():
    game = _long_game(150)
    structured = [a[1] for a in game._actions if a[1].__class__ is dict]
    assert len(structured) > 300
    assert len({id(raw) for raw in structured}) <= min(SHARED_ACTIONS, 20)
    records = game.actions
    assert [a.step for a in records] == list(range(game.step))
    assert all(a.outcome == "ok" and set(a.meta) == {"latency_ms"} for a in records)
    replayed = ENV.replay(game.record())
    assert [a.to_json() for a in replayed.actions] == [a.to_json() for a in records]
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in game.events]


def test_a_record_hands_out_its_own_copies():
    game = _long_game(20)
    first = game.actions
    same = [i for i, a in enumerate(first) if a.raw == first[0].raw]
    assert len(same) > 1
    first[0].raw["choice"] = "changed"
    first[0].meta["latency_ms"] = -1
    again = game.actions
    assert all(again[i].raw == first[same[1]].raw for i in same)
    assert again[0].meta["latency_ms"] >= 0


def test_moves_equal_but_for_a_fields_type_are_kept_apart():
    game = _long_game(1)
    assert game._shared({"x": True}) is not game._shared({"x": 1})
    assert game._shared({"x": 1}) == {"x": 1} and game._shared({"x": 1.0}).get("x").__class__ \
        is float


def test_invalid_defaulted_and_resigned_moves_keep_their_meta_and_reason():
    game = ENV.new_game(ENV.config("navigation", {"impostors": 0}), 3, 3)
    game.act(0, "fly away", meta={"latency_ms": 2.5, "note": "x"})
    game.act_default(1, "timeout", meta={"latency_ms": 7.0})
    game.resign(2, "left the game")
    invalid, defaulted, resigned = game.actions
    assert (invalid.outcome, invalid.meta, invalid.category) == (
        "invalid", {"latency_ms": 2.5, "note": "x"}, invalid.category)
    assert invalid.error and invalid.category is not None
    assert (defaulted.outcome, defaulted.error, defaulted.meta) == (
        "defaulted", "timeout", {"latency_ms": 7.0})
    assert (resigned.outcome, resigned.error, resigned.raw, resigned.meta) == (
        "resigned", "left the game", "", {})
    assert [a.step for a in game.actions] == [0, 1, 2]
