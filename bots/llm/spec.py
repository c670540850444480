"""LLM bot specs: `openai:<model>`, `anthropic:<model>`, `openai-compatible:<model>@<base_url>`,
each optionally followed by `?settings`. Keys and default base URLs come from the environment of
the process running the bot (the server), never from the spec.

An openai-compatible spec names its own server, so whoever writes the spec chooses where the
request goes. A key therefore goes only to a URL it is bound to by whoever runs the process:
`OPENAI_COMPATIBLE_API_KEY` to `OPENAI_COMPATIBLE_BASE_URL`, and any further bindings passed as
`keys` ({base URL: name of the environment variable holding its key}: a server host's
configuration, or the URLs on the user's own command line). Every other URL gets a placeholder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from bots.llm.settings import LLMSettings, parse_settings

PROVIDERS = ("openai", "anthropic", "openai-compatible")

# Environment variables per provider: (API key, base URL).
ENV_VARS = {
    "openai": ("OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
    "openai-compatible": ("OPENAI_COMPATIBLE_API_KEY", "OPENAI_COMPATIBLE_BASE_URL"),
}
DEFAULT_BASE_URLS = {"openai": "https://api.openai.com/v1",
                     "anthropic": "https://api.anthropic.com"}
# Local servers (Ollama, llama.cpp, most vLLM setups) ignore the key, but the client needs one.
PLACEHOLDER_KEY = "not-needed"

_COMPAT = re.compile(r"^(?P<model>.+?)@(?P<base>https?://\S+)$")
# host[:port] of a base URL: no user info ("user@host"), nothing a parser could read two ways.
_NETLOC = re.compile(r"^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$")

# {base URL: environment variable holding the key for it}, for openai-compatible servers.
KeyBindings = Mapping[str, str]


class SpecError(ValueError):
    """A malformed LLM spec; the message shows the valid forms."""


FORMS = ("openai:<model>, anthropic:<model> or openai-compatible:<model>@<base_url>, "
         "optionally followed by ?key=value&... settings")


def is_llm_spec(spec: str) -> bool:
    return spec.partition(":")[0] in PROVIDERS


@dataclass(frozen=True)
class LLMSpec:
    provider: str
    model: str
    base_url: str
    settings: LLMSettings
    base_url_from: str  # "spec", the environment variable's name, or "default"

    @property
    def identity(self) -> str:
        """What ratings group by: the spec without settings (base URL only where it names the
        model's host, i.e. for openai-compatible)."""
        if self.provider == "openai-compatible":
            return f"{self.provider}:{self.model}@{self.base_url}"
        return f"{self.provider}:{self.model}"

    @property
    def key_var(self) -> str:
        return ENV_VARS[self.provider][0]

    def bound_key_var(self, environ: Mapping[str, str] | None = None,
                      keys: KeyBindings | None = None) -> str | None:
        """The environment variable whose key may go to this spec's server, or None (no key
        goes there). OpenAI and Anthropic: their own variable (their base URL is the host's
        choice too). openai-compatible: the variable `keys` binds to this base URL, else
        OPENAI_COMPATIBLE_API_KEY when this is OPENAI_COMPATIBLE_BASE_URL, else None."""
        if self.provider != "openai-compatible":
            return self.key_var
        env = os.environ if environ is None else environ
        url = normalise_url(self.base_url)
        for bound, var in (keys or {}).items():
            if normalise_url(bound) == url:
                return var
        own = env.get(ENV_VARS[self.provider][1], "").strip()
        if own and normalise_url(own) == url:
            return self.key_var
        return None

    def api_key(self, environ: Mapping[str, str] | None = None,
                keys: KeyBindings | None = None) -> str | None:
        """The key from the environment; None when a required key is missing. An
        openai-compatible server gets its bound key (see `bound_key_var`), else a placeholder."""
        env = os.environ if environ is None else environ
        var = self.bound_key_var(env, keys)
        key = env.get(var, "").strip() if var else ""
        if key:
            return key
        return PLACEHOLDER_KEY if self.provider == "openai-compatible" else None


def parse_spec(spec: str, environ: Mapping[str, str] | None = None) -> LLMSpec:
    """Parse and resolve a spec; SpecError (or SettingsError) names what is wrong."""
    env = os.environ if environ is None else environ
    provider, colon, rest = spec.partition(":")
    if provider not in PROVIDERS or not colon:
        raise SpecError(f"unknown LLM spec {spec!r}; use {FORMS}")
    body, _, query = rest.partition("?")
    settings = parse_settings(query)
    base_var = ENV_VARS[provider][1]
    if provider == "openai-compatible":
        match = _COMPAT.match(body)
        if match:
            model, base_url, source = match["model"], match["base"], "spec"
        elif env.get(base_var):
            model, base_url, source = body, env[base_var], base_var
        else:
            raise SpecError(f"{spec!r} names no server; write openai-compatible:<model>@<base_url>"
                            f" (e.g. openai-compatible:llama3.1@http://localhost:11434/v1) or set "
                            f"{base_var}")
    else:
        model = body
        if env.get(base_var):
            base_url, source = env[base_var], base_var
        else:
            base_url, source = DEFAULT_BASE_URLS[provider], "default"
    if not model.strip() or any(c.isspace() for c in model):
        raise SpecError(f"{spec!r} has no valid model name; use {FORMS}")
    if provider == "openai-compatible":
        check_base_url(base_url, spec)
    return LLMSpec(provider, model, base_url.rstrip("/"), settings, source)


def command_line_keys(spec: LLMSpec) -> dict[str, str]:
    """The binding a local user's own command line makes (`parlor sim`, `parlor bots check`):
    the openai-compatible server they typed gets OPENAI_COMPATIBLE_API_KEY. A server never
    does this for specs that come from its clients."""
    return {spec.base_url: spec.key_var} if spec.provider == "openai-compatible" else {}


def check_base_url(url: str, what: str) -> None:
    """SpecError unless `url` is a plain http(s) URL: a host (letters, digits, . _ ~ -, or an
    IPv6 address in brackets), an optional port and a path; no user info or fragment."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or \
            not _NETLOC.match(parts.netloc) or "@" in url or parts.query or parts.fragment:
        raise SpecError(f"{what!r}: the server address {url!r} is not a plain http(s) URL "
                        f"(http://HOST[:PORT]/PATH, no user@, query or #fragment)")


def normalise_url(url: str) -> str:
    """A base URL as compared for key bindings and allow patterns: scheme and host in lower
    case, no trailing slash."""
    parts = urlsplit(url.strip())
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"),
                       parts.query, parts.fragment))
