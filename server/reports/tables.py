"""How every report writes its figures: a share ("12.5%", "—" for none), a rate with its
interval, and a table of plain rows as aligned text, CSV, JSON or Markdown (`parlor report`,
`maze report`, the league reports)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

FORMATS = ("table", "csv", "json", "md")
NONE = "—"
_NUMBER = re.compile(r"[-+]?[\d.]|—$")  # a cell that reads as a figure: right-aligned


def share(value: Any, places: int = 1) -> str:
    """A fraction as a percentage, "—" when it is not a number."""
    return f"{value:.{places}%}" if isinstance(value, (int, float)) else NONE


def with_interval(value: float | None, interval: Sequence[float] | None,
                  places: int = 1) -> str:
    """"12.5% [5%-30%]": a rate with its 95% interval, "—" without either."""
    if value is None or not interval:
        return NONE
    return f"{value:.{places}%} [{interval[0]:.0%}-{interval[1]:.0%}]"


def number(value: Any, places: int = 3) -> str:
    """A figure that is not a share: up to `places` significant digits, "—" for none."""
    if value is None or isinstance(value, str):
        return NONE if value is None else value
    if isinstance(value, float) and value != value:  # NaN
        return NONE
    return f"{value:.{places}g}"


def render(columns: Mapping[str, str], rows: Sequence[Mapping[str, Any]], fmt: str,
           texts: Mapping[str, Any] | None = None) -> str:
    """Rows (dicts) as a table: `columns` maps a row key to its heading, in order. `fmt` table
    (aligned text, numbers right-aligned) and md show each cell as `texts[key](value)` when
    given, else str; csv and json keep the values as they are (json: a list of objects)."""
    keys = list(columns)
    if fmt == "json":
        return json.dumps([{k: r.get(k) for k in keys} for r in rows], indent=1)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(keys)
        writer.writerows([["" if r.get(k) is None else r.get(k) for k in keys] for r in rows])
        return out.getvalue().rstrip("\n")
    shown = [[_cell(r.get(k), (texts or {}).get(k)) for k in keys] for r in rows]
    heads = [columns[k] for k in keys]
    if fmt == "md":
        return "\n".join(["| " + " | ".join(heads) + " |",
                          "|" + "|".join("---" for _ in keys) + "|",
                          *("| " + " | ".join(c.replace("|", "\\|") for c in line) + " |"
                            for line in shown)])
    widths = [max(len(h), *(len(line[i]) for line in shown)) for i, h in enumerate(heads)]
    right = [bool(shown) and all(_NUMBER.match(line[i]) for line in shown)
             for i in range(len(keys))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w)
                         for c, w, r in zip(cells, widths, right, strict=True)).rstrip()
    return "\n".join([line(heads), *(line(cells) for cells in shown)])


def _cell(value: Any, text: Any) -> str:
    if text is not None:
        return text(value)
    return NONE if value is None else str(value)
