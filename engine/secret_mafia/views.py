"""What each seat of a Secret Mafia game may know and do: the public state (everyone's), each
seat's private part (its role, its teammates if Mafia, its own night results) and its action
space. Every container is a fresh copy: a view is a snapshot its reader may keep.

Nothing public depends on who acts at night: the night is one public phase, and the seat the
game waits for is named only in that seat's private part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import NO_ACTION, ActionSpace, Field, Option
from engine.secret_mafia.config import COMPOSITION, DETECTIVE, DOCTOR, MAFIA, seat_name
from engine.secret_mafia.syntax import target_text

if TYPE_CHECKING:
    from engine.secret_mafia.rules import MafiaGame

# Windows a view holds. A six-seat game without passed votes has at most 54 speeches and 8
# dawns and votes; passes (timeouts) can stretch a game, and the windows keep views bounded.
CHAT_WINDOW = 120
HISTORY_WINDOW = 16
__all__ = ["NO_ACTION", "action_space", "private_state", "public_state"]

_PROMPTS = {
    "kill": "Vote for tonight's victim (your teammates see your vote and note).",
    "protect": "Choose one player to protect tonight.",
    "investigate": "Choose one player to investigate tonight.",
    "vote": "Vote for the player to eliminate today.",
}
_TASK_WORDS = {"kill": "choose the Mafia's victim", "protect": "protect a player",
               "investigate": "investigate a player", "speak": "speak", "vote": "vote"}


def public_state(game: MafiaGame) -> dict[str, Any]:
    over = game.result is not None
    announced = game.announced
    players = []
    for s in range(game.players):
        entry: dict[str, Any] = {"seat": s, "name": seat_name(s), "alive": game.alive[s]}
        if s in announced:
            entry["role"] = game.roles[s].name
        players.append(entry)
    day_phase = not over and game.phase in ("day", "vote")
    current = game.queue[0] if day_phase and game.queue else None
    return {
        "players": players,
        "composition": dict(COMPOSITION),
        "day": game.day,
        "phase": "over" if over else game.phase,
        "discussion_rounds": game.config.discussion_rounds,
        "discussion_round": game.round if game.phase == "day" else None,
        "order": game.order[:] if game.phase in ("day", "vote") else [],
        "vote_order": game.vote_order[:] if game.phase == "vote" else [],
        "speaker": current if game.phase == "day" else None,
        "voter": current if game.phase == "vote" else None,
        "votes": game.votes[:] if game.phase == "vote" else [],
        "chat": game.chat[-CHAT_WINDOW:],
        "history": game.history[-HISTORY_WINDOW:],
        "max_chat_chars": game.config.max_chat_chars,
        "doctor_self_protect": game.config.doctor_self_protect,
        "reveal_roles": game.config.reveal_roles,
        "night_errors": game.config.night_errors,
    }


def private_state(game: MafiaGame, seat: int) -> dict[str, Any]:
    role = game.roles[seat]
    mine: dict[str, Any] = {"role": role.name, "side": role.side, "alive": game.alive[seat]}
    pending = seat in game.pending()
    mine["task"] = game.task if pending else None
    mine["targets"] = game.targets(seat) if pending and game.task != "speak" else []
    if role.name == MAFIA:
        mine["teammates"] = sorted(game.mafia - {seat})
        if game.alive[seat]:
            tonight = game.phase == "night"
            mine["night_votes"] = game.night_votes[:] if tonight else []
            mine["nights"] = game.mafia_log[-HISTORY_WINDOW:]
    elif role.name == DOCTOR:
        mine["protections"] = game.protections[-HISTORY_WINDOW:]
    elif role.name == DETECTIVE:
        mine["investigations"] = game.findings[-HISTORY_WINDOW:]
    return mine


def action_space(game: MafiaGame, seat: int) -> ActionSpace:
    """The pending seat's choices: free text in a discussion; else its valid targets."""
    task = game.task
    if task == "speak":
        return ActionSpace(kind="text", prompt="Speak to everyone (one message; empty to keep "
                                               "quiet).", max_chars=game.config.max_chat_chars)
    targets = game.targets(seat)
    options = tuple(Option(str(s), seat_name(s)) for s in targets)
    example = target_text(targets[0]) if targets else "[0]"
    if task == "kill":
        fields = (Field("target", "Victim", "choice", options=options),
                  Field("note", "Note to your teammates", "text",
                        max_chars=game.config.max_chat_chars, optional=True))
        return ActionSpace(kind="form", prompt=_PROMPTS[task], syntax=example, fields=fields)
    return ActionSpace(kind="choice", prompt=_PROMPTS[task], syntax=example, options=options)


def task_words(task: str | None) -> str:
    """A seat's task in a few words, e.g. "protect a player"."""
    return _TASK_WORDS.get(task or "", "wait")
