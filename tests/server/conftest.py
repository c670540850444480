"""A real server on 127.0.0.1 with a real SQLite file, and a protocol client for tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.net.app import Server
from server.net.limits import UNLIMITED
from server.wire import protocol as p


class Client:
    """Speaks protocol v1 over a real websocket and keeps every message it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self._ids = 0

    @classmethod
    async def connect(cls, url: str, name: str | None = None, token: str | None = None
                      ) -> Client:
        client = cls(await connect(url))
        if name is not None:
            body = {"name": name} | ({"token": token} if token else {})
            client.welcome = await client.request("hello", **body)
        return client

    async def send_raw(self, raw: str) -> None:
        await self.ws.send(raw)

    async def send(self, type: str, **body: Any) -> int:
        self._ids += 1
        await self.ws.send(json.dumps(p.request(type, self._ids, **body)))
        return self._ids

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(msg)
        return msg

    async def wait_for(self, type: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """Next message of `type` (whose fields equal `match`), skipping others."""
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == type and all(msg.get(k) == v for k, v in match.items()):
                return msg

    async def request(self, type: str, **body: Any) -> dict[str, Any]:
        """Send a request and return the reply that refers to it (ignoring interleaved pushes)."""
        ref = await self.send(type, **body)
        while True:
            msg = await self.recv()
            if msg.get("ref") == ref:
                return msg

    async def close(self) -> None:
        await self.ws.close()


@pytest.fixture
async def make_server(tmp_path):
    """Start servers with chosen options; all are stopped at the end of the test."""
    started: list[Server] = []

    async def make(**options: Any) -> Server:
        # Tests drive clients much faster than people: a test of a limit sets it. They seed
        # tables with people for determinism (client_seeds; tests/server/net/test_secrets.py plays
        # with the host's default, which refuses them).
        options = {"turn_timeout": 30, "disconnect_grace": 30, "limits": UNLIMITED,
                   "client_seeds": True} | options
        srv = Server(str(tmp_path / "parlor.db"), **options)
        await srv.start("127.0.0.1", 0)
        started.append(srv)
        return srv

    yield make
    for srv in started:
        await srv.stop()


@pytest.fixture
async def server(make_server):
    return await make_server()


def schema_at(conn: Any, version: int) -> None:
    """Make `conn`'s database what the store's schema `version` made (an older Parlor's file)."""
    from server.store.migrations import MIGRATIONS

    for script in MIGRATIONS[:version]:
        conn.executescript(script)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (?)", (version,))


def figures(out: str, label: str) -> list[str]:
    """The values on the row of `parlor sim`'s metrics table labelled `label` (the first such
    row): one value for an overall figure, one per group in a breakdown's table."""
    for line in out.splitlines():
        text = line.strip()
        rest = text[len(label):]
        if text.startswith(label) and (not rest or rest.startswith("  ")):
            return rest.split()
    raise AssertionError(f"no row labelled {label!r} in:\n{out}")
