"""The websocket server: connections, players, the lobby, and requests routed to tables.

Every request is validated by server.wire.protocol; anything refused becomes an `error` reply and the
connection (and every game) goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from ssl import SSLContext
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed, ConnectionClosedError
from websockets.protocol import State

from bots.base import BotError
from bots.llm.clients import ClientPool
from bots.registry import BotSpecError, available, make_bot
from engine.core import (
    ConfigError,
    EngineError,
    Env,
    GameOverError,
    NotYourTurnError,
    UnknownEnvError,
    derive_seed,
)
from engine.registry import all_envs, get
from server.net import admin
from server.net.limits import (
    CLOSE_POLICY,
    CLOSE_TRY_LATER,
    HOUR,
    Bucket,
    Limits,
    PerHour,
    address_key,
)
from server.net.replays import Replays
from server.store import accounts, names, profiles, ratings
from server.store import instances as maze_instances
from server.store import study as studies
from server.store.store import Store
from server.tables.outbound import catch_up_message, history_page
from server.tables.policy import BotPolicy, LimitError, SeatLimits, llm_seats
from server.tables.seating import SeatingError, resolve_seats
from server.tables.table import (
    BOT_FAILURE_POLICIES,
    TIMEOUT_POLICIES,
    ActionFailed,
    Player,
    Seat,
    StaleTurnError,
    Table,
    TableOptions,
)
from server.wire import protocol as p

log = logging.getLogger("parlor.server")
SERVER_VERSION = "0.1.0"
MAX_FINISHED_TABLES = 50  # finished tables still listed in the lobby
REPORT_TTL = 60.0  # seconds a report is reused while no game ends on this server
MAX_UNSENT_BYTES = 4 * 1024 * 1024  # a client this far behind in reading is dropped
CLOSE_GRACE = 1.0  # seconds a stopping server waits for clients to close before cutting them
SEED_BITS = 128  # a table's seed deals its hidden setup: past any search, and never sent until
# the game ends
CLIENT_SEED_REFUSED = ("a seed chosen by a player would let whoever chose it work out the hidden "
                       "setup (roles, key, words, answers) before the game; tables with people "
                       "get a secret seed from the server, shown when the game ends (hosts may "
                       "allow chosen seeds: parlor serve --allow-client-seeds)")
FORGET_BATCH = 1000  # unused names released per store job
UNRATED_LISTED = 20  # the latest unrated games a leaderboard reply explains
# (read-only connection, env, pool or None, by or None) -> the `report` reply's body
ReportBuilder = Callable[..., Mapping[str, Any]]  # (conn, env, pool, by, *, study=...)


class Outbox:
    """Sends that go out together. While a table tells everyone about a move (`holding`: its
    events, then the turns it hands out, with no wait in between) each connection's messages
    are kept and then written at once, in one write (a move makes several messages per
    recipient, and a write is a system call). Any other send is written at once."""

    def __init__(self) -> None:
        self._due: list[Connection] = []
        self._depth = 0

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self.flush()

    def add(self, conn: Connection) -> None:
        if self._depth:
            self._due.append(conn)
        else:
            conn.flush()

    def flush(self) -> None:
        due, self._due = self._due, []
        for conn in due:
            conn.flush()


class Connection:
    """One websocket; `player` is set by hello.

    Sending never waits: a message goes into the socket (with the others of its `Outbox`
    batch), or into the transport's buffer when the client is behind. A client
    whose unsent messages pass `max_unsent` bytes (it stopped reading) is dropped, so no
    recipient ever holds up a table; the drop is a disconnect like any other (grace, then the
    table's policy)."""

    _last: tuple[Mapping[str, Any], bytes] | None = None  # the latest message and its encoding

    def __init__(self, ws: ServerConnection, max_unsent: int = MAX_UNSENT_BYTES,
                 address: str = "?", outbox: Outbox | None = None) -> None:
        self.ws = ws
        self.player: Player | None = None
        self.max_unsent = max_unsent
        self.address = address  # the client's IP address
        self.wrong_tokens = 0  # admin requests with a wrong token
        self.outbox = outbox or Outbox()
        self._unsent: list[bytes] = []  # messages for the next write
        self._unsent_bytes = 0  # theirs and the transport's buffer's, when the last was queued

    async def send(self, msg: Mapping[str, Any]) -> None:
        last = Connection._last
        if last is None or last[0] is not msg:  # one encoding for everyone sent the same dict
            last = Connection._last = (msg, p.encode_bytes(msg))
        self.push(last[1])

    def push(self, data: bytes) -> None:
        ws = self.ws
        if ws.state is not State.OPEN:
            raise ConnectionClosedError(None, None)
        first = not self._unsent
        if first:
            self._unsent_bytes = ws.transport.get_write_buffer_size()
        self._unsent.append(data)
        self._unsent_bytes += len(data)
        if self._unsent_bytes > self.max_unsent:
            self._drop()
            raise ConnectionClosedError(None, None)
        if first:
            self.outbox.add(self)

    def _drop(self) -> None:
        log.warning("dropping a client more than %s bytes behind", self.max_unsent)
        self._unsent = []
        self.ws.transport.abort()

    def flush(self) -> None:
        """Write the queued messages, framed by the connection's protocol, in one write."""
        unsent, self._unsent = self._unsent, []
        ws = self.ws
        if not unsent or ws.state is not State.OPEN or ws.send_in_progress is not None:
            return  # closed meanwhile (its reader sees to the rest) or mid-fragment (never)
        transport = ws.transport
        try:
            for data in unsent:
                ws.protocol.send_text(data)
            chunks = ws.protocol.data_to_send()
            transport.write(b"".join(chunks))
        except Exception:  # noqa: BLE001 - a socket that fails is a client gone
            transport.abort()
            return
        if not all(chunks):  # the protocol asked for an end of stream (never while open)
            if transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()
        if transport.get_write_buffer_size() > self.max_unsent:
            self._drop()


def _envs() -> list[dict[str, Any]]:
    """Every env as a lobby describes it, whether a table can play a stored SocialMaze
    instance of it (`create_table.instance`), and the preset that plays one if it is not the
    env's default (Find the Spy's one-solver `passive`)."""
    return [{**e.describe(), "stored_instances": e.id in maze_instances.TASKS,
             "instance_preset": maze_instances.preset(e.id)} for e in all_envs()]


def known_env(env_id: str, ref: Any) -> Env:
    """The env of a request; `unknown_env` naming the valid ones otherwise."""
    try:
        return get(env_id)
    except UnknownEnvError as e:
        raise p.ProtocolError(p.UNKNOWN_ENV, str(e), ref) from None


class Server:
    def __init__(self, db_path: str, *, max_unsent: int = MAX_UNSENT_BYTES, instance: str = "",
                 limits: Limits | None = None, bot_policy: BotPolicy | None = None,
                 invite_only: bool = False, client_seeds: bool = False,
                 study: studies.Study | None = None, reports: ReportBuilder | None = None,
                 omniscient_delay: int | None = None, **options: Any) -> None:
        """options: TableOptions fields (turn_timeout, disconnect_grace, bot_timeout, ...).
        `instance` names this process when several servers share one database (see
        docs/architecture.md): its table ids carry the name and it recovers only its games.
        `bot_policy`: the bots the host allows, key bindings and LLM seat limits
        (server/tables/policy.py); the default seats scripted bots and random only. `invite_only`: a
        new name needs an invite code (server/store/accounts.py). `client_seeds`: a table with people
        may be created with a seed its creator chose (which tells them its hidden setup); bot
        tables always may. `study`: the study this server runs (`parlor serve --study`): a
        person gets a seat only once they agreed to its current consent text. `reports`: what
        answers `report` requests (server/reports/report_reply.py's `build`, which this layer
        may not import: `parlor serve` and local play hand it in); without it `report` is
        `unavailable`. `omniscient_delay`: N >= 1 lets anyone watch a bot-only table's game
        from everywhere, N actions behind (`replay` with its table id); None: no live replays."""
        self.db_path = db_path
        self.study = study
        self.reports = reports
        self.replays = Replays(study=study is not None, omniscient_delay=omniscient_delay)
        # Reports are computed one at a time and kept until a game ends here (or REPORT_TTL
        # passes, for games other processes on the database end): a client asking again and
        # again costs the server one computation.
        self._report_lock = asyncio.Lock()
        self._report_cache: dict[tuple[Any, ...], tuple[int, float, dict[str, Any]]] = {}
        self.bot_policy = bot_policy or BotPolicy()
        self.llm_clients = ClientPool()  # shared by every LLM seat here; closed by stop()
        self.seat_limits = SeatLimits(self.bot_policy.max_llm_seats,
                                      self.bot_policy.max_llm_seats_per_hour)
        self.instance = instance
        self.invite_only = invite_only
        self.client_seeds = client_seeds
        self.max_unsent = max_unsent
        self._outbox = Outbox()  # a table's messages for one move, one write per connection
        self.limits = limits or Limits()
        self.options = options
        TableOptions(**options)  # fail now on an unknown option
        self.store: Store | None = None
        self.tables: dict[str, Table] = {}
        self.players: dict[str, Player] = {}  # by token
        self._conns: set[Connection] = set()
        self._per_address: Counter[str] = Counter()  # open connections by address_key
        # table -> (creator, when, the creator's address_key)
        self._opened: dict[str, tuple[Player | None, float, str]] = {}
        self._new_names = PerHour(self.limits.names_per_address_per_hour)  # by address_key
        self._sweeper: asyncio.Task[None] | None = None
        self._name_sweeper: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()  # closes under way (kept referenced)
        self._first_number: int | None = None  # the first table number this run gave out
        self._server: Any = None
        self.port: int | None = None
        self.host = "127.0.0.1"
        self.tls = False

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'wss' if self.tls else 'ws'}://{host}:{self.port}"

    async def start(self, host: str = "127.0.0.1", port: int = 0,
                    ssl: SSLContext | None = None) -> None:
        """Listen on host:port (0: any free port), over TLS when `ssl` is given (wss://)."""
        self.store = await Store.open(self.db_path, self.instance)
        await self.recover()
        self.host = host
        self.tls = ssl is not None
        # No permessage-deflate: compressing every message took more CPU than anything else
        # the server does per move (benchmarks/README.md), for messages of a few KB.
        self._server = await serve(self._handle, host, port, max_size=p.MAX_MESSAGE_BYTES * 2,
                                   compression=None, ping_interval=self.limits.ping_interval,
                                   ping_timeout=self.limits.ping_timeout,
                                   close_timeout=CLOSE_GRACE, ssl=ssl)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_waiting_tables())
        if self.limits.unused_name_expiry != float("inf"):
            await self.forget_unused_names()
            self._name_sweeper = asyncio.get_running_loop().create_task(self._sweep_names())
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("Parlor server on %s (db %s)", self.url, self.db_path)

    async def recover(self) -> None:
        """Void the games a previous server left running (it was killed mid-game): replay
        their committed actions, end them as void, and store the full record."""
        assert self.store is not None
        for game_id, partial in await self.store.interrupted_games():
            try:
                env = get(partial.env)
                game = env.replay(partial)
                if not game.over:
                    events = game.abort("interrupted: the server stopped mid-game")
                    await self.store.record_events(game_id, events)
                record, metrics = game.record(), env.game_metrics(game.record())
            except Exception:  # noqa: BLE001 - an unreadable game must not stop the server
                log.exception("cannot replay interrupted game %s", game_id)
                record, metrics = partial, {}
            await self.store.finish_game(game_id, record=record, statuses={}, metrics=metrics,
                                         unrated=f"{ratings.VOID} (the server stopped "
                                                 "mid-game)")
            log.info("game %s was interrupted by a server stop; marked void", game_id)

    async def stop(self) -> None:
        for sweeper in (self._sweeper, self._name_sweeper):
            if sweeper is not None:
                sweeper.cancel()
        for table in list(self.tables.values()):
            await table.close()
        await self.llm_clients.aclose()
        if self._server is not None:
            self._server.close()
            try:  # a half-closed client would hold this until the next keepalive ping
                await asyncio.wait_for(self._server.wait_closed(), CLOSE_GRACE)
            except TimeoutError:
                for conn in list(self._conns):
                    conn.ws.transport.abort()
                await self._server.wait_closed()
        if self.store is not None:
            await self.store.close()

    # -- connections ---------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        limits = self.limits
        address = str((ws.remote_address or ("?",))[0])
        key = address_key(address)
        if self._per_address[key] >= limits.connections_per_address:
            await ws.close(CLOSE_TRY_LATER, "too many connections from your address")
            return
        self._per_address[key] += 1
        loop = asyncio.get_running_loop()
        conn = Connection(ws, self.max_unsent, address, self._outbox)
        bucket = Bucket(limits.messages_per_second, limits.burst, loop.time())
        no_hello = loop.call_later(limits.hello_timeout, self._hello_overdue, conn)
        self._conns.add(conn)
        try:
            cut = False
            async for raw in ws:
                if cut:
                    continue  # read (and drop) what it sent, to reach its close reply
                if bucket.take(loop.time()):
                    await self._on_message(conn, raw)
                elif bucket.refused >= limits.drop_after:
                    cut = True
                    self.close_soon(conn, CLOSE_POLICY, "too many messages")
                else:
                    await self.reply(conn, p.error(
                        p.RATE_LIMITED, f"more than {limits.messages_per_second:g} messages a "
                                        f"second: slow down (this message was not read)", None))
        except ConnectionClosed:
            pass
        finally:
            no_hello.cancel()
            self._per_address[key] -= 1
            if not self._per_address[key]:
                del self._per_address[key]
            self._conns.discard(conn)
            await self._on_close(conn)

    def _hello_overdue(self, conn: Connection) -> None:
        """A connection that never said hello is closed (it holds a slot for nothing)."""
        if conn.player is None:
            self.close_soon(conn, CLOSE_POLICY, f"no hello within {self.limits.hello_timeout:g} s")

    def close_soon(self, conn: Connection, code: int, reason: str) -> None:
        """Send the close frame next (after the reply that says why); cut the connection if
        its reply does not come within a second (a flooding client's reply waits behind
        everything it sent)."""
        conn.ws.close_timeout = CLOSE_GRACE
        task = asyncio.get_running_loop().create_task(conn.ws.close(code, reason))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _on_message(self, conn: Connection, raw: str | bytes) -> None:
        ref, kind = None, "unreadable message"
        try:
            req = p.parse_client_message(raw)
            ref, kind = req.id, req.type
            if req.type not in ("hello", "admin") and conn.player is None:
                raise p.ProtocolError(p.NOT_HELLO, "say hello first", ref)
            await getattr(self, f"_on_{req.type}")(conn, req)
        except p.ProtocolError as e:
            # The code only: a message may quote what the client sent.
            log.info("error to %s (%s): %s", conn.player.name if conn.player else conn.address,
                     kind, e.code)
            await self.reply(conn, p.error(e.code, e.message, e.ref if e.ref is not None
                                            else ref))
        except Exception as e:  # noqa: BLE001 - a bug must not drop the connection
            log.exception("internal error")  # the details stay in the server's log
            await self.reply(conn, p.error(p.INTERNAL, f"internal error "
                                                        f"({type(e).__name__})", ref))

    async def reply(self, conn: Connection, msg: Mapping[str, Any]) -> None:
        try:
            await conn.send(msg)
        except ConnectionClosed:
            pass

    async def _on_close(self, conn: Connection) -> None:
        for table in self.tables.values():
            table.remove_spectator(conn)
        await self._detach(conn)
        player = conn.player
        if player is None or player.conns:
            return
        log.info("gone: %s (their last connection closed)", player.name)
        for table in list(self.tables.values()):  # tables left behind by a vanished creator
            creator = self._opened.get(table.id, (None,))[0]
            if creator is player and table.status == "waiting" and not any(
                    s.player for s in table.seats):
                await self.close_waiting(table, "its creator left and nobody sat down")

    async def _detach(self, conn: Connection) -> None:
        """`conn` no longer speaks for its player (it closed)."""
        player = conn.player
        if player is None:
            return
        player.conns.discard(conn)
        if player.conns:
            return
        for table in list(self.tables.values()):
            seat = table.seat_of(player)
            if seat is None:
                continue
            if table.status in ("starting", "playing"):
                table.disconnected(seat)  # the grace starts: `return_by` tells the table
            elif table.status == "waiting":
                seat.player = None  # free the seat so the table can still fill
            await table.broadcast_table()

    # -- requests -----------------------------------------------------------------------------
    async def _on_hello(self, conn: Connection, req: p.Request) -> None:
        token = req.get("token")
        try:
            name = names.normalise(req["name"])  # server/store/names.py: what a name may be
        except names.BadName as e:
            raise p.ProtocolError(p.BAD_NAME, str(e), req.id) from None
        if conn.player is not None and not names.same(conn.player.name, name):
            # One identity per connection: a client that says hello as one name after another
            # would get the limits of every name (and leave their tables behind when it goes).
            raise p.ProtocolError(p.NAME_FIXED, f"this connection is {conn.player.name!r}'s; "
                                                f"open a new connection to play as another "
                                                f"name", req.id)
        assert self.store is not None
        player = conn.player or (self.players.get(token) if token else None)
        if player is not None and player is not conn.player:
            if not names.same(player.name, name):
                player = None  # a token vouches only for its own name
            elif not await self.store.said_hello(player.identity, player.token):
                if not player.conns:  # forgotten meanwhile: the token is worth nothing now
                    self.players.pop(player.token, None)
                player = None
        if player is None:
            try:
                name, token = await self.store.claim_name(
                    name, token, secrets.token_urlsafe(24), invite_only=self.invite_only,
                    invite=req.get("invite"), claiming=lambda: self._new_name(conn, req.id))
            except names.NameTaken as e:
                raise p.ProtocolError(p.NAME_TAKEN, str(e), req.id) from None
            except accounts.InviteError as e:
                raise p.ProtocolError(e.code, str(e), req.id) from None
            player = self.players.get(token) or Player(name=name, token=token)
            self.players[token] = player
        log.info("hello: %s from %s%s", player.name, conn.address,
                 " (again)" if conn.player is player else "")
        conn.player = player
        player.addresses.add(conn.address)
        back = not player.conns  # their first connection again: their seats are back
        player.conns.add(conn)
        await self.reply(conn, p.message(
            "welcome", req.id, player={"id": player.identity, "name": player.name,
                                       "token": player.token},
            server={"version": SERVER_VERSION, "protocol": p.VERSION},
            **({"study": await self._study_summary(player)} if self.study else {}),
            envs=_envs(),
            bots={e.id: available(e.id) for e in all_envs()}))
        if back:
            for table in list(self.tables.values()):
                seat = table.seat_of(player)
                if seat is not None and table.reconnected(seat):
                    await table.broadcast_table()

    # -- study mode ----------------------------------------------------------------------------
    async def _study_summary(self, player: Player) -> dict[str, Any]:
        """What `welcome` says of the study: its name, the consent text's hash and whether
        this person agreed to that text (`study` gives the text and the form)."""
        assert self.study is not None
        return {"name": self.study.name, "consent_hash": self.study.consent_hash,
                "status": await self._consent_status(player)}

    async def _consent_status(self, player: Player) -> str:
        assert self.store is not None and self.study is not None
        study = self.study
        return await self.store.read_with(lambda c: studies.status(c, player.identity, study))

    async def _require_consent(self, conn: Connection, ref: Any) -> None:
        """A person takes a seat only once they agreed to the study's current consent text
        (bots are not asked; watching and the lobby stay open)."""
        if self.study is None:
            return
        assert conn.player is not None
        status = await self._consent_status(conn.player)
        if status != studies.AGREED:
            why = ("you declined to take part in this study" if status == studies.DECLINED else
                   "read and agree to the study's consent text first (request `study`)")
            raise p.ProtocolError(p.CONSENT_REQUIRED, f"this server runs the study "
                                                      f"{self.study.name!r}: {why}; you may "
                                                      f"still watch games", ref)

    def _the_study(self, ref: Any) -> studies.Study:
        if self.study is None:
            raise p.ProtocolError(p.NO_STUDY, "this server runs no study", ref)
        return self.study

    async def _on_study(self, conn: Connection, req: p.Request) -> None:
        study = self._the_study(req.id)
        assert conn.player is not None
        await self.reply(conn, p.message("study", req.id, study=study.describe(
            await self._consent_status(conn.player))))

    async def _on_consent(self, conn: Connection, req: p.Request) -> None:
        """A person's answer to the consent text they read (its hash): agree (with the form's
        answers) or decline; stored with the server's time. Answering again replaces the
        answer (a decline after agreeing gives no new games)."""
        study = self._the_study(req.id)
        player = conn.player
        assert player is not None and self.store is not None
        if req["consent_hash"] != study.consent_hash:
            raise p.ProtocolError(p.CONSENT_REQUIRED, "the study's consent text has changed; "
                                                      "read it again (request `study`)", req.id)
        agree = req["agree"]
        answers: dict[str, Any] | None = None
        if agree:
            try:
                answers = study.check_answers(req.get("answers") or {})
            except studies.StudyError as e:
                raise p.ProtocolError(p.BAD_ANSWER, str(e), req.id) from None
        await self.store.write(lambda c: studies.record(c, player.identity, study, agree,
                                                        answers))
        log.info("study %s: %s %s", study.name, player.name, "agreed" if agree else "declined")
        await self.reply(conn, p.message("study", req.id, study=study.describe(
            studies.AGREED if agree else studies.DECLINED)))

    def _new_name(self, conn: Connection, ref: Any) -> None:
        """A new name is about to be claimed from `conn`'s address: counted, or refused with
        `limit` when the address claimed its hourly share already."""
        key = address_key(conn.address)
        wait = self._new_names.wait(key)
        if wait:
            raise p.ProtocolError(p.LIMIT, f"your address claimed {self._new_names.allowed} new "
                                           f"name(s) in the last hour, the most this server "
                                           f"allows; try again in about "
                                           f"{max(1, round(wait / 60))} min, or say hello as a "
                                           f"name you have (with its token)", ref)
        self._new_names.record(key)

    async def forget_unused_names(self) -> list[str]:
        """Release the names that never sat at a game and said no hello for the host's
        `unused_name_expiry` (Store.forget_unused_names); people connected now keep theirs."""
        assert self.store is not None
        connected = [player.identity for player in self.players.values() if player.conns]
        before = time.time() - self.limits.unused_name_expiry
        gone: set[str] = set()
        while batch := await self.store.forget_unused_names(before, connected, FORGET_BATCH):
            gone.update(batch)  # the loop serves others between batches
            if len(batch) < FORGET_BATCH:
                break
        for token, player in list(self.players.items()):
            if player.identity in gone and not player.conns:
                del self.players[token]
        if gone:
            log.info("forgot %d names never used for a game", len(gone))
        return sorted(gone)

    async def _sweep_names(self) -> None:
        while True:
            await asyncio.sleep(min(HOUR, self.limits.unused_name_expiry / 4))
            await self.forget_unused_names()

    async def _on_list_envs(self, conn: Connection, req: p.Request) -> None:
        await self.reply(conn, p.message("envs", req.id, envs=_envs()))

    async def _on_list_tables(self, conn: Connection, req: p.Request) -> None:
        """A page of the tables, in creation order, optionally of one env and one status:
        at most `limit` (and the server's page size) after the table id `after`; `next` is the
        `after` of the following page (null on the last)."""
        env, status, after = req.get("env"), req.get("status"), req.get("after")
        limit = max(1, min(req.get("limit") or self.limits.list_page, self.limits.list_page))
        tables = [t for t in self.tables.values()
                  if (env is None or t.env.id == env) and (status is None or t.status == status)]
        if after is not None:
            ids = [t.id for t in tables]
            tables = tables[ids.index(after) + 1:] if after in ids else []
        page = tables[:limit]
        more = len(tables) > limit
        await self.reply(conn, p.message("tables", req.id, tables=[t.summary() for t in page],
                                          next=page[-1].id if more and page else None))

    async def _on_create_table(self, conn: Connection, req: p.Request) -> None:
        if req.get("join_seat") is not None:
            await self._require_consent(conn, req.id)
        self._check_table_limits(conn, req.id)
        overrides = dict(req.get("config") or {})
        preset = req.get("preset")
        if req.get("instance") is not None or req.get("instance_random"):
            assert conn.player is not None
            overrides.update(await self._stored_instance(
                req["env"], req.get("instance"), bool(req.get("instance_random")),
                req.get("instance_source"), overrides, conn.player.identity, req.id))
            preset = preset or maze_instances.preset(req["env"])
        table = self.create_table(req["env"], preset, overrides,
                                  req["seats"], req.get("seed"), req.get("on_bot_failure"), req.id,
                                  players=req.get("players"), on_timeout=req.get("on_timeout"),
                                  player=conn.player)
        assert conn.player is not None
        self._opened[table.id] = (conn.player, asyncio.get_running_loop().time(),
                                  address_key(conn.address))
        log.info("table %s: created by %s: %s%s, seats %s", table.id, conn.player.name,
                 table.env.id, f" ({table.preset})" if table.preset else "",
                 ", ".join(table.display_names()))
        join_seat = req.get("join_seat")
        if join_seat is not None:
            try:
                await self._join(conn, table, join_seat, req.id)
            except p.ProtocolError:
                del self.tables[table.id]  # a refused request leaves no empty table behind
                self._opened.pop(table.id, None)
                self.seat_limits.refund(table.id)
                raise
        else:
            await self.reply(conn, p.message("table", req.id, table=table.summary(),
                                              your_seat=None))
            await table.maybe_start()

    async def _stored_instance(self, env_id: str, instance_id: str | None, random: bool,
                               source: str | None, overrides: Mapping[str, Any], player: str,
                               ref: Any) -> dict[str, Any]:
        """The config settings that play a stored SocialMaze instance (its whole record in the
        table's `instance` setting, Find the Spy's `recorded`): the one named, or with `random`
        one the server draws in secret (maze_instances.drawn_record), told to no one until the
        end, so the creator cannot look its answer up by id."""
        env = known_env(env_id, ref)
        if env.id not in maze_instances.TASKS:
            raise p.ProtocolError(p.BAD_CONFIG, f"{env.id} plays no stored instances", ref)
        setting = maze_instances.setting(env.id)
        if setting in overrides:
            raise p.ProtocolError(p.BAD_CONFIG, f"give the instance whole (config.{setting}) "
                                                f"or stored (instance, instance_random), not "
                                                f"both", ref)
        if random and instance_id is not None:
            raise p.ProtocolError(p.BAD_CONFIG, "give instance (an id) or instance_random, not "
                                                "both", ref)
        assert self.store is not None
        where = f" from {source!r}" if source is not None else ""
        if random:
            record = await self.store.read_with(
                lambda c: maze_instances.drawn_record(c, env.id, source, player))
            if record is None:
                raise p.ProtocolError(p.UNKNOWN_INSTANCE, f"no {env.id} instance is stored"
                                                          f"{where} to draw; `parlor maze import "
                                                          f"FILE` stores them", ref)
            return maze_instances.table_settings(env.id, record)
        assert instance_id is not None
        try:
            record = await self.store.read_with(
                lambda c: maze_instances.stored_record(c, env.id, instance_id, source))
        except maze_instances.Ambiguous as e:
            raise p.ProtocolError(p.BAD_CONFIG, str(e), ref) from None
        if record is None:
            raise p.ProtocolError(p.UNKNOWN_INSTANCE, f"no stored {env.id} instance "
                                                      f"{instance_id!r}{where}; `parlor maze "
                                                      f"import FILE` stores them, "
                                                      f"list_instances lists them", ref)
        return maze_instances.table_settings(env.id, record)

    async def _on_list_instances(self, conn: Connection, req: p.Request) -> None:
        env = known_env(req["env"], req.id)
        assert self.store is not None
        page, more = await self.store.read_with(lambda c: maze_instances.list_rows(
            c, env.id, req.get("after"), req.get("limit") or maze_instances.MAX_LIST,
            req.get("after_source") or "", req.get("source")))
        await self.reply(conn, p.message("instances", req.id, env=env.id, instances=page,
                                          next=more[0] if more else None,
                                          next_source=more[1] if more else None))

    def _check_table_limits(self, conn: Connection, ref: Any) -> None:
        """A player, and an address whatever its names, may have a few open tables at once;
        the server a bounded number."""
        key = address_key(conn.address)
        player, opened = conn.player, self._opened
        open_count = mine = ours = 0  # one pass over the tables (a table is made every game)
        for tid, t in self.tables.items():
            if t.status != "over":
                open_count += 1
                creator = opened.get(tid)
                if creator is not None:
                    mine += creator[0] is player
                    ours += creator[2] == key
        if open_count >= self.limits.tables_total:
            raise p.ProtocolError(p.LIMIT, f"this server has {open_count} open tables, "
                                           f"its limit; join one or try again later", ref)
        if mine >= self.limits.tables_per_player:
            raise p.ProtocolError(p.LIMIT, f"you have {mine} open tables, the most a player may "
                                           f"have here; finish or leave one first", ref)
        if ours >= self.limits.tables_per_address:
            raise p.ProtocolError(p.LIMIT, f"{ours} open tables were created from your address, "
                                           f"the most this server allows; finish or leave one "
                                           f"first", ref)

    async def _sweep_waiting_tables(self) -> None:
        """Close tables that waited for players longer than the host allows."""
        every = min(60.0, self.limits.waiting_expiry / 4)
        while True:
            await asyncio.sleep(every)
            deadline = asyncio.get_running_loop().time() - self.limits.waiting_expiry
            for tid, table in list(self.tables.items()):
                opened = self._opened.get(tid, (None, 0.0))[1]
                if table.status == "waiting" and opened <= deadline:
                    minutes = self.limits.waiting_expiry / 60
                    await self.close_waiting(table, f"nobody joined within {minutes:g} min")

    async def close_waiting(self, table: Table, why: str) -> None:
        """A table that never started is closed: its seated people are told, it is gone."""
        table.status = "closed"
        await table.close(why)  # no game to void: its timers stop
        recipients = table.recipients()
        summary = {**table.summary(), "closed": why}
        for conn, seat in recipients:
            await self.reply(conn, p.message("table", table=summary, your_seat=seat))  # type: ignore[arg-type]
        self.tables.pop(table.id, None)
        self._opened.pop(table.id, None)

    def create_table(self, env_id: str, preset: str | None, overrides: Mapping[str, Any],
                     specs: list[Any], seed: int | None, on_bot_failure: str | None = None,
                     ref: Any = None, *, players: int | None = None,
                     on_timeout: str | None = None, player: Player | None = None,
                     campaign: tuple[str, str] | None = None) -> Table:
        """Build a table from a request (also used by `parlor sim`); ProtocolError if invalid.
        A spec may name a role or side ("impostor=SPEC"): see server/tables/seating.py. Bots must be
        allowed by the host's policy; `player` (the creator) is held to its LLM seat limits. A
        seed a player chose is refused at a table with people unless the host allows it; the
        host's own code (no `player`: `parlor sim`, leagues) seeds as it likes."""
        env = known_env(env_id, ref)
        for i, spec in enumerate(specs):
            if not isinstance(spec, str):
                raise p.ProtocolError(p.BAD_SEAT, f"seat {i} must be a string spec", ref)
        try:
            config = env.config(preset, overrides)
        except ConfigError as e:
            raise p.ProtocolError(p.BAD_CONFIG, str(e), ref) from None
        policy = on_bot_failure or "void"
        if policy not in BOT_FAILURE_POLICIES:
            raise p.ProtocolError(p.BAD_CONFIG, f"unknown on_bot_failure {policy!r}; valid: "
                                                f"{', '.join(BOT_FAILURE_POLICIES)}", ref)
        if on_timeout is not None and on_timeout not in TIMEOUT_POLICIES:
            raise p.ProtocolError(p.BAD_CONFIG, f"unknown on_timeout {on_timeout!r}; valid: "
                                                f"{', '.join(TIMEOUT_POLICIES)}", ref)
        chosen = seed is not None
        seed = secrets.randbits(SEED_BITS) if seed is None else seed
        try:
            specs = resolve_seats(env, config, seed, specs, players)
        except SeatingError as e:
            raise p.ProtocolError(p.BAD_SEAT, str(e), ref) from None
        except ConfigError as e:
            raise p.ProtocolError(p.BAD_CONFIG, str(e), ref) from None
        if chosen and player is not None and not self.client_seeds and "human" in specs:
            raise p.ProtocolError(p.BAD_CONFIG, CLIENT_SEED_REFUSED, ref)
        self._check_bots(specs, player, ref)
        seats = []
        for i, spec in enumerate(specs):
            bot = None
            if spec != "human":
                try:
                    # A chosen seed repeats its bots' play too; a secret one gives them seeds
                    # through a one-way hash, so their moves tell nothing of the table's seed.
                    bot_seed = seed * 1000 + i if chosen else derive_seed(seed, f"bot {i}")
                    bot = make_bot(spec, env.id, bot_seed, keys=self.bot_policy.keys_for(spec),
                                   clients=self.llm_clients)
                except (BotSpecError, BotError, ValueError) as e:
                    raise p.ProtocolError(p.BAD_SEAT, f"seat {i}: {e}", ref) from None
            seats.append(Seat(i, env.seat_name(i), spec, bot=bot))
        self._forget_finished_tables()
        table_id = self._new_table_id()
        assert self.store is not None
        table = Table(table_id, env, preset or env.default_preset, config, seed, seats,
                      self.store, TableOptions(**(self.options | {"on_bot_failure": policy,
                                                                  "on_timeout": on_timeout or
                                                                  self.options.get("on_timeout")})))
        table.holding = self._outbox.holding
        table.campaign = campaign
        self.tables[table_id] = table
        if player is not None:
            self.seat_limits.record(player.identity, table_id, llm_seats(specs))
        return table

    def _check_bots(self, specs: list[str], player: Player | None, ref: Any) -> None:
        """Only bots the host allows (`bad_seat`), and no more LLM seats than the creator's
        limits (`limit`; the host's own code, e.g. `parlor sim`, passes no player)."""
        for i, spec in enumerate(specs):
            try:
                refusal = self.bot_policy.refusal(spec)
            except ValueError as e:  # a malformed LLM spec or its settings
                raise p.ProtocolError(p.BAD_SEAT, f"seat {i}: {e}", ref) from None
            if refusal is not None:
                raise p.ProtocolError(p.BAD_SEAT, f"seat {i}: {refusal}", ref)
        if player is not None:
            try:
                self.seat_limits.check(player.identity, llm_seats(specs), self.tables)
            except LimitError as e:
                raise p.ProtocolError(p.LIMIT, str(e), ref) from None

    def _forget_finished_tables(self, keep: int = MAX_FINISHED_TABLES) -> None:
        """Finished games live on in the store; the lobby keeps only the latest few."""
        over = [tid for tid, t in self.tables.items() if t.status == "over"]
        for tid in over[:max(0, len(over) - keep)]:
            del self.tables[tid]
            self._opened.pop(tid, None)

    def table_of(self, req: p.Request) -> Table:
        table = self.tables.get(req["table_id"])
        if table is None:
            raise self._missing_table(req["table_id"], req.id)
        return table

    def _new_table_id(self) -> str:
        """`t<n>` (`<instance>.t<n>` for a named server), n from the store's counter for this
        instance: an id never comes back, so a client returning after a restart never lands
        at a stranger's table."""
        assert self.store is not None
        number = self.store.next_table_number(self.instance)
        if self._first_number is None:
            self._first_number = number
        return f"{self.instance}.t{number}" if self.instance else f"t{number}"

    def _missing_table(self, table_id: str, ref: Any) -> p.ProtocolError:
        """The error for a table this server does not have: `table_gone` saying what became of
        it when this server had it (a previous run, or a finished table since dropped from the
        lobby), `unknown_table` otherwise."""
        assert self.store is not None
        prefix = f"{self.instance}.t" if self.instance else "t"
        digits = table_id[len(prefix):] if table_id.startswith(prefix) else ""
        number = int(digits) if digits.isascii() and digits.isdigit() else None
        before = number is not None and number < (self._first_number or number + 1) and \
            number <= self.store.last_table_number(self.instance)
        game = self.store.game_at_table(table_id) if number is not None else None
        if game is None:
            if before:
                return p.ProtocolError(p.TABLE_GONE, f"the server restarted; table {table_id} "
                                                     f"was still waiting for players and was "
                                                     f"closed", ref)
            return p.ProtocolError(p.UNKNOWN_TABLE, f"no table {table_id!r}", ref)
        result = game["result"] or {}
        if game["status"] == "finished":
            winners = sorted({game["identities"][s].removeprefix("human:")
                              for s in result.get("winners") or ()
                              if s < len(game["identities"])})
            outcome = ("a draw" if result.get("draw") else
                       f"won by {', '.join(winners)}" if winners else game["reason"] or "over")
            ended = f"the game at table {table_id} has ended ({outcome})"
        elif game["status"] == "running" or (game["reason"] or "").startswith(
                ("interrupted", "server shut down")):  # the server stopped, or was killed
            ended = f"the game at table {table_id} was stopped and is void (not rated)"
        else:
            ended = (f"the game at table {table_id} ended void (not rated): "
                     f"{game['reason'] or 'no reason given'}")
        where = "the server restarted; " if before else ""
        return p.ProtocolError(p.TABLE_GONE, f"{where}{ended}", ref)

    async def _on_join(self, conn: Connection, req: p.Request) -> None:
        await self._join(conn, self.table_of(req), req.get("seat"), req.id)

    async def _join(self, conn: Connection, table: Table, index: int | None, ref: Any) -> None:
        """Take a seat at a waiting table (leaving any other waiting table: a person waits at
        one table at a time), or come back to your seat in a game under way (as `resume`)."""
        player = conn.player
        assert player is not None
        await self._require_consent(conn, ref)
        if table.status == "over":
            raise p.ProtocolError(p.GAME_OVER, f"the game at table {table.id} has ended; "
                                               f"spectate it to see how it ended", ref)
        if player in table.barred:
            raise p.ProtocolError(p.FORBIDDEN, f"the host removed you from table {table.id}", ref)
        seat = table.seat_of(player)
        if seat is not None and table.status != "waiting":
            await self._rejoin(conn, table, seat, ref)
            return
        moved_from: list[Table] = []
        if seat is None:
            if table.status != "waiting":
                raise p.ProtocolError(p.SEAT_TAKEN, "the game has started; spectate instead", ref)
            if index is None:
                free = table.open_seats()
                if not free:
                    raise p.ProtocolError(p.SEAT_TAKEN, "no open seat at this table", ref)
                seat = free[0]
            else:
                if not 0 <= index < len(table.seats):
                    raise p.ProtocolError(p.BAD_SEAT, f"no seat {index}; seats are "
                                                      f"0..{len(table.seats) - 1}", ref)
                seat = table.seats[index]
                if seat.kind != "human":
                    raise p.ProtocolError(p.BAD_SEAT, f"seat {index} is a bot seat", ref)
                if seat.player is not None:
                    raise p.ProtocolError(p.SEAT_TAKEN, f"seat {index} is taken by "
                                                        f"{seat.player.name}", ref)
            for other in self.tables.values():
                old = other.seat_of(player) if other.status == "waiting" else None
                if old is not None:
                    old.player = None
                    moved_from.append(other)
            seat.player = player
        await self.reply(conn, p.message("table", ref, table=table.summary(),
                                          your_seat=seat.index))
        for other in moved_from:
            await other.broadcast_table()
        await table.broadcast_table()
        await table.maybe_start()

    async def _on_spectate(self, conn: Connection, req: p.Request) -> None:
        table = self.table_of(req)
        if conn not in table.spectators:
            self._check_spectating(conn, table, req.id)
        table.add_spectator(conn)  # the table is told the new count (coalesced)
        await self.reply(conn, p.message("table", req.id, table=table.summary(), your_seat=None))
        if table.game is not None:
            await self.reply(conn, catch_up_message(table, None))
        if table.game_over_message is not None:
            await self.reply(conn, table.game_over_message)

    def _check_spectating(self, conn: Connection, table: Table, ref: Any) -> None:
        """Each watcher costs the table a copy of every message: bounded per table and per
        connection."""
        limits = self.limits
        if len(table.spectators) >= limits.spectators_per_table:
            raise p.ProtocolError(p.LIMIT, f"table {table.id} has {len(table.spectators)} "
                                           f"spectators, the most this server allows", ref)
        watching = sum(1 for t in self.tables.values()
                       if conn in t.spectators and t.status != "over")
        if watching >= limits.spectating_per_connection:
            raise p.ProtocolError(p.LIMIT, f"you are watching {watching} tables, the most one "
                                           f"connection may; stop watching one first", ref)

    async def _on_admin(self, conn: Connection, req: p.Request) -> None:
        await admin.handle(self, conn, req)

    def _awaited_seat(self, conn: Connection, req: p.Request) -> tuple[Table, Seat]:
        """The table and the requester's seat, whose decision on `req["turn"]` is awaited now;
        else the ProtocolError saying why not."""
        table = self.table_of(req)
        seat = table.seat_of(conn.player) if conn.player else None
        if seat is None:
            raise p.ProtocolError(p.NOT_SEATED, "you have no seat at this table", req.id)
        if table.game is None or table.status == "waiting":
            raise p.ProtocolError(p.NOT_YOUR_TURN, "the game has not started", req.id)
        if table.game.over:
            raise p.ProtocolError(p.GAME_OVER, "the game is over", req.id)
        if seat.turn is None:
            raise p.ProtocolError(p.NOT_YOUR_TURN, "your decision is not awaited now", req.id)
        if req["turn"] != seat.turn:
            raise p.ProtocolError(p.STALE_TURN, f"turn {req['turn']} is stale; the current "
                                                f"turn is {seat.turn}", req.id)
        return table, seat

    async def _on_preview(self, conn: Connection, req: p.Request) -> None:
        """The rules' word on a draft of the seat's own move (the env's `preview`): the
        problems it would be refused for, told to the seat alone; nothing is played."""
        table, seat = self._awaited_seat(conn, req)
        assert table.game is not None
        try:
            problems = [str(x) for x in table.game.preview(seat.index, req["action"])]
        except (EngineError, TypeError, ValueError):
            problems = []  # a draft the env cannot read: the move itself will say why
        await self.reply(conn, p.message("preview", req.id, table_id=table.id, turn=req["turn"],
                                         action=req["action"], problems=problems))

    async def _on_act(self, conn: Connection, req: p.Request) -> None:
        table, seat = self._awaited_seat(conn, req)
        try:
            await table.submit(seat, req["action"], turn=req["turn"])
        except StaleTurnError as e:  # another answer to this turn got in first
            raise p.ProtocolError(p.STALE_TURN, str(e), req.id) from None
        except NotYourTurnError as e:
            raise p.ProtocolError(p.NOT_YOUR_TURN, str(e), req.id) from None
        except GameOverError as e:
            raise p.ProtocolError(p.GAME_OVER, str(e), req.id) from None
        except (EngineError, TypeError) as e:
            raise p.ProtocolError(p.BAD_ACTION, str(e), req.id) from None
        except ActionFailed as e:  # the game has ended as void; everyone got game_over
            raise p.ProtocolError(p.INTERNAL, str(e), req.id) from None

    async def _on_leave(self, conn: Connection, req: p.Request) -> None:
        table = self.table_of(req)
        table.remove_spectator(conn)  # the table is told the new count (coalesced)
        seat = table.seat_of(conn.player) if conn.player else None
        if seat is not None:
            if table.status == "waiting":
                seat.player = None
                if not any(s.player for s in table.seats):  # nobody waits here any more
                    await self.close_waiting(table, "its last person left")
                    await self.reply(conn, p.message("table", req.id, table=table.summary(),
                                                     your_seat=None))
                    return
            elif table.status in ("starting", "playing"):
                # Leaving a game under way abandons it: the seat forfeits (everyone, the
                # leaver too, gets game_over), or the game is void if no person has moved yet.
                await table.forfeit(seat, "resigned", "left the game")
        await self.reply(conn, p.message("table", req.id, table=table.summary(), your_seat=None))
        if seat is not None:
            await table.broadcast_table()

    async def _on_resume(self, conn: Connection, req: p.Request) -> None:
        table = self.table_of(req)
        seat = table.seat_of(conn.player) if conn.player else None
        if seat is None:
            raise p.ProtocolError(p.NOT_SEATED, "you have no seat at this table to resume",
                                  req.id)
        await self._require_consent(conn, req.id)
        await self._rejoin(conn, table, seat, req.id)

    async def _rejoin(self, conn: Connection, table: Table, seat: Seat, ref: Any) -> None:
        """Back at your seat (`resume`, or `join` of a seat you hold in a game under way): the
        disconnect grace ends (the table hears it), then the table, your view with the latest
        events, your outstanding turn, and game_over if the game has ended."""
        back = table.reconnected(seat)
        await self.reply(conn, p.message("table", ref, table=table.summary(),
                                          your_seat=seat.index))
        if back:
            await table.broadcast_table()
        if table.game is not None:
            await self.reply(conn, catch_up_message(table, seat.index))
            await table.send_turn(seat)
        if table.game_over_message is not None:
            await self.reply(conn, table.game_over_message)

    async def _on_history(self, conn: Connection, req: p.Request) -> None:
        """A page of the event log as the asker may see it (their seat's view, or a
        spectator's): players and spectators of the table only."""
        table = self.table_of(req)
        seat = table.seat_of(conn.player) if conn.player else None
        if seat is None and conn not in table.spectators:
            raise p.ProtocolError(p.NOT_SEATED, "spectate or join the table to read its history",
                                  req.id)
        if table.game is None:
            raise p.ProtocolError(p.NOT_YOUR_TURN, "the game has not started", req.id)
        msg = history_page(table, seat.index if seat else None, req.get("since", 0),
                           req.get("limit", 200))
        await self.reply(conn, {**msg, "ref": req.id})

    async def _on_leaderboard(self, conn: Connection, req: p.Request) -> None:
        env = known_env(req["env"], req.id)
        assert self.store is not None
        leagues = ratings.LEAGUES.get(env.rating, ())
        scheme = req.get("scheme")
        if scheme is not None and scheme not in leagues:
            raise p.ProtocolError(p.BAD_MESSAGE, f"{env.id} keeps no {scheme!r} ratings; "
                                  f"it keeps {', '.join(leagues) or 'none'}", req.id)
        rows: list[dict[str, Any]] = []
        for league in [scheme] if scheme else leagues:  # unasked: the first with players
            scheme, rows = league, await self.store.leaderboard(env.id, league)
            if rows:
                break
        unrated_count, unrated = await self.store.unrated_games(env.id, UNRATED_LISTED)
        await self.reply(conn, p.message("leaderboard", req.id, env=env.id, scheme=env.rating,
                                          league=scheme, leagues=list(leagues), rows=rows,
                                          unrated_count=unrated_count, unrated=unrated))

    async def _on_profile(self, conn: Connection, req: p.Request) -> None:
        """A player's profile (server/store/profiles.py): one's own whole, another's as the
        leaderboards show them; read apart from the loop."""
        assert self.store is not None and conn.player is not None
        asker = conn.player.name
        name = (req.get("name") or "").strip() or asker
        try:
            found = await self.store.read_apart(
                lambda c: profiles.profile(c, name, asker))
        except profiles.UnknownPlayer as e:
            raise p.ProtocolError(p.UNKNOWN_PLAYER, str(e), req.id) from None
        await self.reply(conn, p.message("profile", req.id, **found))

    async def _on_replay(self, conn: Connection, req: p.Request) -> None:
        """A game watched again (server/net/replays.py)."""
        assert self.store is not None and conn.player is not None
        table = self.table_of(req) if "table_id" in req.body else None
        await self.reply(conn, await self.replays.answer(self.store, req, conn.player.identity,
                                                         table))

    async def _on_report(self, conn: Connection, req: p.Request) -> None:
        """One env's comparison of people and bots (the builder handed in), read apart from
        the loop: it may read every stored game of the env."""
        env = known_env(req["env"], req.id)
        assert self.store is not None
        if self.reports is None:
            raise p.ProtocolError(p.UNAVAILABLE, "this server was started without reports; "
                                  f"`parlor report {env.id}` on its database gives them",
                                  req.id)
        build, leagues = self.reports, ratings.LEAGUES.get(env.rating, ())
        pool, by = req.get("pool"), req.get("by")
        # a study's people under its pseudonyms, as its exports and consents name them
        study = {"study": self.study.name} if self.study else {}

        def read(c: sqlite3.Connection) -> dict[str, Any]:
            return {**build(c, env.id, pool, by, **study), "env": env.id, "pool": pool,
                    "by": by,
                    "ratings_over_time": profiles.ratings_over_time(c, env.id, leagues)}

        key = (env.id, pool, by)
        async with self._report_lock:
            ended, made, body = self._report_cache.get(key, (-1, 0.0, {}))
            if ended != self.store.games_ended or time.monotonic() - made > REPORT_TTL:
                ended = self.store.games_ended
                body = await self.store.read_apart(read)
                self._report_cache[key] = (ended, time.monotonic(), body)
        await self.reply(conn, p.message("report", req.id, **body))
