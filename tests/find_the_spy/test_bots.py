"""Find the Spy's scripted describer: full games without invalid moves, descriptions that are
true and never leak, and a vote that finds the spy by word overlap."""

import pytest

from bots.registry import available, make_bot
from bots.scripted.find_the_spy import description, suspect
from engine.find_the_spy.config import FindTheSpyConfig
from engine.find_the_spy.env import FindTheSpyEnv
from engine.find_the_spy.words import bank, hints_of
from engine.wording import says
from tests.fakes.seating import play

ENV = FindTheSpyEnv()


def test_the_describer_is_listed():
    assert "scripted:describer" in available("find-the-spy")


@pytest.mark.parametrize("round_", [1, 2, 3, 4])
def test_descriptions_never_leak_and_use_the_words_hints(round_):
    for pair in bank():
        for word in pair.words:
            text = description(word, round_)
            assert says(text, word) is None, (word, text)
            assert any(h in text for h in hints_of(word)), (word, text)


async def test_scripted_games_end_without_invalid_moves_and_mostly_find_the_spy():
    right = spy_right = 0
    games = 40
    for seed in range(games):
        game = ENV.new_game(FindTheSpyConfig(), seed, 4)
        bots = [make_bot("scripted:describer", "find-the-spy", seed) for _ in range(4)]
        await play(game, bots)
        assert game.over and all(a.outcome == "ok" for a in game.actions)
        right += sum(1 for r in game.result.rewards.values() if r > 0)
        spy_right += game.result.rewards[game.spy] > 0
    assert right / (4 * games) > 0.6  # far above the 25% chance baseline


async def test_scripted_and_random_seats_mix():
    game = ENV.new_game(FindTheSpyConfig(), 3, 4)
    bots = [make_bot(s, "find-the-spy", 3) for s in
            ("scripted:describer", "random", "scripted:describer", "random")]
    await play(game, bots)
    assert game.over


def test_the_vote_names_the_odd_seat_or_itself():
    pair = bank()[0]
    a, b = pair.words
    said = [{"round": 1, "seat": s, "text": description(b if s == 2 else a, 1)}
            for s in range(4)]
    assert suspect(0, a, said, 4) == 3  # a civilian names Player 3, whose word is the other
    assert suspect(2, b, said, 4) == 3  # the spy sees nobody fitting and names itself
