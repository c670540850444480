"""The host's bot policy (issue 10): a server seats only the bots its host allows, a key for an
openai-compatible server goes only to the URL the host bound it to, and each player's LLM seats
are limited. Real servers over websockets, the real openai client against local fakes."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys

import pytest

import server.net.serve
from server.cli import main
from server.net.embedded import start_embedded
from server.tables.policy import BotPolicy, SeatLimits, parse_pattern
from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows

HOST_KEY = "sk-host-secret-do-not-leak"


def ipd_answer(msg):
    if msg["legal"]["kind"] == "text":
        return "Cooperation pays for all of us."
    return "[1 cooperate] [2 defect]"


def authorizations(fake: FakeOpenAI) -> list[str]:
    return [r.headers.get("authorization", "") for r in fake.requests]


@pytest.fixture
def host_keys(monkeypatch):
    """The host's environment holds keys that no client may spend or see sent elsewhere."""
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", HOST_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", HOST_KEY)
    monkeypatch.delenv("OPENAI_COMPATIBLE_BASE_URL", raising=False)


async def test_a_client_chosen_url_is_refused_and_never_called(server, host_keys):
    with FakeOpenAI(responder=example_responder) as attacker:
        ada = await Client.connect(server.url, "ada")
        spec = f"openai-compatible:m@{attacker.base_url}?{FAST}"
        reply = await ada.request("create_table", env="colonel-blotto", preset="small",
                                  seats=["human", spec], join_seat=0)
        assert reply["type"] == "error" and reply["code"] == "bad_seat"
        message = reply["message"]
        assert f"openai-compatible:m@{attacker.base_url}" in message
        assert "does not allow" in message and "random, scripted:*" in message
        # A URL that smuggles an allowed one behind its own host is no way round it.
        tricky = f"openai-compatible:m@{attacker.base_url}@http://localhost:11434/v1"
        reply = await ada.request("create_table", env="colonel-blotto", preset="small",
                                  seats=["human", tricky], join_seat=0)
        assert reply["code"] == "bad_seat"
        listed = await ada.request("list_tables")
        await ada.close()
        assert attacker.requests == []
    assert listed["tables"] == []


async def test_an_allowed_url_without_a_bound_key_never_gets_the_hosts_key(make_server,
                                                                             host_keys):
    with FakeOpenAI(responder=example_responder) as fake:
        # The host allows any server (keyless), e.g. for people bringing their own endpoints.
        server = await make_server(bot_policy=BotPolicy.from_options("random,openai-compatible:*@*"))
        ada = await Client.connect(server.url, "ada")
        await ada.request("create_table", env="colonel-blotto", preset="small",
                          seats=["human", f"openai-compatible:m@{fake.base_url}?{FAST}"],
                          join_seat=0)
        over = await play_until_over(ada)
        await ada.close()
        seen = authorizations(fake)
    assert not over["result"]["void"]
    assert seen and all(HOST_KEY not in a for a in seen)
    assert set(seen) == {"Bearer not-needed"}
    stamp = json.loads(rows(server.db_path, "SELECT settings FROM seats WHERE seat = 1")[0]
                       ["settings"])
    assert stamp["key_from"] is None


async def test_a_bound_key_goes_to_its_url_and_nowhere_else(make_server, host_keys, tmp_path,
                                                            monkeypatch):
    monkeypatch.setenv("ROUTER_KEY", "sk-router")
    with FakeOpenAI(responder=example_responder) as router, \
            FakeOpenAI(responder=example_responder) as local:
        config = tmp_path / "bots.toml"
        config.write_text(f'allow = ["scripted:*", "openai-compatible:*@{router.base_url}",\n'
                          f'         "openai-compatible:fake-*@{local.base_url}"]\n'
                          f'[keys]\n"{router.base_url}/" = "ROUTER_KEY"\n')
        server = await make_server(bot_policy=BotPolicy.from_options(config=str(config)))
        ada = await Client.connect(server.url, "ada")
        reply = await ada.request(
            "create_table", env="three-player-ipd", seed=4, join_seat=0,
            seats=["human", f"openai-compatible:any@{router.base_url}?{FAST}",
                   f"openai-compatible:fake-model@{local.base_url}?{FAST}&temperature=0.3"])
        assert reply["type"] == "table"
        over = await play_until_over(ada, ipd_answer)
        await ada.close()
        to_router, to_local = authorizations(router), authorizations(local)
    assert not over["result"]["void"] and over["statuses"]["2"] == "finished"
    assert to_router and set(to_router) == {"Bearer sk-router"}
    assert to_local and set(to_local) == {"Bearer not-needed"}
    stamps = [json.loads(r["settings"]) for r in
              rows(server.db_path, "SELECT settings FROM seats WHERE seat > 0 ORDER BY seat")]
    assert [s["key_from"] for s in stamps] == ["ROUTER_KEY", None]


async def test_openai_seats_are_refused_by_default(server, host_keys, monkeypatch):
    with FakeOpenAI(responder=example_responder) as openai_api:
        monkeypatch.setenv("OPENAI_BASE_URL", openai_api.base_url)
        ada = await Client.connect(server.url, "ada")
        for spec in (f"openai:gpt-4o?{FAST}", "openai:gpt-4o-mini"):
            reply = await ada.request("create_table", env="colonel-blotto", preset="small",
                                      seats=["human", spec], join_seat=0)
            assert reply["code"] == "bad_seat"
            assert f"'{spec.partition('?')[0]}'" in reply["message"]
        await ada.close()
        assert openai_api.requests == []


async def test_an_allowed_openai_model_plays_and_no_other(make_server, host_keys, monkeypatch):
    with FakeOpenAI(responder=example_responder) as openai_api:
        monkeypatch.setenv("OPENAI_BASE_URL", openai_api.base_url)
        chosen = await make_server(bot_policy=BotPolicy.from_options("openai:gpt-4o-mini"))
        bob = await Client.connect(chosen.url, "bob")
        reply = await bob.request("create_table", env="colonel-blotto", preset="small",
                                  seats=["human", f"openai:gpt-4o?{FAST}"], join_seat=0)
        assert reply["code"] == "bad_seat" and "openai:gpt-4o-mini" in reply["message"]
        reply = await bob.request("create_table", env="colonel-blotto", preset="small",
                                  seats=["human", "random"], join_seat=0)
        assert reply["code"] == "bad_seat"  # only what the host lists
        # Settings after ? do not count for matching.
        reply = await bob.request("create_table", env="colonel-blotto", preset="small",
                                  seats=["human", f"openai:gpt-4o-mini?{FAST}&temperature=0"],
                                  join_seat=0)
        assert reply["type"] == "table"
        over = await play_until_over(bob)
        await bob.close()
        assert not over["result"]["void"]
        assert {r.body["model"] for r in openai_api.completion_requests} == {"gpt-4o-mini"}


async def test_llm_seats_at_once_are_limited_per_player(make_server):
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:m@{fake.base_url}?{FAST}"
        policy = BotPolicy.from_options(f"random,openai-compatible:*@{fake.base_url}",
                                        max_llm_seats=1)
        server = await make_server(bot_policy=policy)
        ada = await Client.connect(server.url, "ada")
        seats = ["human", "human", spec]  # waits for a second person: no call is made
        first = await ada.request("create_table", env="three-player-ipd", seats=seats,
                                  join_seat=0)
        assert first["type"] == "table"  # ada sits there: its LLM seat is hers
        second = await ada.request("create_table", env="three-player-ipd", seats=seats,
                                   join_seat=0)
        assert second["type"] == "error" and second["code"] == "limit"
        assert "1 per player at once" in second["message"]
        scripted = await ada.request("create_table", env="colonel-blotto", preset="small",
                                     seats=["human", "random"])
        assert scripted["type"] == "table"  # scripted and random seats are not limited
        bob = await Client.connect(server.url, "bob")
        other = await bob.request("create_table", env="three-player-ipd", seats=seats,
                                  join_seat=0)
        assert other["type"] == "table"  # limits are per player
        # Leaving the waiting table frees the seat: a table nobody sits at costs nothing.
        await ada.request("leave", table_id=first["table"]["id"])
        again = await ada.request("create_table", env="three-player-ipd", seats=seats,
                                  join_seat=0)
        assert again["type"] == "table"
        await ada.close()
        await bob.close()
        assert fake.requests == []


async def test_llm_seats_per_hour_are_limited_per_player(make_server):
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:m@{fake.base_url}?{FAST}"
        policy = BotPolicy.from_options(f"openai-compatible:*@{fake.base_url}",
                                        max_llm_seats=0, max_llm_seats_per_hour=2)
        server = await make_server(bot_policy=policy)
        ada = await Client.connect(server.url, "ada")
        # A refused request uses none of the quota.
        seats = ["human", "human", spec]  # waits for a second person: no call is made
        refused = await ada.request("create_table", env="three-player-ipd", join_seat=7,
                                    seats=seats)
        assert refused["code"] == "bad_seat"
        for _ in range(2):  # ada moves to the newer table; both count for the hour
            reply = await ada.request("create_table", env="three-player-ipd", seats=seats,
                                      join_seat=0)
            assert reply["type"] == "table"
        third = await ada.request("create_table", env="three-player-ipd", seats=seats,
                                  join_seat=0)
        assert third["type"] == "error" and third["code"] == "limit"
        assert "2 per player per hour" in third["message"]
        bob = await Client.connect(server.url, "bob")
        assert (await bob.request("create_table", env="three-player-ipd", seats=seats,
                                  join_seat=0))["type"] == "table"
        await ada.close()
        await bob.close()
        assert fake.requests == []  # nobody's game started: no call was made


def test_the_hourly_window_frees_seats_an_hour_later():
    now = [1000.0]
    limits = SeatLimits(None, 3, clock=lambda: now[0])
    limits.record("ada", "t1", 3)
    with pytest.raises(Exception, match="3 per player per hour"):
        limits.check("ada", 1, {})
    now[0] += 3599
    with pytest.raises(Exception, match="about 1 min"):
        limits.check("ada", 1, {})
    now[0] += 1
    limits.check("ada", 3, {})


async def test_local_play_allows_llm_bots_but_binds_keys_only_by_environment(host_keys,
                                                                             tmp_path,
                                                                             monkeypatch):
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:m@{fake.base_url}?{FAST}"
        local = await asyncio.to_thread(start_embedded, str(tmp_path / "local.db"))
        try:
            ada = await Client.connect(local.url, "ada")
            reply = await ada.request("create_table", env="colonel-blotto", preset="small",
                                      seats=["human", spec], join_seat=0)
            assert reply["type"] == "table"
            await play_until_over(ada)
            assert set(authorizations(fake)) == {"Bearer not-needed"}
            # OPENAI_COMPATIBLE_BASE_URL binds OPENAI_COMPATIBLE_API_KEY to that server.
            monkeypatch.setenv("OPENAI_COMPATIBLE_BASE_URL", fake.base_url)
            fake.requests.clear()
            await ada.request("create_table", env="colonel-blotto", preset="small",
                              seats=["human", f"openai-compatible:m?{FAST}"], join_seat=0)
            await play_until_over(ada)
            await ada.close()
            assert set(authorizations(fake)) == {f"Bearer {HOST_KEY}"}
        finally:
            await asyncio.to_thread(local.stop)


def test_sim_sends_the_users_key_to_the_server_on_their_command_line(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "sk-mine")
    monkeypatch.delenv("OPENAI_COMPATIBLE_BASE_URL", raising=False)
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}"
        assert main(["sim", "colonel-blotto", "--seat", spec, "--seat", "scripted:adaptive",
                     "--games", "1", "--preset", "small", "--quiet",
                     "--db", str(tmp_path / "s.db")]) == 0
        assert set(authorizations(fake)) == {"Bearer sk-mine"}
    stamp = json.loads(rows(str(tmp_path / "s.db"), "SELECT settings FROM seats WHERE seat = 0")
                       [0]["settings"])
    assert stamp["key_from"] == "OPENAI_COMPATIBLE_API_KEY"


def test_serve_parses_allow_bots_and_bad_patterns_exit_2(tmp_path, monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(server.net.serve, "run_serve", lambda args: seen.append(args) or 0)
    db = str(tmp_path / "p.db")
    allow = "scripted:*,random,openai:gpt-4o-mini,openai-compatible:*@http://localhost:11434/v1"
    assert main(["serve", "--db", db, "--allow-bots", allow, "--max-llm-seats", "2"]) == 0
    policy = seen[0].bot_policy
    assert policy.describe() == allow.replace(",", ", ")
    assert (policy.max_llm_seats, policy.max_llm_seats_per_hour) == (2, 20)
    assert policy.allows("openai:gpt-4o-mini?temperature=0")
    assert policy.allows("openai-compatible:qwen3:8b@http://localhost:11434/v1/")
    assert not policy.allows("openai:gpt-4o")
    assert not policy.allows("openai-compatible:qwen3:8b@http://localhost:8000/v1")
    assert main(["serve", "--db", db]) == 0  # the default: scripted bots and random
    assert seen[1].bot_policy.describe() == "random, scripted:*"
    capsys.readouterr()

    for argv, reason in [
        (["--allow-bots", "scripted:*,gpt-4o"], "bot pattern 'gpt-4o' is not one of"),
        (["--allow-bots", "openai-compatible:*"], "names no server"),
        (["--allow-bots", "openai:gpt-4o?temperature=0"], "contains '?'"),
        (["--bots-config", str(tmp_path / "missing.toml")], "cannot read bots config"),
        (["--max-llm-seats-per-hour", "-1"], "cannot be negative"),
    ]:
        with pytest.raises(SystemExit) as exit:
            main(["serve", "--db", db, *argv])
        assert exit.value.code == 2
        last = capsys.readouterr().err.strip().splitlines()[-1]
        assert reason in last, last
    bad = tmp_path / "bots.json"
    bad.write_text(json.dumps({"allow": ["random"], "keys": {"http://x/v1": "sk-real-key!"}}))
    with pytest.raises(SystemExit):
        main(["serve", "--db", db, "--bots-config", str(bad)])
    assert "must name an environment variable" in capsys.readouterr().err
    assert len(seen) == 2


def test_serve_prints_its_bots_limits_and_keys_at_start(tmp_path):
    config = tmp_path / "bots.json"
    config.write_text(json.dumps({"allow": ["openai-compatible:*@https://openrouter.ai/api/v1"],
                                  "keys": {"https://openrouter.ai/api/v1": "ROUTER_KEY"},
                                  "max_llm_seats_per_hour": 5}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", "0", "--db",
         str(tmp_path / "p.db"), "--bots-config", str(config), "--allow-bots", "random"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(_root()), "ROUTER_KEY": "sk-r"})
    try:
        assert "Parlor server listening" in proc.stdout.readline()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = err.splitlines()
    assert ("Bots allowed: random, openai-compatible:*@https://openrouter.ai/api/v1"
            in lines)
    assert "LLM seats per player: at most 4 at once, 5 per hour (--max-llm-seats, " \
           "--max-llm-seats-per-hour)" in lines
    assert "Key for https://openrouter.ai/api/v1: $ROUTER_KEY (set)" in lines
    assert "sk-r" not in err


def test_patterns_match_url_parts_separately():
    pattern = parse_pattern("openai-compatible:*@http://*.example.com/v1")
    assert pattern.matches("openai-compatible", "m", "http://gpu.example.com/v1")
    assert not pattern.matches("openai-compatible", "m", "http://evil.com/x.example.com/v1")
    assert not pattern.matches("openai-compatible", "m", "https://gpu.example.com/v1")


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[3]
