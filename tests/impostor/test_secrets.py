"""Secrets tested like an attacker: two games differing only in the impostor's seat, or only
in the word pair, look the same to every seat that should not know, apart from its own word;
team information is what each mode shows and no more; a table's config hides a fixed deal."""

from __future__ import annotations

import json

import pytest

from engine.impostor.config import ImpostorConfig
from tests.impostor.helpers import ballot, new_game

DESCRIPTIONS = ["It is something many people know well.", "You meet it in everyday life.",
                "Some people love it and some do not.", "It can be found in many places."]


def play_descriptions(game):
    for seat, text in zip(game.order, DESCRIPTIONS, strict=True):
        game.act(seat, text)


def seen(game, seat):
    """Everything `seat` can see: its view and its events, with its own word blanked."""
    word = game.words[seat] if seat is not None else "<none>"
    view = json.dumps(game.view(seat), sort_keys=True).replace(f'"{word}"', '"<own>"')
    events = json.dumps([e.to_json() for e in game.events_for(seat)], sort_keys=True)
    return view, events.replace(f'"{word}"', '"<own>"')


@pytest.mark.parametrize("mode", ["homogeneous", "team_blind", "team_semi_aware"])
def test_the_impostors_seat_is_invisible_to_the_majority_until_the_end(mode):
    teams = ("A", "A", "B", "B") if mode != "homogeneous" else ()
    a = new_game(impostor=2, mode=mode, teams=teams)
    b = new_game(impostor=3, mode=mode, teams=teams)
    for game in (a, b):
        play_descriptions(game)
        game.act(0, ballot(1))
    for seat in (0, 1):  # majority in both games
        assert seen(a, seat) == seen(b, seat)
    assert seen(a, None) == seen(b, None)


def test_the_pair_is_invisible_apart_from_a_seats_own_word():
    a = new_game(impostor=1, pair_index=0)  # dog / cat
    b = new_game(impostor=1, pair_index=1)  # piano / guitar
    for game in (a, b):
        play_descriptions(game)
    for seat in range(4):
        assert seen(a, seat) == seen(b, seat)
    assert seen(a, None) == seen(b, None)


def test_the_impostor_cannot_tell_it_is_the_impostor():
    """Seat 1 holding the odd word or a majority word: the same view but for the word."""
    odd = new_game(impostor=1, pair_index=0)
    common = new_game(impostor=2, pair_index=0)
    for game in (odd, common):
        play_descriptions(game)
    assert seen(odd, 1) == seen(common, 1)


def test_team_aware_names_the_teammate_semi_aware_only_that_there_is_one_blind_nothing():
    teams = ("A", "B", "B", "A")
    aware = new_game(mode="team_aware", teams=teams)
    semi = new_game(mode="team_semi_aware", teams=teams)
    blind = new_game(mode="team_blind", teams=teams)
    assert aware.view(0)["private"]["team"] == {"teammate": 3}
    assert aware.view(1)["private"]["team"] == {"teammate": 2}
    assert semi.view(0)["private"]["team"] == {"teammate": None}
    assert blind.view(0)["private"]["team"] is None
    other = new_game(mode="team_semi_aware", teams=("A", "A", "B", "B"))
    for seat in range(4):
        assert seen(semi, seat) == seen(other, seat)


def test_a_fixed_deal_is_hidden_from_the_config_clients_see():
    config = ImpostorConfig(tier="hard", pair_index=4, impostor_seat=2, mode="team_aware",
                            teams=("A", "B", "A", "B"))
    shown = config.public_json()
    assert shown["pair_index"] == {"hidden": True} and shown["impostor_seat"] == {"hidden": True}
    assert shown["teams"] == {"hidden": True} and shown["tier"] == "hard"
    zero = ImpostorConfig(tier="easy", pair_index=0, impostor_seat=0).public_json()
    assert zero["pair_index"] == zero["impostor_seat"] == {"hidden": True}  # 0 is a secret too
    unset = ImpostorConfig().public_json()
    assert unset["impostor_seat"] is None and unset["teams"] == []


def test_the_end_reveals_everything_to_everyone():
    game = new_game(impostor=2)
    play_descriptions(game)
    for seat in range(4):
        game.act(seat, ballot(2))
    for seat in (None, 0, 1, 2, 3):
        setup = game.view(seat)["public"]["setup"]
        assert setup["impostor"] == 2 and setup["majority_word"] == "dog"
