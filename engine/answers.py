"""Reading a written answer the way the SocialMaze paper reads a model's (spec socialmaze §2):
case-insensitive, the LAST match wins (a reply that reasons first and answers last is read by
its answer, not by a name it mentioned on the way), markdown bold around the answer or its
label is ignored. People's typed answers go through the same reader, so both are scored alike.
"""

from __future__ import annotations

import re
from collections import deque

_BOLD = re.compile(r"\*\*|__")


def last_match(pattern: str | re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last non-overlapping match of `pattern` (compiled case-insensitive when given as a
    string) in `text` with bold markers removed; None when there is none."""
    if isinstance(pattern, str):
        pattern = re.compile(pattern, re.IGNORECASE)
    last = deque(pattern.finditer(_BOLD.sub("", text or "")), maxlen=1)
    return last[0] if last else None
