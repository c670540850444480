"""Reading and scoring replies: last answer wins, any casing, bold, Unknown and garbage."""

import pytest

from engine.hidden_role.scoring import (
    RoundScore,
    accuracy,
    read_reply,
    score_reply,
    score_rounds,
)

ANSWER = (2, "Lunatic")


@pytest.mark.parametrize(("text", "criminal", "role"), [
    ("Final Judgment:\nFinal Criminal Is Player 2.\nMy Role Is Lunatic.", 2, "Lunatic"),
    ("final criminal is player 2. my role is lunatic", 2, "Lunatic"),
    ("FINAL CRIMINAL IS PLAYER 2. MY ROLE IS A LUNATIC.", 2, "Lunatic"),
    ("**Final Criminal Is Player 2.** **My Role Is Lunatic.**", 2, "Lunatic"),
    ("Final Criminal Is **Player 2**.\nMy Role Is **Lunatic**", 2, "Lunatic"),
    ("Final Criminal Is Player [2].\nMy Role Is [Lunatic].", 2, "Lunatic"),
    ("My role is: the Rumourmonger. Final criminal is: Player #4", 4, "Rumormonger"),
    ("At first I thought Final Criminal Is Player 5 and My Role Is Criminal, but Player 4 "
     "cleared me.\nFinal Criminal Is Player 2.\nMy Role Is Lunatic.", 2, "Lunatic"),
    ("Final Criminal Is Player 2. My Role Is Unknown.", 2, "Unknown"),
    ("Final Criminal Is Unknown. My Role Is Lunatic.", None, "Lunatic"),
    ("Final Criminal Is Player 3 — no wait. Final Criminal Is Unknown.", None, None),
    ("I think player 2 is the criminal and I'm the lunatic.", None, None),
    ("My Role Is Wizard. Final Criminal Is Player two.", None, None),
    ("", None, None),
    (None, None, None),
])
def test_read_reply(text, criminal, role):
    reply = read_reply(text)
    assert (reply.criminal, reply.role) == (criminal, role)


@pytest.mark.parametrize(("text", "expected"), [
    ("Final Criminal Is Player 2.\nMy Role Is Lunatic.", RoundScore(True, True, True)),
    ("Final Criminal Is Player 2.\nMy Role Is Criminal.", RoundScore(True, False, False)),
    ("Final Criminal Is Player 3.\nMy Role Is Lunatic.", RoundScore(False, True, False)),
    ("Final Criminal Is Player 2.\nMy Role Is Unknown.", RoundScore(True, False, False)),
    ("Final Criminal Is Player 22.\nMy Role Is Lunatic.", RoundScore(False, True, False)),
    ("\x00\x01 }{ ] garbage", RoundScore(False, False, False)),
    (None, RoundScore(False, False, False)),
])
def test_score_reply(text, expected):
    assert score_reply(text, ANSWER) == expected


def test_unknown_is_wrong_even_when_the_data_says_unknown():
    assert not score_reply("Final Criminal Is Player 2. My Role Is Unknown.",
                           (2, "Unknown")).self_role


def test_each_round_is_scored_against_the_final_answer_and_averaged():
    replies = ["Final Criminal Is Player 4. My Role Is Criminal.",
               "Final Criminal Is Player 2. My Role Is Criminal.",
               "Final Criminal Is Player 2. My Role Is Lunatic."]
    scores = score_rounds(replies, ANSWER)
    assert [s.both for s in scores] == [False, False, True]
    assert accuracy(scores) == {"crim": 2 / 3, "self": 1 / 3, "both": 1 / 3}
    assert accuracy([]) == {"crim": 0.0, "self": 0.0, "both": 0.0}
