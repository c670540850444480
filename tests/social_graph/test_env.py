"""`social-graph` as a game: every sentence shown from the start, then one question at a time
(form or typed reply, read like the paper reads a model's), nothing about an answer's worth or
the groups visible before the end, every question's score, the right answers and the groups
revealed after it, imported puzzles played as they are, and the metrics worked by hand."""

from __future__ import annotations

import asyncio
import json

import pytest

from bots.registry import make_bot
from engine.core import ConfigError, GameRecord
from engine.registry import get
from engine.social_graph.generator import generate
from engine.social_graph.graph import Partition
from engine.social_graph.instance import Instance
from engine.social_graph.queries import Kind, make_query, score
from engine.social_graph.statements import Statement
from tests.fakes import seating
from tests.social_graph.helpers import EDGES, GROUPS, PEOPLE

ENV = get("social-graph")
GROUPS_TEXT = "{A, B, C, D, F, G} {E, H}"


def example() -> Instance:
    """The spec's worked example (socialmaze §6), with a question of each type: G and H (never
    named together: No), who gets along with B (A, C, D, F, G), the groups (2), the pairs (16
    good, 12 bad)."""
    partition = Partition.of(GROUPS)
    statements = tuple(Statement(e, f"{e.a} and {e.b} are on {'good' if e.good else 'bad'} terms.")
                       for e in EDGES)
    subjects = {Kind.PAIRWISE: ("G", "H"), Kind.MEMBERSHIP: ("B",), Kind.GROUP_COUNT: (),
                Kind.PAIR_COUNT: ()}
    return Instance("fig47", "custom", PEOPLE, statements, partition,
                    tuple(make_query(k, s, partition) for k, s in subjects.items()))


def example_line() -> str:
    """The example as one line of our JSONL format: a table's `instance` config."""
    return json.dumps(example().to_dict())


def imported(**overrides) -> object:
    return ENV.new_game(ENV.config(overrides={"instance": example_line(), **overrides}),
                        seed=1, players=1)


def play(game, spec: str) -> None:
    asyncio.run(seating.play(game, [make_bot(spec, ENV.id, 0)]))


def scored(game) -> list[bool]:
    return [e.data["right"] for e in game.events if e.type == "answer_scored"]


@pytest.mark.parametrize("preset", ["easy", "hard"])
def test_the_solver_bot_is_perfect(preset):
    for seed in range(40):
        game = ENV.new_game(ENV.config(preset), seed, 1)
        play(game, "scripted:solver")
        assert game.result.winners == (0,) and game.result.rewards == {0: 1.0}, seed
        assert scored(game) == [True] * 4


def test_the_table_seed_is_the_generators():
    game = ENV.new_game(ENV.config("easy"), 7, 1)
    play(game, "scripted:majority")
    setup = game.record().setup
    assert (setup["instance_id"], setup["content_hash"]) == \
        ("sga-easy-7", generate(7, "easy").content_hash())


def test_sentences_come_first_and_questions_one_at_a_time():
    game = imported()
    pub = game.view(0)["public"]
    assert pub["statements"] == [s.text for s in example().statements]
    assert pub["question"] == {"number": 1, "kind": "pairwise", "subject": ["G", "H"],
                               "text": "Are G and H on good terms?"}
    assert [e.type for e in game.events] == ["puzzle", "question"]
    legal = game.legal(0)
    assert [f.kind for f in legal.fields] == ["choice"] and legal.syntax == "Final Answer: Yes"
    game.act(0, {"answer": "No"})
    assert game.view(0)["public"]["question"]["kind"] == "membership"
    assert [f.kind for f in game.legal(0).fields] == ["text"]
    game.act(0, {"names": "A, C, D, F, G"})
    assert [(f.name, f.kind, f.max) for f in game.legal(0).fields] == [("groups", "int", 8)]
    game.act(0, {"groups": 2})
    assert [(f.name, f.max) for f in game.legal(0).fields] == [("good", 28), ("bad", 28)]
    assert game.view(0)["private"]["my_answers"] == [
        {"number": 1, "question": "Are G and H on good terms?", "answer": "No"},
        {"number": 2, "question": "Who is on good terms with B?", "answer": "A, C, D, F, G"},
        {"number": 3, "question": "How many separate groups do these people form?",
         "answer": "2"}]
    game.act(0, {"good": 16, "bad": 12})
    assert game.over and game.result.winners == (0,) and scored(game) == [True] * 4


@pytest.mark.parametrize(("replies", "expected"), [
    (["Nobody links G to H directly, but G-A and E-H with E-G bad...\n**Final Answer: no**",
      "final answer: g, f, d, c, a",  # any order, any casing
      "Final Answer: 3\nWait, A-C joins them.\nFinal Answer: 2 groups",  # the last one counts
      "FINAL ANSWER: 16 pairs have good relationships and 12 pairs have bad relationships"],
     [True, True, True, True]),
    (["I don't know.",  # no answer at all: wrong, not an invalid move
      "Final Answer: A, B, C, D, F, G",  # B is not on good terms "with themselves"
      "Final Answer: two",  # a number in words is not read
      "Final Answer: 12 pairs have bad relationships, 16 pairs have good relationships"],
     [False, False, False, False]),
    (["yes", "No one", "2", "[Z99 Q-1]"], [False, False, True, False]),
])
def test_typed_replies_score_as_the_kit_says(replies, expected):
    game = imported()
    queries = example().queries
    for query, reply in zip(queries, replies, strict=True):
        game.act(0, reply)
        assert scored(game)[-1] == score(query, reply)
    assert scored(game) == expected
    assert all(a.outcome == "ok" for a in game.actions) and game.over
    assert game.result.rewards == {0: 2 * sum(expected) / 4 - 1}


def test_a_form_with_missing_or_odd_fields_is_a_wrong_answer_not_an_invalid_move():
    game = imported()
    game.act(0, {})
    game.act(0, {"names": "B, ???"})
    game.act(0, {"groups": "2"})  # a number sent as text still reads
    game.act(0, {"good": 16})
    assert scored(game) == [False, False, True, False]
    assert all(a.outcome == "ok" for a in game.actions)


def test_nothing_of_the_answers_or_groups_shows_before_the_end():
    """Before the end the seat and a spectator see the sentences, the question asked now and the
    seat its own answers; never the groups, the right answers or whether an answer was right.
    At the end the scores, the right answers and the groups are revealed."""
    game = imported()
    for move in ({"answer": "No"}, {"names": "A, C, D, F, G"}, {"groups": 3}):
        for who in (0, None):
            text = json.dumps(game.view(who))
            for secret in (GROUPS_TEXT, '"groups"', '"right"', '"expected"', '"answers"',
                           "content_hash", "16 pairs have good", "fig47"):
                assert secret not in text, (who, secret)
            assert not any(e.type in ("answer_scored", "scores", "setup_revealed")
                           for e in game.events_for(who))
        game.act(0, move)
    game.act(0, {"good": 16, "bad": 12})
    assert game.over and game.result.rewards == {0: 0.5} and game.result.winners == ()
    scores = [e.data for e in game.events_for(0) if e.type == "scores"][0]["questions"]
    assert [(q["kind"], q["right"], q["answer"], q["expected"]) for q in scores] == [
        ("pairwise", True, "No", "No"), ("membership", True, "A, C, D, F, G", "A, C, D, F, G"),
        ("group_count", False, "3", "2"),
        ("pair_count", True, *["16 pairs have good relationships, 12 pairs have bad "
                               "relationships"] * 2)]
    setup = game.view(None)["public"]["setup"]
    assert setup == game.record().setup
    assert setup["groups"] == GROUPS_TEXT
    assert setup["answers"]["1"] == "Are G and H on good terms? No"
    assert (setup["instance_id"], setup["content_hash"]) == ("fig47", example().content_hash())
    assert game.view(0)["public"]["result"]["reason"] == "3 of 4 questions right"


def test_a_timed_out_question_is_a_wrong_answer_and_the_game_goes_on():
    game = imported()
    assert game.pace(0) is None  # by default the table's turn timer applies
    assert imported(seconds_per_question=90).pace(0) == 90.0  # then the next question comes
    with pytest.raises(ConfigError, match="seconds_per_question must be between 0"):
        ENV.config(overrides={"seconds_per_question": -1})
    game.act_default(0, "time is up")
    assert not game.over and game.view(0)["public"]["question"]["number"] == 2
    assert scored(game) == [False]
    assert game.view(0)["private"]["my_answers"][0]["answer"] is None


def test_an_imported_instance_plays_and_replays_from_its_record():
    game = imported()
    play(game, "scripted:majority")
    record = GameRecord.from_json(json.loads(json.dumps(game.record().to_json())))
    again = ENV.replay(record)
    assert again.result == game.result and again.record().setup == game.record().setup
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]


def test_the_query_types_asked_and_their_order_are_settings():
    game = imported(queries=["group_count", "pairwise"])
    assert game.view(0)["public"]["question"]["kind"] == "group_count"
    game.act(0, "2")
    game.act(0, "No")
    assert game.over and scored(game) == [True, True] and game.result.reason == \
        "2 of 2 questions right"
    one = ENV.new_game(ENV.config("hard", {"queries": ["membership"]}), 3, 1)
    play(one, "scripted:solver")
    assert scored(one) == [True]
    with pytest.raises(ConfigError, match="queries: unknown query type 'friends'"):
        ENV.config(overrides={"queries": ["friends"]})
    with pytest.raises(ConfigError, match="queries: a query type is listed twice"):
        ENV.config(overrides={"queries": ["pairwise", "pairwise"]})
    with pytest.raises(ConfigError, match="queries: ask at least one"):
        ENV.config(overrides={"queries": []})


def test_a_bad_imported_instance_is_a_config_error_naming_the_field():
    record = example().to_dict()
    del record["groups"]
    with pytest.raises(ConfigError, match="instance: field 'groups': missing"):
        ENV.config(overrides={"instance": json.dumps(record)})
    record = example().to_dict()
    record["queries"][1]["answer"] = "A, C"
    record.pop("sha256")
    with pytest.raises(ConfigError, match=r"instance: field 'queries\[1\].answer'"):
        ENV.config(overrides={"instance": json.dumps(record)})
    with pytest.raises(ConfigError, match="instance: .*JSON|instance: Expecting"):
        ENV.config(overrides={"instance": '{"format": '})
    only_pairwise = {**example().to_dict(), "queries": [example().to_dict()["queries"][0]]}
    only_pairwise.pop("sha256")
    with pytest.raises(ConfigError, match="instance: it has no question of the types asked"):
        ENV.config(overrides={"instance": json.dumps(only_pairwise), "queries": ["membership"]})


def test_metrics_worked_by_hand():
    """Game 1: pairwise right, membership wrong, group count right, pair count wrong: 2 of 4,
    reward 2 x 2/4 - 1 = 0. Game 2: all four right, reward +1. Across both: pairwise 2/2,
    membership 1/2, group count 2/2, pair count 1/2; the mean over the four types
    (1 + 0.5 + 1 + 0.5) / 4 = 0.75, and 6 of 8 questions pooled, whose 95% Wilson interval is
    0.409..0.929; membership's 1 of 2 is 0.095..0.905."""
    first = imported()
    for move in ({"answer": "No"}, {"names": "A, C"}, {"groups": 2}, {"good": 12, "bad": 16}):
        first.act(0, move)
    m = ENV.game_metrics(first.record())
    seat = m["seats"]["0"]
    assert {k: seat[k] for k in ("pairwise", "membership", "group_count", "pair_count", "right",
                                 "asked", "all_right", "reward")} == \
        {"pairwise": 1, "membership": 0, "group_count": 1, "pair_count": 0, "right": 2,
         "asked": 4, "all_right": 0, "reward": 0.0}
    assert m["game"] == {"void": 0, "difficulty": "custom", "people": 8}
    second = imported()
    play(second, "scripted:solver")
    agg = ENV.aggregate_metrics([m, ENV.game_metrics(second.record())])
    overall = agg["overall"]
    assert (overall["games"], overall["counted"]) == (2, 2)
    assert [overall[k] for k in ("pairwise", "membership", "group_count", "pair_count")] == \
        [1.0, 0.5, 1.0, 0.5]
    assert overall["mean_accuracy"] == 0.75 and overall["accuracy"] == 0.75
    assert overall["accuracy_low"] == pytest.approx(0.4093, abs=1e-4)
    assert overall["accuracy_high"] == pytest.approx(0.9285, abs=1e-4)
    assert overall["membership_low"] == pytest.approx(0.0945, abs=1e-4)
    assert overall["membership_high"] == pytest.approx(0.9055, abs=1e-4)
    assert overall["all_right"] == 0.5
    assert agg["difficulties"]["custom"]["mean_accuracy"] == 0.75
    labels = ENV.metric_labels
    assert all(labels.get(k) for k in overall)
