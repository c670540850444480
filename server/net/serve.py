"""`parlor serve`: run a server until Ctrl-C, then stop cleanly (games voided, store flushed)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import ipaddress
import logging
import os
import signal
import socket
import sqlite3
import ssl
import sys
from collections.abc import Callable

from server.net.app import Server
from server.net.limits import DAY, Limits
from server.tables.policy import BotPolicy


async def _serve(args: argparse.Namespace) -> None:
    instance = args.instance or ""
    policy = getattr(args, "bot_policy", None) or BotPolicy()
    server = Server(args.db, instance=instance, turn_timeout=args.turn_timeout,
                    disconnect_grace=args.disconnect_grace, on_timeout=args.on_timeout,
                    bot_policy=policy, limits=limits_of(args),
                    invite_only=getattr(args, "invite_only", False),
                    client_seeds=getattr(args, "allow_client_seeds", False),
                    unrated_same_address=getattr(args, "unrated_same_address", False),
                    study=getattr(args, "study_plan", None),
                    omniscient_delay=getattr(args, "omniscient_delay", None),
                    reports=getattr(args, "reports", None))
    await _start(server, args, _tls(args))
    tune_gc()
    if not server.tls and not _loopback(args.host):
        print(f"Warning: listening on {args.host} without TLS: names' tokens and every game "
              f"travel in clear text. Use --certfile/--keyfile, or a TLS proxy in front.",
              file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    print(f"Event loop: {'uvloop' if type(loop).__module__.startswith('uvloop') else 'asyncio'}",
          file=sys.stderr, flush=True)
    for line in policy.summary_lines():  # the host's bots, limits and keys, at a glance
        print(line, file=sys.stderr, flush=True)
    limits = server.limits
    print(f"Limits: {limits.tables_total:g} open tables, {limits.tables_per_player:g} per player, "
          f"{limits.tables_per_address:g} per address, "
          f"{limits.names_per_address_per_hour:g} new names per address per hour, unused names "
          f"forgotten after {limits.unused_name_expiry / DAY:g} days, "
          f"waiting tables close after {limits.waiting_expiry / 60:g} min, "
          f"{limits.connections_per_address:g} connections per address, "
          f"{limits.messages_per_second:g} messages/s per connection, "
          f"{limits.spectators_per_table:g} spectators per table", file=sys.stderr, flush=True)
    if server.invite_only:
        print("Invite-only: a new name needs a code from `parlor serve invite`",
              file=sys.stderr, flush=True)
    if server.study is not None:
        print(f"Study {server.study.name!r}: people play once they agree to its consent text "
              f"(sha256 {server.study.consent_hash[:12]}…); `parlor study consents` lists the "
              f"answers", file=sys.stderr, flush=True)
    if server.client_seeds:
        print("Client seeds allowed: whoever picks a table's seed can work out its hidden setup "
              "(roles, key, words, answers)", file=sys.stderr, flush=True)
    if server.replays.omniscient_delay is not None:
        print(f"Omniscient delay: anyone may watch a table of bots only from everywhere, "
              f"{server.replays.omniscient_delay} actions behind", file=sys.stderr, flush=True)
    if server.options.get("unrated_same_address"):
        print("Games between people connected from one address are not rated",
              file=sys.stderr, flush=True)
    named = f", instance {instance}" if instance else ""
    # `parlor serve --workers` (server/net/workers.py) reads the URL from this line.
    print(f"Parlor server listening on {server.url} (database {args.db}{named}); Ctrl-C "
          "stops it.", flush=True)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
    print("Parlor server stopped.", flush=True)


def limits_of(args: argparse.Namespace) -> Limits:
    """The host's limits from `serve`'s options (the rest keep their defaults)."""
    return Limits(tables_total=int(args.max_tables), tables_per_player=int(args.tables_per_player),
                  tables_per_address=int(args.tables_per_address),
                  names_per_address_per_hour=int(args.names_per_address_per_hour),
                  unused_name_expiry=args.forget_unused_names * DAY,
                  waiting_expiry=args.waiting_expiry * 60,
                  connections_per_address=int(args.connections_per_address),
                  messages_per_second=args.messages_per_second,
                  spectators_per_table=int(getattr(args, "spectators_per_table",
                                                   Limits.spectators_per_table)))


class StartError(Exception):
    """The server cannot start; the message is the one line a host reads."""


def _tls(args: argparse.Namespace) -> ssl.SSLContext | None:
    """The server's TLS context from --certfile/--keyfile (None: plain ws://)."""
    certfile = getattr(args, "certfile", None)
    if not certfile:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, getattr(args, "keyfile", None))
    except ssl.SSLError as e:  # not a certificate, or a key that does not match it
        raise StartError(f"cannot use the certificate {certfile}: "
                         f"{(e.reason or str(e)).lower().replace('_', ' ')}") from None
    except OSError as e:
        raise StartError(f"cannot use the certificate {certfile}: {_reason(e)}") from None
    return context


GC_YOUNG = 10_000  # allocations between collections of the young (CPython's default: 700)


def tune_gc() -> None:
    """A server makes a few dicts per message, nearly all short-lived. With CPython's defaults
    the collector ran every 700 allocations and now and then over the whole heap: 10% of a
    loaded server's CPU, and pauses of tens of ms in the latency's tail (measured by
    benchmarks/server_cpu.py). What is loaded at the start (code, envs, the database's state)
    stays for good: it is frozen out of every collection."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 20, 50)


def _loopback(host: str) -> bool:
    """Whether `host` names this machine only (then plain ws:// is fine)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def _start(server: Server, args: argparse.Namespace,
                 tls: ssl.SSLContext | None = None) -> None:
    """Open the database and listen, or raise StartError naming which failed and why (the
    database is closed again if only listening failed)."""
    try:
        await server.start(args.host, args.port, tls)
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


def loop_factory(choice: str = "auto") -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop `parlor serve` runs on: uvloop where it is installed ("auto"; a move
    costs the server less CPU on it, benchmarks/README.md), else the standard library's
    (None: asyncio's default). uvloop has no Windows build: there "auto" is asyncio."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise StartError("the uvloop event loop is not installed (pip install uvloop; "
                             "it has no Windows build)") from None
        return None
    return uvloop.new_event_loop


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        with asyncio.Runner(loop_factory=loop_factory(getattr(args, "event_loop", "auto"))
                            ) as runner:
            runner.run(_serve(args))
    except StartError as e:
        print(f"parlor serve: {e}", file=sys.stderr, flush=True)
        return 2
    return 0
