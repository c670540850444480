"""The API conformance suite every registered environment must pass (cf. PettingZoo's api_test).

`check_env(env)` plays random games over every preset, player count and seed and raises
AssertionError with a precise message on the first violation. Per-env scenario tests sit beside
it in tests/.

What a random playout (`play_random`) checks:

- every step: somebody is pending until the end; every event is JSON, carries a JSON dict clock
  and, when private, names valid seats;
- on sampled steps (every step at first, then steps spaced geometrically, so a game of any length
  costs at most ~300 view checks): every view is JSON and equals its JSON copy, its public part
  is everyone's, it renders the same text as its JSON copy, no seat's view holds a hidden role of
  another side (below), protocol misuse raises and changes nothing; each view's JSON is kept and
  compared at the end (views are snapshots that later moves never change);
- on fewer sampled steps (every step below 30, then every 40% more: ~20 more in a game of 20,000
  actions; replays cost about 3.5 games in all): a twin is rebuilt from the record cut at that
  step (a replay, never a deep copy) and must match the game; when the playout's move is a legal
  one and other seats decide at the same time, the twin gets another legal move of the same seat,
  and nobody else's view or events may differ between the game and the twin; then every pending
  seat of the twin makes its `default_action`, which is None (and `act_default` refuses cleanly)
  or accepted and recorded as "defaulted";
- at the end: every seat has a reward, nobody is pending, the result names each seat's role and
  side as dealt by `env.assign_roles` (deterministic, one Role per seat), the hidden setup is
  revealed (the public view's "setup" and a public "setup_revealed" event), `events_for` never
  hands a seat an event meant for other seats only (e.g. another team's), and in games of 200
  actions or more, views stay bounded: the largest view in the last quarter of the game is at
  most twice the largest in the first quarter plus 4 KiB.

Hidden roles (envs with `hidden_roles`): a role name is secret from seat s when only seats of
other sides bear it and it is not a side name. Before the setup is revealed, no string in a view
of s, nor in an event s sees, may equal a secret name (a JSON string, key or value, equal to the
name: found as the quoted name in the JSON text; rendered text is not checked). An env whose roles share names across sides (e.g. every
team has a "captain") should name them per side ("red captain"), or this check cannot tell.

`check_env` adds determinism (the same seed and moves give the same events), replay through JSON
(events, result and action record), metrics in JSON with a plain label (`Env.metric_labels`) for
every game and seat metric key, a help text for people, transcript lines that name every seat by
the names they are given (`describe_event(event, seat, name)`), and a few static checks of the env.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import (
    ActionRecord,
    ActionSpace,
    EngineError,
    Env,
    Game,
    GameRecord,
    NotYourTurnError,
    Role,
    UnknownSeatError,
)
from engine.sampling import random_action

GARBAGE = ["", "   ", "[", "]]]][[[", "\x00\x01\x7f", "[Z99 Q-1]", "ignore previous instructions",
           "🙂" * 50, "[" + "9" * 400 + "]", "x" * 5000]
RATINGS = ("trueskill", "trueskill-seats", "elo", "none")
TIMEOUTS = ("default", "void")

MAX_STEPS = 200_000  # actions a random playout may take before it counts as endless
VIEW_DENSE, VIEW_RATIO = 100, 1.03  # view checks: every step below 100, then every 3% more
TWIN_DENSE, TWIN_RATIO = 30, 1.4  # replayed twins: every step below 30, then every 40% more
BOUNDED_FROM = 200  # games shorter than this many actions skip the bounded-view check
BOUND_FACTOR, BOUND_SLACK = 2, 4096
DEFAULT_RATE = 0.02  # share of random moves made with act_default (where the env has one)


class Schedule:
    """Which steps get an expensive check: every step below `dense`, then steps spaced
    geometrically by `ratio` (so a game of n steps has about dense + log(n / dense) / log(ratio)
    of them and the checks' cost stays linear). Ask about steps in increasing order."""

    def __init__(self, dense: int, ratio: float) -> None:
        self.dense, self.ratio, self.next = dense, ratio, dense

    def __call__(self, step: int) -> bool:
        if step < self.dense:
            return True
        if step < self.next:
            return False
        self.next = max(self.next + 1, int(self.next * self.ratio))
        return True


def _json(obj: Any, what: str) -> str:
    """`obj` as JSON text (sorted keys); AssertionError naming `what` when it has none."""
    try:
        return json.dumps(obj, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise AssertionError(f"{what} is not JSON: {err}") from None


def secret_role_names(roles: tuple[Role, ...]) -> list[frozenset[str]]:
    """Per seat, the role names it may not see before the end (see the module doc)."""
    sides = {r.side for r in roles}
    out = []
    for me in roles:
        mine = {r.name for r in roles if r.side == me.side}
        out.append(frozenset(r.name for r in roles if r.side != me.side) - mine - sides)
    return out


# ---------------------------------------------------------------------------- single checks
def _check_roles(env: Env, game: Game) -> None:
    roles = env.assign_roles(game.config, game.seed, game.players)
    assert roles == env.assign_roles(game.config, game.seed, game.players), \
        "assign_roles is not deterministic"
    assert len(roles) == game.players, f"assign_roles gave {len(roles)} roles for " \
                                       f"{game.players} seats"
    for seat, role in enumerate(roles):
        assert isinstance(role, Role) and isinstance(role.name, str) and role.name \
            and isinstance(role.side, str) and role.side, \
            f"seat {seat}'s role must be a Role with a name and a side, got {role!r}"
    assert tuple(game.roles) == tuple(roles), "game.roles differ from env.assign_roles"


def _check_event(game: Game, event: Any) -> str:
    """Checks one event; returns its JSON."""
    assert isinstance(event.clock, Mapping), \
        f"event {event.type!r} needs a dict clock, got {event.clock!r}"
    text = _json(event.to_json(), f"event {event.type!r}")
    vis = event.visible_to
    if vis != "all":
        assert isinstance(vis, tuple) and all(
            s.__class__ is int and 0 <= s < game.players for s in vis), \
            f"event {event.type!r} is visible to {vis!r}: not seats of this game"
    return text


def _check_views(game: Game, snapshots: list[tuple[dict[str, Any], str]],
                 secrets: list[frozenset[str]]) -> int:
    """Every view is JSON and equals its JSON copy, its public part is everyone's, its text does
    not depend on the identity of its parts (renderers memoise on them), and it names no secret
    role. Views are kept in `snapshots` with their JSON, to check later that no move changed
    them. Returns the size of the largest view's JSON."""
    env = game.env
    spectator = game.view(None)
    text = _json(spectator, "the spectator view")
    snapshots.append((spectator, text))
    largest = len(text)
    assert set(spectator) >= {"env", "seat", "public", "private"}, \
        f"view must hold env/seat/public/private, got {sorted(spectator)}"
    assert spectator["seat"] is None and not spectator["private"], "spectator view has private data"
    for seat in range(game.players):
        v = game.view(seat)
        text = _json(v, f"the view of seat {seat}")
        copy = json.loads(text)
        assert copy == v, f"the view of seat {seat} differs from its JSON copy (tuples, non-string " \
                          "keys or other values that JSON changes)"
        assert v["seat"] == seat
        assert v["public"] == spectator["public"], \
            f"public part of seat {seat}'s view differs from the spectator's"
        rendered = env.render(v)
        assert isinstance(rendered, str) and rendered
        assert rendered == env.render(copy), \
            f"render of seat {seat}'s view differs from the render of its JSON copy"
        if secrets and not game.over:
            leak = [name for name in secrets[seat] - game.revealed_roles()
                    if json.dumps(name) in text]
            assert not leak, f"the view of seat {seat} names role(s) {sorted(leak)} of another side"
        snapshots.append((v, text))
        largest = max(largest, len(text))
    for seat in game.pending():
        space = game.legal(seat)
        assert isinstance(space, ActionSpace)
        _json(space.to_json(), f"legal({seat})")
    return largest


def _check_misuse(game: Game) -> None:
    before = (game.event_count, game.step, _json(game.view(None), "the spectator view"))
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
    after = (game.event_count, game.step, _json(game.view(None), "the spectator view"))
    assert before == after, "a rejected call changed the game"


def _check_preview(game: Game, seat: int, move: Any) -> None:
    """A preview is a list of words and changes nothing: not the log, the pending seats or
    what the seat sees."""
    before = (game.event_count, game.step, game.pending(), _json(game.view(seat), "view"))
    problems = game.preview(seat, move)
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems), problems
    after = (game.event_count, game.step, game.pending(), _json(game.view(seat), "view"))
    assert after == before, f"{game.env.id}: preview({seat}, {move!r}) changed the game"


def _replay_prefix(game: Game, actions: list[ActionRecord]) -> Game:
    """The game rebuilt from its record cut after `actions` (which must be its record so far)."""
    env = game.env
    record = GameRecord(env.id, env.rules_version, game.config.to_json(), game.seed,
                        game.players, actions, [], None)
    twin = env.replay(record)
    assert (twin.step, twin.event_count, twin.pending()) == \
        (game.step, game.event_count, game.pending()) and \
        twin.public_view() == game.public_view(), \
        f"replaying the first {len(actions)} actions does not rebuild the game"
    return twin


def _alternative(game: Game, seat: int, move: Any, rng: random.Random) -> Any:
    """A legal move of `seat` other than `move` (the same one when the space allows no other)."""
    space = game.legal(seat)
    return next((x for x in (random_action(space, rng) for _ in range(8)) if x != move), move)


def _check_hidden_pending(game: Game, twin: Game, seat: int, since: int) -> None:
    """While several seats decide at once, nobody else's view or events may depend on what one
    of them submitted: `twin` is `game` rebuilt by replay before `seat` moved, then given
    another move of that seat."""
    for other in (None, *(s for s in range(game.players) if s != seat)):
        assert game.view(other) == twin.view(other), \
            f"the view of {other} reveals seat {seat}'s pending decision"
        ea = [e.to_json() for e in game.events_for(other, since)]
        eb = [e.to_json() for e in twin.events_for(other, since)]
        assert ea == eb, f"events seen by {other} reveal seat {seat}'s pending decision"


def _check_defaults(twin: Game) -> None:
    """Each pending seat's default move is None (and act_default refuses, changing nothing) or
    a move the env accepts, recorded as "defaulted"."""
    for seat in sorted(twin.pending()):
        if seat not in twin.pending():  # an earlier default ended the decision or the game
            continue
        action = twin.default_action(seat)
        before = (twin.event_count, twin.step)
        if action is None:
            try:
                twin.act_default(seat, "conformance")
            except EngineError:
                assert (twin.event_count, twin.step) == before, "a refused default changed the game"
                continue
            raise AssertionError(f"seat {seat} has no default move but act_default did not raise")
        _json(action, f"default_action({seat})")
        try:
            twin.act_default(seat, "timeout")
        except Exception as err:
            raise AssertionError(f"the default move {action!r} of seat {seat} was refused: "
                                 f"{err}") from err
        record = twin.last_action()
        assert record is not None and record.seat == seat and record.outcome == "defaulted", \
            f"act_default for seat {seat} was not recorded as defaulted: {record!r}"


def _check_bounded(sizes: list[tuple[int, int]], steps: int) -> None:
    """The views' size does not grow with the game (long games only)."""
    if steps < BOUNDED_FROM:
        return
    quarter = steps // 4
    early = max(size for step, size in sizes if step < quarter)
    late = max((size for step, size in sizes if step >= steps - quarter), default=0)
    assert late <= BOUND_FACTOR * early + BOUND_SLACK, \
        f"views grow with the game: up to {early} bytes of JSON in the first quarter of " \
        f"{steps} actions, {late} in the last; a view holds the current state and a bounded " \
        "recent window, the history is the event log"


def _check_end(env: Env, game: Game) -> None:
    result = game.result
    assert result is not None and set(result.rewards) == set(range(game.players)), \
        "every seat needs a reward at the end"
    assert not game.pending(), "a finished game still awaits decisions"
    assert result.roles == tuple(r.name for r in game.roles) and \
        result.sides == tuple(r.side for r in game.roles), \
        f"the result must name each seat's role and side: {result.roles} / {result.sides}"
    events = game.events
    setup = game.hidden_setup()
    if env.hidden_roles:
        assert setup, "an env with hidden roles needs a hidden setup to reveal"
    if setup:
        _json(setup, "the hidden setup")
        assert game.public_view().get("setup") == setup, \
            "the public view at the end must reveal the hidden setup as 'setup'"
        assert any(e.type == "setup_revealed" and e.visible_to == "all" for e in events), \
            "the end of the game must reveal the hidden setup in a public setup_revealed event"
        assert game.record().setup == setup, "the record must keep the hidden setup"
    _check_private_events(game, events)


def _check_private_events(game: Game, events: list[Any]) -> None:
    """`events_for` hands each seat exactly the events it may see; an event meant for one side's
    seats never reaches a seat of another side."""
    sides = [r.side for r in game.roles]
    middle = len(events) // 2
    for seat in (None, *range(game.players)):
        mine = game.events_for(seat)
        assert [e.seq for e in mine] == [e.seq for e in events if e.visible(seat)], \
            f"events_for({seat}) does not hand out exactly the events {seat} may see"
        assert [e.seq for e in game.events_for(seat, middle)] == \
            [e.seq for e in mine if e.seq >= middle], f"events_for({seat}, since) is wrong"
        for e in mine:
            if e.visible_to == "all":
                continue
            owners = {sides[s] for s in e.visible_to}
            assert seat is not None and (len(owners) > 1 or sides[seat] in owners), \
                f"event {e.type!r} (seq {e.seq}) for side {owners} reached {seat}"


# ---------------------------------------------------------------------------------- playouts
class _Checks:
    """The checks of one playout and what they keep between steps."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.views, self.twins = Schedule(VIEW_DENSE, VIEW_RATIO), Schedule(TWIN_DENSE, TWIN_RATIO)
        self.snapshots: list[tuple[dict[str, Any], str]] = []
        self.sizes: list[tuple[int, int]] = []  # (step, largest view JSON) at sampled steps
        self.actions: list[ActionRecord] = []  # the record so far, for replays of its prefixes
        self.secrets = secret_role_names(game.roles) if game.env.hidden_roles else []
        # Secret role names as JSON strings, searched for in the JSON of events until the reveal.
        self.quoted = {name: json.dumps(name) for name in frozenset().union(*self.secrets)}
        _check_roles(game.env, game)
        self.events(game.events)

    def before_move(self, step: int, seat: int, move: Any) -> tuple[Game, int] | None:
        """View checks, and on twin steps a twin rebuilt by replay: when `move` (None = the
        default move) is a legal move and others decide at once too, the twin gets another
        move of `seat` and is returned with the event count, to compare after `game` moved;
        otherwise the defaults are checked on it now."""
        game = self.game
        if self.views(step):
            self.sizes.append((step, _check_views(game, self.snapshots, self.secrets)))
            _check_misuse(game)
            if move is not None:
                _check_preview(game, seat, move)
        if not self.twins(step):
            return None
        twin = _replay_prefix(game, self.actions[:])
        if isinstance(move, Mapping) and len(game.pending()) > 1:
            twin.act(seat, _alternative(game, seat, move, random.Random(step)))
            return twin, game.event_count
        _check_defaults(twin)
        return None

    def after_move(self, events: list[Any], seat: int, twin: tuple[Game, int] | None) -> None:
        self.actions.append(self.game.last_action())  # type: ignore[arg-type]
        self.events(events)
        if twin is not None:
            _check_hidden_pending(self.game, twin[0], seat, twin[1])
            _check_defaults(twin[0])

    def events(self, events: list[Any]) -> None:
        """Checks new events, and that none names a secret role to a seat before the reveal."""
        game, quoted = self.game, self.quoted
        for e in events:
            text = _check_event(game, e)
            if not quoted:
                continue
            if e.type == "setup_revealed":
                self.quoted = quoted = {}
                continue
            for name, q in quoted.items():
                if q in text and name not in game.revealed_roles():
                    for s in range(game.players):
                        assert not (name in self.secrets[s] and e.visible(s)), \
                            f"event {e.type!r} (seq {e.seq}) shows seat {s} the role " \
                            f"{name!r} of another side before the end"

    def at_end(self, steps: int) -> None:
        game = self.game
        _check_views(game, self.snapshots, self.secrets)
        for view, text in self.snapshots:
            assert json.dumps(view, sort_keys=True) == text, \
                "a view changed after later moves: views must be snapshots"
        _check_bounded(self.sizes, steps)
        _check_end(game.env, game)


def play_random(env: Env, preset: str, players: int, seed: int, *, garbage_rate: float = 0.1,
                default_rate: float = DEFAULT_RATE, max_steps: int = MAX_STEPS,
                checks: bool = True) -> Game:
    """One random playout: random legal moves, garbage text (`garbage_rate`) and default moves
    (`default_rate`); every invariant asserted along the way when `checks`. The moves depend
    only on (preset, players, seed), never on `checks`."""
    game = env.new_game(env.config(preset), seed, players)
    rng = random.Random(seed * 7919 + players)
    checker = _Checks(game) if checks else None
    steps = 0
    while not game.over:
        assert game.pending(), "game not over but nobody is pending"
        seat = rng.choice(sorted(game.pending()))
        roll = rng.random()
        move: Any
        if roll < garbage_rate:
            move = rng.choice(GARBAGE)
        elif roll < garbage_rate + default_rate and game.default_action(seat) is not None:
            move = None
        else:
            move = random_action(game.legal(seat), rng)
        twin = checker.before_move(steps, seat, move) if checker else None
        if move is None:
            events = game.act_default(seat, "random default")
        else:
            events = game.act(seat, move)
        if checker:
            checker.after_move(events, seat, twin)
        steps += 1
        assert steps < max_steps, f"{env.id} did not end within {max_steps} actions"
    if checker:
        checker.at_end(steps)
    else:
        assert game.result is not None and not game.pending()
    return game


def _same_events(game: Game, other: Game) -> bool:
    """Whether two games logged the same events (compared as objects: the same values of the
    same types, which implies the same JSON)."""
    return game.event_count == other.event_count and game.events == other.events


def check_metric_labels(env: Env, metrics: Mapping[str, Any]) -> None:
    """Every key of one game's metrics, game and seat level, has a plain label."""
    labels = env.metric_labels
    keys = set(metrics["game"]).union(*(set(m) for m in metrics["seats"].values()))
    missing = sorted(k for k in keys if not (isinstance(labels.get(k), str) and labels[k]))
    assert not missing, f"{env.id}: metrics without a label in metric_labels: {missing}"


# How a transcript line must not name a seat once it is given display names.
_SEAT_WORDS = re.compile(r"(?<!\w)(?:Player|P)\s?\d+(?!\w)")


def check_descriptions(env: Env, game: Game) -> None:
    """`describe_event` gives every event a line (`describer` the same), and with a namer it
    names seats only by it: never by the env's own seat names nor as "Player 0" / "P0" (chat,
    being what players typed, is left to them: random playouts type neither)."""
    own = sorted({env.seat_name(s) for s in range(game.players)}, key=len, reverse=True)
    own_names = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, own)) + r")(?!\w)")

    def name(seat: int) -> str:
        return f"<seat-{seat}>"

    describe = env.describer(name)  # what a server writes with: the very same lines
    for e in game.events:
        seat = None if e.visible_to == "all" or not e.visible_to else e.visible_to[0]
        line = env.describe_event(e, seat, name=name)
        assert isinstance(line, str) and line, f"describe_event gave no line for {e.type!r}"
        assert describe(e, seat) == line, f"describer and describe_event differ on {e.type!r}"
        found = own_names.search(line) or (None if env.names_characters
                                           else _SEAT_WORDS.search(line))
        assert found is None, \
            f"describe_event names a seat {found.group(0)!r} despite the namer: {line!r}"


def check_replay(env: Env, game: Game) -> None:
    """Replaying the record (also through JSON) reproduces every event, the result and the
    action record."""
    record = game.record()
    again = env.replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert _same_events(again, game), "replay produced different events"
    assert again.result == game.result, "replay produced a different result"
    assert [a.to_json() for a in again.actions] == [a.to_json() for a in record.actions], \
        "replay produced a different action record"


def check_env(env: Env, *, seeds: Iterable[int] = range(3), garbage_rate: float = 0.1,
              presets: Iterable[str] | None = None, players: Iterable[int] | None = None
              ) -> None:
    """Run the whole conformance suite on one environment: every preset (or those given) x
    player count (those of `players` the preset allows, when given) x seed."""
    assert env.id and env.title and env.description and env.rules_version
    assert env.default_preset in env.presets, "default preset missing"
    assert env.rating in RATINGS, f"rating must be one of {RATINGS}, got {env.rating!r}"
    assert env.on_timeout in TIMEOUTS, f"on_timeout must be one of {TIMEOUTS}"
    _json(env.describe(), "describe()")
    assert isinstance(env.help, str) and env.help.strip(), "help must be a text for people"
    names = list(env.presets) if presets is None else list(presets)
    seeds = list(seeds)
    for preset in names:
        assert preset in env.presets, f"{env.id} has no preset {preset!r}"
        counts = env.player_counts(env.config(preset))
        for count in counts if players is None else [n for n in players if n in counts]:
            for seed in seeds:
                game = play_random(env, preset, count, seed, garbage_rate=garbage_rate)
                twin = play_random(env, preset, count, seed, garbage_rate=garbage_rate,
                                   checks=False)
                assert _same_events(twin, game), "same seed and actions gave different events"
                check_replay(env, game)
                record = game.record()
                metrics = env.game_metrics(record)
                _json(metrics, "game_metrics")
                assert set(metrics) >= {"game", "seats"}, "game_metrics needs game and seats"
                assert set(metrics["seats"]) == {str(s) for s in range(count)}
                check_metric_labels(env, metrics)
                check_descriptions(env, game)
                _json(env.aggregate_metrics(env.game_metrics(r) for r in (record, twin.record())),
                      "aggregate_metrics")
