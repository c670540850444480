"""A campaign's manifest: every game it will play (env, preset, config, seed, a bot spec per
seat), written to a file before anything runs, so that a rerun, another machine or another
backend plays exactly these games.

The file is JSON Lines: a header, then a game a line in the order they are played:

    {"parlor_campaign": 1, "id": "...", "tag": "league-...", "rated": false, "title": "...",
     "command": ["league", "impostor", "--models", ...], "games": 90720}
    {"n": 0, "env": "impostor", "preset": null, "config": {...}, "seed": 17, "seats": [...],
     "players": null}

A game's key is a hash of what decides it (the campaign's tag, the env and its rules version,
preset, config, seed, seats, players): the store keeps it with the game (`games.game_key`),
so a finished game is never played again by any campaign holding it. The campaign's id is a
hash of its tag, whether it is rated, and its games' keys: the same plan gives the same id.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import orjson

from engine.core import UnknownEnvError
from engine.registry import get

FORMAT = 1


class ManifestError(Exception):
    """A manifest that cannot be read or made, said in one line."""


@dataclass(frozen=True, slots=True)
class Match:
    """One scheduled game: a table of bots, one spec per seat (or ROLE=SPEC, with `players`),
    and its seed."""

    env_id: str
    preset: str | None
    specs: tuple[str, ...]
    seed: int
    overrides: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    players: int | None = None

    def to_json(self, n: int) -> dict[str, Any]:
        # JSON readers lose integers past 64 bits: a seed that large is written as its digits
        seed: int | str = self.seed if abs(self.seed) < 2 ** 63 else str(self.seed)
        return {"n": n, "env": self.env_id, "preset": self.preset, "config": dict(self.overrides),
                "seed": seed, "seats": list(self.specs), "players": self.players}

    def key(self, tag: str) -> str:
        """What decides the game, hashed (the rules version too: new rules, new games)."""
        text = json.dumps([tag, self.env_id, get(self.env_id).rules_version, self.preset,
                           dict(self.overrides), str(self.seed), list(self.specs),
                           self.players], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


Planned = tuple[int, str, Match]  # a game to play: its number in the manifest, its key, itself


@dataclass(frozen=True)
class Manifest:
    tag: str  # the store's instance for the games (a league's tag)
    rated: bool  # whether the games move the database's ratings
    games: tuple[Match, ...]
    title: str = ""
    command: tuple[str, ...] | None = None  # the `parlor` command whose report reads them

    def __post_init__(self) -> None:
        if not self.games:
            raise ManifestError("a campaign needs at least one game")
        seen: dict[str, int] = {}
        for n, key in enumerate(self.keys):
            if key in seen:
                raise ManifestError(f"games {seen[key]} and {n} are the same game (the same "
                                    f"env, config, seed and seats)")
            seen[key] = n

    @cached_property
    def keys(self) -> tuple[str, ...]:
        return tuple(m.key(self.tag) for m in self.games)

    @cached_property
    def id(self) -> str:
        h = hashlib.sha256(json.dumps([self.tag, self.rated]).encode())
        for key in self.keys:
            h.update(key.encode())
        return h.hexdigest()[:16]

    def header(self) -> dict[str, Any]:
        return {"parlor_campaign": FORMAT, "id": self.id, "tag": self.tag, "rated": self.rated,
                "title": self.title, "command": list(self.command) if self.command else None,
                "games": len(self.games)}

    def write(self, path: str | Path) -> None:
        """Write the file whole or not at all (a temporary file renamed over it)."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with tmp.open("wb") as out:
                out.write(orjson.dumps(self.header()) + b"\n")
                for n, match in enumerate(self.games):
                    out.write(orjson.dumps(match.to_json(n)) + b"\n")
            os.replace(tmp, path)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise ManifestError(f"cannot write {path}: {e.strerror or e}") from None

    @classmethod
    def read(cls, path: str | Path) -> Manifest:
        try:
            with Path(path).open("rb") as lines:
                return cls.parse(lines, str(path))
        except OSError as e:
            raise ManifestError(f"cannot read {path}: {e.strerror or e}") from None

    @classmethod
    def parse(cls, lines: Iterable[bytes], where: str = "the manifest") -> Manifest:
        rows = _rows(lines, where)
        header = next(rows, None)
        if header is None or header[1].get("parlor_campaign") != FORMAT:
            raise ManifestError(f"{where} is not a Parlor campaign manifest (version {FORMAT})")
        head = header[1]
        games = tuple(_match(line, row, n, where) for n, (line, row) in enumerate(rows))
        if len(games) != head.get("games"):
            raise ManifestError(f"{where}: the header says {head.get('games')} games, the file "
                                f"holds {len(games)} (was it cut short?)")
        command = head.get("command")
        manifest = cls(str(head.get("tag") or ""), bool(head.get("rated")), games,
                       str(head.get("title") or ""), tuple(command) if command else None)
        if head.get("id") != manifest.id:
            raise ManifestError(f"{where}: its games do not hash to its id {head.get('id')!r} "
                                f"(edited by hand? plan it again)")
        return manifest


def _rows(lines: Iterable[bytes], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            raise ManifestError(f"{where} line {number}: not JSON ({e})") from None
        if not isinstance(row, dict):
            raise ManifestError(f"{where} line {number}: not a JSON object")
        yield number, row


def _match(line: int, row: Mapping[str, Any], n: int, where: str) -> Match:
    at = f"{where} line {line}"
    if row.get("n") != n:
        raise ManifestError(f"{at}: game {row.get('n')!r} where game {n} was expected")
    try:
        get(row["env"])
    except (KeyError, TypeError):
        raise ManifestError(f"{at}: no env") from None
    except UnknownEnvError:
        raise ManifestError(f"{at}: unknown env {row['env']!r}") from None
    seats, seed, config = row.get("seats"), row.get("seed"), row.get("config") or {}
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise ManifestError(f"{at}: seats must be a list of bot specs")
    if isinstance(seed, str) and seed.lstrip("-").isdigit():
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ManifestError(f"{at}: seed must be an integer")
    if not isinstance(config, dict):
        raise ManifestError(f"{at}: config must be an object")
    preset, players = row.get("preset"), row.get("players")
    if preset is not None and not isinstance(preset, str):
        raise ManifestError(f"{at}: preset must be a name or null")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise ManifestError(f"{at}: players must be an integer or null")
    return Match(row["env"], preset, tuple(seats), seed, config, players)

