"""Env configs: frozen dataclasses, type-checked and valid when made, with a lossless JSON form.

A config field may be annotated with:

- `bool`, `int` (a bool is not an int), `float` (an int is accepted and stored as a float; it must
  be finite, since NaN and infinities have no exact JSON form), `str`;
- an `enum.Enum` subclass whose member values are strings or numbers (JSON holds the value);
- `Literal[...]` of strings, ints or bools;
- `X | None` (or `Optional[X]`) for any supported X (JSON null);
- `tuple[T, ...]` and fixed `tuple[T1, T2]` (JSON lists; a list given when the config is made is
  stored as a tuple, so configs stay hashable);
- a nested frozen dataclass whose fields follow the same rules (a JSON object).

Mappings, lists, sets and anything else are refused with a TypeError the first time the class is
used (configs must be hashable: they key caches). Each class's annotations are resolved once and
turned into per-field checkers, cached in `_PLANS`, because configs are made per table.

Every config satisfies `type(c).from_json(json.loads(json.dumps(c.to_json()))) == c` (and the
hashes match).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Union

from engine.errors import ConfigError

_MISSING = dataclasses.MISSING
# What a client sees for a hidden config field that is set (`Config.public_json`): no id or hash,
# since an instance's id or content hash finds its answer in a public dataset.
HIDDEN: dict[str, Any] = {"hidden": True}


def _show(value: Any) -> str:
    """A value as a user writes it in JSON (strings bare, as in "one of rank, paper")."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


class _WrongType(ConfigError):
    """A value of the wrong type at `path`; `expected` completes "must be ..."."""

    def __init__(self, path: str, expected: str, value: Any) -> None:
        super().__init__(f"config {path} must be {expected}, got {value!r}")
        self.path, self.expected = path, expected


def _fail(path: str, desc: str, value: Any) -> ConfigError:
    return _WrongType(path, desc, value)


# ------------------------------------------------------------------------------ per-type checkers
class _Kind:
    """How one annotation is checked when a config is made (`check`), read from JSON (`decode`)
    and written to JSON (`encode`). `check` and `decode` return the canonical value (the same
    object when it already is). `exact` is a type whose exact instances are canonical and valid
    without calling `check`; `plain` means `encode` is the identity."""

    exact: type | None = None
    plain = True
    desc = ""  # "an integer": completes "config x must be ..."
    plural = ""  # "integers": completes "a list of ..."

    def check(self, value: Any, path: str) -> Any:
        raise NotImplementedError

    def decode(self, value: Any, path: str) -> Any:
        return self.check(value, path)

    def encode(self, value: Any) -> Any:
        return value


class _Bool(_Kind):
    exact, desc, plural = bool, "true or false", "true/false values"

    def check(self, value: Any, path: str) -> Any:
        if value.__class__ is bool:
            return value
        raise _fail(path, self.desc, value)


class _Int(_Kind):
    exact, desc, plural = int, "an integer", "integers"

    def check(self, value: Any, path: str) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value if value.__class__ is int else int(value)
        raise _fail(path, self.desc, value)


class _Float(_Kind):
    desc, plural = "a number", "numbers"

    def check(self, value: Any, path: str) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
            if math.isfinite(number):
                return value if value.__class__ is float else number
            raise _fail(path, "a finite number", value)
        raise _fail(path, self.desc, value)


class _Str(_Kind):
    exact, desc, plural = str, "a string", "strings"

    def check(self, value: Any, path: str) -> Any:
        if isinstance(value, str):
            return value if value.__class__ is str else str.__str__(value)
        raise _fail(path, self.desc, value)


class _Choice(_Kind):
    """`Literal[...]`: the value must equal one of the choices, with the same type (so True is
    not 1)."""

    def __init__(self, choices: tuple[Any, ...]) -> None:
        self.choices = frozenset((c.__class__, c) for c in choices)
        names = ", ".join(_show(c) for c in choices)
        self.desc, self.plural = f"one of {names}", f"values from {names}"

    def check(self, value: Any, path: str) -> Any:
        try:
            if (value.__class__, value) in self.choices:
                return value
        except TypeError:  # unhashable
            pass
        raise _fail(path, self.desc, value)


class _Enum(_Kind):
    """An Enum: a member when made, the member's value in JSON."""

    plain = False

    def __init__(self, cls: type[enum.Enum]) -> None:
        self.cls = cls
        self.by_value = {(m.value.__class__, m.value): m for m in cls}
        names = ", ".join(_show(m) for m in cls)
        self.desc, self.plural = f"one of {names}", f"values from {names}"

    def check(self, value: Any, path: str) -> Any:
        if isinstance(value, self.cls):
            return value
        raise _fail(path, self.desc, value)

    def decode(self, value: Any, path: str) -> Any:
        if isinstance(value, self.cls):
            return value
        try:
            return self.by_value[value.__class__, value]
        except (KeyError, TypeError):
            raise _fail(path, self.desc, value) from None

    def encode(self, value: Any) -> Any:
        return value.value


class _Optional(_Kind):
    def __init__(self, inner: _Kind) -> None:
        self.inner, self.plain = inner, inner.plain
        self.desc, self.plural = f"{inner.desc} or null", f"{inner.plural} or nulls"

    def check(self, value: Any, path: str) -> Any:
        if value is None:
            return None
        try:
            return self.inner.check(value, path)
        except _WrongType as err:
            raise _or_null(err, path, value) from None

    def decode(self, value: Any, path: str) -> Any:
        if value is None:
            return None
        try:
            return self.inner.decode(value, path)
        except _WrongType as err:
            raise _or_null(err, path, value) from None

    def encode(self, value: Any) -> Any:
        return None if value is None else self.inner.encode(value)


def _or_null(err: _WrongType, path: str, value: Any) -> ConfigError:
    """When the value itself has the wrong type, say that null is allowed too; errors deeper
    inside (an item of a list, a key of an object) keep their own message."""
    return _fail(path, f"{err.expected} or null", value) if err.path == path else err


class _Tuple(_Kind):
    """`tuple[T, ...]` (items is one kind, fixed None) or `tuple[T1, T2]` (a kind per item)."""

    def __init__(self, items: tuple[_Kind, ...], variadic: bool) -> None:
        self.items, self.variadic = items, variadic
        self.plain = False
        if variadic:
            inner = items[0].plural
        elif items and all(k is items[0] for k in items) and items[0] in _PRIMITIVES.values():
            inner = f"{len(items)} {items[0].plural}"  # "2 integers"
        else:
            inner = f"{len(items)} items ({', '.join(k.desc for k in items)})"
        self.desc, self.plural = f"a list of {inner}", f"lists of {inner}"

    def _convert(self, value: Any, path: str, decode: bool) -> Any:
        if not isinstance(value, (list, tuple)):
            raise _fail(path, self.desc, value)
        if self.variadic:
            kinds: Any = (self.items[0],) * len(value)
        elif len(value) != len(self.items):
            raise _fail(path, self.desc, value)
        else:
            kinds = self.items
        out = tuple(k.decode(v, f"{path}[{i}]") if decode else k.check(v, f"{path}[{i}]")
                    for i, (k, v) in enumerate(zip(kinds, value, strict=True)))
        if value.__class__ is tuple and all(a is b for a, b in zip(out, value, strict=True)):
            return value
        return out

    def check(self, value: Any, path: str) -> Any:
        return self._convert(value, path, False)

    def decode(self, value: Any, path: str) -> Any:
        return self._convert(value, path, True)

    def encode(self, value: Any) -> Any:
        if self.variadic:
            kind = self.items[0]
            return list(value) if kind.plain else [kind.encode(v) for v in value]
        return [k.encode(v) for k, v in zip(self.items, value, strict=True)]


class _Nested(_Kind):
    """A nested frozen dataclass: an instance when made, a JSON object in JSON."""

    plain = False

    def __init__(self, cls: type) -> None:
        self.cls, self.plan = cls, _plan_of(cls)  # checks the nested class's annotations now
        keys = ", ".join(self.plan.names)
        self.instance = f"{'an' if cls.__name__[:1] in 'AEIOU' else 'a'} {cls.__name__}"
        self.desc, self.plural = f"an object with keys {keys}", f"objects with keys {keys}"

    def check(self, value: Any, path: str) -> Any:
        # Exactly the declared class: a subclass's extra fields would be lost in JSON.
        if value.__class__ is not self.cls:
            raise _fail(path, self.instance, value)
        if not isinstance(value, Config):  # a Config checked itself when it was made
            self.plan.check(value, f"{path}.")
        return value

    def decode(self, value: Any, path: str) -> Any:
        if value.__class__ is self.cls:
            return self.check(value, path)
        if not isinstance(value, Mapping):
            raise _fail(path, self.desc, value)
        return self.plan.build(self.cls, self.plan.decode(value, f"{path}."), f"{path}.")

    def encode(self, value: Any) -> Any:
        return self.plan.encode(value)


# ---------------------------------------------------------------------------------- class plans
_PRIMITIVES: dict[Any, _Kind] = {bool: _Bool(), int: _Int(), float: _Float(), str: _Str()}
_JSON_SCALARS = (str, int, float)


def _kind_of(hint: Any, where: str) -> _Kind:
    """The checker for one annotation; TypeError names the field and what to use instead."""
    if hint in _PRIMITIVES:
        return _PRIMITIVES[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) == 1 and len(args) == 2:
            inner = _kind_of(rest[0], where)
            if isinstance(inner, _Optional):
                return inner
            return _Optional(inner)
        raise TypeError(f"{where}: unsupported annotation {hint!r}; a config field may be one "
                        "type or one type | None")
    if origin is Literal:
        for choice in args:
            if choice.__class__ not in (str, int, bool):
                raise TypeError(f"{where}: Literal choices must be strings, ints or bools, "
                                f"got {choice!r}")
        return _Choice(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _Tuple((_kind_of(args[0], where),), variadic=True)
        if Ellipsis in args:
            raise TypeError(f"{where}: unsupported annotation {hint!r}")
        return _Tuple(tuple(_kind_of(a, where) for a in args), variadic=False)
    if isinstance(hint, type):
        if issubclass(hint, enum.Enum):
            for member in hint:
                if member.value.__class__ not in _JSON_SCALARS:
                    raise TypeError(f"{where}: enum {hint.__name__} must have string or number "
                                    f"values to have a JSON form, got {member!r}")
                if isinstance(member.value, float) and not math.isfinite(member.value):
                    raise TypeError(f"{where}: enum {hint.__name__} has a non-finite value")
            return _Enum(hint)
        if dataclasses.is_dataclass(hint):
            if not hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                raise TypeError(f"{where}: nested dataclass {hint.__name__} must be frozen "
                                "(configs must be hashable)")
            return _Nested(hint)
    if hint is tuple:
        raise TypeError(f"{where}: give the item type, e.g. tuple[str, ...]")
    if origin in (dict, list, set, frozenset) or hint in (dict, list, set, frozenset) or (
            isinstance(origin, type) and issubclass(origin, Mapping)) or (
            isinstance(hint, type) and issubclass(hint, Mapping)):
        raise TypeError(f"{where}: unsupported annotation {hint!r}; configs must be hashable, so "
                        "use tuple[...] for sequences and a nested frozen dataclass for mappings")
    raise TypeError(f"{where}: unsupported annotation {hint!r}; use bool, int, float, str, an "
                    "Enum, Literal[...], tuple[...], a nested frozen dataclass, or X | None")


class _Plan:
    """A dataclass's init fields with their checkers, in declaration order."""

    __slots__ = ("names", "fields", "kinds", "slow", "encoded", "required", "valid")

    def __init__(self, cls: type) -> None:
        try:
            hints = typing.get_type_hints(cls)
        except Exception as err:  # NameError for an unresolvable forward reference, ...
            raise TypeError(f"cannot resolve the field annotations of {cls.__qualname__}: "
                            f"{err}") from err
        fields = [f for f in dataclasses.fields(cls) if f.init]
        self.names = tuple(f.name for f in fields)
        self.fields = tuple((f.name, _kind_of(hints[f.name], f"{cls.__qualname__}.{f.name}"))
                            for f in fields)
        self.kinds = dict(self.fields)
        self.valid = ", ".join(sorted(self.names))
        # A value of its kind's `exact` type needs no `check`.
        self.slow = tuple((name, kind.exact, kind) for name, kind in self.fields)
        self.encoded = tuple((name, None if kind.plain else kind) for name, kind in self.fields)
        self.required = frozenset(f.name for f in fields if f.default is _MISSING
                                  and f.default_factory is _MISSING)

    def check(self, obj: Any, prefix: str = "") -> None:
        """Check every field of `obj`, storing canonical values (list -> tuple, int -> float)."""
        for name, exact, kind in self.slow:
            value = getattr(obj, name)
            if value.__class__ is exact:
                continue
            canonical = kind.check(value, prefix + name)
            if canonical is not value:
                object.__setattr__(obj, name, canonical)

    def decode(self, data: Any, prefix: str = "") -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise ConfigError(f"config {prefix.rstrip('.') or 'data'} must be an object with "
                              f"keys {', '.join(self.names)}, got {data!r}")
        kinds, values = self.kinds, {}
        for key, value in data.items():
            kind = kinds.get(key)
            if kind is None:
                raise self._unknown(data, prefix)
            values[key] = value if value.__class__ is kind.exact else kind.decode(
                value, prefix + key)
        return values

    def _unknown(self, data: Mapping[Any, Any], prefix: str) -> ConfigError:
        unknown = sorted(str(k) for k in data if k not in self.kinds)
        valid = self.valid if not prefix else ", ".join(prefix + k for k in sorted(self.names))
        return ConfigError(f"unknown config key(s) {', '.join(prefix + k for k in unknown)}; "
                           f"valid keys: {valid}")

    def build(self, cls: type, values: dict[str, Any], prefix: str = "") -> Any:
        missing = sorted(self.required - values.keys())
        if missing:
            raise ConfigError(f"missing config key(s) {', '.join(prefix + k for k in missing)}")
        obj = cls(**values)
        if not isinstance(obj, Config):
            self.check(obj, prefix)
        return obj

    def encode(self, obj: Any) -> dict[str, Any]:
        return {name: getattr(obj, name) if kind is None else kind.encode(getattr(obj, name))
                for name, kind in self.encoded}


_PLANS: dict[type, _Plan] = {}
_PLANNING: set[type] = set()  # classes whose plan is being made (to refuse recursive configs)


def _plan_of(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        if cls in _PLANNING:
            raise TypeError(f"{cls.__qualname__} contains itself; recursive configs are not "
                            "supported")
        _PLANNING.add(cls)
        try:
            plan = _PLANS[cls] = _Plan(cls)
        finally:
            _PLANNING.discard(cls)
    return plan


# ---------------------------------------------------------------------------------------- Config
@dataclass(frozen=True)
class Config:
    """Base of every env's config. Subclasses are frozen dataclasses with defaults; a config is
    type-checked and validated when it is made, so every Config in existence is valid."""

    # Fields a seat must not see before the game ends (an imported puzzle with its answer, a
    # recorded game with its words): clients get `public_json`; the store keeps `to_json`.
    hidden_fields: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        cls = self.__class__
        plan = _PLANS.get(cls) or _plan_of(cls)
        plan.check(self)
        self.validate()

    def validate(self) -> None:
        """Raise ConfigError with an actionable message when a value is out of range."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: tuples as lists, enums as their values, nested dataclasses as objects."""
        return _plan_of(self.__class__).encode(self)

    def public_json(self) -> dict[str, Any]:
        """`to_json` with each hidden field that is set replaced by HIDDEN: what lobbies, join
        replies and every other message show before the game ends (the game's hidden setup
        reveals what it was at the end)."""
        data = self.to_json()
        for name in self.hidden_fields:
            value = data.get(name)
            # Set is anything but null or empty: a seat number 0 is as secret as any other.
            if value is not None and value != "" and value != []:
                data[name] = dict(HIDDEN)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        """Build and validate a config from its JSON form (missing keys take their defaults);
        unknown keys and wrong types raise ConfigError."""
        plan = _plan_of(cls)
        return plan.build(cls, plan.decode(data))


def field_names(config_cls: type[Config]) -> list[str]:
    return [f.name for f in dataclasses.fields(config_cls)]


def config_hash(config: str | Mapping[str, Any]) -> str:
    """12 hex digits naming a config (the sha256 of its canonical JSON: keys sorted, compact,
    ASCII), the same for equal configs whatever their preset's name: what `parlor report`
    pools by (`--config-hash`) and what the games dataset names."""
    loaded = json.loads(config) if isinstance(config, str) else config
    text = json.dumps(loaded, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]
