"""The shared invalid-move attribution and error statistics (engine/attribution.py), on game
records made by hand: every number below is worked out from the moves listed."""

from __future__ import annotations

import pytest

from engine.aggregate import Fold, Totals
from engine.attribution import (
    ATTRIBUTION_LABELS,
    ERROR_LABELS,
    GAME_COUNTS,
    MEDIANS,
    error_attribution,
    error_statistics,
    events_before,
    first_fatal_error,
    role_statistics,
    termination_depth,
)
from engine.records import ActionRecord, Event, GameRecord, Result

ZERO = dict.fromkeys(ATTRIBUTION_LABELS, 0)


def make_record(moves, players=2, sides=None, finished=True, setup=None):
    """A record from `moves`: ("ok", seat), ("tick",) (a unit of play: an event only),
    ("resign", seat) or (class, seat, fatal) for an invalid move (class None: a legacy record,
    whose fatal errors are its `forfeit` events)."""
    actions, events = [], []

    def emit(type_, data, step):
        events.append(Event(len(events), step, type_, data))

    for move in moves:
        step = len(actions)
        if move[0] == "tick":
            emit("tick", {}, step)
        elif move[0] == "ok":
            actions.append(ActionRecord(move[1], step, "x", "ok"))
        elif move[0] == "resign":
            emit("forfeit", {"seat": move[1], "reason": "left"}, step)
            actions.append(ActionRecord(move[1], step, "", "resigned", "left"))
        else:
            kind, seat, fatal = move
            data = {"seat": seat, "reason": "bad", "category": kind or "bad"}
            if kind is not None:
                data["fatal"] = fatal
            emit("invalid_move", data, step)
            if fatal:
                emit("forfeit", {"seat": seat, "reason": "2 invalid moves"}, step)
            actions.append(ActionRecord(seat, step, "?", "invalid", "bad", {}, kind,
                                        fatal and kind is not None))
    sides = tuple(sides or (str(s) for s in range(players)))
    result = Result(dict.fromkeys(range(players), 0.0), (), "over", sides=sides) \
        if finished else None
    return GameRecord("test", "1", {}, 0, players, actions, events, result, setup=setup or {})


# ------------------------------------------------------------------------------ per game
def test_attribution_by_class_severity_and_side():
    # Red 0, 1 against blue 2, 3: a retried format error of 0, two non-fatal errors of 2,
    # a fatal one of 1; seat 3 resigns (not an invalid move).
    record = make_record([("format", 0, False), ("ok", 0), ("rule", 2, False),
                          ("turn_limit", 2, False), ("other", 1, True), ("resign", 3)],
                         players=4, sides=("red", "red", "blue", "blue"))
    a = error_attribution(record)
    assert a["0"] == {**ZERO, "invalid_caused": 1, "invalid_witnessed": 3, "opponent_forfeit": 1,
                      "teammate_invalid": 1, "teammate_forfeit": 1, "errors_format": 1,
                      "errors_nonfatal": 1}
    assert a["1"] == {**ZERO, "invalid_caused": 1, "invalid_witnessed": 3, "self_forfeit": 1,
                      "teammate_invalid": 1, "errors_other": 1, "errors_fatal": 1}
    assert a["2"] == {**ZERO, "invalid_caused": 2, "invalid_witnessed": 2, "opponent_forfeit": 1,
                      "errors_rule": 1, "errors_turn_limit": 1, "errors_nonfatal": 2}
    assert a["3"] == {**ZERO, "invalid_witnessed": 4, "opponent_forfeit": 1,
                      "teammate_invalid": 2}
    assert set(a["0"]) == set(ATTRIBUTION_LABELS)


def test_a_clean_game_and_sides_without_a_result():
    record = make_record([("ok", 0), ("ok", 1)])
    assert error_attribution(record) == {"0": {**ZERO, "clean": 1}, "1": {**ZERO, "clean": 1}}
    # Unfinished: sides from the setup's roles, else every seat its own side.
    roles = [{"name": "M", "side": "mafia"}] * 2 + [{"name": "V", "side": "village"}]
    moves = [("rule", 0, True)]
    by_setup = error_attribution(make_record(moves, 3, finished=False, setup={"roles": roles}))
    assert by_setup["1"]["teammate_forfeit"] == 1 and by_setup["2"]["teammate_forfeit"] == 0
    alone = error_attribution(make_record(moves, 3, finished=False))
    assert alone["1"]["teammate_invalid"] == 0 and alone["1"]["opponent_forfeit"] == 1


def test_a_legacy_record_counts_other_errors_and_fatal_ones_from_forfeits():
    # No category on the actions: every invalid move is "other"; the forfeit events say which
    # seat forfeited (a resignation's too, but it never makes more fatal errors than errors).
    record = make_record([(None, 0, False), (None, 0, True), ("resign", 1)])
    a = error_attribution(record)
    assert a["0"] == {**ZERO, "invalid_caused": 2, "self_forfeit": 1, "opponent_forfeit": 1,
                      "errors_other": 2, "errors_fatal": 1, "errors_nonfatal": 1}
    assert a["1"] == {**ZERO, "invalid_witnessed": 2, "self_forfeit": 1, "opponent_forfeit": 1}
    assert first_fatal_error(record).type == "forfeit"


def test_termination_depth_counts_the_play_before_the_first_fatal_error():
    moves = [("tick",), ("format", 0, False), ("tick",), ("tick",), ("rule", 1, True),
             ("tick",), ("rule", 0, True)]
    record = make_record(moves, players=3)
    fatal = first_fatal_error(record)
    assert fatal.type == "invalid_move" and fatal.data["seat"] == 1
    assert events_before(record, fatal, "tick") == 3
    assert termination_depth(record, 4, lambda e: events_before(record, e, "tick")) == 3 / 4
    assert termination_depth(record, 2, lambda e: 3) == 1.0  # at most the whole length
    # No fatal error (a resignation is none), or nothing expected: no depth.
    quiet = make_record([("tick",), ("format", 0, False), ("resign", 1)])
    assert first_fatal_error(quiet) is None
    assert termination_depth(quiet, 4, lambda e: 1) is None
    assert termination_depth(record, 0, lambda e: 1) is None


# ------------------------------------------------------------------------------ aggregate
def test_totals_count_values_and_positive_values_and_merge_them():
    a, b = Totals(), Totals()
    a.add({"x": 2, "y": 0})
    a.add({"x": 0, "y": None})
    b.add({"x": 1.5, "y": -1})
    a.merge(b)
    assert (a.positive("x"), a.positive("y"), a.positive("z")) == (2, 0, 0)
    assert (a.count("x"), a.count("y"), a.count("z")) == (3, 2, 0)


def per_game(moves, winner, depth, void=0):
    """One game's metrics as an env gives them: the attribution, a win, the depth."""
    attribution = error_attribution(make_record(moves))
    return {"game": {"forfeit_depth": depth, "void": void},
            "seats": {s: {**attribution[s], "win": int(int(s) == winner)} for s in attribution}}


def wilson(wins, n, z=1.959963984540054):
    """The Wilson score interval, written out: (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    p = wins / n
    centre, half = p + z * z / (2 * n), z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def test_error_statistics_count_games_and_give_the_warning():
    games = [
        per_game([("ok", 0), ("ok", 1)], 0, None),  # clean
        per_game([("format", 0, False), ("format", 0, False), ("ok", 0)], 1, None),
        per_game([("rule", 1, False), ("format", 1, True)], 0, 0.2),
        per_game([("rule", 0, True)], 1, 0.4),
        per_game([("rule", 0, True)], 1, 0.0, void=1),  # left out
    ]
    fold = Fold(2, medians=MEDIANS).add_all(games)
    overall, seats = error_statistics(fold, 2)
    assert overall == {
        "error_rate": 3 / 4, "fatal_error_rate": 2 / 4, "invalid_moves": 5,
        "errors_fatal": 2, "errors_nonfatal": 3, "errors_format": 3, "errors_rule": 2,
        "errors_turn_limit": 0, "errors_other": 0,
        "median_forfeit_depth": pytest.approx(0.3), "error_survival_warning": True}
    zero, one = seats["0"], seats["1"]
    assert {k: zero[k] for k in GAME_COUNTS} == {
        "games_clean": 1, "games_caused": 2, "games_witnessed": 1, "games_self_forfeit": 1,
        "games_opponent_forfeit": 1, "games_teammate_invalid": 0, "games_teammate_forfeit": 0}
    assert {k: one[k] for k in GAME_COUNTS} == {
        "games_clean": 1, "games_caused": 1, "games_witnessed": 2, "games_self_forfeit": 1,
        "games_opponent_forfeit": 1, "games_teammate_invalid": 0, "games_teammate_forfeit": 0}
    # Moves beside games: seat 0 made 3 invalid moves in 2 games.
    assert (zero["invalid_caused"], zero["invalid_witnessed"], zero["clean"]) == (3, 2, 1)
    assert (zero["errors_format"], zero["errors_rule"], zero["errors_fatal"]) == (2, 1, 1)
    # 2 wins in 4 games each: 0.5, Wilson (0.150, 0.850).
    assert zero["win_rate"] == one["win_rate"] == 0.5
    assert (zero["win_rate_low"], zero["win_rate_high"]) == pytest.approx(wilson(2, 4))
    assert (zero["win_rate_low"], zero["win_rate_high"]) == pytest.approx((0.1500, 0.8500),
                                                                          abs=1e-4)
    assert set(overall) | set(zero) <= set(ATTRIBUTION_LABELS) | set(ERROR_LABELS) | {"win"}


def test_no_warning_when_errors_are_rare_or_late_and_nothing_without_games():
    # Every game has an error, but the fatal one came late: no warning.
    late = [per_game([("rule", 0, True)], 1, 0.75)] + [per_game([("format", 1, False)], 0,
                                                                None)] * 3
    overall, seats = error_statistics(Fold(2, medians=MEDIANS).add_all(late), 2)
    assert (overall["error_rate"], overall["median_forfeit_depth"]) == (1.0, 0.75)
    assert overall["error_survival_warning"] is False
    assert seats["0"]["win_rate"] == 3 / 4 and seats["1"]["games_caused"] == 3
    assert (seats["0"]["win_rate_low"], seats["0"]["win_rate_high"]) == \
        pytest.approx((0.3006, 0.9544), abs=1e-4)
    # An early fatal error in one game of four: too rare (0.25, not above 0.30) to warn.
    early = [per_game([("rule", 0, True)], 1, 0.1)] + [per_game([], 0, None)] * 3
    overall = error_statistics(Fold(2, medians=MEDIANS).add_all(early), 2)[0]
    assert (overall["error_rate"], overall["error_survival_warning"]) == (0.25, False)
    empty, seats = error_statistics(Fold(2, medians=MEDIANS), 2)
    assert empty["error_rate"] is None and empty["median_forfeit_depth"] is None
    assert empty["error_survival_warning"] is False
    assert seats["1"]["win_rate"] is seats["1"]["win_rate_low"] is None


def test_role_statistics_give_realised_counts_intervals_and_advantage():
    roles = role_statistics({"Mafia": 3, "Villager": 1}, {"Mafia": 4, "Villager": 4, "Doctor": 0})
    # Rates 0.75 and 0.25 (the Doctor was never played): mean 0.5, advantages ±0.25.
    assert roles["Mafia"]["games"] == 4 and roles["Mafia"]["win_rate"] == 0.75
    assert roles["Mafia"]["role_advantage"] == 0.25
    assert roles["Villager"]["role_advantage"] == -0.25
    assert (roles["Villager"]["win_rate_low"], roles["Villager"]["win_rate_high"]) == \
        pytest.approx(wilson(1, 4))
    assert roles["Doctor"] == {"games": 0, "win_rate": None, "win_rate_low": None,
                               "win_rate_high": None, "role_advantage": None}
