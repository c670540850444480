"""The scripted Codenames players and the data they stand on: the bank and the association
groups are ours and consistent; scripted teams play whole games without an invalid move; the
spymaster never gives an illegal clue and keeps the assassin out of play; the operative stops
when unsure; the TUI's copy of the illegal-clue rule agrees with the engine's."""

import asyncio
import random
import time

import pytest

from bots.registry import available, make_bot
from bots.scripted.codenames import candidates, choose_guess, groups, plan_clue
from engine.codenames.board import bank, clue_conflict, example_clue
from tests.codenames.helpers import AGENTS, new, play
from tui.widgets.codenames.clue import check_clue, conflict


# ------------------------------------------------------------------------------------ data
def test_the_bank_is_ours_large_and_clean():
    words = bank()
    assert len(words) >= 400 and len(set(words)) == len(words)
    assert all(w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 11 for w in words)
    assert not {"pass", "stop"} & set(words)  # the words that end a turn are never on a board


def test_the_groups_cover_the_bank_and_every_clue_is_legal_on_any_board():
    words = set(bank())
    members = {w for group in groups().values() for w in group}
    assert members == words  # every bank word has a group, and groups use bank words only
    for clue, group in groups().items():
        assert clue_conflict(clue, words) is None, clue
        assert len(group) >= 3 and len(set(group)) == len(group), clue
    assert clue_conflict(example_clue(), words) is None


# ------------------------------------------------------------------------------------- play
def test_scripted_specs_are_registered():
    specs = available("codenames")
    for name in ("agent", "team", "spymaster", "operative"):
        assert f"scripted:{name}" in specs
    assert make_bot("scripted:spymaster", "codenames").identity == "scripted:spymaster"


@pytest.mark.parametrize("seed", range(12))
def test_scripted_teams_play_whole_games_without_invalid_moves(seed):
    game = play(seed, AGENTS)
    assert game.over and not game.result.void
    assert all(a.outcome == "ok" for a in game.actions)
    assert game.moves <= 80


def test_role_named_bots_seat_by_role_and_play_a_game():
    game = play(5, ["scripted:spymaster", "scripted:operative"] * 2)
    assert game.over and all(a.outcome == "ok" for a in game.actions)


def test_scripted_teams_beat_random_ones():
    wins = sum(play(s, ["scripted:team", "scripted:team", "random", "random"]).result.winners
               == (0, 1) for s in range(10))
    assert wins >= 8


def test_the_spymaster_never_gives_an_illegal_clue_nor_one_near_the_assassin():
    """Over 300 boards with random cards turned, for both teams: every clue is legal, keeps
    the assassin out of its words, and leads with the team's words (or, with nothing better,
    with neutral words only before one of them)."""
    rng = random.Random(1)
    for seed in range(300):
        game = new(seed)
        revealed = [rng.choice([None, None, None, game.labels[i]]) for i in range(25)]
        for team in ("red", "blue"):
            plan = plan_clue(game.words, game.labels, revealed, team, 9)
            if plan is None:
                continue
            word, number = plan
            assert clue_conflict(word, game.words) is None
            assert 1 <= number <= 9
            hidden = [w for w in groups()[word] if w in game.words
                      and revealed[game.words.index(w)] is None]
            labels = [game.labels[game.words.index(w)] for w in hidden]
            assert "assassin" not in labels
            if labels[0] == team:  # the clue's first `number` hidden words are all ours
                assert labels[:number] == [team] * number
            else:  # the fallback: only neutral words stand before one of ours
                first = labels.index(team)
                assert number == 1 and set(labels[:first]) == {"neutral"}


def test_the_operative_stops_when_unsure():
    game = new(2)
    public = game.view(1)["public"]
    public["clue"] = {"word": "qwertyuiop", "number": 2, "guesses": 3, "made": 0}
    assert choose_guess(public, "red", 0) == "pass"
    public["clue"] = {"word": "ocean", "number": 0, "guesses": 1, "made": 0}
    assert choose_guess(public, "red", 0) == "pass"  # n = 0 and nothing left from before


def test_the_operative_reads_unknown_clues_through_shared_groups():
    hidden = {"whale", "shark", "piano", "fork"}
    found = candidates("dolphin", hidden, seed=0)  # not a group, but shares groups with them
    assert found[:2] and set(found[:2]) <= {"whale", "shark"}


def test_decisions_are_quick():
    game = new(3)
    bot = make_bot("scripted:agent", "codenames", 1)
    start = time.perf_counter()
    for _ in range(20):
        asyncio.run(bot.decide(game.view(0), game.legal(0).to_json(), {}))
    assert (time.perf_counter() - start) / 20 < 0.02  # under the server's offload threshold


# ----------------------------------------------------------------- the TUI's copy of the rule
def test_the_tui_clue_check_agrees_with_the_engine():
    rng = random.Random(7)
    for seed in range(40):
        words = new(seed).words
        tries = [w for w in words[:5]] + [w[:rng.randint(1, len(w))] for w in words] + \
            [w + "s" for w in words] + [rng.choice(bank()) for _ in range(20)] + ["signal"]
        for word in tries:
            assert conflict(word, words) == clue_conflict(word, words), word
            assert (check_clue(f"{word} 1", words, 9).action is None) == \
                (clue_conflict(word, words) is not None), word


# A person's clues (issue 22: the operative passed on `insect 1`, `bunny 1`, `painting 1`):
# (clue, the word meant, other words on the board that it does not mean).
PERSON_CLUES = [
    ("insect", "firefly", ["piano", "castle", "judge", "soup"]),
    ("bunny", "rabbit", ["piano", "castle", "judge", "soup"]),
    ("bunnies", "rabbit", ["tractor", "violin", "cement", "ticket"]),
    ("painting", "canvas", ["tractor", "violin", "cement", "ticket"]),
    ("insects", "mosquito", ["wallet", "cannon", "lemon", "sofa"]),
    ("fruit", "mango", ["hammer", "rocket", "judge", "sock"]),
    ("cold", "icicle", ["hammer", "rocket", "judge", "sock"]),
    ("breakfast", "waffle", ["saddle", "trophy", "comet", "wrench"]),
    ("royal", "throne", ["saddle", "mop", "comet", "wrench"]),
    ("spooky", "ghost", ["saddle", "mop", "carrot", "wrench"]),
    ("teeth", "toothbrush", ["saddle", "mop", "carrot", "kite"]),
    ("stripes", "zebra", ["saddle", "mop", "carrot", "kite"]),
    ("egypt", "pyramid", ["saddle", "mop", "carrot", "kite"]),
    ("wedding", "veil", ["hockey", "mop", "carrot", "kite"]),
]


FILLER = ("anchor album badge belt button calendar chalk dice drill envelope folder glue ladder "
          "magnet notebook paperclip plug stapler tape wire").split()


@pytest.mark.parametrize(("clue", "meant", "others"), PERSON_CLUES,
                         ids=[c for c, _, _ in PERSON_CLUES])
def test_the_operative_guesses_what_a_person_means(clue, meant, others):
    words = [meant, *others, *FILLER]
    public = {"words": words, "revealed": [None] * 25, "history": [],
              "clue": {"word": clue, "number": 1, "guesses": 2, "made": 0}}
    for seed in range(5):  # whatever the bot's noise
        assert choose_guess(public, "red", seed) == meant


def test_every_bank_word_has_cues_of_our_own():
    from bots.scripted.codenames import cued_by
    cued = {w for pairs in cued_by().values() for w, _ in pairs}
    assert cued == set(bank())


def test_the_operative_passes_when_nothing_on_the_board_relates():
    words = [*FILLER, "piano", "castle", "judge", "soup", "saddle"]
    for clue in ("insect", "bunny", "painting", "wedding"):
        public = {"words": words, "revealed": [None] * 25, "history": [],
                  "clue": {"word": clue, "number": 1, "guesses": 2, "made": 0}}
        assert choose_guess(public, "red", 0) == "pass", clue
