"""Transcript compaction (issue 8): long texts stored once, prompts as deltas of the seat's
previous prompt, chains bounded, and `expand` giving back exactly what the bots recorded."""

import copy
import itertools
import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.base import BotError
from engine.registry import get
from server.store.transcripts import (
    DELTA,
    REF,
    MissingText,
    TranscriptCompactor,
    delta_base,
    diff,
    expand,
    patch,
    restarts_chain,
    text_hash,
    text_refs,
)
from tests.fakes import FakeOpenAI, Reply, Request, Status
from tests.fakes.seating import FAST, close_llm_bots, example_responder, llm_bot, play, provider_env

__all__ = ["close_llm_bots"]  # autouse fixture

Transcript = list[dict[str, Any]]
_dump = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode  # as the store


class Game:
    """One game's rows as the store keeps them: stored transcripts (through JSON) and a texts
    table shared by every game (INSERT OR IGNORE)."""

    def __init__(self, table: dict[str, str] | None = None, **options: Any) -> None:
        self.compactor = TranscriptCompactor(**options)
        self.table = {} if table is None else table
        self.rows: list[tuple[int, Any, Transcript]] = []  # (index, seat, stored)
        self.emitted: set[str] = set()

    def store(self, seat: Any, transcript: Transcript) -> Transcript:
        before = copy.deepcopy(transcript)
        stored, new = self.compactor.compact(seat, transcript)
        assert transcript == before  # the caller's transcript is left alone
        assert not new.keys() & self.emitted  # each text at most once per game
        assert all(text_hash(text) == h for h, text in new.items())
        self.emitted |= new.keys()
        for h, text in new.items():
            self.table.setdefault(h, text)
        stored = json.loads(_dump(stored))
        assert text_refs(stored) <= self.table.keys()
        self.rows.append((len(self.rows), seat, stored))
        return stored

    def expanded(self) -> list[Transcript]:
        return [t for _, t in expand(((i, s) for i, _, s in self.rows), self.table)]

    def read_one(self, k: int) -> tuple[Transcript, int]:
        """Row k read as a store would read one action: alone when it is no delta, else with
        its seat's rows from the latest that restarts the chain; and how many of the rows
        given hold a prompt."""
        _, seat, stored = self.rows[k]
        if delta_base(stored) is None:
            return _single(stored, self.table), 1
        start = max(i for i, s, t in self.rows[:k] if s == seat and restarts_chain(t))
        rows = [(i, t) for i, s, t in self.rows[start:k + 1] if s == seat]
        *_, (_, last) = expand(rows, self.table)
        return last, sum(1 for _, t in rows if restarts_chain(t) or delta_base(t))

    def stored_size(self) -> int:
        return sum(len(_dump(t)) for _, _, t in self.rows) + \
            sum(len(h) + len(text) for h, text in self.table.items())


def _single(stored: Transcript, texts: dict[str, str]) -> Transcript:
    [(_, full)] = expand([(0, stored)], texts)
    return full


def _size(transcripts: Iterable[Transcript]) -> int:
    return sum(len(_dump(t)) for t in transcripts)


def _entries(stored: Iterable[Transcript], key: str) -> list[dict[str, Any]]:
    return [e for t in stored for e in t if isinstance(e, dict) and key in e]


# -- real LLM bots ----------------------------------------------------------------------------
async def test_ipd_game_of_llm_bots_round_trips_and_shrinks():
    ipd = get("three-player-ipd")
    with FakeOpenAI(responder=example_responder) as fo:
        environ = provider_env(fo.base_url)
        bots = [llm_bot(f"openai:gpt-4o-mini?{FAST}", ipd.id, s, environ) for s in range(3)]
        game = ipd.new_game(ipd.config(), seed=4, players=3)
        decisions = await play(game, bots)
    originals = [d.transcript for _, d in decisions]
    store = Game()
    for seat, d in decisions:
        store.store(seat, d.transcript)
    assert store.expanded() == originals
    assert all(store.read_one(k)[0] == originals[k] for k in range(len(originals)))
    systems = {t[0]["content"] for t in originals}
    assert len(systems) == 3 and systems <= set(store.table.values())  # once per seat
    stored = [t for _, _, t in store.rows]
    assert len(_entries(stored, DELTA)) == len(originals) - 3  # all but each seat's first
    assert store.stored_size() < 0.5 * _size(originals)


def sometimes_garbage() -> Callable[[Request], Reply]:
    """A model whose every third first answer is no move (so the bot re-asks)."""
    asks = itertools.count(1)

    def respond(request: Request) -> Reply:
        if sum(m.get("role") == "user" for m in request.messages) == 1 and next(asks) % 3 == 0:
            return Reply("I would rather not say.")
        return example_responder(request)
    return respond


async def test_blotto_with_reasks_cut_history_and_a_failed_call_round_trips():
    blotto = get("colonel-blotto")
    with FakeOpenAI(responder=sometimes_garbage()) as fo:
        environ = provider_env(fo.base_url)
        spec = f"openai:gpt-4o-mini?{FAST}&context_tokens=1000&retries=0"
        bots = [llm_bot(spec, blotto.id, s, environ) for s in range(2)]
        memories: list[dict[str, Any]] = [{}, {}]
        game = blotto.new_game(blotto.config("extreme"), seed=5, players=2)
        decisions = await play(game, bots, memories)
        fo.script(Status(500))
        fresh = blotto.new_game(blotto.config("extreme"), seed=6, players=2)
        with pytest.raises(BotError) as failed:
            await bots[0].decide(fresh.view(0), fresh.legal(0).to_json(), memories[0])
    originals = [d.transcript for _, d in decisions]
    assert any(e.get("reask") for t in originals for e in t)
    assert any(t[1]["history_cut"] for t in originals)  # prompts that lose their oldest rounds
    failure = failed.value.transcript
    assert failure[-1] == {"role": "assistant", "content": None,
                           "failed_attempts": failure[-1]["failed_attempts"]}
    store = Game()
    for seat, d in decisions:
        store.store(seat, d.transcript)
    store.store(0, failure)  # a failure in the seat's chain reads back as well
    assert store.expanded() == [*originals, failure]
    # Stored apart (seat None): readable alone, with the texts only.
    alone = store.compactor.compact(None, failure)[0]
    assert delta_base(alone) is None and _single(alone, store.table) == failure


# -- every shape of sequence ----------------------------------------------------------------
chars = st.characters(codec="utf-8") | st.sampled_from("\n\n\n\r\u2028é€😀")
pieces = st.text(chars, max_size=40)
step = st.tuples(
    st.sampled_from([0, 0, 0, 1, 2, None]),  # seat (None: a transcript stored apart)
    st.sampled_from(["grow"] * 4 + ["cut", "edit", "edit", "new", "same"]),
    pieces, st.floats(0, 1), st.floats(0, 1),
    st.sampled_from(["ok"] * 6 + ["reask", "failed", "empty", "no-prompt", "prompt-none",
                                  "reserved"]),
    st.integers(0, 3))  # which system prompt


def _prompt_after(prompt: str, op: str, text: str, a: float, b: float) -> str:
    i = int(a * len(prompt))
    j = i + int(b * (len(prompt) - i) / 4)
    return {"grow": prompt + text + "\n" + prompt[i:j], "cut": prompt[:i] + prompt[j:],
            "edit": prompt[:i] + text + prompt[j:], "new": text * 9, "same": prompt}[op]


def _transcript(system: str, prompt: str, kind: str, n: int) -> Transcript:
    if kind == "empty":
        return []
    if kind == "no-prompt":
        return [{"action": "[A1]", "accepted_by_parser": False, "error": "no call"}]
    user = {"role": "user", "content": None if kind == "prompt-none" else prompt,
            "history_cut": n % 3, "lines_cut": 0, "params": {"temperature": None}}
    t: Transcript = [{"role": "system", "content": system}, user]
    if kind == "failed":
        return t + [{"role": "assistant", "content": None, "failed_attempts": [{"n": 1}]}]
    t.append({"role": "assistant", "content": f"reply {n} {prompt[-9:]}", "usage": {"n": n}})
    if kind == "reask":
        t += [{"role": "user", "content": "Answer again: " + system[:n % 50], "reask": "x"},
              {"role": "assistant", "content": "[A1]"}]
    if kind == "reserved":
        t.append({"role": "user", REF: "not ours", "content": prompt})
    return t + [{"action": "[A1]", "accepted_by_parser": True, "error": None}]


@settings(max_examples=150)
@given(steps=st.lists(step, max_size=40), min_chars=st.sampled_from([0, 8, 40]),
       max_chain=st.integers(1, 4), start=st.lists(pieces, min_size=3, max_size=3))
def test_any_sequence_round_trips_and_any_row_reads_within_the_chain_bound(
        steps, min_chars, max_chain, start):
    systems = ["S" * 30 + "é\n" * 20, "system 😀\n" * 9, "short", "S" * 30 + "é\n" * 20 + "x"]
    prompts = {seat: text + "".join(f"Seat {seat}, line {i}: as before.\n" for i in range(20))
               for seat, text in enumerate(start)} | {None: "apart\n" * 20}
    store = Game(min_chars=min_chars, max_chain=max_chain)
    originals = []
    for n, (seat, op, text, a, b, kind, system) in enumerate(steps):
        prompts[seat] = _prompt_after(prompts[seat], op, text, a, b)
        originals.append(_transcript(systems[system], prompts[seat], kind, n))
        store.store(seat, originals[-1])
    assert store.expanded() == originals
    for k, (_, seat, stored) in enumerate(store.rows):
        full, needed = store.read_one(k)
        assert full == originals[k]
        assert needed <= max_chain
        if seat is None:
            assert delta_base(stored) is None


# -- sizes and shapes -----------------------------------------------------------------------
def _growing_game(decisions: int, max_chain: int = 50) -> tuple[Game, list[Transcript]]:
    """One seat, a 3 KB system prompt, a prompt growing ~100 characters per decision that ends
    with a question changing each time."""
    system = "".join(f"Rule {i}: the rules of the game, said at length. " for i in range(63))
    assert 2900 < len(system) < 3200
    store, originals, history = Game(max_chain=max_chain), [], "Welcome. " * 100
    for n in range(decisions):
        history += f"Round {n}: Player 1 said something new, which took about 100 chars.\n"
        prompt = f"{history}\nYour turn (decision {n}): answer with [cooperate] or [defect]."
        originals.append(_transcript(system, prompt, "ok", n))
        store.store(0, originals[-1])
    return store, originals


def test_growing_prompts_store_under_a_tenth_of_their_size():
    store, originals = _growing_game(200)
    assert store.expanded() == originals
    assert store.stored_size() < 0.10 * _size(originals)
    stored = [t for _, _, t in store.rows]
    assert len(store.table) == 1 + 4  # the system prompt, and a whole prompt every 50
    assert len(_entries(stored, DELTA)) == 200 - 4


def test_chain_bound_puts_a_whole_prompt_every_max_chain():
    store, originals = _growing_game(10, max_chain=3)
    whole = [k for k, (_, _, t) in enumerate(store.rows) if restarts_chain(t)]
    assert whole == [0, 3, 6, 9]
    assert all(store.read_one(k) == (originals[k], k % 3 + 1) for k in range(10))


def test_texts_are_shared_across_games_and_emitted_once_per_game():
    table: dict[str, str] = {}
    system = "You are a careful player. " * 20
    games = [Game(table), Game(table)]
    for game in games:
        for n in range(3):
            for seat in (0, 1):
                note = {"role": "user", "content": "Your answer could not be read. " * 9}
                game.store(seat, [{"role": "system", "content": system},
                                  {"role": "user", "content": f"Seat {seat}, turn {n}. " * 30},
                                  {"role": "assistant", "content": "hm"}, note])
    assert all(text_hash(system) in g.emitted for g in games)  # again in each game
    assert len(table) == 1 + 1 + 2 * 3  # system, note, and the prompts stored whole
    for game in games:
        assert game.expanded() == [_single(t, table) for _, _, t in game.rows]
        refs = _entries([t for _, _, t in game.rows], REF)
        assert len(refs) == 3 * 6  # unrelated prompts too: every long text is a reference


def test_a_shrinking_or_unrelated_prompt_is_a_delta_only_when_smaller():
    store = Game()
    history = "".join(f"--- Round {i} ---\nPlayer 0 chose A.\nPlayer 1 chose B.\n" for i in range(30))
    cut = history[history.index("--- Round 5"):]  # the oldest rounds cut off the front
    other = "Something else entirely.\n" * 40
    for prompt in (history, cut, other):
        store.store(0, [{"role": "user", "content": prompt}])
    first, shrunk, unrelated = (t[0] for _, _, t in store.rows)
    assert REF in first and REF in unrelated
    assert shrunk[DELTA]["ops"] == [[len(history) - len(cut), len(history)]]


def test_edge_cases_pass_through():
    store = Game()
    assert store.store(0, []) == []
    odd: Transcript = [{"role": "user", "content": ["a", "list"]}, "not a dict", 3,
                       {"role": "tool", "content": "x" * 500}, {"content": "y" * 500}]
    assert store.store(0, odd) == odd
    reserved = [{"role": "user", DELTA: {"base": "0" * 32, "ops": []}}]
    looks_stored = [{"verbatim": reserved}]
    assert store.store(1, reserved) == [{"verbatim": reserved}]
    assert store.store(1, looks_stored) == [{"verbatim": looks_stored}]
    assert store.expanded() == [[], odd, reserved, looks_stored]
    assert store.table == {}


def test_a_missing_row_is_reported_not_misread():
    store, _ = _growing_game(3)
    rows = [(i, t) for i, _, t in store.rows]
    with pytest.raises(MissingText, match="row 1 is a delta"):
        list(expand([rows[0], rows[2]], store.table))
    with pytest.raises(MissingText, match="not in the texts"):
        list(expand(rows, {}))


# -- the delta itself -----------------------------------------------------------------------
@given(base=st.text(chars, max_size=300), text=st.text(chars, max_size=300))
def test_patch_of_diff_is_the_text(base, text):
    assert patch(base, json.loads(_dump(diff(base, text)))) == text


@given(lines=st.lists(st.sampled_from(["#....#\n", "#.@..#\n", "\n", "ok\n", "x"]),
                      max_size=60), data=st.data())
def test_patch_of_diff_is_the_text_for_repeated_lines(lines, data):
    changed = data.draw(st.permutations(lines)) if lines else []
    edited = data.draw(st.lists(st.sampled_from(["#....#\n", "new\n"]), max_size=5))
    base, text = "".join(lines), "".join(changed[:len(changed) // 2] + edited + changed)
    assert patch(base, diff(base, text)) == text


def test_a_changed_cell_on_a_big_board_is_a_small_delta():
    row = "#" + "." * 40 + "#\n"
    board = "Step 1\n" + row * 1000 + "Your move?"
    moved = "Step 2\n" + row * 500 + row.replace(".", "@", 1) + row * 499 + "Your move?"
    ops = diff(board, moved)
    assert patch(board, ops) == moved
    assert len(_dump(ops)) < 120
