"""What the SocialGrid paper published for its Elo league (spec socialgrid §15, Table 1), to set
our reports beside: per model, Crew Elo, Crew WR % and Imp WR % on the league's 10x10 and 14x14
maps (5 crewmates and 2 impostors, oracle high), one model holding every seat of a side."""

from __future__ import annotations

# preset -> model -> (Crew Elo, Crew WR %, Imp WR %)
TABLE1: dict[str, dict[str, tuple[int, float, float]]] = {
    "league-10x10": {
        "GPT-OSS-120B": (1441, 19.4, 98.5), "Qwen3-30B": (1281, 7.7, 88.5),
        "DeepSeek-70B": (1246, 5.5, 92.7), "Llama3.1-70B": (1238, 5.5, 97.6),
        "Phi4-R-14B": (1218, 2.6, 86.2), "Gemma3-27B": (1168, 1.1, 93.3),
    },
    "league-14x14": {
        "GPT-OSS-120B": (1417, 17.0, 95.9), "Qwen3-30B": (1299, 7.6, 93.1),
        "Phi4-R-14B": (1284, 6.5, 93.7), "Llama3.1-70B": (1257, 5.2, 91.1),
        "DeepSeek-70B": (1190, 3.3, 89.6), "Gemma3-27B": (1164, 1.1, 93.3),
    },
}
