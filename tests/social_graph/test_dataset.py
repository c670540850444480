"""Instance files: our JSONL format and the authors' released format round-trip; broken records
are reported precisely (file, line, instance, id, field) while every other record still loads."""

import json

import pytest

from engine.social_graph import dataset
from engine.social_graph.generator import generate
from engine.social_graph.queries import Kind
from tests.social_graph.helpers import GROUPS, official_record

INSTANCES = [generate(seed, difficulty) for seed in range(6) for difficulty in ("easy", "hard")]


def test_jsonl_round_trip(tmp_path):
    path = tmp_path / "sga.jsonl"
    dataset.save_jsonl(INSTANCES, path)
    loaded = dataset.load_jsonl(path)
    assert loaded.problems == [] and loaded.instances == INSTANCES
    assert dataset.load(path) == loaded
    first = json.loads(path.read_text().splitlines()[0])
    assert first["format"] == dataset.FORMAT and first["sha256"] == INSTANCES[0].content_hash()


def test_official_round_trip(tmp_path):
    path = tmp_path / "relation_mixed.json"
    dataset.save_official(INSTANCES, path)
    records = json.loads(path.read_text())
    assert len(records) == 4 * len(INSTANCES)
    assert set(records[0]) >= {"system_prompt", "user_prompt", "answer"}
    loaded = dataset.load_official(path)
    assert loaded.problems == []
    for before, after in zip(INSTANCES, loaded.instances, strict=True):
        assert after.content_hash() == before.content_hash()
        assert (after.id, after.queries, after.partition) == (before.id, before.queries,
                                                              before.partition)
    assert dataset.load(path).instances == loaded.instances


def test_records_in_the_released_shape_load_and_merge(tmp_path):
    folder = tmp_path / "hard"
    folder.mkdir()
    records = [
        official_record("Do B and G have a good relationship?", "Yes"),
        official_record("Who has a good relationship with H?", "E"),
        official_record("How many groups of people are there?", "Final Answer: 2"),
        official_record("How many pairs of people have good/bad relationships?",
                        "16 pairs have good relationships, 12 pairs have bad relationships"),
    ]
    path = folder / "relation_all.json"
    path.write_text(json.dumps(records, indent=2))
    loaded = dataset.load(path)
    assert loaded.problems == []
    [instance] = loaded.instances  # one graph, four queries
    assert instance.id == "hard/relation_all-1" and instance.difficulty == "hard"  # from 1
    assert instance.partition.groups == GROUPS
    assert [q.kind for q in instance.queries] == list(Kind)
    assert instance.queries[2].answer == "2"
    assert instance.statements[0].text == "C and H have a bad relationship"


def test_released_records_as_json_lines_with_prompt(tmp_path):
    record = official_record("Who has a good relationship with A?", "G, F, D, C, B")
    record["prompt"] = record.pop("user_prompt")
    path = tmp_path / "relation_group.jsonl"
    path.write_text(json.dumps(record) + "\n\n" + json.dumps(record) + "\n")
    loaded = dataset.load(path)
    assert loaded.problems == [] and len(loaded.instances) == 1
    assert loaded.instances[0].difficulty == "easy"  # 8 people
    assert [q.answer for q in loaded.instances[0].queries] == ["B, C, D, F, G"] * 2


def _edited(instance, edit):
    """Our JSONL line for `instance` after `edit` changed its record in place."""
    record = instance.to_dict()
    edit(record)
    return json.dumps(record)


def test_broken_jsonl_records_are_named_and_the_rest_load(tmp_path):
    good = [generate(seed, "easy") for seed in range(4)]
    bad_source = generate(9, "easy")
    lines = [
        dataset.dumps(good[0]),
        '{"format": "parlor.social_graph/1", "id": ',  # 2: broken JSON
        _edited(bad_source, lambda r: r.pop("groups")),  # 3
        _edited(bad_source, lambda r: r["statements"][2].update(relation="meh")),  # 4
        _edited(bad_source, lambda r: r["queries"][1].update(answer="Z")),  # 5
        dataset.dumps(good[1]),
        _edited(bad_source, lambda r: r["statements"][0].update(text="Q and R get along.")),  # 7
        _edited(bad_source, lambda r: r.update(sha256="0" * 64)),  # 8
        _edited(bad_source, lambda r: r.update(groups=[r["people"]])),  # 9
        "",
        _edited(bad_source, lambda r: r.update(seed=True)),  # 11
        dataset.dumps(good[2]),
        '"just a string"',  # 13
        _edited(bad_source, lambda r: r["queries"][0].update(kind="riddle")),  # 14
        dataset.dumps(good[3]),
    ]
    path = tmp_path / "broken.jsonl"
    text = "\n".join(lines) + "\n"
    cut = dataset.dumps(bad_source)
    path.write_bytes(text.encode() + b"\xff\xfe not utf-8\n" + cut[: len(cut) // 2].encode())
    loaded = dataset.load_jsonl(path)
    assert loaded.instances == good
    found = [(p.line, p.index, p.instance_id, p.field) for p in loaded.problems]
    sid = bad_source.id
    assert found == [  # records count from 1: the first is instance 1
        (2, 2, None, "<record>"),
        (3, 3, sid, "groups"),
        (4, 4, sid, "statements[2].relation"),
        (5, 5, sid, "queries[1].answer"),
        (7, 7, sid, "statements[0].text"),
        (8, 8, sid, "sha256"),
        (9, 9, sid, "groups"),
        (11, 10, sid, "seed"),  # the blank line 10 is no record
        (13, 12, None, "<record>"),
        (14, 13, sid, "queries[0].kind"),
        (16, 15, None, "<record>"),
        (17, 16, None, "<record>"),
    ]
    messages = [str(p) for p in loaded.problems]
    assert all(message.startswith(str(path)) for message in messages)
    assert messages[1].endswith(f"(line 3, instance 3, id '{sid}'): field 'groups': missing")
    assert "expected 'good' or 'bad', got 'meh'" in messages[2]
    assert "'Z' is wrong; the statements give" in messages[3]
    assert "does not state" in messages[4]
    assert "the statements give" in messages[6]
    assert "not UTF-8" in messages[10]
    assert "truncated?" in messages[11]


def test_a_contradictory_jsonl_record_is_refused(tmp_path):
    source = generate(3, "easy")
    record = source.to_dict()
    a, b = source.partition.groups[0][:2]
    record["statements"].append({"a": a, "b": b, "relation": "bad", "text": f"{a} and {b} are "
                                 "on bad terms."})
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(record) + "\n")
    [problem] = dataset.load_jsonl(path).problems
    assert problem.field == "statements" and "chain of good relationships" in problem.message


def test_broken_released_records_are_named_and_the_rest_load(tmp_path):
    contradiction = official_record("How many groups of people are there?", "2")
    contradiction["user_prompt"] = contradiction["user_prompt"].replace(
        "E and G have a bad relationship", "E and G have a bad relationship\nB and G have a bad "
        "relationship")
    records = [
        official_record("Do B and G have a good relationship?", "Yes"),
        official_record("Do C and H have a good relationship?", "Yes"),  # wrong answer
        {"system_prompt": "rules", "answer": "Yes"},  # no prompt
        contradiction,
        official_record("What is the weather like?", "Sunny"),
        official_record("Who has a good relationship with A?", "maybe B"),
        official_record("How many groups of people are there?", "2"),
        official_record("How many pairs of people have good/bad relationships?",
                        "16 pairs have good relationships, 12 pairs have bad relationships"),
    ]
    text = json.dumps(records, indent=2)
    path = tmp_path / "relation_cut.json"
    path.write_text(text[: text.rindex("16 pairs")])  # truncated inside the last record
    loaded = dataset.load_official(path)
    [instance] = loaded.instances
    assert [q.answer for q in instance.queries] == ["Yes", "2"]
    found = [(p.index, p.field) for p in loaded.problems]
    assert found == [(2, "answer"), (3, "user_prompt"), (4, "user_prompt"), (5, "user_prompt"),
                     (6, "answer"), (8, "<record>")]
    messages = [str(p) for p in loaded.problems]
    assert "'Yes' is wrong; the sentences give 'No'" in messages[0]
    assert "missing" in messages[1]
    assert "chain of good relationships" in messages[2]
    assert "no question of a known kind" in messages[3]
    assert "is not a membership answer" in messages[4]
    assert "truncated?" in messages[5] and messages[5].startswith(str(path))


def _flip(record):
    """Make the pairwise answer of a JSONL record wrong, its stored hash left as it was."""
    query = record["queries"][0]
    query["answer"] = "No" if query["answer"] == "Yes" else "Yes"


def test_check_answers_false_keeps_wrong_answers_and_checks_the_rest():
    source = generate(5, "easy")
    flipped = source.to_dict()
    _flip(flipped)
    with pytest.raises(dataset.FieldError, match="is wrong"):
        dataset.instance_from_dict(flipped)
    kept = dataset.instance_from_dict(flipped, check_answers=False)
    assert kept.queries[0].answer == flipped["queries"][0]["answer"] != source.queries[0].answer
    assert kept.queries[1:] == source.queries[1:]
    dataset.validate(kept, check_answers=False)
    with pytest.raises(dataset.FieldError):
        dataset.validate(kept)
    rehashed = {**flipped, "sha256": kept.content_hash()}  # edited and hashed again: fine too
    assert dataset.instance_from_dict(rehashed, check_answers=False) == kept
    for broken in ({**flipped, "sha256": "0" * 64},  # a hash of neither content
                   {**flipped, "groups": [flipped["people"]]}):
        with pytest.raises(dataset.FieldError):
            dataset.instance_from_dict(broken, check_answers=False)
    unreadable = source.to_dict()
    unreadable["queries"][2]["answer"] = "many"  # not a group count at all
    with pytest.raises(dataset.FieldError, match="is not a group_count answer"):
        dataset.instance_from_dict(unreadable, check_answers=False)
    data = (json.dumps(flipped) + "\n" + json.dumps(unreadable) + "\n").encode()
    loaded = dataset.read(data, "x.jsonl", check_answers=False)
    assert loaded.instances == [kept] and [p.index for p in loaded.problems] == [2]


def test_check_answers_false_keeps_wrong_released_answers(tmp_path):
    records = [official_record("Do C and H have a good relationship?", "Final Answer: yes"),
               official_record("How many groups of people are there?", "3"),
               official_record("Who has a good relationship with A?", "maybe B")]
    path = tmp_path / "relation_mixed.json"
    path.write_text(json.dumps(records))
    assert len(dataset.load_official(path).problems) == 3
    for loaded in (dataset.load_official(path, check_answers=False),
                   dataset.load(path, check_answers=False)):
        [instance] = loaded.instances
        assert [(q.kind, q.subject, q.answer) for q in instance.queries] == [
            (Kind.PAIRWISE, ("C", "H"), "Yes"), (Kind.GROUP_COUNT, (), "3")]  # as written
        [problem] = loaded.problems
        assert (problem.index, problem.field) == (3, "answer")


def test_the_first_record_is_instance_1_in_both_formats():
    good = dataset.dumps(generate(1, "easy"))
    [problem] = dataset.read(b"{}\n" + good.encode(), "a.jsonl").problems
    assert (problem.line, problem.index) == (1, 1)
    assert str(problem).startswith("a.jsonl (line 1, instance 1): ")
    records = [official_record("What is the weather like?", "Sunny"),
               official_record("How many groups of people are there?", "2")]
    loaded = dataset.read(json.dumps(records).encode(), "easy/relation_cluster.json")
    [problem] = loaded.problems
    assert str(problem).startswith("easy/relation_cluster.json (instance 1, id "
                                   "'easy/relation_cluster-1'): ")
    assert [i.id for i in loaded.instances] == ["easy/relation_cluster-2"]


def test_a_file_that_is_not_json_at_all(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text("[ this is not json")
    loaded = dataset.load(path)
    assert loaded.instances == [] and [p.field for p in loaded.problems] == ["<record>"]


@pytest.mark.parametrize("load", [dataset.load, dataset.load_jsonl, dataset.load_official])
def test_a_missing_file_is_a_problem_not_a_crash(tmp_path, load):
    loaded = load(tmp_path / "nope.jsonl")
    assert loaded.instances == []
    [problem] = loaded.problems
    assert (problem.index, problem.field) == (None, "<file>")
    assert str(problem) == f"{tmp_path / 'nope.jsonl'}: field '<file>': cannot read: No such " \
                           f"file or directory"


def test_a_released_array_that_is_not_utf8_is_a_problem_not_a_crash(tmp_path):
    text = json.dumps([official_record("How many groups of people are there?", "2")])
    path = tmp_path / "relation_cluster.json"
    path.write_bytes(text.replace("rules", "r\u00e8gles").encode("latin-1"))
    loaded = dataset.load(path)
    assert loaded.instances == []
    [problem] = loaded.problems
    assert (problem.index, problem.field) == (None, "<file>")
    assert "not UTF-8 text (invalid continuation byte at byte" in problem.message


def test_released_json_lines_are_decoded_line_by_line(tmp_path):
    line = json.dumps(official_record("How many groups of people are there?", "2"))
    path = tmp_path / "relation_cluster.jsonl"
    path.write_bytes(b"\xff" + line.encode() + b"\n" + line.encode() + b"\n")
    loaded = dataset.load(path)
    assert len(loaded.instances) == 1
    [problem] = loaded.problems
    assert (problem.line, problem.index, problem.field) == (1, 1, "<record>")
    assert "not UTF-8 text" in problem.message


def test_a_list_cut_after_a_whole_record(tmp_path):
    text = json.dumps([official_record("How many groups of people are there?", "2")], indent=2)
    path = tmp_path / "relation_cluster.json"
    path.write_text(text.rstrip().rstrip("]"))
    loaded = dataset.load(path)
    assert len(loaded.instances) == 1
    [problem] = loaded.problems
    assert problem.index == 2 and "before the list is closed (truncated?)" in problem.message
