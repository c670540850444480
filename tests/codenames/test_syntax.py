"""Codenames answers: clues `[word n]`, guesses `[word]`, `[pass]`, structured forms, and what
unreadable or hostile text gives (a ParseError, never an exception)."""

import pytest

from engine.codenames.actions import PASS, Clue, Guess
from engine.codenames.syntax import ParseError, clue_text, parse_clue, parse_guess


@pytest.mark.parametrize("text,clue", [
    ("[ocean 2]", Clue("ocean", 2)),
    ("[Ocean 2]", Clue("ocean", 2)),
    ("[ocean   0]", Clue("ocean", 0)),
    ("[ocean 0002]", Clue("ocean", 2)),
    ("My clue is [ocean 3].", Clue("ocean", 3)),
    ("[thinking] then [ocean 2]", Clue("ocean", 2)),  # the first group that reads as a clue
    ("[ocean 2] [forest 3]", Clue("ocean", 2)),
    ("ocean 2", Clue("ocean", 2)),  # no brackets: a short answer is read whole
    ("[ocean 12]", Clue("ocean", 12)),  # the range is a rule, judged by the game
])
def test_clues_are_read(text, clue):
    assert parse_clue(text) == clue


@pytest.mark.parametrize("text,needle", [
    ("[ocean]", "needs a number"),
    ("[ ocean 0 ]", "no spaces just inside the brackets"),  # the reference skips it too
    ("[deep sea 2]", "one word"),
    ("[sea-horse 1]", "one word"),
    ("[café 1]", "one word"),
    ("[ocean -1]", "one word"),
    ("I would say ocean, two words", "one word"),
    ("", "no clue found"),
    ("x" * 5000, "no clue found"),
    ("[" + "9" * 400 + "]", "one word"),
])
def test_unreadable_clues_say_why(text, needle):
    parsed = parse_clue(text)
    assert isinstance(parsed, ParseError) and needle in parsed.message


def test_a_huge_number_is_a_rule_error_not_a_crash():
    parsed = parse_clue("[ocean 99999999999999999999]")
    assert isinstance(parsed, ParseError) and parsed.kind == "rule"


def test_pass_and_structured_clues():
    assert parse_clue("[pass]") is PASS and parse_clue({"pass": True}) is PASS
    assert parse_clue({"word": " Ocean ", "number": 2}) == Clue("ocean", 2)
    assert parse_clue({"word": "ocean", "number": "2"}) == Clue("ocean", 2)
    assert parse_clue({"text": "[ocean 1]"}) == Clue("ocean", 1)
    for bad in ({"word": "ocean"}, {"word": "ocean", "number": True}, {"word": "two words",
                "number": 1}, {"word": 3, "number": 1}, {"number": 1}, {}):
        assert isinstance(parse_clue(bad), ParseError), bad


@pytest.mark.parametrize("text,expected", [
    ("[whale]", Guess("whale")), ("[Whale]", Guess("whale")), ("whale", Guess("whale")),
    ("I'll go with [whale].", Guess("whale")), ("[pass]", PASS), ("[stop]", PASS),
    ("[PASS]", PASS), ({"choice": "whale"}, Guess("whale")), ({"choice": "pass"}, PASS),
    ({"text": "[whale]"}, Guess("whale")),
])
def test_guesses_are_read(text, expected):
    assert parse_guess(text) == expected


@pytest.mark.parametrize("text", ["[two words]", "", "[whale 2]", "x" * 5000, {"choice": 3}, {}])
def test_unreadable_guesses(text):
    assert isinstance(parse_guess(text), ParseError)


def test_canonical_clue_text():
    assert clue_text(Clue("ocean", 2)) == "[ocean 2]"
