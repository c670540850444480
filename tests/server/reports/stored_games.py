"""Fixture databases for the reports: games really played through the engine (each seat a
seeded random legal move, or the env's default move where asked) and stored through the
store's API as a table stores them, people's seats as people (kind "human")."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.registry import get
from engine.sampling import random_action
from server.store.store import Store
from server.tables.table import count_defaulted_moves


def person(name: str) -> dict[str, str]:
    return {"identity": f"human:{name}", "name": name, "kind": "human"}


def bot(spec: str) -> dict[str, str]:
    return {"identity": spec, "name": spec, "kind": "bot"}


async def store_game(store: Store, env_id: str, preset: str, seed: int,
                     seats: Sequence[Mapping[str, str]], *,
                     overrides: Mapping[str, Any] | None = None, default_seat: int | None = None,
                     abort: bool = False) -> int:
    """Play one game and store it finished (or void when `abort`); `default_seat`'s first move
    is the default move a table makes for a stalled seat. Returns the game's id."""
    env = get(env_id)
    config = env.config(preset, overrides=overrides)
    game = env.new_game(config, seed, len(seats))
    game_id = await store.create_game(table_id=f"t{seed}", env=env_id,
                                      rules_version=env.rules_version, preset=preset,
                                      config=config.to_json(), seed=seed, seats=seats)
    rng = random.Random(seed)
    defaulted = False
    while not game.over:
        if abort:
            game.abort("the host stopped the server")
            break
        seat = min(game.pending())
        if seat == default_seat and not defaulted:
            game.act_default(seat, "timeout")
            defaulted = True
        else:
            game.act(seat, random_action(game.legal(seat), rng))
    record = game.record()
    metrics = env.game_metrics(record)
    count_defaulted_moves(record, metrics)
    await store.finish_game(game_id, record=record, statuses={s: "finished" for s in
                                                              range(len(seats))},
                            metrics=metrics)
    return game_id
