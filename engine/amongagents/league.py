"""The AmongAgents paper's end-to-end evaluation (spec §14.2) as a schedule: four setups of who
plays the crew and who the impostors — All Random, All LLMs, LLM Crew + Random Imp, Random
Crew + LLM Imp — each LLM setup with and without the planner (All Random has no LLM, so one row),
20 games a row, on the paper's preset (4 crewmates and 1 impostor, 1 common, 1 short and 1 long
task each).

A game seats one spec per side (`crew=SPEC`, `impostor=SPEC`). Its table seed comes from the
run seed and its place (row and number), so a longer run starts with a shorter run's games and
adding a setup moves no other game; games are listed number by number over the rows, so a run
stopped half way has covered every row evenly. How the planner is set on a spec is the caller's
(an LLM spec takes `planner=on|off`; a scripted stand-in has no planner)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.amongagents.config import CREW_SIDE, IMPOSTOR_SIDE
from engine.amongagents.published import GAMES_PER_SETUP, SETUPS
from engine.schedule import DistinctSeeds, table_seed

PRESET = "paper"
# Who plays each side in a setup: the model under test or the random baseline.
SIDES = {"all-random": ("baseline", "baseline"), "all-llm": ("model", "model"),
         "llm-crew": ("model", "baseline"), "llm-impostor": ("baseline", "model")}
Planned = Callable[[str, bool], str]  # (spec, planner on?) -> the spec to seat


@dataclass(frozen=True)
class Episode:
    setup: str
    planner: bool | None  # None: the setup has no model (All Random)
    number: int  # 0 .. games - 1 within its row
    seed: int
    crew: str  # the spec playing every crewmate
    impostor: str  # the spec playing every impostor

    @property
    def row(self) -> tuple[str, bool | None]:
        return self.setup, self.planner

    @property
    def specs(self) -> list[str]:
        """The seat specs of the episode's table (side specs)."""
        return [f"{CREW_SIDE}={self.crew}", f"{IMPOSTOR_SIDE}={self.impostor}"]


def rows(setups: Sequence[str] = SETUPS, planners: Sequence[bool] = (True, False)
         ) -> list[tuple[str, bool | None]]:
    """The report's rows in the paper's order: each setup, with then without the planner."""
    unknown = [s for s in setups if s not in SIDES]
    if unknown:
        raise ValueError(f"unknown setup {unknown[0]!r}: one of {', '.join(SIDES)}")
    if not planners:
        raise ValueError("at least one planner setting (on or off) is needed")
    return [(s, None) if s == "all-random" else (s, p)
            for s in SETUPS if s in setups
            for p in ((None,) if s == "all-random" else planners)]


def schedule(model: str, *, setups: Sequence[str] = SETUPS,
             planners: Sequence[bool] = (True, False), games: int = GAMES_PER_SETUP,
             seed: int = 0, baseline: str = "random",
             planned: Planned = lambda spec, on: spec) -> list[Episode]:
    """Every game of the evaluation for `model` against `baseline`, number by number over the
    rows; ValueError on an unknown setup or fewer than one game."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    table = rows(setups, planners)
    seeds = DistinctSeeds()
    out = []
    for number in range(games):
        for setup, planner in table:
            who = {"model": model, "baseline": baseline}
            crew, impostor = (planned(who[side], bool(planner)) if side == "model"
                              else who[side] for side in SIDES[setup])
            label = f"amongagents-eval:{setup}:{_planner_word(planner)}:{number}"
            out.append(Episode(setup, planner, number, seeds.take(table_seed(seed, label)),
                               crew, impostor))
    return out


def _planner_word(planner: bool | None) -> str:
    return "none" if planner is None else "on" if planner else "off"
