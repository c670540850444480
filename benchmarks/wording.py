"""Cost of the word-leak check (engine/wording.py `says`) on Find the Spy descriptions: the
first call (it reads Unicode's confusables data once), then microseconds per check for plain
ASCII descriptions, descriptions with other scripts, and the longest allowed (500 characters).

    python benchmarks/wording.py [--checks 5000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.find_the_spy.words import bank  # noqa: E402
from engine.wording import says  # noqa: E402

CASES = {
    "ascii, 60 chars": "Big claws, it turns red when cooked, and is caught in pots.",
    "other scripts, 60 chars": "Ёлка, Ωmega, ｆｕｌｌ-width and a c\u0301afé in one sentence here.",
    "spelled out, 60 chars": "It is a l o b s t e r, or a g-l-a-s-s, or c. a. k. e. maybe",
    "ascii, 500 chars": ("A plain everyday sentence about something ordinary. " * 10)[:500],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=5000)
    args = parser.parse_args()
    started = time.perf_counter()
    says("lоbster", "lobster")  # Cyrillic о: builds the look-alike table
    print(f"first non-ASCII check (reads the confusables data): "
          f"{(time.perf_counter() - started) * 1000:.1f} ms")
    words = [w for pair in bank() for w in pair.words]
    for name, text in CASES.items():
        started = time.perf_counter()
        for i in range(args.checks):
            says(text, words[i % len(words)])
        per = (time.perf_counter() - started) / args.checks * 1e6
        print(f"{name:>26}: {per:7.1f} µs per check")


if __name__ == "__main__":
    main()
