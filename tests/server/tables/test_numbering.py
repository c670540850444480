"""`outbound.Numbering` keeps a few counts per block of the log, not a list per event (issue
21), and numbers every event and action for every recipient exactly as counting the events and
actions it may see would: checked against that count on a game with events hidden from some
seats and from everyone, a void ending included, with small blocks."""

from __future__ import annotations

import random

import pytest

from engine.registry import get
from engine.sampling import random_action
from server.tables import outbound
from server.tables.outbound import Numbering

ENV = get("socialgrid")


def _game(steps: int, seed: int):
    game = ENV.new_game(ENV.config("navigation", {"impostors": 0, "max_steps": steps + 5}),
                        seed, 3)
    rng = random.Random(seed)
    numbering = Numbering(game)
    while game.public_view()["step"] < steps and not game.over:
        for seat in sorted(game.pending()):
            if rng.random() < 0.2:
                game.act(seat, "dance wildly")  # invalid: only the seat hears of it
            else:
                game.act(seat, random_action(game.legal(seat), rng))
            if rng.random() < 0.3:
                numbering.sync()  # read as the table does, after some moves
    game.abort("the server shut down")
    numbering.sync()
    return game, numbering


def _expected(game, numbering, r):
    """Each visible event's (seq, step) as `r` counts them, by counting."""
    events = game.events
    opening = numbering._opening
    seen_steps = {e.step for e in events if e.visible(r) and e.seq >= opening}
    out = {}
    for number, e in enumerate(e for e in events if e.visible(r)):
        hidden = sum(1 for j in range(min(e.step, game.step)) if j not in seen_steps)
        out[e.seq] = (number, e.step - hidden)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_every_recipient_numbers_events_and_actions_as_counting_would(monkeypatch, seed):
    monkeypatch.setattr(outbound, "NUMBERING_BLOCK", 8)
    game, numbering = _game(60, seed)
    assert game.event_count > 100 and game.step > 150
    for r in (None, 0, 1, 2):
        expected = _expected(game, numbering, r)
        got = {seq: (numbering.seq(r, seq), numbering.step(r, e.step))
               for seq, e in ((e.seq, e) for e in game.events if e.visible(r))}
        assert got == expected
        for shown, seq in enumerate(sorted(expected)):
            assert numbering.game_seq(r, shown) == seq
        hidden = game.event_count - len(expected)
        assert numbering.game_seq(r, len(expected)) == len(expected) + hidden


def test_what_it_keeps_grows_per_block_not_per_event():
    game, numbering = _game(300, 3)
    blocks = game.event_count // outbound.NUMBERING_BLOCK + 1
    action_blocks = game.step // outbound.NUMBERING_BLOCK + 1
    assert game.event_count > 600 and game.step > 900
    for r in (None, 0, 1, 2):
        assert len(numbering._hidden_at[r]) <= blocks
        assert len(numbering._hidden_steps_at[r]) <= action_blocks


def test_the_latest_moves_events_are_numbered_as_counting_would_after_every_move(monkeypatch):
    """As a table asks: after each move, the numbers of that move's events (the latest
    action's, which are numbered without reading the log) for every recipient."""
    monkeypatch.setattr(outbound, "NUMBERING_BLOCK", 8)
    game = ENV.new_game(ENV.config("navigation", {"impostors": 0, "max_steps": 40}), 4, 3)
    rng = random.Random(4)
    numbering = Numbering(game)
    moves = 0
    while not game.over and moves < 120:
        seat = min(game.pending())
        before = game.event_count
        game.act(seat, "dance wildly" if rng.random() < 0.3
                 else random_action(game.legal(seat), rng))
        moves += 1
        numbering.sync()
        for r in (None, 0, 1, 2):
            expected = _expected(game, numbering, r)
            for e in game.events_between(before, game.event_count):
                if e.visible(r):
                    assert (numbering.seq(r, e.seq), numbering.step(r, e.step)) \
                        == expected[e.seq]
    assert moves == 120
