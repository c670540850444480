"""Connection failures and losses show the connect screen with the reason, and retry works."""

from __future__ import annotations

import asyncio

from tests.server.net.test_kill import free_port
from tests.tui.fake_server import FakeServer, serve_fake
from tests.tui.helpers import on_screen, wait_for_text
from tui.app import ParlorApp


async def test_unreachable_server_shows_error_then_retry_connects():
    port = free_port()
    app = ParlorApp(f"ws://127.0.0.1:{port}", "tester")
    async with app.run_test(size=(100, 30)) as pilot:
        text = await wait_for_text(pilot, "Could not connect")
        assert app.screen.KIND == "connect"
        assert f"127.0.0.1:{port}" in text and "retry" in text
        # The server comes up on that port; pressing r connects and opens the lobby.
        fake = FakeServer()
        async with serve_fake(fake, port):
            await pilot.press("r")
            await on_screen(pilot, app, "lobby")
        assert fake.received[0] == {"type": "hello", "name": "tester"}


async def test_lost_connection_shows_notice_and_reconnects_with_token():
    fake = FakeServer()
    port = free_port()
    async with serve_fake(fake, port):
        app = ParlorApp(f"ws://127.0.0.1:{port}", "tester")
        async with app.run_test(size=(100, 30)) as pilot:
            await on_screen(pilot, app, "lobby")
            assert fake.ws is not None
            await fake.ws.close()
            text = await wait_for_text(pilot, "Could not connect")
            assert "connection" in text.lower() or "closed" in text.lower()
            await pilot.press("r")
            await on_screen(pilot, app, "lobby")
            hellos = [m for m in fake.received if m["type"] == "hello"]
            assert hellos[-1].get("token") == "tok"  # the identity from the first welcome
            await asyncio.sleep(0)
