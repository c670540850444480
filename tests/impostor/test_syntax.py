"""Reading descriptions and ballots (spec impostor §3.1, §6): sentences, cutting, redaction,
the whole-word leak check with simple inflections, and ballots from fenced JSON, loose targets,
booleans and confidences."""

from __future__ import annotations

import pytest

from engine.impostor.syntax import (
    BallotError,
    cut,
    first_object,
    first_sentences,
    parse_ballot,
    redact,
    sentences,
)
from engine.wording import inflections, says


@pytest.mark.parametrize(("text", "count"), [
    ("It barks.", 1), ("It barks. It fetches!", 2), ("It barks. It fetches! Is it loyal?", 3),
    ("It holds water, e.g. at a party.", 1), ("Made in the U.S.A. or anywhere.", 1),
    ("No full stop at all", 1), ("...", 0), ("", 0), ('He said "Sit." Then it sat.', 2),
])
def test_sentences_are_counted_as_a_reader_would(text, count):
    assert len(sentences(text)) == count


def test_cutting_keeps_whole_words_and_the_first_two_sentences():
    assert first_sentences("One. Two. Three.", 2) == "One. Two."
    assert cut("alpha beta gamma", 12) == "alpha beta"
    assert cut("short", 12) == "short"


def test_redaction_replaces_the_pieces_that_say_the_word():
    assert redact("A dog, or dogs, bark.", "dog") == "A [redacted] or [redacted] bark."
    assert redact("It is a d o g.", "dog") is None  # disguised across pieces


@pytest.mark.parametrize(("text", "word"), [
    ("Dogs bark", "dog"), ("She RAN home", "run"), ("it was running", "run"),
    ("we began early", "begin"), ("happiest day", "happy"), ("stopped short", "stop"),
    ("making bread", "make"), ("lying down", "lie"), ("two knives", "knife"),
    ("a bigger one", "big"), ("the d-o-g", "dog"), ("a d o g", "dog"), ("an ｃａｔ", "cat"),
    ("a саt", "cat"),  # Cyrillic с and а
])
def test_whole_word_leaks_with_inflections_and_disguises(text, word):
    assert says(text, word, whole_words=True)


@pytest.mark.parametrize(("text", "word"), [
    ("a category of pets", "cat"), ("a hotdog stand", "dog"), ("the startled bird", "star"),
    ("important giants", "ant"), ("a big lass", "glass"), ("dogma", "dog"),
])
def test_the_word_inside_another_word_is_no_whole_word_leak(text, word):
    assert says(text, word, whole_words=True) is None


def test_inflections_list_the_simple_forms():
    assert {"runs", "running", "ran", "runner"} <= set(inflections("run"))
    assert {"happier", "happily", "happiness"} <= set(inflections("happy"))


# -- ballots -------------------------------------------------------------------------------
FULL = ('{"suspected_impostor_id": "Player 3", "confidence": 0.8, "reasoning": "vague", '
        '"self_declaration": false, "word_guess": null}')


@pytest.mark.parametrize("text", [
    FULL, f"```json\n{FULL}\n```", f"Here is my vote: {FULL} Thanks!",
    FULL.replace('"Player 3"', "3"), FULL.replace('"Player 3"', '"3"'),
    FULL.replace('"Player 3"', '"player_3"'), FULL.replace('"Player 3"', '"P3"'),
    FULL.replace('"Player 3"', "3.0"),
])
def test_a_ballot_is_found_in_fences_and_prose_with_any_spelling_of_the_target(text):
    b = parse_ballot(text)
    assert b.target == 3 and b.confidence == 0.8 and not b.self_declaration
    assert b.word_guess is None and b.reasoning == "vague"


def test_the_first_balanced_object_wins_and_braces_in_strings_are_ignored():
    text = 'a {"suspected_impostor_id": 2, "reasoning": "a } brace"} then {"x": 1}'
    assert first_object(text) == '{"suspected_impostor_id": 2, "reasoning": "a } brace"}'
    assert parse_ballot(text).target == 2


@pytest.mark.parametrize(("value", "expected"), [
    (True, True), ("true", True), ("yes", True), (1, True), ("False", False), ("no", False),
    (0, False), (None, False),
])
def test_self_declaration_is_coerced_to_a_boolean(value, expected):
    assert parse_ballot({"suspected_impostor_id": 1,
                         "self_declaration": value}).self_declaration is expected


@pytest.mark.parametrize(("value", "expected"), [
    (0.3, 0.3), (1.7, 1.0), (-2, 0.0), ("0.25", 0.25), ("high", None), (None, None),
    (float("nan"), None),
])
def test_confidence_is_clamped_to_zero_one(value, expected):
    assert parse_ballot({"suspected_impostor_id": 1, "confidence": value}).confidence == expected


def test_the_word_guess_is_lowercased_and_stripped():
    b = parse_ballot('{"suspected_impostor_id": 4, "self_declaration": "true", '
                     '"word_guess": "  Dog "}')
    assert b.self_declaration and b.word_guess == "dog"


@pytest.mark.parametrize(("text", "why"), [
    ("Player 3", "no JSON object"), ('{"suspected_impostor_id": 3', "no JSON object"),
    ("{'suspected_impostor_id': 3}", "could not be read"), ("{}", "missing"),
    ('{"suspected_impostor_id": "the tall one"}', "must name a player"),
    ('{"suspected_impostor_id": 2, "self_declaration": "maybe"}', "true or false"),
])
def test_an_unreadable_ballot_says_why(text, why):
    with pytest.raises(BallotError, match=why):
        parse_ballot(text)
