"""Reading SocialGrid answers: the action or ballot is the last JSON object of the reply (code
fences, prose around it and <think> blocks are fine; a broken object still gives its "action"
or "vote" value, a bare last line such as `3` or `MOVE_FORWARD` an action), cleaned up for the
engine's own parsers, and a ballot checked against the vote targets."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from bots.prompts.base import Verdict
from bots.prompts.socialgrid_text import player_name
from engine.socialgrid import syntax
from engine.socialgrid.moves import ACTION_NAMES

_KEYED = re.compile(r'"(action|vote)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)')
_NUMBER = re.compile(r"\b\d{1,2}\b")
_LAST_LINE = re.compile(r"^(?:action\s*[:=]?\s*)?[`*\"' ]*([A-Za-z_0-9]+)[`*\"'. ]*$",
                        re.IGNORECASE)


def _objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in the text, in order."""
    decoder = json.JSONDecoder()
    found, at = [], text.find("{")
    while at != -1:
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError:
            at = text.find("{", at + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        at = text.find("{", end)
    return found


def last_object(text: str, key: str) -> dict[str, Any] | None:
    """The last JSON object holding `key`."""
    for data in reversed(_objects(text)):
        if key in data:
            return data
    return None


def keyed_answer(text: str, key: str) -> dict[str, Any] | None:
    """A broken JSON answer (say, unescaped quotes in the thought): its last "action" or
    "vote" value, and for a vote any "Player_N": score pairs."""
    values = [m for m in _KEYED.finditer(text) if m.group(1) == key]
    if not values:
        return None
    raw = values[-1].group(2)
    value: Any = json.loads(raw)
    data: dict[str, Any] = {key: value}
    if key == "vote":
        pairs = re.findall(r'"([Pp]layer[_ ]?\d{1,2})"\s*:\s*"?(-?\d+(?:\.\d+)?)"?', text)
        data["trust_scores"] = {name: float(score) for name, score in pairs}
    return data


def last_line_action(text: str) -> str | None:
    """A reply whose last line is a bare action (`3`, `MOVE_FORWARD`, `Action: 3`)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return None
    found = _LAST_LINE.match(lines[-1].strip())
    if found is None:
        return None
    try:
        syntax.parse_action(found.group(1))
    except syntax.AnswerError:
        return None
    return found.group(1)


def thought_of(data: Mapping[str, Any]) -> str:
    thought = data.get("thought")
    return thought[:syntax.MAX_THOUGHT] if isinstance(thought, str) else ""


def action_value(value: Any) -> Any:
    """An action as the model wrote it, reduced to an id or name when the text holds exactly
    one ("0 MOVE_FORWARD", "MOVE_FORWARD (0)"); anything else is left for the engine to refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return value
    upper = value.upper()
    ids = {int(n) for n in _NUMBER.findall(upper)}
    ids |= {a for a, name in ACTION_NAMES.items() if re.search(rf"\b{name}\b", upper)}
    return ids.pop() if len(ids) == 1 else value


def clean_ballot(data: Mapping[str, Any]) -> dict[str, Any]:
    """A ballot with its trust scores as numbers ("0.8" -> 0.8); the engine clips scores to
    0..1 and drops what it cannot read."""
    vote = data.get("vote")
    ballot: dict[str, Any] = {"thought": thought_of(data),
                              "vote": vote if isinstance(vote, str | None) else str(vote)}
    scores = data.get("trust_scores")
    trust: dict[str, Any] = {}
    if isinstance(scores, Mapping):
        for who, score in scores.items():
            if isinstance(score, str):
                try:
                    score = float(score.strip().rstrip("%")) / (100 if "%" in score else 1)
                except ValueError:
                    continue
            if isinstance(score, int | float) and not isinstance(score, bool):
                trust[str(who)] = score
    ballot["trust_scores"] = trust
    return ballot


def check_ballot(action: str, view: Mapping[str, Any]) -> Verdict | None:
    """The engine's ballot parser, then the rules' limit: a living other player, or skip."""
    public, private = view.get("public") or {}, view.get("private") or {}
    players = len(public.get("players") or ()) or 10
    try:
        ballot = syntax.parse_ballot(action, players)
    except syntax.AnswerError as e:
        return Verdict("unparseable", str(e))
    targets = list(private.get("vote_targets") or ())
    if ballot.target is not None and player_name(ballot.target) not in targets:
        name = player_name(ballot.target)
        return Verdict("illegal", f"{name} cannot be voted for now; vote for "
                                  f"one of {', '.join(targets) or 'nobody'}, or skip",
                       f"vote {name}")
    return None
