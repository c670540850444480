"""A dataset directory that the Hugging Face `datasets` library loads as it is (issue 26):

    DIR/README.md                     the dataset card: YAML front matter (configs and their
                                      data files, features, license) and how rows were made
    DIR/games/games.parquet           one row per game       (config "games", the default)
    DIR/games/games.jsonl             the same rows as JSON Lines
    DIR/actions/actions.parquet       one row per decision   (config "actions")
    DIR/actions/actions.jsonl

`datasets.load_dataset(DIR, "actions")` reads the Parquet files the card names; the JSON Lines
files hold the same rows, column for column, for jq and plain Python. Rows are streamed: each
goes to its JSON Lines file as it is made, and to Parquet in row groups of `BATCH` rows (or
fewer when their text passes `BATCH_CHARS`), so memory stays flat however many games there are.
The schema is the same for every env (what one config needs): what differs by env (config,
metrics, hidden setup, an LLM transcript) is a JSON text column.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from string import Template
from typing import IO, Any

import pyarrow as pa
import pyarrow.parquet as pq

from server.wire.jsontext import dumps

BATCH = 2000  # rows per Parquet row group
BATCH_CHARS = 32 * 1024 * 1024  # ... or fewer, once their text columns hold this many chars

_PLAYER = pa.struct([
    ("seat", pa.int64()), ("kind", pa.string()), ("player", pa.string()), ("name", pa.string()),
    ("role", pa.string()), ("side", pa.string()), ("status", pa.string()),
    ("reward", pa.float64()), ("winner", pa.bool_())])
_USAGE = pa.struct([
    ("latency_ms", pa.float64()), ("prompt_tokens", pa.int64()),
    ("completion_tokens", pa.int64()), ("cached_tokens", pa.int64()), ("cost", pa.float64()),
    ("retries", pa.int64())])
_GAME = [("game_id", pa.int64()), ("env", pa.string()), ("preset", pa.string()),
         ("rules_version", pa.string())]

SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema([
        *_GAME, ("config_hash", pa.string()), ("config", pa.string()), ("seed", pa.string()),
        ("status", pa.string()), ("void", pa.bool_()), ("reason", pa.string()),
        ("started", pa.float64()), ("ended", pa.float64()), ("pool", pa.string()),
        ("players", pa.list_(_PLAYER)), ("winners", pa.list_(pa.int64())),
        ("draw", pa.bool_()), ("decisions", pa.int64()), ("metrics", pa.string()),
        ("setup", pa.string()), ("unrated", pa.string())]),
    "actions": pa.schema([
        *_GAME, ("idx", pa.int64()), ("seat", pa.int64()), ("player", pa.string()),
        ("kind", pa.string()), ("name", pa.string()), ("role", pa.string()),
        ("step", pa.int64()), ("turn", pa.int64()), ("observation", pa.string()),
        ("prompt", pa.string()), ("action_raw", pa.string()),
        ("action_structured", pa.string()), ("default_move", pa.string()),
        ("outcome", pa.string()), ("error", pa.string()), ("error_category", pa.string()),
        ("fatal", pa.bool_()), ("latency_ms", pa.float64()), ("usage", _USAGE),
        ("raw_output", pa.string()), ("transcript", pa.string()), ("at", pa.float64())]),
}


class SplitWriter:
    """One config's files in the directory: its JSON Lines file and its Parquet file."""

    def __init__(self, folder: Path, config: str) -> None:
        folder.mkdir()
        self.schema = SCHEMAS[config]
        self.jsonl: IO[str] = (folder / f"{config}.jsonl").open("w", encoding="utf-8")
        self.parquet = pq.ParquetWriter(folder / f"{config}.parquet", self.schema,
                                        compression="zstd")
        self.batch: list[dict[str, Any]] = []
        self.chars = 0

    def write(self, row: dict[str, Any]) -> None:
        text = dumps(row)
        self.jsonl.write(text)
        self.jsonl.write("\n")
        self.batch.append(row)
        self.chars += len(text)
        if len(self.batch) >= BATCH or self.chars >= BATCH_CHARS:
            self.flush()

    def flush(self) -> None:
        if self.batch:
            self.parquet.write_table(pa.Table.from_pylist(self.batch, schema=self.schema))
            self.batch, self.chars = [], 0

    def close(self) -> None:
        self.flush()
        self.parquet.close()
        self.jsonl.close()


def write_dataset(folder: Path, rows: Iterable[tuple[str, dict[str, Any]]],
                  configs: tuple[str, ...], card: Callable[[], str]) -> None:
    """Write `rows` ((config, row) pairs), then the `card()` (made once every row is written),
    into `folder` (made here)."""
    folder.mkdir()
    writers = {config: SplitWriter(folder / config, config) for config in configs}
    try:
        for config, row in rows:
            writers[config].write(row)
    finally:
        for writer in writers.values():
            writer.close()
    (folder / "README.md").write_text(card(), encoding="utf-8")


# -- the card -------------------------------------------------------------------------------
def front_matter(configs: tuple[str, ...], license_id: str, pretty_name: str) -> str:
    """The card's YAML: each config's Parquet files (the first config is the default), its
    features in the `datasets` library's own form, the license."""
    lines = ["---", f"pretty_name: {json.dumps(pretty_name)}", f"license: {license_id}",
             "tags:", "- games", "- human-baselines", "- social-reasoning", "configs:"]
    for i, config in enumerate(configs):
        lines += [f"- config_name: {config}", "  data_files:", "  - split: train",
                  f"    path: {config}/*.parquet"] + (["  default: true"] if i == 0 else [])
    lines.append("dataset_info:")
    for config in configs:
        lines += [f"- config_name: {config}", "  features:"]
        lines += _features(SCHEMAS[config], "  ")
    lines.append("---")
    return "\n".join(lines) + "\n"


def _features(fields: Iterable[pa.Field], indent: str) -> list[str]:
    out: list[str] = []
    for f in fields:
        out.append(f"{indent}- name: {f.name}")
        out += _feature_type(f.type, indent + "  ")
    return out


def _feature_type(t: pa.DataType, indent: str) -> list[str]:
    if pa.types.is_struct(t):
        return [f"{indent}struct:", *_features(t, indent)]
    if pa.types.is_list(t):
        item = t.value_type
        if pa.types.is_struct(item):
            return [f"{indent}list:", *_features(item, indent)]
        return [f"{indent}list: {_dtype(item)}"]
    return [f"{indent}dtype: {_dtype(t)}"]


def _dtype(t: pa.DataType) -> str:
    return {pa.string(): "string", pa.int64(): "int64", pa.float64(): "float64",
            pa.bool_(): "bool"}[t]


PSEUDONYMS = (
    "People appear only under a pseudonym, `p-` and 12 hex digits: an HMAC-SHA256 of the "
    "person's account{study} under a key that only the source database holds, so one person "
    "keeps one pseudonym in every export {scope}, two {apart} cannot be joined on it, and "
    "nobody without the database can test a guessed name against it.")
WITHOUT_NAMES = " This export was made without `--names`: the `name` columns are empty."
WITH_NAMES = (" This export was made with `--names`: people's names are in the `name` columns "
              "beside their pseudonym. Do not publish it without the consent of everyone named.")


def pseudonym_statement(names: bool, study: str) -> str:
    """What the card says of people: how their pseudonyms are made, and whether names are in."""
    said = PSEUDONYMS.format(
        study=f" and the study's name ({json.dumps(study)}, as `parlor study consents` lists "
              f"them)" if study else "",
        scope="of that study" if study else "of that database",
        apart="studies or two databases" if study else "databases")
    return said + (WITH_NAMES if names else WITHOUT_NAMES)


def card(configs: tuple[str, ...], by_env: dict[str, int], games: int, void: int, *,
         names: bool, study: str, license_id: str, made: str) -> str:
    """The dataset card: front matter, then what the rows are and how they were made."""
    template = (Path(__file__).with_name("dataset_card.md")).read_text(encoding="utf-8")
    title = "Parlor games: people and models at the same tables"
    license_text = (
        f"`{license_id}`, as the host set it with `--license`." if license_id != "other" else
        "Chosen by the host who collected these games (`license: other` until they do): set "
        "it in the YAML above, or export again with `--license ID`, before publishing.")
    body = Template(template).substitute(
        title=title, formats=" ".join(configs), made=made, games=games, void=void,
        envs=f"{len(by_env)} environment{'s' * (len(by_env) != 1)}",
        counts=", ".join(f"{env} {n}" for env, n in sorted(by_env.items())) or "none",
        pseudonyms=pseudonym_statement(names, study), license=license_text,
        loading="\n".join(f'{c} = load_dataset("path/to/this/folder", "{c}", split="train")'
                          for c in configs))
    return front_matter(configs, license_id, title) + "\n" + body
