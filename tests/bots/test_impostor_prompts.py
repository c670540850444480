"""The Impostor game's prompt builder over the real `openai` and `anthropic` clients against the
local fake servers: what each phase's prompt carries (spec §4), the sampling of §5, ballots read
by the engine's parser, and an unreadable ballot asked again, then counted for nobody."""


from bots.llm.context import build_prompt
from bots.llm.settings import parse_settings
from bots.prompts import builder_for
from bots.prompts.impostor import ImpostorPrompts
from tests.fakes import FakeAnthropic, FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, provider_env, user_texts
from tests.impostor.helpers import describe_all, new_game

__all__ = ["close_llm_bots"]  # autouse fixture
BALLOT = ('```json\n{"suspected_impostor_id": "Player 3", "confidence": 1.4, '
          '"self_declaration": "no", "word_guess": null, "reasoning": "fits least"}\n```')


def builder() -> ImpostorPrompts:
    b = builder_for("impostor")
    assert isinstance(b, ImpostorPrompts)
    return b


def prompt(game, seat):
    built = build_prompt(builder(), game.view(seat), game.legal(seat).to_json(), 16000, {})
    return built.system, built.user


def test_the_description_prompt_carries_rules_word_team_and_earlier_descriptions():
    game = new_game(impostor=2, seed=1, mode="team_aware", teams=("A", "B", "A", "B"))
    first = game.order[0]
    system, user = prompt(game, first)
    assert "description phase" in system and "one or two sentences" in system
    assert f'Your word is: "{game.words[first]}"' in user
    assert f"You are Player {first + 1}. You will go first." in user
    assert "teammates" in user and "exactly one impostor" in user
    assert "750 characters" in user and "Earlier descriptions" not in user
    game.act(first, "It barks at the postman.")
    second = game.order[1]
    _, user = prompt(game, second)
    assert f"Player {first + 1}: It barks at the postman." in user
    assert "You will go first" not in user
    hidden = game.impostor_word if game.words[second] == game.majority_word \
        else game.majority_word
    assert f'"{hidden}"' not in user  # the other word of the pair is never shown


def test_the_voting_prompt_asks_for_json_with_schema_and_self_declaration():
    game = new_game(impostor=2, seed=1, mode="team_aware", teams=("A", "B", "A", "B"))
    describe_all(game)
    system, user = prompt(game, 0)
    assert "valid JSON" in system
    assert '"suspected_impostor_id"' in user and "self_declaration" in user
    assert "word_guess" in user and "win by not being found" in user
    assert user.count("Player") >= 4 and "You are Player 1." in user
    assert 'Your word is: "dog"' in user and "cat" not in user


def test_the_sampling_follows_the_paper_unless_set():
    b = builder()
    default = parse_settings("")
    assert b.sampling(default, "describe")["temperature"] == 0.7
    assert b.sampling(default, "vote")["temperature"] == 0.3
    warm = parse_settings("temperature=1.0")
    assert b.sampling(warm, "describe")["temperature"] == 1.0
    assert abs(b.sampling(warm, "vote")["temperature"] - 0.6) < 1e-9
    assert b.sampling(parse_settings("vote.temperature=0"), "vote")["temperature"] == 0


def test_a_leaking_description_is_refused_by_the_check():
    game = new_game(impostor=2, seed=1)
    first = game.order[0]
    view, legal = game.view(first), game.legal(first).to_json()
    assert builder().check(f"A loyal {game.words[first]}s best friend.", view, legal)
    assert builder().check("A loyal friend that barks.", view, legal) is None


def _queue(*texts):
    answers = list(texts)
    return lambda request: Reply(answers.pop(0) if answers else "{}")


async def _decide(bot, game, seat):
    return await bot.decide(game.view(seat), game.legal(seat).to_json(), {})


async def test_a_fenced_ballot_is_read_over_both_clients():
    for server_cls, kind in ((FakeOpenAI, "openai"), (FakeAnthropic, "anthropic")):
        game = new_game(impostor=2, seed=1)
        describe_all(game)
        with server_cls(responder=_queue(BALLOT)) as fake:
            url = (fake.base_url, None) if kind == "openai" else (None, fake.base_url)
            model = "gpt-4o-mini" if kind == "openai" else "claude-haiku-4-5"
            bot = llm_bot(f"{kind}:{model}?{FAST}", "impostor", 0, provider_env(*url))
            decision = await _decide(bot, game, 0)
            request = fake.completion_requests[0]
        assert request.body["temperature"] == 0.3
        stamped = bot.settings()["prompt"]["phase_sampling"]
        assert stamped["describe"]["temperature"] == 0.7 and stamped["vote"]["temperature"] == 0.3
        assert "valid JSON" in str(request.body)
        game.act(0, decision.action)
        mine = game.ballots[0]
        assert mine["valid"] and mine["target"] == 2 and mine["confidence"] == 1.0
        assert mine["self_declaration"] is False


async def test_an_unreadable_ballot_is_asked_again_then_counts_for_nobody():
    game = new_game(impostor=2, seed=1)
    describe_all(game)
    with FakeOpenAI(responder=_queue("I think it is Player 3.", "Player 3, surely.",
                                     "Still Player 3.", "No JSON from me.")) as fo:
        bot = llm_bot(f"openai:gpt-4o-mini?{FAST}", "impostor", 0, provider_env(fo.base_url))
        first = await _decide(bot, game, 0)
        assert len(fo.completion_requests) == 2  # the bot asked once more, with the reason
        reask = user_texts(fo.completion_requests[1].messages)[-1]
        assert "could not be read" in reask and "suspected_impostor_id" in reask
        game.act(0, first.action)  # the engine refuses it once...
        assert 0 in game.pending() and game.view(0)["private"]["last_error"]
        second = await _decide(bot, game, 0)
        told = user_texts(fo.completion_requests[2].messages)[0]
        assert "Your last answer was refused: Your ballot could not be read" in told
        game.act(0, second.action)  # ...then counts it for nobody
    assert game.ballots[0] == {"valid": False, "why": "unreadable"}
