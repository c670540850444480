"""The jump picker (j): every round, phase, meeting or vote of the replay, by its label."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList
from textual.widgets.option_list import Option


class JumpList(OptionList):
    def show(self, jumps: list[dict[str, Any]], at: int) -> None:
        self.clear_options()
        for jump in jumps:
            self.add_option(Option(f"{jump.get('at')}: {jump.get('label') or jump.get('clock')}",
                                   id=str(jump.get("at"))))
        here = max((i for i, j in enumerate(jumps) if int(j.get("at", 0)) <= at), default=0)
        if jumps:
            self.highlighted = here
