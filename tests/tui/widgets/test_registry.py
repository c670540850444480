"""Every env's widget is found from the name the env sends: a name the registry cannot place
falls back to the generic widget without a word, so a widget moved without its name mapped would
go unnoticed on screen."""

from __future__ import annotations

import engine.registry
from tui.widgets.generic import GenericGame
from tui.widgets.registry import widget_for


def test_every_env_gets_the_widget_it_names():
    for env_id in engine.registry.env_ids():
        info = engine.registry.get(env_id).describe()
        named = info["widget"].partition(":")[2] or GenericGame.__name__
        assert widget_for(info).__name__ == named, env_id


def test_a_name_outside_the_package_or_unknown_gets_the_generic_widget():
    for name in ("os:system", "tui.widgets.nothing:Game", "tui.widgets.codenames:Nothing",
                 "tui.widgets.codenames", 5, None):
        assert widget_for({"widget": name}) is GenericGame, name
