"""Scoring written answers the way the SocialMaze paper scores Hidden Role Deduction.

After every round the player answers "Final Criminal Is Player N." and "My Role Is R" (R may be
"Unknown"). Both are read with the shared `last_match` (any casing, markdown bold ignored, the
last statement of each wins, prose around them allowed). A round is scored three ways — Crim (the
criminal), Self (Player 1's actual role), Both — always against the puzzle's answer, also in early
rounds. Nothing here raises on a bad reply: an unreadable or "Unknown" part is simply wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.answers import last_match
from engine.hidden_role.instance import UNKNOWN
from engine.hidden_role.roles import parse_role

_CRIMINAL = re.compile(r"final\s+criminal\s+is\s*:?\s*(?:player\s*)?(?:#|\[)?\s*(\d+|unknown)\b",
                       re.IGNORECASE)
_ROLE = re.compile(r"my\s+role\s+is\s*:?\s*(?:an?\s+|the\s+)?\[?\s*"
                   r"(investigator|criminal|rumou?rmonger|lunatic|unknown)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reply:
    """What a reply says: the criminal's seat and Player 1's role (a role name or "Unknown");
    None where the reply does not say it in the expected form."""

    criminal: int | None
    role: str | None


@dataclass(frozen=True)
class RoundScore:
    crim: bool
    self_role: bool  # the paper's "Self"
    both: bool


def read_reply(text: str | None) -> Reply:
    """The answer a reply gives, read like the paper reads a model's."""
    text = text if isinstance(text, str) else ""
    found = last_match(_CRIMINAL, text)
    criminal = int(found.group(1)) if found and found.group(1).isdigit() else None
    found = last_match(_ROLE, text)
    role = None
    if found:
        word = found.group(1)
        role = UNKNOWN if word.lower() == "unknown" else parse_role(word).value
    return Reply(criminal, role)


def score_reply(text: str | None, answer: tuple[int, str]) -> RoundScore:
    """Crim / Self / Both of one reply against (criminal seat, Player 1's actual role). "Unknown"
    is never right, even where imported data gives "Unknown" as the answer."""
    reply = read_reply(text)
    crim = reply.criminal is not None and reply.criminal == answer[0]
    self_role = reply.role not in (None, UNKNOWN) and reply.role == answer[1]
    return RoundScore(crim, self_role, crim and self_role)


def score_rounds(replies: Sequence[str | None], answer: tuple[int, str]) -> list[RoundScore]:
    """One score per round's reply (a missing reply, None, is wrong)."""
    return [score_reply(text, answer) for text in replies]


def accuracy(scores: Iterable[RoundScore]) -> dict[str, float]:
    """Crim, Self and Both accuracy over scores (of one round across games); 0.0 for none."""
    scores = list(scores)
    total = len(scores) or 1
    return {"crim": sum(s.crim for s in scores) / total,
            "self": sum(s.self_role for s in scores) / total,
            "both": sum(s.both for s in scores) / total}
