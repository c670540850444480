"""How each SocialMaze task's report shows what the paper published beside our accuracies
(`parlor league maze`, `parlor maze report`): a `Task`. Each task's own is its env package's
`published.py` (the paper's Table 8 column and its other tables, spec socialmaze §3, §9)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Task:
    """A task's report: its headline (an overall aggregate key that is a share of games, and
    the seat metric it averages, for the Wilson interval), the other overall figures worth a
    column, and the paper's numbers."""

    env: str
    headline: str
    headline_label: str
    columns: dict[str, str]  # overall aggregate key -> column title
    published: dict[str, float | None]
    note: str  # what the published numbers were measured on
    baseline: tuple[str, str] | None = None  # (aggregate key, what it is)
    preset: str = ""  # the league's preset when --preset is not given ("": the env's default)
    breakdown_title: str = ""  # the paper's per-round or per-stage table, if any
    breakdown: dict[str, tuple[float, ...]] = field(default_factory=dict)
