"""The Impostor grid's statistics against values worked out by hand or taken from the
literature: the Wilson interval, the speaking-order ITT and its experiment-block bootstrap, Wald
odds ratios, chi-square with Cramér's V, a model's figures, the tie-breakers, and a report over
games the engine played from a grid."""

from __future__ import annotations

import math
import random

import pytest

from engine.core import derive_seed
from engine.evaluation import wilson_interval as wilson
from engine.impostor.grid import build_grid, grid_games, grid_row
from engine.impostor.metrics import game_metrics
from engine.impostor.published import beside_cells, beside_effects, beside_models, paper_model
from engine.impostor.statistics import (
    ALL,
    cell_summary,
    chi_square,
    mode_odds_ratios,
    model_summary,
    odds_ratio,
    outcome_tests,
    report,
    seat_odds_ratios,
)
from tests.impostor.helpers import ENV, ballot

Z = 1.959963984540054  # the 97.5% normal quantile


def seat(**values):
    return {"valid_ballot": 1, "voted_impostor": 0, "influence": 0.0, "centrality": 0.0,
            "in_coalition": 0, "coalition_converted": None, **values}


def row(experiment="e0", *, won, imp=0, position=0, mode="homogeneous", tier="easy",
        models=("m",) * 4, seats=None, **game):
    return {"experiment": experiment, "mode": mode, "tier": tier, "seat_models": models,
            "game": {"void": 0, "impostor_won": won, "majority_won": 1 - won,
                     "impostor_seat": imp, "impostor_position": position,
                     "impostor_self_declared": 0, "guess_success": None, "tie": 0,
                     "majority_won_sym_candidate": 1 - won, "majority_won_sym_side": 1 - won,
                     **game},
            "seats": {str(s): (seats or {}).get(s, seat()) for s in range(4)}}


def test_wilson_interval_matches_newcombes_worked_example():
    # Newcombe (1998), Statistics in Medicine 17:857, 81/263: Wilson 0.2553 to 0.3662
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-5) and high == pytest.approx(0.3662, abs=5e-5)
    assert wilson(0, 0) is None
    s = cell_summary([row(won=1)] * 81 + [row(won=0)] * 182, resamples=0)
    assert s["impostor_win_rate"] == pytest.approx(81 / 263)
    assert (s["impostor_win_rate_low"], s["impostor_win_rate_high"]) == (low, high)
    assert s["majority_win_rate_low"] == pytest.approx(1 - high)


def itt_rows():
    """Four experiments; per speaking position 0..3 the impostor won 3, 2, 1, 0 of 4 games."""
    wins = {0: [1, 1, 1, 0], 1: [1, 1, 0, 0], 2: [1, 0, 0, 0], 3: [0, 0, 0, 0]}
    return [row(f"e{e}", won=wins[p][e], position=p) for e in range(4) for p in range(4)]


def test_itt_point_estimate_by_hand():
    s = cell_summary(itt_rows(), resamples=0)
    assert [s[f"impostor_win_rate_position_{p}"] for p in range(4)] == [0.75, 0.5, 0.25, 0.0]
    assert s["itt"] == pytest.approx((0.25 + 0.0 - 0.75 - 0.5) / 4)  # -0.25
    assert s["itt_low"] is None  # no resamples, no interval


def test_the_itt_bootstrap_contains_the_point_and_repeats_with_its_seed():
    draw = random.Random(3)
    rows = [row(f"e{e}", won=int(draw.random() < 0.6 - 0.1 * p), position=p)
            for e in range(30) for p in range(4) for _ in range(3)]
    s = cell_summary(rows, resamples=2000, seed=7)
    assert s["itt_low"] < s["itt"] < s["itt_high"]
    assert cell_summary(rows, resamples=2000, seed=7) == s
    other = cell_summary(rows, resamples=2000, seed=8)
    assert (other["itt_low"], other["itt_high"]) != (s["itt_low"], s["itt_high"])
    assert other["itt"] == s["itt"]


def test_the_bootstrap_resamples_whole_experiments():
    # one experiment the impostor always won, one it never won: a resample draws both (1/2),
    # the winning one twice (1/4) or the losing one twice (1/4), so the 95% interval is [0, 1];
    # resampling games instead would give about 0.5 +- 0.1
    rows = [row("won", won=1)] * 50 + [row("lost", won=0)] * 50
    s = cell_summary(rows, resamples=2000, seed=1)
    assert s["impostor_win_rate"] == 0.5
    assert (s["impostor_win_rate_block_low"], s["impostor_win_rate_block_high"]) == (0.0, 1.0)
    assert (s["impostor_win_rate_low"], s["impostor_win_rate_high"]) == pytest.approx(
        wilson(50, 100))


def test_wald_odds_ratio_on_a_hand_made_table():
    # seat 1: 20 wins, 10 losses; seat 0: 10 wins, 20 losses -> OR = (20 * 20) / (10 * 10)
    se = math.sqrt(1 / 20 + 1 / 10 + 1 / 10 + 1 / 20)
    expected = (4.0, 4.0 * math.exp(-Z * se), 4.0 * math.exp(Z * se))
    rows = ([row(won=1, imp=1)] * 20 + [row(won=0, imp=1)] * 10 + [row(won=1, imp=0)] * 10
            + [row(won=0, imp=0)] * 20)
    first = seat_odds_ratios(rows)[0]
    assert first["seat"] == 1
    assert (first["odds_ratio"], first["low"], first["high"]) == pytest.approx(expected)
    assert first["p_value"] == pytest.approx(math.erfc(math.log(4) / se / math.sqrt(2)))
    assert seat_odds_ratios(rows)[1] == {"seat": 2}  # no games from seat 2: no ratio
    # the same table as mode against homogeneous
    modes = ([row(won=1, mode="team_aware")] * 20 + [row(won=0, mode="team_aware")] * 10
             + [row(won=1)] * 10 + [row(won=0)] * 20)
    (aware,) = mode_odds_ratios(modes)
    assert aware["mode"] == "team_aware" and aware["odds_ratio"] == pytest.approx(4.0)
    # an empty cell gets a half added to every cell
    assert odds_ratio((0, 10), (10, 20))["odds_ratio"] == pytest.approx(
        (0.5 * 20.5) / (10.5 * 10.5))


def test_mode_odds_ratios_get_an_experiment_block_interval():
    draw = random.Random(5)
    rows = [row(f"{mode}{e}", won=int(draw.random() < p), mode=mode)
            for mode, p in (("homogeneous", 0.5), ("cross_play", 0.3))
            for e in range(12) for _ in range(10)]
    (cross,) = mode_odds_ratios(rows, resamples=1000, seed=2)
    assert cross["block_low"] < cross["odds_ratio"] < cross["block_high"]
    assert mode_odds_ratios(rows, resamples=1000, seed=2) == [cross]
    assert (cross["low"], cross["high"]) != (cross["block_low"], cross["block_high"])


def test_chi_square_and_cramers_v_on_a_known_table():
    # [[10, 20], [30, 40]]: expected 12, 18, 28, 42
    chi2 = 4 / 12 + 4 / 18 + 4 / 28 + 4 / 42
    result = chi_square([[10, 20], [30, 40]])
    assert result["chi2"] == pytest.approx(chi2) and result["dof"] == 1
    assert result["cramers_v"] == pytest.approx(math.sqrt(chi2 / 100))
    assert result["p_value"] == pytest.approx(math.erfc(math.sqrt(chi2 / 2)))
    assert chi_square([[5, 0], [0, 0]]) is None  # one row, one column left
    assert chi_square([]) is None
    rows = ([row(won=1)] * 10 + [row(won=0)] * 20 + [row(won=1, tier="hard")] * 30
            + [row(won=0, tier="hard")] * 40)
    tier = next(t for t in outcome_tests(rows) if t["factor"] == "tier")
    assert tier["chi2"] == pytest.approx(chi2) and tier["levels"] == 2


def test_a_models_figures_by_hand():
    x, y = "x", "y"
    # game 1: x is the impostor (seat 0) against three y; two y name it (conviction), the third
    # ballot is invalid; the two convicting y form a coalition that converts
    convict = seat(voted_impostor=1, influence=0.5, centrality=1.0, in_coalition=1,
                   coalition_converted=1)
    g1 = row("cp", won=0, imp=0, mode="cross_play", models=(x, y, y, y),
             seats={1: convict, 2: convict, 3: seat(valid_ballot=0, voted_impostor=None,
                                                    influence=None, centrality=None,
                                                    in_coalition=None)})
    # game 2: y is the impostor (seat 1) against three x, and wins
    g2 = row("cp2", won=1, imp=1, mode="cross_play", models=(x, y, x, x),
             seats={0: seat(voted_impostor=0, influence=1 / 3, centrality=2 / 3,
                            in_coalition=1, coalition_converted=0)})
    sx, sy = model_summary([g1, g2], x, resamples=0), model_summary([g1, g2], y, resamples=0)
    assert (sx["impostor_games"], sx["impostor_win_rate"]) == (1, 0.0)
    assert (sy["impostor_games"], sy["impostor_win_rate"]) == (1, 1.0)
    assert (sy["majority_games"], sy["majority_win_rate"]) == (1, 1.0)  # one game, 3 seats
    assert (sx["majority_games"], sx["majority_win_rate"]) == (1, 0.0)
    assert sy["detection_accuracy"] == pytest.approx(2 / 3)  # the invalid ballot is a miss
    assert sx["detection_accuracy"] == 0.0
    assert sy["coalition_efficiency"] == 1.0 and sx["coalition_efficiency"] == 0.0
    assert sy["influence"] == sy["reach"] == pytest.approx((0.5 + 0.5 + 0.0) / 3)
    assert sy["centrality"] == pytest.approx(2 / 3)
    assert sy["invalid_ballot_rate"] == pytest.approx(1 / 4)  # of y's four seats
    assert sx["balance"] == 0.0


def test_coalition_efficiency_counts_games_as_the_paper_does():
    # game 1: three seats name the impostor together and the majority wins; game 2: two seats
    # agree on an innocent player. Games: 1 of 2 converted; seats: 3 of 5
    won = seat(in_coalition=1, coalition_converted=1)
    lost = seat(in_coalition=1, coalition_converted=0)
    rows = [row(won=0, seats={1: won, 2: won, 3: won}), row(won=1, seats={0: lost, 1: lost})]
    s = cell_summary(rows, resamples=0)
    assert s["coalition_efficiency"] == 0.5 and s["coalition_efficiency_seats"] == 0.6


def test_ties_and_the_symmetric_tie_breakers():
    rows = [row(won=1, tie=1, majority_won_sym_candidate=0.5, majority_won_sym_side=0.5),
            row(won=1, tie=1, majority_won_sym_candidate=0.0, majority_won_sym_side=0.5),
            row(won=0), row(won=1)]
    s = cell_summary(rows, resamples=0)
    assert s["ties"] == 2 and s["tie_rate"] == 0.5 and s["impostor_win_rate"] == 0.75
    assert s["impostor_win_rate_sym_candidate"] == pytest.approx(1 - 1.5 / 4)
    assert s["impostor_win_rate_sym_side"] == pytest.approx(1 - 2 / 4)
    assert s["delta_sym_candidate"] == pytest.approx(-0.125)
    assert s["delta_sym_side"] == pytest.approx(-0.25)


def played_rows(grid):
    """Play each grid game in the engine: every seat names Player 1 (seat 0), seat 0 names
    Player 2, so the majority convicts exactly when seat 0 is the impostor."""
    rows = []
    for g in grid_games(grid):
        game = ENV.new_game(g.config, g.seed, 4)
        for s in game.order:
            game.act(s, "Zorp blick quanf.")
        for s in range(4):
            game.act(s, ballot(1 if s == 0 else 0))
        rows.append(grid_row(g, game_metrics(game.record())))
    return rows


def test_a_report_over_games_played_from_a_grid():
    grid = build_grid(["a", "b"], 3, games=4, tiers=["medium"])
    rows = played_rows(grid)
    r = report(rows, resamples=200, seed=1)
    assert r["games"] == len(rows) == 7 * 4
    assert sum(m["impostor_games"] for m in r["models"].values()) == len(rows)
    overall = r["overall"]
    # every mode's block of four puts the impostor in seat 0 once: a quarter convicted
    assert overall["impostor_win_rate"] == 0.75
    assert overall["win_conditions"]["conviction"] == 7
    assert overall["win_conditions"]["evaded"] == 21
    assert {(c["mode"], c["tier"]) for c in r["cells"]} >= {(ALL, ALL), ("cross_play", ALL),
                                                            (ALL, "medium")}
    assert [o["seat"] for o in r["seat_odds_ratios"]] == [1, 2, 3]
    assert report(rows, resamples=200, seed=1) == r  # reproducible
    # read once as the games come (a league streams them from the store): the same figures
    assert report(iter(rows), resamples=200, seed=1) == r
    assert r["models"]["a"] == model_summary(iter(rows), "a", resamples=200, seed=1)
    assert r["cells"][-1] == {"mode": ALL, "tier": ALL,
                              **cell_summary(iter(rows), resamples=200,
                                             seed=derive_seed(1, f"{ALL}/{ALL}"))}
    assert r["mode_odds_ratios"] == mode_odds_ratios(iter(rows), resamples=200, seed=1)
    assert r["seat_odds_ratios"] == seat_odds_ratios(iter(rows))
    assert r["outcome_tests"] == outcome_tests(iter(rows))
    models = beside_models(r["models"])
    assert [m["model"] for m in models] == ["a", "b"] and models[0]["paper_model"] is None
    assert models[0]["impostor_win"] == 100 * r["models"]["a"]["impostor_win_rate"]
    cells = beside_cells(r["cells"])
    assert cells[-1]["mode"] == ALL and cells[-1]["paper"] == 43.9
    assert cells[-1]["impostor_win"] == pytest.approx(75.0)
    effects = {e["figure"]: e for e in beside_effects(r)}
    assert effects["speaking-order ITT (pp)"]["paper"] == -1.11
    assert effects["odds ratio seat 2 vs seat 0"]["paper"] == 1.26


def test_a_report_without_games_says_nothing_rather_than_failing():
    r = report([row(won=1, void=1)], resamples=10)
    assert r["games"] == 0 and r["overall"] is None and r["models"] == {}
    assert r["seat_odds_ratios"] == [{"seat": s} for s in (1, 2, 3)]
    assert all(t.get("chi2") is None for t in r["outcome_tests"])
    assert beside_cells(r["cells"]) == [] and beside_effects(r)[0]["ours"] is None


def test_paper_names_for_model_specs():
    assert paper_model("openai:gpt-4o") == "GPT-4o"
    assert paper_model("openai:gpt-4o-mini") is None
    assert paper_model("openai:gpt-4o?temperature=0&timeout=5") == "GPT-4o"  # settings apart
    assert paper_model("openai-compatible:llama-3.1-70b@http://127.0.0.1:8000/v1") == \
        "Llama-3.1-70B"
    assert paper_model("openrouter:meta-llama/llama-3.1-8b-instruct") == "Llama-3.1-8B"
    assert paper_model("openrouter:meta-llama/llama-3.1-405b-instruct") == "Llama-3.1-405B"
    rows = beside_models({"mine": {"impostor_win_rate": 0.5}}, names={"mine": "GPT-4o"})
    assert rows[0]["paper_impostor_win"] == 69.0 and rows[0]["paper_self_declaration"] == 45.7
