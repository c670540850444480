"""Fit a turn's prompt into the model's context: rules and role (system), then — when history
had to go — a marker and a summary of what was cut, then the recent history and current state,
then how to answer.

Sizes are estimated at 4 characters per token (no tokenizer dependency); `context_tokens` in the
settings is the budget for system + user text, leaving the rest of the window for the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
                 budget_tokens: int, memory: Mapping[str, Any] | None = None,
                 start: int | None = None) -> Prompt:
    """`memory` is the bot's memory for its seat: the builder may show notes it keeps there.
    `start`: the history entries kept at the seat's previous decision, where the search for
    what fits now begins (it ends where a search from nothing would)."""
    system = builder.system(view, legal)
    instruction = _with_notes(builder.instruction(view, legal),
                              builder.notes(view, legal, memory or {}))
    total = builder.history_length(view)
    room = budget_tokens - estimate_tokens(system)
    whole = _compose(builder, view, total, total, instruction)
    if estimate_tokens(whole) <= room:  # the usual case: one rendering per decision
        return Prompt(system, whole, total, 0)
    rendered: dict[int, str] = {}

    def fits(keep: int) -> bool:
        if keep not in rendered:
            rendered[keep] = _compose(builder, view, keep, total, instruction)
        return estimate_tokens(rendered[keep]) <= room

    keep = most_that_fit(fits, total - 1, start)
    if fits(keep):
        return Prompt(system, rendered[keep], total, total - keep)
    user, dropped = _cut_lines(rendered[keep], max(room, 1) * CHARS_PER_TOKEN)
    return Prompt(system, user, total, total - keep, dropped)


def most_that_fit(fits: Callable[[int], bool], top: int, start: int | None = None) -> int:
    """The most recent history entries, at most `top`, that fit (0 when none does); the size
    grows with what is kept. From `start` (where the last decision's cut fell; the history
    has grown by an entry or two since) it gallops up or down to the answer, so that a seat
    whose history is cut every decision renders its prompt two or three times, not the
    log2(history) + 2 times of a search from nothing."""
    lo, hi = 0, top
    if start is not None and top >= 0:
        start, step = min(max(start, 0), top), 1
        if fits(start):
            lo = start
            while lo + step <= hi:
                if not fits(lo + step):
                    hi = lo + step - 1
                    break
                lo, step = lo + step, step * 2
        else:
            hi = start - 1
            while start - step > 0:
                if fits(start - step):
                    lo = start - step
                    break
                hi, step = start - step - 1, step * 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    return max(lo, 0)


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
