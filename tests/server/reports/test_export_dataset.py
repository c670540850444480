"""`parlor export --format games actions --out DIR` (issue 26, "Datasets"): every env's games and
decisions as Parquet and JSON Lines with a dataset card, loaded by the Hugging Face `datasets`
library itself, offline. The database is made the way users make one: `parlor sim` runs of
several envs (scripted bots, an LLM bot on a local fake provider, an LLM whose provider fails:
a void game), and a person playing over real websockets, with a game still running."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from server.cli import main
from server.net.app import Server
from server.net.limits import UNLIMITED
from server.reports import dataset_files, export_mindgames
from server.store.pseudonyms import Pseudonyms
from tests.fakes import FakeOpenAI, Reply, Status
from tests.fakes.seating import FAST
from tests.server.conftest import Client

NAME = "Quillon"  # the person: a name no env or bot text holds
SIMS = [
    ["colonel-blotto", "--seat", "scripted:adaptive", "--seat", "scripted:uniform",
     "--games", "2", "--preset", "small"],
    ["secret-mafia", *["--seat", "scripted:agent"] * 6, "--games", "1", "--seed", "5"],
    ["hidden-role", "--seat", "random", "--games", "1"],
    ["impostor", *["--seat", "random"] * 4, "--games", "1"],
]
ALLOCATION = "[A10 B5 C5]"


def _llm_sim(db: Path, fails: bool) -> int:
    def answer(request):
        if "ready" in request.last_user_text():
            return Reply("ready")
        return Status(400, message="switched off") if fails else Reply(ALLOCATION)

    with FakeOpenAI(responder=answer) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}&retries=0"
        return main(["sim", "colonel-blotto", "--seat", spec, "--seat", "scripted:uniform",
                     "--games", "1", "--preset", "small", "--db", str(db), "--quiet"])


async def _people(db: Path) -> None:
    """Quillon's Blotto game against a bot (an invalid answer first), and a game under way."""
    srv = Server(str(db), turn_timeout=30, disconnect_grace=30, limits=UNLIMITED,
                 client_seeds=True)
    await srv.start("127.0.0.1", 0)
    try:
        person = await Client.connect(srv.url, NAME)
        await person.request("create_table", env="colonel-blotto", preset="small",
                             seats=["human", "scripted:uniform"], join_seat=0)
        first = True
        while (msg := await person.recv())["type"] != "game_over":
            if msg["type"] == "your_turn":
                await person.send("act", table_id=msg["table_id"], turn=msg["turn"],
                                  action="all in!" if first else ALLOCATION)
                first = False
        await srv.store.create_game(
            table_id="t-running", env="colonel-blotto", rules_version="2", preset="small",
            config={}, seed=1, seats=[{"identity": f"human:{NAME}", "name": NAME,
                                       "kind": "human"},
                                      {"identity": "random", "name": "random", "kind": "bot"}])
        await person.close()
    finally:
        await srv.stop()


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("dataset") / "games.db"
    for args in SIMS:
        assert main(["sim", *args, "--db", str(path), "--quiet"]) == 0
    assert _llm_sim(path, fails=False) == 0
    assert _llm_sim(path, fails=True) == 1  # its one game is void
    asyncio.run(_people(path))
    return path


def _stored(db: Path, sql: str, *args) -> list[sqlite3.Row]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql, args).fetchall()


def _export(db: Path, out: Path, *more: str) -> str:
    assert main(["export", "--format", "games", "actions", "--db", str(db), "--out", str(out),
                 *more]) == 0
    return out.name


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def dataset(db, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out") / "parlor-dataset"
    _export(db, out)
    return out


def test_a_row_per_game_that_is_over_and_per_decision(db, tmp_path, capsys):
    out = tmp_path / "ds"
    _export(db, out)
    over = _stored(db, "SELECT * FROM games WHERE status != 'running' ORDER BY id")
    actions = _stored(db, "SELECT a.* FROM actions a JOIN games g ON g.id = a.game_id WHERE "
                          "g.status != 'running' ORDER BY a.game_id, a.idx")
    games, decisions = _jsonl(out / "games/games.jsonl"), _jsonl(out / "actions/actions.jsonl")
    assert [g["game_id"] for g in games] == [g["id"] for g in over]
    assert [(a["game_id"], a["idx"]) for a in decisions] == \
        [(a["game_id"], a["idx"]) for a in actions]
    assert {g["env"] for g in games} == {"colonel-blotto", "secret-mafia", "hidden-role",
                                         "impostor"}
    void = [g for g in games if g["void"]]
    assert len(void) == 1 and void[0]["status"] == "void" and "switched off" in void[0]["reason"]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"wrote {len(games)} games rows, {len(decisions)} actions rows " \
        f"({len(games)} games, 1 of them void) to {out}; skipped 1 running game" in err[0]
    for g, stored in zip(games, over, strict=True):
        assert g["metrics"] == stored["metrics"] and g["seed"] == stored["seed"]
        assert g["decisions"] == sum(a["game_id"] == g["game_id"] for a in decisions)
        if stored["result"]:
            result = json.loads(stored["result"])
            assert g["winners"] == result["winners"]
            assert [p["role"] for p in g["players"]] == result["roles"]
            assert {str(p["seat"]): p["reward"] for p in g["players"]} == (
                result["rewards"] if not g["void"] else dict.fromkeys(result["rewards"]))
    # one config hash per config: the small Blotto games pool together, the paper's apart
    blotto = {g["config_hash"] for g in games if g["env"] == "colonel-blotto"}
    assert len(blotto) == 1
    mafia = next(g for g in games if g["env"] == "secret-mafia")
    assert sorted({p["role"] for p in mafia["players"]}) == ["Detective", "Doctor", "Mafia",
                                                            "Villager"]
    assert mafia["pool"] == "bots" and json.loads(mafia["setup"])
    # every decision's observation was rebuilt, and stays in the seat's own view
    assert all(a["observation"] for a in decisions)
    villagers = [a for a in decisions if a["env"] == "secret-mafia" and a["role"] == "Villager"]
    assert villagers and not any("Your fellow Mafia" in a["observation"] for a in villagers)
    assert any("Your fellow Mafia" in a["observation"] for a in decisions
               if a["role"] == "Mafia")


def test_people_appear_under_their_pseudonym_with_their_think_time(db, dataset):
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        pseudonym = Pseudonyms(conn).label(f"human:{NAME}", "human")
    games = _jsonl(dataset / "games/games.jsonl")
    decisions = _jsonl(dataset / "actions/actions.jsonl")
    (theirs,) = [g for g in games if g["pool"] == "mixed"]
    person = theirs["players"][0]
    assert person == {**person, "kind": "human", "player": pseudonym, "name": None}
    assert pseudonym.startswith("p-") and theirs["players"][1]["player"] == "scripted:uniform"
    moves = [a for a in decisions if a["kind"] == "human"]
    assert moves and {a["player"] for a in moves} == {pseudonym}
    assert all(a["latency_ms"] is not None and a["latency_ms"] >= 0 for a in moves)
    assert all(a["usage"] is None and a["prompt"] is None for a in moves)
    bad, retry = moves[0], moves[1]
    assert (bad["action_raw"], bad["outcome"]) == ("all in!", "invalid") and bad["error"]
    assert (retry["action_raw"], retry["outcome"]) == (ALLOCATION, "ok")
    # the name is nowhere: not in any file, nor inside the Parquet files' values
    for path in dataset.rglob("*"):
        if path.suffix in (".jsonl", ".md"):
            assert NAME.lower() not in path.read_text("utf-8").lower(), path
        elif path.suffix == ".parquet":
            values = json.dumps(pq.read_table(path).to_pylist())
            assert NAME.lower() not in values.lower(), path
    assert "made without `--names`" in (dataset / "README.md").read_text("utf-8")


def test_names_only_when_asked(db, dataset, tmp_path):
    out = tmp_path / "named"
    _export(db, out, "--names", "--license", "cc-by-4.0")
    people = [p for g in _jsonl(out / "games/games.jsonl") for p in g["players"]
              if p["kind"] == "human"]
    assert [p["name"] for p in people] == [NAME] and people[0]["player"].startswith("p-")
    card = (out / "README.md").read_text("utf-8")
    assert "made with `--names`" in card and "\nlicense: cc-by-4.0\n" in card
    assert "\nlicense: other\n" in (dataset / "README.md").read_text("utf-8")


def test_a_study_has_pseudonyms_of_its_own(db, dataset, tmp_path):
    out = tmp_path / "study"
    _export(db, out, "--study", "pilot-2026")
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        theirs = Pseudonyms(conn, "pilot-2026").label(f"human:{NAME}", "human")
    mine = {p["player"] for g in _jsonl(out / "games/games.jsonl") for p in g["players"]
            if p["kind"] == "human"}
    everyone = {p["player"] for g in _jsonl(dataset / "games/games.jsonl")
                for p in g["players"] if p["kind"] == "human"}
    assert mine == {theirs} and everyone != mine
    assert '"pilot-2026"' in (out / "README.md").read_text("utf-8")


def test_a_game_of_other_rules_is_exported_without_observations(db, tmp_path, capsys):
    old = tmp_path / "old-rules.db"
    with sqlite3.connect(db) as source, sqlite3.connect(old) as copy:
        source.backup(copy)
    with sqlite3.connect(old) as conn:
        (game_id,) = conn.execute("SELECT min(id) FROM games").fetchone()
        conn.execute("UPDATE games SET rules_version = '0' WHERE id = ?", (game_id,))
    out = tmp_path / "ds"
    _export(old, out)
    decisions = _jsonl(out / "actions/actions.jsonl")
    assert {a["observation"] for a in decisions if a["game_id"] == game_id} == {None}
    assert all(a["observation"] for a in decisions if a["game_id"] != game_id)
    assert "observations not rebuilt for 1 games (other rules)" in capsys.readouterr().err


def test_an_llm_decision_carries_its_prompt_and_usage(dataset):
    decisions = _jsonl(dataset / "actions/actions.jsonl")
    llm = [a for a in decisions if a["player"].startswith("openai-compatible:")]
    ok = [a for a in llm if a["outcome"] == "ok"]
    assert ok and all(a["prompt"] and a["raw_output"] == ALLOCATION for a in ok)
    for a in ok:
        assert a["usage"]["prompt_tokens"] > 0 and a["usage"]["completion_tokens"] > 0
        transcript = json.loads(a["transcript"])
        assert transcript[0]["role"] == "system" and transcript[1]["content"] == a["prompt"]
    failed = [a for a in llm if a["outcome"] != "ok"]  # the void game: no move was made
    assert all(a["prompt"] is None for a in failed)


def test_parquet_holds_the_json_lines_rows_and_datasets_loads_both_configs(
        dataset, tmp_path, monkeypatch):
    for offline in ("HF_DATASETS_OFFLINE", "HF_HUB_OFFLINE"):  # no network, ever
        monkeypatch.setenv(offline, "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    import datasets
    import huggingface_hub.constants

    # read when the libraries are imported: set them too in case that happened before
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)

    for config in ("games", "actions"):
        rows = _jsonl(dataset / config / f"{config}.jsonl")
        table = pq.read_table(dataset / config / f"{config}.parquet")
        assert table.schema == dataset_files.SCHEMAS[config]
        assert table.to_pylist() == rows
        loaded = datasets.load_dataset(str(dataset), config, split="train",
                                       cache_dir=str(tmp_path / "cache"))
        assert loaded.num_rows == len(rows)
        assert loaded[0] == rows[0] and loaded[-1] == rows[-1]
        assert loaded.features == datasets.Features.from_arrow_schema(table.schema)
        # the card names every column
        card = (dataset / "README.md").read_text("utf-8")
        assert all(f"`{name}`" in card for name in table.schema.names)
    plain = datasets.load_dataset("parquet", split="train", cache_dir=str(tmp_path / "cache"),
                                  data_files=str(dataset / "games/*.parquet"))
    assert plain.num_rows == len(_jsonl(dataset / "games/games.jsonl"))
    default = datasets.load_dataset(str(dataset), split="train", cache_dir=str(tmp_path / "c"))
    assert "players" in default.features  # games is the default config


def test_rows_are_streamed_in_pages_and_row_groups(db, dataset, tmp_path, monkeypatch):
    monkeypatch.setattr(export_mindgames, "PAGE", 2)
    monkeypatch.setattr(dataset_files, "BATCH", 7)
    out = tmp_path / "small-steps"
    _export(db, out)
    for config in ("games", "actions"):
        mine, whole = out / config / f"{config}.parquet", dataset / config / f"{config}.parquet"
        assert (out / config / f"{config}.jsonl").read_bytes() == \
            (dataset / config / f"{config}.jsonl").read_bytes()
        assert pq.ParquetFile(mine).metadata.num_row_groups > 1
        assert pq.read_table(mine).to_pylist() == pq.read_table(whole).to_pylist()


def test_one_format_to_stdout(db, dataset, capsys):
    assert main(["export", "--format", "games", "--db", str(db), "--env",
                 "secret-mafia"]) == 0
    out, err = capsys.readouterr()
    expected = [g for g in _jsonl(dataset / "games/games.jsonl") if g["env"] == "secret-mafia"]
    assert [json.loads(line) for line in out.splitlines()] == expected
    assert "wrote 1 games rows (1 games, 0 of them void) to stdout" in err


@pytest.mark.parametrize("args,needle", [
    (["--format", "games", "actions"], "is a dataset directory: name it with --out DIR"),
    (["--format", "mindgames", "games", "--out", "{tmp}/x"], "only games and actions are "
                                                              "written together"),
    (["--format", "games", "--out", "{full}"], "is a folder with files in it; choose a new "
                                               "folder or add --force"),
    (["--format", "games", "--out", "{file}"], "is a file; name a folder"),
    (["--format", "games", "--out", "{tmp}/nowhere/x"], "no folder"),
    (["--format", "actions", "--env", "chess"], "unknown environment 'chess'"),
    (["--format", "mindgames", "--license", "mit"], "--license only applies to --format "
                                                    "games and actions"),
])
def test_bad_input_exits_2_with_one_line(db, tmp_path, capsys, args, needle):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("keep me")
    (tmp_path / "file").write_text("keep me")
    args = [a.format(tmp=tmp_path, full=tmp_path / "full", file=tmp_path / "file")
            for a in args]
    assert main(["export", "--db", str(db), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err
    assert (tmp_path / "full" / "keep.txt").read_text() == "keep me"
    assert (tmp_path / "file").read_text() == "keep me"


def test_force_replaces_a_folder_whole(db, tmp_path):
    out = tmp_path / "again"
    out.mkdir()
    (out / "old.txt").write_text("old")
    assert main(["export", "--format", "games", "--db", str(db), "--out", str(out),
                 "--force"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "games"]
    assert not (tmp_path / "again.part").exists() and not (tmp_path / "again.old").exists()
    card = (out / "README.md").read_text("utf-8")
    assert "config_name: games" in card and "config_name: actions" not in card


def test_no_game_to_export_writes_nothing_and_exits_1(db, tmp_path, capsys):
    out = tmp_path / "empty"
    assert main(["export", "--format", "games", "actions", "--db", str(db), "--env",
                 "codenames", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no game to export, nothing written" in err[0]
    assert "left out" in err[0] and not out.exists() and not (tmp_path / "empty.part").exists()
