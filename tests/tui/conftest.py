"""Fixtures for TUI tests: a real embedded Parlor server on loopback with a real SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest


@pytest.fixture
def server_db(tmp_path: Path) -> Path:
    return tmp_path / "saves" / "parlor.db"


@pytest.fixture
async def embedded(server_db: Path) -> AsyncIterator[object]:
    """The server runs in its own thread; the test's apps run on the test's event loop.

    The teardown stops the server from a worker thread so that the test loop keeps running:
    an app that just exited leaves its client's websocket close handshake to finish on that
    loop. A blocking `server.stop()` here froze the loop mid-handshake, and the server, voiding
    the running game on shutdown, then waited its 10 s close timeout on every such connection
    (websockets' `send` on a CLOSING connection waits for the TCP close), 10-20 s per test."""
    from server.net.embedded import start_embedded

    server_db.parent.mkdir(parents=True, exist_ok=True)
    # Tests seed their tables with people for determinism, which a host must allow.
    server = await asyncio.to_thread(start_embedded, str(server_db), client_seeds=True)
    try:
        yield server
    finally:
        await asyncio.to_thread(server.stop)
