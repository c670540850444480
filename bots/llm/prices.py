"""Token prices and the cost of a call. The table ships in prices.json; a user file named by the
PARLOR_PRICES environment variable adds entries or overrides shipped ones."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHIPPED = Path(__file__).with_name("prices.json")
USER_FILE_VAR = "PARLOR_PRICES"
# A dated snapshot or alias of a listed model: gpt-4o-2024-08-06, claude-3-5-haiku-20241022.
_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$")


class PriceError(ValueError):
    """The user price file is unreadable or malformed."""


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cached_input: float | None = None  # None: cached tokens cost the input price

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        """`prompt_tokens` includes the cached ones (as OpenAI reports them)."""
        cached_rate = self.input if self.cached_input is None else self.cached_input
        fresh = max(prompt_tokens - cached_tokens, 0)
        return (fresh * self.input + cached_tokens * cached_rate
                + completion_tokens * self.output) / 1_000_000

    def to_json(self) -> dict[str, Any]:
        return {"input": self.input, "cached_input": self.cached_input, "output": self.output}


def _read(path: Path) -> dict[str, Price]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise PriceError(f"cannot read price file {path}: {e}") from None
    if not isinstance(data, dict):
        raise PriceError(f"price file {path} must hold a JSON object of provider:model entries")
    table = {}
    for key, entry in data.items():
        if key.startswith("_"):
            continue
        try:
            table[key] = Price(float(entry["input"]), float(entry["output"]),
                               None if entry.get("cached_input") is None
                               else float(entry["cached_input"]))
        except (TypeError, KeyError, ValueError):
            raise PriceError(f"price entry {key!r} in {path} needs numbers 'input' and 'output' "
                             f"(USD per million tokens) and optionally 'cached_input'") from None
    return table


def load_prices(environ: Mapping[str, str] | None = None) -> dict[str, Price]:
    env = os.environ if environ is None else environ
    table = _read(SHIPPED)
    if env.get(USER_FILE_VAR):
        table.update(_read(Path(env[USER_FILE_VAR]).expanduser()))
    return table


def find_price(table: Mapping[str, Price], provider: str, model: str, identity: str
               ) -> Price | None:
    """The entry for a bot: its identity, then provider:model, then the model without a date
    suffix. None when unknown (the cost is then reported as 0)."""
    for key in (identity, f"{provider}:{model}", f"{provider}:{_SNAPSHOT.sub('', model)}"):
        if key in table:
            return table[key]
    return None
