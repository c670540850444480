"""Env configs: frozen dataclasses, valid when made, with a JSON form."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError


@dataclass(frozen=True)
class Config:
    """Base of every env's config. Subclasses are frozen dataclasses with defaults; a config is
    validated when it is made, so every Config in existence is valid."""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ConfigError with an actionable message when a value is out of range."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        """Build and validate a config; unknown keys and wrong types raise ConfigError."""
        names = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise ConfigError(f"unknown config key(s) {', '.join(unknown)}; "
                              f"valid keys: {', '.join(sorted(names))}")
        values: dict[str, Any] = {}
        for key, value in data.items():
            default = getattr(cls, key, None)
            if isinstance(default, bool) and not isinstance(value, bool):
                raise ConfigError(f"config {key} must be true or false, got {value!r}")
            if isinstance(default, int) and not isinstance(default, bool) and (
                    isinstance(value, bool) or not isinstance(value, int)):
                raise ConfigError(f"config {key} must be an integer, got {value!r}")
            if isinstance(default, str) and not isinstance(value, str):
                raise ConfigError(f"config {key} must be a string, got {value!r}")
            values[key] = value
        return cls(**values)


def field_names(config_cls: type[Config]) -> list[str]:
    return [f.name for f in dataclasses.fields(config_cls)]
