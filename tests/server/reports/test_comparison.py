"""`parlor report ENV`: people beside bots on the env's paper metrics, from fixture databases of
games really played and stored (tests/server/reports/stored_games.py). The numbers are checked
against what the test counts itself from the stored results and metrics: Wilson bounds by the
closed formula, Fisher's p by summing the hypergeometric probabilities, Cohen's d by hand."""

from __future__ import annotations

import json
import math
import sqlite3

import pytest

from engine.registry import env_ids, get
from server.cli import main
from server.reports.comparison import compare
from server.reports.export import connect
from server.store.pseudonyms import Pseudonyms
from server.store.store import Store
from tests.server.reports.stored_games import bot, person, store_game

MODEL = "fixture:model"  # a bot labelled as a model (it plays random legal moves)
Z = 1.959963984540054


def wilson(k: float, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fisher_p(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher p: every table with the same margins no likelier than the one seen."""
    row, col, n = a + b, a + c, a + b + c + d

    def prob(k: int) -> float:
        return math.comb(col, k) * math.comb(n - col, row - k) / math.comb(n, row)
    seen = prob(a)
    return sum(prob(k) for k in range(max(0, row + col - n), min(row, col) + 1)
               if prob(k) <= seen * (1 + 1e-7))


def report(capsys, db, env: str, *options: str) -> dict:
    """What `parlor report ENV --format json` prints."""
    capsys.readouterr()
    assert main(["report", env, "--db", str(db), "--format", "json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def rows(found: dict, metric: str, role: str | None = None) -> dict[str, dict]:
    return {r["who"]: r for r in found["rows"] if r["metric"] == metric and r["role"] == role}


def compared(found: dict, metric: str, role: str | None = None) -> dict[str, dict]:
    return {t["other"]: t for t in found["tests"] if t["metric"] == metric and t["role"] == role}


def seat_games(db, env: str, preset: str) -> list[tuple[str, str, dict, dict, str]]:
    """(identity, kind, the seat's metrics, the result, the seat's role) of every finished
    seat-game of a preset, read straight from the tables."""
    conn = sqlite3.connect(db)
    out = []
    for identity, kind, seat, metrics, result in conn.execute(
            "SELECT s.identity, s.kind, s.seat, g.metrics, g.result FROM seats s JOIN games g "
            "ON g.id = s.game_id WHERE g.env = ? AND g.preset = ? AND g.status = 'finished'",
            (env, preset)):
        result = json.loads(result)
        out.append((identity, kind, json.loads(metrics)["seats"][str(seat)], result,
                    result["roles"][seat]))
    conn.close()
    return out


async def test_blotto_people_against_a_model_by_the_numbers(tmp_path, capsys):
    db = tmp_path / "blotto.db"
    store = await Store.open(db)
    for seed in range(24):
        opponent = bot(MODEL) if seed % 2 else bot("random")
        await store_game(store, "colonel-blotto", "small", seed,
                         [person("alice" if seed < 12 else "bob"), opponent])
    await store_game(store, "colonel-blotto", "small", 100, [person("alice"), bot(MODEL)],
                     abort=True)
    await store_game(store, "colonel-blotto", "small", 101, [person("alice"), bot(MODEL)],
                     default_seat=0)
    for seed in (200, 201):
        await store_game(store, "colonel-blotto", "paper", seed, [person("bob"), bot(MODEL)])
    await store.close()

    found = report(capsys, db, "colonel-blotto")
    # the most played group is pooled; the others named with their counts; the void counted
    assert found["pooled"]["preset"] == "small" and found["pooled"]["games"] == 25
    assert found["left_out"]["void"] == 1
    assert [(g["preset"], g["games"]) for g in found["left_out_groups"]] == [("paper", 2)]
    seats = seat_games(db, "colonel-blotto", "small")
    people = [m for identity, kind, m, _, _ in seats if kind == "human"]
    model = [m for identity, _, m, _, _ in seats if identity == MODEL]
    won = sum(m["win"] for m in people)
    wins = rows(found, "win")
    assert wins["people"]["games"] == 25 and wins["people"]["value"] == won / 25
    assert (wins["people"]["low"], wins["people"]["high"]) == pytest.approx(wilson(won, 25))
    conn = connect(db)
    alice = Pseudonyms(conn).label("human:alice", "human")
    conn.close()
    assert wins[alice]["games"] == 13 and "alice" not in json.dumps(found)
    model_won = sum(m["win"] for m in model)
    test = compared(found, "win")[MODEL]
    assert (test["people_games"], test["other_games"]) == (25, 13)
    assert test["method"] == "Fisher's exact"
    assert test["p_value"] == pytest.approx(fisher_p(won, 25 - won, model_won, 13 - model_won))
    assert test["difference"] == pytest.approx(won / 25 - model_won / 13)
    assert test["warning"] is None or "expected count" in test["warning"]
    # a mean: the bootstrap interval around the value, the permutation test's effect by hand
    reward = rows(found, "reward")["people"]
    mine = [m["reward"] for m in people]
    theirs = [m["reward"] for m in model]
    assert reward["value"] == pytest.approx(sum(mine) / 25)
    assert reward["low"] <= reward["value"] <= reward["high"]
    test = compared(found, "reward")[MODEL]
    assert test["method"] == "permutation" and 0 < test["p_value"] <= 1
    assert test["difference"] == pytest.approx(sum(mine) / 25 - sum(theirs) / 13)
    pooled = ((24 * _var(mine)) + 12 * _var(theirs)) / 36
    assert test["effect"] == pytest.approx((sum(mine) / 25 - sum(theirs) / 13)
                                           / math.sqrt(pooled))
    assert report(capsys, db, "colonel-blotto") == found  # seeded: the same numbers again
    # the host's choices: a defaulted move, a preset, names, by kind
    fewer = report(capsys, db, "colonel-blotto", "--exclude-defaulted")
    assert fewer["left_out"]["with a defaulted move"] == 1
    assert rows(fewer, "win")["people"]["games"] == 24
    paper = report(capsys, db, "colonel-blotto", "--preset", "paper", "--names", "--by", "kind")
    assert paper["pooled"]["games"] == 2
    assert set(rows(paper, "win")) == {"people", "models"}
    assert "too few games" in compared(paper, "win")["models"]["warning"]


def _var(values: list[float]) -> float:
    m = sum(values) / len(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)


async def test_secret_mafia_compares_people_within_each_role(tmp_path, capsys):
    db = tmp_path / "mafia.db"
    store = await Store.open(db)
    for seed in range(12):
        others = [bot(MODEL) if (seed + s) % 2 else bot("random") for s in range(4)]
        await store_game(store, "secret-mafia", "quick", seed,
                         [person("alice"), person("bob"), *others])
    await store.close()
    found = report(capsys, db, "secret-mafia")
    seats = seat_games(db, "secret-mafia", "quick")
    win = next(m for m in found["metrics"] if m["key"] == "win")
    assert set(win["roles"]) == {role for *_, role in seats}
    for role in win["roles"]:
        people = [m for _, kind, m, _, r in seats if kind == "human" and r == role]
        model = [m for identity, _, m, _, r in seats if identity == MODEL and r == role]
        here = rows(found, "win", role)
        if people:
            won = sum(m["win"] for m in people)
            assert here["people"]["games"] == len(people)
            assert here["people"]["value"] == pytest.approx(won / len(people))
            assert (here["people"]["low"], here["people"]["high"]) == \
                pytest.approx(wilson(won, len(people)))
        if people and model:
            test = compared(found, "win", role)[MODEL]
            assert (test["people_games"], test["other_games"]) == (len(people), len(model))
            k = sum(m["win"] for m in model)
            assert test["p_value"] == pytest.approx(
                fisher_p(won, len(people) - won, k, len(model) - k))
            assert "too few games" in test["warning"]
    # a ratio: day votes against the Mafia over votes cast, pooled over the village's seats
    villager = rows(found, "votes_against_mafia", "Villager")["people"]
    people = [m for _, kind, m, _, r in seats if kind == "human" and r == "Villager"]
    assert villager["value"] == pytest.approx(
        sum(m["votes_against_mafia"] for m in people) / sum(m["votes_cast"] for m in people))


async def test_socialgrid_crew_metrics_and_detection_by_role(tmp_path, capsys):
    db = tmp_path / "grid.db"
    store = await Store.open(db)
    small = {"impostors": 1, "max_steps": 300, "vote_interval": 60}
    for seed in range(6):
        await store_game(store, "socialgrid", "people", seed,
                         [person("alice"), *[bot("random")] * 4], overrides=small)
    await store.close()
    found = report(capsys, db, "socialgrid", "--pool", "mixed")
    seats = seat_games(db, "socialgrid", "people")
    assert rows(found, "tp", "impostor") == {}  # task performance is the crew's
    crew = [m for _, kind, m, _, r in seats if kind == "human" and r == "crewmate"]
    tp = rows(found, "tp", "crewmate")["people"]
    assert tp["games"] == len(crew)
    assert tp["value"] == pytest.approx(sum(m["tp"] for m in crew) / len(crew))
    votes = [m for _, kind, m, _, r in seats if kind == "human" and r == "crewmate"
             and m["votes"]]
    assert votes  # the fixture's meetings come often enough for votes
    detection = rows(found, "votes_correct", "crewmate")["people"]
    assert detection["value"] == pytest.approx(sum(m["votes_correct"] for m in votes)
                                               / sum(m["votes"] for m in votes))
    assert report(capsys, db, "socialgrid", "--pool", "bots")["left_out"] == {
        "void": 0, "not in the bots pool": 6}
    # the paper's Table 1 beside the league presets only
    assert not [r for r in found["rows"] if r["kind"] == "paper"]
    store = await Store.open(db)
    await store_game(store, "socialgrid", "league-10x10", 99, [person("alice"),
                     *[bot("random")] * 6], overrides={"max_steps": 60})
    await store.close()
    league = report(capsys, db, "socialgrid", "--preset", "league-10x10")
    assert rows(league, "win", "crewmate")["GPT-OSS-120B"]["value"] == pytest.approx(0.194)
    assert rows(league, "win", "impostor")["GPT-OSS-120B"]["value"] == pytest.approx(0.985)


async def test_impostor_roles_and_the_papers_numbers(tmp_path, capsys):
    db = tmp_path / "impostor.db"
    store = await Store.open(db)
    for seed in range(10):
        await store_game(store, "impostor", "paper", seed,
                         [person("alice"), bot(MODEL), bot("random"), bot(MODEL)])
    await store.close()
    found = report(capsys, db, "impostor")
    seats = seat_games(db, "impostor", "paper")
    majority = [m for _, kind, m, _, r in seats if kind == "human" and r == "Majority"]
    voted = [m["voted_impostor"] for m in majority if m["voted_impostor"] is not None]
    here = rows(found, "voted_impostor", "Majority")
    assert here["people"]["games"] == len(voted)
    assert (here["people"]["low"], here["people"]["high"]) == \
        pytest.approx(wilson(sum(voted), len(voted)))
    assert rows(found, "voted_impostor", "Impostor") == {}
    paper = rows(found, "win", "Majority")["GPT-4o"]
    assert paper["kind"] == "paper" and paper["value"] == pytest.approx(0.582)
    assert rows(found, "win", "Impostor")["GPT-4o"]["value"] == pytest.approx(0.69)


def shipped() -> list[str]:
    """Parlor's envs (a test module may have registered its own in this process)."""
    return [e for e in env_ids() if type(get(e)).__module__.startswith("engine.")]


async def test_every_env_reports(tmp_path):
    db = tmp_path / "all.db"
    store = await Store.open(db)
    seed = 0
    assert len(shipped()) >= 13
    for env_id in shipped():
        env = get(env_id)
        overrides = {"impostors": 1, "max_steps": 100} if env_id == "socialgrid" else None
        preset = "people" if env_id == "socialgrid" else None
        counts = env.player_counts(env.config(preset, overrides))
        players = 5 if env_id == "socialgrid" else min(counts)
        for _ in range(2):
            seed += 1
            await store_game(store, env_id, preset or env.default_preset, seed,
                             [person("alice"), *[bot("random")] * (players - 1)],
                             overrides=overrides)
    await store.close()
    conn = connect(db)
    for env_id in shipped():
        found = compare(conn, env_id)
        assert found.group is not None and found.group.games == 2, env_id
        assert any(r.kind == "people" for r in found.rows), env_id
    conn.close()
