"""What an LLM bot needs from an env to play it: rules and role (system prompt), the per-turn
text (the env's own `render(view)`, with history that can be cut to fit a context window), how
to answer, which part of a reply is the action, and whether the engine would accept it.

`PromptBuilder` works for any env (it knows only the engine contract); per-env builders in this
package override pieces. Checks call the engine's own parser and rules: a builder never invents
or repairs a move.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bots.llm.settings import LLMSettings, SettingsError
from engine.core import Env

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Verdict:
    """Why an answer would not be accepted. `unparseable`: the engine cannot read it; `illegal`:
    it reads as a move the rules do not allow now."""

    kind: Literal["unparseable", "illegal"]
    message: str
    read_as: str | None = None  # the move as the parser read it (for illegal answers)


def strip_reasoning(reply: str) -> str:
    """Drop <think>…</think> blocks some open models (Qwen3, DeepSeek-R1) put in their answer."""
    text = _THINK.sub("", reply)
    if "</think>" in text.lower():  # an opening tag lost to truncation: keep what follows
        text = text[text.lower().rfind("</think>") + len("</think>"):]
    return text.strip()


def last_bracket_group(reply: str) -> str:
    """The last non-empty [bracketed] group of a reply (its final answer in the bracket syntax
    of Blotto and Codenames), reasoning blocks dropped; the whole reply when there is none, so
    the engine judges exactly what the model wrote."""
    text = strip_reasoning(reply)
    end = text.rfind("]")
    while end != -1:
        start = text.rfind("[", 0, end)
        if start == -1:
            break
        if text[start + 1:end].strip():
            return text[start:end + 1]
        end = text.rfind("]", 0, start)
    return text


def _option_text(option: Mapping[str, Any]) -> str:
    """`id = label`, and for an option that takes an argument what to write after it."""
    arg = option.get("arg")
    if not arg:
        return f"{option['id']} = {option['label']}"
    if arg.get("kind") == "choice":
        what = "one of " + ", ".join(o["id"] for o in arg.get("options", ()))
    else:
        what = arg.get("label", "a value")
    return f"{option['id']}: <{what}> = {option['label']}"


class PromptBuilder:
    """The default builder: generic rules from the env's description, no cuttable history."""

    history_unit = "entries"  # what one history entry is, for the cut marker ("rounds")
    cut_public_history = False  # True: the view's public `history` list is what may be cut

    def __init__(self, env: Env) -> None:
        self.env = env

    def configure(self, settings: LLMSettings, seed: int) -> None:
        """Read the settings only some envs' prompts use (`planner`, `persona`, `interview`):
        here none, so a bot that sets them for another env is refused rather than silently
        ignored."""
        used = [k for k in ("planner", "persona", "interview")
                if getattr(settings, k) not in (None, "")]
        if used:
            raise SettingsError(f"{', '.join(used)}: not a setting of {self.env.id}'s prompts")

    def stamp(self) -> dict[str, Any]:
        """What the builder's settings made of the prompts, stamped on the seat."""
        return {}

    def interview(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                  memory: dict[str, Any]) -> list[tuple[str, str]]:
        """The interviewer's questions due before this decision, as (category, question), each
        asked privately in a call of its own and kept in the decision's transcript; it may note
        in `memory` what it asked. The default asks nothing."""
        return []

    # -- the conversation ---------------------------------------------------------------------
    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        seat = view.get("seat")
        role = self.env.seat_name(seat) if isinstance(seat, int) else "a player"
        return (f"You are playing {self.env.title}, a game for several players: "
                f"{self.env.description}\nYou are {role}. Each turn you get the game as you can "
                f"see it; read it carefully and answer in the exact format asked for, because "
                f"answers that do not follow the format count as invalid moves.")

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """Name of the decision kind (settings may override sampling per phase)."""
        return str(view.get("public", {}).get("phase") or "play")

    def sampling(self, settings: LLMSettings, phase: str) -> dict[str, Any]:
        """The sampling parameters of one call in `phase`: the bot's settings (an env whose
        paper fixes other defaults overrides this where the settings leave them unset)."""
        return settings.for_phase(phase)

    def history_length(self, view: Mapping[str, Any]) -> int:
        """Entries of the view's history that may be cut (oldest first) to fit the context:
        the public `history` list when the builder names it (`cut_public_history`)."""
        return len(view["public"]["history"]) if self.cut_public_history else 0

    def render(self, view: Mapping[str, Any], keep: int) -> str:
        """The env's rendering of the view with only the `keep` most recent history entries."""
        if not self.cut_public_history:
            return self.env.render(view)
        history = view["public"]["history"]
        if keep >= len(history):
            return self.env.render(view)
        public = {**view["public"], "history": history[len(history) - keep:]}
        return self.env.render({**view, "public": public})

    def summarize(self, view: Mapping[str, Any], cut: int) -> str:
        """A short summary of the `cut` oldest history entries (shown where they were cut)."""
        return ""

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """How to answer now, from the ActionSpace."""
        kind, prompt = legal.get("kind"), legal.get("prompt", "")
        syntax = legal.get("syntax", "")
        lines = [f"Your turn: {prompt}".rstrip()]
        if kind == "choice" and legal.get("options"):
            lines.append("Options: " + "; ".join(_option_text(o) for o in legal["options"]))
        if kind == "text" and legal.get("max_chars"):
            lines.append(f"Keep it under {legal['max_chars']} characters.")
        if syntax:
            lines.append(f"Finish your reply with your move in this format: {syntax}")
        return "\n".join(lines)

    # -- memory ---------------------------------------------------------------------------------
    def notes(self, view: Mapping[str, Any], legal: Mapping[str, Any],
              memory: Mapping[str, Any]) -> str:
        """Notes the bot carries from turn to turn, shown before how to answer. The default
        shows `memory["notes"]` (text a builder's `remember` wrote), if any."""
        notes = memory.get("notes")
        return f"Your notes from earlier turns:\n{notes}" if isinstance(notes, str) and notes \
            else ""

    def remember(self, view: Mapping[str, Any], legal: Mapping[str, Any], reply: str,
                 action: str, memory: dict[str, Any]) -> None:
        """After a decision: condense what the bot should carry to its next turn into `memory`
        (e.g. `memory["notes"]`, a planner's summary). The default keeps nothing."""

    # -- reading the answer ---------------------------------------------------------------------
    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """The part of the reply that is the action (sent to the engine as text)."""
        return strip_reasoning(reply)

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        """None when the engine would accept `action`. The default knows no env syntax, so it
        only checks length limits and leaves everything else to the engine's policy."""
        limit = legal.get("max_chars")
        if legal.get("kind") == "text" and limit and len(action) > limit:
            return Verdict("illegal", f"the answer has {len(action)} characters, more than "
                                      f"the limit of {limit}")
        if not action.strip():
            return Verdict("unparseable", "the answer is empty")
        return None

    def reask(self, verdict: Verdict, legal: Mapping[str, Any]) -> str:
        """The follow-up message after an unusable answer."""
        syntax = legal.get("syntax")
        fmt = f" in the format {syntax}" if syntax else ""
        if verdict.kind == "unparseable":
            return (f"Your answer could not be read as a move: {verdict.message}. "
                    f"Answer again, ending with your move{fmt}.")
        read = f" was read as {verdict.read_as}, which" if verdict.read_as else ""
        return (f"Your answer{read} is not allowed: {verdict.message}. "
                f"Answer again with a legal move{fmt}.")


class AnswerPrompts(PromptBuilder):
    """For the puzzles scored as the paper scores a model's reply (the SocialMaze tasks): every
    reply is an answer, read by the env itself (its last answer line); one without a readable
    answer scores wrong, so nothing is checked here and nothing is asked again."""

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "answer"

    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return strip_reasoning(reply)

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        return None
