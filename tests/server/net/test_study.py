"""Study mode over real websockets: no seat for a person until they agree to the study's
current consent text; the answer is stored with the text's hash and the server's time."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3

from server.cli import main
from server.store.pseudonyms import Pseudonyms, pseudonym
from server.store.study import parse_study
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows

STUDY = """+++
name = "pilot"
[[form]]
id = "age"
label = "Age"
type = "number"
min = 18
max = 99
[[form]]
id = "english"
label = "English"
type = "choice"
choices = ["native", "fluent", "some"]
required = true
[[form]]
id = "note"
type = "text"
max_chars = 10
+++
# Taking part
You play games; we keep your moves.
"""


async def test_no_game_before_agreeing_and_the_agreement_carries_hash_and_time(make_server,
                                                                               capsys):
    study = parse_study(STUDY)
    server = await make_server(study=study)
    ada = await Client.connect(server.url, "ada")
    assert ada.welcome["study"] == {"name": "pilot", "consent_hash": study.consent_hash,
                                    "status": "unanswered"}
    create = {"env": "colonel-blotto", "preset": "small", "seats": ["human", "random"],
              "seed": 5}
    refused = await ada.request("create_table", **create, join_seat=0)
    assert refused["type"] == "error" and refused["code"] == "consent_required"
    assert not server.tables  # nothing left behind
    # Bots' tables may be watched without agreeing.
    bots = await ada.request("create_table", env="colonel-blotto", preset="small",
                             seats=["random", "random"], seed=1)
    assert (await ada.request("spectate", table_id=bots["table"]["id"]))["type"] == "table"

    asked = await ada.request("study")
    text = asked["study"]["consent"]
    assert text.startswith("# Taking part") and asked["study"]["status"] == "unanswered"
    assert hashlib.sha256(text.encode()).hexdigest() == asked["study"]["consent_hash"]
    assert [f["id"] for f in asked["study"]["form"]] == ["age", "english", "note"]

    declined = await ada.request("consent", consent_hash=study.consent_hash, agree=False)
    assert declined["study"]["status"] == "declined"
    again = await ada.request("create_table", **create, join_seat=0)
    assert again["code"] == "consent_required" and "declined" in again["message"]

    bad = await ada.request("consent", consent_hash=study.consent_hash, agree=True,
                            answers={"age": 12, "english": "native"})
    assert bad["code"] == "bad_answer" and "Age" in bad["message"]
    missing = await ada.request("consent", consent_hash=study.consent_hash, agree=True,
                                answers={"age": 30})
    assert missing["code"] == "bad_answer" and "English" in missing["message"]
    stale = await ada.request("consent", consent_hash="0" * 64, agree=True,
                              answers={"english": "native"})
    assert stale["code"] == "consent_required"
    agreed = await ada.request("consent", consent_hash=study.consent_hash, agree=True,
                               answers={"age": 30, "english": "fluent"})
    assert agreed["study"]["status"] == "agreed"

    table = await ada.request("create_table", **create, join_seat=0)
    assert table["type"] == "table" and table["your_seat"] == 0
    over = await play_until_over(ada)
    assert over["result"] is not None
    await ada.close()

    answers = rows(server.db_path, "SELECT * FROM consents ORDER BY id")
    assert [(a["identity"], a["study"], a["agreed"]) for a in answers] == [
        ("human:ada", "pilot", 0), ("human:ada", "pilot", 1)]
    assert {a["consent_hash"] for a in answers} == {study.consent_hash}
    assert answers[1]["answers"] == '{"age": 30, "english": "fluent"}'
    game = rows(server.db_path, "SELECT started FROM games WHERE id = 2")[0]  # ada's game
    assert answers[0]["answered_at"] <= answers[1]["answered_at"] <= game["started"]

    # The host's list: one row per person, by the study's pseudonym; a name only if asked.
    db = server.db_path
    assert await asyncio.to_thread(main, ["study", "consents", "--db", db]) == 0
    out = capsys.readouterr().out.splitlines()
    person = pseudonym(Pseudonyms(sqlite3.connect(db))._key, "human:ada", "pilot")
    assert out[0] == "person,study,status,consent_hash,answered_at,age,english"
    assert out[1].startswith(f"{person},pilot,agreed,{study.consent_hash},")
    assert out[1].endswith(",30,fluent") and "ada" not in "\n".join(out)
    assert await asyncio.to_thread(main, ["study", "consents", "--db", db, "--format", "json",
                                          "--names"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["person"], r["name"], r["answers"]) for r in listed] == [
        (person, "ada", {"age": 30, "english": "fluent"})]


async def test_a_changed_consent_text_asks_again(make_server, tmp_path):
    first = await make_server(study=parse_study(STUDY))
    ada = await Client.connect(first.url, "ada")
    token = ada.welcome["player"]["token"]
    await ada.request("consent", consent_hash=first.study.consent_hash, agree=True,
                      answers={"english": "some"})
    table = await ada.request("create_table", env="colonel-blotto", preset="small",
                              seats=["human", "human"], seed=1, join_seat=0)
    assert table["your_seat"] == 0
    await ada.close()
    await first.stop()

    changed = parse_study(STUDY.replace("we keep your moves", "we keep your moves and times"))
    second = await make_server(study=changed)
    back = await Client.connect(second.url, "ada", token=token)
    assert back.welcome["study"]["status"] == "unanswered"
    assert back.welcome["study"]["consent_hash"] != first.study.consent_hash
    refused = await back.request("create_table", env="colonel-blotto", preset="small",
                                 seats=["human", "random"], seed=1, join_seat=0)
    assert refused["code"] == "consent_required"
    await back.request("consent", consent_hash=changed.consent_hash, agree=True,
                       answers={"english": "some"})
    bob = await Client.connect(second.url, "bob")
    open_table = await bob.request("create_table", env="colonel-blotto", preset="small",
                                   seats=["human", "human"], seed=1)
    # bob never agreed: he may create a table he does not sit at, but not join one
    assert (await bob.request("join", table_id=open_table["table"]["id"]))["code"] == \
        "consent_required"
    assert (await back.request("join", table_id=open_table["table"]["id"]))["type"] == "table"
    for c in (back, bob):
        await c.close()


async def test_a_server_without_a_study_says_so_and_asks_nothing(server):
    ada = await Client.connect(server.url, "ada")
    assert "study" not in ada.welcome
    assert (await ada.request("study"))["code"] == "no_study"
    reply = await ada.request("create_table", env="colonel-blotto", preset="small",
                              seats=["human", "random"], seed=5, join_seat=0)
    assert reply["type"] == "table"
    await ada.close()


async def test_a_study_servers_report_names_people_by_the_studys_pseudonyms(make_server):
    asked = []

    def build(conn, env, pool, by, **options):
        asked.append(options)
        return {"env": env, "title": "t", "pooled": "p", "left_out": [], "sections": [],
                "notes": []}

    server = await make_server(study=parse_study(STUDY), reports=build)
    ada = await Client.connect(server.url, "ada")
    assert (await ada.request("report", env="colonel-blotto"))["type"] == "report"
    assert asked == [{"study": "pilot"}]  # as `parlor study consents` and exports name them
    await ada.close()
