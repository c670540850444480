"""A dataset task as a one-seat game: the evidence is revealed a stage at a time (one stage for
most tasks; Review Decision has three), and after each stage the seat answers. Nothing about an
answer's worth is shown until the end, when every stage's answer, the true answer and (for a
synthetic instance) how it was made are revealed.

Answers are read as the paper reads a model's (DatasetTask.read_answer); the form's fields are
the same answer for people. A reply with no readable answer is not an invalid move: it is an
answer, scored wrong, as in the paper. The reward is +1 when the last answer is right, -1 when
not (a puzzle is solved or not, as in Hidden Role Deduction).
"""

from __future__ import annotations

from typing import Any

from engine.core import NO_ACTION, Action, ActionSpace, Env, Field, Game, Option
from engine.dataset_task.config import DatasetConfig
from engine.dataset_task.instance import Instance
from engine.dataset_task.task import DatasetTask


class DatasetGame(Game):
    __slots__ = ("task", "instance", "stage", "answers")
    config: DatasetConfig

    def __init__(self, env: Env, config: DatasetConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.task: DatasetTask = config.task
        self.instance: Instance = config.make(seed)
        self.stage = 1
        self.answers: list[dict[str, Any]] = []  # per stage: what the seat said, and its score
        self._waiting = frozenset((0,))
        i = self.instance
        self.emit("instance", {"kind": i.kind, "intro": i.intro, "question": i.question,
                               "stages": len(i.stages), "source": i.source,
                               "synthetic": i.synthetic})
        self._reveal()

    def _reveal(self) -> None:
        self.clock = {"stage": self.stage}
        shown = self.instance.stages[self.stage - 1]
        self.emit("evidence", {"stage": self.stage, "of": len(self.instance.stages),
                               "title": shown.title,
                               "items": [[item.label, item.text] for item in shown.items]})

    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        stages = len(self.instance.stages)
        when = f"After stage {self.stage} of {stages}: " if stages > 1 else ""
        return ActionSpace(kind="form", prompt=when + self.instance.question,
                           syntax=self.task.syntax,
                           fields=tuple(Field(f.name, f.label, "choice",
                                              options=tuple(Option(o, o) for o in f.options))
                                        for f in self.task.fields))

    def _public_state(self) -> dict[str, Any]:
        i = self.instance
        return {"task": self.task.title, "kind": i.kind, "intro": i.intro,
                "question": i.question, "stage": self.stage, "stages": len(i.stages),
                "evidence": [{"title": s.title, "items": [[t.label, t.text] for t in s.items]}
                             for s in i.stages[:self.stage]],
                "answered": len(self.answers), "source": i.source, "synthetic": i.synthetic}

    def _private_state(self, seat: int) -> dict[str, Any]:
        mine = [{"stage": a["stage"], "answer": a["answer"]} for a in self.answers]
        return {"last_error": self._last_errors[seat], "my_answers": mine}

    def default_action(self, seat: int) -> str:
        return ""  # no answer: scored wrong, as an unreadable reply

    def pace(self, seat: int) -> float | None:
        seconds = self.config.seconds_per_answer
        return float(seconds) if seconds else None

    def hidden_setup(self) -> dict[str, Any]:
        i = self.instance
        setup: dict[str, Any] = {"answer": dict(i.answer), "instance_id": i.id,
                                 "content_hash": i.content_hash(), "source": i.source}
        if i.record.get("answer_label"):  # the release's own words, e.g. "Accept (Poster)"
            setup["answer_label"] = i.record["answer_label"]
        explanation = self.task.explain(i)
        if explanation:
            setup["explanation"] = explanation
        return setup

    def _apply(self, seat: int, action: Action) -> str | None:
        text = action if isinstance(action, str) else self.task.typed(action)
        said = self.task.read_answer(text)
        truth = self.instance.answer
        fields = {name: said[name] == truth[name] for name in truth}
        entry = {"stage": self.stage, "answer": said, "fields": fields,
                 "right": all(fields.values())}
        self.answers.append(entry)
        self.emit("answer_scored", {**entry, "expected": dict(truth), "kind": self.instance.kind},
                  visible_to=())  # for the record and metrics only
        if self.stage < len(self.instance.stages):
            self.stage += 1
            self._reveal()
            return None
        self.emit("scores", {"stages": [{"stage": a["stage"], "answer": a["answer"],
                                         "right": a["right"]} for a in self.answers],
                             "expected": dict(truth)})
        right = entry["right"]
        truth_text = ", ".join(f"{f.label.removeprefix('Final ').lower()} {truth[f.name]}"
                               for f in self.task.fields)
        if self.instance.record.get("answer_label"):
            truth_text += f" (the release says {self.instance.record['answer_label']!r})"
        self.finish({0: 1.0 if right else -1.0}, (0,) if right else (),
                    f"right: {truth_text}" if right else f"wrong: the answer was {truth_text}")
        return None
