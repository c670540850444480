"""Action spaces: what a seat may do now, as data that UIs build widgets from and prompts describe."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class Option:
    id: str
    label: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label}


@dataclass(frozen=True)
class Field:
    """One typed input of a form. kind: "int" (min/max), "choice" (options) or "text" (max_chars)."""

    name: str
    label: str
    kind: Literal["int", "choice", "text"]
    min: int | None = None
    max: int | None = None
    options: tuple[Option, ...] = ()
    max_chars: int | None = None
    default: Any = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        for key in ("min", "max", "max_chars", "default"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        if self.options:
            d["options"] = [o.to_json() for o in self.options]
        return d


@dataclass(frozen=True)
class ActionSpace:
    """What a seat may do now; UIs build widgets from it and prompts describe it.

    kind "choice": pick one of `options` (structured action {"choice": id}).
    kind "text": free text up to `max_chars` (structured action {"text": str}).
    kind "form": typed `fields` plus form-level `constraints` (e.g. {"sum_max": 20}); the
    structured action maps field names to values.
    `syntax` describes the equivalent text form (e.g. "[A4 B2 C2]"); text is always accepted.
    """

    kind: Literal["choice", "text", "form"]
    prompt: str
    syntax: str = ""
    options: tuple[Option, ...] = ()
    fields: tuple[Field, ...] = ()
    max_chars: int | None = None
    constraints: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "prompt": self.prompt, "syntax": self.syntax}
        if self.options:
            d["options"] = [o.to_json() for o in self.options]
        if self.fields:
            d["fields"] = [f.to_json() for f in self.fields]
        if self.max_chars is not None:
            d["max_chars"] = self.max_chars
        if self.constraints:
            d["constraints"] = dict(self.constraints)
        return d


NO_ACTION = ActionSpace(kind="choice", prompt="Nothing to do now.")
