"""The Impostor game's texts as rich text from the server's view: the banner (phase, who speaks,
your word and what your mode tells you of the teams), the descriptions in speaking order, and
at the end the deal (both words, the impostor), every ballot and how the game was won."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

Namer = Callable[[int], str]
FLAG_WORDS = {"sentences": "cut to two sentences", "length": "cut to 750 characters",
              "redacted": "the word redacted", "withheld": "withheld: it named the word",
              "empty": "it said nothing", "none": "no description"}
WIN_CONDITIONS = {
    "conviction": "two or more majority players voted for the impostor",
    "strict_plurality": "the impostor drew more votes than all the others together",
    "correct_guess": "the impostor declared itself and guessed the majority's word",
    "wrong_guess": "the impostor declared itself and guessed wrong",
    "majority_self_declaration": "a majority player declared itself the impostor",
    "evaded": "the impostor escaped the vote",
    "tie": "the vote was tied at the top",
}


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def banner(public: Mapping[str, Any], private: Mapping[str, Any], me: int | None,
           my_turn: bool, name: Namer) -> Text:
    text = Text()
    phase = public.get("phase")
    if phase == "over":
        text.append("Game over", style="bold reverse")
    elif phase == "describe":
        text.append("Describe", style="bold reverse")
        speaker = public.get("speaker")
        if isinstance(speaker, int):
            text.append("  speaking: " + ("you" if speaker == me else name(speaker)))
        position = private.get("position")
        if isinstance(position, int) and speaker != me:
            text.append(f"  (you speak {ordinal(position + 1)})", style="dim")
    else:
        text.append("Vote", style="bold reverse")
        voted = len(public.get("voted") or [])
        text.append(f"  {voted} of {len(public.get('players') or [])} ballots in")
    if my_turn:
        text.append("  ▶ your turn", style="bold")
    word = private.get("word")
    if word:
        text.append("\nYour word: ")
        text.append(str(word), style="bold")
        text.append("  (one of you holds a different word; nobody is told who)", style="dim")
    team = private.get("team")
    if isinstance(team, Mapping):
        mate = team.get("teammate")
        if isinstance(mate, int):
            text.append(f"\nYour teammate: {name(mate)}")
        elif "teammate" in team:
            text.append("\nYou are on a team of two; your teammate is not told to you",
                        style="dim")
    return text


def descriptions(public: Mapping[str, Any], me: int | None, name: Namer) -> Text:
    """Each description in speaking order; the seats still to speak, greyed."""
    text = Text()
    said = {d["seat"]: d for d in public.get("descriptions") or []}
    for position, seat in enumerate(public.get("order") or []):
        who = name(seat) + (" (you)" if seat == me else "")
        text.append(f"{position + 1}. {who}: ", style="bold" if seat in said else "dim")
        entry = said.get(seat)
        if entry is None:
            text.append("speaks next\n" if seat == public.get("speaker") else "…\n",
                        style="dim")
            continue
        text.append(str(entry.get("text", "")))
        flags = [FLAG_WORDS.get(f, f) for f in entry.get("flags") or []]
        if flags:
            text.append(f"  [{'; '.join(flags)}]", style="dim italic")
        text.append("\n")
    return text


def words(setup: Mapping[str, Any], name: Namer) -> Text:
    """The deal, revealed: both words and who held the impostor's."""
    text = Text("The majority's word: ")
    text.append(str(setup.get("majority_word")), style="bold")
    text.append("  ·  the impostor's word: ")
    text.append(str(setup.get("impostor_word")), style="bold")
    impostor = setup.get("impostor")
    if isinstance(impostor, int):
        text.append(f", held by {name(impostor)}")
    return text


def reveal(public: Mapping[str, Any], name: Namer) -> Text:
    """Every ballot and how the game was won (once it is over)."""
    outcome = public.get("outcome") or {}
    text = Text()
    for seat, ballot in sorted((public.get("ballots") or {}).items(), key=lambda kv: int(kv[0])):
        text.append(f"{name(int(seat))}: ", style="bold")
        if not ballot.get("valid"):
            text.append("an invalid ballot (counted for nobody)\n", style="dim")
            continue
        target = ballot.get("target")
        text.append(f"suspects {name(target) if isinstance(target, int) else '—'}")
        if ballot.get("confidence") is not None:
            text.append(f" ({ballot['confidence']:.0%} sure)")
        if ballot.get("self_declaration"):
            guess = ballot.get("word_guess")
            text.append("; declared itself" + (f", guessed '{guess}'" if guess else ""))
        if ballot.get("reasoning"):
            text.append(f" — {ballot['reasoning']}", style="dim")
        text.append("\n")
    condition = outcome.get("win_condition")
    if condition:
        text.append("How it ended: ", style="bold")
        text.append(WIN_CONDITIONS.get(condition, condition))
        winner = outcome.get("winner")
        if winner:
            text.append(f"; the {winner} wins")
        text.append("\n")
    return text
