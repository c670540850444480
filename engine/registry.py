"""Environment id -> Env. Env packages register themselves on import; `load_all` imports them."""

from __future__ import annotations

import importlib

from engine.core import Env, UnknownEnvError

# Package (under engine/) of every environment Parlor ships, in lobby order.
ENV_PACKAGES = ("colonel_blotto", "three_player_ipd")

_REGISTRY: dict[str, Env] = {}


def register(env: Env) -> Env:
    if env.id in _REGISTRY and type(_REGISTRY[env.id]) is not type(env):
        raise ValueError(f"environment id {env.id!r} registered twice")
    _REGISTRY[env.id] = env
    return env


def load_all() -> None:
    for package in ENV_PACKAGES:
        importlib.import_module(f"engine.{package}")


def env_ids() -> list[str]:
    load_all()
    return list(_REGISTRY)


def all_envs() -> list[Env]:
    load_all()
    return list(_REGISTRY.values())


def get(env_id: str) -> Env:
    load_all()
    try:
        return _REGISTRY[env_id]
    except KeyError:
        raise UnknownEnvError(f"unknown environment {env_id!r}; valid environments: "
                              f"{', '.join(_REGISTRY)}") from None
