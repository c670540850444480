"""The Impostor game's scripted player and the generic random bot, in whole games through the
engine: clues that never leak, sensible outcomes, and decisions taken from the view alone."""

import asyncio
import sqlite3
from collections import Counter

import pytest

from bots.registry import available, make_bot
from bots.scripted.impostor import CLUES, STYLES, ballot, description
from engine.impostor.rules import ImpostorGame
from engine.impostor.syntax import sentences
from engine.impostor.words import pairs
from engine.wording import says
from tests.impostor.helpers import ENV, new_game

DESCRIBER = "scripted:describer"


def play(game: ImpostorGame, specs: list[str], seed: int = 0) -> list:
    """Drive the game to its end; returns every (seat, action) in order."""
    bots = [make_bot(spec, ENV.id, seed * 10 + s) for s, spec in enumerate(specs)]
    moves = []
    while not game.over:
        for seat in sorted(game.pending()):
            decision = asyncio.run(bots[seat].decide(game.view(seat),
                                                     game.legal(seat).to_json(), {}))
            moves.append((seat, decision.action))
            game.act(seat, decision.action)
    return moves


def test_the_describer_is_registered():
    assert DESCRIBER in available(ENV.id) and "random" in available(ENV.id)


@pytest.mark.parametrize("clue", CLUES)
def test_the_clue_never_names_its_word_over_all_300_pairs(clue):
    words = {w for tier in pairs().values() for pair in tier for w in pair}
    assert len(words) > 450  # words shared by pairs count once
    # the other styles reorder the same candidates: every third word is enough for them
    for word in sorted(words)[::1 if clue == "full" else 3]:
        said = description(word, clue)
        assert not says(said, word, whole_words=True), (word, said)
        assert 1 <= len(sentences(said)) <= 2 and len(said) <= 750, (word, said)


def test_nine_distinct_scripted_players_as_the_papers_nine_models():
    specs = [f"scripted:{name}" for name in STYLES]
    assert len(specs) == 9 and set(specs) <= set(available(ENV.id))
    assert len({make_bot(spec, ENV.id, 0).identity for spec in specs}) == 9
    # each clue style words the same word its own way
    assert description("dog", "full") == "It is a kind of canine: " + \
        "a member of the genus Canis (probably descended from the common wolf) that has " \
        "been domesticated by man since prehistoric times; occurs in many breeds."
    assert description("dog", "terse") == "It is a kind of canine."
    assert description("dog", "gloss").startswith("Think of this: a member of the genus Canis")


def test_how_sure_a_style_must_be_before_it_declares_itself():
    one_unfit = [{"seat": 0, "text": description("dog")}, {"seat": 1, "text": description("dog")},
                 {"seat": 2, "text": description("piano")}]
    all_unfit = [{"seat": s, "text": description("dog")} for s in (0, 1, 2)]
    # the word "piano" shares nothing with two dog clues: "most" and "any" declare, "never" not
    assert ballot(3, "piano", one_unfit, "most")["self_declaration"]
    assert ballot(3, "piano", one_unfit, "any")["self_declaration"]
    assert not ballot(3, "piano", one_unfit, "never")["self_declaration"]
    # one description of three shares nothing with "dog": only "any" declares
    assert not ballot(3, "dog", one_unfit, "most")["self_declaration"]
    assert ballot(3, "dog", one_unfit, "any")["self_declaration"]
    vote = ballot(3, "democracy", all_unfit, "never")
    assert not vote["self_declaration"] and vote["suspected_impostor_id"] in (1, 2, 3)


def test_the_clue_is_related():
    assert "canine" in description("dog")
    assert "feline" in description("cat")


@pytest.mark.parametrize("tier", ["easy", "medium", "hard", "expert"])
def test_scripted_games_are_accepted_whole(tier):
    for seed in range(4):
        game = new_game(impostor=seed % 4, seed=seed, tier=tier, pair_index=seed * 7)
        play(game, [DESCRIBER] * 4, seed)
        assert game.over and all(a.outcome == "ok" for a in game.actions)
        assert all(not d["flags"] for d in game.descriptions)


def detection(specs: list[str], games: int) -> tuple[float, Counter]:
    found, conditions = 0.0, Counter()
    for seed in range(games):
        tier = ("easy", "medium", "hard", "expert")[seed % 4]
        game = new_game(impostor=seed % 4, seed=seed, tier=tier, pair_index=(seed * 11) % 75)
        play(game, specs, seed)
        metrics = ENV.game_metrics(game.record())["game"]
        found += metrics["detection"]
        conditions[metrics["win_condition"]] += 1
    return found / games, conditions


def test_scripted_voters_find_the_impostor_more_often_than_random_ones():
    scripted, _ = detection([DESCRIBER] * 4, 24)
    random_, conditions = detection(["random"] * 4, 24)
    assert scripted > 0.6 > random_
    assert sum(conditions.values()) == 24  # the random bot plays every game to its end


def test_the_voter_names_the_description_that_fits_its_word_least():
    said = [{"seat": 0, "text": description("dog")}, {"seat": 1, "text": description("dog")},
            {"seat": 2, "text": description("piano")}]
    vote = ballot(3, "dog", said)
    assert vote["suspected_impostor_id"] == 3 and not vote["self_declaration"]


def test_the_voter_declares_itself_when_its_word_fits_worst_and_guesses():
    said = [{"seat": s, "text": description("dog")} for s in (0, 1, 2)]
    vote = ballot(3, "democracy", said)
    assert vote["self_declaration"] and vote["suspected_impostor_id"] == 4
    assert vote["word_guess"]  # its best guess of the others' word


HIDDEN_CHANGES = {
    "impostor seat": ({"impostor": 2}, {"impostor": 3}),
    # dog/cat (medium 0) against dog/puppy (expert 32): the other word differs
    "other word": ({"tier": "medium", "pair_index": 0}, {"tier": "expert", "pair_index": 32}),
}


@pytest.mark.parametrize("spec", [*(f"scripted:{name}" for name in STYLES), "random"])
@pytest.mark.parametrize("change", HIDDEN_CHANGES)
def test_decisions_depend_only_on_the_seat_view(spec, change):
    """Two games that differ only in what seat 0 must not know (who holds the odd word, or
    what the odd word is): seat 0, a majority seat in both, sees the same and decides the
    same, describing and voting."""
    one, other = HIDDEN_CHANGES[change]
    first, second = new_game(seed=5, **one), new_game(seed=5, **other)
    for game in (first, second):
        assert game.words[0] == game.majority_word
        for seat in game.order:
            if seat == 0:
                break
            game.act(seat, "It is a friendly animal that people keep at home.")
    assert first.view(0) == second.view(0)
    bot_a, bot_b = make_bot(spec, ENV.id, 3), make_bot(spec, ENV.id, 3)
    a = asyncio.run(bot_a.decide(first.view(0), first.legal(0).to_json(), {}))
    b = asyncio.run(bot_b.decide(second.view(0), second.legal(0).to_json(), {}))
    assert a.action == b.action
    for game in (first, second):
        while game.phase == "describe":
            game.act(next(iter(game.pending())), "It is a friendly animal kept at home.")
    assert first.view(0) == second.view(0)
    a = asyncio.run(bot_a.decide(first.view(0), first.legal(0).to_json(), {}))
    b = asyncio.run(bot_b.decide(second.view(0), second.legal(0).to_json(), {}))
    assert a.action == b.action


def test_parlor_sim_plays_scripted_and_random_seats_to_the_end(tmp_path, capsys):
    from server.cli import main

    db = tmp_path / "sim.db"
    seats = ["--seat", DESCRIBER] * 3 + ["--seat", "random"]
    assert main(["sim", "impostor", *seats, "--games", "4", "--seed", "2", "--preset", "hard",
                 "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "4 games (0 void" in out and DESCRIBER in out and "Share of games decided by" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE status='finished'").fetchone()[0] \
            == 4
