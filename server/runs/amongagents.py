"""`parlor league amongagents`: the AmongAgents paper's end-to-end evaluation (spec §14.2) for one
model against the random baseline, played through the shared league runner (stored under the
league's tag, resumable); the schedule is the env's (`engine/amongagents/league.py`).

With `--interview` the model's LLM seats answer the interviewer (§14.1; the reflection after each
game is stored as the seat's debrief). With `--judge SPEC` a judge model scores those answers
0-10 per category and labels every speech of the All-LLM games (§14.4); without one the report
says plainly that nothing was judged. The judge's calls are made when the report is, after the
games: a second run on the same --db plays nothing and judges again."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bots.llm.bot import INTERVIEW_NOTE
from bots.llm.spec import is_llm_spec
from engine.amongagents.evaluation import (
    SPEECH_CATEGORIES,
    SeatPlay,
    ending_rows,
    interview_scores,
    persona_tables,
    seat_plays,
    speech_shares,
)
from engine.amongagents.league import PRESET, Episode, schedule
from engine.amongagents.published import SETUPS
from engine.core import Config, ConfigError, Env
from engine.registry import get
from server.reports.amongagents import Answer, Judging, Report, Speech
from server.reports.league import StoredGame
from server.runs.campaign.manifest import Match
from server.runs.league_runner import (
    LeagueError,
    check_models,
    check_run_options,
    config_overrides,
    identities,
    league_tag,
    play_league,
    run_command,
)
from server.store.store import Store
from server.tables.policy import BotPolicy
from server.tables.seating import SeatingError, resolve_seats

ENV_ID = "amongagents"
COMMAND = "parlor league amongagents"


@dataclass(frozen=True)
class Plan:
    env: Env
    config: Config
    overrides: dict[str, Any]
    model: str
    baseline: str
    schedule: list[Episode]
    tag: str
    judge: str | None


def run_league(args: argparse.Namespace) -> int:
    return run_command(COMMAND, args, _plan, _run)


def _plan(args: argparse.Namespace) -> Plan:
    env = get(ENV_ID)
    check_run_options(args)
    check_models([args.seat])
    check_models([args.baseline])
    if args.interview and not is_llm_spec(args.seat):
        raise LeagueError("--interview asks an LLM model's seats; "
                          f"{args.seat} is not an LLM spec")
    planners = [p == "on" for p in dict.fromkeys(args.planner or ("on", "off"))]

    def planned(spec: str, on: bool) -> str:
        if not is_llm_spec(spec):
            return spec  # a scripted stand-in has no planner: both rows play it
        settings = f"planner={'on' if on else 'off'}" + ("&interview=on" if args.interview
                                                          else "")
        return f"{spec}{'&' if '?' in spec else '?'}{settings}"

    overrides = config_overrides(args.config)
    try:
        config = env.config(PRESET, overrides)
        episodes = schedule(args.seat, setups=args.setup or SETUPS, planners=planners,
                            games=args.games, seed=args.seed, baseline=args.baseline,
                            planned=planned)
        resolve_seats(env, config, episodes[0].seed, episodes[0].specs)
    except (ConfigError, SeatingError, ValueError) as e:
        raise LeagueError(str(e)) from None
    if args.judge is not None:
        try:
            Judging.check(args.judge)
        except ValueError as e:
            raise LeagueError(f"--judge: {e}") from None
    return Plan(env, config, overrides, args.seat, args.baseline, episodes,
                league_tag(env, config, "evaluation"), args.judge)


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()
    specs = sorted({spec for e in plan.schedule for spec in (e.crew, e.impostor)})
    await identities([(ENV_ID, spec) for spec in specs], policy)  # each spec can play
    matches = {Match(ENV_ID, PRESET, tuple(e.specs), e.seed, plan.overrides): e
               for e in plan.schedule}
    read = _Read(matches)
    _, played = await play_league(args, plan.tag, list(matches), policy, rated=False,
                                  read=read)
    judging = Judging(plan.judge)
    try:
        scored = await judging.score(read.answers)
        labelled = await judging.label(read.speeches)
    finally:
        await judging.aclose()
    return Report(model=plan.model, baseline=plan.baseline,
                  endings=ending_rows(read.by_row), personas=persona_tables(read.plays),
                  interviews=None if scored is None else interview_scores(scored),
                  asked=len(read.answers),
                  speeches=None if labelled is None else speech_shares(
                      labelled, list(SPEECH_CATEGORIES)),
                  speech_count=len(read.speeches), judge=plan.judge, judge_cost=judging.cost,
                  games=len(plan.schedule), played=played, wall=time.monotonic() - started)


class _Read:
    """What the report needs of the stored games, read before the store closes: each row's
    game metrics, each seat's persona and play, the interviewer's questions and answers, and
    the speeches of the All-LLM games."""

    def __init__(self, matches: dict[Match, Episode]) -> None:
        self.matches = matches
        self.by_row: dict[tuple[str, bool | None], list[dict[str, Any]]] = {
            e.row: [] for e in matches.values()}
        self.plays: list[SeatPlay] = []
        self.answers: list[Answer] = []
        self.speeches: list[Speech] = []

    async def __call__(self, store: Store, found: Mapping[Match, StoredGame]) -> None:
        for match, episode in self.matches.items():
            game = found.get(match)
            if game is None or "game" not in game.metrics:
                continue
            self.by_row[episode.row].append(game.metrics["game"])
            seats = game.metrics["seats"]
            roles = {int(s): m["role"] for s, m in seats.items()}
            stamps = await store.fetch("SELECT seat, settings FROM seats WHERE game_id = ?",
                                       (game.id,))
            personas = {r["seat"]: (json.loads(r["settings"] or "{}").get("prompt") or {})
                        .get("personas", {}).get(roles[r["seat"]]) for r in stamps}
            self.plays += seat_plays(seats, personas)
            record = await store.load_record(game.id)
            if record is None:
                continue
            transcripts = await store.transcripts(game.id)
            for idx, transcript in transcripts.items():
                seat = record.actions[idx].seat
                self.answers += _answers(transcript, roles.get(seat, ""))
            for seat, transcript in (await store.debriefs(game.id)).items():
                self.answers += _answers(transcript, roles.get(seat, ""))
            if episode.setup == "all-llm":
                self.speeches += _speeches(record.events, roles)


def _answers(transcript: Any, role: str) -> list[Answer]:
    """The interviewer's questions in a transcript, each with its answer."""
    found, asked = [], None
    for entry in transcript or ():
        if not isinstance(entry, dict) or not entry.get("interview"):
            continue
        if entry.get("role") == "user":
            asked = entry
        elif entry.get("role") == "assistant" and asked is not None:
            situation = str(asked.get("content", "")).split(INTERVIEW_NOTE)[0].strip()
            found.append(Answer(role, entry["interview"], str(asked.get("question", "")),
                                situation, str(entry.get("content") or "")))
            asked = None
    return found


def _speeches(events: Any, roles: dict[int, str]) -> list[Speech]:
    """What each seat said aloud: at meetings, and in a room (the speaker's own copy)."""
    out = []
    for e in events:
        data = e.data
        aloud = e.type == "speech" or (e.type == "action" and data.get("verb") == "speak"
                                       and data.get("seat") in e.visible_to)
        if aloud and data.get("text"):
            out.append(Speech(roles.get(data["seat"], ""), str(data["text"]),
                              f"timestep {data.get('timestep')}"))
    return out
