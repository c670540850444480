"""Hostile input at the edge (issue 10, "A bad message can leave a game running forever" and
"Every protocol input validated at the edge"): each bad request gets a precise error code and no
internals, and the game it aimed at is unchanged and still playable. A move that fails inside a
table ends the game as void, stored and announced, instead of leaving it running forever.

A real server on 127.0.0.1, real websockets, the real SQLite file."""

from __future__ import annotations

import json
import sqlite3

import pytest
from websockets.exceptions import ConnectionClosed

from server.wire import protocol as p
from tests.server.conftest import Client

ALLOC = "[A17 B2 C1]"  # a valid allocation at the small preset
DEEP = 30_000  # nesting that once raised RecursionError inside the server (fits in 64 KiB)


def rows(db, sql, *params):
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute(sql, params)]


async def seated_at_blotto(server):
    """ada (seat 0) and bob (seat 1), people at a small Blotto game; both are asked to move and
    neither has: nothing changes until ada moves. Returns (ada, bob, table id, ada's turn)."""
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "human"], seed=7, join_seat=0))["table"]
    await bob.request("join", table_id=table["id"])
    turn = await ada.wait_for("your_turn")
    await bob.wait_for("your_turn")
    return ada, bob, table["id"], turn["turn"]


async def snapshot(client: Client, table_id: str) -> dict:
    """The game as `client`'s seat sees it (resume: the table, the view with the latest events,
    the outstanding turn)."""
    ref = await client.send("resume", table_id=table_id)
    seen: dict[str, dict] = {}
    while len(seen) < 3:
        msg = await client.recv()
        assert msg["type"] != "error", msg
        if msg["type"] == "table" and msg.get("ref") == ref or msg["type"] in ("event",
                                                                               "your_turn"):
            seen[msg["type"]] = msg
    return {"status": seen["table"]["table"]["status"], "view": seen["event"]["view"],
            "events": seen["event"]["events"], "turn": seen["your_turn"]["turn"],
            "legal": seen["your_turn"]["legal"]}


def stored(db) -> dict:
    return {"games": rows(db, "SELECT status FROM games"),
            "actions": rows(db, "SELECT count(*) n FROM actions")[0]["n"],
            "events": rows(db, "SELECT count(*) n FROM events")[0]["n"]}


async def reply_to(client: Client, raw: str | bytes) -> dict:
    """Send a raw frame; the error it gets (nothing else may come: the game is still)."""
    await client.ws.send(raw)
    msg = await client.recv()
    assert msg["type"] == "error", msg
    return msg


async def moves_on(ada: Client, table_id: str, turn: int) -> None:
    """ada's valid move is taken: it is stored and broadcast."""
    await ada.send("act", table_id=table_id, turn=turn, action=ALLOC)
    while True:
        msg = await ada.recv()
        assert msg["type"] != "error", msg
        if msg["type"] == "event" and any(e["type"] == "allocation_submitted" and
                                          e["data"].get("seat") == 0 for e in msg["events"]):
            return


def act_text(table_id: str, turn: str, action: str, extra: str = "") -> str:
    """An act request as JSON text with raw fragments (numbers no encoder would write)."""
    return (f'{{"v":1,"type":"act","id":7,"table_id":{table_id},"turn":{turn},'
            f'"action":{action}{extra}}}')


# (name, frame built from (quoted table id, turn), expected code, the field the message names)
HOSTILE = [
    ("lone surrogate in action text",
     lambda t, n: act_text(t, n, '"[A17 \\ud800 B2 C1]"'), p.BAD_TEXT, "act.action"),
    ("lone surrogate in a structured action",
     lambda t, n: act_text(t, n, '{"A":"\\ud800","B":2}'), p.BAD_TEXT, "act.action.A"),
    ("lone surrogate in a field name",
     lambda t, n: act_text(t, n, '{"\\udfff":1}'), p.BAD_TEXT, "act.action"),
    ("5,000-digit turn",
     lambda t, n: act_text(t, "9" * 5000, json.dumps(ALLOC)), p.BAD_NUMBER, "act.turn"),
    ("5,000-digit integer in an action",
     lambda t, n: act_text(t, n, '{"A":' + "9" * 5000 + "}"), p.BAD_NUMBER, "act.action.A"),
    ("integer just beyond 2**53 in an action",
     lambda t, n: act_text(t, n, '{"A":9007199254740992}'), p.BAD_NUMBER, "act.action.A"),
    ("infinite float in an action",
     lambda t, n: act_text(t, n, '{"A":1e999}'), p.BAD_NUMBER, "act.action.A"),
    (f"{DEEP:,}-deep nesting",
     lambda t, n: act_text(t, n, "[" * DEEP + "]" * DEEP), p.TOO_DEEP, ""),
    ("nesting in an object just past the limit",
     lambda t, n: act_text(t, n, '{"a":' * (p.MAX_DEPTH) + "1" + "}" * p.MAX_DEPTH),
     p.TOO_DEEP, ""),
    ("100,000-deep nesting (past the size limit, within a frame)",
     lambda t, n: "[" * 100_000, p.TOO_LARGE, ""),
    ("list-valued table_id",
     lambda t, n: act_text(f"[{t}]", n, json.dumps(ALLOC)), p.BAD_MESSAGE, "act.table_id"),
    ("list-valued turn",
     lambda t, n: act_text(t, f"[{n}]", json.dumps(ALLOC)), p.BAD_MESSAGE, "act.turn"),
    ("list-valued seat",
     lambda t, n: json.dumps({"v": 1, "type": "join", "id": 7, "table_id": json.loads(t),
                              "seat": [0]}), p.BAD_MESSAGE, "join.seat"),
    ("list value in a structured action",
     lambda t, n: act_text(t, n, '{"A":[17],"B":2,"C":1}'), p.BAD_MESSAGE, "act.action.A"),
    ("nested object in a structured action",
     lambda t, n: act_text(t, n, '{"A":{"x":17}}'), p.BAD_MESSAGE, "act.action.A"),
    ("list-valued id",
     lambda t, n: act_text(t, n, json.dumps(ALLOC)).replace('"id":7', '"id":[7]'),
     p.BAD_MESSAGE, "id"),
    ("boolean turn", lambda t, n: act_text(t, "true", json.dumps(ALLOC)), p.BAD_MESSAGE,
     "act.turn"),
    ("negative turn", lambda t, n: act_text(t, "-1", json.dumps(ALLOC)), p.BAD_MESSAGE,
     "act.turn"),
    ("history page beyond the limit",
     lambda t, n: json.dumps({"v": 1, "type": "history", "id": 7, "table_id": json.loads(t),
                              "limit": 10**6}), p.BAD_MESSAGE, "history.limit"),
]


@pytest.mark.parametrize("frame,code,field", [h[1:] for h in HOSTILE],
                         ids=[h[0] for h in HOSTILE])
async def test_a_hostile_request_is_refused_precisely_and_the_game_goes_on(
        server, frame, code, field):
    ada, bob, table_id, turn = await seated_at_blotto(server)
    before, on_disk = await snapshot(ada, table_id), stored(server.db_path)
    err = await reply_to(ada, frame(json.dumps(table_id), str(turn)))
    assert err["code"] == code, err
    assert field in err["message"] and "Traceback" not in err["message"]
    assert len(err["message"]) < 400  # a 5,000-digit number is described, not echoed
    if code not in (p.TOO_DEEP, p.TOO_LARGE) and field != "id":
        assert err["ref"] == 7  # parsed far enough to know which request it answers
    assert await snapshot(ada, table_id) == before
    assert stored(server.db_path) == on_disk
    assert server.tables[table_id].status == "playing"
    await moves_on(ada, table_id, turn)


async def test_nesting_too_deep_for_one_frame_closes_only_that_connection(server):
    """Balanced 100,000-deep nesting is larger than a websocket frame may be: the websocket
    layer closes that connection (1009); the player comes back and the game is as it was."""
    ada, bob, table_id, turn = await seated_at_blotto(server)
    before = await snapshot(ada, table_id)
    await ada.ws.send("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await ada.recv()
    assert closed.value.rcvd.code == 1009
    back = await Client.connect(server.url, "ada", ada.welcome["player"]["token"])
    assert await snapshot(back, table_id) == before
    await moves_on(back, table_id, turn)


@pytest.mark.parametrize("text", [
    '{"v":1,"type":"act","table_id":"t","turn":1,"action":"' + "[" * 200 + '"}',
    '{"v":1,"type":"act","table_id":"t","turn":1,"action":"\\"' + "{" * 200 + '\\\\"}',
    '{"v":1,"type":"create_table","env":"x","seats":[],"config":' + '{"a":' * 31 + "1" +
    "}" * 31 + "}",
])
def test_brackets_inside_strings_and_nesting_at_the_limit_are_accepted(text):
    assert p.parse_client_message(text).type in ("act", "create_table")


@pytest.mark.parametrize("literal", ["9007199254740991", "-9007199254740991", "1.5e3", "0"])
def test_numbers_within_the_limits_are_accepted(literal):
    raw = '{"v":1,"type":"act","table_id":"t","turn":1,"action":{"A":' + literal + '}}'
    assert p.parse_client_message(raw)["action"]["A"] == json.loads(literal)


def test_binary_frames_must_be_utf8_json():
    with pytest.raises(p.ProtocolError) as err:
        p.parse_client_message(b'{"v":1,"type":"list_envs","x":"\xed\xa0\x80"}')
    assert err.value.code == p.BAD_JSON


async def crash_on(ada: Client, table_id: str, turn: int) -> dict:
    """ada's move fails inside the table; returns the error she got."""
    await ada.send("act", table_id=table_id, turn=turn, action=ALLOC)
    while True:
        msg = await ada.recv()
        if msg["type"] == "error":
            return msg


async def assert_voided(server, table_id: str, err: dict, *clients: Client) -> None:
    assert err["code"] == p.INTERNAL and "void" in err["message"]
    assert "Traceback" not in err["message"] and "secret" not in err["message"]
    for client in clients:  # ada's came before her error reply
        over = next((m for m in client.received if m["type"] == "game_over"), None) or \
            await client.wait_for("game_over")
        assert over["result"]["void"] and "internal error" in over["result"]["reason"]
        assert "secret" not in over["result"]["reason"]
    (game,) = rows(server.db_path, "SELECT status, reason, result FROM games")
    assert game["status"] == "void" and game["result"] is not None
    lobby = await clients[0].request("list_tables")  # the connection is still usable
    assert [t["status"] for t in lobby["tables"] if t["id"] == table_id] == ["over"]
    assert server.tables[table_id].done.is_set()


async def test_rules_that_raise_mid_move_end_the_game_as_void_and_tell_everyone(
        server, monkeypatch):
    ada, bob, table_id, turn = await seated_at_blotto(server)
    eve = await Client.connect(server.url, "eve")
    await eve.request("spectate", table_id=table_id)
    game = server.tables[table_id].game
    rules = type(game)

    def half_applied(self, seat, action):  # an env bug: the state is half-changed
        self.emit("allocation_submitted", {"seat": seat})
        raise ValueError("secret internals of the rules")

    monkeypatch.setattr(rules, "_apply", half_applied)
    err = await crash_on(ada, table_id, turn)
    await assert_voided(server, table_id, err, ada, bob, eve)


async def test_a_store_refusing_a_move_ends_the_game_as_void(server, monkeypatch):
    ada, bob, table_id, turn = await seated_at_blotto(server)
    store = server.store
    write_rows = store.write_rows

    async def refuse_moves(rows):
        if rows.actions:
            raise sqlite3.OperationalError("secret: disk I/O error")
        await write_rows(rows)

    monkeypatch.setattr(store, "write_rows", refuse_moves)
    err = await crash_on(ada, table_id, turn)
    await assert_voided(server, table_id, err, ada, bob)
    assert rows(server.db_path, "SELECT count(*) n FROM actions")[0]["n"] == 0


async def test_an_internal_error_reply_has_no_exception_text(server, monkeypatch):
    ada = await Client.connect(server.url, "ada")

    async def broken(conn, req):
        raise RuntimeError("secret internals\nTraceback (most recent call last):")

    monkeypatch.setattr(server, "_on_list_envs", broken)
    err = await ada.request("list_envs")
    assert err["code"] == p.INTERNAL and "secret" not in err["message"]
    assert "Traceback" not in err["message"]
    assert (await ada.request("list_tables"))["type"] == "tables"
