"""Dataset-task files: the authors' release formats (files we write in their shape) and our
JSONL, told apart by content; a bad or truncated record is a Problem naming the file, the
record, its id and the field while the others load; instances round-trip through our JSONL."""

import json

from engine.dataset_task.files import load, read, save_jsonl
from engine.rating_estimation.task import TASK as RATING
from engine.review_decision.task import TASK as REVIEW
from engine.user_profile.task import TASK as PROFILE

RATING_OFFICIAL = [
    {"scenario_id": "p1", "true_rating": 4, "formatted_reviews": [
        {"reviewer_id": "1", "text": "Sturdy and quiet; the lid sticks a little."},
        {"reviewer_id": "2", "text": "Does what it promises."}]},
    {"scenario_id": "p2", "true_rating": 4.5, "source": "amazon",
     "formatted_reviews": [{"reviewer_id": "1", "text": "Lovely."}]},
    {"scenario_id": "p3", "formatted_reviews": [{"reviewer_id": "1", "text": "Meh."}]},
    {"scenario_id": "p4", "true_rating": 3.49, "formatted_reviews": [
        {"reviewer_id": "1", "text": "Fine."}]},
]


def test_rating_release_format(tmp_path):
    path = tmp_path / "reviews.json"
    path.write_text(json.dumps(RATING_OFFICIAL, indent=2))
    loaded = load(RATING, path)
    assert [i.id for i in loaded.instances] == ["p1", "p2", "p4"]
    p1, p2, p4 = loaded.instances
    assert p1.answer == {"rating": "4"} and [t.text for t in p1.stages[0].items] == [
        "Sturdy and quiet; the lid sticks a little.", "Does what it promises."]
    assert p2.answer == {"rating": "5"} and p2.source == "amazon"  # 4.5 rounds up
    assert p4.answer == {"rating": "3"}
    [problem] = loaded.problems
    assert (problem.path, problem.index, problem.instance_id, problem.field) == \
        (str(path), 3, "p3", "true_rating")
    assert str(problem) == f"{path} (instance 3, id 'p3'): field 'true_rating': missing"


def test_truncated_release_file_keeps_the_instances_before_the_cut(tmp_path):
    text = json.dumps(RATING_OFFICIAL, indent=2)
    path = tmp_path / "cut.json"
    path.write_text(text[:text.index('"p2"') + 20])
    loaded = load(RATING, path)
    assert [i.id for i in loaded.instances] == ["p1"]
    assert loaded.problems[-1].index == 2 and "truncated" in loaded.problems[-1].message


def test_review_release_format_splits_the_rounds():
    item = {"id": "paper-7", "decision": "reject", "statements": [
        {"round1": "Title: A Study of Things\nKeywords: things, study\nAbstract: We study "
                   "things.\nIt goes well."},
        {"round2": "Reviewer 1: Too narrow.\nReviewer 2: Clear, but the baselines are weak."},
        {"round3": "Author response: We added baselines."}]}
    loaded = read(REVIEW, json.dumps([item, {"id": "x", "decision": "Maybe",
                                             "statements": item["statements"]}]).encode(),
                  "rdp.json")
    [paper] = loaded.instances
    assert paper.answer == {"decision": "Reject"}
    info, reviews, rebuttal = paper.stages
    assert [(i.label, i.text) for i in info.items] == [
        ("Title", "A Study of Things"), ("Keywords", "things, study"),
        ("Abstract", "We study things.\nIt goes well.")]
    assert [i.text for i in reviews.items] == ["Too narrow.",
                                               "Clear, but the baselines are weak."]
    assert [(i.label, i.text) for i in rebuttal.items] == [("Author response",
                                                            "We added baselines.")]
    [problem] = loaded.problems
    assert (problem.index, problem.instance_id, problem.field) == (2, "x", "decision")


def test_profile_release_files_both_kinds():
    users = {"description": "...", "profile_groups": [
        {"group_id": 1, "demographics": {"age_group": "35-54", "gender": "Male"},
         "comments": [{"product": "Trail Kettle", "comment": "Works on the boat."}]},
        {"group_id": 2, "demographics": {"age_group": "60+", "gender": "Male"},
         "comments": [{"product": "Trail Kettle", "comment": "Fine."}]}]}
    loaded = read(PROFILE, json.dumps(users).encode(), "users.json")
    [user] = loaded.instances
    assert (user.id, user.kind, user.answer) == ("user-1", "user",
                                                {"age_group": "35-54", "gender": "Male"})
    assert user.stages[0].items[0].label == "Comment 1 (on Trail Kettle)"
    assert loaded.problems[0].field == "demographics.age_group"
    items = {"content_type": "product", "scenarios": {"scenario_1": {
        "product_name": "Trail Kettle",
        "primary_user_group": {"primary_age_group": "18-34", "primary_gender": "Non-binary"},
        "comments": [{"persona": {"id": 1, "age_group": "18-34", "gender": "Non-binary"},
                      "comment": "obsessed tbh"}]}}}
    [item] = read(PROFILE, json.dumps(items).encode(), "items.json").instances
    assert (item.id, item.kind, item.answer["gender"]) == ("item-scenario_1", "item",
                                                           "Non-binary")
    assert "Trail Kettle" in item.question
    odd = read(PROFILE, b'{"something": []}', "odd.json")
    assert not odd.instances and "profile_groups" in odd.problems[0].message


def test_our_jsonl_round_trip_and_bad_lines(tmp_path):
    from engine.rating_estimation.synthetic import sample

    instances = [RATING.from_record(r) for r in sample(3)]
    path = tmp_path / "ours.jsonl"
    save_jsonl(instances, path)
    again = load(RATING, path)
    assert [i.record for i in again.instances] == [i.record for i in instances]
    assert [i.content_hash() for i in again.instances] == [i.content_hash() for i in instances]
    lines = path.read_bytes().split(b"\n")
    broken = b"\n".join([lines[0], b'{"format": "parlor.rating-estimation/1", "id": "x"',
                         lines[0], b"\xff\xfe", lines[1].replace(b'"answer":', b'"answr":')])
    loaded = read(RATING, broken, "broken.jsonl")
    assert [i.id for i in loaded.instances] == [instances[0].id]
    assert [(p.line, p.field) for p in loaded.problems] == [
        (2, "<record>"), (3, "id"), (4, "<record>"), (5, "answer")]
    assert "truncated" in loaded.problems[0].message
    assert "UTF-8" in loaded.problems[2].message


def test_same_instance_under_another_id_hashes_the_same():
    from engine.rating_estimation.synthetic import generate

    record = generate(5)
    renamed = {**record, "id": "elsewhere", "source": "a copy"}
    assert RATING.from_record(record).content_hash() == RATING.from_record(renamed).content_hash()
    changed = {**record, "answer": 1 + record["answer"] % 5}
    assert RATING.from_record(record).content_hash() != RATING.from_record(changed).content_hash()


def test_unreadable_file_is_one_problem(tmp_path):
    loaded = load(REVIEW, tmp_path / "missing.json")
    assert not loaded.instances and loaded.problems[0].field == "<file>"
