"""Fit a turn's prompt into the model's context: rules and role (system), then — when history
had to go — a marker and a summary of what was cut, then the recent history and current state,
then how to answer.

Sizes are estimated at 4 characters per token (no tokenizer dependency); `context_tokens` in the
settings is the budget for system + user text, leaving the rest of the window for the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bots.prompts.base import PromptBuilder

CHARS_PER_TOKEN = 4
CUT_MARKER = "[History cut to fit the context window"


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 1


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str
    history: int  # cuttable history entries in the view
    cut: int  # entries cut (summarised) to fit
    lines_cut: int = 0  # lines dropped from the middle of the rendering as a last resort


def _marker(cut: int, total: int, unit: str, summary: str) -> str:
    head = f"{CUT_MARKER}: the first {cut} of {total} {unit} are summarised here; the " \
           f"{total - cut} most recent follow in full.]"
    return f"{head}\n{summary}".rstrip()


def _compose(builder: PromptBuilder, view: Mapping[str, Any], keep: int, total: int,
             instruction: str) -> str:
    body = builder.render(view, keep)
    if keep < total:
        cut = total - keep
        body = _marker(cut, total, builder.history_unit, builder.summarize(view, cut)) + \
            "\n\n" + body
    return f"{body}\n\n{instruction}"


def _with_notes(instruction: str, notes: str) -> str:
    """The bot's own notes go just before how to answer (they are never cut)."""
    return f"{notes}\n\n{instruction}" if notes else instruction


def build_prompt(builder: PromptBuilder, view: Mapping[str, Any], legal: Mapping[str, Any],
                 budget_tokens: int, memory: Mapping[str, Any] | None = None) -> Prompt:
    """`memory` is the bot's memory for its seat: the builder may show notes it keeps there."""
    system = builder.system(view, legal)
    instruction = _with_notes(builder.instruction(view, legal),
                              builder.notes(view, legal, memory or {}))
    total = builder.history_length(view)
    room = budget_tokens - estimate_tokens(system)

    def fits(keep: int) -> bool:
        return estimate_tokens(_compose(builder, view, keep, total, instruction)) <= room

    whole = _compose(builder, view, total, total, instruction)
    if estimate_tokens(whole) <= room:  # the usual case: one rendering per decision
        return Prompt(system, whole, total, 0)
    # The size grows with `keep`: binary-search the most recent entries that still fit.
    lo, hi = 0, total
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    user = _compose(builder, view, lo, total, instruction)
    if fits(lo):
        return Prompt(system, user, total, total - lo)
    user, dropped = _cut_lines(user, max(room, 1) * CHARS_PER_TOKEN)
    return Prompt(system, user, total, total - lo, dropped)


def _cut_lines(text: str, max_chars: int) -> tuple[str, int]:
    """Last resort for renderings with no cuttable history: drop lines from the middle (the
    head holds the situation, the tail the current state and the question)."""
    lines = text.split("\n")
    head, tail = lines[:8], lines[8:]
    marker = f"{CUT_MARKER}: {{n}} lines were left out here.]"
    size = sum(len(line) + 1 for line in head) + len(marker) + 8
    kept: list[str] = []
    for line in reversed(tail):
        if size + len(line) + 1 > max_chars:
            break
        kept.append(line)
        size += len(line) + 1
    dropped = len(tail) - len(kept)
    if dropped == 0:
        return text, 0
    return "\n".join([*head, marker.format(n=dropped), *reversed(kept)]), dropped
