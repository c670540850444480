"""Env id -> game widget. Envs without their own widget get the generic one."""

from __future__ import annotations

from tui.widgets.blotto import BlottoGame
from tui.widgets.env_widget import EnvWidget
from tui.widgets.generic import GenericGame
from tui.widgets.ipd import IpdGame

WIDGETS: dict[str, type[EnvWidget]] = {
    "colonel-blotto": BlottoGame,
    "three-player-ipd": IpdGame,
}


def widget_for(env_id: str) -> type[EnvWidget]:
    return WIDGETS.get(env_id, GenericGame)
