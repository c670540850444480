"""Attacker tests: games that differ in one hidden input (who the impostors are, where an unseen
player stands) must look the same to every seat that should not know it."""

from __future__ import annotations

import pytest

from engine.core import Role
from engine.registry import get
from engine.socialgrid.board import DOWN, RIGHT
from engine.socialgrid.config import CREW, CREWMATE, IMPOSTOR, IMPOSTORS
from engine.socialgrid.moves import NOOP, Pose

ENV = get("socialgrid")


def dealt(monkeypatch, impostors, seed, players=7, **overrides):
    """A game of `seed` in which exactly `impostors` are the impostors."""
    roles = tuple(Role(IMPOSTOR, IMPOSTORS) if s in impostors else Role(CREWMATE, CREW)
                  for s in range(players))
    monkeypatch.setattr(ENV, "assign_roles", lambda config, seed, players: roles)
    config = ENV.config("league-10x10", {"impostors": len(impostors), **overrides})
    return ENV.new_game(config, seed, players)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_crewmates_tasks_and_view_do_not_depend_on_who_the_impostors_are(monkeypatch, seed):
    # Before: tasks were numbered across the crewmates in seat order, so seat 3's first task
    # number told how many impostors sat below it (and its stations moved with them).
    a = dealt(monkeypatch, {1, 2}, seed)
    b = dealt(monkeypatch, {4, 5}, seed)
    crew_in_both = [0, 3, 6]
    for seat in crew_in_both:
        tasks = [(t["task_name"], t["station"]) for t in a.view(seat)["private"]["tasks"]]
        assert tasks == [(t["task_name"], t["station"])
                         for t in b.view(seat)["private"]["tasks"]]
        assert [name for name, _ in tasks] == [f"common_task_{3 * seat + 1}",
                                               f"short_task_{3 * seat + 2}",
                                               f"long_task_{3 * seat + 3}"]
    for _ in range(3):  # and step by step, the whole view (map, patch, hints, ...)
        for seat in crew_in_both:
            assert a.view(seat) == b.view(seat)
        for g in (a, b):
            for seat in sorted(g.pending()):
                g.act(seat, {"choice": str(NOOP)})


def test_an_impostors_cover_has_the_shape_of_a_crewmates_tasks(monkeypatch):
    g = dealt(monkeypatch, {1, 2}, 5)
    crew, cover = g.view(0)["private"]["tasks"], g.view(1)["private"]["tasks"]
    assert [t["kind"] for t in cover] == [t["kind"] for t in crew]
    assert [t["task_name"] for t in cover] == ["common_task_4", "short_task_5", "long_task_6"]
    assert all(t["cover"] for t in cover) and not any("cover" in t for t in crew)
    assert g.view(None)["public"]["tasks_total"] == 15  # five crewmates' tasks count


def test_the_oracles_hint_depends_only_on_players_in_sight():
    """Two 7x7 rooms (the map of tests/socialgrid/test_rules.py), a view of radius 2. Seat 0
    stands at (5, 2) facing down towards its short task at (6, 6); seat 1 blocks the tile in
    front, so the hint is a way round. Seat 2 stands out of sight at (7, 5), on that way round:
    before, the detour search took it for a wall and the hint changed (to none)."""
    config = ENV.config("navigation-oracle", {"room_size": 7, "rows": 1, "cols": 2,
                                              "fov_radius": 2})
    g = ENV.new_game(config, 3, 3)
    g.poses[0], g.poses[1] = Pose(5, 2, DOWN), Pose(5, 3, RIGHT)
    g.poses[2] = None
    g.changed()
    alone = g.view(0)["private"]["oracle"]
    assert alone["goal"] == "short_task_2" and alone["best_action"] is not None
    g.poses[2] = Pose(7, 5, RIGHT)
    g.changed()
    assert (7, 5) not in g.sight(0)
    assert g.view(0)["private"]["oracle"] == alone
