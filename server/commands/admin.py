"""`parlor admin`: send one host request (server/net/admin.py) to a running server and print the
answer. The admin token comes from $PARLOR_ADMIN_TOKEN, never the command line (other users
of the machine can read command lines)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidURI, WebSocketException

from server.wire import protocol as p

TIMEOUT = 10.0


async def admin_request(url: str, token: str, action: str, cafile: str | None = None,
                        **body: Any) -> dict[str, Any]:
    """Send one `admin` request; returns the server's answer (`admin` or `error`)."""
    async with connect(url, ssl=p.client_ssl(url, cafile), open_timeout=TIMEOUT,
                       max_size=16 * p.MAX_MESSAGE_BYTES) as ws:
        await ws.send(p.encode(p.request("admin", 1, token=token, action=action, **body)))
        while True:
            msg = p.decode_server_message(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if msg.get("ref") == 1:
                return msg


def run_admin(args: argparse.Namespace) -> int:
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
