"""Find the Spy's passive mode (the paper's task): a recorded game's descriptions are replayed
to one solver who plays its Player 1 and names the spy.

A recording is one JSON object, carried whole in the config (`recorded`) so that the game
replays from its record without the file it came from:

    {"words": ["pond", "pond", "puddle", "pond"],          # Player 1's word first
     "descriptions": [{"round": 1, "player": 1, "text": "..."}, ...],
     "id": "optional name"}

Exactly one player holds the odd word: that player is the spy. `recording(record)` makes one
from a finished interactive game of ours; without a recording the game deals one from its
seed, with descriptions made from the word bank's hints (`bank_recording`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import derive_seed
from engine.find_the_spy.words import hint_sentence

PLAYERS = 4


@dataclass(frozen=True)
class Recording:
    id: str
    words: tuple[str, ...]  # by player, Player 1 first
    descriptions: tuple[tuple[int, int, str], ...]  # (round, player 1-based, text), in order
    rounds: int

    @property
    def spy(self) -> int:
        """The spy's index (0-based player): the one holder of the odd word."""
        return next(p for p, w in enumerate(self.words) if self.words.count(w) == 1)

    @property
    def civilian_word(self) -> str:
        return next(w for w in self.words if self.words.count(w) > 1)


def parse(data: Mapping[str, Any]) -> Recording:
    """A recording from its JSON object; ValueError naming the problem when it is bad."""
    if not isinstance(data, Mapping):
        raise ValueError("a recording is a JSON object")
    words = data.get("words")
    if not (isinstance(words, list) and len(words) == PLAYERS
            and all(isinstance(w, str) and w.strip() for w in words)):
        raise ValueError(f"words must be a list of {PLAYERS} words, Player 1's first")
    words = [w.strip().lower() for w in words]
    counts = sorted(words.count(w) for w in set(words))
    if counts != [1, PLAYERS - 1]:
        raise ValueError(f"words: {PLAYERS - 1} players must share a word and one hold another")
    said = data.get("descriptions")
    if not isinstance(said, list) or not said:
        raise ValueError("descriptions must be a non-empty list")
    out = []
    for i, d in enumerate(said):
        if not (isinstance(d, Mapping) and isinstance(d.get("round"), int)
                and isinstance(d.get("player"), int) and 1 <= d["player"] <= PLAYERS
                and d["round"] >= 1 and isinstance(d.get("text"), str)):
            raise ValueError(f"descriptions[{i}] needs round (1+), player (1-{PLAYERS}) and text")
        out.append((d["round"], d["player"], " ".join(d["text"].split())))
    return Recording(str(data.get("id", "")), tuple(words), tuple(out),
                     max(r for r, _, _ in out))


def loads(text: str) -> Recording:
    return parse(json.loads(text))


def bank_recording(seed: int, rounds: int, spy: int, civilian_word: str, spy_word: str
                   ) -> Recording:
    """A recording dealt from the seed: every player describes its word with the bank's hints,
    starting from a hint drawn per player, so players with one word do not all say the same."""
    rng = random.Random(derive_seed(seed, "passive"))
    starts = [rng.randrange(3) for _ in range(PLAYERS)]
    words = tuple(spy_word if p == spy else civilian_word for p in range(PLAYERS))
    said = tuple((r, p + 1, hint_sentence(words[p], r + starts[p]))
                 for r in range(1, rounds + 1) for p in range(PLAYERS))
    return Recording(f"bank-{seed}", words, said, rounds)


def recording(record: Any) -> dict[str, Any]:
    """The recording (as JSON) of a finished interactive game record, for the passive mode."""
    setup = record.setup or {}
    spy, civ, odd = setup["spy"], setup["civilian_word"], setup["spy_word"]
    words = [odd if p == spy else civ for p in range(PLAYERS)]
    said = [{"round": e.data["round"], "player": e.data["seat"] + 1, "text": e.data["text"]}
            for e in record.events if e.type == "description"]
    return {"id": f"{record.env}-{record.seed}", "words": words, "descriptions": said}
