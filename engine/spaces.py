"""Action spaces: what a seat may do now, as data that UIs build widgets from and prompts describe.

`to_json` / `from_json` are exact inverses (what bots and UIs receive is the JSON form), and
`check_action` says why a structured action does not fit a space.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

FieldKind = Literal["int", "float", "bool", "choice", "text"]
FIELD_KINDS: tuple[str, ...] = ("int", "float", "bool", "choice", "text")


@dataclass(frozen=True)
class Option:
    """One choice. `arg`, when set, is a value the chooser must add (e.g. SPEAK + a message):
    the structured action is then {"choice": id, "arg": value}."""

    id: str
    label: str
    arg: Field | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "label": self.label}
        if self.arg is not None:
            d["arg"] = self.arg.to_json()
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Option:
        arg = d.get("arg")
        return cls(d["id"], d["label"], Field.from_json(arg) if arg is not None else None)


@dataclass(frozen=True)
class Field:
    """One typed input of a form (or the argument of an option).

    kind "int" / "float": a number within min..max (either bound may be absent);
    kind "bool": true or false; kind "choice": one of `options` (by id; option args are not
    used inside fields); kind "text": a string of at most `max_chars` characters.
    `optional` fields may be left out of the structured action (or sent as null).
    """

    name: str
    label: str
    kind: FieldKind
    min: int | float | None = None
    max: int | float | None = None
    options: tuple[Option, ...] = ()
    max_chars: int | None = None
    default: Any = None
    optional: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        if self.min is not None:  # (written out: every turn sends its space)
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.max_chars is not None:
            d["max_chars"] = self.max_chars
        if self.default is not None:
            d["default"] = self.default
        if self.options:
            d["options"] = [o.to_json() for o in self.options]
        if self.optional:
            d["optional"] = True
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Field:
        return cls(d["name"], d["label"], d["kind"], d.get("min"), d.get("max"),
                   tuple(Option.from_json(o) for o in d.get("options", ())),
                   d.get("max_chars"), d.get("default"), bool(d.get("optional", False)))


@dataclass(frozen=True)
class ActionSpace:
    """What a seat may do now; UIs build widgets from it and prompts describe it.

    kind "choice": pick one of `options` (structured action {"choice": id}, or
    {"choice": id, "arg": value} when the option carries an `arg` field).
    kind "text": free text up to `max_chars` (structured action {"text": str}).
    kind "form": typed `fields` plus form-level `constraints` (e.g. {"sum_max": 20}, summed over
    the int fields); the structured action maps field names to values.
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

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ActionSpace:
        """Rebuild a space from its JSON form (what bots and UIs receive)."""
        return cls(d["kind"], d.get("prompt", ""), d.get("syntax", ""),
                   tuple(Option.from_json(o) for o in d.get("options", ())),
                   tuple(Field.from_json(f) for f in d.get("fields", ())),
                   d.get("max_chars"), dict(d.get("constraints") or {}))


NO_ACTION = ActionSpace(kind="choice", prompt="Nothing to do now.")


def check_value(field: Field, value: Any) -> str | None:
    """Why `value` does not fit `field` (a present, non-null value), or None."""
    name = field.label or field.name
    if field.kind in ("int", "float"):
        if field.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            return f"{name} needs a whole number, got {value!r}"
        if field.kind == "float" and (isinstance(value, bool)
                                      or not isinstance(value, int | float)
                                      or not math.isfinite(value)):
            return f"{name} needs a number, got {value!r}"
        if field.min is not None and value < field.min:
            return f"{name} must be at least {field.min}, got {value}"
        if field.max is not None and value > field.max:
            return f"{name} must be at most {field.max}, got {value}"
        return None
    if field.kind == "bool":
        return None if isinstance(value, bool) else f"{name} needs true or false, got {value!r}"
    if field.kind == "choice":
        ids = [o.id for o in field.options]
        if value not in ids:
            return f"{name} must be one of {', '.join(ids)}, got {value!r}"
        return None
    if field.kind == "text":
        if not isinstance(value, str):
            return f"{name} needs text, got {value!r}"
        if field.max_chars is not None and len(value) > field.max_chars:
            return f"{name} has {len(value)} characters, more than {field.max_chars}"
        return None
    return f"{name} has an unknown kind {field.kind!r}"


def check_action(space: ActionSpace, action: Any) -> str | None:
    """Why a structured action (a dict) does not fit `space`, or None when it does.

    Judges only what the space states (ids, args, types, bounds, max_chars, sum_max / sum_eq
    over int fields); the env's rules judge the rest.
    """
    if not isinstance(action, Mapping):
        return f"a structured action is a JSON object, got {type(action).__name__}"
    if space.kind == "choice":
        return _check_choice(space, action)
    if space.kind == "text":
        if set(action) != {"text"}:
            return 'a text action is {"text": ...}'
        text = action["text"]
        if not isinstance(text, str):
            return f"the text must be a string, got {text!r}"
        if space.max_chars is not None and len(text) > space.max_chars:
            return f"the text has {len(text)} characters, more than {space.max_chars}"
        return None
    return _check_form(space, action)


def _check_choice(space: ActionSpace, action: Mapping[str, Any]) -> str | None:
    extra = set(action) - {"choice", "arg"}
    if extra:
        return f"unexpected keys {', '.join(sorted(map(str, extra)))} in a choice action"
    if "choice" not in action:
        return 'a choice action is {"choice": id}'
    option = next((o for o in space.options if o.id == action["choice"]), None)
    if option is None:
        valid = ", ".join(o.id for o in space.options) or "none"
        return f"unknown choice {action['choice']!r}; valid choices: {valid}"
    arg = action.get("arg")
    if option.arg is None:
        return None if arg is None else f"{option.id} takes no argument"
    if arg is None:
        if option.arg.optional:
            return None
        return f"{option.id} needs an argument ({option.arg.label or option.arg.name})"
    return check_value(option.arg, arg)


def _check_form(space: ActionSpace, action: Mapping[str, Any]) -> str | None:
    names = {f.name for f in space.fields}
    unknown = [k for k in action if k not in names]
    if unknown:
        return f"unknown field {unknown[0]!r}; fields: {', '.join(f.name for f in space.fields)}"
    for f in space.fields:
        value = action.get(f.name)
        if value is None:
            if not f.optional:
                return f"{f.label or f.name} is missing"
            continue
        problem = check_value(f, value)
        if problem:
            return problem
    total = sum(action[f.name] for f in space.fields
                if f.kind == "int" and action.get(f.name) is not None)
    cons = space.constraints
    if "sum_max" in cons and total > cons["sum_max"]:
        return f"the total {total} exceeds {cons['sum_max']}"
    if "sum_eq" in cons and total != cons["sum_eq"]:
        return f"the total must be exactly {cons['sum_eq']}, it is {total}"
    return None
