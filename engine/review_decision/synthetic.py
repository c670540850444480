"""SYNTHETIC Review Decision Prediction instances, written by our own generator.

The real task (SocialMaze, Appendix G) uses OpenReview submissions; we ship none of them. This
module writes small, clearly labelled fictional instances for demos and tests: every title,
abstract, review, rebuttal and follow-up is assembled from slot templates and sentence banks
written for Parlor. Method names are invented, tasks and data sets are generic descriptions,
and no sentence is taken from a public data set or paper.

One instance is one record of our JSONL format `parlor.review-decision/1` (see `generate`).
The player predicts Accept or Reject at three stages: (1) title, keywords and abstract;
(2) plus the reviews, which never carry a score, rating, reviewer confidence or an explicit
recommendation; (3) plus the discussion: the authors' response, then 0-3 follow-ups.

The hidden process, drawn from `random.Random(seed)` alone:

1. The decision comes first: Accept with probability `ACCEPT_SHARE` (0.33), else Reject,
   matching the task's 33/67 balance (always-Reject scores about 67%).
2. The paper: a subfield, an invented method name, a task, a technique and data, assembled into
   a title, 3-5 keywords and a 3-5 sentence abstract. Stage 1 carries only a faint cue:
   rejected papers overclaim more often ("outperforms every existing method by a wide margin",
   40% vs 20%) and accepted papers more often add a sentence on failure cases or analysis
   (40% vs 25%). Nothing in the paper gives the answer away.
3. Reviews: 3 or 4 (in a random order), each with a hidden leaning (`notes.review_leanings`).
   `CLEAR_SHARE` (55%) of papers are clear cases: every reviewer leans with the decision
   (positive for Accept, negative for Reject), except one mixed review in 30% of clear accepts
   and 40% of clear rejects. The rest are split: an accepted paper has half its reviews
   (rounded down) critical, each mixed (60%) or negative (40%), the others positive; a
   rejected paper has one positive "champion" and one mixed-or-negative review, the others
   negative. A review's leaning sets how many strengths and weaknesses it lists and how
   serious they are (`REVIEW_SHAPES`: a positive review lists 2-4 real strengths, 0-2 serious
   and 0-2 minor weaknesses; a mixed one 1-3 strengths and 1-3 serious weaknesses; a negative
   one 0-2 real strengths, 0-2 pieces of faint praise and 2-4 serious weaknesses), and 70% of
   reviews end with a one-sentence overall impression in words (never a recommendation).
   Stage 2 therefore separates most papers, not all.
4. Discussion: the authors' response always comes first and is always polite and confident.
   It is `convincing` (concrete new experiments, ablations, clarified analysis) for 85% of
   accepted papers and, as the paper observes of real rebuttals, for half of the rejected ones
   too, where it does not change the outcome; otherwise it is `unconvincing` (confident but
   deferring: "beyond the scope", "we respectfully disagree", "in a revision"). Then 0-3
   follow-ups (weights 15/35/30/20%): a reviewer's follow-up, or the authors' reply to the
   follow-up just before it. Reviewers' follow-ups carry the real signal: on an accepted paper
   85% say the response addresses their concerns; on a rejected paper 80% say their concerns
   remain (even after a convincing rebuttal: "the new results are welcome, but ...").
   Satisfied follow-ups come more often from the reviewers who had concerns (or, on a rejected
   paper, from its champion); unsatisfied ones from critical reviewers. A positive reviewer's
   follow-up reaffirms ("I remain positive") or, when unsatisfied, joins the others' doubts.
   Each rebuttal paragraph answers one or two of that reviewer's own weaknesses (serious
   ones first), and reviewers' follow-ups fit the kind of rebuttal they answer.

Every text avoids digits except reviewer numbers ("Reviewer 2: ..."), and avoids the words
score, rating, accept, reject and recommend, so no text states the answer or a number that
reads as a grade.
"""

from __future__ import annotations

import random
from typing import Any

FORMAT = "parlor.review-decision/1"
SOURCE = "synthetic (parlor generator)"
ACCEPT_SHARE = 0.33
ANSWERS = ("Accept", "Reject")
LEANINGS = ("positive", "mixed", "negative")
CLEAR_SHARE = 0.55  # papers whose reviewers agree; the others are split (borderline)

# --- papers ---------------------------------------------------------------------------------

# Each subfield: keywords, tasks, techniques, data (generic descriptions), a field phrase.
SUBFIELDS: tuple[dict[str, Any], ...] = (
    {"field": "reinforcement learning",
     "keywords": ["reinforcement learning", "exploration", "offline reinforcement learning",
                  "policy optimisation", "sample efficiency"],
     "tasks": ["sparse-reward navigation", "offline policy learning",
               "multi-agent coordination", "long-horizon manipulation"],
     "techniques": ["reward shaping", "model-based planning", "value regularisation",
                    "hindsight relabelling"],
     "data": ["procedurally generated grid worlds", "a suite of simulated robot-arm tasks",
              "continuous-control locomotion benchmarks"]},
    {"field": "graph learning",
     "keywords": ["graph neural networks", "over-squashing", "expressivity",
                  "message passing", "graph representation learning"],
     "tasks": ["node classification on heterophilous graphs", "molecular property prediction",
               "link prediction in sparse networks", "graph-level anomaly detection"],
     "techniques": ["message passing", "positional encodings", "graph rewiring",
                    "subgraph sampling"],
     "data": ["citation-style networks", "synthetic molecule collections",
              "social interaction graphs"]},
    {"field": "natural language processing",
     "keywords": ["language models", "retrieval", "in-context learning",
                  "question answering", "machine translation"],
     "tasks": ["long-document summarisation", "multi-hop question answering",
               "low-resource machine translation", "factual consistency checking"],
     "techniques": ["retrieval augmentation", "instruction tuning", "contrastive decoding",
                    "prompt compression"],
     "data": ["news and encyclopedia corpora", "a multilingual collection of parallel sentences",
              "crowd-sourced question sets"]},
    {"field": "computer vision",
     "keywords": ["vision transformers", "self-supervised learning", "dense prediction",
                  "segmentation", "domain adaptation"],
     "tasks": ["open-vocabulary segmentation", "monocular depth estimation",
               "few-shot object detection", "video action localisation"],
     "techniques": ["masked pretraining", "test-time adaptation", "token pruning",
                    "multi-scale feature fusion"],
     "data": ["street-scene imagery", "indoor room scans", "web-scale image-caption pairs"]},
    {"field": "generative modelling",
     "keywords": ["diffusion models", "generative modelling", "sampling efficiency",
                  "normalising flows", "controllable generation"],
     "tasks": ["image synthesis with few sampling steps", "controllable audio generation",
               "tabular data synthesis", "point-cloud shape generation"],
     "techniques": ["diffusion distillation", "flow matching", "latent-variable modelling",
                    "guidance scheduling"],
     "data": ["natural image collections", "a corpus of short music clips",
              "public tabular benchmarks"]},
    {"field": "optimisation",
     "keywords": ["optimisation", "convergence", "generalisation", "large-batch training",
                  "learning-rate schedules"],
     "tasks": ["training deep networks with large batches", "non-convex stochastic optimisation",
               "learning-rate scheduling", "training with noisy gradients"],
     "techniques": ["adaptive preconditioning", "sharpness-aware updates", "gradient clipping",
                    "weight averaging"],
     "data": ["standard image and text classification benchmarks", "synthetic quadratic problems",
              "small language-modelling corpora"]},
    {"field": "trustworthy machine learning",
     "keywords": ["fairness", "robustness", "uncertainty quantification", "calibration",
                  "distribution shift"],
     "tasks": ["fair classification under distribution shift", "calibrated uncertainty estimation",
               "detecting spurious correlations", "selective prediction"],
     "techniques": ["sample reweighting", "conformal prediction", "post-hoc calibration",
                    "group-aware regularisation"],
     "data": ["tabular census-style records", "medical imaging collections",
              "image benchmarks with injected shortcuts"]},
    {"field": "federated and private learning",
     "keywords": ["federated learning", "differential privacy", "communication efficiency",
                  "machine unlearning", "heterogeneous clients"],
     "tasks": ["federated learning across heterogeneous clients",
               "differentially private fine-tuning", "machine unlearning",
               "personalised on-device learning"],
     "techniques": ["client clustering", "gradient compression", "noise-aware aggregation",
                    "local adaptation layers"],
     "data": ["partitioned image benchmarks", "simulated mobile keyboard logs",
              "distributed text classification tasks"]},
    {"field": "time series and scientific machine learning",
     "keywords": ["time series", "forecasting", "neural operators", "physics-informed learning",
                  "scientific machine learning"],
     "tasks": ["long-horizon time-series forecasting", "short-term weather nowcasting",
               "surrogate modelling of partial differential equations",
               "irregularly sampled sensor imputation"],
     "techniques": ["frequency-domain mixing", "neural operators", "patch-based tokenisation",
                    "physics-informed regularisation"],
     "data": ["energy-load and traffic sensor records", "simulated fluid-flow trajectories",
              "regional climate reanalysis fields"]},
    {"field": "interpretability",
     "keywords": ["interpretability", "mechanistic analysis", "explainability",
                  "feature attribution", "probing"],
     "tasks": ["attributing predictions to training examples",
               "locating factual knowledge in language models",
               "concept discovery in vision models", "explaining graph classifiers"],
     "techniques": ["sparse dictionary learning", "activation patching",
                    "influence approximation", "counterfactual probing"],
     "data": ["small open language models", "pretrained image classifiers",
              "synthetic tasks with known ground-truth mechanisms"]},
)

NAME_HEADS = ("Cairn", "Lumen", "Tessel", "Quill", "Brindle", "Marlo", "Vesper", "Orrin",
              "Fathom", "Sorrel", "Halden", "Wren", "Tamsin", "Corvel", "Ember", "Pellin")
NAME_TAILS = ("Net", "Former", "Flow", "Mix", "Align", "Prop", "Tune", "Lens", "Weave", "Path")

COMPONENTS = ("a lightweight gating module", "an auxiliary consistency objective",
              "a learned curriculum over training examples", "a simple caching mechanism",
              "a hierarchical memory", "an uncertainty-aware weighting scheme",
              "a two-stage coarse-to-fine procedure")
LIMITATIONS = ("struggle when labelled data are scarce", "scale poorly with problem size",
               "depend on hand-tuned heuristics", "are brittle under distribution shift",
               "require expensive supervision", "ignore structure that is present in the data")
REASONS = ("that they treat every input in the same way",
           "a mismatch between the training objective and the evaluation protocol",
           "the lack of an explicit notion of structure",
           "an over-reliance on large curated datasets")
ADJECTIVES = ("Efficient", "Robust", "Scalable", "Data-Efficient", "Stable", "Adaptive")

TITLES = ("{M}: {Technique} for {Task}",
          "{M}: Simple and Scalable {Technique} for {Task}",
          "Rethinking {Technique} for {Task}",
          "When Does {Technique} Help {Task}?",
          "{Adj} {Task} via {Technique}",
          "On the Limits of {Technique} in {Task}",
          "{Adj} {Task} with {M}")

ABSTRACT_OPEN = ("{Task_s} is a central problem in {field}, yet existing approaches {limitation}.",
                 "Progress on {task} has been rapid, but current methods still {limitation}.",
                 "Many applications of {field} rely on {task}, where prior methods {limitation}.")
ABSTRACT_REASON = ("We argue that a key reason is {reason}.",
                   "We trace this difficulty to {reason}.")
ABSTRACT_METHOD = ("We introduce {M}, which combines {technique} with {component}.",
                   "We propose {M}, a {technique} approach that adds {component}.",
                   "This paper presents {M}, built on {technique} and {component}.")
ABSTRACT_RESULT = ("Experiments on {data} show consistent improvements over strong baselines.",
                   "Across {data}, {M} matches or improves on prior methods while using less "
                   "compute.",
                   "On {data}, {M} improves over competitive baselines in most settings we study.")
ABSTRACT_OVERCLAIM = ("{M} outperforms every existing method on {data} by a wide margin, "
                      "establishing a new state of the art.",
                      "Our results show that {M} essentially solves {task}.",
                      "{M} is, to our knowledge, the first method that works reliably in every "
                      "setting of {task}.")
ABSTRACT_ANALYSIS = ("We also analyse when the approach fails and why.",
                     "We further give a theoretical account of why the added component helps.",
                     "An extensive ablation study isolates the effect of each design choice.")
ABSTRACT_CODE = ("Code will be made publicly available.",
                 "We release our implementation to support follow-up work.")

# --- reviews --------------------------------------------------------------------------------

SUMMARIES = ("This paper introduces {M}, a method for {task} built on {technique}, and evaluates "
             "it on {data}.",
             "The authors propose {M}, which adds {component} to a {technique} pipeline for "
             "{task}.",
             "The submission studies {task} and proposes {M}, a variant of {technique}; the "
             "experiments use {data}.",
             "The paper addresses {task} by combining {technique} with {component}, a method the "
             "authors call {M}.")

STRENGTHS = ("The core idea is simple, well motivated and, to my knowledge, new.",
             "The experiments are thorough and cover a convincing range of settings.",
             "The ablations isolate the contribution of each component clearly.",
             "The writing is clear and the paper is a pleasure to read.",
             "The theoretical analysis is sound and gives useful intuition about {technique}.",
             "The gains over strong baselines are consistent across {data}.",
             "The problem is important, and the paper tackles it in a principled way.",
             "The method is practical: it adds little overhead and is easy to implement.",
             "The related work section is careful and positions the contribution well.",
             "The analysis of failure cases is honest and insightful.",
             "Combining {technique} with {component} is an elegant design choice.",
             "The results on {task} are impressive and likely to be useful to practitioners.")
FAINT_STRENGTHS = ("The paper is generally readable.",
                   "The topic is relevant to the community.",
                   "The figures are nicely made.",
                   "The authors clearly put effort into the implementation.",
                   "The motivation in the introduction is reasonable.",
                   "Studying {task} is a worthwhile goal.")

# Each weakness: (the reviewer's sentence, a convincing reply, a confident but deferring reply).
WEAKNESSES = (
    ("The novelty is limited: the method is a small variation of existing {technique} "
     "approaches.",
     "We added a section contrasting {M} with the closest {technique} methods and a controlled "
     "experiment showing that the variants without our change fall clearly behind.",
     "We respectfully disagree: the novelty of {M} is evident from its design, which no prior "
     "work shares."),
    ("The baselines are weak, and several obvious recent competitors are missing.",
     "We added the requested recent competitors on {data}; {M} remains ahead in every setting, "
     "and the new results are in the revised appendix.",
     "The requested comparison is beyond the scope of this work, and we believe our baselines "
     "are representative."),
    ("The main claims are not supported by the experiments, which cover only {data}.",
     "We added experiments on a further kind of data, and the conclusions carry over unchanged.",
     "We chose {data} deliberately, as this is the most demanding setting, so further data would "
     "add little."),
    ("The improvements are marginal, and without variation over repeated runs I cannot tell "
     "whether they are meaningful.",
     "We now report the spread over repeated runs with different seeds, and the improvements "
     "are well outside the run-to-run variation.",
     "We are confident that the improvements are meaningful, and we will add repeated runs in a "
     "revision."),
    ("The theoretical section relies on strong assumptions that are unlikely to hold in "
     "practice.",
     "We relaxed the assumption in our analysis and show that the main result still holds under "
     "weaker conditions, with a new experiment where it is violated.",
     "The assumptions are standard in this line of work, so we do not regard them as a "
     "limitation."),
    ("The presentation is confusing: key definitions are missing and the notation changes "
     "between sections.",
     "We rewrote the method section so that every definition appears before it is used, and "
     "unified the notation throughout.",
     "We will polish the presentation in a revision; we believe the method is already easy to "
     "follow."),
    ("There is no ablation, so it is unclear which part of {M} is responsible for the gains.",
     "We ran a full ablation that removes each component in turn; every component contributes, "
     "and the combination performs best.",
     "The design of {M} makes the role of each part self-evident, so we did not find an "
     "ablation necessary."),
    ("The computational cost is not discussed, and the method looks far more expensive than "
     "the alternatives.",
     "We measured wall-clock time and memory: {M} adds only a small overhead over the base "
     "model, and we report this in the revision.",
     "Our method is efficient in practice, as practitioners working on {task} will "
     "appreciate."),
    ("The paper overstates its contribution; the evidence does not justify the claims in the "
     "abstract.",
     "We toned down the abstract and added a limitations paragraph that states precisely where "
     "{M} helps and where it does not.",
     "We stand by our claims, which we believe are fully supported by the experiments."),
    ("The motivation for adding {component} is unclear and never tested directly.",
     "We added a direct test of {component}: removing it hurts exactly in the cases our "
     "motivation predicts.",
     "The motivation for {component} is explained in the introduction, which we believe the "
     "reviewer may have overlooked."),
    ("The evaluation protocol differs from prior work, which makes the comparison "
     "questionable.",
     "We re-ran all methods under the protocol of prior work, and the ranking is unchanged.",
     "Our protocol is more realistic than the earlier one, so we consider it the better "
     "choice."),
)
MINOR_WEAKNESSES = (
    ("A few typos remain in the related work section.",
     "We proofread the whole paper and fixed the typos."),
    ("Some figure labels are too small to read comfortably.",
     "We enlarged all figure labels."),
    ("A short discussion of limitations would be welcome.",
     "We added a paragraph on limitations."),
    ("One or two closely related papers could be cited.",
     "We now cite and discuss the related papers the reviewer pointed to."),
    ("The appendix could give slightly more detail on hyperparameters.",
     "The appendix now lists every hyperparameter and how it was chosen."),
    ("The notation in the method section is a little heavy in places.",
     "We simplified the notation in the method section."),
)

QUESTIONS = ("How sensitive is {M} to its main hyperparameters?",
             "Could the authors comment on how the approach scales to larger problems?",
             "How does the method behave under a distribution shift between training and test "
             "data?",
             "Why were the experiments restricted to {data}?",
             "Is the implementation going to be released?",
             "What happens without {component}?",
             "How were the baselines tuned, and with what budget?",
             "Does the analysis extend to settings without the stated assumptions?")

CLOSINGS = {
    "positive": ("Overall, this is a solid and useful contribution.",
                 "In sum, the strengths clearly outweigh the minor issues above.",
                 "I enjoyed reading this paper and think it will interest many readers."),
    "mixed": ("Overall, I see merit in the idea but have doubts about the evaluation.",
              "I am torn: the idea is interesting, but the execution needs more work.",
              "My impression is mixed, and the response to my questions will matter."),
    "negative": ("Overall, the paper is not ready in its current form.",
                 "In its current state, the weaknesses outweigh the strengths.",
                 "I do not think the contribution is significant enough yet."),
}

# (strong strengths, faint strengths, major weaknesses, minor weaknesses) per leaning: ranges.
REVIEW_SHAPES = {
    "positive": ((2, 4), (0, 1), (0, 2), (0, 2)),
    "mixed": ((1, 3), (0, 1), (1, 3), (0, 1)),
    "negative": ((0, 2), (0, 2), (2, 4), (0, 1)),
}

# --- discussion -----------------------------------------------------------------------------

REBUTTAL_OPEN = ("We thank the reviewers for their thoughtful and constructive feedback.",
                 "We are grateful to all reviewers for their careful reading of our work.",
                 "We thank the reviewers for their time and their detailed comments.")
REBUTTAL_SEE_ABOVE = "We thank the reviewer and have addressed this point in our reply above."
REBUTTAL_CLOSE = ("We are confident that the revised paper resolves the concerns raised.",
                  "We believe these changes fully address the reviewers' points.",
                  "We hope the clarifications above make the strength of our contribution clear.")

# Reviewers' follow-ups: generic ones, and ones that fit a rebuttal with new evidence or one that
# defers and disagrees.
FOLLOWUP_SATISFIED = (
    "The clarifications resolve the issues I raised, and I now view the paper more favourably.",
    "I have read the response and the other reviews. My concerns have been addressed "
    "satisfactorily.",
    "The authors' reply convinced me that my main objection was a misunderstanding. I am now "
    "more positive.",
)
FOLLOWUP_SATISFIED_EVIDENCE = (
    "Thank you for the detailed response. The new experiments address my main concerns, and I "
    "have updated my assessment accordingly.",
    "The additional analysis answers my question; I am happy with the revised version.",
)
FOLLOWUP_REAFFIRM = (
    "I have read the response and remain positive about this work.",
    "Thanks to the authors; the discussion strengthens my favourable view of the paper.",
)
FOLLOWUP_UNSATISFIED = (
    "I thank the authors for their reply, but my concerns about the evaluation remain.",
    "After reading the other reviews and the response, I still find the contribution too "
    "incremental.",
    "I appreciate the effort in the response, but the central weakness I pointed out is still "
    "unaddressed.",
)
FOLLOWUP_UNSATISFIED_EVIDENCE = (
    "The new results are welcome, but they do not change my view that the gains are marginal.",
    "The added experiments help somewhat, but my main concern about the novelty remains.",
)
FOLLOWUP_UNSATISFIED_DEFERRING = (
    "The response restates the claims of the paper without new evidence, so my view is "
    "unchanged.",
    "Promising changes in a revision does not resolve the issue; I keep my original "
    "assessment.",
    "Disagreeing with a concern is not the same as addressing it, and my reservations stand.",
)
FOLLOWUP_DEFECT = (
    "Having read the discussion, I now share the other reviewers' doubts about the baselines.",
    "On reflection, the concerns raised by the other reviewers seem serious to me as well.",
)
AUTHOR_THANKS = (
    "Thank you for engaging with our response; we will fold this discussion into the revised "
    "paper.",
    "We appreciate the reviewer's constructive engagement and will expand the limitations "
    "section as suggested.",
)
AUTHOR_PUSHBACK = (
    "We respectfully note that the requested analysis is already in the appendix, and we hope "
    "this settles the remaining point.",
    "We understand the reviewer's position, but we remain confident that our evaluation follows "
    "standard practice in the area.",
    "We thank the reviewer again and would like to stress that our method is the first to "
    "handle this setting cleanly.",
)


def _title(text: str) -> str:
    """Title case for our templates: every word capitalised except short function words."""
    small = {"a", "an", "and", "for", "in", "of", "on", "the", "to", "via", "with"}
    words = text.split(" ")
    out = []
    for i, word in enumerate(words):
        if i and word in small:
            out.append(word)
        else:
            out.append("-".join(p[:1].upper() + p[1:] for p in word.split("-")))
    return " ".join(out)


def _between(rng: random.Random, bounds: tuple[int, int]) -> int:
    return rng.randint(bounds[0], bounds[1])


def _paper(rng: random.Random, accept: bool) -> tuple[dict[str, Any], dict[str, str]]:
    sub = rng.choice(SUBFIELDS)
    slots = {"M": rng.choice(NAME_HEADS) + rng.choice(NAME_TAILS),
             "field": sub["field"], "task": rng.choice(sub["tasks"]),
             "technique": rng.choice(sub["techniques"]), "data": rng.choice(sub["data"]),
             "component": rng.choice(COMPONENTS), "limitation": rng.choice(LIMITATIONS),
             "reason": rng.choice(REASONS)}
    slots["Task"] = _title(slots["task"])
    slots["Technique"] = _title(slots["technique"])
    slots["Task_s"] = slots["task"][:1].upper() + slots["task"][1:]
    slots["Adj"] = rng.choice(ADJECTIVES)
    title = rng.choice(TITLES).format(**slots)

    others = [k for k in sub["keywords"] if k != slots["technique"]]
    keywords = rng.sample(others, rng.randint(2, 4)) + [slots["technique"]]

    sentences = [rng.choice(ABSTRACT_OPEN)]
    if rng.random() < 0.5:
        sentences.append(rng.choice(ABSTRACT_REASON))
    sentences.append(rng.choice(ABSTRACT_METHOD))
    overclaims = rng.random() < (0.2 if accept else 0.4)
    sentences.append(rng.choice(ABSTRACT_OVERCLAIM if overclaims else ABSTRACT_RESULT))
    if rng.random() < (0.4 if accept else 0.25):
        sentences.append(rng.choice(ABSTRACT_ANALYSIS))
    if len(sentences) < 5 and rng.random() < 0.4:
        sentences.append(rng.choice(ABSTRACT_CODE))
    abstract = " ".join(s.format(**slots) for s in sentences)
    return {"title": title, "keywords": keywords, "abstract": abstract}, slots


def _leanings(rng: random.Random, accept: bool, count: int) -> list[str]:
    """The reviews' hidden leanings, in a random order (see the module docstring)."""
    if rng.random() < CLEAR_SHARE:
        base = "positive" if accept else "negative"
        leanings = [base] * count
        if rng.random() < (0.3 if accept else 0.4):
            leanings[0] = "mixed"
    elif accept:
        critical = count // 2
        leanings = ["negative" if rng.random() < 0.4 else "mixed" for _ in range(critical)]
        leanings += ["positive"] * (count - critical)
    else:
        leanings = ["positive", "mixed" if rng.random() < 0.5 else "negative"]
        leanings += ["negative"] * (count - 2)
    rng.shuffle(leanings)
    return leanings


def _review(rng: random.Random, leaning: str, summary: str
            ) -> tuple[str, list[tuple[str, ...]]]:
    """A review template with `leaning` (slots still unfilled) and the weaknesses it raises,
    major ones first, as their bank entries (so the rebuttal can answer them)."""
    strong, faint, major, minor = (_between(rng, b) for b in REVIEW_SHAPES[leaning])
    strengths = rng.sample(STRENGTHS, strong) + rng.sample(FAINT_STRENGTHS, faint)
    majors = rng.sample(WEAKNESSES, major)
    minors = rng.sample(MINOR_WEAKNESSES, minor)
    if not strengths:
        strengths = [rng.choice(FAINT_STRENGTHS)]
    if not majors and not minors:
        minors = [rng.choice(MINOR_WEAKNESSES)]
    weaknesses = [w[0] for w in majors + minors]
    rng.shuffle(weaknesses)
    questions = rng.sample(QUESTIONS, rng.randint(1, 2))
    lines = [f"Summary: {summary}",
             "Strengths: " + " ".join(strengths),
             "Weaknesses: " + " ".join(weaknesses),
             "Questions: " + " ".join(questions)]
    if rng.random() < 0.7:
        lines.append(rng.choice(CLOSINGS[leaning]))
    return "\n".join(lines), majors + minors


def _rebuttal(rng: random.Random, convincing: bool,
              raised: list[list[tuple[str, ...]]]) -> str:
    """The authors' response: polite and confident, answering one or two of each reviewer's
    points, with concrete new evidence (`convincing`) or by deferring and disagreeing."""
    parts = [rng.choice(REBUTTAL_OPEN)]
    given: set[str] = set()
    for k, points in enumerate(raised, start=1):
        answered = points[:rng.randint(1, 2)]
        replies = [p[1] if len(p) == 2 or convincing else p[2] for p in answered]
        replies = [r for r in replies if r not in given] or [REBUTTAL_SEE_ABOVE]
        given.update(replies)
        parts.append(f"To Reviewer {k}: " + " ".join(replies))
    parts.append(rng.choice(REBUTTAL_CLOSE))
    return "Authors: " + " ".join(parts)


def _speaker_weight(leaning: str, accept: bool, satisfied: bool) -> float:
    """How likely a reviewer with `leaning` is to post a follow-up of this kind: satisfied
    follow-ups come more often from reviewers who had concerns (on an accepted paper) or from
    the champion (on a rejected one); unsatisfied ones more often from critical reviewers."""
    positive = leaning == "positive"
    if satisfied:
        return (1.0 if positive else 2.0) if accept else (3.0 if positive else 1.0)
    return 0.5 if positive else 2.0


def _discussion(rng: random.Random, accept: bool, convincing: bool, leanings: list[str],
                raised: list[list[tuple[str, ...]]]) -> list[str]:
    entries = [_rebuttal(rng, convincing, raised)]
    follow_ups = rng.choices((0, 1, 2, 3), weights=(15, 35, 30, 20))[0]
    unused = list(range(len(leanings)))
    said: set[str] = set()

    def fresh(bank: tuple[str, ...]) -> str:
        text = rng.choice([t for t in bank if t not in said] or list(bank))
        said.add(text)
        return text

    last_satisfied: bool | None = None
    for _ in range(follow_ups):
        if last_satisfied is not None and rng.random() < 0.35:
            entries.append("Authors: " + fresh(AUTHOR_THANKS if last_satisfied
                                                else AUTHOR_PUSHBACK))
            last_satisfied = None
            continue
        satisfied = rng.random() < (0.85 if accept else 0.2)
        weights = [_speaker_weight(leanings[i], accept, satisfied) for i in unused]
        who = rng.choices(unused, weights=weights)[0]
        unused.remove(who)
        if leanings[who] == "positive":
            bank = FOLLOWUP_REAFFIRM if satisfied else FOLLOWUP_DEFECT
        elif satisfied:
            bank = FOLLOWUP_SATISFIED + (FOLLOWUP_SATISFIED_EVIDENCE if convincing else ())
        else:
            bank = FOLLOWUP_UNSATISFIED + (FOLLOWUP_UNSATISFIED_EVIDENCE if convincing
                                           else FOLLOWUP_UNSATISFIED_DEFERRING)
        entries.append(f"Reviewer {who + 1}: " + fresh(bank))
        last_satisfied = satisfied
    return entries


def generate(seed: int) -> dict[str, Any]:
    """One synthetic instance, a record of our JSONL format, determined by `seed` alone:
    format, id, seed, source, synthetic (always True), paper (title, keywords, abstract),
    reviews (3 or 4 texts), discussion (the authors' response first, then 0-3 follow-ups),
    answer ("Accept" or "Reject") and notes (review_leanings, one per review, and whether the
    rebuttal is convincing): the hidden process described in the module docstring."""
    rng = random.Random(seed)
    accept = rng.random() < ACCEPT_SHARE
    paper, slots = _paper(rng, accept)
    leanings = _leanings(rng, accept, rng.choice((3, 4)))
    summaries = rng.sample(SUMMARIES, len(leanings))
    drafted = [_review(rng, leaning, summary) for leaning, summary in zip(leanings, summaries,
                                                                          strict=True)]
    convincing = rng.random() < (0.85 if accept else 0.5)
    discussion = _discussion(rng, accept, convincing, leanings, [r[1] for r in drafted])
    return {"format": FORMAT, "id": f"synthetic-review-{seed}", "seed": seed,
            "source": SOURCE, "synthetic": True,
            "paper": paper,
            "reviews": [text.format(**slots) for text, _ in drafted],
            "discussion": [text.format(**slots) for text in discussion],
            "answer": "Accept" if accept else "Reject",
            "notes": {"review_leanings": leanings,
                      "rebuttal": "convincing" if convincing else "unconvincing"}}


def sample(count: int, first_seed: int = 0) -> list[dict[str, Any]]:
    """`count` instances for the seeds `first_seed`, `first_seed + 1`, ..."""
    return [generate(seed) for seed in range(first_seed, first_seed + count)]
