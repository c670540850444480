"""`parlor league impostor`: a reduced grid end to end through the CLI (experiments and games
as the design counts them, the statistics beside the paper's, resuming on the same database),
LLM seats on a local fake server playing the grid's games at real tables, and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.cli import main
from server.runs import league_runner
from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder

SMALL = ["--tiers", "easy", "--games-per-experiment", "4", "--resamples", "50", "--quiet"]


def _grid(tmp: Path, name: str, *extra: str) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    assert main(["league", "impostor", "--json", str(out), *extra]) == 0
    return json.loads(out.read_text())


def test_a_reduced_grid_is_played_reported_beside_the_paper_and_resumed(tmp_path, capsys,
                                                                       monkeypatch):
    db = str(tmp_path / "g.db")
    first = _grid(tmp_path, "a", "--models", "scripted:describer", "random", "--db", db, *SMALL)
    printed = capsys.readouterr().out
    # One tier: 2 homogeneous + 2 ordered cross-play pairs + 3 team modes x 1 unordered pair.
    assert (first["experiments"], first["games"], first["counted"]) == (7, 28, 28)
    assert first["played"] == 28
    models = {r["model"]: r for r in first["beside_models"]}
    assert set(models) == {"scripted:describer", "random"}
    assert models["random"]["paper_impostor_win"] is None  # not one of the paper's models
    cells = {(c["mode"], c["tier"]) for c in first["beside_cells"]}
    assert ("homogeneous", "easy") in cells and ("all", "all") in cells
    overall = first["figures"]["overall"]
    assert overall["impostor_games"] == 28 if "impostor_games" in overall else True
    assert "Per model" in printed and "paper 43.9 [42.5, 45.3]" in printed
    assert "chi2" in printed and "Cramér's V" in printed
    # The stored games stream into the statistics a batch at a time, in the schedule's order:
    # batches of 3 (the last one short) give the same figures.
    monkeypatch.setattr(league_runner, "_BATCH", 3)
    again = _grid(tmp_path, "b", "--models", "scripted:describer", "random", "--db", db, *SMALL)
    assert again["played"] == 0 and again["figures"] == first["figures"]
    assert "28 found already stored" in capsys.readouterr().out


def test_llm_seats_play_the_grids_games_at_real_tables(tmp_path, monkeypatch):
    with FakeOpenAI(responder=example_responder) as fo:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", fo.base_url)
        report = _grid(tmp_path, "llm", "--models", f"openai:gpt-4o?{FAST}", "--modes",
                       "homogeneous", "--tiers", "easy", "--games-per-experiment", "2",
                       "--resamples", "20", "--quiet")
        bodies = [r.body for r in fo.completion_requests]
    assert report["counted"] == 2
    model = report["beside_models"][0]
    assert model["model"] == f"openai:gpt-4o?{FAST}" and model["paper_model"] == "GPT-4o"
    assert model["paper_impostor_win"] == 69.0
    # Every seat was asked to describe and to vote (2 games x 4 seats x 2 phases, at least).
    assert len(bodies) >= 16 and all(b["model"] == "gpt-4o" for b in bodies)
    invalid = report["figures"]["models"][f"openai:gpt-4o?{FAST}"]["invalid_ballot_rate"]
    assert invalid == 0


def test_bad_input_is_one_line(tmp_path, capsys):
    assert main(["league", "impostor", "--models", "random", "random"]) == 2
    assert "--models names random more than once" in capsys.readouterr().err
    assert main(["league", "impostor", "--models", "human"]) == 2
    assert "the league seats bots only" in capsys.readouterr().err
    assert main(["league", "impostor", "--models", "random",
                 "--games-per-experiment", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert main(["league", "impostor", "--models", "random", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err


def test_two_workers_play_the_same_grid_as_one_process(tmp_path):
    """--workers 2 shares the games out to two processes writing to one database: the same
    figures as one process; a rerun on either database plays nothing."""
    one = _grid(tmp_path, "one", "--models", "scripted:describer", "random", "--db",
                str(tmp_path / "one.db"), *SMALL)
    two = _grid(tmp_path, "two", "--models", "scripted:describer", "random", "--db",
                str(tmp_path / "two.db"), "--workers", "2", *SMALL)
    assert two["played"] == 28 and two["figures"] == one["figures"]
    again = _grid(tmp_path, "again", "--models", "scripted:describer", "random", "--db",
                  str(tmp_path / "two.db"), "--workers", "2", *SMALL)
    assert again["played"] == 0 and again["figures"] == one["figures"]
