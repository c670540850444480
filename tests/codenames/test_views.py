"""What each seat may know: spymasters see the key, operatives and spectators only revealed
colours (checked by giving the hidden cards other colours: their views must not change), no
event tells them a hidden colour, nothing is private to a team, and the end reveals the key."""

import json
import random

import pytest

from engine.codenames.rules import CodenamesGame
from tests.codenames.helpers import AGENTS, ENV, clue, guess, hidden, new, play

BLIND = (1, 3, None)  # the operatives and a spectator


def _reshuffled(game: CodenamesGame, rng: random.Random) -> CodenamesGame:
    """The game rebuilt from its record, then its hidden cards' colours shuffled (the same
    counts, other places)."""
    twin = ENV.replay(game.record())
    assert isinstance(twin, CodenamesGame)
    spots = [i for i, shown in enumerate(twin.revealed) if shown is None]
    labels = list(twin.labels)
    moved = [labels[i] for i in spots]
    rng.shuffle(moved)
    for i, label in zip(spots, moved, strict=True):
        labels[i] = label
    twin.labels, twin._key = tuple(labels), labels
    twin._public = None
    return twin


def _view(game, seat):
    return json.dumps(game.view(seat), sort_keys=True)


@pytest.mark.parametrize("seed", range(4))
def test_no_view_of_an_operative_or_spectator_depends_on_a_hidden_colour(seed):
    rng = random.Random(seed)
    final = play(seed, AGENTS)
    actions = final.actions
    game = new(seed)
    for step, action in enumerate(actions):
        if step % 3 == 0:
            twin = _reshuffled(game, rng)
            for seat in BLIND:
                assert _view(game, seat) == _view(twin, seat), (step, seat)
                assert ENV.render(game.view(seat)) == ENV.render(twin.view(seat))
            if twin.labels != game.labels:
                assert _view(game, 0) != _view(twin, 0)  # the key is in the spymaster's view
        game.act(action.seat, action.raw)
    assert game.over


@pytest.mark.parametrize("seed", range(4))
def test_events_seen_by_operatives_carry_only_revealed_colours(seed):
    game = play(seed, AGENTS)
    for seat in BLIND:
        for event in game.events_for(seat):
            if event.type == "setup_revealed":
                break
            data = json.dumps(event.to_json())
            assert '"key"' not in data and '"labels"' not in data, event
            if "label" in event.data:
                assert event.type == "guess_made"  # the colour of the card just revealed


def test_private_parts_by_role():
    game = new(1)
    key = list(game.labels)
    assert game.view(0)["private"] == {"role": "spymaster", "team": "red", "key": key}
    assert game.view(2)["private"] == {"role": "spymaster", "team": "blue", "key": key}
    assert game.view(1)["private"] == {"role": "operative", "team": "red"}
    assert game.view(3)["private"] == {"role": "operative", "team": "blue"}
    assert game.view(None)["private"] == {}


def test_revealed_colours_are_public_and_hidden_ones_are_not():
    game = new(2)
    clue(game, 1)
    word = hidden(game, "red")[0]
    guess(game, word)
    public = game.view(None)["public"]
    assert public["revealed"][game.words.index(word)] == "red"
    assert sum(1 for x in public["revealed"] if x is not None) == 1
    lines = ENV.render(game.view(1)).splitlines()
    for i, w in enumerate(game.words):
        line = next(x for x in lines if x.strip().startswith(w + " ") or x.strip() == w)
        assert (line.strip() == w) == (public["revealed"][i] is None), line


def test_nothing_is_private_to_a_team_only_to_the_seat_that_erred():
    game = play(3, ["scripted:agent", "random", "scripted:agent", "random"])
    for event in game.events:
        if event.visible_to != "all":
            assert event.type == "invalid_move" and event.visible_to == (event.data["seat"],)


def test_the_end_reveals_the_key_to_everyone():
    game = new(5)
    assert "setup" not in game.view(None)["public"]
    game.act(0, f"[{game.words[2]} 1]")  # an illegal clue ends the game
    setup = game.view(None)["public"]["setup"]
    assert setup == game.record().setup and setup["key"]["assassin"] == hidden(game, "assassin")
    revealed = next(e for e in game.events if e.type == "setup_revealed")
    assert revealed.visible_to == "all" and revealed.data == setup
    text = ENV.render(game.view(3))
    assert all(f"{w:<12} {label}" in text for w, label in zip(game.words, game.labels,
                                                               strict=True))
