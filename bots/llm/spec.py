"""LLM bot specs: `openai:<model>`, `anthropic:<model>`, `openai-compatible:<model>@<base_url>`,
each optionally followed by `?settings`. Keys and default base URLs come from the environment of
the process running the bot (the server), never from the spec.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

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

    def api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        """The key from the environment; None when a required key is missing."""
        env = os.environ if environ is None else environ
        key = env.get(self.key_var, "").strip()
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
    return LLMSpec(provider, model, base_url.rstrip("/"), settings, source)
