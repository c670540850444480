"""What each browser tab of `parlor web` costs the host: a `parlor serve` and a `parlor web` as
processes, then N tabs opened as a browser opens them (a websocket to /ws; the page's keys sent
as textual-serve's "stdin" frames), each typing a name and reaching the lobby. Printed: the
memory of each tab's process tree (RSS and PSS, from /proc: PSS shares the pages the tabs have
in common among them) and of `parlor web` itself, and how long a tab took to reach the lobby.
Linux only. Nothing is asserted.

    python benchmarks/web_tabs.py [--tabs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
LISTENING = re.compile(r"listening on (wss?://\S+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(path: Path, pattern: str) -> re.Match[str]:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if found := re.search(pattern, path.read_text()):
            return found
        time.sleep(0.05)
    raise SystemExit(f"no {pattern!r} in {path}:\n{path.read_text()}")


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def tree(pid: int) -> list[int]:
    found, todo = [pid], [pid]
    while todo:
        kids = children(todo.pop())
        found += kids
        todo += kids
    return found


def memory_kib(pids: list[int]) -> tuple[int, int]:
    """(RSS, PSS) of `pids` together, in KiB."""
    rss = pss = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        rss += int(re.search(r"^Rss:\s+(\d+)", rollup, re.M).group(1))
        pss += int(re.search(r"^Pss:\s+(\d+)", rollup, re.M).group(1))
    return rss, pss


async def open_tab(url: str, name: str) -> tuple[aiohttp.ClientSession, object, float]:
    """A tab at the lobby under `name`, and the seconds it took from opening."""
    start = time.perf_counter()
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(f"{url}/ws?width=120&height=40")
    seen = b""
    asked = False
    async for msg in ws:
        if msg.type != aiohttp.WSMsgType.BINARY:
            continue
        seen = (seen + msg.data)[-200_000:]
        if not asked and b"Your name" in seen:
            await ws.send_str(json.dumps(["stdin", f"{name}\r"]))
            asked = True
        if asked and f"you are {name}".encode() in seen:
            return session, ws, time.perf_counter() - start
    raise SystemExit(f"tab {name} closed before the lobby")


async def measure(web_url: str, web_pid: int, tabs: int) -> None:
    before = set(children(web_pid))
    opened = []
    for i in range(tabs):
        opened.append(await open_tab(web_url, f"bench{i}"))
    await asyncio.sleep(1)  # let the apps settle after drawing the lobby
    tab_roots = [pid for pid in children(web_pid) if pid not in before]
    per_tab = [memory_kib(tree(pid)) for pid in tab_roots]
    web_alone = memory_kib([web_pid])
    print(f"tabs at the lobby: {len(per_tab)}")
    print(f"seconds from opening to the lobby: "
          f"{', '.join(f'{s:.1f}' for _, _, s in opened)}")
    for label, values in (("RSS", [r for r, _ in per_tab]), ("PSS", [p for _, p in per_tab])):
        print(f"{label} per tab: mean {sum(values) / len(values) / 1024:.0f} MiB, "
              f"max {max(values) / 1024:.0f} MiB")
    print(f"parlor web itself: RSS {web_alone[0] / 1024:.0f} MiB, PSS "
          f"{web_alone[1] / 1024:.0f} MiB")
    for session, ws, _ in opened:
        await ws.close()
        await session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        serve_log, web_log = Path(tmp, "serve.log"), Path(tmp, "web.log")
        cli = [sys.executable, "-m", "server.cli"]
        serve = subprocess.Popen([*cli, "serve", "--port", "0", "--db", f"{tmp}/p.db"],
                                 stdout=serve_log.open("w"), stderr=subprocess.STDOUT, cwd=ROOT)
        web = None
        try:
            server = wait_for(serve_log, LISTENING.pattern).group(1)
            port = free_port()
            web = subprocess.Popen([*cli, "web", "--server", server, "--port", str(port)],
                                   stdout=web_log.open("w"), stderr=subprocess.STDOUT, cwd=ROOT)
            wait_for(web_log, r"Press Ctrl\+C")
            asyncio.run(measure(f"http://127.0.0.1:{port}", web.pid, args.tabs))
        finally:
            for proc in (web, serve):
                if proc is not None:
                    proc.terminate()
                    proc.wait(30)


if __name__ == "__main__":
    main()
