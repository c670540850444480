"""Imports point one way: the engine loads no I/O library, the TUI never loads the engine."""

import subprocess
import sys

FORBIDDEN_IN_ENGINE = ["textual", "websockets", "sqlite3", "aiosqlite", "openai", "anthropic",
                       "asyncio", "server", "bots", "tui"]


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {m.split(".")[0] for m in out.stdout.split()}


def test_engine_is_pure():
    loaded = _loaded_after("import engine.registry as r; r.load_all()")
    assert not loaded & set(FORBIDDEN_IN_ENGINE), loaded & set(FORBIDDEN_IN_ENGINE)


def test_protocol_stands_alone():
    loaded = _loaded_after("import server.wire.protocol")
    assert not loaded & {"engine", "bots", "aiosqlite", "textual", "websockets"}


def test_tui_never_imports_engine():
    loaded = _loaded_after("import tui.app")
    assert "engine" not in loaded and "bots" not in loaded
