"""A tiny protocol-v1 server over the real engine, for TUI development before the real server.

It speaks just enough of docs/protocol.md (hello, list_tables, create_table with join_seat, act,
leaderboard) for one human against `random` bots. The required TUI tests use the real embedded
server; this one only backs the tests that need a server to misbehave on purpose.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

from bots.random_bot import RandomBot
from engine.registry import all_envs, get
from server.wire.protocol import encode, message, parse_client_message


def env_json(env: Any) -> dict[str, Any]:
    return env.describe()


class FakeServer:
    def __init__(self) -> None:
        self.game: Any = None
        self.table: dict[str, Any] = {}
        self.ws: ServerConnection | None = None
        self.turns = 0
        self.human = 0
        self.received: list[dict[str, Any]] = []
        self.url = ""
        self.name = ""

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(encode(msg))

    async def handler(self, ws: ServerConnection) -> None:
        self.ws = ws
        async for raw in ws:
            req = parse_client_message(raw)
            self.received.append({"type": req.type, **req.body})
            await getattr(self, f"on_{req.type}")(req)

    async def on_hello(self, req: Any) -> None:
        self.name = req["name"]
        await self.send(message("welcome", req.id, player={"id": 1, "name": req["name"],
                                                           "token": "tok"},
                                server={"version": "fake", "protocol": 1},
                                envs=[env_json(e) for e in all_envs()],
                                bots={"random": "uniform over legal moves"}))

    async def on_list_tables(self, req: Any) -> None:
        await self.send(message("tables", req.id, tables=[self.table] if self.table else []))

    async def on_leaderboard(self, req: Any) -> None:
        await self.send(message("leaderboard", req.id, env=req["env"], rows=[]))

    async def on_create_table(self, req: Any) -> None:
        env = get(req["env"])
        seats = req["seats"]
        self.human = req.get("join_seat", 0)
        self.game = env.new_game(env.config(req.get("preset")), 7, len(seats))
        self.bots = {i: RandomBot(i) for i, s in enumerate(seats) if s != "human"}
        self.table = {"id": "t1", "env": env.id, "title": env.title, "preset": req.get("preset"),
                      "config": {}, "status": "playing", "spectators": 0, "game_id": 1,
                      "seats": [{"seat": i, "name": env.seat_name(i),
                                 "kind": "human" if s == "human" else "bot",
                                 "identity": None if s == "human" else s,
                                 "player": self.name if i == self.human else None,
                                 "connected": True} for i, s in enumerate(seats)]}
        await self.send(message("table", req.id, table=self.table, your_seat=self.human))
        await self.publish(self.game.events)
        await self.advance()

    async def on_act(self, req: Any) -> None:
        events = self.game.act(self.human, req["action"])
        await self.publish(events)
        await self.advance()

    async def publish(self, events: list[Any]) -> None:
        seen = [e.to_json() for e in events if e.visible(self.human)]
        view = self.game.view(self.human)
        await self.send(message("event", table_id="t1", seat=self.human, events=seen, view=view,
                                text=json.dumps(view["public"])[:200]))

    async def advance(self) -> None:
        """Let bots play until the human is asked or the game ends."""
        while not self.game.over:
            bots = [s for s in self.game.pending() if s in self.bots]
            if not bots:
                break
            seat = bots[0]
            decision = await self.bots[seat].decide(self.game.view(seat),
                                                     self.game.legal(seat).to_json(), {})
            await self.publish(self.game.act(seat, decision.action))
        if self.game.over:
            result = self.game.result.to_json()
            await self.send(message("game_over", table_id="t1", game_id=1, result=result,
                                    metrics={}, statuses={str(s): "finished" for s in range(self.game.players)},
                                    rating_changes={}))
        elif self.human in self.game.pending():
            self.turns += 1
            await self.send(message("your_turn", table_id="t1", seat=self.human,
                                    turn=self.turns, view=self.game.view(self.human),
                                    legal=self.game.legal(self.human).to_json(), text="",
                                    deadline=None))


@asynccontextmanager
async def serve_fake(fake: FakeServer, port: int = 0):
    """Run `fake` on 127.0.0.1:`port` (0 = any free port); sets `fake.url`."""
    async with serve(fake.handler, "127.0.0.1", port) as server:
        fake.url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        yield fake
