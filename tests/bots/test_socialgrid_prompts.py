"""The SocialGrid prompt builder: what the prompts say for each role and oracle level (and never
another seat's secret role), reading messy replies with the engine's own parsers (a KILL that is
not allowed, garbage: refused, and the engine then makes NOOP or skip), and a few steps and a
vote played by an LLM bot through the real openai client against the local fake server."""

import json
import re

import pytest

from bots.llm.context import build_prompt
from bots.prompts import builder_for
from bots.prompts.socialgrid import SocialGridPrompts
from bots.registry import make_bot
from engine.registry import get
from engine.socialgrid import syntax
from engine.socialgrid.moves import ACTION_NAMES, KILL, NOOP
from tests.fakes import FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, provider_env

__all__ = ["close_llm_bots"]  # autouse fixture

ENV = "socialgrid"
BUILDER = SocialGridPrompts(get(ENV))


def new_game(seed=1, **overrides):
    env = get(ENV)
    return env.new_game(env.config(overrides=overrides or None), seed, 7)


def prompt(game, seat, memory=None):
    """System and user text as an LLM seat would get them."""
    view, legal = game.view(seat), game.legal(seat).to_json()
    built = build_prompt(BUILDER, view, legal, 32_000, memory or {})
    return built.system, built.user


def to_meeting(game, memories=None):
    """Everyone stands still until the scheduled meeting (vote_interval must be small); the
    builder remembers each step for the seats in `memories`, as an LLM seat's bot does."""
    while game.phase != "vote":
        for seat in sorted(game.pending()):
            if memories is not None and seat in memories:
                view, legal = game.view(seat), game.legal(seat).to_json()
                BUILDER.remember(view, legal, '{"action": 7}', "7", memories[seat])
            game.act(seat, {"choice": str(NOOP)})


def step_legal(allowed):
    return {"kind": "choice", "options": [{"id": str(a), "label": ACTION_NAMES[a]}
                                          for a in allowed]}


# -- what the prompts say ----------------------------------------------------------------------
def test_the_env_names_this_builder():
    assert isinstance(builder_for(ENV), SocialGridPrompts)


def test_crewmate_movement_prompt_at_the_high_level():
    game = new_game()
    seat = min(game.crew)
    system, user = prompt(game, seat)
    assert f"You are Player_{seat}, a crewmate" in system
    assert all(name in system for name in ACTION_NAMES.values())  # the 14 actions
    for symbol in ("# wall", ". floor", "T task station", "B emergency button", "O open door",
                   "D closed door", "C a body"):
        assert symbol in system
    assert all(str(code) in system for code in (100, 101, 102, 103))
    assert "column then its row" in system and "ALLOWED_ACTIONS" in system
    assert "7 players" in system and "every living crewmate has finished" in system
    assert "possible threats" in system and "back and forth" in system and "STALL" in system
    assert "BEST_ACTION_SUGGESTION" in system and "\"plan\"" not in system
    assert '{"thought": "<short reasoning>", "action": <number>}' in system
    assert "BEST_ACTION_SUGGESTION:" in user and "ALLOWED_ACTIONS:" in user  # env's render
    assert "Players: Player_0 (alive)" in user


def test_impostor_movement_prompt_adds_kill_witnesses_and_blending():
    game = new_game()
    seat = min(game.impostors)
    mate = f"Player_{max(game.impostors)}"
    system, user = prompt(game, seat)
    assert f"You are Player_{seat}, an impostor" in system
    assert "2 of them impostors" in system  # itself and its teammate
    assert f"fellow impostors are {mate}" in system
    assert "KILL (13)" in system and "cooldown is 0" in system and "30 steps" in system
    assert "Manhattan distance of 2" in system and "DO_TASK there to look busy" in system
    assert "kill cooldown: 30 steps remaining" in user


def test_mid_level_asks_for_a_plan_first_and_carries_it_over():
    game = new_game(oracle="mid")
    seat = min(game.crew)
    system, user = prompt(game, seat)
    assert '"plan"' in system and "step by step" in system
    assert '"plan"' in user and "MOVE_FORWARD ->" in user  # the oracle's predicted outcomes
    view, legal = game.view(seat), game.legal(seat).to_json()
    memory = {}
    BUILDER.remember(view, legal, '{"thought": "t", "plan": "go down to the door", '
                                  '"action": 7}', "", memory)
    _, user = prompt(game, seat, memory)
    assert "Your plan from the last step: (step 0) go down to the door" in user


def test_low_level_has_no_hints():
    game = new_game(oracle="low")
    system, user = prompt(game, min(game.crew))
    assert "no navigation hints" in system and "BEST_ACTION" not in user


def test_no_prompt_names_another_seats_secret_role():
    game = new_game(vote_interval=2)
    names = {f"Player_{s}" for s in game.impostors}
    for phase in ("move", "vote"):
        if phase == "vote":
            to_meeting(game)
        for seat in sorted(game.crew):
            text = "\n".join(prompt(game, seat))
            assert "Fellow impostors" not in text and "fellow impostors are" not in text
            for line in text.splitlines():
                assert not (any(n in line for n in names) and "impostor" in line.lower()), line


def test_voting_prompt():
    game = new_game(seed=2, vote_interval=2)
    crew, impostor = min(game.crew), min(game.impostors)
    memories = {crew: {}}
    to_meeting(game, memories)
    seen = game.view(crew)["private"]["observation"]["players"]
    assert seen  # someone is in sight of the crewmate at this seed
    system, user = prompt(game, crew, memories[crew])
    assert f"You are Player_{crew}, a crewmate, in a meeting" in system
    assert "find the impostors" in system and "or skip" in system
    assert all(f"Player_{s} (alive)" in system for s in range(7))
    for band in ("0.0 to 0.3", "0.4 to 0.6", "0.7 to 1.0"):
        assert band in system
    assert "trust least" in system and "unsure, vote skip" in system
    assert '"trust_scores"' in system and '"vote"' in system
    assert "Found dead at this meeting: nobody" in user and "ALLOWED_ACTIONS" not in user
    name = min(seen)  # the seat's own sightings, kept by the builder
    assert f"{name} was last seen by you at step 1, at {seen[name]['position']}" in user
    system, _ = prompt(game, impostor)
    mate = f"Player_{max(game.impostors)}"
    assert f"fellow impostors are {mate}: never vote for them" in system.replace("Your f", "f")


# -- reading replies -------------------------------------------------------------------------------
STEP_VIEW = {"public": {"phase": "tasks", "players": [{"name": f"Player_{s}"} for s in range(7)]},
             "private": {"role": "crewmate"}}
ALLOWED = step_legal([0, 1, 4, 5, 6, 7, 8])


def read(reply, legal=ALLOWED, view=STEP_VIEW):
    action = BUILDER.extract(reply, view, legal)
    return action, BUILDER.check(action, view, legal)


@pytest.mark.parametrize("reply, expected", [
    ('{"thought": "go", "action": 0}', 0),
    ('```json\n{"thought": "to the station", "action": 8}\n```', 8),
    ('I think I should turn.\n{"thought": "turn", "action": 5}\nThat is my move.', 5),
    ('Example: {"action": 13}. Final answer: {"thought": "wait", "action": 7}', 7),
    ('<think>maybe {"action": 13}?</think>\n{"thought": "no", "action": 1}', 1),
    ('{"thought": "the "door" is ahead", "action": 6}', 6),  # broken JSON, action still read
    ('{"thought": "x", "action": "0 MOVE_FORWARD"}', 0),
    ('{"thought": "x", "action": "TURN_LEFT"}', 4),
    ('{"thought": "x", "action": 8.0}', 8),
    ("I will walk on.\nAction: 0", 0),
    ("MOVE_BACKWARD", 1),
])
def test_messy_step_replies(reply, expected):
    action, verdict = read(reply)
    assert verdict is None, verdict
    assert syntax.parse_action(action) == expected


@pytest.mark.parametrize("reply", [
    "I am not sure what to do.",
    '{"thought": "hmm"}',
    '{"thought": "x", "action": "MOVE_FORWARD or KILL"}',
    '{"thought": "x", "action": 42}',
    "",
])
def test_garbage_is_refused(reply):
    _, verdict = read(reply)
    assert verdict is not None and verdict.kind == "unparseable"


def test_kill_is_refused_unless_allowed():
    action, verdict = read('{"thought": "now!", "action": 13}')
    assert verdict.kind == "illegal" and verdict.read_as == "13 KILL"
    assert "not in ALLOWED_ACTIONS" in verdict.message and "cooldown" in verdict.message
    assert "Answer again" in BUILDER.reask(verdict, ALLOWED)
    impostor = {**STEP_VIEW, "private": {"role": "impostor"}}
    _, verdict = read('{"thought": "alone", "action": "KILL"}', step_legal([0, 7, KILL]),
                      impostor)
    assert verdict is None


def test_the_engine_makes_noop_of_a_refused_answer_never_a_kill():
    game = new_game()
    impostor = min(game.impostors)
    view, legal = game.view(impostor), game.legal(impostor).to_json()
    assert str(KILL) not in {o["id"] for o in legal["options"]}
    for reply in ('{"thought": "kill", "action": 13}', "KILL KILL KILL"):
        action = BUILDER.extract(reply, view, legal)
        assert BUILDER.check(action, view, legal) is not None
        events = game.act(impostor, action)
        assert [e.data["then"] for e in events if e.type == "invalid_move"] == ["default"]
        assert impostor not in game.pending()  # its NOOP is in
        for seat in sorted(game.pending()):
            game.act(seat, {"choice": str(NOOP)})
        assert game.history[impostor][-1]["action"] == NOOP
    assert not [e for e in game.record().events if e.type == "kill"]


def vote_view(game, seat):
    return game.view(seat), game.legal(seat).to_json()


@pytest.fixture
def meeting():
    game = new_game(vote_interval=2)
    to_meeting(game)
    return game


def test_messy_ballots(meeting):
    seat = min(meeting.crew)
    view, legal = vote_view(meeting, seat)
    a, b, c, d = [s for s in range(7) if s != seat][:4]
    reply = (f"<think>hmm</think>Here is my ballot:\n```json\n{{\"thought\": \"I saw nothing\", "
             f"\"vote\": \"Player_{a}\", \"trust_scores\": {{\"Player_{a}\": \"0.2\", "
             f"\"player {b}\": 1.5, \"Player_{c}\": \"80%\", \"Player_{d}\": \"high\"}}}}\n"
             "```\nGood luck everyone.")
    action = BUILDER.extract(reply, view, legal)
    assert BUILDER.check(action, view, legal) is None
    ballot = syntax.parse_ballot(action, 7)
    assert ballot.target == a and ballot.thought == "I saw nothing"
    assert ballot.trust == {a: 0.2, b: 1.0, c: 0.8}  # 1.5 clipped, "high" dropped


@pytest.mark.parametrize("vote, kind", [
    ("skip", None), ("Skip", None), ("Player_9", "unparseable"), ("the red one", "unparseable"),
    ("self", "unparseable"), ("me", "unparseable"),
])
def test_ballot_votes(meeting, vote, kind):
    seat = min(meeting.crew)
    view, legal = vote_view(meeting, seat)
    action = BUILDER.extract(json.dumps({"thought": "t", "vote": vote}), view, legal)
    verdict = BUILDER.check(action, view, legal)
    assert (verdict.kind if verdict else None) == kind


def test_voting_for_oneself_is_refused_and_garbage_becomes_skip(meeting):
    seat = min(meeting.crew)
    view, legal = vote_view(meeting, seat)
    verdict = BUILDER.check(BUILDER.extract(f'{{"vote": "Player_{seat}"}}', view, legal),
                            view, legal)
    assert verdict.kind == "illegal" and verdict.read_as == f"vote Player_{seat}"
    action = BUILDER.extract("I refuse to vote.", view, legal)
    assert BUILDER.check(action, view, legal).kind == "unparseable"
    meeting.act(seat, action)
    assert meeting.answers[seat].target is None  # the engine's default: skip


# -- an LLM seat end to end ------------------------------------------------------------------------
_ALLOWED_LINE = re.compile(r"ALLOWED_ACTIONS: ([^\n]*)")


def fake_model(request):
    """Plays like a tidy model: the oracle's suggestion when allowed, else the first allowed
    action, in a fenced JSON block; at a meeting, skip with trust scores as strings."""
    text = request.last_user_text()
    if "Cast your vote" in text:
        targets = re.search(r"you may vote for ([^\n]*?), or skip", text).group(1).split(", ")
        scores = {t: "0.5" for t in targets}
        return Reply("```json\n" + json.dumps({"thought": "No evidence yet.", "vote": "skip",
                                               "trust_scores": scores}) + "\n```")
    allowed = [int(a.split()[0]) for a in _ALLOWED_LINE.search(text).group(1).split(", ")]
    best = re.search(r"BEST_ACTION_SUGGESTION: (\d+)", text)
    action = int(best.group(1)) if best and int(best.group(1)) in allowed else allowed[0]
    return Reply(f"Let me look.\n```json\n{{\"thought\": \"going on\", \"action\": {action}}}"
                 "\n```")


async def test_llm_seat_plays_steps_and_a_vote_through_the_openai_client():
    env = get(ENV)
    game = env.new_game(env.config(overrides={"vote_interval": 4}), 1, 7)
    seat = min(game.crew)
    with FakeOpenAI(responder=fake_model) as server:
        llm = llm_bot(f"openai:gpt-4o-mini?{FAST}", ENV, 0, provider_env(server.base_url))
        bots = {s: make_bot("scripted:agent", ENV, s) for s in range(7) if s != seat}
        memory = {s: {} for s in range(7)}
        decisions = []
        while game.meetings < 1 or game.phase == "vote":
            for s in sorted(game.pending()):
                bot = llm if s == seat else bots[s]
                decision = await bot.decide(game.view(s), game.legal(s).to_json(), memory[s])
                if s == seat:
                    decisions.append(decision)
                game.act(s, decision.action)
        requests = server.completion_requests
    assert len(decisions) == 5 == len(requests)  # 4 steps and a ballot, no re-asks
    assert all(a.outcome == "ok" for a in game.record().actions if a.seat == seat)
    systems = [r.messages[0]["content"] for r in requests]
    assert "Answer format" in systems[0] and "in a meeting" in systems[-1]
    ballot = json.loads(decisions[-1].action)
    assert ballot["vote"] == "skip" and set(ballot["trust_scores"].values()) == {0.5}
    assert game.trust[seat] == {s: 0.5 for s in range(7) if s != seat}
    assert memory[seat]["socialgrid"]["bodies"] == []  # cleared by the meeting


async def test_llm_seat_is_reasked_once_then_the_engine_defaults():
    game = new_game()
    impostor = min(game.impostors)
    with FakeOpenAI() as server:
        server.script(Reply('{"thought": "kill now", "action": 13}'),
                      Reply("Sorry: KILL, definitely."))
        llm = llm_bot(f"openai:gpt-4o-mini?{FAST}", ENV, 0, provider_env(server.base_url))
        decision = await llm.decide(game.view(impostor), game.legal(impostor).to_json(), {})
        reask = server.completion_requests[1].messages[-1]["content"]
    assert "read as 13 KILL" in reask and "ALLOWED_ACTIONS" in reask
    events = game.act(impostor, decision.action)
    assert [e.data["then"] for e in events if e.type == "invalid_move"] == ["default"]
    assert impostor not in game.pending()
