"""The host's bot policy: which bot specs this server seats, which openai-compatible server gets
which key, and how many LLM seats each player may take.

Clients type seat specs; the host pays for LLM calls and owns the keys. So a server seats only
specs matching the host's patterns (`parlor serve --allow-bots`, `--bots-config`; by default
scripted bots and random), sends a key for an openai-compatible server only to a base URL the
host bound it to, and counts each player's LLM seats (at once and per hour). docs/operations.md,
"Bots and keys", is the host's guide.

A pattern is matched against a spec's identity (settings after `?` are ignored), part by part:
`random`, `scripted:<name glob>`, `openai:<model glob>`, `anthropic:<model glob>`,
`openai-compatible:<model glob>@<base URL>` (scheme exact, host and path globbed separately, so
a `*` never reaches from the host into the path) or `@*` for any server, and `*` for every bot.
"""

from __future__ import annotations

import json
import os
import re
import time
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bots.llm.spec import (
    ENV_VARS,
    SpecError,
    check_base_url,
    command_line_keys,
    is_llm_spec,
    normalise_url,
    parse_spec,
)

if TYPE_CHECKING:
    from server.tables.table import Table

DEFAULT_ALLOW = ("random", "scripted:*")
DEFAULT_MAX_LLM_SEATS = 4  # per player, at tables under way (or with a person seated)
DEFAULT_MAX_LLM_SEATS_PER_HOUR = 20  # per player, LLM seats created in the last hour
HOUR = 3600.0
KINDS = ("random", "scripted", "openai", "anthropic", "openai-compatible")
PATTERN_FORMS = ("random, scripted:<name>, openai:<model>, anthropic:<model>, "
                 "openai-compatible:<model>@<base_url> (globs with * and [..]), or * for every bot")
CONFIG_FIELDS = ("allow", "keys", "max_llm_seats", "max_llm_seats_per_hour")
_ENV_VAR = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMPAT_PATTERN = re.compile(r"^(?P<model>.+?)@(?P<url>https?://\S+|\*)$")


class PolicyError(ValueError):
    """A bad pattern or bots config; the message is one line naming the problem."""


class LimitError(Exception):
    """A player's LLM seats would pass the host's limits; the message says which."""


# ----------------------------------------------------------------------------------- patterns
@dataclass(frozen=True)
class Pattern:
    text: str
    kind: str  # "*" or one of KINDS
    name: str = "*"  # glob over the scripted bot's name or the model
    url: str = "*"  # openai-compatible: the base URL pattern (normalised), or "*"

    def matches(self, kind: str, name: str, url: str = "") -> bool:
        if self.kind == "*":
            return True
        if self.kind != kind or not fnmatchcase(name, self.name):
            return False
        return kind != "openai-compatible" or url_matches(url, self.url)

    @property
    def llm(self) -> bool:
        return self.kind in ("*", "openai", "anthropic", "openai-compatible")


def url_matches(url: str, pattern: str) -> bool:
    """Scheme equal, host[:port] and path each matched by their own glob."""
    if pattern == "*":
        return True
    have, want = urlsplit(normalise_url(url)), urlsplit(pattern)
    return (have.scheme == want.scheme and fnmatchcase(have.netloc, want.netloc)
            and fnmatchcase(have.path, want.path))


def parse_pattern(text: str) -> Pattern:
    """One allow pattern; PolicyError names what is wrong and the valid forms."""
    text = text.strip()
    if not text:
        raise PolicyError(f"an empty bot pattern; patterns look like {PATTERN_FORMS}")
    if any(c.isspace() for c in text):
        raise PolicyError(f"bot pattern {text!r} contains a space; patterns look like "
                          f"{PATTERN_FORMS}")
    if "?" in text:
        raise PolicyError(f"bot pattern {text!r} contains '?': settings are not matched (a "
                          f"spec's ?settings are ignored) and the wildcard is *")
    if text == "*":
        return Pattern(text, "*")
    if text == "random":
        return Pattern(text, "random", "random")
    kind, colon, rest = text.partition(":")
    if kind not in KINDS or kind == "random" or not colon or not rest:
        raise PolicyError(f"bot pattern {text!r} is not one of: {PATTERN_FORMS}")
    if kind != "openai-compatible":
        return Pattern(text, kind, rest)
    found = _COMPAT_PATTERN.match(rest)
    if not found:
        raise PolicyError(f"bot pattern {text!r} names no server: write "
                          f"openai-compatible:<model>@<base_url> (e.g. "
                          f"openai-compatible:*@http://localhost:11434/v1), or @* for any server")
    url = found["url"]
    if url != "*":
        try:  # the URL a spec would need, with the globs read as letters
            check_base_url(re.sub(r"[*\[\]]", "0", url), text)
        except SpecError:
            raise PolicyError(f"bot pattern {text!r}: {url!r} is not a plain http(s) base URL "
                              f"(http://HOST[:PORT]/PATH)") from None
        url = normalise_url(url)
    return Pattern(text, kind, found["model"], url)


def parse_patterns(text: str, option: str = "--allow-bots") -> tuple[Pattern, ...]:
    """Comma-separated patterns (empty items between commas are skipped)."""
    items = [item for item in text.split(",") if item.strip()]
    if not items:
        raise PolicyError(f"{option} names no pattern; e.g. {option} 'scripted:*,random'")
    return tuple(parse_pattern(item) for item in items)


DEFAULT_PATTERNS = tuple(parse_pattern(p) for p in DEFAULT_ALLOW)


# ----------------------------------------------------------------------------------- policy
@dataclass(frozen=True)
class BotPolicy:
    """What a server seats. The default is the safe one: scripted bots and random only."""

    patterns: tuple[Pattern, ...] = DEFAULT_PATTERNS
    keys: Mapping[str, str] = field(default_factory=dict)  # base URL -> variable with its key
    max_llm_seats: int | None = DEFAULT_MAX_LLM_SEATS  # None: no limit
    max_llm_seats_per_hour: int | None = DEFAULT_MAX_LLM_SEATS_PER_HOUR
    # The specs come from the user's own command line (`parlor sim`): the openai-compatible
    # server a spec names gets OPENAI_COMPATIBLE_API_KEY. Never for specs from clients.
    bind_spec_urls: bool = False

    @classmethod
    def local(cls) -> BotPolicy:
        """The embedded server of local `parlor` play: every bot the user has keys for, no
        limits. Keys for openai-compatible servers still go only where the environment binds
        them (OPENAI_COMPATIBLE_BASE_URL): a spec typed in a client is never a binding."""
        return cls((parse_pattern("*"),), {}, None, None)

    @classmethod
    def command_line(cls) -> BotPolicy:
        """`parlor sim`: the specs are the user's own command line, so everything goes and the
        servers they name get their OPENAI_COMPATIBLE_API_KEY."""
        return cls((parse_pattern("*"),), {}, None, None, bind_spec_urls=True)

    @classmethod
    def from_options(cls, allow: str | None = None, config: str | None = None,
                     max_llm_seats: int | None = None,
                     max_llm_seats_per_hour: int | None = None) -> BotPolicy:
        """`parlor serve`'s options: patterns from --allow-bots and the config's `allow`
        (together; the default when neither names any), keys from the config, limits from the
        options, else the config, else the defaults (0 turns a limit off)."""
        settings = load_config(config) if config else {}
        patterns = parse_patterns(allow) if allow is not None else ()
        patterns += settings.get("allow", ())
        limits = []
        for option, name, default in ((max_llm_seats, "max_llm_seats", DEFAULT_MAX_LLM_SEATS),
                                      (max_llm_seats_per_hour, "max_llm_seats_per_hour",
                                       DEFAULT_MAX_LLM_SEATS_PER_HOUR)):
            value = option if option is not None else settings.get(name, default)
            if value < 0:
                raise PolicyError(f"--{name.replace('_', '-')} cannot be negative (0 turns the "
                                  f"limit off), got {value}")
            limits.append(value or None)
        return cls(patterns or DEFAULT_PATTERNS, settings.get("keys", {}), *limits)

    # -- seats ----------------------------------------------------------------------------------
    def allows(self, spec: str, environ: Mapping[str, str] | None = None) -> bool:
        """Whether a seat spec (no ROLE= prefix) may be seated. A malformed LLM spec raises
        its SpecError or SettingsError (a ValueError)."""
        if spec == "human" or any(p.kind == "*" for p in self.patterns):
            return True
        if is_llm_spec(spec):
            parsed = parse_spec(spec, environ)
            kind, name, url = parsed.provider, parsed.model, parsed.base_url
        else:
            kind, _, name = spec.partition("?")[0].partition(":")
            name = name or kind
            url = ""
        return any(p.matches(kind, name, url) for p in self.patterns)

    def refusal(self, spec: str, environ: Mapping[str, str] | None = None) -> str | None:
        """Why `spec` may not be seated here, or None. ValueError on a malformed LLM spec."""
        if self.allows(spec, environ):
            return None
        return (f"the host of this server does not allow the bot {spec.partition('?')[0]!r}; "
                f"bots allowed here: {self.describe()}")

    def keys_for(self, spec: str, environ: Mapping[str, str] | None = None
                 ) -> dict[str, str]:
        """The key bindings a bot for `spec` gets (bots/llm/spec.py)."""
        if not is_llm_spec(spec):
            return {}
        keys = dict(self.keys)
        if self.bind_spec_urls:
            keys = command_line_keys(parse_spec(spec, environ)) | keys
        return keys

    def describe(self) -> str:
        return ", ".join(p.text for p in self.patterns) or "none"

    @property
    def allows_llm(self) -> bool:
        return any(p.llm for p in self.patterns)

    # -- start-up summary -----------------------------------------------------------------------
    def summary_lines(self, environ: Mapping[str, str] | None = None) -> list[str]:
        """What `parlor serve` prints at start: the allowed bots, the limits, where keys go."""
        env = os.environ if environ is None else environ
        lines = [f"Bots allowed: {self.describe()}"]
        if not self.allows_llm:
            lines.append("LLM seats: none allowed (allow some with --allow-bots or "
                         "--bots-config; see docs/operations.md)")
            return lines
        at_once = "no limit at once" if self.max_llm_seats is None else \
            f"at most {self.max_llm_seats} at once"
        hourly = "no hourly limit" if self.max_llm_seats_per_hour is None else \
            f"{self.max_llm_seats_per_hour} per hour"
        lines.append(f"LLM seats per player: {at_once}, {hourly} (--max-llm-seats, "
                     f"--max-llm-seats-per-hour)")
        if not any(p.kind in ("*", "openai-compatible") for p in self.patterns):
            return lines + self._provider_notes(env)
        bindings = [(url, var, "") for url, var in self.keys.items()]
        own_url = env.get(ENV_VARS["openai-compatible"][1], "").strip()
        if own_url:
            bindings.append((own_url, ENV_VARS["openai-compatible"][0],
                             f" (from {ENV_VARS['openai-compatible'][1]})"))
        for url, var, source in bindings:
            state = "set" if env.get(var, "").strip() else "NOT SET: a placeholder is sent"
            lines.append(f"Key for {normalise_url(url)}: ${var} ({state}){source}")
            if not any(p.kind == "*" or (p.kind == "openai-compatible" and
                                         url_matches(url, p.url)) for p in self.patterns):
                lines.append(f"  note: no allowed pattern names {normalise_url(url)}")
        lines.append("Every other openai-compatible server gets no key (a placeholder)")
        return lines + self._provider_notes(env)

    def _provider_notes(self, env: Mapping[str, str]) -> list[str]:
        notes = []
        for provider in ("openai", "anthropic"):
            var = ENV_VARS[provider][0]
            if any(p.kind == provider for p in self.patterns) and not env.get(var, "").strip():
                notes.append(f"  note: {provider} bots are allowed but {var} is not set")
        return notes


def load_config(path: str | Path) -> dict[str, Any]:
    """A bots config file (`.toml`, else JSON): {allow: [patterns], keys: {base URL: ENV_VAR},
    max_llm_seats: N, max_llm_seats_per_hour: N}. PolicyError names what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except OSError as e:
        raise PolicyError(f"cannot read bots config {str(path)!r}: {e.strerror or e}") from None
    except (ValueError, tomllib.TOMLDecodeError) as e:
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON"
        raise PolicyError(f"bots config {str(path)!r} is not valid {kind}: "
                          f"{str(e).splitlines()[0]}") from None
    where = f"bots config {str(path)!r}"
    if not isinstance(data, dict):
        raise PolicyError(f"{where} must be an object with {', '.join(CONFIG_FIELDS)}")
    unknown = sorted(set(data) - set(CONFIG_FIELDS))
    if unknown:
        raise PolicyError(f"{where}: unknown field {unknown[0]!r}; valid fields: "
                          f"{', '.join(CONFIG_FIELDS)}")
    settings: dict[str, Any] = {}
    if "allow" in data:
        allow = data["allow"]
        if not isinstance(allow, list) or not all(isinstance(a, str) for a in allow):
            raise PolicyError(f"{where}: allow must be a list of patterns (strings)")
        settings["allow"] = tuple(parse_pattern(a) for a in allow)
    if "keys" in data:
        settings["keys"] = _keys(data["keys"], where)
    for name in ("max_llm_seats", "max_llm_seats_per_hour"):
        if name in data:
            value = data[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PolicyError(f"{where}: {name} must be a whole number, 0 or more (0: no "
                                  f"limit), got {value!r}")
            settings[name] = value
    return settings


def _keys(keys: Any, where: str) -> dict[str, str]:
    if not isinstance(keys, dict):
        raise PolicyError(f"{where}: keys must map base URLs to environment variable names, "
                          f"e.g. {{\"https://openrouter.ai/api/v1\": \"OPENROUTER_API_KEY\"}}")
    bound: dict[str, str] = {}
    for url, var in keys.items():
        try:
            check_base_url(url, url)
        except SpecError:
            raise PolicyError(f"{where}: keys: {url!r} is not a plain http(s) base URL "
                              f"(http://HOST[:PORT]/PATH, no globs)") from None
        if not isinstance(var, str) or not _ENV_VAR.fullmatch(var):
            raise PolicyError(f"{where}: keys: {url!r} must name an environment variable "
                              f"(the key itself never goes in the file), got {var!r}")
        bound[normalise_url(url)] = var
    return bound


# ----------------------------------------------------------------------------------- limits
def llm_seats(specs: Iterable[str]) -> int:
    return sum(is_llm_spec(s) for s in specs)


def holds_seats(table: Table) -> bool:
    """A table whose LLM seats count against its creator: under way, or waiting with a person
    seated (a waiting table nobody sits at costs nothing until someone joins)."""
    if table.status in ("starting", "playing"):
        return True
    return table.status == "waiting" and any(s.player is not None for s in table.seats)


class SeatLimits:
    """Each player's LLM seats: at tables they created that hold them (see `holds_seats`), and
    created in the last hour. None: no limit."""

    def __init__(self, at_once: int | None, per_hour: int | None,
                 clock: Any = time.monotonic) -> None:
        self.at_once = at_once
        self.per_hour = per_hour
        self.clock = clock
        self._tables: dict[str, list[tuple[str, int]]] = {}  # player -> [(table id, seats)]
        self._hour: dict[str, deque[tuple[float, str, int]]] = {}  # (when, table id, seats)

    def check(self, who: str, wanted: int, tables: Mapping[str, Table]) -> None:
        """LimitError if `who` may not take `wanted` more LLM seats now."""
        if wanted == 0:
            return
        if self.at_once is not None:
            held = [(tid, n) for tid, n in self._tables.get(who, [])
                    if tid in tables and tables[tid].status != "over"]
            self._tables[who] = held
            now_held = sum(n for tid, n in held if holds_seats(tables[tid]))
            if now_held + wanted > self.at_once:
                raise LimitError(
                    f"this table has {wanted} LLM seat(s) and you hold {now_held} at other "
                    f"tables; this server allows {self.at_once} per player at once. Finish or "
                    f"leave a game first")
        if self.per_hour is not None:
            recent = self._recent(who)
            used = sum(n for _, _, n in recent)
            if used + wanted > self.per_hour:
                wait = max(1, round((recent[0][0] + HOUR - self.clock()) / 60)) if recent else 60
                raise LimitError(
                    f"this table's {wanted} LLM seat(s) would make {used + wanted} in the last "
                    f"hour; this server allows {self.per_hour} per player per hour (the oldest "
                    f"frees in about {wait} min)")

    def record(self, who: str, table_id: str, seats: int) -> None:
        if seats:
            self._tables.setdefault(who, []).append((table_id, seats))
            self._hour.setdefault(who, deque()).append((self.clock(), table_id, seats))

    def refund(self, table_id: str) -> None:
        """A table removed before it was used (its creation was refused after all)."""
        for held in self._tables.values():
            held[:] = [(tid, n) for tid, n in held if tid != table_id]
        for recent in self._hour.values():
            kept = [r for r in recent if r[1] != table_id]
            recent.clear()
            recent.extend(kept)

    def _recent(self, who: str) -> deque[tuple[float, str, int]]:
        recent = self._hour.setdefault(who, deque())
        now = self.clock()
        while recent and now - recent[0][0] >= HOUR:
            recent.popleft()
        return recent
