"""`parlor league mgref`: the factorial schedule of the paper's Table 17, the candidate-only
TrueSkill against frozen references, the report's columns, a whole scripted tournament through
the CLI with the identical-rerun check, resuming, and bad input."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.mgref_schedule import (
    BLOTTO,
    CODENAMES,
    ENVS,
    IPD,
    MAFIA,
    PAPER_REFS,
    SEED_BASES,
    schedule,
)
from engine.records import Result
from engine.registry import get
from server.cli import main
from server.reports.league import StoredGame
from server.reports.mgref import env_result, role_labels
from server.store.ratings import ENV as TRUESKILL

REFS = {e: [f"ref{i}" for i in range(PAPER_REFS[e])] for e in ENVS}
# The scripted tournament CI runs: a candidate and references per env from the shipped bots.
SCRIPTED = [
    "--candidate", "colonel-blotto:scripted:adaptive",
    "--candidate", "three-player-ipd:scripted:tit-for-tat",
    "--candidate", "scripted:agent",
    "--refs", "colonel-blotto:scripted:uniform=29.8,1.2", "colonel-blotto:random=19.3,1.0",
    "three-player-ipd:scripted:grim=30,1", "three-player-ipd:scripted:always-defect",
    "three-player-ipd:random=15,1.5", "codenames:scripted:agent=28.2,1.0",
    "codenames:random=10,2", "secret-mafia:scripted:agent=27.2,2.8",
    "secret-mafia:random=12.5,2.8",
]


@pytest.mark.parametrize("env, games", [(BLOTTO, 30), (IPD, 36), (CODENAMES, 36), (MAFIA, 96)])
def test_the_paper_schedule_sizes_and_seeds(env, games):
    """Table 17 with the paper's pools: 30 / 36 / 36 / 96 games (198 in all), game k seeded
    base + k."""
    plan = schedule(env, "m", REFS[env])
    assert len(plan) == games
    assert [g.seed for g in plan] == [SEED_BASES[env] + k for k in range(games)]
    assert all(g.seats[g.candidate_seat] == "m" and g.seats.count("m") == 1 for g in plan)
    assert len(schedule(env, "m", REFS[env], replicates=2)) == 2 * games


@pytest.mark.parametrize("env", ENVS)
def test_every_seat_is_balanced(env):
    """The candidate sits in every seat equally often, and every reference takes every other
    seat equally often (J.1: "every member appears equally often in every non-m seat")."""
    plan = schedule(env, "m", REFS[env])
    seats = len(plan[0].seats)
    assert len(set(Counter(g.candidate_seat for g in plan).values())) == 1
    for s in range(seats):
        counts = Counter(g.seats[s] for g in plan if g.candidate_seat != s)
        assert set(counts) == set(REFS[env]) and len(set(counts.values())) == 1, (s, counts)


def test_design_cells():
    """IPD plays the three two-reference subsets, no mirror; Codenames puts each reference
    beside the candidate in every role; Secret Mafia seats one reference twice, per mode."""
    ipd = schedule(IPD, "m", REFS[IPD])
    assert {frozenset(g.seats) - {"m"} for g in ipd} == {
        frozenset(p) for p in (("ref0", "ref1"), ("ref0", "ref2"), ("ref1", "ref2"))}
    assert all(len(set(g.seats)) == 3 for g in ipd)
    cn = schedule(CODENAMES, "m", REFS[CODENAMES])
    mate = {0: 1, 1: 0, 2: 3, 3: 2}
    assert Counter((g.candidate_seat, g.seats[mate[g.candidate_seat]]) for g in cn) == {
        (s, r): 3 for s in range(4) for r in REFS[CODENAMES]}
    mafia = schedule(MAFIA, "m", REFS[MAFIA])
    for k, g in enumerate(mafia):
        twice = REFS[MAFIA][k // 24]  # 6 seats x 4 replicates per duplication mode
        assert Counter(g.seats)[twice] == 2 and set(g.seats) == {"m", *REFS[MAFIA]}


def test_role_labels():
    roles = get(CODENAMES).assign_roles(get(CODENAMES).config(), 1, 4)
    assert role_labels(roles) == ["Red Spymaster", "Red Operative", "Blue Spymaster",
                                  "Blue Operative"]
    mafia = role_labels(get(MAFIA).assign_roles(get(MAFIA).config(), 1, 6))
    assert sorted(mafia) == ["Detective", "Doctor", "Mafia", "Mafia", "Villager", "Villager"]


def _blotto_game(k: int, candidate_won: bool, seat: int) -> StoredGame:
    other = 1 - seat
    winner = seat if candidate_won else other
    result = Result({seat: 1.0 if candidate_won else -1.0,
                     other: -1.0 if candidate_won else 1.0}, [winner], "majority")
    seats = {str(s): {"clean": 1, "invalid_caused": 0, "invalid_witnessed": 0,
                      "self_forfeit": 0, "opponent_forfeit": 0} for s in (0, 1)}
    return StoredGame(k, result, {"game": {}, "seats": seats})


def test_only_the_candidate_is_rated_against_frozen_priors():
    """Two Blotto games against a reference frozen at 30 ± 1: the candidate's posterior is
    TrueSkill's own update from 25 ± 8.33 against 30 ± 1 both times (the reference never
    moves); the report's columns count the games."""
    plan = schedule(BLOTTO, "m", ["ref"])[:2] + schedule(BLOTTO, "m", ["ref"])[5:6]
    games = [(plan[0], _blotto_game(0, True, plan[0].candidate_seat)),
             (plan[1], _blotto_game(1, False, plan[1].candidate_seat)),
             (plan[2], None)]  # never played: scheduled, not counted
    result = env_result(get(BLOTTO), "m", {"ref": (30.0, 1.0)}, games)
    me, ref = TRUESKILL.create_rating(), TRUESKILL.create_rating(30.0, 1.0)
    (me,), _ = TRUESKILL.rate([(me,), (ref,)], ranks=[0, 1])
    (me,), _ = TRUESKILL.rate([(me,), (ref,)], ranks=[1, 0])
    assert result.rating == pytest.approx((me.mu, me.sigma))
    report = result.to_json()
    assert (report["scheduled"], report["games"], report["wins"], report["losses"]) == (3, 2, 1, 1)
    assert report["cumulative_reward"] == 0.0 and report["clean"] == 2
    assert report["win_rate_95"] == pytest.approx([0.0945, 0.9055], abs=1e-4)
    assert report["roles"]["Commander Alpha"]["games"] == 2


def _run(tmp: Path, name: str, *extra: str) -> tuple[dict[str, Any], str]:
    out, printed = tmp / f"{name}.json", io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["league", "mgref", *SCRIPTED, "--db", str(tmp / f"{name}.db"), "--quiet",
                     "--json", str(out), *extra]) == 0
    return json.loads(out.read_text()), printed.getvalue()


def _actions(db: Path) -> dict[tuple[str, int, int], str]:
    with sqlite3.connect(db) as c:
        return {(env, seed, idx): raw for env, seed, idx, raw in c.execute(
            "SELECT g.env, g.seed, a.idx, a.raw FROM actions a JOIN games g ON g.id = a.game_id")}


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    drop = ("wall_seconds", "played_now")
    assert {k: v for k, v in a.items() if k not in drop} == \
        {k: v for k, v in b.items() if k not in drop}


def test_a_scripted_tournament_reruns_identically_and_resumes(tmp_path):
    """The whole schedule with the shipped scripted bots: every column reported; run again in
    a new database (4 games at a time) it plays the very same games; run again on its own
    database it plays nothing; with games lost it plays only those. The database's ratings are
    left alone."""
    first, printed = _run(tmp_path, "a")
    envs = {e["env"]: e for e in first["envs"]}
    assert [e["scheduled"] for e in first["envs"]] == [20, 36, 24, 48]  # 2 / 3 / 2 / 2 refs
    assert all(e["games"] == e["scheduled"] for e in first["envs"])
    for column in ("mu", "sigma", "win_rate_95", "cumulative_reward", "roles", "clean",
                   "caused", "witnessed", "self_forfeit", "opponent_forfeit"):
        assert all(column in e for e in first["envs"]), column
    assert sum(r["games"] for r in envs[CODENAMES]["roles"].values()) == 24
    assert envs[CODENAMES]["witnessed"] > 0  # random spymasters give illegal clues
    assert envs[BLOTTO]["references"]["scripted:uniform"] == {"mu": 29.8, "sigma": 1.2}
    assert set(first["tracks"]) == {"Generalization", "Social Deduction"}
    assert "MG-Ref offline tournament" in printed and "Track scores" in printed
    with sqlite3.connect(tmp_path / "a.db") as c:
        assert c.execute("SELECT count(*) FROM ratings").fetchone() == (0,)

    again, _ = _run(tmp_path, "b", "--concurrency", "4")
    _same(first, again)
    assert _actions(tmp_path / "a.db") == _actions(tmp_path / "b.db")

    resumed, _ = _run(tmp_path, "a")
    assert resumed["played_now"] == 0
    _same(first, resumed)
    with sqlite3.connect(tmp_path / "a.db") as c:  # as if a run had stopped half way
        c.execute("UPDATE games SET status = 'void' WHERE env = ? AND seed % 2 = 0", (MAFIA,))
    resumed, _ = _run(tmp_path, "a")
    assert resumed["played_now"] == 24
    _same(first, resumed)


@pytest.mark.parametrize("argv, message", [
    (["--candidate", "codenames:scripted:agent", "--refs", "random"],
     "no --candidate for colonel-blotto"),
    (["--candidate", "random", "--refs", "random", "--env", "three-player-ipd"],
     "three-player-ipd needs at least 2 references"),
    (["--candidate", "random", "--refs", "random=30", "--env", "codenames"],
     "=MU,SIGMA"),
    (["--candidate", "random", "--refs", "random=30,0", "--env", "codenames"],
     "sigma must be positive"),
    (["--candidate", "random", "--refs", "random", "random", "--env", "codenames"],
     "names random twice"),
    (["--candidate", "random", "--refs", "scripted:nope", "--env", "codenames"],
     "unknown bot 'scripted:nope' for codenames"),
    (["--candidate", "random", "--refs", "random", "--env", "codenames", "--replicates", "0"],
     "--replicates must be at least 1"),
])
def test_bad_input_exits_2_with_one_line(argv, message, tmp_path, capsys):
    assert main(["league", "mgref", *argv, "--db", str(tmp_path / "x.db"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_error_survival_warning_when_failures_are_many_and_early():
    """Two of three games end early on a forfeit (depth 0.2 and 0.4): error rate 2/3 > 30%,
    median depth 0.3 < 1/2, so the report warns; the columns count the games."""
    plan = schedule(BLOTTO, "m", ["ref"])[:3]
    games = []
    for k, match in enumerate(plan):
        stored = _blotto_game(k, True, match.candidate_seat)
        if k < 2:  # the reference forfeited by invalid moves
            other = str(1 - match.candidate_seat)
            seats = {str(match.candidate_seat): {"clean": 0, "invalid_caused": 0,
                                                 "invalid_witnessed": 2, "self_forfeit": 0,
                                                 "opponent_forfeit": 1},
                     other: {"clean": 0, "invalid_caused": 2, "invalid_witnessed": 0,
                             "self_forfeit": 1, "opponent_forfeit": 0}}
            stored = StoredGame(k, stored.result, {"game": {"forfeit_depth": 0.2 * (k + 1)},
                                                   "seats": seats})
        games.append((match, stored))
    result = env_result(get(BLOTTO), "m", {"ref": (25.0, 1.0)}, games)
    report = result.to_json()
    assert (report["clean"], report["witnessed"], report["opponent_forfeit"]) == (1, 2, 2)
    assert report["error_rate"] == pytest.approx(2 / 3) and report["termination_depth"] == \
        pytest.approx(0.3)
    assert report["error_survival_warning"] is True
