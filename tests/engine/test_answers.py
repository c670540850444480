"""The shared answer reader: last match, any casing, bold ignored, no match is None."""

import re

from engine.answers import last_match


def test_last_match_wins_and_bold_is_ignored():
    text = "Maybe Player 3... no. **Final Criminal Is Player 5.** My Role Is Lunatic"
    found = last_match(r"final criminal is player\s*(\d+)", text)
    assert found is not None and found.group(1) == "5"
    assert last_match(r"player\s*(\d+)", text).group(1) == "5"
    assert last_match(r"my role is (\w+)", "MY ROLE IS __investigator__").group(1) == \
        "investigator"


def test_no_match_and_compiled_patterns():
    assert last_match(r"final rating:\s*([1-5])", "I think four stars") is None
    assert last_match(r"x", None) is None
    case_sensitive = re.compile(r"Yes|No")
    assert last_match(case_sensitive, "no, Yes").group(0) == "Yes"
