"""The AmongAgents evaluation tables against hand-worked inputs: Table 1 shares per row beside
the paper's, personas against wins and actions, interview scores by role and category (an
unscored answer counted, not averaged), speech category shares by role."""

import pytest

from engine.amongagents.evaluation import (
    SeatPlay,
    ending_rows,
    interview_scores,
    persona_tables,
    seat_plays,
    speech_shares,
)
from engine.amongagents.metrics import ENDINGS, VERBS


def ended(way):
    return {f"ended_{e}": int(e == way) for e in ENDINGS}


def test_ending_shares_per_row_leave_void_games_out_and_sit_beside_the_paper():
    games = {("all-llm", True): [ended("tasks_done"), ended("tasks_done"), ended("time_limit"),
                                 ended("crew_eliminated"), ended(None)],  # the last is void
             ("all-random", None): []}
    llm, rand = ending_rows(games)
    assert llm.counted == 4 and llm.shares == {"crew_eliminated": 0.25, "time_limit": 0.25,
                                               "impostors_eliminated": 0.0, "tasks_done": 0.5}
    assert llm.paper["tasks_done"] == 0.5
    assert rand.counted == 0 and rand.shares["time_limit"] is None
    assert rand.paper == {"crew_eliminated": 0.5, "time_limit": 0.1,
                          "impostors_eliminated": 0.4, "tasks_done": 0.0}


def test_personas_against_wins_and_actions():
    seats = {"0": {"role": "Crewmate", "win": 1, "move_actions": 3, "task_actions": 2},
             "1": {"role": "Impostor", "win": 0, "kill_actions": 1, "vent_actions": 2},
             "2": {"role": "Crewmate", "win": 1, "move_actions": 1, "speak_actions": 4}}
    plays = seat_plays(seats, {0: "skeptic", 1: "lone-wolf", 2: None})
    plays += [SeatPlay("Crewmate", "skeptic", False, {"move": 5})]
    rows = {(r["role"], r["persona"]): r for r in persona_tables(plays)["rows"]}
    skeptic = rows[("Crewmate", "skeptic")]
    assert (skeptic["seats"], skeptic["wins"], skeptic["win_rate"]) == (2, 1, 0.5)
    assert skeptic["actions"]["move"] == 8 and skeptic["actions"]["task"] == 2
    assert set(skeptic["actions"]) == set(VERBS)
    assert rows[("Crewmate", "(none)")]["actions"]["speak"] == 4
    wolf = rows[("Impostor", "lone-wolf")]
    assert wolf["win_rate"] == 0 and wolf["actions"]["vent"] == 2 and wolf["actions"]["kill"] == 1
    assert [r["role"] for r in persona_tables(plays)["rows"]] == ["Crewmate", "Crewmate",
                                                                 "Impostor"]


def test_interview_scores_average_the_scored_and_count_the_rest():
    scores = interview_scores([("Crewmate", "memory", 6), ("Crewmate", "memory", 9),
                               ("Crewmate", "memory", None), ("Impostor", "planning", 7)])
    memory = scores["Crewmate/memory"]
    assert (memory["answers"], memory["scored"], memory["mean"]) == (3, 2, 7.5)
    assert scores["Impostor/planning"]["mean"] == 7
    assert interview_scores([("Impostor", "reflection", None)])["Impostor/reflection"][
        "mean"] is None


def test_speech_shares_by_role_over_labelled_speeches():
    cats = ["Deception", "Truth-telling", "Other"]
    shares = speech_shares([("Impostor", ["Deception"]), ("Impostor", ["Deception", "Other"]),
                            ("Impostor", None), ("Impostor", ["Truth-telling"]),
                            ("Crewmate", ["Truth-telling"])], cats)
    imp = shares["Impostor"]
    assert (imp["speeches"], imp["labelled"]) == (4, 3)
    assert imp["shares"] == pytest.approx({"Deception": 2 / 3, "Truth-telling": 1 / 3,
                                           "Other": 1 / 3})
    assert shares["Crewmate"]["shares"]["Deception"] == 0
