"""An LLM judge for a paper's evaluations that need one (AmongAgents §14.1 and §14.4): it scores
an answer 0-10 against a category's description with a fixed rubric, or labels a text with the
categories that fit it. The wording is ours.

The judge model answers in JSON. A reply with no readable score (or no known label) is asked
again once with the reason; then the item stays unscored (`score` None) and is counted as such:
a judge never makes a number up. Calls go through the same client as the bots (rate limits,
retries, price), so a judged run's cost is known; sampling is greedy unless the spec says
otherwise."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.base import Decision
from bots.llm.client import ModelClient
from bots.llm.providers import Provider, make_provider
from bots.llm.retry import Sleep
from bots.llm.spec import KeyBindings, parse_spec

RUBRIC = ("0-3: the answer misreads the game or the question; 4-6: a basic answer, right but "
          "thin; 7-9: a good answer, specific and consistent with the situation; 10: a complete "
          "answer that leaves nothing out.")
SCORE_SYSTEM = ("You grade answers given by a player of a social deduction game. You see the "
                "category being graded, what it asks of the player, the situation the player "
                "was in, the question and the answer. Grade only that category, on this scale: "
                f"{RUBRIC} Reply with JSON only: {{\"score\": <0-10>, \"reason\": \"<one "
                "sentence>\"}}.")
LABEL_SYSTEM = ("You annotate what players say in a social deduction game. For the text you are "
                "given, pick every category that fits it (one or more) from the list, by name. "
                "Reply with JSON only: {\"labels\": [\"<name>\", ...]}.")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_OBJECT = re.compile(r"\{.*\}", re.S)


@dataclass
class Judged:
    """What the judge said of one item, and what asking cost."""

    score: int | None = None  # 0..10; None: unscored (the judge's reply was unreadable)
    labels: tuple[str, ...] = ()
    reason: str = ""
    tally: Decision = field(default_factory=lambda: Decision(action=""))

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "labels": list(self.labels), "reason": self.reason,
                "usage": self.tally.usage(), "transcript": self.tally.transcript}


class Judge:
    def __init__(self, spec: str, *, environ: Mapping[str, str] | None = None,
                 keys: KeyBindings | None = None, provider: Provider | None = None,
                 sleep: Sleep = asyncio.sleep) -> None:
        """`spec`: an LLM bot spec (e.g. openai:gpt-4o?temperature=0); ValueError when it is
        malformed or its key is missing."""
        parsed = parse_spec(spec, environ)
        key = parsed.api_key(environ, keys)
        if key is None:
            raise ValueError(f"the judge {parsed.identity} needs an API key: set "
                             f"{parsed.key_var}")
        self.identity = parsed.identity
        self.settings = parsed.settings
        self.model = ModelClient(parsed, provider or make_provider(parsed, key), 0,
                                 environ=environ, sleep=sleep)

    async def aclose(self) -> None:
        await self.model.aclose()

    def _params(self) -> dict[str, Any]:
        params = self.settings.for_phase("judge")
        if params.get("temperature") is None:
            params["temperature"] = 0.0
        return params

    async def score(self, category: str, description: str, situation: str, question: str,
                    answer: str) -> Judged:
        """`answer` graded 0-10 for `category` (what it asks: `description`)."""
        prompt = (f"Category: {category} — {description}\n\nThe situation:\n{situation}\n\n"
                  f"The question: {question}\n\nThe answer: {answer}")
        judged = Judged()
        reply = await self._ask(SCORE_SYSTEM, prompt, judged, _read_score)
        if reply is not None:
            judged.score, judged.reason = reply
        return judged

    async def label(self, categories: Mapping[str, str], text: str, situation: str = ""
                    ) -> Judged:
        """The names of `categories` ({name: what it covers}) that fit `text`."""
        listed = "\n".join(f"- {name}: {what}" for name, what in categories.items())
        prompt = (f"Categories:\n{listed}\n\n" + (f"The situation: {situation}\n\n"
                                                   if situation else "") + f"The text: {text}")
        judged = Judged()
        reply = await self._ask(LABEL_SYSTEM, prompt, judged,
                                lambda r: _read_labels(r, list(categories)))
        if reply is not None:
            judged.labels = reply
        return judged

    async def _ask(self, system: str, prompt: str, judged: Judged, read: Any) -> Any:
        """The judge's reply read by `read` (which returns the value or raises ValueError with
        the reason); asked again once; None when it stays unreadable."""
        messages = [{"role": "user", "content": prompt}]
        judged.tally.transcript.append({"role": "system", "content": system})
        judged.tally.transcript.append({"role": "user", "content": prompt})
        params = self._params()
        for attempt in range(2):
            reply = await self.model.call(system, messages, params, judged.tally)
            try:
                return read(reply)
            except ValueError as e:
                if attempt:
                    judged.reason = f"unscored: {e}"
                    return None
                note = f"Your reply could not be read: {e}. Reply with the JSON only."
                messages += [{"role": "assistant", "content": reply},
                             {"role": "user", "content": note}]
                judged.tally.transcript.append({"role": "user", "content": note, "reask": True})
        return None


def _object(reply: str) -> dict[str, Any]:
    """The JSON object in a reply (code fences and words around it allowed)."""
    found = _OBJECT.search(reply or "")
    if found is None:
        raise ValueError("no JSON object in it")
    try:
        value = json.loads(found.group(0))
    except ValueError:
        raise ValueError("its JSON object is malformed") from None
    if not isinstance(value, dict):
        raise ValueError("it is not a JSON object")
    return value


def _read_score(reply: str) -> tuple[int, str]:
    value = _object(reply)
    raw = value.get("score")
    if isinstance(raw, bool) or raw is None:
        raise ValueError("it has no score")
    number = raw if isinstance(raw, int | float) else None
    if number is None and isinstance(raw, str) and _NUMBER.fullmatch(raw.strip()):
        number = float(raw)
    if number is None or not 0 <= number <= 10 or number != int(number):
        raise ValueError(f"its score {raw!r} is not a whole number from 0 to 10")
    return int(number), str(value.get("reason") or "")


def _read_labels(reply: str, names: Sequence[str]) -> tuple[str, ...]:
    value = _object(reply)
    raw = value.get("labels")
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise ValueError("it has no list of labels")
    by_key = {_norm(n): n for n in names}
    found = tuple(dict.fromkeys(by_key[k] for r in raw if isinstance(r, str)
                                and (k := _norm(r)) in by_key))
    if not found:
        raise ValueError(f"none of its labels is one of {', '.join(names)}")
    return found


def _norm(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())
