"""What a campaign run is asked (`RunOptions`) and what it tells (`RunOutcome`, the progress
line's spend and errors), shared by the runner and its backends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bots.llm.meter import Meter, describe_errors

BACKENDS = ("local", "ray")


class RunError(Exception):
    """Why a campaign cannot run, in one line; the command exits with `status`."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def unreachable_error(failed: Mapping[str, str]) -> RunError:
    """The error for LLM seats whose key or endpoint did not answer ({spec: why})."""
    return RunError("; ".join(f"{spec} cannot play: {why}" for spec, why in failed.items())
                    + "; no game was played (`parlor bots check SPEC` says more)", 1)


@dataclass(frozen=True)
class RunOptions:
    concurrency: int = 1  # games at once, per process
    workers: int = 1  # processes (local backend)
    on_bot_failure: str = "void"
    budget: float | None = None  # USD: no game starts once the spend reaches it
    limits: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # provider -> (calls, rpm)
    quiet: bool = False  # no progress line
    backend: str = "local"
    address: str | None = None  # the Ray cluster's (None: a local Ray started for the run)
    label: str = "parlor campaign"  # the progress line's


@dataclass
class RunOutcome:
    scheduled: int  # games in the manifest
    already: int  # finished before this run
    played: int  # games ended in this run (void ones included)
    meter: Meter  # this run's LLM calls: spend and errors
    budget_reached: bool = False

    def render(self, budget: float | None = None) -> str:
        spend = f"${self.meter.cost:,.4f}" + (f" of ${budget:,.2f}" if budget else "")
        return (f"{self.played} games played now, {self.already} finished before, of "
                f"{self.scheduled}; spend {spend} over {self.meter.calls} LLM calls, "
                f"{describe_errors(self.meter.errors)}"
                + ("; the budget was reached: no new game was started" if self.budget_reached
                   else ""))


def reached(cost: float, budget: float | None) -> bool:
    return budget is not None and cost >= budget


def spend_line(meter: Meter, budget: float | None) -> str:
    """The progress line's tail: spend (against the budget) and errors by kind."""
    spend = f"${meter.cost:,.2f}" + (f"/${budget:,.2f}" if budget is not None else "")
    return spend + (f", {describe_errors(meter.errors)}" if any(meter.errors.values()) else "")


