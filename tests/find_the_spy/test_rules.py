"""Find the Spy's rules: the deal, turn order, the word-leak check, secret votes, scoring, and
views that never show another seat's word or who the spy is."""

import json
import re
from collections import Counter

import pytest

from engine.core import NO_ACTION, NotYourTurnError
from engine.find_the_spy.config import FindTheSpyConfig, deal_words, spy_seat
from engine.find_the_spy.env import FindTheSpyEnv
from engine.find_the_spy.syntax import NO_DESCRIPTION, parse_vote
from engine.find_the_spy.words import bank
from engine.wording import forms, says

ENV = FindTheSpyEnv()
NEUTRAL = "Something you might meet on an ordinary day."


def new_game(seed=1, **config):
    return ENV.new_game(FindTheSpyConfig(**config), seed, 4)


def describe_all(game, text=NEUTRAL):
    while game.phase == "describe":
        (seat,) = game.pending()
        assert game.act(seat, text)
        assert game.actions[-1].outcome == "ok"


def vote_all(game, votes):
    for seat, answer in votes.items():
        game.act(seat, answer)


# -- the word bank -------------------------------------------------------------------------
def test_bank_has_enough_distinct_pairs_of_everyday_words():
    pairs = bank()
    assert len(pairs) >= 150
    words = [w for p in pairs for w in p.words]
    assert len(words) == len(set(words)), "a word is in two pairs"
    for w in words:
        assert w.isalpha() and w == w.lower() and len(w) >= 4, w


def test_no_hint_says_either_word_of_its_pair():
    for pair in bank():
        for word in pair.words:
            assert len(pair.hints[word]) >= 3
            for hint in pair.hints[word]:
                for w in pair.words:
                    assert says(hint, w) is None, (word, hint, w)


# -- the deal ----------------------------------------------------------------------------------
def test_the_deal_is_the_seeds_and_every_seat_is_the_spy_about_as_often():
    assert [spy_seat(s) for s in range(50)] == [spy_seat(s) for s in range(50)]
    counts = Counter(spy_seat(s) for s in range(2000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(400 <= c <= 600 for c in counts.values()), counts
    firsts = Counter(deal_words(s)[2] == deal_words(s)[0].first for s in range(400))
    assert 150 <= firsts[True] <= 250, "either word of a pair may be the spy's"
    a, b = new_game(seed=7), new_game(seed=7)
    assert (a.spy, a.words) == (b.spy, b.words)


def test_three_seats_share_a_word_and_the_spy_has_the_other():
    for seed in range(20):
        game = new_game(seed)
        spy_word = game.words[game.spy]
        assert [w for w in game.words if w != spy_word] == [game.civilian_word] * 3
        assert {spy_word, game.civilian_word} == set(game.pair.words)
        assert game.roles[game.spy].name == "Spy"


# -- turns -----------------------------------------------------------------------------------
def test_every_round_every_seat_describes_in_seat_order_then_all_vote_at_once():
    game = new_game(rounds=3)
    order = []
    for _ in range(12):
        (seat,) = game.pending()
        others = [s for s in range(4) if s != seat]
        assert all(game.legal(s) == NO_ACTION for s in others)
        with pytest.raises(NotYourTurnError):
            game.act(others[0], NEUTRAL)
        assert game.legal(seat).kind == "text"
        order.append((game.round, seat))
        game.act(seat, NEUTRAL)
    assert order == [(r, s) for r in (1, 2, 3) for s in range(4)]
    assert game.pending() == frozenset(range(4))
    space = game.legal(2)
    assert space.kind == "choice" and [o.id for o in space.options] == ["1", "2", "3", "4"]
    assert [d["seat"] for d in game.view(None)["public"]["descriptions"]] == [0, 1, 2, 3] * 3


def test_a_long_description_is_cut_and_several_sentences_are_allowed():
    game = new_game(max_chars=50)
    game.act(0, "It is nice. It is round. " * 10)
    text = game.view(None)["public"]["descriptions"][0]["text"]
    assert len(text) <= 50 and text.startswith("It is nice. It is round.")
    assert game.actions[-1].outcome == "ok"


# -- the leak check ------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "word"), [
    ("A LORRY on the road", "lorry"), ("lorries everywhere", "lorry"),
    ("a cupcake", "cake"), ("knives in a drawer", "knife"), ("autumn leaves", "leaf"),
    ("three blind mice", "mouse"), ("berries in a bowl", "berry"), ("Boxes", "box"),
    ("ponds", "pond"),
])
def test_the_own_word_leaks_in_any_case_inside_longer_words_and_as_a_plural(text, word):
    assert says(text, word)


def test_other_words_do_not_leak():
    assert says("a large goods vehicle", "lorry") is None
    assert says("fresh water and ducks", "pond") is None
    assert forms("berry")[:2] == ("berry", "berries")
    assert "berried" in forms("berry") and "berrys" not in forms("berry")  # rules v4


def test_a_leak_is_refused_once_then_recorded_as_no_description():
    game = new_game(seed=3)
    word = game.words[0]
    game.act(0, f"It is a {word.upper()}S thing.")
    assert game.pending() == frozenset((0,)) and game.actions[-1].outcome == "invalid"
    assert game.actions[-1].category == "rule"
    assert word in game.view(0)["private"]["last_error"]
    assert game.view(None)["public"]["descriptions"] == []
    game.act(0, f"Still a {word}.")
    assert game.view(None)["public"]["descriptions"] == [
        {"round": 1, "seat": 0, "text": NO_DESCRIPTION}]
    assert game.pending() == frozenset((1,))
    notices = [e for e in game.events if e.type == "invalid_move"]
    assert len(notices) == 2 and all(e.visible_to == (0,) for e in notices), \
        "only the seat hears why (the reason names its word)"


def test_a_leak_then_a_clean_description_keeps_the_clean_one():
    game = new_game(seed=3)
    game.act(0, game.words[0])
    game.act(0, NEUTRAL)
    assert game.view(None)["public"]["descriptions"][0]["text"] == NEUTRAL
    assert game.errors_in_a_row(0) == 0


def test_saying_the_other_word_is_not_a_leak():
    game = new_game(seed=3)
    other = game.pair.other(game.words[0])
    if says(other, game.words[0]):  # e.g. market / supermarket: not this seed's pair
        pytest.skip("pair words contain each other")
    game.act(0, f"Not quite a {other}.")
    assert game.actions[-1].outcome == "ok"


# -- votes and scoring -----------------------------------------------------------------------
def test_votes_stay_secret_until_all_are_in_then_score_plus_minus_one():
    game = new_game(seed=5)
    describe_all(game)
    spy = game.spy + 1
    wrong = spy % 4 + 1
    answers = {0: f"I think so.\nFinal Answer: Player {spy}", 1: {"choice": str(wrong)},
               2: f"**Final Answer:** Player {wrong} ... no. Final Answer: Player {spy}"}
    vote_all(game, answers)
    assert game.pending() == frozenset((3,))
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view["public"]["voted"] == [0, 1, 2] and view["public"]["votes"] is None
        seen = [e for e in game.events_for(seat) if e.type == "vote"]
        assert all(e.data["seat"] == seat for e in seen), "a vote is shown only to its voter"
    assert game.view(1)["private"]["my_vote"] == wrong
    game.act(3, "I cannot tell.")  # names nobody: an answer, scored wrong
    assert game.over
    assert game.result.rewards == {0: 1.0, 1: -1.0, 2: 1.0, 3: -1.0}
    assert game.result.winners == (0, 2)
    revealed = next(e for e in game.events if e.type == "votes_revealed")
    assert revealed.visible_to == "all"
    assert revealed.data["votes"] == {"0": spy, "1": wrong, "2": spy, "3": None}
    assert game.view(None)["public"]["setup"]["spy_player"] == spy


def test_the_spy_is_right_when_it_names_itself():
    game = new_game(seed=9)
    describe_all(game)
    spy = game.spy + 1
    vote_all(game, {s: str(spy) for s in range(4)})
    assert game.result.rewards == {s: 1.0 for s in range(4)}


def test_a_vote_for_a_player_not_at_the_table_is_retried_then_names_nobody():
    game = new_game()
    describe_all(game)
    game.act(0, "Final Answer: Player 7")
    assert game.actions[-1].outcome == "invalid" and 0 in game.pending()
    game.act(0, "Final Answer: Player 0")
    assert 0 not in game.pending() and game.votes[0] is None


def test_votes_are_read_by_the_last_final_answer_or_a_bare_number():
    assert parse_vote("Final Answer: Player 1 or maybe Final Answer: Player 3").player == 3
    assert parse_vote("final answer: **player 4**").player == 4
    assert parse_vote({"choice": "2"}).player == 2
    assert parse_vote("[3]").player == 3
    assert parse_vote("Player 2 looks odd but I am unsure").player is None


def test_default_moves_describe_nothing_and_vote_for_nobody():
    game = new_game()
    game.act_default(0, "timeout")
    assert game.view(None)["public"]["descriptions"][0]["text"] == NO_DESCRIPTION
    describe_all(game)
    game.act_default(2, "timeout")
    assert game.votes[2] is None


# -- what each seat may know ----------------------------------------------------------------
def _texts(game, seat):
    view = game.view(seat)
    events = [e.to_json() for e in game.events_for(seat)]
    return json.dumps(view) + json.dumps(events), ENV.render(view)


@pytest.mark.parametrize("seed", range(6))
def test_no_view_shows_another_seats_word_or_the_spy_before_the_end(seed):
    game = new_game(seed)
    spy_word, civ_word = game.spy_word, game.civilian_word

    def check():
        for seat in (None, 0, 1, 2, 3):
            data, rendered = _texts(game, seat)
            hidden = {spy_word, civ_word} - ({game.words[seat]} if seat is not None else set())
            for word in hidden:
                assert f'"{word}"' not in data, (seat, word)
                assert not re.search(rf"\b{word}\b", rendered), (seat, word)
            for secret in ('"Spy"', '"Civilian"', '"spy_player"', '"spy"'):
                assert secret not in data, (seat, secret)
            view = game.view(seat)
            assert "setup" not in view["public"]
            if seat is not None:
                assert set(view["private"]) == {"word", "my_vote", "voted", "last_error"}
                assert view["private"]["word"] == game.words[seat]

    while not game.over:
        check()
        seat = min(game.pending())
        game.act(seat, NEUTRAL if game.phase == "describe" else "2")
    setup = game.view(1)["public"]["setup"]
    assert setup["spy"] == game.spy and setup["spy_word"] == spy_word
