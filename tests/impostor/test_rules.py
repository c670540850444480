"""The Impostor game's rules by scenario (spec impostor §2-§3): the deal, the speaking order,
descriptions in order with their retry-then-repair policy, the secret ballot, and every branch
of the resolution in spec §3.3's order with its win condition."""

from __future__ import annotations

import pytest

from engine.core import ConfigError
from engine.impostor.config import ImpostorConfig, deal_teams
from engine.impostor.rules import WITHHELD, resolve
from engine.impostor.syntax import NO_DESCRIPTION
from tests.impostor.helpers import ENV, ballot, describe_all, new_game, vote


def outcome(game):
    return game.outcome["winner"], game.outcome["win_condition"]


# -- the deal -----------------------------------------------------------------------------
def test_three_seats_share_the_majority_word_and_the_impostor_holds_the_other():
    game = new_game(impostor=1)
    assert game.words == ("dog", "cat", "dog", "dog")
    assert [r.side for r in game.roles] == ["majority", "impostor", "majority", "majority"]
    assert ENV.seat_name(0) == "Player 1" and ENV.seat_name(3) == "Player 4"


def test_the_speaking_order_is_drawn_per_game_and_recorded_with_seat_and_position():
    orders = {tuple(new_game(seed=s).order) for s in range(40)}
    assert len(orders) > 10 and all(sorted(o) == [0, 1, 2, 3] for o in orders)
    game = new_game(seed=5)
    describe_all(game)
    said = game.view(None)["public"]["descriptions"]
    assert [(d["seat"], d["position"]) for d in said] == [(s, p) for p, s in enumerate(game.order)]


def test_the_order_does_not_depend_on_the_impostor_or_the_words():
    assert len({tuple(new_game(impostor=i, seed=9).order) for i in range(4)}) == 1
    assert new_game(seed=9).order == new_game(seed=9, pair_index=7).order


def test_a_table_without_a_fixed_deal_draws_seat_and_pair_from_the_seed():
    seats = {ENV.new_game(ImpostorConfig(), s, 4).impostor for s in range(60)}
    tiers = {ENV.new_game(ImpostorConfig(), s, 4).tier for s in range(60)}
    assert seats == {0, 1, 2, 3} and tiers == {"easy", "medium", "hard", "expert"}


def test_config_errors_name_the_rule():
    with pytest.raises(ConfigError, match="impostor_seat"):
        ImpostorConfig(impostor_seat=4)
    with pytest.raises(ConfigError, match="pair_index needs a tier"):
        ImpostorConfig(pair_index=3)
    with pytest.raises(ConfigError, match="two seats per team"):
        ImpostorConfig(mode="team_aware", teams=("A", "A", "A", "B"))
    with pytest.raises(ConfigError, match="team modes"):
        ImpostorConfig(teams=("A", "A", "B", "B"))
    with pytest.raises(ConfigError, match="mode must be one of"):
        ImpostorConfig(mode="duel")


def test_team_modes_split_two_and_two_and_the_league_may_fix_the_split():
    teams = deal_teams(ImpostorConfig(mode="team_blind"), 3)
    assert sorted(teams) == ["A", "A", "B", "B"]
    fixed = ImpostorConfig(mode="team_aware", teams=("x", "y", "y", "x"))
    assert deal_teams(fixed, 3) == ("x", "y", "y", "x")
    assert deal_teams(ImpostorConfig(mode="cross_play"), 3) == ()


# -- descriptions -------------------------------------------------------------------------
def test_each_speaker_waits_for_the_ones_before_and_sees_their_descriptions():
    game = new_game(seed=2)
    first, second = game.order[0], game.order[1]
    assert game.pending() == {first}
    game.act(first, "A loyal animal that fetches sticks.")
    assert game.pending() == {second}
    assert "A loyal animal that fetches sticks." in ENV.render(game.view(second))


@pytest.mark.parametrize(("text", "why"), [
    ("My word is dog.", "names your word"),
    ("Dogs bark at night.", "names your word"),
    ("It barks. It fetches. It wags.", "3 sentences"),
    ("It barks " + "very " * 160 + "loudly.", "characters"),
    ("...", "says nothing"),
])
def test_a_description_breaking_a_rule_is_refused_once_with_the_reason_told_to_its_seat(text, why):
    game = new_game(impostor=3, seed=4)
    seat = game.order[0]
    game.act(seat, text)
    assert game.pending() == {seat} and game.actions[-1].outcome == "invalid"
    refusal = [e for e in game.events if e.type == "invalid_move"][-1]
    assert why in refusal.data["reason"] and refusal.visible_to == (seat,)
    assert not game.view(None)["public"]["descriptions"]


def test_a_preview_warns_the_writer_of_its_own_word_only_and_changes_nothing():
    """A person typing is warned as the rules would refuse, before sending: of naming its own
    word (an inflection too), never of the other word (that would tell the impostor the
    majority's word, or a majority seat the impostor's)."""
    game = new_game(impostor=3, seed=4)
    first = game.order[0]
    own, other = game.words[first], game.words[3]
    assert own != other
    before = (game.event_count, game.step, game.pending())
    assert game.preview(first, f"Two {own}s sleep here.") == [f'it names your word ("{own}s")']
    assert game.preview(first, {"text": f"Not a {other}."}) == []
    assert game.preview(first, "It barks. It fetches. It wags.") == [
        "it has 3 sentences, at most 2 are allowed"]
    assert game.preview(game.order[1], f"My word is {own}.") == []  # not its turn
    assert (game.event_count, game.step, game.pending()) == before
    describe_all(game)
    assert game.preview(first, own) == []  # the descriptions are over


def test_a_second_refusal_is_repaired_and_flagged():
    game = new_game(impostor=3, seed=4)
    seat = game.order[0]
    for _ in range(2):
        game.act(seat, "Every dog barks. It fetches sticks. It wags its tail.")
    entry = game.view(None)["public"]["descriptions"][0]
    assert entry["text"] == "Every [redacted] barks. It fetches sticks."
    assert entry["flags"] == ["sentences", "redacted"]
    assert game.pending() == {game.order[1]}


def test_a_word_disguised_across_pieces_withholds_the_description():
    game = new_game(impostor=3, seed=4)
    seat = game.order[0]
    game.act(seat, "It is a d o g.")
    game.act(seat, "It is a d o g.")
    entry = game.view(None)["public"]["descriptions"][0]
    assert entry["text"] == WITHHELD and entry["flags"] == ["withheld"]


def test_a_too_long_description_is_cut_and_an_empty_one_recorded_as_none():
    game = new_game(impostor=3, seed=4)
    first, second = game.order[0], game.order[1]
    long = "It barks " + "very " * 200 + "loudly."
    game.act(first, long)
    game.act(first, long)
    entry = game.view(None)["public"]["descriptions"][0]
    assert len(entry["text"]) <= 750 and entry["flags"] == ["length"]
    game.act(second, "")
    game.act(second, "")
    assert game.view(None)["public"]["descriptions"][1] == {
        "seat": second, "position": 1, "text": NO_DESCRIPTION, "flags": ["empty"]}


def test_the_word_inside_a_longer_word_is_no_leak_but_an_inflection_is():
    game = new_game(impostor=3, seed=4)  # the first speaker holds "dog"
    seat = game.order[0]
    assert game.words[seat] == "dog"
    game.act(seat, "It was dogging my steps all day.")
    assert game.actions[-1].outcome == "invalid"
    game.act(seat, "Dogma aside, it is a hotdog's namesake.")
    assert game.actions[-1].outcome == "ok"


# -- the ballot ---------------------------------------------------------------------------
def test_ballots_are_secret_until_all_are_in():
    game = new_game(impostor=2)
    describe_all(game)
    game.act(0, ballot(2))
    assert game.view(None)["public"]["ballots"] is None
    assert game.view(1)["private"]["my_ballot"] is None
    assert game.view(0)["private"]["my_ballot"]["target"] == 2
    assert [e.type for e in game.events_for(1)][-1] == "ballot_cast"


def test_an_unreadable_ballot_is_asked_again_once_then_counts_for_nobody():
    game = new_game(impostor=2)
    describe_all(game)
    game.act(0, "I think it is Player 3")
    assert game.pending() >= {0} and game.actions[-1].outcome == "invalid"
    game.act(0, "still not JSON")
    assert 0 not in game.pending()
    vote(game, {1: ballot(2), 2: ballot(0), 3: ballot(1)})
    assert game.view(None)["public"]["ballots"]["0"] == {"valid": False, "why": "unreadable"}
    # one valid vote for the impostor, one for seat 0, one for seat 1: a three-way tie
    assert outcome(game) == ("impostor", "tie")


def test_a_ballot_naming_no_player_at_the_table_is_refused():
    game = new_game(impostor=2)
    describe_all(game)
    game.act(0, '{"suspected_impostor_id": 7}')
    assert "no Player 7" in game.last_error(0)


# -- resolution, in spec §3.3's order -----------------------------------------------------
@pytest.mark.parametrize(("ballots", "expected"), [
    # the impostor (seat 2) declares and guesses right: it wins, whatever the votes
    ({0: ballot(2), 1: ballot(2), 2: ballot(2, declare=True, guess=" Dog "), 3: ballot(2)},
     ("impostor", "correct_guess")),
    # the impostor declares and guesses wrong: the majority wins
    ({0: ballot(1), 1: ballot(0), 2: ballot(2, declare=True, guess="wolf"), 3: ballot(0)},
     ("majority", "wrong_guess")),
    # a majority seat declares itself (wrongly): the majority wins all the same
    ({0: ballot(0, declare=True, guess="cat"), 1: ballot(0), 2: ballot(0), 3: ballot(0)},
     ("majority", "majority_self_declaration")),
    # two majority votes on the impostor: conviction
    ({0: ballot(2), 1: ballot(2), 2: ballot(0), 3: ballot(0)}, ("majority", "conviction")),
    # 2-2 at the top of the ballot goes to the impostor
    ({0: ballot(1), 1: ballot(0), 2: ballot(1), 3: ballot(0)}, ("impostor", "tie")),
    # one majority vote on the impostor is not enough, even in a four-way tie
    ({0: ballot(2), 1: ballot(0), 2: ballot(1), 3: ballot(3)}, ("impostor", "tie")),
    # the majority spread its votes, the impostor was not the top: evaded
    ({0: ballot(1), 1: ballot(0), 2: ballot(1), 3: ballot(1)}, ("impostor", "evaded")),
])
def test_every_branch_of_the_resolution(ballots, expected):
    game = new_game(impostor=2)
    describe_all(game)
    vote(game, ballots)
    assert outcome(game) == expected
    winners = [s for s in range(4) if (s == 2) == (expected[0] == "impostor")]
    assert list(game.result.winners) == winners
    assert all(game.result.rewards[s] == (1.0 if s in winners else -1.0) for s in range(4))


def test_strict_plurality_counts_the_impostors_own_vote_when_ballots_are_void():
    game = new_game(impostor=2)
    describe_all(game)
    vote(game, {0: ballot(2), 1: {"abstain": True}, 2: ballot(2), 3: {"abstain": True}})
    assert outcome(game) == ("majority", "strict_plurality")


def test_the_impostors_self_declaration_comes_before_a_majority_self_declaration():
    ballots = {0: {"valid": True, "target": 0, "self_declaration": True, "word_guess": None},
               1: {"valid": True, "target": 1, "self_declaration": True, "word_guess": "dog"},
               2: {"valid": False}, 3: {"valid": False}}
    assert resolve(1, ballots, "dog")[:2] == ("impostor", "correct_guess")
    assert resolve(1, {**ballots, 1: {**ballots[1], "word_guess": "cat"}}, "dog")[:2] == \
        ("majority", "wrong_guess")


def test_an_invalid_ballots_self_declaration_counts_for_nothing():
    ballots = {0: {"valid": False, "self_declaration": True}, 1: {"valid": True, "target": 0,
               "self_declaration": False, "word_guess": None}, 2: {"valid": False},
               3: {"valid": False}}
    assert resolve(0, ballots, "dog")[:2] == ("majority", "strict_plurality")
    assert resolve(2, ballots, "dog")[:2] == ("impostor", "evaded")


def test_a_guess_without_a_self_declaration_is_not_counted():
    game = new_game(impostor=2)
    describe_all(game)
    vote(game, {0: ballot(1), 1: ballot(0), 2: ballot(1, guess="dog"), 3: ballot(0)})
    assert outcome(game) == ("impostor", "tie")


def test_the_end_reveals_words_seat_pair_and_every_ballot():
    game = new_game(impostor=2)
    describe_all(game)
    vote(game, {0: ballot(2), 1: ballot(2), 2: ballot(0), 3: ballot(0)})
    setup = game.view(0)["public"]["setup"]
    assert setup["majority_word"] == "dog" and setup["impostor_word"] == "cat"
    assert setup["impostor"] == 2 and setup["tier"] == "medium" and setup["pair_index"] == 0
    assert set(game.view(0)["public"]["ballots"]) == {"0", "1", "2", "3"}
    assert any(e.type == "game_ended" and e.data["win_condition"] == "conviction"
               for e in game.events)
