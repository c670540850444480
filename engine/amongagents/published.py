"""The AmongAgents paper's end-to-end results (spec §14.2, Table 1), to set our runs beside: the
share of 20 games ending each way, per setup, with and without the planner. The All-Random setup
has no LLM and so no planner; its one row is given for both."""

from __future__ import annotations

from engine.amongagents.metrics import ENDINGS

SETUPS = ("all-random", "all-llm", "llm-crew", "llm-impostor")
SETUP_LABELS = {"all-random": "All Random", "all-llm": "All LLMs",
                "llm-crew": "LLM Crew + Random Imp", "llm-impostor": "Random Crew + LLM Imp"}
GAMES_PER_SETUP = 20

# Percent of games, in the order of ENDINGS: crew eliminated, time limit, impostors
# eliminated, all tasks done. (setup, planner) -> shares; planner None: the setup has no LLM.
TABLE_1: dict[tuple[str, bool | None], tuple[int, int, int, int]] = {
    ("all-random", None): (50, 10, 40, 0),
    ("all-llm", True): (15, 20, 15, 50),
    ("all-llm", False): (25, 45, 15, 15),
    ("llm-crew", True): (20, 10, 30, 40),
    ("llm-crew", False): (5, 55, 25, 15),
    ("llm-impostor", True): (50, 15, 35, 0),
    ("llm-impostor", False): (75, 5, 20, 0),
}


def published(setup: str, planner: bool | None) -> dict[str, float] | None:
    """The paper's shares (0..1) of each ending for a setup and planner setting; None when the
    paper has no such row."""
    row = TABLE_1.get((setup, None if setup == "all-random" else planner))
    return None if row is None else {e: pct / 100 for e, pct in zip(ENDINGS, row, strict=True)}
