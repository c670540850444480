"""`parlor maze generate` and `parlor maze solve`, through `server.cli.main` as a user runs them:
generated files solve with full agreement, official-format files load, edited answers show up
as DIFFERS, broken files still solve their good instances, bad input exits 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.hidden_role import dataset as hrd
from engine.hidden_role.generator import MAX_ROUNDS
from engine.hidden_role.roles import P1_DISTRIBUTIONS, VARIANTS
from engine.social_graph import dataset as sga
from engine.social_graph.generator import PEOPLE, generate_many
from engine.social_graph.queries import KINDS
from server.cli import main
from server.commands import maze
from server.runs import maze_solve
from tests.hidden_role.helpers import WORKED

TASKS = ("hidden-role", "social-graph")


def generate(capsys, tmp_path: Path, task: str, count: int, *more: str) -> Path:
    """A generated file, its line on stderr checked and cleared."""
    out = tmp_path / f"{task}.jsonl"
    assert main(["maze", "generate", "--task", task, "--count", str(count), "--out", str(out),
                 *more]) == 0
    assert capsys.readouterr().err.startswith(f"parlor maze generate: wrote {count} {task} ")
    return out


def solve(capsys, *args: str) -> tuple[int, list[str], list[str]]:
    """Exit status, stdout lines and stderr lines of `parlor maze solve ARGS`."""
    status = main(["maze", "solve", *args])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err.splitlines()


def refused(capsys, argv: list[str]) -> str:
    """The one stderr line of a command that exits 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("parlor maze")
    return err[0]


@pytest.mark.parametrize("task", TASKS)
def test_generate_then_solve_agrees_on_every_instance(tmp_path, capsys, task):
    out = generate(capsys, tmp_path, task, 6, "--seed", "3")
    status, lines, err = solve(capsys, str(out))  # the task is told from the content
    assert status == 0 and not [e for e in err if "problem" in e]
    assert len(lines) == 7 and all(line.endswith("| agrees") for line in lines[:6])
    assert lines[-1].startswith("agreement: 6 / 6 instances")
    if task == "social-graph":
        assert "pairwise 6/6, membership 6/6, group_count 6/6, pair_count 6/6" in lines[-1]
    status, lines, _ = solve(capsys, str(out), "--task", task, "--json")
    report = json.loads("\n".join(lines))
    assert status == 0 and report["task"] == task and report["problems"] == []
    assert report["agreement"]["agree"] == report["agreement"]["instances"] == 6
    assert all(row["agrees"] for row in report["instances"])


@pytest.mark.parametrize("task", TASKS)
def test_generated_files_are_reproducible_with_seed_s_plus_k(tmp_path, capsys, task):
    assert main(["maze", "generate", "--task", task, "--count", "5"]) == 0
    five = capsys.readouterr().out.splitlines()
    assert main(["maze", "generate", "--task", task, "--count", "2", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == five[3:]
    assert generate(capsys, tmp_path, task, 5).read_text("utf-8").splitlines() == five


def test_hidden_role_options_reach_the_generator(tmp_path, capsys):
    out = generate(capsys, tmp_path, "hidden-role", 3, "--variant", "lunatic", "--players", "10",
                   "--rounds", "4", "--p1", "released")
    instances, problems = hrd.load_jsonl(out)
    assert not problems and len(instances) == 3
    assert {(i.variant, i.n, i.rounds) for i in instances} == {("lunatic", 10, 4)}


def test_social_graph_difficulty_reaches_the_generator(tmp_path, capsys):
    loaded = sga.load(generate(capsys, tmp_path, "social-graph", 3, "--difficulty", "hard"))
    assert not loaded.problems and {i.difficulty for i in loaded.instances} == {"hard"}


def test_official_hidden_role_release_solves_with_full_agreement(tmp_path, capsys):
    release = tmp_path / "release.json"
    hrd.save_official(WORKED.values(), release)
    status, lines, err = solve(capsys, str(release), "--explain")
    assert status == 0 and err == []
    assert "fig6: solver criminal 2, Player 1 Investigator | file criminal 2, Player 1 " \
           "Investigator | agrees" in lines
    assert "fig30: solver criminal 2, Player 1 Lunatic | file criminal 2, Player 1 Lunatic " \
           "| agrees" in lines
    assert sum("Conclusion:" in line for line in lines) == 4  # the kit's explanation
    assert lines[-1] == "agreement: 4 / 4 instances"


def test_official_social_graph_file_solves(tmp_path, capsys):
    path = tmp_path / "relation.json"
    sga.save_official(generate_many(3, "easy", 0), path)
    status, lines, err = solve(capsys, str(path), "--explain")
    assert status == 0 and err == [] and lines[-1].startswith("agreement: 3 / 3 instances")
    assert sum(line.startswith("    groups: {") for line in lines) == 3  # under each instance


def _edit_jsonl(path: Path, index: int, change) -> None:
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    change(records[index])
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")


def test_an_edited_hidden_role_answer_differs(tmp_path, capsys):
    out = generate(capsys, tmp_path, "hidden-role", 5)
    _edit_jsonl(out, 2, lambda r: r["answer"].update(role="Unknown"))
    status, lines, err = solve(capsys, str(out))
    assert status == 0 and err == []
    assert lines[2].startswith("hr-full-6p-2: solver criminal") and lines[2].endswith(
        "Player 1 Unknown | DIFFERS")
    assert sum(line.endswith("| agrees") for line in lines) == 4
    assert lines[-1] == "agreement: 4 / 5 instances (1 DIFFERS)"


def test_an_edited_social_graph_answer_differs_in_both_formats(tmp_path, capsys):
    out = generate(capsys, tmp_path, "social-graph", 4)
    flipped = {}

    def flip(record):  # the kit would refuse this record; maze solve shows it as DIFFERS
        query = record["queries"][0]
        flipped.update(query)
        query["answer"] = "No" if query["answer"] == "Yes" else "Yes"
    _edit_jsonl(out, 1, flip)
    status, lines, err = solve(capsys, str(out))
    assert status == 0 and err == []
    pair = "pairwise " + ",".join(flipped["subject"])
    right, wrong = flipped["answer"], "No" if flipped["answer"] == "Yes" else "Yes"
    assert lines[1].startswith(f"sga-easy-1: solver {pair}: {right}; membership ")
    assert f"| file {pair}: {wrong}; membership " in lines[1]
    assert lines[1].endswith("| DIFFERS")
    assert lines[-1].startswith("agreement: 3 / 4 instances (1 DIFFERS); by query type: "
                                "pairwise 3/4, membership 4/4")

    official = tmp_path / "relation.json"
    sga.save_official(generate_many(4, "easy", 0), official)
    records = json.loads(official.read_text("utf-8"))
    records[6]["answer"] = "17"  # instance 1's group count
    official.write_text(json.dumps(records), "utf-8")
    status, lines, err = solve(capsys, str(official), "--json")
    report = json.loads("\n".join(lines))
    assert status == 0 and err == [] and report["problems"] == []
    assert report["agreement"]["agree"] == 3 and report["agreement"]["instances"] == 4
    assert report["agreement"]["by_query_type"]["group_count"] == {"agree": 3, "queries": 4}
    wrong = [q for q in report["instances"][1]["queries"] if not q["agrees"]]
    assert [(q["kind"], q["subject"], q["file"]) for q in wrong] == [("group_count", [], "17")]


def test_a_wrong_released_membership_answer_differs_with_its_subject(tmp_path, capsys):
    official = tmp_path / "relation.json"
    instances = generate_many(3, "easy", 0)
    sga.save_official(instances, official)
    records = json.loads(official.read_text("utf-8"))
    query = instances[2].queries[1]  # instance 3's membership query is record 4 * 2 + 1
    assert records[9]["answer"] == query.answer
    records[9]["answer"] = "A, B" if query.answer != "A, B" else "C"
    official.write_text(json.dumps(records), "utf-8")
    status, lines, err = solve(capsys, str(official))
    assert status == 0 and err == []
    [differs] = [line for line in lines if line.endswith("| DIFFERS")]
    subject = f"membership {query.subject[0]}"
    assert differs.startswith(f"{instances[2].id}: solver ")
    assert f"{subject}: {query.answer};" in differs.split(" | ")[0]
    assert f"{subject}: {records[9]['answer']};" in differs.split(" | ")[1]
    assert lines[-1].startswith("agreement: 2 / 3 instances (1 DIFFERS)")


def test_a_truncated_official_file_solves_its_good_instances(tmp_path, capsys):
    release = tmp_path / "release.json"
    hrd.save_official(WORKED.values(), release)
    data = json.loads(release.read_text("utf-8"))
    data[1]["statements"][0]["statements"][2]["statement_type"] = "maybe"
    text = json.dumps(data, indent=1)
    release.write_text(text[:text.index('"scenario_id": "fig30"') + 30], "utf-8")  # cut in fig30
    status, lines, err = solve(capsys, str(release), "--task", "hidden-role")
    assert status == 0
    assert len(err) == 2
    assert "instance 2 (id 'fig14')" in err[0] and "statements[0].statements[2]" \
           ".statement_type" in err[0] and str(release) in err[0]
    assert "instance 4" in err[1] and "fig30" in err[1] and "truncated" in err[1]
    assert [line.split(":")[0] for line in lines[:-1]] == ["fig6", "fig22"]
    assert lines[-1] == ("agreement: 2 / 2 instances; 2 problems in the file (listed on "
                         "stderr): those instances were not solved")


def test_a_malformed_jsonl_file_solves_its_good_instances(tmp_path, capsys):
    out = generate(capsys, tmp_path, "social-graph", 4)
    _edit_jsonl(out, 1, lambda r: r["statements"][2].update(relation="meh"))
    out.write_text(out.read_text("utf-8")[:-200], "utf-8")  # the last line is cut short
    status, lines, err = solve(capsys, str(out))
    assert status == 0 and len(err) == 2
    assert "line 2, instance 2, id 'sga-easy-1'" in err[0] and "statements[2].relation" in err[0]
    assert "line 4" in err[1] and "truncated?" in err[1]
    assert [line.split(":")[0] for line in lines[:-1]] == ["sga-easy-0", "sga-easy-2"]
    assert lines[-1].startswith("agreement: 2 / 2 instances")
    assert lines[-1].endswith("2 problems in the file (listed on stderr): those instances "
                              "were not solved")


def test_a_line_of_bad_bytes_is_a_problem_and_the_rest_solve(tmp_path, capsys):
    out = generate(capsys, tmp_path, "social-graph", 3)
    lines = out.read_bytes().split(b"\n")
    out.write_bytes(b"\n".join([lines[0], lines[1].replace(b'"easy"', b'"\xe9asy"', 1),
                                 *lines[2:]]))
    status, rows, err = solve(capsys, str(out))
    assert status == 0 and len(err) == 1
    assert f"{out} (line 2, instance 2): field '<record>': not UTF-8 text" in err[0]
    assert [row.split(":")[0] for row in rows[:-1]] == ["sga-easy-0", "sga-easy-2"]


def test_a_hidden_role_file_is_read_by_its_content_whatever_its_name(tmp_path, capsys):
    ours = tmp_path / "puzzles.json"  # our JSON Lines under a name that looks like the release
    generate(capsys, tmp_path, "hidden-role", 3).rename(ours)
    status, lines, err = solve(capsys, str(ours))
    assert status == 0 and err == [] and lines[-1] == "agreement: 3 / 3 instances"
    release = tmp_path / "release.jsonl"  # and the release under a JSON Lines name
    hrd.save_official(WORKED.values(), release)
    status, lines, err = solve(capsys, str(release))
    assert status == 0 and err == [] and lines[-1] == "agreement: 4 / 4 instances"


def test_problems_count_instances_from_1_in_both_tasks(tmp_path, capsys):
    release = tmp_path / "release.json"
    hrd.save_official(WORKED.values(), release)
    data = json.loads(release.read_text("utf-8"))
    data[0]["dataset_type"] = "chess"
    release.write_text(json.dumps(data), "utf-8")
    status, _, err = solve(capsys, str(release), "--task", "hidden-role")
    assert status == 0 and len(err) == 1 and ": instance 1 (id 'fig6'): dataset_type:" in err[0]
    out = generate(capsys, tmp_path, "social-graph", 2)
    _edit_jsonl(out, 0, lambda r: r.update(difficulty="medium"))
    status, _, err = solve(capsys, str(out))
    assert status == 0 and len(err) == 1
    assert "(line 1, instance 1, id 'sga-easy-0'): field 'difficulty'" in err[0]


def test_unreadable_files_exit_2(tmp_path, capsys):
    assert "no such file" in refused(capsys, ["maze", "solve", str(tmp_path / "nope.json")])
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", "utf-8")
    assert "empty" in refused(capsys, ["maze", "solve", str(empty)])
    prose = tmp_path / "notes.txt"
    prose.write_text("not a dataset\n", "utf-8")
    line = refused(capsys, ["maze", "solve", str(prose)])
    assert "cannot tell which task" in line and "--task hidden-role" in line
    status, lines, err = solve(capsys, str(prose), "--task", "hidden-role")
    assert status == 2 and lines == [] and "line 1" in err[0]
    assert err[-1] == f"parlor maze solve: no hidden-role instance could be read from {prose}"


@pytest.mark.parametrize(("argv", "says"), [
    (["maze", "solve", "x.json", "--task", "chess"], "tasks: hidden-role, social-graph"),
    (["maze", "generate", "--count", "2"], "--task is required"),
    (["maze", "generate", "--task", "chess", "--count", "2"],
     "tasks: hidden-role, social-graph, rating-estimation, review-decision, user-profile"),
    (["maze", "generate", "--task", "user-profile", "--count", "1", "--query", "group"],
     "mixed or user or item"),
    (["maze", "generate", "--task", "rating-estimation", "--count", "1", "--query", "user"],
     "--query is a user-profile option; rating-estimation takes no options"),
    (["maze", "generate", "--task", "hidden-role"], "--count N is required"),
    (["maze", "generate", "--task", "hidden-role", "--count", "0"], "at least 1"),
    (["maze", "generate", "--task", "hidden-role", "--count", "two"], "whole number"),
    (["maze", "generate", "--task", "hidden-role", "--count", "1", "--variant", "classic"],
     "original or rumormonger or lunatic or full"),
    (["maze", "generate", "--task", "hidden-role", "--count", "1", "--players", "7"],
     "6 or 10"),
    (["maze", "generate", "--task", "hidden-role", "--count", "1", "--rounds", "0"],
     "from 1 to 10"),
    (["maze", "generate", "--task", "hidden-role", "--count", "1", "--p1", "skewed"],
     "uniform or released"),
    (["maze", "generate", "--task", "social-graph", "--count", "1", "--difficulty", "medium"],
     "easy or hard"),
    (["maze", "generate", "--task", "social-graph", "--count", "1", "--players", "6"],
     "--players is a hidden-role option; social-graph takes --difficulty"),
    (["maze", "generate", "--task", "hidden-role", "--count", "1", "--difficulty", "hard"],
     "hidden-role takes --variant, --players, --rounds, --p1"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, says):
    assert says in refused(capsys, argv)


def test_an_existing_out_file_is_refused_without_force(tmp_path, capsys):
    out = tmp_path / "mine.jsonl"
    out.write_text("keep me\n", "utf-8")
    argv = ["maze", "generate", "--task", "social-graph", "--count", "2", "--out", str(out)]
    assert "add --force" in refused(capsys, argv)
    assert out.read_text("utf-8") == "keep me\n"
    assert main([*argv, "--force"]) == 0 and len(out.read_text("utf-8").splitlines()) == 2
    capsys.readouterr()
    assert "no folder" in refused(capsys, [*argv[:-1], str(tmp_path / "no" / "x.jsonl")])


def test_the_choices_are_the_kits():
    assert maze.VARIANTS == VARIANTS and maze.P1 == tuple(P1_DISTRIBUTIONS)
    assert maze.MAX_ROUNDS == MAX_ROUNDS and maze.DIFFICULTIES == tuple(PEOPLE)
    assert maze_solve.KINDS == tuple(str(k) for k in KINDS)


def test_the_command_line_loads_no_kit_until_a_maze_command_runs():
    code = ("import sys, server.commands.maze; "
            "print([m for m in sys.modules if m.startswith(('engine.hidden_role', "
            "'engine.social_graph'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
