"""User Profile Inference baselines (SocialMaze, spec §8): `scripted:heuristic`, a cue-counting
reader, and `scripted:majority`, the majority class whatever the comments.

`infer_profile` reads only the comment texts. It has its own small lexicon of words and phrases
that tend to go with an age group ("lowkey", "roommate" for 18-34; "the kids", "commute" for
35-54; "grandchildren", "retired" for 55+) or a gender ("my wife", "as a dad" for Male; "my
husband", "as a mom" for Female; "pronouns", "they/them" for Non-binary), plus two style habits
(a comment with no capital letter at all counts for 18-34; two spaces after a full stop count
for 55+). It counts every match over all comments and picks, per field, the value with the most
matches. A field with no match, or a tie, goes to the most common class: the majority value if
it is among the tied ones, else the first tied one in order of how common it is (18-34, 35-54,
55+; Female, Male, Non-binary). The same count serves both queries: for an item's comments by
many users it amounts to a vote per field, which finds the dominant combination when that
combination also leads each field, as it usually does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bots.registry import register_scripted
from bots.scripted.dataset_task import AnswerBot, items, majority

ENV = "user-profile"

MAJORITY = ("18-34", "Female")  # the most common class; the fallback
_AGE_ORDER = ("18-34", "35-54", "55+")
_GENDER_ORDER = ("Female", "Male", "Non-binary")


def _lexicon(cues: dict[str, tuple[str, ...]]) -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern matching any cue phrase as whole words (group gN for the Nth value), and
    the group names' values."""
    groups = {f"g{i}": value for i, value in enumerate(cues)}
    alternatives = "|".join(
        f"(?P<{name}>" + "|".join(re.escape(p) for p in sorted(cues[value], key=len,
                                                               reverse=True)) + ")"
        for name, value in groups.items())
    return re.compile(rf"(?<![\w/-])(?:{alternatives})(?![\w/-])"), groups


_AGE_CUES: dict[str, tuple[str, ...]] = {
    "18-34": (
        "lol", "ngl", "lowkey", "slaps", "fr", "tbh", "no cap", "vibes", "roommate",
        "group chat", "my feed", "tiktok", "student loans", "student loan", "finals", "dorm",
        "internship", "first paycheck", "first real job", "studio apartment", "situationship",
        "main character", "grad school", "bestie",
    ),
    "35-54": (
        "kids", "school run", "school runs", "school gate", "commute", "teenager", "mortgage",
        "carpool", "soccer practice", "lunch break", "meetings", "the office", "lunchboxes",
        "lunchbox", "my eldest", "twenty years ago", "family movie night", "parents",
        "deadlines", "same company",
    ),
    "55+": (
        "grandchildren", "grandkids", "retired", "retirement", "arthritis", "pension",
        "reading glasses", "old eyes", "my doctor", "seventies", "bridge club", "forty years",
        "when i was young", "my knees", "gadgets",
    ),
}

_GENDER_CUES: dict[str, tuple[str, ...]] = {
    "Male": (
        "my wife", "dad", "the guys", "my girlfriend", "my buddies", "as a guy",
        "as a husband", "father",
    ),
    "Female": (
        "my husband", "mom", "moms", "my girlfriends", "my boyfriend", "as a woman",
        "women", "as a wife", "mother",
    ),
    "Non-binary": (
        "non-binary", "nonbinary", "enby", "pronouns", "they/them", "queer", "gender options",
        "gendered", "he or a she",
    ),
}

_AGE = _lexicon(_AGE_CUES)
_GENDER = _lexicon(_GENDER_CUES)
_DOUBLE_SPACE = re.compile(r"[.!?]  \S")


def _count(texts: Sequence[str], lexicon: tuple[re.Pattern[str], dict[str, str]]
           ) -> dict[str, int]:
    pattern, groups = lexicon
    counts = dict.fromkeys(groups.values(), 0)
    for text in texts:
        for match in pattern.finditer(text.lower()):
            counts[groups[match.lastgroup]] += 1
    return counts


def _pick(counts: dict[str, int], majority: str, order: Sequence[str]) -> str:
    best = max(counts.values())
    if best == 0:
        return majority
    tied = [v for v in order if counts.get(v, 0) == best]
    return majority if majority in tied else tied[0]


def infer_profile(texts: Sequence[str]) -> tuple[str, str]:
    """The (age group, gender) that the cues in `texts` support most (see the module doc)."""
    ages = _count(texts, _AGE)
    for text in texts:
        if any(c.isalpha() for c in text) and not any(c.isupper() for c in text):
            ages["18-34"] += 1
        if _DOUBLE_SPACE.search(text):
            ages["55+"] += 1
    genders = _count(texts, _GENDER)
    return _pick(ages, MAJORITY[0], _AGE_ORDER), _pick(genders, MAJORITY[1], _GENDER_ORDER)




def _heuristic(public: Mapping[str, Any]) -> dict[str, str]:
    age, gender = infer_profile([text for _, text in items(public)])
    return {"age_group": age, "gender": gender}


register_scripted(ENV, "heuristic", "counts age and gender cues in the comments (its own "
                                    "lexicon), the majority class where none")(
    lambda seed: AnswerBot(_heuristic))
register_scripted(ENV, "majority", f"always {MAJORITY[0]} {MAJORITY[1]}, the most common "
                                   f"profile of our generator, blind to the comments")(
    majority({"age_group": MAJORITY[0], "gender": MAJORITY[1]}))
