"""`parlor admin`: send one host request (server/net/admin.py) to a running server and print the
answer. The admin token comes from $PARLOR_ADMIN_TOKEN, never the command line (other users
of the machine can read command lines)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

TIMEOUT = 10.0


async def admin_request(url: str, token: str, action: str, cafile: str | None = None,
                        **body: Any) -> dict[str, Any]:
    """Send one `admin` request; returns the server's answer (`admin` or `error`). The client
    loads only when a request is sent, so `parlor --help` stays fast."""
    import asyncio

    from websockets.asyncio.client import connect

    from server.wire import protocol as p

    async with connect(url, ssl=p.client_ssl(url, cafile), open_timeout=TIMEOUT,
                       max_size=16 * p.MAX_MESSAGE_BYTES) as ws:
        await ws.send(p.encode(p.request("admin", 1, token=token, action=action, **body)))
        while True:
            msg = p.decode_server_message(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if msg.get("ref") == 1:
                return msg


def add_parser(sub: Any) -> None:
    host = sub.add_parser("admin", help="the host's requests to a running server: list tables, "
                                        "close one, remove a player (token: "
                                        "$PARLOR_ADMIN_TOKEN)")
    host.add_argument("--server", required=True, help="ws://HOST:PORT or wss://HOST:PORT")
    host.add_argument("--cafile", default=None, metavar="FILE",
                      help="certificate(s) to trust for a wss:// server")
    requests = host.add_subparsers(dest="admin_command", required=True)
    requests.add_parser("tables", help="every open table with its seats")
    close = requests.add_parser("close", help="close a table (a game under way ends void)")
    close.add_argument("table_id")
    close.add_argument("--reason", default="", help="told to everyone at the table")
    kick = requests.add_parser("kick", help="remove the person at a seat (in a game under way "
                                            "the seat forfeits)")
    kick.add_argument("table_id")
    kick.add_argument("seat", type=int)
    kick.add_argument("--reason", default="", help="told to the person and the table")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from websockets.exceptions import InvalidHandshake, InvalidURI, WebSocketException

    token = os.environ.get("PARLOR_ADMIN_TOKEN", "").strip()
    if not token:
        print("parlor admin: set PARLOR_ADMIN_TOKEN to the token `parlor serve admin-token` "
              "printed", file=sys.stderr)
        return 2
    action, body = _request_of(args)
    try:
        answer = asyncio.run(admin_request(args.server, token, action, args.cafile, **body))
    except (OSError, InvalidURI, InvalidHandshake, WebSocketException, TimeoutError,
            ValueError) as e:
        print(f"parlor admin: cannot reach {args.server}: {e or type(e).__name__}",
              file=sys.stderr)
        return 1
    if answer["type"] == "error":
        print(f"parlor admin: {answer.get('code')}: {answer.get('message')}", file=sys.stderr)
        return 1
    if action == "tables":
        _print_tables(answer.get("tables") or [])
    else:
        print(answer.get("done", "done"))
    return 0


def _request_of(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    if args.admin_command == "tables":
        return "tables", {}
    body: dict[str, Any] = {"table_id": args.table_id}
    if args.reason:
        body["reason"] = args.reason
    if args.admin_command == "close":
        return "close_table", body
    return "kick", {**body, "seat": args.seat}


def _print_tables(tables: list[dict[str, Any]]) -> None:
    if not tables:
        print("No open tables.")
    for table in tables:
        seats = ", ".join(f"{s['seat']}:{s.get('player') or s.get('identity') or 'open'}"
                          for s in table.get("seats") or [])
        print(f"{table['id']:>10}  {table.get('env', '?'):20} {table.get('status', '?'):8} "
              f"{seats}")
