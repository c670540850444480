"""What a player reads: the rules in our words and the prompt for one query of an instance.

The prompt keeps the shape of the paper's (a head count, the relationship sentences one a line,
a `Question:` line, the answer format), so the official-format writer can reuse it and the
official-format reader can read it back.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.social_graph.queries import Query, answer_instructions

RULES = """\
You are told how some people get along. Every two of them are either on good terms or on bad \
terms, and a relationship is the same both ways.
- Friends of friends are friends: if X is on good terms with Y, and Y with Z, then X is on good \
terms with Z.
- A quarrel covers the whole circle: if X is on bad terms with Y, and X is on good terms with Z, \
then Y and Z are on bad terms too.
- A group is a largest set of people who are all on good terms with one another. Everyone belongs \
to exactly one group (someone on bad terms with everybody is a group of one), and two people are \
on good terms exactly when they are in the same group.
The sentences are all true, and together they settle every relationship."""


def render_prompt(people: Sequence[str], sentences: Sequence[str], query: Query,
                  rules: bool = True) -> str:
    """The full text for one query: rules (unless given separately), people, sentences,
    question and answer format."""
    parts = [RULES] if rules else []
    parts += [f"There are {len(people)} people, named {people[0]} to {people[-1]}.",
              "What is known:\n" + "\n".join(sentences),
              f"Question: {query.question}",
              answer_instructions(query.kind)]
    return "\n\n".join(parts)
