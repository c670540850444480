"""Which game widget shows an env: the one the env names in its description ("widget":
"tui.widgets.<module>:<Class>"), or the generic one. Only modules of this package are imported,
whatever a server says."""

from __future__ import annotations

import importlib
from typing import Any

from textual.widget import Widget

from tui.widgets.env_widget import EnvWidget
from tui.widgets.generic import GenericGame

PACKAGE = "tui.widgets."

# The names envs send (on the wire since before each env's widgets had their own folder, so they
# stay as sent) -> the module and class that hold each widget now. Any other name is a path.
MOVED = {
    "tui.widgets.blotto:BlottoGame": "tui.widgets.colonel_blotto.game:BlottoGame",
    "tui.widgets.codenames:CodenamesGame": "tui.widgets.codenames.game:CodenamesGame",
    "tui.widgets.dataset_task:DatasetTaskGame": "tui.widgets.dataset_task.game:DatasetTaskGame",
    "tui.widgets.hidden_role:HiddenRoleGame": "tui.widgets.hidden_role.game:HiddenRoleGame",
    "tui.widgets.ipd:IpdGame": "tui.widgets.three_player_ipd.game:IpdGame",
    "tui.widgets.secret_mafia:SecretMafiaGame": "tui.widgets.secret_mafia.game:SecretMafiaGame",
    "tui.widgets.socialgrid:SocialGridGame": "tui.widgets.socialgrid.game:SocialGridGame",
}


def widget_for(env_info: dict[str, Any] | None) -> type[EnvWidget]:
    ref = (env_info or {}).get("widget") or ""
    ref = MOVED.get(ref, ref) if isinstance(ref, str) else ""
    module, _, name = ref.partition(":")
    if not module.startswith(PACKAGE) or not name:
        return GenericGame
    try:
        widget = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return GenericGame
    return widget if isinstance(widget, type) and issubclass(widget, EnvWidget) else GenericGame


# env id -> the panel a replay shows beside the env's widget ("module:Class" in this package): a
# Widget with `show(replay: dict, frame: dict)`, given the `replay` message's whole-game part
# (its `extras`) and the frame on screen. Envs without one show none.
REPLAY_PANELS: dict[str, str] = {
    "socialgrid": "tui.widgets.socialgrid.replay_panel:SocialGridReplayPanel",
}


def replay_panel_for(env_id: str) -> type[Widget] | None:
    module, _, name = REPLAY_PANELS.get(env_id, "").partition(":")
    if not module.startswith(PACKAGE) or not name:
        return None
    panel = getattr(importlib.import_module(module), name)
    return panel if isinstance(panel, type) and issubclass(panel, Widget) else None
