"""The AmongAgents evaluation's schedule (spec §14.2): the paper's seven rows of 20 games, who
holds each side, the planner set on the model only, seeds that are distinct and stay put when
a run grows."""

import pytest

from engine.amongagents.league import rows, schedule

ROWS = [("all-random", None), ("all-llm", True), ("all-llm", False), ("llm-crew", True),
        ("llm-crew", False), ("llm-impostor", True), ("llm-impostor", False)]


def planned(spec: str, on: bool) -> str:
    return f"{spec}?planner={'on' if on else 'off'}"


def test_the_papers_rows_and_who_holds_each_side():
    assert rows() == ROWS
    games = schedule("M", planned=planned)
    assert len(games) == 7 * 20 and [g.row for g in games[:7]] == ROWS
    sides = {g.row: (g.crew, g.impostor) for g in games}
    assert sides[("all-random", None)] == ("random", "random")
    assert sides[("all-llm", False)] == ("M?planner=off", "M?planner=off")
    assert sides[("llm-crew", True)] == ("M?planner=on", "random")
    assert sides[("llm-impostor", False)] == ("random", "M?planner=off")
    assert games[3].specs == ["crew=M?planner=on", "impostor=random"]


def test_seeds_are_distinct_and_a_longer_run_starts_with_a_shorter_ones_games():
    short, long = schedule("M", games=5, seed=3), schedule("M", games=12, seed=3)
    assert len({g.seed for g in long}) == len(long)
    assert long[:len(short)] == short
    assert [g.seed for g in schedule("M", games=5, seed=4)] != [g.seed for g in short]
    # A row's games do not move when another row is left out.
    only = schedule("M", setups=["llm-crew"], planners=[False], games=5, seed=3)
    assert [g.seed for g in only] == [g.seed for g in short if g.row == ("llm-crew", False)]


def test_bad_setups_and_counts_are_refused():
    with pytest.raises(ValueError, match="unknown setup 'all-humans'"):
        schedule("M", setups=["all-humans"])
    with pytest.raises(ValueError, match="at least 1"):
        schedule("M", games=0)
    with pytest.raises(ValueError, match="planner setting"):
        rows(planners=())
