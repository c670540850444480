"""User Profile Inference (SocialMaze §8, Appendix H): 8 to 12 comments, and the commenters'
profile — age group and gender — to infer: one user's, from comments on various items ("user"
query), or an item's dominant audience, from many users' comments on it ("item" query). Our
record and the authors' two release files are read here (docs/rules/user-profile.md documents
them)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.dataset_task.files import build
from engine.dataset_task.instance import (
    AnswerField,
    Instance,
    Item,
    Stage,
    check_format,
    get,
    ident,
    option,
    provenance,
    text,
)
from engine.dataset_task.task import DatasetTask
from engine.instance_files import FieldError, Loaded, Problem, json_error, not_utf8

FORMAT = "parlor.user-profile/1"
AGE = AnswerField("age_group", "Age Group", ("18-34", "35-54", "55+"))
GENDER = AnswerField("gender", "Gender", ("Male", "Female", "Non-binary"))
KINDS = ("item", "user")
_CHOOSE = "Choose from age groups 18-34, 35-54, 55+ and genders Male, Female, Non-binary."
QUESTIONS = {
    "user": f"From these comments by one user, what is their most likely profile (age group "
            f"and gender)? {_CHOOSE}",
    "item": "From these comments on {item}, what is the most likely dominant audience profile "
            f"(age group and gender)? {_CHOOSE}",
}
RULES = """\
You read comments written online and infer who wrote them: an age group (18-34, 35-54 or 55+) \
and a gender (Male, Female or Non-binary), from writing style, vocabulary, topics of interest \
and the perspectives expressed. Either all the comments are by one user, whose profile you \
give, or they are by many users about one item, and you give the item's dominant audience: the \
profile most of its commenters share."""


def _comments(value: Any) -> tuple[tuple[str | None, str], ...]:
    if not isinstance(value, list) or not value:
        raise FieldError("comments", "expected a non-empty list of comments")
    found = []
    for i, c in enumerate(value):
        if isinstance(c, str):
            found.append((None, text(c, f"comments[{i}]")))
            continue
        item = c.get("item") if isinstance(c, dict) else None
        found.append((text(item, f"comments[{i}].item") if item is not None else None,
                      text(get(c, "text", f"comments[{i}]"), f"comments[{i}].text")))
    return tuple(found)


def from_record(record: Mapping[str, Any]) -> Instance:
    check_format(record, FORMAT)
    kind = get(record, "query")
    if kind not in KINDS:
        raise FieldError("query", f"expected 'user' or 'item', got {json.dumps(kind)[:40]}")
    subject = text(get(record, "item"), "item") if kind == "item" else None
    comments = _comments(get(record, "comments"))
    answer = get(record, "answer")
    truth = {"age_group": option(AGE, get(answer, "age_group", "answer"), "answer.age_group"),
             "gender": option(GENDER, get(answer, "gender", "answer"), "answer.gender")}
    if kind == "user":
        intro = "Comments written by one user, on various items."
        items = tuple(Item(f"Comment {i}" + (f" (on {on})" if on else ""), said)
                      for i, (on, said) in enumerate(comments, 1))
        question = QUESTIONS["user"]
    else:
        intro = f"Comments by many users on one item: {subject}."
        items = tuple(Item(f"Comment {i}", said) for i, (_, said) in enumerate(comments, 1))
        question = QUESTIONS["item"].format(item=subject)
    return Instance(
        task="user-profile", id=ident(record), kind=kind, intro=intro, question=question,
        stages=(Stage("Comments", items),), answer=truth, record=dict(record),
        **provenance(record))


def _profile(value: Any, age_key: str, gender_key: str, where: str) -> dict[str, str]:
    return {"age_group": option(AGE, get(value, age_key, where), f"{where}.{age_key}"),
            "gender": option(GENDER, get(value, gender_key, where), f"{where}.{gender_key}")}


def _from_group(group: Any) -> dict[str, Any]:
    """One entry of the release's user file (`profile_groups`: `group_id`, `demographics`,
    `comments` of `product` and `comment`) as our "user" record."""
    comments = get(group, "comments")
    if not isinstance(comments, list) or not comments:
        raise FieldError("comments", "expected a non-empty list of comments")
    return {"format": FORMAT, "id": f"user-{ident(group, 'group_id')}",
            "source": "SocialMaze release", "synthetic": False, "query": "user", "item": None,
            "comments": [{"item": c.get("product") if isinstance(c, dict) else None,
                          "text": get(c, "comment", f"comments[{i}]")}
                         for i, c in enumerate(comments)],
            "answer": _profile(get(group, "demographics"), "age_group", "gender",
                               "demographics")}


def _from_scenario(pair: Any) -> dict[str, Any]:
    """One entry of the release's item file (`scenarios`: `product_name`,
    `primary_user_group`, `comments` of `persona` and `comment`) as our "item" record."""
    key, scenario = pair
    comments = get(scenario, "comments")
    if not isinstance(comments, list) or not comments:
        raise FieldError("comments", "expected a non-empty list of comments")
    return {"format": FORMAT, "id": f"item-{key}", "source": "SocialMaze release",
            "synthetic": False, "query": "item", "item": get(scenario, "product_name"),
            "comments": [{"text": get(c, "comment", f"comments[{i}]")}
                         for i, c in enumerate(comments)],
            "answer": _profile(get(scenario, "primary_user_group"), "primary_age_group",
                               "primary_gender", "primary_user_group")}


def read_official(data: bytes, name: str) -> Loaded:
    """The release's user file (an object with `profile_groups`) or its item file (an object
    with `scenarios`)."""
    try:
        content = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        return Loaded([], [Problem(name, None, None, "<file>", not_utf8(error))])
    except json.JSONDecodeError as error:
        return Loaded([], [Problem(name, None, None, "<file>", json_error(error))])
    if isinstance(content, dict) and isinstance(content.get("profile_groups"), list):
        entries = list(enumerate(content["profile_groups"], 1))
        return build(TASK, ((i, None, g) for i, g in entries), name, _from_group, "group_id")
    if isinstance(content, dict) and isinstance(content.get("scenarios"), dict):
        entries = list(enumerate(content["scenarios"].items(), 1))
        return build(TASK, ((i, None, s) for i, s in entries), name, _from_scenario, "")
    return Loaded([], [Problem(name, None, None, "<file>",
                               "expected our JSONL, or the release's object with "
                               "'profile_groups' (user queries) or 'scenarios' (item queries)")])


def generate(seed: int, config: Any) -> dict[str, Any]:
    from engine.user_profile.synthetic import generate as synthetic

    query = config.query if config.query != "mixed" else ("user", "item")[seed % 2]
    return synthetic(seed, query)


def explain(instance: Instance) -> str | None:
    notes = instance.record.get("notes")
    if instance.kind != "item" or not isinstance(notes, dict):
        return None
    profiles = [p for p in notes.get("profiles") or () if isinstance(p, dict)]
    if not profiles:
        return None
    truth = instance.answer
    share = sum(p.get("age_group") == truth["age_group"] and p.get("gender") == truth["gender"]
                for p in profiles)
    return (f"{share} of the {len(profiles)} commenters were {truth['age_group']} "
            f"{truth['gender']}.")


TASK = DatasetTask(
    id="user-profile", title="User Profile Inference", format=FORMAT, fields=(AGE, GENDER),
    syntax="Age Group: 35-54 Gender: Female", rules=RULES, from_record=from_record,
    read_official=read_official, generate=generate, kinds=KINDS, explain=explain)
