"""The host's requests (`admin` messages, sent by `parlor admin`): list every open table, close
a table, remove a seat's player. Authorised by the admin token of `parlor serve admin-token`
alone (no hello needed); a connection that offers wrong tokens is closed after a few."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from server.net.limits import CLOSE_POLICY
from server.store.store import Store
from server.tables.table import Table
from server.wire import protocol as p

MAX_WRONG_TOKENS = 3  # per connection; then it is closed (guessing is pointless, but noisy)


class Connection(Protocol):
    wrong_tokens: int


class Server(Protocol):
    """What the host's requests use of the server (server/net/app.py's `Server`, which hands
    them here: so this module need not import it)."""

    store: Store | None
    tables: dict[str, Table]

    def close_soon(self, conn: Any, code: int, reason: str) -> None: ...

    async def reply(self, conn: Any, msg: Mapping[str, Any]) -> None: ...

    def table_of(self, req: p.Request) -> Table: ...

    async def close_waiting(self, table: Table, why: str) -> None: ...


async def handle(server: Server, conn: Connection, req: p.Request) -> None:
    assert server.store is not None
    if not server.store.admin_token_matches(req["token"]):
        conn.wrong_tokens += 1
        if conn.wrong_tokens >= MAX_WRONG_TOKENS:
            server.close_soon(conn, CLOSE_POLICY, "wrong admin tokens")
        raise p.ProtocolError(p.FORBIDDEN, "wrong admin token (the host makes one with `parlor "
                                           "serve admin-token`)", req.id)
    action = req["action"]
    if action not in p.ADMIN_ACTIONS:
        raise p.ProtocolError(p.BAD_MESSAGE, f"unknown admin action {action!r}; valid: "
                                             f"{', '.join(p.ADMIN_ACTIONS)}", req.id)
    if action == "tables":
        tables = [t.summary() for t in server.tables.values() if t.status != "over"]
        await server.reply(conn, p.message("admin", req.id, action=action, tables=tables))
        return
    if req.get("table_id") is None:
        raise p.ProtocolError(p.BAD_MESSAGE, f"admin {action} needs a table_id", req.id)
    table = server.table_of(req)
    reason = (req.get("reason") or "").strip()
    if action == "close_table":
        done = await close_table(server, table, reason, req.id)
    else:
        done = await kick(server, table, req.get("seat"), reason, req.id)
    await server.reply(conn, p.message("admin", req.id, action=action, table=table.summary(),
                                       done=done))


async def close_table(server: Server, table: Table, reason: str, ref: Any) -> str:
    """A waiting table closes; a game under way ends void (not rated). Everyone is told."""
    why = "closed by the host" + (f": {reason}" if reason else "")
    if table.status == "over":
        raise p.ProtocolError(p.GAME_OVER, f"the game at table {table.id} has already ended", ref)
    if table.status == "waiting":
        await server.close_waiting(table, why)
        return f"table {table.id} was waiting and is closed"
    await table.close(why)
    return f"the game at table {table.id} ended void ({why})"


async def kick(server: Server, table: Table, index: int | None, reason: str, ref: Any) -> str:
    """Remove the person at seat `index`: from a waiting table (the seat opens again), or from a
    game under way (the seat forfeits: its side loses, as if the person had left). They cannot
    take a seat at this table again."""
    if index is None or not 0 <= index < len(table.seats):
        raise p.ProtocolError(p.BAD_SEAT, f"give the seat to clear: 0..{len(table.seats) - 1}",
                              ref)
    seat = table.seats[index]
    player = seat.player
    if player is None:
        raise p.ProtocolError(p.BAD_SEAT, f"nobody sits at seat {index} of table {table.id}"
                                          + (" (a bot: close the table instead)"
                                             if seat.bot is not None else ""), ref)
    if table.status == "over":
        raise p.ProtocolError(p.GAME_OVER, f"the game at table {table.id} has already ended", ref)
    why = "removed by the host" + (f": {reason}" if reason else "")
    table.barred.add(player)
    if table.status == "waiting":
        seat.player = None
        notice = p.message("table", table=table.summary(), your_seat=None, removed=why)
        for conn in list(player.conns):
            await server.reply(conn, notice)  # type: ignore[arg-type]
        await table.broadcast_table()
        return f"{player.name} left seat {index} of table {table.id}"
    await table.forfeit(seat, "removed", f"was {why}")
    return f"{player.name} forfeited seat {index} of table {table.id}"
