"""`parlor serve`: run a server until Ctrl-C, then stop cleanly (games voided, store flushed)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal

from server.app import Server


async def _serve(args: argparse.Namespace) -> None:
    instance = args.instance or ""
    server = Server(args.db, instance=instance, turn_timeout=args.turn_timeout,
                    disconnect_grace=args.disconnect_grace, on_timeout=args.on_timeout)
    await server.start(args.host, args.port)
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


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(_serve(args))
    except OSError as e:
        print(f"parlor serve: cannot listen on {args.host}:{args.port}: {e}")
        return 1
    return 0
