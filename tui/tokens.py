"""Where the TUI keeps the token each server gave us, so our name stays ours across restarts.

One small JSON file, `$PARLOR_HOME/tokens.json` (default `~/.config/parlor/`), mapping a server
key (its URL, or `local:<database path>` for the embedded server, whose port changes every run)
to the token. A file that is missing or unreadable just means no token yet.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def token_file() -> Path:
    home = os.environ.get("PARLOR_HOME") or Path.home() / ".config" / "parlor"
    return Path(home) / "tokens.json"


def load_token(key: str, path: Path | None = None) -> str | None:
    try:
        tokens = json.loads((path or token_file()).read_text())
    except (OSError, ValueError):
        return None
    token = tokens.get(key) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) else None


def save_token(key: str, token: str, path: Path | None = None) -> None:
    path = path or token_file()
    try:
        tokens = json.loads(path.read_text())
        if not isinstance(tokens, dict):
            tokens = {}
    except (OSError, ValueError):
        tokens = {}
    if tokens.get(key) == token:
        return
    tokens[key] = token
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(tokens, indent=1))
        path.chmod(0o600)  # a token is a password for a name
    except OSError:
        pass  # cannot save: the name is simply not kept across restarts
