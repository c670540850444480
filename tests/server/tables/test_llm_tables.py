"""LLM bots at live tables: a person and openai-compatible bots on a fake server play to the end
over real websockets; provider failures void the game and are kept for audit; `parlor sim`
runs LLM seats and reports their usage."""

from __future__ import annotations

import json
import sqlite3

from server.cli import main
from server.store.store import Store
from server.tables.policy import BotPolicy
from tests.fakes import FakeAnthropic, FakeOpenAI, Status
from tests.fakes.seating import FAST, example_responder
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows


def answer(msg):
    if msg["legal"]["kind"] == "text":
        return "Cooperation pays for all of us."
    return "[1 cooperate] [2 defect]"


async def test_a_person_and_two_llm_bots_finish_an_ipd_game(make_server):
    with FakeOpenAI(responder=example_responder) as fake:
        server = await make_server(  # the host allows this server's models
            bot_policy=BotPolicy.from_options(f"openai-compatible:*@{fake.base_url}"))
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}&temperature=0.3"
        ada = await Client.connect(server.url, "ada")
        await ada.request("create_table", env="three-player-ipd", seats=["human", spec, spec],
                          seed=4, join_seat=0)
        over = await play_until_over(ada, answer)
        await ada.close()
        calls = len(fake.completion_requests)
        identity = f"openai-compatible:fake-model@{fake.base_url}"
    assert not over["result"]["void"] and over["statuses"] == {"0": "finished", "1": "finished",
                                                               "2": "finished"}
    for seat in ("1", "2"):  # the game's cost per bot seat travels with its metrics
        usage = over["metrics"]["seats"][seat]["usage"]
        assert usage["decisions"] == 10 and usage["prompt_tokens"] > 0
    assert "usage" not in over["metrics"]["seats"]["0"]
    # The same identity holds two seats (two places of three): it keeps its rating, ada moves.
    assert set(over["rating_changes"]) == {"0"} and over["rating_held"] == ["1", "2"]
    db = server.db_path
    seats = rows(db, "SELECT * FROM seats WHERE seat > 0")
    assert {s["identity"] for s in seats} == {identity}
    stamp = json.loads(seats[0]["settings"])
    assert stamp["provider"] == "openai-compatible" and stamp["model"] == "fake-model"
    assert stamp["sampling"]["temperature"] == 0.3 and stamp["prompt"]["hash"]
    bot_actions = rows(db, "SELECT * FROM actions WHERE seat > 0")
    assert len(bot_actions) == calls == 2 * 10  # 5 chats + 5 decisions each
    for a in bot_actions:
        usage = json.loads(a["usage"])
        assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
        assert a["raw_output"] and json.loads(a["transcript"])
    chats = [json.loads(e["data"])["text"] for e in rows(db, "SELECT data FROM events WHERE "
                                                             "type = 'chat'")]
    assert "I suggest we all cooperate this round." in chats
    # Prompts are stored once: the system prompt in `texts`, each later user prompt as what is
    # new since the seat's previous one; the store gives back every transcript whole.
    stored = [json.loads(a["transcript"]) for a in bot_actions]
    assert all("content" not in t[0] and "content_ref" in t[0] for t in stored)
    assert sum("content_delta" in t[1] for t in stored) >= len(stored) - 2
    game_id = rows(db, "SELECT id FROM games")[0]["id"]
    store = await Store.open(db)
    try:
        whole = await store.transcripts(game_id)
    finally:
        await store.close()
    assert len(whole) == len(bot_actions)
    systems = {t[0]["content"] for t in whole.values()}  # one per seat
    assert len(systems) == 2
    for text in systems:
        assert rows(db, "SELECT count(*) n FROM texts WHERE text = ?", text)[0]["n"] == 1
    prompts = [t[1]["content"] for t in whole.values()]
    assert all(isinstance(p, str) and len(p) > 200 for p in prompts)
    assert sum(len(json.dumps(t)) for t in stored) < 0.5 * sum(
        len(json.dumps(t)) for t in whole.values())


async def test_a_provider_that_keeps_failing_voids_the_game(make_server, monkeypatch):
    server = await make_server(bot_policy=BotPolicy.from_options("anthropic:claude-*"))
    with FakeAnthropic(responder=lambda request: Status(500)) as fake:
        spec = f"anthropic:claude-haiku-4-5?{FAST}&retries=1"
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")  # the server's environment
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
        ada = await Client.connect(server.url, "ada")
        await ada.request("create_table", env="colonel-blotto", seats=["human", spec],
                          join_seat=0)
        over = await ada.wait_for("game_over")
        await ada.close()
        assert len(fake.completion_requests) == 2  # the call and one retry
    assert over["result"]["void"] and over["statuses"]["1"] == "provider_error"
    assert over["rating_changes"] == {}
    failure = rows(server.db_path, "SELECT * FROM bot_failures")[0]
    assert failure["seat"] == 1 and failure["policy"] == "void" and "500" in failure["error"]
    assert json.loads(failure["transcript"])
    store = await Store.open(server.db_path)
    try:
        (whole,) = await store.bot_failures(failure["game_id"])
    finally:
        await store.close()
    assert whole["transcript"][0]["role"] == "system" and len(whole["transcript"][0]["content"]) > 200
    assert rows(server.db_path, "SELECT count(*) n FROM ratings")[0]["n"] == 0


def test_sim_runs_llm_bots_and_reports_usage(capsys, tmp_path):
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}"
        assert main(["sim", "colonel-blotto", "--seat", spec, "--seat", "scripted:adaptive",
                     "--games", "2", "--preset", "small", "--db", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "Colonel Blotto: 2 games (0 void" in out
    usage_line = [line for line in out.splitlines() if line.startswith("openai-compatible")][-1]
    decisions, prompt_tokens = (int(x) for x in usage_line.split()[1:3])
    assert decisions >= 6 and prompt_tokens > 0
    with sqlite3.connect(tmp_path / "s.db") as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE status = 'finished'").fetchone()[0] \
            == 2
