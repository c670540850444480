"""Real games on a real server, recorded as the messages a person's TUI received, with what
changes from run to run (clocks, tokens, latencies) taken out: the input of the snapshot tests,
which then show the same screens every run."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.server.conftest import Client

Messages = list[dict[str, Any]]
VARYING = ("latency", "usage")  # keys whose values are wall-clock measurements


def product_only(welcome: dict[str, Any]) -> dict[str, Any]:
    """The welcome without the test envs some other test module may have registered."""
    from tests.envs import PROVING, SOLO

    hidden = {PROVING.id, SOLO.id}
    return {**welcome, "envs": [e for e in welcome["envs"] if e["id"] not in hidden],
            "bots": {k: v for k, v in welcome["bots"].items() if k not in hidden}}


def steady(value: Any) -> Any:
    """`value` without what varies between runs."""
    if isinstance(value, dict):
        out = {k: steady(v) for k, v in value.items() if not any(w in k for w in VARYING)}
        for key in ("deadline", "return_by"):
            if key in out:
                out[key] = None
        if "token" in out:
            out["token"] = "token"
        return out
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


async def _play(url: str, create: dict[str, Any], answer: Any) -> Messages:
    """root plays a table created with `create`; `answer(legal, n)` gives root's n-th action."""
    root = await Client.connect(url, "root")
    got: Messages = [product_only(root.welcome)]
    reply = await root.request("create_table", **create, join_seat=0)
    got.append(reply)
    table_id = reply["table"]["id"]
    moves = 0
    while True:
        msg = await root.recv()
        got.append(msg)
        if msg["type"] == "your_turn":
            await root.send("act", table_id=table_id, turn=msg["turn"],
                            action=answer(msg["legal"], moves))
            moves += 1
        elif msg["type"] == "game_over":
            break
    got.append(await root.request("list_tables"))
    await root.close()
    return [steady(m) for m in got]


def _blotto(legal: dict[str, Any], n: int) -> str:
    return ["[A7 B7 C6]", "[A10 B10 C0]", "[A2 B9 C9]", "[A6 B6 C8]", "[A5 B10 C5]"][n % 5]


def _ipd(legal: dict[str, Any], n: int) -> Any:
    if legal["kind"] == "text":
        return {"text": "Shall we all cooperate this round? I will, unless someone defects on "
                        "me first."}
    return {f["name"]: "defect" if n % 3 == 2 and f["name"] == "2" else "cooperate"
            for f in legal["fields"]}


GAMES = {
    "colonel-blotto": ({"env": "colonel-blotto", "preset": "small", "seed": 7,
                        "seats": ["human", "scripted:adaptive"]}, _blotto),
    "three-player-ipd": ({"env": "three-player-ipd", "seed": 7,
                          "seats": ["human", "scripted:tit-for-tat", "scripted:grim"]}, _ipd),
}


def record(env: str, db: Path) -> Messages:
    """Play `env`'s recorded game on a fresh server with database `db`."""
    from server.net.embedded import start_embedded

    server = start_embedded(str(db), client_seeds=True)  # a seeded, repeatable game
    try:
        create, answer = GAMES[env]
        return asyncio.run(_play(server.url, create, answer))
    finally:
        server.stop()
