"""Protocol v1 message validation: every malformed request gets a precise error code."""

import json
from collections.abc import Mapping
from types import MappingProxyType

import pytest

from server.wire import protocol as p


def parse(obj):
    return p.parse_client_message(json.dumps(obj))


def test_valid_requests_parse():
    r = parse(p.request("hello", 1, name="ada"))
    assert (r.type, r.id, r["name"]) == ("hello", 1, "ada")
    r = parse(p.request("act", "x", table_id="t1", turn=3, action={"A": 20}))
    assert r["action"] == {"A": 20} and r.get("missing") is None


@pytest.mark.parametrize("raw,code", [
    ("{not json", p.BAD_JSON),
    ("[1, 2]", p.BAD_MESSAGE),
    (json.dumps({"type": "hello", "name": "a"}), p.BAD_VERSION),
    (json.dumps({"v": 2, "type": "hello", "name": "a"}), p.BAD_VERSION),
    (json.dumps({"v": 1, "type": "launch_missiles"}), p.UNKNOWN_TYPE),
    (json.dumps({"v": 1, "type": "hello"}), p.BAD_MESSAGE),
    (json.dumps({"v": 1, "type": "hello", "name": ""}), p.BAD_MESSAGE),
    (json.dumps({"v": 1, "type": "hello", "name": "x" * 41}), p.BAD_MESSAGE),
    (json.dumps({"v": 1, "type": "join", "table_id": 5}), p.BAD_MESSAGE),
    (json.dumps({"v": 1, "type": "act", "table_id": "t", "turn": True, "action": "x"}),
     p.BAD_MESSAGE),
    (json.dumps({"v": 1, "type": "act", "table_id": "t", "turn": 1, "action": "x",
                 "extra": 1}), p.BAD_MESSAGE),
    (json.dumps({"v": 1, "type": "act", "table_id": "t", "turn": 1, "action": "x" * 4001}),
     p.TOO_LARGE),
    ("x" * (p.MAX_MESSAGE_BYTES + 1), p.TOO_LARGE),
    (b"\xff\xfe", p.BAD_JSON),
])
def test_malformed_requests_are_refused_with_a_code(raw, code):
    with pytest.raises(p.ProtocolError) as err:
        p.parse_client_message(raw)
    assert err.value.code == code and err.value.message


def test_error_reply_carries_the_request_id():
    with pytest.raises(p.ProtocolError) as err:
        parse({"v": 1, "type": "nope", "id": 42})
    reply = p.error(err.value.code, err.value.message, err.value.ref)
    assert reply == {"v": 1, "type": "error", "ref": 42, "code": p.UNKNOWN_TYPE,
                     "message": err.value.message}


def test_server_messages_round_trip():
    msg = p.message("your_turn", 7, table_id="t", turn=1)
    assert p.decode_server_message(p.encode(msg)) == msg
    with pytest.raises(ValueError):
        p.decode_server_message(json.dumps({"v": 1, "type": "hello"}))


def test_player_counts_read_as_a_run_or_a_list():
    assert p.players_text([3]) == "3"
    assert p.players_text([2, 4]) == "2/4"
    assert p.players_text((1, 2, 3, 4, 5, 6, 7, 8, 9, 10)) == "1-10"
    assert p.players_text([4, 5]) == "4/5"


@pytest.mark.parametrize("config,code,where", [
    ('{"x": [1, {"y": "\\ud800"}]}', p.BAD_TEXT, "create_table.config.x[1].y is not"),
    ('{"x": [{"\\udfff": 1}]}', p.BAD_TEXT, "a field name in create_table.config.x[0] is"),
    ('{"x": [1, 2, 1e999]}', p.BAD_NUMBER, "create_table.config.x[2] is a number"),
    ('{"x": {"é": [' + "9" * 40 + "]}}", p.BAD_NUMBER, "create_table.config.x.é[0] is"),
])
def test_a_refused_value_deep_in_a_message_is_named_by_its_path(config, code, where):
    raw = ('{"v": 1, "type": "create_table", "env": "colonel-blotto", "seats": ["human"], '
           f'"config": {config}}}')
    with pytest.raises(p.ProtocolError) as err:
        p.parse_client_message(raw)
    assert err.value.code == code and err.value.message.startswith(where)


@pytest.mark.parametrize("value", ["\ud800 lone", 2**70, -(2**64), 2**63, 10**18, 1e300, -0.0,
                                   {"a": ["1234567890123456789012", None, True]}, "é ✓ 𝄞"])
def test_clients_read_what_the_server_writes_as_the_standard_library_does(value):
    text = p.encode(p.message("event", table_id="t", data=value))
    for raw in (text, text.encode()):
        msg = p.decode_server_message(raw)
        assert msg == json.loads(text)
        assert type(msg["data"]) is type(json.loads(text)["data"])


@pytest.mark.parametrize("value", [
    {"a": [1, 2.5, None, True], "é": {"b": "x"}},  # string keys only: the fast way
    {0: "zero", 1: {2: [3]}, "s": 4},  # int keys (a tally by seat): written as strings
    {"proxy": MappingProxyType({"k": (1, 2)}), 3: MappingProxyType({4: "v"})},
    {"big": 2**70, 5: "\ud800"},  # what orjson refuses: the standard library writes it
])
def test_the_server_writes_any_value_as_the_standard_library_reads_it(value):
    """Whichever way a message is written (orjson as it is, orjson allowing non-string keys,
    the standard library), its text reads back as the standard library writes that value."""
    def plain(v):
        if isinstance(v, Mapping):
            return {str(k): plain(x) for k, x in v.items()}
        return [plain(x) for x in v] if isinstance(v, list | tuple) else v
    expected = json.loads(json.dumps(plain(value)))
    assert json.loads(p.encode(value)) == expected
    assert json.loads(p.encode_bytes(value)) == expected
    assert p.encode_bytes(value).decode() == p.encode(value)


@pytest.mark.parametrize("action", [
    {"A": 123456789012345, "B": -0.5, "C": None, "D": True},  # read by orjson
    {"A": 9007199254740991, "B": "1" * 40, "C": "é 𝄞"},  # digits in a row: the slow way
    {"A": 0.1234567890123456, "B": 12345.678},  # 16 digits after the point: the slow way
    {"A": 1e308, "B": "\u2028", "C": "x" * 33},
])
def test_requests_read_fast_or_slow_read_the_same(action):
    text = json.dumps({"v": 1, "type": "act", "id": 7, "table_id": "t", "turn": 2,
                       "action": action}, ensure_ascii=False)
    assert p.parse_client_message(text).body == {k: v for k, v in json.loads(text).items()
                                                 if k not in ("v", "type", "id")}
