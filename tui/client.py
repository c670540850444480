"""The websocket client. It runs in a Textual worker and turns every server frame into a message.

The app owns one `ParlorClient`. `connect()` starts the worker; frames arrive as `Received`
messages posted to the app; `send()` queues a request (protocol v1, `server.wire.protocol.request`)
that the worker writes. Losing the connection posts `Disconnected` with a reason a person can read.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import ssl
from typing import Any

from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import Worker
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from server.wire.protocol import (
    MAX_MESSAGE_BYTES,
    client_ssl,
    decode_server_message,
    encode,
    request,
)

# Server frames can carry a whole game view; allow more than a client may send.
MAX_INBOUND_BYTES = 16 * MAX_MESSAGE_BYTES
OPEN_TIMEOUT = 5.0


class ParlorClient:
    """One connection to a Parlor server, driven by a worker of `owner` (the app)."""

    class Connected(Message):
        """The websocket is open and `hello` has been sent."""

        def __init__(self, url: str) -> None:
            super().__init__()
            self.url = url

    class Received(Message):
        """One server message (`welcome`, `table`, `your_turn`, `event`, `game_over`, ...)."""

        def __init__(self, msg: dict[str, Any]) -> None:
            super().__init__()
            self.msg = msg

        @property
        def kind(self) -> str:
            return self.msg["type"]

    class Disconnected(Message):
        """The connection failed or was lost; `reason` says why in plain words."""

        def __init__(self, url: str, reason: str) -> None:
            super().__init__()
            self.url = url
            self.reason = reason

    def __init__(self, owner: MessagePump, url: str, cafile: str | None = None) -> None:
        self.owner = owner
        self.url = url
        self.cafile = cafile  # certificates to trust for wss:// (None: the system's)
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._ids = itertools.count(1)
        self._worker: Worker[None] | None = None
        self.hello_id: int | None = None  # the id of the latest hello (its refusal's `ref`)
        self._ws: ClientConnection | None = None
        self._closing = False  # we hung up on purpose: not a loss to report
        self.connected = False

    def connect(self, hello: dict[str, Any]) -> None:
        """(Re)open the connection; `hello` is sent first. Any earlier connection is dropped."""
        if self._worker is not None:
            self._worker.cancel()
        self._outbox = asyncio.Queue()
        self._closing = False
        self._worker = self.owner.run_worker(self._run(hello), name="parlor-client",
                                             group="connection", exclusive=True)

    def send(self, type: str, **body: Any) -> int:
        """Queue a request; returns its id (errors and replies carry it back as `ref`)."""
        rid = next(self._ids)
        self._outbox.put_nowait(request(type, rid, **body))
        return rid

    async def aclose(self) -> None:
        """Say goodbye properly (a close frame), so the server frees our seat at once."""
        self._closing = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), OPEN_TIMEOUT)
        self.close()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None
        self.connected = False

    async def _run(self, hello: dict[str, Any]) -> None:
        try:
            async with connect(self.url, max_size=MAX_INBOUND_BYTES, open_timeout=OPEN_TIMEOUT,
                               ssl=client_ssl(self.url, self.cafile)) as ws:
                self._ws = ws
                self.hello_id = next(self._ids)
                await ws.send(encode(request("hello", self.hello_id, **hello)))
                self.connected = True
                self.owner.post_message(self.Connected(self.url))
                await self._pump(ws)
            reason = "the server closed the connection"
        except asyncio.CancelledError:
            self.connected = False
            raise
        except ConnectionClosed as exc:
            said = exc.rcvd.reason if exc.rcvd and exc.rcvd.reason else "closed"
            reason = f"connection lost ({said})"
        except InvalidURI:
            reason = f"{self.url} is not a websocket address (use ws://HOST:PORT)"
        except ssl.SSLCertVerificationError as exc:
            reason = (f"cannot trust {self.url}: {exc.verify_message}; a host's own "
                      f"certificate needs --cafile")
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            reason = f"cannot reach {self.url}: {exc or type(exc).__name__}"
        self._ws = None
        self.connected = False
        if not self._closing:
            self.owner.post_message(self.Disconnected(self.url, reason))

    async def _pump(self, ws: ClientConnection) -> None:
        """Read frames and write queued requests until either side stops."""
        writer = asyncio.create_task(self._write(ws))
        try:
            async for raw in ws:
                try:
                    msg = decode_server_message(raw)
                except ValueError:
                    continue  # not ours to show; the server never sends these
                self.owner.post_message(self.Received(msg))
        finally:
            writer.cancel()

    async def _write(self, ws: ClientConnection) -> None:
        try:
            while True:
                msg = await self._outbox.get()
                await ws.send(encode(msg))
        except ConnectionClosed:
            return  # the reader sees the close and reports it
