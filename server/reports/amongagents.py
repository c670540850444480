"""The AmongAgents evaluation's report (spec §14): the share of games ending each way per setup
row beside the paper's Table 1, personas against wins and actions, and, when a judge model is
given, the interviewer's scores by role and category and the speech categories by role; when
none is, it says so. The figures come from `engine/amongagents/evaluation.py`; the judge's calls
from `bots/llm/judge.py`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bots.llm.judge import Judge
from bots.prompts.amongagents import INTERVIEW_CATEGORIES
from engine.amongagents.evaluation import SPEECH_CATEGORIES, EndingRow
from engine.amongagents.metrics import ENDINGS, VERBS
from engine.amongagents.published import SETUP_LABELS
from server.reports.league import run_line
from server.reports.tables import share

ENDING_HEADS = {"crew_eliminated": "crew elim.", "time_limit": "time limit",
                "impostors_eliminated": "imp. elim.", "tasks_done": "tasks done"}


@dataclass(frozen=True)
class Answer:
    """One question of the interviewer and the answer a seat gave."""

    role: str
    category: str
    question: str
    situation: str
    answer: str


@dataclass(frozen=True)
class Speech:
    role: str
    text: str
    situation: str


class Judging:
    """The judge model's work for the report, or nothing when no judge is given."""

    def __init__(self, spec: str | None) -> None:
        self.judge = Judge(spec) if spec else None
        self.cost = 0.0

    @staticmethod
    def check(spec: str) -> None:
        """ValueError when the spec is malformed or its key is missing."""
        Judge(spec)

    async def aclose(self) -> None:
        if self.judge is not None:
            await self.judge.aclose()

    async def score(self, answers: Sequence[Answer]) -> list[tuple[str, str, int | None]] | None:
        if self.judge is None:
            return None
        out = []
        for a in answers:
            judged = await self.judge.score(a.category, INTERVIEW_CATEGORIES.get(a.category, ""),
                                            a.situation, a.question, a.answer)
            self.cost += judged.tally.cost
            out.append((a.role, a.category, judged.score))
        return out

    async def label(self, speeches: Sequence[Speech]
                    ) -> list[tuple[str, Sequence[str] | None]] | None:
        if self.judge is None:
            return None
        out = []
        for s in speeches:
            judged = await self.judge.label(SPEECH_CATEGORIES, s.text, s.situation)
            self.cost += judged.tally.cost
            out.append((s.role, judged.labels or None))
        return out


@dataclass
class Report:
    model: str
    baseline: str
    endings: list[EndingRow]
    personas: dict[str, Any]
    interviews: dict[str, Any] | None  # None: not judged
    asked: int  # interview answers stored
    speeches: dict[str, Any] | None  # None: not judged
    speech_count: int
    judge: str | None
    judge_cost: float
    games: int  # scheduled
    played: int  # played by this run
    wall: float

    @property
    def counted(self) -> int:
        return sum(r.counted for r in self.endings)

    def render(self) -> str:
        lines = [f"AmongAgents evaluation (paper §14.2): {self.model} against {self.baseline}, "
                 f"{self.games} games; share of games by ending, ours / the paper's",
                 f"{'setup':22} {'planner':7} {'games':>5}  "
                 + "  ".join(f"{ENDING_HEADS[e]:>13}" for e in ENDINGS)]
        for r in self.endings:
            planner = "—" if r.planner is None else "on" if r.planner else "off"
            cells = [f"{share(r.shares[e], 0):>6} {share(None if r.paper is None else r.paper[e], 0):>6}"
                     for e in ENDINGS]
            lines.append(f"{SETUP_LABELS.get(r.setup, r.setup):22} {planner:7} {r.counted:>5}  "
                         + "  ".join(cells))
        lines += ["", "Personas (§14.3): seats, wins and actions by verb"]
        lines.append(f"{'role':9} {'persona':16} {'seats':>5} {'win':>6}  "
                     + " ".join(f"{v:>7}" for v in VERBS))
        for row in self.personas["rows"]:
            lines.append(f"{row['role']:9} {row['persona']:16} {row['seats']:>5} "
                         f"{share(row['win_rate'], 0):>6}  "
                         + " ".join(f"{row['actions'][v]:>7}" for v in VERBS))
        lines += ["", self._interviews(), self._speeches(), "",
                  run_line(self.played, self.games - self.played, self.wall)]
        return "\n".join(lines)

    def _interviews(self) -> str:
        if not self.asked:
            return ("Interview (§14.1): no answers stored (run with --interview and an LLM "
                    "model to ask its seats)")
        if self.interviews is None:
            return (f"Interview (§14.1): {self.asked} answers stored, not judged: no judge "
                    f"model was given (--judge SPEC scores them 0-10)")
        lines = [f"Interview (§14.1): {self.asked} answers, judged by {self.judge}; mean "
                 f"score 0-10 (scored / asked)"]
        for row in self.interviews.values():
            mean = "—" if row["mean"] is None else f"{row['mean']:.1f}"
            lines.append(f"  {row['role']:9} {row['category']:15} {mean:>5} "
                         f"({row['scored']}/{row['answers']})")
        return "\n".join(lines)

    def _speeches(self) -> str:
        if not self.speech_count:
            return "Speeches (§14.4): none in the All-LLM games played"
        if self.speeches is None:
            return (f"Speeches (§14.4): {self.speech_count} in the All-LLM games, not "
                    f"labelled: no judge model was given")
        lines = [f"Speeches (§14.4): labelled by {self.judge}; share of each role's labelled "
                 f"speeches per category (a speech may have several); judge cost "
                 f"${self.judge_cost:.4f}"]
        for role, row in self.speeches.items():
            shares = ", ".join(f"{c} {share(v, 0)}" for c, v in row["shares"].items())
            lines.append(f"  {role:9} {row['labelled']}/{row['speeches']}: {shares}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "baseline": self.baseline, "games": self.games,
                "counted": self.counted, "played": self.played,
                "wall_time_s": round(self.wall, 3),
                "endings": [r.to_json() for r in self.endings], "personas": self.personas,
                "interview": {"asked": self.asked, "judge": self.judge,
                              "scores": self.interviews},
                "speeches": {"count": self.speech_count, "judge": self.judge,
                             "shares": self.speeches},
                "judge_cost": self.judge_cost}
