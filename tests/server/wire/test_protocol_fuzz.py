"""Protocol fuzzing (issue 10): hypothesis sends bad messages — every request type with one part
made hostile, random text and random bytes — to a real server on 127.0.0.1 where the fuzzing
client holds a seat in a running game. Every bad message gets an error reply with a precise
code (never `internal`, never a traceback), the connection stays usable, and the game is exactly
as it was: its view, events and outstanding turn, and the rows on disk."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from server.net.embedded import start_embedded
from server.net.limits import Limits
from server.wire import protocol as p

FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])
CODES = {p.BAD_JSON, p.TOO_LARGE, p.TOO_DEEP, p.BAD_MESSAGE, p.BAD_TEXT, p.BAD_NUMBER,
         p.BAD_VERSION, p.UNKNOWN_TYPE, p.BAD_CONFIG, p.UNKNOWN_ENV, p.BAD_SEAT}


class Player:
    """A seated player over a real websocket (sync client; the server runs in its own thread)."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.ids = 0
        self.welcome = self.request("hello", name=name)

    def send(self, type: str, **body: Any) -> int:
        self.ids += 1
        self.ws.send(json.dumps(p.request(type, self.ids, **body)))
        return self.ids

    def recv(self) -> dict[str, Any]:
        return json.loads(self.ws.recv(timeout=10))

    def request(self, type: str, **body: Any) -> dict[str, Any]:
        ref = self.send(type, **body)
        while (msg := self.recv()).get("ref") != ref:
            pass
        return msg

    def wait_for(self, type: str) -> dict[str, Any]:
        while (msg := self.recv())["type"] != type:
            pass
        return msg

    def snapshot(self, table_id: str) -> dict[str, Any]:
        """What this seat sees of the game (resume: table, view with latest events, turn)."""
        ref = self.send("resume", table_id=table_id)
        seen: dict[str, dict[str, Any]] = {}
        while len(seen) < 3:
            msg = self.recv()
            assert msg["type"] != "error", msg
            if msg["type"] in ("event", "your_turn") or msg.get("ref") == ref:
                seen[msg["type"]] = msg
        return {"table": seen["table"]["table"], "view": seen["event"]["view"],
                "events": seen["event"]["events"], "turn": seen["your_turn"]["turn"],
                "legal": seen["your_turn"]["legal"]}


class Game:
    def __init__(self, db: str, ada: Player, table_id: str, turn: int) -> None:
        self.db, self.ada, self.table_id, self.turn = db, ada, table_id, turn
        self.before = ada.snapshot(table_id)
        self.on_disk = self.stored()

    def stored(self) -> tuple[Any, ...]:
        with sqlite3.connect(self.db) as conn:
            return (conn.execute("SELECT id, status FROM games").fetchall(),
                    conn.execute("SELECT count(*) FROM actions").fetchone(),
                    conn.execute("SELECT count(*) FROM events").fetchone())

    def check(self, frame: str | bytes, ref: Any = None) -> None:
        """`frame` gets an error reply with a precise code, and nothing changed."""
        self.ada.ws.send(frame)
        msg = self.ada.recv()
        assert msg["type"] == "error", msg
        assert msg["code"] in CODES, msg
        assert "Traceback" not in msg["message"] and len(msg["message"]) < 600, msg
        if ref is not None and msg["code"] not in (p.BAD_JSON, p.TOO_LARGE, p.TOO_DEEP):
            assert msg.get("ref") == ref, msg
        assert self.ada.snapshot(self.table_id) == self.before  # usable, and unchanged
        assert self.stored() == self.on_disk


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Iterator[Game]:
    """ada (seat 0, the fuzzer) and bob (seat 1) at a small Blotto game, both asked to move:
    nothing changes unless a message reaches the game."""
    db = str(tmp_path_factory.mktemp("fuzz") / "parlor.db")
    lots = 10**6  # the fuzzer sends far faster than a person may
    server = start_embedded(db, turn_timeout=3600, disconnect_grace=3600,
                            limits=Limits(messages_per_second=lots, burst=lots, drop_after=lots))
    try:
        with connect(server.url, max_size=None) as ada_ws, \
                connect(server.url, max_size=None) as bob_ws:
            yield from play(db, Player(ada_ws, "ada"), Player(bob_ws, "bob"))
    finally:
        server.stop()


def play(db: str, ada: Player, bob: Player) -> Iterator[Game]:
    table = ada.request("create_table", env="colonel-blotto", preset="small",
                        seats=["human", "human"], join_seat=0)["table"]
    bob.request("join", table_id=table["id"])
    turn = ada.wait_for("your_turn")["turn"]
    bob.wait_for("your_turn")
    yield Game(db, ada, table["id"], turn)


# -- hostile JSON fragments: none is a valid value for any field (`config` aside, whose bad
# objects the handler refuses), and none is a valid id, version or type ----------------------
def _quoted(text: str) -> str:
    return json.dumps(text)


surrogates = st.sampled_from(["\\ud800", "\\udfff", "x\\udc00y", "\\ud83d"]).map(
    lambda s: f'"{s}"')
huge_ints = st.integers(17, 6000).flatmap(lambda n: st.sampled_from(["", "-"]).map(
    lambda sign: sign + "9" * n))
edge_numbers = st.sampled_from(["9007199254740992", "-9007199254740992", "1e400", "-1e999",
                                "1" + "0" * 40 + ".5", "1.5", "0.0", "1e-400"])
deep = st.integers(p.MAX_DEPTH + 1, 20_000).flatmap(lambda d: st.sampled_from([
    "[" * d + "]" * d, '{"a":' * d + "1" + "}" * d, "[" * d]))
# No flat object ({} or {"a": 1} is an action a game would judge, or a valid config).
shapes = st.sampled_from(["[]", "[1]", '[["x"]]', '{"a":[1]}', '{"a":{"b":1}}', "true",
                          "false", '{"":null}', '["\\ud800"]', '{"\\ud800":1}'])
long_text = st.integers(MAX := p.MAX_ACTION_CHARS + 1, 3 * MAX).map(lambda n: _quoted("x" * n))
hostile = st.one_of(surrogates, huge_ints, edge_numbers, deep, shapes, long_text,
                    st.just("null"))

BASES: dict[str, dict[str, Any]] = {
    "hello": {"name": "ada"},
    "list_envs": {},
    "list_tables": {},
    "create_table": {"env": "colonel-blotto", "preset": "small", "seats": ["human", "human"]},
    "join": {"table_id": None},
    "spectate": {"table_id": None},
    "act": {"table_id": None, "turn": None, "action": "[A7 B7 C6]"},
    "leave": {"table_id": None},
    "resume": {"table_id": None},
    "leaderboard": {"env": "colonel-blotto"},
    "history": {"table_id": None, "since": 0},
    "replay": {"table_id": None, "seat": 0, "at": 0},
}


def build(game: Game, kind: str, body: dict[str, str], head: dict[str, str]) -> str:
    """A request as JSON text from raw fragments (so numbers no encoder writes can go in)."""
    parts = {**head, **body}
    return "{" + ",".join(f"{_quoted(k)}:{v}" for k, v in parts.items()) + "}"


@st.composite
def bad_requests(draw: st.DrawFn, game: Game) -> tuple[str, int | None]:
    """A valid request of some type with exactly one part made hostile: a field's value, an
    unknown field, a missing required field, the version, the type or the id."""
    kind = draw(st.sampled_from(sorted(BASES)))
    values = {"table_id": game.table_id, "turn": game.turn}
    body = {k: json.dumps(values.get(k, v) if v is None else v) for k, v in BASES[kind].items()}
    head = {"v": "1", "type": _quoted(kind), "id": "42"}
    ref: int | None = 42
    schema = p.CLIENT_MESSAGES[kind]
    how = draw(st.sampled_from(["field", "unknown", "missing", "version", "type", "id"]))
    if how == "field" and schema:
        body[draw(st.sampled_from(sorted(schema)))] = draw(hostile)
    elif how == "missing" and body and any(required for _, required in schema.values()):
        del body[draw(st.sampled_from(sorted(k for k, (_, r) in schema.items() if r)))]
    elif how == "version":
        head["v"] = draw(st.one_of(hostile, st.sampled_from(["2", "0", '"1"', "1.0"])))
    elif how == "type":
        head["type"] = draw(st.one_of(
            hostile, st.text(max_size=20).filter(lambda t: t not in BASES).map(_quoted)))
    elif how == "id":
        head["id"] = draw(hostile.filter(lambda f: f != "null"))
        ref = None
    else:  # an unknown field, with any value at all
        name = draw(st.text(min_size=1, max_size=12).filter(lambda n: n not in schema and
                                                             n not in ("v", "type", "id")))
        body[name] = draw(st.one_of(hostile, st.sampled_from(["1", '"x"', "null"])))
    return build(game, kind, body, head), ref


@FUZZ
@given(data=st.data())
def test_every_bad_request_is_refused_and_changes_nothing(game, data):
    frame, ref = data.draw(bad_requests(game))
    game.check(frame, ref)


@FUZZ
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300),
                 st.integers(p.MAX_MESSAGE_BYTES + 1, 2 * p.MAX_MESSAGE_BYTES - 100).map(
                     lambda n: "[" + " " * n + "]")))
def test_random_text_and_bytes_are_refused_and_change_nothing(game, frame):
    game.check(frame)
