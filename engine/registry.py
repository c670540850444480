"""Environment id -> Env. Every package under engine/ that calls `register` is an environment:
`load_all` imports them all, so adding an env edits no shared list."""

from __future__ import annotations

import importlib
import pkgutil

import engine
from engine.core import Env, UnknownEnvError

_REGISTRY: dict[str, Env] = {}
_loaded = False


def register(env: Env) -> Env:
    if env.id in _REGISTRY and type(_REGISTRY[env.id]) is not type(env):
        raise ValueError(f"environment id {env.id!r} registered twice")
    _REGISTRY[env.id] = env
    return env


def env_packages() -> list[str]:
    """Packages under engine/ (env packages and shared kits), in name order."""
    return sorted(m.name for m in pkgutil.iter_modules(engine.__path__) if m.ispkg)


def load_all() -> None:
    global _loaded
    if not _loaded:
        for package in env_packages():
            importlib.import_module(f"engine.{package}")
        _loaded = True


def env_ids() -> list[str]:
    """In id order, whichever env a process happened to import first."""
    load_all()
    return sorted(_REGISTRY)


def all_envs() -> list[Env]:
    return [_REGISTRY[i] for i in env_ids()]


def get(env_id: str) -> Env:
    load_all()
    try:
        return _REGISTRY[env_id]
    except KeyError:
        raise UnknownEnvError(f"unknown environment {env_id!r}; valid environments: "
                              f"{', '.join(sorted(_REGISTRY))}") from None
