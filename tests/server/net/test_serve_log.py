"""`parlor serve`'s log lets a host follow a session (issue 22, "Honest commands"): who said
hello, each table created, started and finished, errors sent and who left, one line each — and
never a secret: no role, dealt word, seed or answer before the end (the result after it)."""

from __future__ import annotations

import asyncio
import json
import re
import time

from tests.server.conftest import Client
from tests.server.net.test_play import rows
from tests.server.net.test_serve_process import serve  # noqa: F401 - a fixture


async def test_the_log_follows_a_session_and_keeps_the_secrets(serve):  # noqa: F811
    server = serve()
    ada = await Client.connect(server.url, "ada")
    spy = await ada.request("create_table", env="find-the-spy",
                            seats=["human", *["scripted:describer"] * 3], join_seat=0)
    table_id = spy["table"]["id"]
    reply = await ada.request("act", table_id=table_id, turn=999, action="hello")
    assert reply["type"] == "error"
    await ada.request("leave", table_id=table_id)  # game_over comes before the reply
    blotto = await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["random", "scripted:uniform"])
    await ada.close()
    deadline = time.monotonic() + 30
    while not re.search(rf"table {re.escape(blotto['table']['id'])}: game \d+ finished",
                        server.output()) or "gone: ada" not in server.output():
        assert time.monotonic() < deadline, server.output()
        await asyncio.sleep(0.05)
    server.stop()
    log = server.output()
    lines = log.splitlines()

    def line(pattern: str) -> str:
        found = [x for x in lines if re.search(pattern, x)]
        assert len(found) == 1, (pattern, log)
        return found[0]

    line(r"hello: ada from 127\.0\.0\.1$")
    line(rf"table {re.escape(table_id)}: created by ada: find-the-spy \(paper\), seats open "
         rf"seat, scripted:describer #1, scripted:describer #2, scripted:describer #3$")
    started = line(rf"table {re.escape(table_id)}: game \d+ started: find-the-spy, seats ada, ")
    line(r"error to ada \(act\): \w+$")  # the code only: a message may quote the request
    line(rf"table {re.escape(table_id)}: game \d+ (finished|void): ")
    blotto_id = re.escape(blotto["table"]["id"])
    line(rf"table {blotto_id}: created by ada: colonel-blotto \(small\), seats random, "
         rf"scripted:uniform$")
    line(rf"table {blotto_id}: game \d+ finished: ")
    line(r"gone: ada \(their last connection closed\)$")
    assert lines.index(started) < lines.index(line(r"error to ada"))

    # What the game dealt in secret appears nowhere in the log: not the seed, not the words,
    # not who the spy was (the result's reason names only what the end revealed).
    (game,) = rows(str(server.db), "SELECT seed, setup FROM games WHERE env = 'find-the-spy'")
    setup = json.loads(game["setup"])
    before_end = log[:log.index(line(rf"table {re.escape(table_id)}: game \d+ (finished|void)"))]
    for secret in (str(game["seed"]), setup["civilian_word"], setup["spy_word"]):
        assert secret not in log
    assert "spy" not in before_end.replace("find-the-spy", "")
