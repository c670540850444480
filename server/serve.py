"""`parlor serve`: run a server until Ctrl-C, then stop cleanly (games voided, store flushed)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sqlite3
import sys

from server.app import Server
from server.limits import Limits
from server.policy import BotPolicy


async def _serve(args: argparse.Namespace) -> None:
    instance = args.instance or ""
    policy = getattr(args, "bot_policy", None) or BotPolicy()
    server = Server(args.db, instance=instance, turn_timeout=args.turn_timeout,
                    disconnect_grace=args.disconnect_grace, on_timeout=args.on_timeout,
                    bot_policy=policy, limits=limits_of(args))
    await _start(server, args)
    for line in policy.summary_lines():  # the host's bots, limits and keys, at a glance
        print(line, file=sys.stderr, flush=True)
    limits = server.limits
    print(f"Limits: {limits.tables_total:g} open tables, {limits.tables_per_player:g} per player, "
          f"waiting tables close after {limits.waiting_expiry / 60:g} min, "
          f"{limits.connections_per_address:g} connections per address, "
          f"{limits.messages_per_second:g} messages/s per connection", file=sys.stderr,
          flush=True)
    named = f", instance {instance}" if instance else ""
    # `parlor serve --workers` (server/workers.py) reads the URL from this line.
    print(f"Parlor server listening on {server.url} (database {args.db}{named}); Ctrl-C "
          "stops it.", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
    print("Parlor server stopped.", flush=True)


def limits_of(args: argparse.Namespace) -> Limits:
    """The host's limits from `serve`'s options (the rest keep their defaults)."""
    return Limits(tables_total=int(args.max_tables), tables_per_player=int(args.tables_per_player),
                  waiting_expiry=args.waiting_expiry * 60,
                  connections_per_address=int(args.connections_per_address),
                  messages_per_second=args.messages_per_second)


class StartError(Exception):
    """The server cannot start; the message is the one line a host reads."""


async def _start(server: Server, args: argparse.Namespace) -> None:
    """Open the database and listen, or raise StartError naming which failed and why (the
    database is closed again if only listening failed)."""
    try:
        await server.start(args.host, args.port)
    except (OSError, OverflowError, sqlite3.Error, RuntimeError) as e:
        if server.store is None:
            raise StartError(f"cannot open the database {args.db}: {_reason(e)}") from None
        await server.stop()
        if isinstance(e, OSError | OverflowError):
            raise StartError(f"cannot listen on {args.host}:{args.port}: {_reason(e)}") from None
        raise


def _reason(e: BaseException) -> str:
    """An error's reason in a few words: "address already in use", not the errno's repr."""
    if isinstance(e, socket.gaierror):
        return f"cannot resolve the host ({e.strerror})"
    if isinstance(e, OSError) and e.errno:
        return os.strerror(e.errno).lower()
    return str(e) or type(e).__name__


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(_serve(args))
    except StartError as e:
        print(f"parlor serve: {e}", file=sys.stderr, flush=True)
        return 2
    return 0
