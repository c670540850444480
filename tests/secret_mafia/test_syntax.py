"""Reading Secret Mafia answers: targets as the reference reads them (first line holding a
token, its last token), bare numbers, structured answers, the Mafia's note, the pass, speeches
cleaned and cut, and hostile input kept cheap."""

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.secret_mafia.syntax import (
    PASS,
    AnswerError,
    Target,
    parse_speech,
    parse_target,
    read_target,
)


@pytest.mark.parametrize("text,seat", [
    ("[3]", 3), ("[Player 3]", 3), ("[player3]", 3), ("[ PLAYER  3 ]", 3), ("[ 4 ]", 4),
    ("I vote [2] — no, [4]", 4),  # the last token on the line
    ("thinking about [1]\nfinal: [5]", 1),  # the first line holding a token
    ("no token here\nmy pick: [Player 0]", 0),
    ("3", 3), ("Player 2", 2), ("  player 5. ", 5), ("[٣]", 3),
])
def test_targets_are_read_like_the_reference(text, seat):
    assert read_target(text, 100).seat == seat


@pytest.mark.parametrize("text", ["", "   ", "[x]", "I vote for Player 3", "[Z99 Q-1]",
                                  "[" + "9" * 400 + "]", "3 4", "]]]][[["])
def test_unreadable_answers_are_format_errors(text):
    with pytest.raises(AnswerError, match="square brackets"):
        read_target(text, 100)


def test_a_mafia_vote_keeps_the_rest_of_the_answer_as_a_note():
    assert read_target("He accused us. [4] Agreed?", 100) == Target(4, "He accused us. Agreed?")
    assert read_target("[4]", 100) == Target(4, "")
    assert read_target("x" * 50 + " [1]", 10).note == "x" * 10


def test_structured_answers():
    assert parse_target({"choice": "3"}, 50) == Target(3)
    assert parse_target({"target": 2, "note": "  quietly  "}, 50) == Target(2, "quietly")
    assert parse_target({"target": "Player 1"}, 50) == Target(1)
    assert parse_target({"text": "ok [5]"}, 50).seat == 5
    assert parse_target({"pass": True}, 50) is PASS
    for bad in ({}, {"choice": True}, {"choice": "three"}, {"pass": 1}, {"target": None}):
        with pytest.raises(AnswerError):
            parse_target(bad, 50)


def test_speeches_are_cleaned_and_cut_never_refused():
    assert parse_speech("  hello\n\tthere  ", 100).text == "hello there"
    assert parse_speech("a\x00b\u202ec", 100).text == "abc"
    assert parse_speech("x" * 600, 500).text == "x" * 500
    assert parse_speech(" " * 5000 + "late words", 100).text == "late words"
    assert parse_speech({"text": "hi"}, 100).text == "hi"
    assert parse_speech({"choice": "3"}, 100).text == ""
    assert parse_speech({"text": 3}, 100).text == ""


@given(st.text(max_size=300))
def test_any_text_reads_or_fails_cleanly(text):
    try:
        target = read_target(text, 50)
    except AnswerError:
        return
    assert isinstance(target.seat, int) and len(target.note) <= 50


def test_huge_answers_stay_cheap():
    started = time.perf_counter()
    for text in ("[" * 1_000_000, "[player " * 200_000, "\n" * 500_000 + "[3]"):
        try:
            read_target(text, 500)
        except AnswerError:
            pass
    parse_speech(" \x00" * 500_000, 500)
    assert time.perf_counter() - started < 2.0
