"""What one client may ask of a server open to strangers, and the host's knobs for it.

Every limit refuses with an error code a client can act on (`rate_limited`, `limit`) or closes a
connection that will never be useful (too many from one address, no hello, no pong). The
defaults suit a small public server; `parlor serve` exposes the ones a host tunes.
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

DAY = 86400.0
HOUR = 3600.0

# Close codes (RFC 6455): 1008 policy violation, 1013 try again later.
CLOSE_POLICY = 1008
CLOSE_TRY_LATER = 1013


@dataclass(frozen=True)
class Limits:
    messages_per_second: float = 50.0  # sustained, per connection (a person needs a few)
    burst: int = 200  # messages a connection may send at once before the rate applies
    drop_after: int = 200  # refused messages in a row after which the connection is closed
    connections_per_address: int = 16
    tables_total: int = 500  # open (waiting or running) tables on this server
    tables_per_player: int = 4  # open tables one player created
    tables_per_address: int = 8  # open tables created from one address (any names)
    names_per_address_per_hour: int = 20  # new names claimed from one address
    unused_name_expiry: float = 14 * DAY  # seconds after its last hello that a name which
    # never sat at a game is forgotten (anyone may claim it again)
    waiting_expiry: float = 1800.0  # seconds a table may wait for players before it closes
    hello_timeout: float = 15.0  # seconds a new connection has to say hello
    ping_interval: float = 20.0  # keepalive pings; a client that does not answer within
    ping_timeout: float = 20.0  # ping_timeout after a ping is closed
    list_page: int = 100  # tables per `tables` reply at most
    spectators_per_table: int = 100  # each one gets a copy of every message of the table
    spectating_per_connection: int = 8  # tables one connection watches at once

    def __post_init__(self) -> None:
        for name in ("messages_per_second", "waiting_expiry", "hello_timeout", "ping_interval",
                     "ping_timeout", "unused_name_expiry"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive")
        for name in ("burst", "drop_after", "connections_per_address", "tables_total",
                     "tables_per_player", "tables_per_address", "names_per_address_per_hour",
                     "list_page", "spectators_per_table", "spectating_per_connection"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")


# A server for one person (local play) or for tests: nothing a stranger could abuse.
UNLIMITED = Limits(messages_per_second=1e6, burst=1_000_000, drop_after=1_000_000,
                   connections_per_address=100_000, tables_total=1_000_000,
                   tables_per_player=1_000_000, tables_per_address=1_000_000,
                   names_per_address_per_hour=1_000_000, unused_name_expiry=float("inf"),
                   spectators_per_table=1_000_000, spectating_per_connection=1_000_000)


@functools.lru_cache(maxsize=4096)  # asked at every table made: parsing an address is not free
def address_key(address: str) -> str:
    """Whom an address limit counts: the address itself, or for IPv6 its /64 network (one
    host commonly holds a whole /64, so single IPv6 addresses cost an attacker nothing)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class PerHour:
    """At most `allowed` of something per key (a client address) in any hour."""

    def __init__(self, allowed: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.allowed = allowed
        self.clock = clock
        self._times: dict[str, deque[float]] = {}

    def wait(self, key: str) -> float:
        """Seconds until `key` may have one more (0: now)."""
        times = self._times.get(key)
        if times is None:
            return 0.0
        now = self.clock()
        while times and now - times[0] >= HOUR:
            times.popleft()
        if not times:
            del self._times[key]  # an address that went quiet costs nothing
            return 0.0
        return 0.0 if len(times) < self.allowed else times[0] + HOUR - now

    def record(self, key: str) -> None:
        self._times.setdefault(key, deque()).append(self.clock())


class Bucket:
    """A token bucket: `take(now)` is False once a client sends faster than the rate allows
    beyond its burst. Counts refusals in a row, so a flooding client can be cut off."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = now
        self.refused = 0

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False
