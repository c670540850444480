"""SocialGrid's 14 actions (the paper's ids, fixed by the protocol) and the keys that play them.

Shared by the game widget (its bindings), the side panel and the oracle hint (which name each
action with its key), so that what the screen says is always the key that works."""

from __future__ import annotations

from typing import NamedTuple

from textual.binding import Binding


class ActionKey(NamedTuple):
    name: str  # the env's name for the action (ALLOWED_ACTIONS, the oracle's suggestion)
    keys: str  # Textual key names, the first is the one the footer shows
    shown: str  # the keys as a person reads them


ACTIONS: dict[int, ActionKey] = {
    0: ActionKey("MOVE_FORWARD", "w,up", "w/↑"),
    1: ActionKey("MOVE_BACKWARD", "s,down", "s/↓"),
    2: ActionKey("STRAFE_RIGHT", "d", "d"),
    3: ActionKey("STRAFE_LEFT", "a", "a"),
    4: ActionKey("TURN_LEFT", "left", "←"),
    5: ActionKey("TURN_RIGHT", "right", "→"),
    6: ActionKey("TURN_BACK", "b", "b"),
    7: ActionKey("NOOP", "full_stop,space", "."),
    8: ActionKey("DO_TASK", "e", "e"),
    9: ActionKey("OPEN_DOOR", "o", "o"),
    10: ActionKey("CLOSE_DOOR", "c", "c"),
    11: ActionKey("REPORT_DEADBODY", "r", "r"),
    12: ActionKey("CALL_DISCUSSION", "m", "m"),
    13: ActionKey("KILL", "k", "k"),
}
BY_NAME = {a.name: i for i, a in ACTIONS.items()}

MOVE = Binding.Group("Move", compact=True)
TURN = Binding.Group("Turn", compact=True)
# The footer's order: moves as WASD, the turns, then one key per interaction.
_ORDER = (0, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
_GROUPS = {0: MOVE, 1: MOVE, 2: MOVE, 3: MOVE, 4: TURN, 5: TURN, 6: TURN}

# Each action twice, on the same keys: `act`, shown in the footer, is on for the actions allowed
# now (at 80 columns the footer takes a second line for them: tui/widgets/key_footer.py; the
# panel lists them with their keys too); `act_quietly` is on for all 14 while the
# seat plays, so that help lists every key and a key for an action not allowed now is answered
# (with a notice, sending nothing) rather than ignored.
ACTION_BINDINGS = [
    *(Binding(ACTIONS[i].keys, f"act({i})", ACTIONS[i].name, group=_GROUPS.get(i))
      for i in _ORDER),
    *(Binding(ACTIONS[i].keys, f"act_quietly({i})", ACTIONS[i].name, show=False)
      for i in _ORDER),
]


def action_label(action: int) -> str:
    """`KEY NAME`, e.g. `← TURN_LEFT`; an unknown id as its number."""
    known = ACTIONS.get(action)
    return f"{known.shown} {known.name}" if known else f"action {action}"
