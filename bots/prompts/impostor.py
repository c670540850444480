"""Prompts for the Impostor game (spec impostor §4-§5), in our own words.

- Describing (phase `describe`): the system prompt says it is a word game and that this phase
  asks only for a one- or two-sentence description, no analysis of the others; the user
  prompt gives the rules (four players, three share a word, the impostor's differs and tries
  to blend in, the majority tries to find it), the description rules, the team information
  of the mode, the seat's word, the earlier descriptions (context only) and who it is (and
  that it goes first). The whole reply is the description; the engine judges it.
- Voting (phase `vote`): the system prompt asks for valid JSON only; the user prompt asks who
  holds the different word, gives the seat's word, the team information (team-aware adds that
  a teammate who is the impostor wins by not being caught), every description, its label,
  the JSON schema with the reasoning short and last-but-one, and how self-declaration and
  the word guess count. The reply is read by the engine's own ballot parser (code fences, the
  first balanced object, ...); an unreadable one is asked again once with the reason, and then
  goes to the engine, whose policy refuses it once more and then counts it for nobody.

Sampling (§5): temperature 0.7 to describe and max(0.3, T - 0.4) to vote, where T is the
bot's temperature setting (0.7 when unset); a `describe.` or `vote.` setting overrides each.
The paper's 150 output tokens are not imposed (the bot's max_tokens stands): spec §5 warns
that they truncate JSON ballots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.llm.settings import LLMSettings
from bots.prompts.base import PromptBuilder, Verdict, strip_reasoning
from engine.impostor.config import MAX_CHARS, MAX_SENTENCES
from engine.impostor.syntax import BallotError, parse_ballot, sentences
from engine.wording import says

DESCRIBE_TEMPERATURE, VOTE_TEMPERATURE_FLOOR, VOTE_COOLING = 0.7, 0.3, 0.4
EXAMPLE = ('{"suspected_impostor_id": 3, "confidence": 0.6, "self_declaration": false, '
           '"word_guess": null, "reasoning": "Their description fits my word least."}')
SCHEMA = ('{"suspected_impostor_id": <player number 1-4>, "confidence": <0.0-1.0>, '
          '"self_declaration": <true or false>, "word_guess": <the others\' word, or null>, '
          '"reasoning": "<one short sentence>"}')


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _is_vote(legal: Mapping[str, Any]) -> bool:
    return legal.get("kind") == "form"


def _team_block(view: Mapping[str, Any], voting: bool) -> str:
    team = (view.get("private") or {}).get("team")
    if team is None:
        return ""
    if team.get("teammate") is None:
        text = ("Teams: one of the other three players is on your team, but you are not told "
                "which. Teams are not roles: your teammate may hold your word or be the "
                "impostor.")
    else:
        text = (f"Teams: you and {_player(team['teammate'])} are teammates. Teams are not "
                "roles: your teammate may hold your word or be the impostor; there is exactly "
                "one impostor.")
        if voting:
            text += " If your teammate is the impostor, they win by not being found."
    return text


def _descriptions(view: Mapping[str, Any]) -> list[str]:
    return [f"{_player(d['seat'])}: {d['text']}" for d in view["public"]["descriptions"]]


def _refused(view: Mapping[str, Any]) -> list[str]:
    """The engine's reason for refusing the seat's last answer, if it did."""
    error = (view.get("private") or {}).get("last_error")
    return [f"Your last answer was refused: {error}"] if error else []


class ImpostorPrompts(PromptBuilder):
    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if _is_vote(legal):
            return ("You are a player in a word guessing game, now voting. Answer with one "
                    "valid JSON object and nothing else.")
        return ("You are a player in a word guessing game. In this description phase, describe "
                "your word in one or two sentences; do not analyse or comment on the other "
                "players.")

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "vote" if _is_vote(legal) else "describe"

    settings: LLMSettings | None = None

    def configure(self, settings: LLMSettings, seed: int) -> None:
        super().configure(settings, seed)
        self.settings = settings

    def stamp(self) -> dict[str, Any]:
        """The sampling each phase's calls use (the settings stamped beside them leave the
        temperature unset when the paper's defaults apply)."""
        if self.settings is None:
            return {}
        return {"phase_sampling": {p: self.sampling(self.settings, p)
                                   for p in ("describe", "vote")}}

    def sampling(self, settings: LLMSettings, phase: str) -> dict[str, Any]:
        params = settings.for_phase(phase)
        if "temperature" in settings.phases.get(phase, {}):
            return params
        base = DESCRIBE_TEMPERATURE if settings.temperature is None else settings.temperature
        params["temperature"] = max(VOTE_TEMPERATURE_FLOOR, base - VOTE_COOLING) \
            if phase == "vote" else base
        return params

    def render(self, view: Mapping[str, Any], keep: int) -> str:
        seat, word = view["seat"], (view.get("private") or {}).get("word")
        said = _descriptions(view)
        if view["public"]["phase"] == "vote" or view["public"].get("over"):
            lines = ["Game: 4 players. Three share one word; one player, the impostor, has a "
                     "different word. Everyone has described their word; now find out who "
                     "holds the different word.",
                     f'Your word is: "{word}".']
            team = _team_block(view, voting=True)
            if team:
                lines.append(team)
            lines += ["The descriptions, in speaking order:", *said, f"You are {_player(seat)}."]
            return "\n".join(lines + _refused(view))
        lines = ["Game: 4 players. Three share one word; one player, the impostor, has a "
                 "different word. Nobody is told whether they are the impostor. The impostor "
                 "tries to blend in; the others try to find the impostor.",
                 "Description rules: one or two sentences, at most "
                 f"{view['public'].get('max_chars', 750)} characters, and never your word or any "
                 "form of it. Be specific enough for players with your word to recognise it, "
                 "but not so specific that a player with a different word could guess it."]
        team = _team_block(view, voting=False)
        if team:
            lines.append(team)
        lines.append(f'Your word is: "{word}".')
        if said:
            lines += ["Earlier descriptions (for context only):", *said]
        first = " You will go first." if not said else ""
        lines.append(f"You are {_player(seat)}.{first}")
        return "\n".join(lines + _refused(view))

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if _is_vote(legal):
            return ("Vote for the player you think holds the different word. Reply with only "
                    f"this JSON object: {SCHEMA}\n"
                    f"An answer looks like this, for example {EXAMPLE}\n"
                    "If you think you hold the different word "
                    "yourself, set self_declaration to true and give your best guess of the "
                    "others' word in word_guess: a right guess wins the game for you, a wrong "
                    "one loses it. Without a self-declaration, word_guess is ignored.")
        return "Write your description now: one or two sentences, nothing else."

    # -- reading the answer ---------------------------------------------------------------------
    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return strip_reasoning(reply)

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        if not _is_vote(legal):
            return self._check_description(action, view)
        try:
            ballot = parse_ballot(action)
        except BallotError as e:
            return Verdict("unparseable", str(e))
        players = len(view["public"]["players"])
        if not 1 <= ballot.target <= players:
            return Verdict("illegal", f"there is no Player {ballot.target}: name one of Player "
                                      f"1 to Player {players}", f"Player {ballot.target}")
        return None

    @staticmethod
    def _check_description(action: str, view: Mapping[str, Any]) -> Verdict | None:
        """The engine's rules for a description (its own leak check and sentence count)."""
        count = len(sentences(action))
        if count == 0:
            return Verdict("unparseable", "the description is empty")
        word = (view.get("private") or {}).get("word") or ""
        leak = says(action, word, whole_words=True) if word else None
        if leak:
            return Verdict("illegal", f'it names your word ("{leak}")')
        if count > MAX_SENTENCES:
            return Verdict("illegal", f"it has {count} sentences, at most {MAX_SENTENCES}")
        if len(action) > MAX_CHARS:
            return Verdict("illegal", f"it has {len(action)} characters, at most {MAX_CHARS}")
        return None

    def reask(self, verdict: Verdict, legal: Mapping[str, Any]) -> str:
        if _is_vote(legal):
            return (f"Your ballot could not be read: {verdict.message}. Reply again with only "
                    f"the JSON object: {SCHEMA}, for example {EXAMPLE}")
        return (f"Your description could not be used: {verdict.message}. Write one or two "
                "sentences describing your word without saying it.")
