"""Free text a seat says to the table (IPD chat, Secret Mafia speeches and notes), cleaned one
way for every env: every whitespace character (str.isspace: tabs, newlines, the information
separators \\x1c-\\x1f, NEL, line and paragraph separators...) becomes a space; control
characters that are not whitespace, lone surrogates and the bidirectional controls that could
make a line display differently from what was sent are dropped; runs of spaces collapse to one
and the ends are trimmed. Then the text is cut to the limit, and a space the cut leaves at the
end is trimmed too. Long text is read in pieces and reading stops once the limit is filled, so
megabytes cost one pass at most and text after a long blank start is never lost.
"""

from __future__ import annotations

import re

# Dropped: C0 controls but whitespace, DEL, C1 controls but NEL (which str.isspace counts as
# whitespace), lone surrogates (not text; they cannot be encoded), and the bidi controls.
DROP = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff"
                  "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SPACE = re.compile(r"\s+")  # for str patterns `\s` is exactly str.isspace (tested)
CHAT_PIECE = 8192  # long text is cleaned this many raw characters at a time


def clean_chat(text: str, max_chars: int) -> str:
    """`text` cleaned and cut to `max_chars` (the rule in the module's docstring)."""
    # Fast path: most lines are already clean (isprintable is False for every dropped character
    # and for any whitespace but the plain space).
    if len(text) <= max_chars and text.isprintable() and "  " not in text \
            and text.strip(" ") == text:
        return text
    kept = ""  # the clean text so far: collapsed, trimmed at the start
    for start in range(0, len(text), CHAT_PIECE):
        piece = SPACE.sub(" ", DROP.sub("", text[start:start + CHAT_PIECE]))
        if piece[:1] == " " and (not kept or kept[-1] == " "):
            piece = piece[1:]  # a run of spaces across pieces, or spaces at the start
        kept += piece
        if len(kept) > max_chars:
            break
    return kept[:max_chars].rstrip(" ")
