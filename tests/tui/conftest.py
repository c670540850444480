"""Fixtures for TUI tests: a real embedded Parlor server on loopback with a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def server_db(tmp_path: Path) -> Path:
    return tmp_path / "saves" / "parlor.db"


@pytest.fixture
def embedded(server_db: Path) -> Iterator[object]:
    from server.embedded import start_embedded

    server_db.parent.mkdir(parents=True, exist_ok=True)
    server = start_embedded(str(server_db))
    try:
        yield server
    finally:
        server.stop()
