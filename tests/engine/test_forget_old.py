"""`Game.forget_old` (issue 21): a live game keeps a window of its log and reads the rest back
from an archive. Everything the game answers about its log (ranges, pages for a seat, the
latest events, where a step's events start, the whole record), and every number
`outbound.Numbering` gives, must be what the same game answers when it forgets nothing."""

from __future__ import annotations

import random

import pytest

from engine.core import ActionRecord, Event
from engine.registry import get
from engine.sampling import random_action
from server.tables import outbound
from server.tables.outbound import Numbering

ENV = get("socialgrid")


class TwinArchive:
    """An archive backed by a twin game that was played the same and forgets nothing; counts
    the reads, so a test can see that play itself never reads it."""

    def __init__(self, twin) -> None:
        self.twin, self.reads = twin, 0

    def events(self, start: int, stop: int) -> list[Event]:
        self.reads += 1
        return self.twin.events_between(start, stop)

    def actions(self, start: int, stop: int) -> list[ActionRecord]:
        self.reads += 1
        return self.twin.actions[start:stop]

    def first_event_at(self, step: int) -> int | None:
        self.reads += 1
        found = self.twin.first_event_at(step)
        return None if found == self.twin.event_count else found


def _pair(seed: int, steps: int, keep: int):
    """The same game twice, one forgetting all but `keep` events after every action (as a table
    does), with numberings read as a table reads them."""
    config = ENV.config("navigation", {"impostors": 0, "max_steps": steps + 5})
    whole, windowed = (ENV.new_game(config, seed, 3) for _ in range(2))
    archive = TwinArchive(whole)
    numberings = Numbering(whole), Numbering(windowed)
    rng = random.Random(seed)
    most = 0
    while whole.public_view()["step"] < steps and not whole.over:
        for seat in sorted(whole.pending()):
            action = ("dance wildly" if rng.random() < 0.2  # invalid: only the seat hears
                      else random_action(whole.legal(seat), rng))
            assert whole.act(seat, action) == windowed.act(seat, action)
            for n in numberings:
                n.sync()
            windowed.forget_old(archive, keep)
            most = max(most, len(windowed._events))
    assert archive.reads == 0  # playing and numbering the latest move read nothing old
    return whole, windowed, numberings, most


@pytest.mark.parametrize("seed", [1, 2])
def test_a_forgetful_game_answers_every_question_about_its_log_as_a_whole_one(seed,
                                                                           monkeypatch):
    monkeypatch.setattr(outbound, "NUMBERING_BLOCK", 8)
    whole, windowed, (n_whole, n_windowed), most = _pair(seed, 60, keep=25)
    assert windowed._events_base > 100 and windowed._actions_base > 100  # it did forget
    assert most < 2 * 25 + 10  # the window, however long the game
    count = whole.event_count
    assert windowed.event_count == count and windowed.step == whole.step
    assert windowed.events == whole.events
    assert [a.to_json() for a in windowed.actions] == [a.to_json() for a in whole.actions]
    assert windowed.record().to_json() == whole.record().to_json()
    assert windowed.last_action() == whole.last_action()
    rng = random.Random(seed)
    for _ in range(60):
        start = rng.randrange(count + 1)
        stop = rng.randrange(start, count + 2)
        assert windowed.events_between(start, stop) == whole.events_between(start, stop)
    for step in range(whole.step + 2):
        assert windowed.first_event_at(step) == whole.first_event_at(step)
    for seat in (None, 0, 1, 2):
        for since, limit in [(0, None), (0, 7), (37, 300), (count - 3, 5), (count, 4)]:
            assert windowed.events_for(seat, since, limit) == whole.events_for(seat, since,
                                                                              limit)
        for latest in (1, 30, 100, 10_000):
            assert windowed.latest_events_for(seat, latest) == whole.latest_events_for(seat,
                                                                                     latest)
        for e in whole.events:
            if e.visible(seat):
                assert n_windowed.seq(seat, e.seq) == n_whole.seq(seat, e.seq)
                assert n_windowed.step(seat, e.step) == n_whole.step(seat, e.step)
        for shown in range(0, count + 2, 7):
            assert n_windowed.game_seq(seat, shown) == n_whole.game_seq(seat, shown)


def test_a_game_that_never_grows_past_the_window_forgets_nothing():
    whole, windowed, _, _ = _pair(3, 10, keep=10_000)
    assert windowed._events_base == 0 and windowed._actions_base == 0
    assert windowed._archive is None
