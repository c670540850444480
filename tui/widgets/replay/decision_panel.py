"""The decision that made the frame's step: the move and how the rules took it (an invalid
move says so), a bot's tokens, latency, reasoning (its transcript, memory notes included where
stored) and raw output; a person's think time."""

from __future__ import annotations

import json
import re
from typing import Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.widgets.private_panel import format_value

MAX_MESSAGE = 2_000  # characters of one transcript message shown
PROMPTS = ("system", "user")  # messages the bot was given, cut to PROMPT_SHOWN characters
PROMPT_SHOWN = 160
# How the bots' prompts head the memory they carry between turns (bots/prompts: `notes`).
NOTES = re.compile(r"^(Your notes from earlier turns|Your condensed memory from your last turn|"
                   r"Your thinking at your last turn):\n(.*?)(?=\n\n|\Z)", re.M | re.S)


def _raw(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def usage_text(usage: dict[str, Any] | None, latency_ms: float | None) -> str:
    parts = [f"{k.replace('_', ' ')} {format_value(v)}" for k, v in (usage or {}).items()
             if isinstance(v, int | float) and ("token" in k or k == "cost")]
    if latency_ms is not None:
        parts.append(f"latency {latency_ms:.0f} ms")
    return ", ".join(parts)


def _notes(message: dict[str, Any]) -> list[tuple[str, str]]:
    """The memory notes the bot was shown in this message (its prompt), by heading."""
    if message.get("role") != "user" or not isinstance(message.get("content"), str):
        return []
    return [(m.group(1), m.group(2)) for m in NOTES.finditer(message["content"])]


def decision_text(decision: dict[str, Any] | None, names: list[str]) -> Text:
    if not decision:
        return Text("No decision at this step (the setup, or a step this seat did not make).",
                    style="dim")
    seat = decision.get("seat")
    name = names[seat] if isinstance(seat, int) and seat < len(names) else f"seat {seat}"
    text = Text()
    text.append(f"{name} ({decision.get('kind')})\n", style="bold")
    text.append("move  ", style="bold")
    text.append(_raw(decision.get("raw")))
    outcome = decision.get("outcome")
    if outcome != "ok":
        text.append(f"\n{str(outcome).upper()}", style="bold red")
        if decision.get("error"):
            text.append(f": {decision['error']}", style="red")
    if decision.get("think_seconds") is not None:
        text.append(f"\nthink time  {decision['think_seconds']:.1f} s")
    usage = usage_text(decision.get("usage"), decision.get("latency_ms"))
    if usage:
        text.append(f"\n{usage}", style="dim")
    if decision.get("raw_output"):
        text.append("\n\nRaw output\n", style="bold")
        text.append(str(decision["raw_output"]))
    transcript = decision.get("transcript")
    if isinstance(transcript, str) and transcript != decision.get("raw_output"):
        text.append(f"\n\nReasoning (its transcript)\n{transcript}")  # the server's note
    if isinstance(transcript, list) and transcript:
        text.append("\n\nReasoning (its transcript)\n", style="bold")
        for message in transcript:
            if not isinstance(message, dict):
                continue
            for heading, notes in _notes(message):
                text.append(f"memory — {heading.lower()}:\n", style="bold")
                text.append(f"{notes}\n")
            if message.get("content"):
                role = str(message.get("role", "?"))
                content = str(message["content"])
                if role in PROMPTS and len(content) > PROMPT_SHOWN:  # what it was asked: long
                    content = f"{content[:PROMPT_SHOWN]}… ({len(content)} characters)"
                text.append(f"{role}: ", style="bold")
                text.append(content[:MAX_MESSAGE] + "\n")
            elif "action" in message:
                text.append("parsed action: ", style="bold")
                text.append(_raw(message["action"]) + "\n")
    return text


class DecisionPanel(VerticalScroll, can_focus=False):
    """Scrolled by the replay screen's PgUp/PgDn: the arrows and Home/End step the replay."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(id="decision-text")

    def show(self, decision: dict[str, Any] | None, names: list[str]) -> None:
        self.query_one("#decision-text", Static).update(decision_text(decision, names))
