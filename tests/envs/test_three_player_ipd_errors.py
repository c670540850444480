"""The three-player IPD's error evaluation (MindGames §10). Its input is never invalid (odd text
cooperates), so played games are clean; a record made by hand, where a seat's forfeit after two
rounds is logged as the base class logs a fatal invalid move, checks the depth in rounds and the
aggregate's error rate, game counts, warning and Wilson bounds, all worked out by hand."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.records import ActionRecord, Event, GameRecord
from engine.registry import get
from tests.envs.metric_checks import checked_metrics

ENV = get("three-player-ipd")
DEFECT = "[1 defect] [2 defect]"  # seat 0 against both


def new():
    return ENV.new_game(ENV.config("paper"), 0, 3)  # 5 rounds, one chat turn


def play_round(game, decisions=(DEFECT, "", "")):
    for seat in (0, 1, 2):
        game.act(seat, "hello")
    for seat in (2, 0, 1):
        game.act(seat, decisions[seat])


def metrics(record):
    return checked_metrics(ENV, record)


def as_fatal_error(record: GameRecord) -> GameRecord:
    """The record of a resignation, rewritten as a forfeit for two invalid moves in a row: a
    retried format error, then a fatal one (`invalid_move` with fatal true before `forfeit`)."""
    (i,) = [k for k, a in enumerate(record.actions) if a.outcome == "resigned"]
    quit_ = record.actions[i]
    seat, step = quit_.seat, quit_.step
    errors = [ActionRecord(seat, step, "??", "invalid", "bad", {}, "format", False),
              ActionRecord(seat, step + 1, "??", "invalid", "bad", {}, "format", True)]
    (f,) = [k for k, e in enumerate(record.events) if e.type == "forfeit"]
    notices = [Event(0, step, "invalid_move", {"seat": seat, "fatal": False}, (seat,)),
               Event(0, step + 1, "invalid_move", {"seat": seat, "fatal": True})]
    events = [dataclasses.replace(e, seq=n) for n, e in
              enumerate([*record.events[:f], *notices, *record.events[f:]])]
    return dataclasses.replace(record, actions=[*record.actions[:i], *errors], events=events)


def test_played_games_are_clean_and_have_no_depth():
    game = new()
    play_round(game, (DEFECT, "garbage ###", ""))  # odd text is no error: it cooperates
    game.resign(2, "left the game")  # nor is a resignation
    m = metrics(game.record())
    assert all(s["clean"] == 1 and s["errors_nonfatal"] == s["errors_fatal"] == 0
               for s in m["seats"].values())
    assert m["game"]["forfeit_depth"] is None


def test_a_fatal_error_after_two_rounds_has_depth_two_fifths():
    game = new()
    play_round(game)
    play_round(game)
    game.resign(1, "left the game")
    m = metrics(as_fatal_error(game.record()))
    one, zero = m["seats"]["1"], m["seats"]["0"]
    assert (one["invalid_caused"], one["errors_format"], one["errors_fatal"],
            one["errors_nonfatal"], one["self_forfeit"]) == (2, 2, 1, 1, 1)
    assert (zero["invalid_witnessed"], zero["opponent_forfeit"], zero["clean"]) == (2, 1, 0)
    assert m["game"]["forfeit_depth"] == 2 / 5


def test_the_aggregate_error_statistics():
    full = new()
    for _ in range(5):
        play_round(full)  # seat 0 defects against cooperators: it wins alone
    resigned = new()
    play_round(resigned)
    resigned.resign(2, "left the game")  # seats 0 and 1 win
    erred = new()
    play_round(erred)
    play_round(erred)
    erred.resign(1, "left the game")  # as a fatal error: seats 0 and 2 win
    records = [full.record(), resigned.record(), as_fatal_error(erred.record())]
    assert [r.result.winners for r in records] == [(0,), (0, 1), (0, 2)]
    agg = ENV.aggregate_metrics(ENV.game_metrics(r) for r in records)
    json.dumps(agg)
    overall, seats = agg["overall"], agg["seats"]
    assert overall["error_rate"] == overall["fatal_error_rate"] == 1 / 3
    assert (overall["invalid_moves"], overall["errors_fatal"], overall["errors_format"]) == \
        (2, 1, 2)
    assert overall["median_forfeit_depth"] == 2 / 5
    # 1/3 of the games erred and the failure came before half the rounds: the warning.
    assert overall["error_survival_warning"] is True
    assert (seats["1"]["games_caused"], seats["1"]["games_self_forfeit"],
            seats["1"]["games_clean"]) == (1, 1, 2)
    assert (seats["0"]["games_witnessed"], seats["0"]["games_opponent_forfeit"]) == (1, 1)
    assert seats["2"]["games_caused"] == 0 and seats["2"]["invalid_witnessed"] == 2
    # Wins: seat 0 3 of 3, seats 1 and 2 1 of 3 each.
    assert (seats["0"]["win_rate_low"], seats["0"]["win_rate_high"]) == \
        pytest.approx((0.4385, 1), abs=1e-4)
    assert seats["1"]["win_rate"] == 1 / 3
    assert (seats["1"]["win_rate_low"], seats["1"]["win_rate_high"]) == \
        pytest.approx((0.0615, 0.7923), abs=1e-4)
    assert all(key in ENV.metric_labels for key in (*overall, *seats["0"]))
