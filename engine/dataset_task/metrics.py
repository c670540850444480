"""Dataset-task metrics as the paper reports them: exact-match accuracy of the last answer with
its 95% Wilson interval, per stage (Review Decision's Table 5), per answer field (User Profile's
age and gender), per query kind and their mean (User Profile's headline); and beside every
accuracy the majority-class baseline — the share right by always answering the most common
true answer of the same instances — so a score is read against what knowing only the label
distribution gets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.aggregate import Fold, fold_grouped
from engine.attribution import ATTRIBUTION_LABELS, error_attribution
from engine.core import GameRecord
from engine.dataset_task.task import DatasetTask
from engine.evaluation import wilson_interval

MAX_STAGES = 3


def labels(task: DatasetTask) -> dict[str, str]:
    """Every metric's label for the task's result screens and reports."""
    fields = {f"{f.name}_right": f"{f.label} right (last answer)" for f in task.fields}
    return {
        **ATTRIBUTION_LABELS,
        "reward": "Reward (+1 last answer right, -1 wrong)",
        "right": "Last answer right",
        **{f"right_stage{s}": f"Right after stage {s}" for s in range(1, MAX_STAGES + 1)},
        **(fields if len(task.fields) > 1 else {}),
        "void": "Void (aborted, not counted)",
        "kind": "Query kind",
        "label": "True answer",
        "games": "Games",
        "counted": "Games counted (not void)",
        "accuracy": "Accuracy (last answer, exact match)",
        "accuracy_low": "Accuracy: 95% interval, low end",
        "accuracy_high": "Accuracy: 95% interval, high end",
        "mean_accuracy": "Mean accuracy over the query kinds played (the headline)",
        "majority_label": "Most common true answer",
        "majority_baseline": "Majority-class baseline (always the most common true answer)",
        **{f"{f.name}_majority": f"{f.label}: majority-class baseline" for f in task.fields},
        **{f"label_{f.name}": f"True {f.label.removeprefix('Final ').lower()}"
           for f in task.fields},
    }


def game_metrics(record: GameRecord) -> dict[str, Any]:
    scored = [e.data for e in record.events if e.type == "answer_scored"]
    void = record.result is None or record.result.void
    final = scored[-1] if scored and not void else None
    seat: dict[str, Any] = {f"right_stage{a['stage']}": int(a["right"]) for a in scored}
    seat["right"] = int(final["right"]) if final else None
    if final and len(final["fields"]) > 1:
        seat.update({f"{name}_right": int(ok) for name, ok in final["fields"].items()})
    seat["reward"] = 0.0 if void else float(record.result.rewards.get(0, 0.0))  # type: ignore[union-attr]
    seat.update(error_attribution(record)["0"])
    setup = record.setup or {}
    truth = setup.get("answer") or (scored[0]["expected"] if scored else {})
    kind = next((e.data.get("kind") for e in record.events if e.type == "instance"), "")
    game = {"void": int(void), "kind": kind, "label": " / ".join(truth.values()) or None,
            **{f"label_{name}": value for name, value in truth.items()}}
    return {"game": game, "seats": {"0": seat}}


class _Labels:
    """Counts of the true answers (whole, and per field) of the counted games, by kind."""

    def __init__(self) -> None:
        self.whole: dict[str, Counter[str]] = {}
        self.fields: dict[str, dict[str, Counter[str]]] = {}

    def tally(self, per_game: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
        for metrics in per_game:
            game = metrics["game"]
            if not game.get("void") and game.get("label") is not None:
                for kind in ("*", game.get("kind") or ""):
                    self.whole.setdefault(kind, Counter())[game["label"]] += 1
                    for key, value in game.items():
                        if key.startswith("label_"):
                            self.fields.setdefault(kind, {}).setdefault(
                                key[len("label_"):], Counter())[value] += 1
            yield metrics

    def baseline(self, kind: str) -> dict[str, Any]:
        whole = self.whole.get(kind)
        if not whole:
            return {}
        label, count = min(whole.items(), key=lambda kv: (-kv[1], kv[0]))
        out: dict[str, Any] = {"majority_label": label,
                               "majority_baseline": count / sum(whole.values())}
        fields = self.fields.get(kind, {})
        if len(fields) > 1:
            for name, counts in fields.items():
                out[f"{name}_majority"] = max(counts.values()) / sum(counts.values())
        return out


def aggregate_metrics(per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Accuracy and the majority baseline overall and per query kind; void games left out."""
    found = _Labels()
    fold, by_kind = fold_grouped(found.tally(per_game), 1, "kind")
    overall = {"games": fold.games, "counted": fold.counted, **_accuracy(fold),
               **found.baseline("*")}
    kinds = {kind: {"games": sub.counted, **_accuracy(sub), **found.baseline(kind)}
             for kind, sub in sorted(by_kind.items()) if kind}
    means = [k["accuracy"] for k in kinds.values() if k.get("accuracy") is not None]
    overall["mean_accuracy"] = sum(means) / len(means) if means else overall.get("accuracy")
    return {"overall": overall, "seats": fold.seat_totals(), "kinds": kinds}


def _accuracy(fold: Fold) -> dict[str, Any]:
    seat = fold.seat("0")
    out: dict[str, Any] = {"accuracy": seat.mean("right")}
    out["accuracy_low"], out["accuracy_high"] = \
        wilson_interval(seat.total("right"), seat.count("right")) or (None, None)
    names = sorted(seat.to_dict())
    staged = "right_stage2" in names  # one stage: its accuracy is the accuracy
    for name in names:
        if (staged and name.startswith("right_stage")) or name.endswith("_right"):
            out[name] = seat.mean(name)
    return out
