"""What an owner's LLM calls cost and how they failed, counted as they happen: the spend a
campaign's `--budget` is held to and the errors its progress line shows by kind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

# The kinds a progress line names, in its order. A failed attempt is a rate limit (HTTP 429),
# a timeout, or another error; a completed call the model ended with a refusal is a refusal;
# an answer the game could not read (asked again, or sent on to the rules as invalid) is
# unparseable.
ERROR_KINDS = ("rate_limit", "timeout", "refusal", "unparseable", "other")
REFUSALS = frozenset({"content_filter", "refusal"})  # OpenAI's and Anthropic's finish reasons


class Meter:
    def __init__(self) -> None:
        self.calls = 0  # completed calls
        self.cost = 0.0  # USD, by the price table (bots/llm/prices.py)
        self.errors: Counter[str] = Counter()

    def completed(self, cost: float, finish_reason: str | None) -> None:
        self.calls += 1
        self.cost += cost
        if finish_reason in REFUSALS:
            self.errors["refusal"] += 1

    def failed(self, failure: Mapping[str, Any]) -> None:
        """A failed attempt, as the retry layer records it (bots/llm/retry.py)."""
        if failure.get("status") == 429:
            self.errors["rate_limit"] += 1
        elif "timed out" in str(failure.get("error", "")):
            self.errors["timeout"] += 1
        else:
            self.errors["other"] += 1

    def unparseable(self) -> None:
        self.errors["unparseable"] += 1

    def snapshot(self) -> list[float]:
        """[cost, calls, *errors in ERROR_KINDS order]: what crosses a process (`--workers`)."""
        return [self.cost, float(self.calls), *(float(self.errors[k]) for k in ERROR_KINDS)]

    def add(self, snapshot: list[float]) -> None:
        """Fold in another process's snapshot."""
        self.cost += snapshot[0]
        self.calls += int(snapshot[1])
        for kind, n in zip(ERROR_KINDS, snapshot[2:], strict=True):
            self.errors[kind] += int(n)


def describe_errors(errors: Mapping[str, int]) -> str:
    """"2 rate limits, 1 timeout" ("no errors" when none), in ERROR_KINDS order."""
    words = {"rate_limit": ("rate limit", "rate limits"), "timeout": ("timeout", "timeouts"),
             "refusal": ("refusal", "refusals"),
             "unparseable": ("unparseable answer", "unparseable answers"),
             "other": ("other error", "other errors")}
    parts = [f"{errors[k]} {words[k][errors[k] != 1]}" for k in ERROR_KINDS if errors.get(k)]
    return ", ".join(parts) or "no errors"
