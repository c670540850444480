"""Both file formats: round trips, the official shape, and bad files that keep the good
instances and name the file, the instance and the field."""

import json

import pytest

from engine.hidden_role import dataset
from engine.hidden_role.dataset import (
    content_hash,
    dump_jsonl,
    dump_official,
    load,
    parse_jsonl,
    parse_official,
    to_record,
)
from engine.hidden_role.generator import generate
from engine.hidden_role.roles import Role
from tests.hidden_role.helpers import FIG6, FIG22, FIG30

INSTANCES = [generate("full", 6, 3, "released", s) for s in range(3)] + \
    [generate(v, 10, 3, "uniform", 9) for v in ("original", "rumormonger", "lunatic")]


def test_jsonl_round_trip(tmp_path):
    path = tmp_path / "set.jsonl"
    dataset.save_jsonl(INSTANCES, path)
    assert load(path) == (INSTANCES, [])
    assert len(path.read_text().splitlines()) == len(INSTANCES)


def test_official_round_trip_infers_told_role_and_composition(tmp_path):
    path = tmp_path / "set.json"
    dataset.save_official(INSTANCES + [FIG22], path)
    loaded, problems = load(path)
    assert problems == []
    assert loaded == INSTANCES + [FIG22]
    assert loaded[-1].told is Role.INVESTIGATOR and loaded[-1].roles[0] is Role.RUMORMONGER


def test_written_official_objects_have_the_release_shape():
    obj = json.loads(dump_official([FIG30]))[0]
    assert set(obj) == {"scenario_id", "dataset_type", "roles", "statements", "ground_truth",
                        "prompts", "solution_analysis"}
    assert obj["dataset_type"] == "all"
    assert obj["roles"]["1"] == "Lunatic"
    assert obj["ground_truth"] == {"criminal": "2", "player1_role": "Lunatic"}
    first = obj["statements"][0]
    assert first["round"] == 1
    assert first["statements"][0] == {"player": "1",
                                      "statement": "Player 1 says Player 3 is the criminal.",
                                      "target_player": "3", "statement_type": "is"}
    analysis = obj["solution_analysis"]
    assert analysis["unique_solution"] is True and analysis["possible_criminals"] == ["2"]
    assert analysis["reasoning_process"].endswith("the criminal is Player 2 and you are a Lunatic.")
    assert "your role is Criminal" in obj["prompts"]["1"]


def _minimal_official(scenario_id="s1"):
    """A release-style object with only the fields the loader needs (no prompts)."""
    obj = json.loads(dump_official([FIG6]))[0]
    obj["scenario_id"] = scenario_id
    del obj["prompts"], obj["solution_analysis"]
    return obj


def test_an_official_object_without_prompts_loads():
    loaded, problems = parse_official(json.dumps([_minimal_official()]))
    assert problems == []
    assert loaded[0].told is Role.INVESTIGATOR and loaded[0].answer == (2, "Investigator")
    assert loaded[0].composition[Role.RUMORMONGER] == 1


def test_official_unknown_role_answer_is_kept():
    obj = _minimal_official()
    obj["ground_truth"]["player1_role"] = "Unknown"
    loaded, _ = parse_official(json.dumps([obj]))
    assert loaded[0].answer == (2, "Unknown")


def _mutated(change):
    objs = [_minimal_official(f"s{i}") for i in range(1, 4)]
    change(objs[1])
    return json.dumps(objs, indent=2)


@pytest.mark.parametrize(("change", "field", "message"), [
    (lambda o: o["statements"][0]["statements"][1].update(statement_type="maybe"),
     "statements[0].statements[1].statement_type", "expected \"is\" or \"is not\""),
    (lambda o: o["statements"][2]["statements"][4].pop("target_player"),
     "statements[2].statements[4].target_player", "missing"),
    (lambda o: o["ground_truth"].update(criminal="5"), "ground_truth.criminal",
     "the roles make Player 2 the Criminal"),
    (lambda o: o["roles"].update({"4": "Joker"}), "roles.4", "unknown role 'Joker'"),
    (lambda o: o["roles"].update({"4": "Criminal"}), "roles", "exactly one Criminal"),
    (lambda o: o.update(dataset_type="original"), "dataset_type", "original variant cannot"),
    (lambda o: o["statements"][1]["statements"].pop(), "statements", "round 2 must have one"),
    (lambda o: o.update(prompts={"1": "You are Player 1, and your role is Criminal."}),
     "prompts.1", "but an Investigator is told Investigator"),
], ids=["claim", "target", "criminal", "role-name", "two-criminals", "variant", "round", "told"])
def test_a_bad_official_instance_names_file_instance_and_field(change, field, message):
    loaded, problems = parse_official(_mutated(change), "release.json")
    assert [i.id for i in loaded] == ["s1", "s3"]
    [problem] = problems
    assert (problem.file, problem.position, problem.instance_id, problem.field) == \
        ("release.json", 2, "s2", field)
    assert message in problem.message
    assert str(problem).startswith("release.json: instance 2 (id 's2'): ")


def test_a_truncated_official_file_keeps_the_instances_before_the_cut(tmp_path):
    text = dump_official(INSTANCES)
    cut = text.index('"scenario_id": "hr-lunatic-10p-9"') + 200
    path = tmp_path / "cut.json"
    path.write_text(text[:cut])
    loaded, problems = load(path)
    assert loaded == INSTANCES[:-1]
    [problem] = problems
    assert problem.file == str(path) and problem.position == len(INSTANCES)
    assert problem.instance_id == "hr-lunatic-10p-9"
    assert "truncated" in problem.message


def test_official_file_that_is_not_a_list_or_not_json():
    assert parse_official('{"scenario_id": "x"}', "a.json")[1][0].message.startswith(
        "expected a JSON list")
    loaded, problems = parse_official("garbage", "b.json")
    assert loaded == [] and "not a JSON list" in problems[0].message


def test_bad_jsonl_lines_are_reported_by_line_and_the_rest_load():
    lines = dump_jsonl(INSTANCES[:3]).splitlines()
    broken = json.loads(lines[1])
    del broken["answer"]
    wrong = "Investigator" if INSTANCES[2].told is Role.CRIMINAL else "Criminal"
    bad_role = to_record(INSTANCES[2]) | {"told": wrong, "id": "other"}
    text = "\n".join([lines[0], json.dumps(broken), "", "{not json", lines[2],
                      json.dumps(bad_role), lines[0]]) + "\n"
    loaded, problems = parse_jsonl(text, "mine.jsonl")
    assert loaded == [INSTANCES[0], INSTANCES[2]]
    assert [(p.position, p.instance_id, p.field) for p in problems] == [
        (2, INSTANCES[1].id, "answer"), (4, None, "(json)"), (6, "other", "told"),
        (7, INSTANCES[0].id, "id")]
    assert str(problems[0]) == f"mine.jsonl: line 2 (id '{INSTANCES[1].id}'): answer: missing"
    assert "already used by line 1" in problems[3].message


def test_unknown_format_tag_and_bad_statement_in_jsonl():
    record = to_record(FIG6)
    text = json.dumps(record | {"format": "other/2"}) + "\n" + \
        json.dumps(record | {"statements": [[1, 1, 3]] + record["statements"][1:]}) + "\n"
    _, problems = parse_jsonl(text, "x.jsonl")
    assert [(p.field, p.position) for p in problems] == [("format", 1), ("statements[0]", 2)]


@pytest.mark.parametrize("reader", [load, dataset.load_jsonl, dataset.load_official])
def test_a_missing_file_is_a_problem_not_a_crash(tmp_path, reader):
    loaded, problems = reader(tmp_path / "nope.json")
    assert loaded == [] and [(p.unit, p.field) for p in problems] == [("file", "(file)")]
    assert str(problems[0]) == f"{tmp_path / 'nope.json'}: cannot read: No such file or directory"


def test_the_format_is_told_by_the_content_not_the_file_name(tmp_path):
    ours, official = tmp_path / "ours.json", tmp_path / "release.jsonl"
    dataset.save_jsonl(INSTANCES, ours)
    dataset.save_official(INSTANCES, official)
    assert load(ours) == load(official) == (INSTANCES, [])
    assert dataset.parse(dump_jsonl(INSTANCES).encode()) == (INSTANCES, [])
    assert dataset.parse("\n  " + dump_official(INSTANCES)) == (INSTANCES, [])


def test_the_first_instance_is_number_1_in_both_formats():
    jsonl = "{}\n" + dump_jsonl(INSTANCES[:1])
    [problem] = parse_jsonl(jsonl, "a.jsonl")[1]
    assert problem.position == 1 and str(problem).startswith("a.jsonl: line 1: ")
    first = _minimal_official("first") | {"dataset_type": "chess"}
    [problem] = parse_official(json.dumps([first, _minimal_official()]), "b.json")[1]
    assert problem.position == 1 and str(problem).startswith("b.json: instance 1 (id 'first'): ")


def test_bad_bytes_cost_a_json_line_or_a_whole_json_list(tmp_path):
    ours = tmp_path / "ours.jsonl"
    ours.write_bytes(b"\xff" + dump_jsonl(INSTANCES[:2]).encode())
    loaded, problems = load(ours)
    assert loaded == INSTANCES[1:2]
    assert [(p.position, p.unit, p.field) for p in problems] == [(1, "line", "(text)")]
    assert "not UTF-8 text (invalid start byte at byte 0)" in str(problems[0])
    release = tmp_path / "release.json"
    release.write_bytes(dump_official(INSTANCES[:2]).encode() + b"\xff")
    loaded, problems = load(release)
    assert loaded == [] and [(p.unit, p.field) for p in problems] == [("file", "(file)")]
    assert str(problems[0]).startswith(f"{release}: not UTF-8 text (invalid start byte")


def test_content_hash_is_stable_ignores_the_id_and_sees_every_statement():
    digest = content_hash(FIG6)
    assert len(digest) == 64 and digest == content_hash(parse_jsonl(dump_jsonl([FIG6]))[0][0])
    renamed = parse_jsonl(json.dumps(to_record(FIG6) | {"id": "copy"}))[0][0]
    assert content_hash(renamed) == digest
    record = to_record(FIG6)
    record["statements"][0][3] = not record["statements"][0][3]
    changed = parse_jsonl(json.dumps(record))[0][0]
    assert content_hash(changed) != digest
