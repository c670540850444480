"""Action spaces v2: JSON round trips, check_action, and random_action always fitting its space."""

from __future__ import annotations

import dataclasses
import json
import random
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.registry import all_envs
from engine.sampling import random_action
from engine.spaces import NO_ACTION, ActionSpace, Field, Option, check_action

ROOMS = (Option("cafeteria", "Cafeteria"), Option("admin", "Admin"), Option("medbay", "MedBay"))

SPACES = {
    "choice": ActionSpace("choice", "Vote", options=(Option("1", "Player 1"), Option("2", "P2"))),
    "text": ActionSpace("text", "Say something", max_chars=40),
    "args": ActionSpace("choice", "Your move", syntax="SPEAK: <message>", options=(
        Option("SPEAK", "Speak", Field("text", "Message", "text", max_chars=300)),
        Option("CAMERA", "Watch a camera", Field("room", "Room", "choice", options=ROOMS)),
        Option("WAIT", "Wait"),
        Option("BID", "Bid", Field("amount", "Amount", "float", min=0.5, max=2.5)),
        Option("SKIP", "Skip", Field("why", "Reason", "text", max_chars=20, optional=True)),
    )),
    "blotto": ActionSpace("form", "Allocate 20", syntax="[A4 B2 C2]", fields=tuple(
        Field(n, f"Field {n}", "int", min=0, max=20, default=0) for n in "ABC"),
        constraints={"sum_eq": 20}),
    "mixed": ActionSpace("form", "Everything", fields=(
        Field("n", "Count", "int", min=-3, max=3),
        Field("m", "More", "int", min=0, max=4, optional=True),
        Field("p", "Probability", "float", min=0.0, max=1.0),
        Field("x", "Anything", "float"),
        Field("lo", "At least two", "float", min=2.0),
        Field("hi", "At most minus one", "float", max=-1.0, optional=True),
        Field("ok", "Agree", "bool", default=True),
        Field("maybe", "Maybe", "bool", optional=True),
        Field("who", "Target", "choice", options=ROOMS, optional=True),
        Field("note", "Note", "text", max_chars=12, optional=True),
    ), constraints={"sum_max": 5}),
    "bounded-sum": ActionSpace("form", "Tight", fields=(
        Field("a", "A", "int", min=1, max=2), Field("b", "B", "int", min=0, max=1)),
        constraints={"sum_max": 3}),
    "nothing": NO_ACTION,
}


@pytest.mark.parametrize("name", sorted(SPACES))
def test_from_json_inverts_to_json(name: str) -> None:
    space = SPACES[name]
    again = ActionSpace.from_json(json.loads(json.dumps(space.to_json())))
    assert again == space
    assert isinstance(again.options, tuple) and isinstance(again.fields, tuple)
    assert all(isinstance(f.options, tuple) for f in again.fields)
    assert isinstance(again.constraints, dict)
    assert again.to_json() == space.to_json()


def test_field_and_option_round_trip_alone() -> None:
    for f in SPACES["mixed"].fields:
        assert Field.from_json(f.to_json()) == f
    for o in SPACES["args"].options:
        assert Option.from_json(o.to_json()) == o


def test_json_keeps_its_old_shape_and_names_new_things_only_when_used() -> None:
    assert Option("a", "A").to_json() == {"id": "a", "label": "A"}
    assert Field("a", "A", "int", min=0).to_json() == {"name": "a", "label": "A", "kind": "int",
                                                      "min": 0}
    speak = SPACES["args"].options[0].to_json()
    assert speak["arg"] == {"name": "text", "label": "Message", "kind": "text", "max_chars": 300}
    assert Field("t", "T", "text", optional=True).to_json()["optional"] is True


ARGS, MIXED, BLOTTO = SPACES["args"], SPACES["mixed"], SPACES["blotto"]
GOOD_MIXED = {"n": 1, "p": 0.5, "x": -7.25, "lo": 2, "ok": False}


@pytest.mark.parametrize("space, action", [
    (SPACES["choice"], {"choice": "2"}),
    (SPACES["text"], {"text": "hello"}),
    (ARGS, {"choice": "SPEAK", "arg": "I saw red vent"}),
    (ARGS, {"choice": "CAMERA", "arg": "admin"}),
    (ARGS, {"choice": "WAIT"}),
    (ARGS, {"choice": "WAIT", "arg": None}),
    (ARGS, {"choice": "BID", "arg": 2.5}),
    (ARGS, {"choice": "BID", "arg": 1}),  # an int is a number too
    (ARGS, {"choice": "SKIP"}),
    (ARGS, {"choice": "SKIP", "arg": "tired"}),
    (BLOTTO, {"A": 10, "B": 5, "C": 5}),
    (MIXED, GOOD_MIXED),
    (MIXED, {**GOOD_MIXED, "m": 4, "n": 1, "hi": -1.0, "maybe": None, "who": "medbay",
             "note": "x" * 12}),
])
def test_check_action_accepts(space: ActionSpace, action: dict[str, Any]) -> None:
    assert check_action(space, action) is None


@pytest.mark.parametrize("space, action, why", [
    (SPACES["choice"], {"choice": "3"}, "unknown choice '3'"),
    (SPACES["choice"], {}, "choice action"),
    (SPACES["choice"], {"choice": "1", "extra": 1}, "unexpected keys extra"),
    (SPACES["choice"], "[1]", "JSON object"),
    (SPACES["text"], {"text": "x" * 41}, "more than 40"),
    (SPACES["text"], {"text": 5}, "must be a string"),
    (SPACES["text"], {"choice": "1"}, "text action"),
    (ARGS, {"choice": "SPEAK"}, "SPEAK needs an argument (Message)"),
    (ARGS, {"choice": "SPEAK", "arg": "x" * 301}, "more than 300"),
    (ARGS, {"choice": "SPEAK", "arg": 3}, "Message needs text"),
    (ARGS, {"choice": "CAMERA", "arg": "reactor"}, "Room must be one of"),
    (ARGS, {"choice": "WAIT", "arg": "now"}, "WAIT takes no argument"),
    (ARGS, {"choice": "BID", "arg": 3.0}, "at most 2.5"),
    (ARGS, {"choice": "BID", "arg": 0.25}, "at least 0.5"),
    (ARGS, {"choice": "BID", "arg": True}, "needs a number"),
    (ARGS, {"choice": "BID", "arg": float("nan")}, "needs a number"),
    (BLOTTO, {"A": 10, "B": 5, "C": 4}, "exactly 20, it is 19"),
    (BLOTTO, {"A": 10, "B": 10}, "Field C is missing"),
    (BLOTTO, {"A": 10, "B": 5, "C": 5, "D": 0}, "unknown field 'D'"),
    (BLOTTO, {"A": 21, "B": -1, "C": 0}, "at most 20"),
    (BLOTTO, {"A": 10.0, "B": 5, "C": 5}, "whole number"),
    (BLOTTO, {"A": True, "B": 5, "C": 5}, "whole number"),
    (MIXED, {**GOOD_MIXED, "n": 3, "m": 3}, "the total 6 exceeds 5"),
    (MIXED, {**GOOD_MIXED, "p": 1.5}, "Probability must be at most 1.0"),
    (MIXED, {**GOOD_MIXED, "p": "0.5"}, "Probability needs a number"),
    (MIXED, {**GOOD_MIXED, "lo": 1.9}, "at least 2.0"),
    (MIXED, {**GOOD_MIXED, "ok": 1}, "Agree needs true or false"),
    (MIXED, {**GOOD_MIXED, "ok": None}, "Agree is missing"),
    (MIXED, {**GOOD_MIXED, "who": "bridge"}, "Target must be one of"),
    (MIXED, {**GOOD_MIXED, "note": "x" * 13}, "more than 12"),
])
def test_check_action_names_the_problem(space: ActionSpace, action: Any, why: str) -> None:
    problem = check_action(space, action)
    assert problem is not None and why in problem, problem


@pytest.mark.parametrize("name", sorted(set(SPACES) - {"nothing"}))
def test_random_action_always_fits_and_is_deterministic(name: str) -> None:
    space = SPACES[name]
    seen: set[str] = set()
    everything = 4 if name == "bounded-sum" else 2 if name == "choice" else 20
    for seed in range(300):
        action = random_action(space, random.Random(seed))
        assert check_action(space, action) is None, (seed, action, check_action(space, action))
        assert random_action(space, random.Random(seed)) == action
        seen.add(json.dumps(action, sort_keys=True))
    assert len(seen) >= everything  # really random


def test_random_action_covers_args_omissions_and_bools() -> None:
    rng = random.Random(1)
    choices = [random_action(ARGS, rng) for _ in range(400)]
    assert {a["choice"] for a in choices} == {o.id for o in ARGS.options}
    assert any(a["choice"] == "SKIP" and "arg" not in a for a in choices)
    assert any(a["choice"] == "SKIP" and "arg" in a for a in choices)
    forms = [random_action(MIXED, rng) for _ in range(400)]
    assert {a["ok"] for a in forms} == {True, False}
    assert any("note" in a for a in forms) and any("note" not in a for a in forms)
    x = [a["x"] for a in forms]
    assert all(0.0 <= v <= 1.0 for v in x) and max(x) - min(x) > 0.5
    assert all(a["lo"] <= 3.0 for a in forms)  # min only: min..min+1
    assert all(-2.0 <= a["hi"] <= -1.0 for a in forms if "hi" in a)  # max only: max-1..max


# ------------------------------------------------------------------ old kinds: same draws
def _legacy_text(rng: random.Random, max_chars: int | None, words: int = 6) -> str:
    text = " ".join("".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 8)))
                    for _ in range(rng.randint(1, words)))
    return text[:max_chars] if max_chars else text


def _legacy_split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def _legacy_field(rng: random.Random, f: Field) -> Any:
    if f.kind == "choice":
        return rng.choice(f.options).id
    if f.kind == "text":
        return _legacy_text(rng, f.max_chars)
    return rng.randint(f.min if f.min is not None else 0, f.max if f.max is not None else 100)


def _legacy_random_action(space: ActionSpace, rng: random.Random) -> dict[str, Any]:
    """random_action as it was before spaces v2 (stored games replay its sequence)."""
    if space.kind == "choice":
        return {"choice": rng.choice(space.options).id}
    if space.kind == "text":
        return {"text": _legacy_text(rng, space.max_chars)}
    action = {f.name: _legacy_field(rng, f) for f in space.fields}
    ints = [f for f in space.fields if f.kind == "int"]
    target = space.constraints.get("sum_eq")
    if target is None and "sum_max" in space.constraints:
        target = rng.randint(0, int(space.constraints["sum_max"]))
    if target is not None and ints:
        for f, value in zip(ints, _legacy_split(rng, int(target), len(ints)), strict=True):
            action[f.name] = value
    return action


OLD_KIND_SPACES = [
    SPACES["choice"], SPACES["text"], BLOTTO,
    ActionSpace("form", "Up to 20", fields=tuple(
        Field(n, n, "int", min=0, max=20) for n in "ABCDE"), constraints={"sum_max": 20}),
    ActionSpace("form", "Mixed old kinds", fields=(
        Field("1", "vs 1", "choice", options=(Option("cooperate", "c"), Option("defect", "d"))),
        Field("n", "N", "int"), Field("say", "Say", "text", max_chars=30),
        Field("2", "vs 2", "choice", options=(Option("cooperate", "c"), Option("defect", "d"))))),
]


def test_old_kinds_draw_exactly_as_before() -> None:
    for space in OLD_KIND_SPACES:
        new, old = random.Random(7), random.Random(7)
        for _ in range(200):
            assert random_action(space, new) == _legacy_random_action(space, old)
        assert new.random() == old.random()  # and leave the rng in the same state


# ------------------------------------------------------------------ hypothesis: any space
def _fields(names: st.SearchStrategy[str]) -> st.SearchStrategy[Field]:
    def build(name: str, kind: str, lo: float | None, span: float | None, chars: int | None,
              n_opts: int, optional: bool) -> Field:
        if kind == "int":
            lo_i = None if lo is None else int(lo)
            hi_i = None if span is None else (lo_i or 0) + int(span)
            return Field(name, name.upper(), "int", lo_i, hi_i, optional=optional)
        if kind == "float":
            hi = None if span is None else (lo or 0.0) + span
            return Field(name, name.upper(), "float", lo, hi, optional=optional)
        if kind == "choice":
            opts = tuple(Option(f"o{i}", f"Option {i}") for i in range(n_opts))
            return Field(name, name.upper(), "choice", options=opts, optional=optional)
        if kind == "text":
            return Field(name, name.upper(), "text", max_chars=chars, optional=optional)
        return Field(name, name.upper(), "bool", optional=optional)

    return st.builds(build, names, st.sampled_from(["int", "float", "bool", "choice", "text"]),
                     st.none() | st.integers(-50, 50).map(float),
                     st.none() | st.integers(0, 30).map(float),
                     st.none() | st.integers(1, 40), st.integers(1, 4), st.booleans())


@st.composite
def spaces(draw: st.DrawFn) -> ActionSpace:
    kind = draw(st.sampled_from(["choice", "text", "form"]))
    if kind == "text":
        return ActionSpace("text", "say", max_chars=draw(st.none() | st.integers(1, 50)))
    if kind == "choice":
        n = draw(st.integers(1, 5))
        args = [draw(st.none() | _fields(st.just("arg"))) for _ in range(n)]
        return ActionSpace("choice", "pick", options=tuple(
            Option(f"c{i}", f"Choice {i}", arg) for i, arg in enumerate(args)))
    names = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6, unique=True))
    fields = tuple(draw(_fields(st.just(n))) for n in names)
    constraints = draw(st.sampled_from([{}, {"sum_max": 10}]))
    if constraints:  # keep it satisfiable: the int minimums must fit under the total
        fields = tuple(dataclasses.replace(f, min=min(f.min, 1))
                       if f.kind == "int" and f.min is not None else f for f in fields)
    return ActionSpace("form", "fill", fields=fields, constraints=constraints)


@settings(max_examples=300, deadline=None)
@given(spaces(), st.integers(0, 2**32))
def test_any_space_round_trips_and_its_random_actions_fit(space: ActionSpace, seed: int) -> None:
    assert ActionSpace.from_json(json.loads(json.dumps(space.to_json()))) == space
    action = random_action(space, random.Random(seed))
    json.dumps(action)
    assert check_action(space, action) is None, (action, check_action(space, action))
    assert random_action(space, random.Random(seed)) == action


# ------------------------------------------------------------------ every registered env
@pytest.mark.parametrize("env", all_envs(), ids=lambda e: e.id)
def test_legal_of_every_env_survives_json(env: Any) -> None:
    rng = random.Random(0)
    for seed in range(3):
        game = env.new_game(env.config(), seed, env.default_players())
        for _ in range(30):
            if game.over:
                break
            for seat in sorted(game.pending()):
                space = game.legal(seat)
                wire = json.loads(json.dumps(space.to_json()))
                assert ActionSpace.from_json(wire) == space
                assert check_action(space, random_action(space, random.Random(seed))) is None
            seat = rng.choice(sorted(game.pending()))
            game.act(seat, random_action(game.legal(seat), rng))
