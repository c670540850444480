"""`parlor league amongagents`: the paper's evaluation end to end through the CLI with scripted
stand-ins (every row, the report beside Table 1, resuming on the same database), and with an
LLM model on a local fake server: its seats answer the interviewer (after the game too), the
judge scores the answers and labels the All-LLM games' speeches; without a judge the report
says nothing was judged."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from tests.fakes import FakeOpenAI, Reply, Status
from tests.fakes.seating import FAST

SHORT = ["--config", "max_timesteps=4"]


def _league(tmp: Path, name: str, *extra: str) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    assert main(["league", "amongagents", "--quiet", "--json", str(out), *extra]) == 0
    return json.loads(out.read_text())


def test_every_row_with_scripted_stand_ins_beside_table_1_and_a_rerun_plays_nothing(
        tmp_path, capsys):
    db = str(tmp_path / "e.db")
    first = _league(tmp_path, "a", "--seat", "scripted:agent", "--games", "2", "--db", db)
    printed = capsys.readouterr().out
    rows = [(r["setup"], r["planner"], r["counted"]) for r in first["endings"]]
    assert rows == [("all-random", None, 2), ("all-llm", True, 2), ("all-llm", False, 2),
                    ("llm-crew", True, 2), ("llm-crew", False, 2), ("llm-impostor", True, 2),
                    ("llm-impostor", False, 2)]
    assert first["played"] == 14 and first["counted"] == 14
    for row in first["endings"]:
        assert sum(row["shares"].values()) == pytest.approx(1.0)
    assert first["endings"][0]["paper"]["crew_eliminated"] == 0.5
    assert "All Random" in printed and "50%" in printed  # the paper's column
    assert "not labelled: no judge model was given" in printed
    assert "no answers stored" in printed
    personas = {(r["role"], r["persona"]) for r in first["personas"]["rows"]}
    assert personas == {("Crewmate", "(none)"), ("Impostor", "(none)")}  # scripted: none
    again = _league(tmp_path, "b", "--seat", "scripted:agent", "--games", "2", "--db", db)
    assert again["played"] == 0 and again["endings"] == first["endings"]
    assert "14 found already stored" in capsys.readouterr().out


def _model(request) -> Reply:
    """A model that plays (first action; a word at a meeting), answers the interviewer, and
    judges (a score, or labels)."""
    system = (request.body.get("messages") or [{}])[0].get("content", "")
    text = request.last_user_text()
    if system.startswith("You grade answers"):
        return Reply('{"score": 7, "reason": "specific"}')
    if system.startswith("You annotate"):
        return Reply('{"labels": ["Truth-telling", "Suspicion & Defense"]}')
    if "[Interviewer]" in text:
        return Reply("I am a crewmate; I saw Player 2 in Admin.")
    return Reply("[Condensed Memory]\nx\n[Thinking Process]\ny\n[Action] SPEAK: I was in "
                 "Admin.")  # in the room, or at a meeting


def test_an_llm_model_is_interviewed_and_judged(tmp_path, monkeypatch, capsys):
    with FakeOpenAI(responder=_model) as fo:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", fo.base_url)
        report = _league(tmp_path, "llm", "--seat", f"openai:gpt-4o-mini?{FAST}",
                         "--setup", "all-llm", "--planner", "on", "--games", "1", "--interview",
                         "--judge", f"openai:gpt-4o?{FAST}", *SHORT)
        sent = [r.body for r in fo.completion_requests]
    printed = capsys.readouterr().out
    interview = report["interview"]
    assert interview["judge"] == "openai:gpt-4o?" + FAST
    scores = interview["scores"]
    # Five LLM seats: self-awareness once, memory and planning each timestep, reflection after.
    assert scores["Crewmate/self_awareness"]["answers"] == 4
    assert scores["Impostor/reflection"]["answers"] == 1
    assert all(row["mean"] == 7 and row["scored"] == row["answers"] for row in scores.values())
    assert interview["asked"] == sum(row["answers"] for row in scores.values())
    speeches = report["speeches"]
    assert speeches["count"] > 0
    crew = speeches["shares"]["Crewmate"]["shares"]
    assert crew["Truth-telling"] == 1.0 and crew["Deception"] == 0.0
    assert "judged by openai:gpt-4o" in printed and "Crewmate" in printed
    # Each seat's persona comes from its stamp; the judge grades greedily.
    personas = {r["persona"] for r in report["personas"]["rows"]}
    assert personas and "(none)" not in personas
    judged = [b for b in sent if b["model"] == "gpt-4o"]
    assert judged and all(b["temperature"] == 0.0 for b in judged)


def test_bad_input_is_one_line(tmp_path, capsys):
    assert main(["league", "amongagents", "--seat", "human"]) == 2
    assert "the league seats bots only" in capsys.readouterr().err
    assert main(["league", "amongagents", "--seat", "scripted:agent", "--interview"]) == 2
    assert "not an LLM spec" in capsys.readouterr().err
    assert main(["league", "amongagents", "--seat", "scripted:agent", "--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_a_debrief_that_fails_loses_its_answer_never_the_game(tmp_path, monkeypatch):
    def model(request):
        if "The game is over." in request.last_user_text():
            return Status(500)  # the provider fails once the game is over
        return _model(request)

    with FakeOpenAI(responder=model) as fo:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", fo.base_url)
        report = _league(tmp_path, "down", "--seat", f"openai:gpt-4o-mini?{FAST}&retries=0",
                         "--setup", "llm-impostor", "--planner", "on", "--games", "1",
                         "--interview", "--judge", f"openai:gpt-4o?{FAST}", "--db",
                         str(tmp_path / "d.db"), *SHORT)
        asked_after = [r for r in fo.completion_requests
                       if "The game is over." in r.last_user_text()]
    assert asked_after  # the reflection was asked, and failed
    assert report["counted"] == 1  # the game is stored and counted
    assert report["interview"]["asked"] > 0  # the answers given during the game are kept
    with sqlite3.connect(tmp_path / "d.db") as conn:
        stored = conn.execute("SELECT transcript FROM debriefs").fetchall()
    # The failed call is kept for an audit, with no answer in it; the report counts none.
    assert len(stored) == 1 and '"failed_attempts"' in stored[0][0]
    scores = report["interview"]["scores"]
    assert "Impostor/memory" in scores and "Impostor/reflection" not in scores
