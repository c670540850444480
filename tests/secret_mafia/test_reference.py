"""Secret Mafia against the reference, TextArena 0.7.4 (issue 21): where a line ends in a
target answer, and speech cleaning. Plain tests of our behaviour first; the differential test
feeds the same answers to the reference's parser and is skipped when textarena (the `bench`
extra) is not installed."""

from __future__ import annotations

import pytest

from engine.secret_mafia.syntax import parse_speech, read_target

# str.splitlines ends a line at each of these; the reference's `.` (everything but \n) does not.
NOT_LINE_ENDS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("separator", NOT_LINE_ENDS)
def test_only_a_newline_ends_a_line_of_a_target_answer(separator):
    assert read_target(f"[3]{separator}[5]", 100).seat == 5  # one line: its last token
    assert read_target("[3]\n[5]", 100).seat == 3  # two lines: the first holding a token


@pytest.mark.parametrize("space", ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\t"])
def test_whitespace_in_a_speech_becomes_a_space(space):
    assert parse_speech(f"t{space}l", 100).text == "t l"


def test_the_cut_trims_the_space_it_leaves_at_the_end():
    assert parse_speech("a" * 499 + " b", 500).text == "a" * 499
    assert parse_speech("a" * 499 + "\x85b", 500).text == "a" * 499


@pytest.mark.parametrize("text", [
    "[3]\r[5]", "[3]\x85[5]", "[3]\u2028[5]", "[3]\x1e[5]", "[3]\n[5]", "x\r\n[2]\r[4]",
    "[Player 1]\u2029maybe [player 2]", "I vote [4]\x0bno, [1]\n[0]",
])
def test_target_lines_match_the_reference(text):
    pytest.importorskip("textarena")
    from textarena.envs.SecretMafia.env import VoteHandler
    assert read_target(text, 100).seat == VoteHandler.parse(text)
