"""`parlor web`'s arguments: a server address that cannot be one is refused before anything
starts, the command each tab runs is quoted so no argument reaches a shell as code, and the page
says Parlor and reaches its websocket at the public address a proxy gives it."""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from server.commands.web import tab_command
from server.commands.web_tabs import MAX_COLUMNS, MAX_ROWS, clamped
from tests.server.net.test_kill import free_port


def parlor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("server", ["ws://host:port", "http://host:8765", "ws://", "ws://a b:1",
                                    "ws://host:99999"])
def test_a_server_address_that_cannot_be_one_is_refused(server):
    done = parlor("web", "--server", server)
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if "error" in line]
    assert errors == [f"parlor web: error: argument --server: {server!r} is not a server "
                      f"address: use ws://HOST:PORT (or wss:// for TLS)"]
    assert "Traceback" not in done.stderr and not done.stdout


def test_each_tab_runs_parlor_play_with_its_arguments_quoted(tmp_path):
    odd = tmp_path / "ca; rm -rf ~ $(id).pem"
    argv = shlex.split(tab_command("wss://example.org:443/parlor?x=1&y=2", str(odd)))
    assert argv == ["exec", sys.executable, "-m", "server.cli", "play", "--server",
                    "wss://example.org:443/parlor?x=1&y=2", "--ask-name", "--cafile", str(odd)]


def test_the_page_says_parlor_and_uses_the_public_url():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "web", "--port", str(port),
                             "--public-url", "https://games.example.org/"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert "https://games.example.org " in proc.stdout.readline()  # what to hand people
        deadline = time.monotonic() + 30
        while True:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.05)
        page = page.decode()
        assert "<title>Parlor</title>" in page
        assert 'data-session-websocket-url="wss://games.example.org/ws"' in page
        assert "googleapis" not in page
    finally:
        proc.terminate()
        assert proc.wait(20) == 0


def test_a_tab_starts_without_the_statistics_stack():
    """Each tab is a `parlor play` process: building `parlor`'s parser once loaded NumPy,
    SciPy, statsmodels, pandas and pyarrow (the Impostor league's --resamples default), about
    140 MiB in every tab (benchmarks/web_tabs.py)."""
    code = ("import sys; from server.cli import _parser; _parser(); "
            "print(sorted(m for m in ('numpy', 'scipy', 'statsmodels', 'pandas', 'pyarrow') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


async def test_a_page_cannot_give_its_tab_a_huge_terminal():
    """The size in the websocket's address and in `resize` messages comes from the browser:
    a tab's app is started, and resized, within MAX_COLUMNS x MAX_ROWS."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "web", "--port", str(port),
                             "--server", f"ws://127.0.0.1:{free_port()}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        proc.stdout.readline()
        async with aiohttp.ClientSession() as session:
            ws = await _open(session, f"http://127.0.0.1:{port}/ws?width=1000000&height=x")
            tab = _children(proc.pid)[0]
            environ = dict(item.split("=", 1) for item in
                           Path(f"/proc/{tab}/environ").read_text().split("\0") if "=" in item)
            assert (environ["COLUMNS"], environ["ROWS"]) == (str(MAX_COLUMNS),
                                                             str(MAX_ROWS // 4))
            await ws.close()
    finally:
        proc.terminate()
        assert proc.wait(20) == 0
    assert clamped(10**9, -5) == (MAX_COLUMNS, 1) and clamped("120", 40.0) == (120, 40)


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


async def test_one_tab_more_than_max_tabs_is_refused_until_one_closes():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "web", "--port", str(port),
                             "--max-tabs", "1", "--server", f"ws://127.0.0.1:{free_port()}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    address = f"http://127.0.0.1:{port}/ws"
    try:
        proc.stdout.readline()
        async with aiohttp.ClientSession() as session:
            first = await _open(session, address)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(address)
            assert refused.value.status == 503
            await first.close()
            second = await _open(session, address)  # the first tab's place is free again
            await second.close()
    finally:
        proc.terminate()
        assert proc.wait(20) == 0


async def _open(session: aiohttp.ClientSession, address: str) -> aiohttp.ClientWebSocketResponse:
    """A tab on `parlor web` at `address` once it listens and has room, with its app up."""
    for _ in range(600):
        try:
            ws = await session.ws_connect(address)
            break
        except (aiohttp.ClientConnectorError, aiohttp.WSServerHandshakeError):
            await asyncio.sleep(0.05)  # not listening yet; a closed tab's app still quitting
    await ws.receive()
    return ws
