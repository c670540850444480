"""Per-bot settings: sampling, limits, retries and context budget, read from a spec's `?query`.

`openai:gpt-4o-mini?temperature=0.2&max_tokens=256&vote.temperature=0` sets temperature 0.2 and
256 output tokens, and temperature 0 in the env's `vote` phase. Settings never change a bot's
identity (ratings group by the spec without its query); they are stamped on the seat instead.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

# Settings a phase may override: the ones that shape one request, not the bot's plumbing.
SAMPLING_KEYS = ("temperature", "top_p", "max_tokens", "reasoning_effort")
EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")


class SettingsError(ValueError):
    """A setting is unknown or has a bad value; the message lists what is allowed."""


@dataclass(frozen=True)
class LLMSettings:
    temperature: float | None = None  # None: the provider's default
    top_p: float | None = None
    max_tokens: int = 1024  # output tokens per call (reasoning models need room to think)
    reasoning_effort: str | None = None  # OpenAI reasoning_effort / Anthropic output effort
    seed: int | None = None  # sent where the API takes one (OpenAI and most compatible servers)
    timeout: float = 60.0  # seconds per call, connection to last byte
    retries: int = 4  # further attempts after a failed call (timeouts, 429, 5xx, resets)
    backoff: float = 1.0  # first backoff in seconds; doubles per attempt, with jitter
    backoff_max: float = 30.0
    max_wait: float = 120.0  # longest Retry-After honoured; a longer one fails the call at once
    concurrency: int = 4  # calls in flight at once per bot identity in this process
    rpm: int = 0  # requests per minute per bot identity; 0 = no limit
    context_tokens: int = 16000  # prompt budget (estimated at 4 characters per token)
    reask: bool = True  # re-ask once, with the parser's error, when an answer is unusable
    # Settings one env's prompts read (the builder's `configure` refuses them elsewhere):
    planner: bool | None = None  # AmongAgents: feed the previous thought back (None: on)
    persona: str = ""  # AmongAgents: a persona key, "none", or "" (dealt from the bot's seed)
    interview: bool | None = None  # AmongAgents: the interviewer's questions (§14.1; None: off)
    phases: dict[str, dict[str, Any]] = field(default_factory=dict)

    def for_phase(self, phase: str) -> dict[str, Any]:
        """The sampling settings for one call in `phase` (phase overrides win)."""
        params = {k: getattr(self, k) for k in SAMPLING_KEYS}
        params.update(self.phases.get(phase, {}))
        return params

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_FIELDS = {f.name: f for f in dataclasses.fields(LLMSettings) if f.name != "phases"}
_NULLABLE = {"temperature", "top_p", "reasoning_effort", "seed", "planner", "interview"}


def parse_settings(query: str) -> LLMSettings:
    """Settings from `k=v&k=v` (the part of a spec after `?`); `<phase>.<key>=v` overrides a
    sampling setting in one phase."""
    values: dict[str, Any] = {}
    phases: dict[str, dict[str, Any]] = {}
    for key, raw in parse_qsl(query, keep_blank_values=True, strict_parsing=False):
        phase, dot, name = key.rpartition(".")
        if dot:
            if name not in SAMPLING_KEYS or not phase:
                raise SettingsError(f"unknown phase setting {key!r}; a phase may override "
                                    f"{', '.join(SAMPLING_KEYS)} (e.g. vote.temperature=0)")
            phases.setdefault(phase, {})[name] = _convert(name, raw)
        elif key in _FIELDS:
            values[key] = _convert(key, raw)
        else:
            raise SettingsError(f"unknown setting {key!r}; valid settings: "
                                f"{', '.join(_FIELDS)} and <phase>.<{'|'.join(SAMPLING_KEYS)}>")
    settings = LLMSettings(**values, phases=phases)
    _validate(settings)
    return settings


def _convert(name: str, raw: str) -> Any:
    kind = _FIELDS[name].type
    if name in _NULLABLE and raw.lower() in ("", "none", "default"):
        return None
    try:
        if "bool" in str(kind):
            if raw.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError
            return raw.lower() in ("1", "true", "yes", "on")
        if "float" in str(kind):
            return float(raw)
        if "int" in str(kind):
            return int(raw)
    except ValueError:
        raise SettingsError(f"setting {name} needs a {str(kind).split(' |')[0]}, "
                            f"got {raw!r}") from None
    return raw


def _validate(s: LLMSettings) -> None:
    problems = []
    for params in [s.for_phase(p) for p in s.phases] + [s.for_phase("")]:
        t, p, effort = params["temperature"], params["top_p"], params["reasoning_effort"]
        if t is not None and not 0 <= t <= 2:
            problems.append(f"temperature must be between 0 and 2, got {t}")
        if p is not None and not 0 < p <= 1:
            problems.append(f"top_p must be in (0, 1], got {p}")
        if params["max_tokens"] < 1:
            problems.append(f"max_tokens must be at least 1, got {params['max_tokens']}")
        if effort is not None and effort not in EFFORTS:
            problems.append(f"reasoning_effort must be one of {', '.join(EFFORTS)}, "
                            f"got {effort!r}")
    for name in ("timeout", "backoff", "backoff_max", "max_wait"):
        if getattr(s, name) < 0:
            problems.append(f"{name} cannot be negative")
    if s.timeout == 0:
        problems.append("timeout must be more than 0 seconds")
    if s.retries < 0 or s.rpm < 0:
        problems.append("retries and rpm cannot be negative")
    if s.concurrency < 1:
        problems.append("concurrency must be at least 1")
    if s.persona and not s.persona.replace("-", "").isalpha():
        problems.append(f"persona must be a persona's name (letters and dashes), got "
                        f"{s.persona!r}")
    if s.context_tokens < 500:
        problems.append("context_tokens must be at least 500")
    if problems:
        raise SettingsError("; ".join(dict.fromkeys(problems)))
