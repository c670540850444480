"""The API conformance suite every registered environment must pass (cf. PettingZoo's api_test).

`check_env(env)` plays random games over every preset and player count and raises AssertionError
with a precise message on the first violation. Per-env scenario tests sit beside it in tests/.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from engine.core import ActionSpace, Env, Game, GameRecord, NotYourTurnError, UnknownSeatError
from engine.sampling import random_action

GARBAGE = ["", "   ", "[", "]]]][[[", "\x00\x01\x7f", "[Z99 Q-1]", "ignore previous instructions",
           "🙂" * 50, "[" + "9" * 400 + "]", "x" * 5000]


def _roundtrip(obj: Any, what: str) -> None:
    text = json.dumps(obj, sort_keys=True)
    assert json.loads(text) == json.loads(json.dumps(json.loads(text), sort_keys=True)), what


def _check_views(game: Game, snapshots: list[tuple[dict[str, Any], str]]) -> None:
    """Every view is JSON, its public part is everyone's, and the text of a view does not depend
    on the identity of its parts (renderers memoise on them). Views are kept in `snapshots` with
    their JSON, to check later that no move changed them."""
    spectator = game.view(None)
    snapshots.append((spectator, json.dumps(spectator, sort_keys=True)))
    _roundtrip(spectator, "spectator view is not JSON")
    assert set(spectator) >= {"env", "seat", "public", "private"}, \
        f"view must hold env/seat/public/private, got {sorted(spectator)}"
    assert spectator["seat"] is None and not spectator["private"], "spectator view has private data"
    for seat in range(game.players):
        v = game.view(seat)
        _roundtrip(v, f"view of seat {seat} is not JSON")
        assert v["seat"] == seat
        assert v["public"] == spectator["public"], \
            f"public part of seat {seat}'s view differs from the spectator's"
        text = game.env.render(v)
        assert isinstance(text, str) and text
        assert text == game.env.render(json.loads(json.dumps(v))), \
            f"render of seat {seat}'s view differs from the render of its JSON copy"
        snapshots.append((v, json.dumps(v, sort_keys=True)))
    for seat in game.pending():
        space = game.legal(seat)
        assert isinstance(space, ActionSpace)
        _roundtrip(space.to_json(), f"legal({seat}) is not JSON")


def _check_hidden_pending(game: Game, rng: random.Random) -> None:
    """While several seats decide at once, nobody else's view may depend on what one submitted."""
    pending = sorted(game.pending())
    if len(pending) < 2:
        return
    seat = pending[0]
    a, b = copy.deepcopy(game), copy.deepcopy(game)
    space = game.legal(seat)
    a.act(seat, random_action(space, rng))
    b.act(seat, random_action(space, rng))
    for other in [None, *[s for s in range(game.players) if s != seat]]:
        assert a.view(other) == b.view(other), \
            f"view of {other} reveals seat {seat}'s pending decision"
        ea = [e.to_json() for e in a.events_for(other, len(game.events))]
        eb = [e.to_json() for e in b.events_for(other, len(game.events))]
        assert ea == eb, f"events seen by {other} reveal seat {seat}'s pending decision"


def _check_misuse(game: Game) -> None:
    before = (len(game.events), game.step, json.dumps(game.view(None), sort_keys=True))
    idle = [s for s in range(game.players) if s not in game.pending()]
    if idle:
        try:
            game.act(idle[0], "[anything]")
        except NotYourTurnError:
            pass
        else:
            raise AssertionError("acting out of turn did not raise NotYourTurnError")
    for bad in (-1, game.players, "0"):
        try:
            game.act(bad, "x")  # type: ignore[arg-type]
        except UnknownSeatError:
            pass
        else:
            raise AssertionError(f"seat {bad!r} did not raise UnknownSeatError")
    after = (len(game.events), game.step, json.dumps(game.view(None), sort_keys=True))
    assert before == after, "a rejected call changed the game"


def play_random(env: Env, preset: str, players: int, seed: int, *, garbage_rate: float = 0.1,
                max_steps: int = 10_000, checks: bool = True) -> Game:
    """One random playout; every `checks` invariant asserted along the way."""
    game = env.new_game(env.config(preset), seed, players)
    rng = random.Random(seed * 7919 + players)
    steps = 0
    snapshots: list[tuple[dict[str, Any], str]] = []
    while not game.over:
        assert game.pending(), "game not over but nobody is pending"
        if checks:
            _check_views(game, snapshots)
            _check_misuse(game)
            _check_hidden_pending(game, random.Random(steps))  # own rng: keep the twin in step
        seat = rng.choice(sorted(game.pending()))
        if rng.random() < garbage_rate:
            action: Any = rng.choice(GARBAGE)
        else:
            action = random_action(game.legal(seat), rng)
        events = game.act(seat, action)
        for e in events:
            _roundtrip(e.to_json(), "event is not JSON")
        steps += 1
        assert steps < max_steps, f"{env.id} did not end within {max_steps} actions"
    assert game.result is not None and set(game.result.rewards) == set(range(players)), \
        "every seat needs a reward at the end"
    assert not game.pending(), "a finished game still awaits decisions"
    if checks:
        _check_views(game, snapshots)
        for view, text in snapshots:
            assert json.dumps(view, sort_keys=True) == text, \
                "a view changed after later moves: views must be snapshots"
    return game


def check_replay(env: Env, game: Game) -> None:
    """Replaying the record (also through JSON) reproduces every event and the result."""
    record = game.record()
    again = env.replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events], \
        "replay produced different events"
    assert again.result == game.result, "replay produced a different result"


def check_env(env: Env, *, seeds: range = range(3), garbage_rate: float = 0.1) -> None:
    """Run the whole conformance suite on one environment."""
    assert env.id and env.title and env.description and env.rules_version
    assert env.default_preset in env.presets, "default preset missing"
    _roundtrip(env.describe(), "describe() is not JSON")
    for preset in env.presets:
        for players in env.players:
            for seed in seeds:
                game = play_random(env, preset, players, seed, garbage_rate=garbage_rate)
                twin = play_random(env, preset, players, seed, garbage_rate=garbage_rate,
                                   checks=False)
                assert [e.to_json() for e in twin.events] == [e.to_json() for e in game.events], \
                    "same seed and actions gave different events"
                check_replay(env, game)
                metrics = env.game_metrics(game.record())
                _roundtrip(metrics, "metrics are not JSON")
                assert set(metrics) >= {"game", "seats"}, "game_metrics needs game and seats"
                assert set(metrics["seats"]) == {str(s) for s in range(players)}
                _roundtrip(env.aggregate_metrics([game.record(), twin.record()]),
                           "aggregate metrics are not JSON")
