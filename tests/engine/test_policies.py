"""The base Game's invalid-move policies, default moves, roles, clock and hidden setup, on a
small ballot game written the way an env is (config, game, env), with each consequence the
papers use: forfeit, eliminate, default, void ballot, skip turn."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from engine.core import (
    NO_ACTION,
    ActionSpace,
    Config,
    ConfigError,
    EngineError,
    Env,
    Game,
    GameRecord,
    InvalidMovePolicy,
    Option,
    Role,
    derive_seed,
)
from engine.policy import DEFAULT, ELIMINATE, FORFEIT, FORMAT, RULE, SKIP_TURN, VOID_BALLOT

CHOICES = ("a", "b", "skip")


@dataclass(frozen=True)
class BallotConfig(Config):
    then: str = FORFEIT
    retries: int = 1
    rounds: int = 3

    def validate(self) -> None:
        if self.then not in (FORFEIT, ELIMINATE, DEFAULT, VOID_BALLOT, SKIP_TURN):
            raise ConfigError(f"unknown policy {self.then!r}")


class BallotGame(Game):
    """Every living seat votes each round (simultaneously); "x" is unreadable, "c" breaks a
    rule. Seats 0-1 are side "left", the rest "right"; one secret "leader" per side."""

    __slots__ = ("ballots", "alive", "round", "skipped")

    def __init__(self, env: Env, config: BallotConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.alive = set(range(players))
        self.ballots: dict[int, str | None] = {}
        self.skipped: list[int] = []
        self.round = 1
        self.clock = {"round": 1}
        self._waiting = frozenset(self.alive)

    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        return ActionSpace("choice", "Vote.", options=tuple(Option(c, c) for c in CHOICES))

    def _public_state(self) -> dict[str, Any]:
        return {"round": self.round, "alive": sorted(self.alive), "voted": sorted(self.ballots)}

    def _private_state(self, seat: int) -> dict[str, Any]:
        return {"role": self.roles[seat].name, "ballot": self.ballots.get(seat)}

    def default_action(self, seat: int) -> dict[str, str]:
        return {"choice": "skip"}

    def invalid_move_policy(self, seat: int, category: str) -> InvalidMovePolicy:
        return InvalidMovePolicy(self.config.retries, self.config.then)

    def _apply(self, seat: int, action: Any) -> str | None:
        choice = action if isinstance(action, str) else action.get("choice")
        if choice not in (*CHOICES, "c"):
            return self.reject(seat, f"{choice!r} is not a vote", "format", round=self.round)
        if choice == "c":
            return self.reject(seat, "c is not on the ballot", "rule", round=self.round)
        self._cast(seat, choice)
        return None

    def _cast(self, seat: int, choice: str | None) -> None:
        self.ballots[seat] = choice
        self._waiting = self._waiting - {seat}
        self.emit("voted", {"seat": seat}, [s for s in range(self.players)
                                             if self.roles[s].side == self.roles[seat].side])
        if not self._waiting:
            self._resolve()

    def _on_void_ballot(self, seat: int) -> None:
        self._cast(seat, None)

    def _on_skip_turn(self, seat: int) -> None:
        self.skipped.append(seat)
        self._cast(seat, None)

    def _on_eliminate(self, seat: int, why: str) -> None:
        self.alive.discard(seat)
        self._waiting = self._waiting - {seat}
        if not self._waiting:
            self._resolve()

    def _resolve(self) -> None:
        counted = [c for c in self.ballots.values() if c is not None]
        self.emit("round_resolved", {"round": self.round, "counted": len(counted)})
        self.ballots = {}
        if self.round == self.config.rounds:
            self.finish({s: 0.0 for s in range(self.players)}, (), "all rounds voted")
            return
        self.round += 1
        self.clock = {"round": self.round}
        self._waiting = frozenset(self.alive)


class BallotEnv(Env):
    id = "ballot-test"
    title = "Ballot"
    description = "A test ballot."
    players = (4,)
    rules_version = "1"
    Config = BallotConfig
    game_class = BallotGame
    presets: ClassVar = {"paper": BallotConfig()}
    hidden_roles = True

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        rng = random.Random(derive_seed(seed, "roles"))
        sides = ["left", "left", "right", "right"]
        leaders = {0: rng.choice((0, 1)), 1: rng.choice((2, 3))}
        return tuple(Role("leader" if s in leaders.values() else "member", sides[s])
                     for s in range(players))

    def render(self, view: Any) -> str:
        return json.dumps(view["public"])

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        return {"game": {}, "seats": {str(s): {} for s in range(record.players)}}

    def aggregate_metrics(self, per_game: Any) -> dict[str, Any]:
        return {}


ENV = BallotEnv()


def new(then: str, retries: int = 1, seed: int = 3) -> BallotGame:
    return ENV.new_game(BallotConfig(then=then, retries=retries), seed, 4)  # type: ignore[return-value]


def types(events):
    return [e.type for e in events]


def test_a_retry_is_private_and_the_next_invalid_move_forfeits_the_whole_side():
    game = new(FORFEIT)
    first = game.act(2, "x")
    assert types(first) == ["invalid_move"] and first[0].visible_to == (2,)
    assert first[0].data == {"seat": 2, "round": 1, "reason": "'x' is not a vote",
                             "category": "format", "fatal": False}
    assert game.last_error(2) == "'x' is not a vote" and game.retries_left(2) == 0
    assert 2 in game.pending()
    events = game.act(2, "c")
    assert types(events) == ["invalid_move", "forfeit", "setup_revealed", "game_over"]
    result = game.result
    assert result.rewards == {0: 1.0, 1: 1.0, 2: -1.0, 3: -1.0} and result.winners == (0, 1)
    assert result.reason == "Player 2 made 2 invalid moves in a row; left wins by forfeit"
    assert result.sides == ("left", "left", "right", "right")
    assert sorted(result.roles) == ["leader", "leader", "member", "member"]
    records = game.actions
    assert [(a.outcome, a.category, a.fatal) for a in records] == [
        ("invalid", FORMAT, False), ("invalid", RULE, True)]


def test_a_valid_move_resets_the_count():
    game = new(FORFEIT)
    game.act(1, "x")
    game.act(1, "a")
    assert game.errors_in_a_row(1) == 0 and game.last_error(1) is None
    for seat in (0, 2, 3):
        game.act(seat, "a")
    game.act(1, "x")  # a fresh first error: retried again
    assert not game.over and game.errors_in_a_row(1) == 1


def test_eliminate_takes_the_seat_out_and_the_game_goes_on():
    game = new(ELIMINATE, retries=0)
    events = game.act(3, "x")
    assert types(events) == ["invalid_move", "eliminated"]
    assert events[0].visible_to == "all" and events[0].data["fatal"] is True
    assert 3 not in game.pending() and not game.over
    for seat in (0, 1, 2):
        game.act(seat, "a")
    assert game.round == 2 and game.pending() == {0, 1, 2}
    assert game.last_action().fatal is False and game.actions[0].fatal is True


def test_default_corrects_the_move_silently():
    game = new(DEFAULT, retries=0)
    events = game.act(0, "c")
    assert types(events) == ["invalid_move", "voted"] and events[0].visible_to == (0,)
    assert events[0].data["then"] == DEFAULT and events[0].data["fatal"] is False
    assert game.ballots[0] == "skip" and game.actions[0].outcome == "invalid"
    assert game.errors_in_a_row(0) == 0 and game.last_error(0) is None


def test_void_ballot_counts_for_nothing():
    game = new(VOID_BALLOT, retries=0)
    game.act(0, "x")
    for seat in (1, 2, 3):
        game.act(seat, "a")
    resolved = [e for e in game.events if e.type == "round_resolved"]
    assert resolved[0].data == {"round": 1, "counted": 3}


def test_skip_turn_passes_the_seat():
    game = new(SKIP_TURN, retries=0)
    game.act(1, "c")
    assert game.skipped == [1] and 1 not in game.pending()


def test_a_default_move_is_recorded_as_defaulted_and_replays():
    game = new(FORFEIT)
    events = game.act_default(2, "timeout", meta={"latency_ms": 300000})
    assert types(events) == ["move_defaulted", "voted"]
    assert events[0].data == {"seat": 2, "reason": "timeout"}
    record = game.last_action()
    assert (record.outcome, record.error, record.raw) == ("defaulted", "timeout",
                                                           {"choice": "skip"})
    for seat in (0, 1, 3):
        game.act(seat, "b")
    again = ENV.replay(GameRecord.from_json(json.loads(json.dumps(game.record().to_json()))))
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]


def test_default_moves_are_refused_out_of_turn_and_when_an_env_has_none():
    game = new(FORFEIT)
    game.act(0, "a")
    with pytest.raises(EngineError):
        game.act_default(0, "timeout")

    class NoDefault(BallotGame):
        __slots__ = ()

        def default_action(self, seat: int) -> None:
            return Game.default_action(self, seat)  # the base: no default move

    bare = NoDefault(ENV, BallotConfig(), 1, 4)
    with pytest.raises(EngineError, match="has no default move"):
        bare.act_default(0, "timeout")
    assert bare.event_count == 0 and bare.step == 0


def test_events_carry_the_clock_and_roles_are_dealt_from_the_seed():
    game = new(FORFEIT, seed=11)
    for seat in range(4):
        game.act(seat, "a")
    clocks = [(e.type, e.clock.get("round")) for e in game.events]
    assert ("round_resolved", 1) in clocks and all(c is not None for _, c in clocks)
    assert game.events[0].to_json()["clock"] == {"round": 1}
    assert ENV.assign_roles(game.config, 11, 4) == game.roles
    leaders = {tuple(r.name for r in ENV.assign_roles(game.config, s, 4)) for s in range(40)}
    assert len(leaders) > 1  # the deal depends on the seed


def test_the_hidden_setup_is_revealed_at_the_end_and_kept_in_the_record():
    game = new(FORFEIT)
    roles = [r.to_json() for r in game.roles]
    assert "setup" not in game.view(None)["public"]
    game.act(0, "x")
    game.act(0, "x")
    revealed = [e for e in game.events if e.type == "setup_revealed"]
    assert revealed[0].visible_to == "all" and revealed[0].data == {"roles": roles}
    assert game.view(1)["public"]["setup"] == {"roles": roles}
    assert game.record().setup == {"roles": roles}
    assert GameRecord.from_json(json.loads(json.dumps(game.record().to_json()))).setup == \
        {"roles": roles}


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed(7, "roles") == derive_seed(7, "roles")
    assert derive_seed(7, "roles") != derive_seed(7, "map") != derive_seed(8, "roles")


def test_derived_seeds_keep_more_bits_than_a_128_bit_table_seed():
    """A hidden setup dealt from a 64-bit sub-seed would have 64 bits of secret, whatever the
    table's seed: sub-seeds are the whole 256-bit digest."""
    subs = [derive_seed(2**127 + k, "roles") for k in range(32)]
    assert max(s.bit_length() for s in subs) > 240
    assert len({s >> 128 for s in subs}) == len(subs)  # the top half varies too


def test_event_pages_and_the_latest_events_match_the_whole_log():
    game = new(FORFEIT)
    for _ in range(3):
        for seat in range(4):
            game.act(seat, "a")
    for seat in (None, 0, 3):
        everything = game.events_for(seat)
        assert game.events_for(seat, 2, limit=3) == [e for e in everything if e.seq >= 2][:3]
        assert game.latest_events_for(seat, 4) == everything[-4:]
        assert game.latest_events_for(seat, 1000) == everything
