"""Where the TUI keeps the tokens servers gave us, so each name stays its owner's across restarts.

One small JSON file, `$PARLOR_HOME/tokens.json` (default `~/.config/parlor/`), mapping a server
key (its URL, or `local:<database path>` for the embedded server, whose port changes every run)
to {name: token}: two people on one machine, each with `--name`, keep a token each. A file that
is missing or unreadable just means no token yet.

Files written before tokens were kept per name map a server straight to one token; that token is
kept under the name UNKNOWN and offered for any name without a token of its own, and the server
honours it only for the name it belongs to.
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path
from typing import Any

UNKNOWN = ""  # the name of a token kept in the old shape, until its owner says hello


def token_file() -> Path:
    home = os.environ.get("PARLOR_HOME") or Path.home() / ".config" / "parlor"
    return Path(home) / "tokens.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        tokens = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return tokens if isinstance(tokens, dict) else {}


def _folded(name: str) -> str:
    """Names the server holds for one person (`ALICE`, `alice`) find one token."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def load_token(key: str, name: str, path: Path | None = None) -> str | None:
    entry = _read(path or token_file()).get(key)
    if isinstance(entry, dict):
        entry = entry.get(_folded(name)) or entry.get(UNKNOWN)
    return entry if isinstance(entry, str) else None


def save_token(key: str, name: str, token: str, path: Path | None = None) -> None:
    path = path or token_file()
    tokens = _read(path)
    entry = tokens.get(key)
    names = dict(entry) if isinstance(entry, dict) else {UNKNOWN: entry}
    if names.get(UNKNOWN) in (token, None):
        names.pop(UNKNOWN, None)  # an old token found its owner (or there was none)
    names[_folded(name)] = token
    if names == entry:
        return
    tokens[key] = names
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(tokens, indent=1))
        path.chmod(0o600)  # a token is a password for a name
    except OSError:
        pass  # cannot save: the name is simply not kept across restarts
