"""Codenames rules: seats and the board, the turn flow (n + 1 guesses, pass, wrong colour), every
way to win or lose (all words, the opponent's last word, the assassin, illegal clues, the move
cap), skipped turns for unreadable answers, defaults and resigning."""

from collections import Counter

import pytest

from engine.codenames.board import bank
from engine.codenames.config import ROLES
from engine.core import ConfigError, NotYourTurnError
from engine.registry import get
from tests.codenames.helpers import CLUE, clue, guess, hidden, new


# ------------------------------------------------------------------------------ seats & board
def test_four_fixed_seats_with_roles_and_red_starts():
    game = new(3)
    assert [(r.name, r.side) for r in game.roles] == [
        ("spymaster", "red"), ("operative", "red"), ("spymaster", "blue"), ("operative", "blue")]
    assert game.pending() == {0} and game.team == "red" and game.phase == "clue"
    assert game.clock == {"turn": 1, "team": "red", "phase": "clue"}
    assert get("codenames").players == (4,)


@pytest.mark.parametrize("seed", range(20))
def test_board_has_25_bank_words_and_the_9_8_7_1_key(seed):
    game = new(seed)
    assert len(set(game.words)) == 25 and set(game.words) <= set(bank())
    assert Counter(game.labels) == {"red": 9, "blue": 8, "neutral": 7, "assassin": 1}


def test_the_board_is_the_same_for_a_seed_and_differs_between_seeds():
    assert (new(7).words, new(7).labels) == (new(7).words, new(7).labels)
    assert len({new(s).words for s in range(10)}) == 10


def test_config_counts_and_limits():
    game = new(1, red_words=5, blue_words=4, assassins=2)
    assert Counter(game.labels) == {"red": 5, "blue": 4, "neutral": 14, "assassin": 2}
    for bad in ({"red_words": 0}, {"assassins": 4}, {"max_moves": 0}, {"max_clue_number": 0},
                {"red_words": 12, "blue_words": 12, "assassins": 3}):
        with pytest.raises(ConfigError):
            get("codenames").config("paper", bad)


# ------------------------------------------------------------------------------- turn flow
def test_a_clue_allows_n_plus_one_guesses_then_the_turn_passes():
    game = new(0)
    red = hidden(game, "red")
    clue(game, 2)
    assert game.pending() == {1} and game.clue == {"word": CLUE, "number": 2, "guesses": 3,
                                                   "made": 0}
    for i, word in enumerate(red[:3]):
        assert game.pending() == {1}, f"guess {i + 1} should still be allowed"
        guess(game, word)
    assert game.pending() == {2} and game.team == "blue" and game.turn == 2
    assert game.history[-1]["ended"] == "limit" and len(game.history[-1]["guesses"]) == 3


def test_a_clue_of_zero_allows_one_guess():
    game = new(0)
    clue(game, 0)
    guess(game, hidden(game, "red")[0])
    assert game.pending() == {2}


@pytest.mark.parametrize("colour", ["neutral", "blue"])
def test_a_wrong_colour_ends_the_turn_at_once(colour):
    game = new(2)
    clue(game, 3)
    guess(game, hidden(game, "red")[0])
    word = hidden(game, colour)[0]
    guess(game, word)
    assert game.pending() == {2} and game.history[-1]["ended"] == "wrong"
    assert game.revealed[game.words.index(word)] == colour
    event = next(e for e in reversed(game.events) if e.type == "guess_made")
    assert event.data["label"] == colour and not event.data["correct"]


def test_the_operative_may_pass_before_or_after_guessing():
    game = new(4)
    clue(game, 2)
    game.act(1, "[pass]")
    assert game.pending() == {2} and game.history[-1]["ended"] == "pass"
    clue(game, 2)
    guess(game, hidden(game, "blue")[0])
    game.act(3, {"choice": "pass"})
    assert game.pending() == {0} and game.history[-1]["guesses"][0]["label"] == "blue"


def test_a_spymaster_may_pass_and_give_no_clue():
    game = new(4)
    game.act(0, "[pass]")
    assert game.pending() == {2} and game.history[-1] == {
        "turn": 1, "team": "red", "clue": None, "number": None, "guesses": [],
        "ended": "no clue"}


def test_structured_clues_and_guesses():
    game = new(5)
    game.act(0, {"word": "Signal", "number": 1})
    assert game.clue["word"] == "signal"
    game.act(1, {"choice": hidden(game, "red")[0]})
    assert game.left["red"] == 8


def test_acting_out_of_turn_raises_and_changes_nothing():
    game = new(0)
    with pytest.raises(NotYourTurnError):
        game.act(1, "[pass]")
    assert game.moves == 0 and game.pending() == {0}


# ------------------------------------------------------------------------------ the end
def test_the_assassin_loses_at_once():
    game = new(6)
    clue(game, 2)
    guess(game, hidden(game, "assassin")[0])
    assert game.over and game.result.winners == (2, 3)
    assert game.result.rewards == {0: -1.0, 1: -1.0, 2: 1.0, 3: 1.0}
    assert "assassin" in game.result.reason and game.result.teams == ((0, 1), (2, 3))


def _reveal_all_but(game, colour, keep):
    """Play turns where the operative of `colour` guesses its words, until `keep` are left; the
    other team passes its turns."""
    while len(hidden(game, colour)) > keep:
        team = game.team
        clue(game, 1)
        if team == colour:
            guess(game, hidden(game, colour)[0])
            if not game.over and min(game.pending()) in (1, 3):
                game.act(min(game.pending()), "[pass]")
        else:
            game.act(min(game.pending()), "[pass]")


def test_a_team_that_reveals_all_its_words_wins():
    game = new(8)
    _reveal_all_but(game, "red", 0)
    assert game.over and game.result.winners == (0, 1)
    decided = next(e for e in game.events if e.type == "game_decided")
    assert decided.data == {"winner": "red", "how": "all_words",
                            "revealed": {"red": 9, "blue": 0}, "moves": game.moves}


def test_revealing_the_other_teams_last_word_makes_it_win():
    game = new(9)
    _reveal_all_but(game, "blue", 1)  # blue finds 7 of its 8
    while game.team != "red":
        game.act(min(game.pending()), "[pass]")
    clue(game, 1)
    guess(game, hidden(game, "blue")[0])
    assert game.over and game.result.winners == (2, 3)
    assert "last blue word" in game.result.reason
    assert next(e for e in game.events if e.type == "game_decided").data["how"] == \
        "opponent_last_word"


# --------------------------------------------------------------------------- illegal clues
def _illegal_cases(game):
    word = game.words[0]
    return [word, word.upper(), word[:3], f"super{word}"]


@pytest.mark.parametrize("case", range(4))
def test_an_illegal_clue_loses_the_game_for_its_team(case):
    game = new(10)
    bad = _illegal_cases(game)[case]  # the word, in capitals, a part of it, a longer word
    game.act(0, f"[{bad} 2]")
    assert game.over and game.result.winners == (2, 3)
    assert "illegal clue" in game.result.reason and game.words[0] in game.result.reason
    record = game.last_action()
    assert record.outcome == "invalid" and record.category == "rule" and record.fatal
    invalid = next(e for e in game.events if e.type == "invalid_move")
    assert invalid.visible_to == "all" and invalid.data["category"] == "illegal_clue"


def test_revealed_words_still_make_a_clue_illegal():
    game = new(11)
    clue(game, 1)
    word = hidden(game, "red")[0]
    guess(game, word)
    game.act(1, "[pass]")
    game.act(2, f"[{word} 1]")  # blue uses a word red revealed
    assert game.over and game.result.winners == (0, 1)


def test_a_clue_that_merely_resembles_a_word_is_legal():
    game = new(12)
    word = game.words[0]
    near = word[:-1] + ("z" if word[-1] != "z" else "y")  # one letter changed: not a part
    if any(near in w or w in near for w in game.words):
        pytest.skip("the changed word happens to collide")
    game.act(0, f"[{near} 1]")
    assert not game.over and game.pending() == {1}


# ----------------------------------------------------------------------------- skipped turns
@pytest.mark.parametrize("answer,category", [
    ("I give up", "unreadable_clue"), ("[ocean]", "unreadable_clue"),
    ("[deep sea 2]", "unreadable_clue"), ("[signal 10]", "bad_number"), ("", "unreadable_clue"),
])
def test_an_unreadable_clue_skips_the_teams_turn(answer, category):
    game = new(13)
    game.act(0, answer)
    assert not game.over and game.pending() == {2} and game.team == "blue"
    record = game.last_action()
    assert record.outcome == "invalid" and not record.fatal
    invalid = next(e for e in game.events if e.type == "invalid_move")
    assert invalid.visible_to == (0,) and invalid.data["category"] == category
    skipped = next(e for e in game.events if e.type == "turn_skipped")
    assert skipped.visible_to == "all" and skipped.data["seat"] == 0
    assert game.history[-1]["ended"] == "skipped"


@pytest.mark.parametrize("kind", ["unreadable", "not_on_board", "already_revealed"])
def test_an_invalid_guess_skips_the_rest_of_the_turn_and_keeps_earlier_guesses(kind):
    game = new(14)
    clue(game, 3)
    first = hidden(game, "red")[0]
    guess(game, first)
    answer = {"unreadable": "[two words]", "not_on_board": "[zzzz]",
              "already_revealed": f"[{first}]"}[kind]
    game.act(1, answer)
    assert game.pending() == {2} and game.left["red"] == 8
    assert game.history[-1]["ended"] == "skipped"
    assert game.history[-1]["guesses"] == [{"word": first, "label": "red"}]
    assert game.last_action().category == ("format" if kind == "unreadable" else "rule")


# ---------------------------------------------------------------------------------- the cap
def test_the_move_cap_ends_the_game_as_a_draw_when_level():
    game = new(15)
    while not game.over:
        game.act(min(game.pending()), "[pass]")  # every move a pass: nobody reveals anything
    assert game.moves == 80 and game.result.winners == () and game.result.draw
    assert set(game.result.rewards.values()) == {0.0}


def test_at_the_cap_the_team_with_more_revealed_words_wins():
    game = new(16, max_moves=10)
    clue(game, 1)
    guess(game, hidden(game, "red")[0])  # red 1, blue 0
    while not game.over:
        game.act(min(game.pending()), "[pass]")
    assert game.moves == 10 and game.result.winners == (0, 1)
    assert "move cap (10)" in game.result.reason


def test_every_answer_counts_as_a_move_invalid_ones_included():
    game = new(17, max_moves=3)
    game.act(0, "nonsense")  # skipped: a move
    game.act(2, "[pass]")
    game.act(0, "[oops")  # the third move ends the game
    assert game.over and game.moves == 3


# ------------------------------------------------------------------------- defaults & leaving
def test_the_default_move_passes_for_either_role():
    game = new(18)
    game.act_default(0, "timeout")
    assert game.pending() == {2} and game.last_action().outcome == "defaulted"
    clue(game, 1)
    game.act_default(3, "timeout")
    assert game.pending() == {0} and game.history[-1]["ended"] == "pass"


def test_resigning_loses_for_the_whole_team():
    game = new(19)
    game.resign(3, "left the game")
    assert game.over and game.result.winners == (0, 1)
    assert next(e for e in game.events if e.type == "game_decided").data["how"] == "forfeit"


def test_roles_name_the_result():
    game = new(20)
    game.act(0, f"[{game.words[1]} 1]")
    assert game.result.roles == tuple(r.name for r in ROLES)
    assert game.result.sides == ("red", "red", "blue", "blue")
