"""A study file (server/store/study.py): what a host writes, and the clear refusals of what
cannot work; the form's answers checked as the server stores them."""

from __future__ import annotations

import pytest

from server.cli import main
from server.store.study import StudyError, consent_hash, parse_study
from tests.server.net.test_study import STUDY


def test_a_study_file_reads_as_its_name_consent_text_and_form():
    study = parse_study(STUDY)
    consent = "# Taking part\nYou play games; we keep your moves."
    assert study.name == "pilot" and study.consent == consent
    assert study.consent_hash == consent_hash(consent)
    assert [f.id for f in study.form] == ["age", "english", "note"]
    assert study.form[2].label == "note"  # the id when no label is given
    assert study.check_answers({"english": "some", "age": 30.0, "note": " hi "}) == \
        {"english": "some", "age": 30, "note": "hi"}


@pytest.mark.parametrize("answers, problem", [
    ({}, "English: an answer is required"),
    ({"english": "none"}, "choose one of native, fluent, some"),
    ({"english": "some", "age": 17}, "a number from 18 to 99"),
    ({"english": "some", "age": 30.5}, "a whole number"),
    ({"english": "some", "age": True}, "a number is needed"),
    ({"english": "some", "note": "x" * 11}, "at most 10 characters"),
    ({"english": "some", "shoe": 44}, "no field shoe"),
])
def test_wrong_answers_are_refused_by_field(answers, problem):
    with pytest.raises(StudyError, match=problem):
        parse_study(STUDY).check_answers(answers)


@pytest.mark.parametrize("text, problem", [
    ("# just Markdown", "starts with a \\+\\+\\+ line"),
    ("+++\nname = 'x'\n", "no closing"),
    ("+++\nname = \n+++\ntext", "not valid TOML"),
    ("+++\nname = 'x'\n+++\n   ", "consent text .* is empty"),
    ("+++\ntitle = 'x'\n+++\ntext", "unknown front matter key"),
    ("+++\n[[form]]\nid = 'a'\ntype = 'text'\n+++\ntext", "needs name"),
    ("+++\nname = 'x'\n[[form]]\nid = 'a'\ntype = 'date'\n+++\ntext", "type must be one of"),
    ("+++\nname = 'x'\n[[form]]\nid = 'a'\ntype = 'choice'\nchoices = ['one']\n+++\nt",
     "2..20 different"),
    ("+++\nname = 'x'\n[[form]]\nid = 'a'\ntype = 'number'\nmin = 5\nmax = 1\n+++\nt",
     "min is above max"),
    ("+++\nname = 'x'\n[[form]]\nid = 'a'\ntype = 'text'\n[[form]]\nid = 'a'\n"
     "type = 'text'\n+++\nt", "same id"),
])
def test_a_bad_study_file_says_what_is_wrong(text, problem):
    with pytest.raises(StudyError, match=problem):
        parse_study(text)


def test_parlor_serve_refuses_a_bad_study_file_with_exit_2(tmp_path, capsys):
    bad = tmp_path / "study.md"
    bad.write_text("# no front matter\n")
    with pytest.raises(SystemExit) as exit:
        main(["serve", "--db", str(tmp_path / "p.db"), "--study", str(bad)])
    assert exit.value.code == 2
    assert "--study" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        main(["serve", "--db", str(tmp_path / "p.db"), "--study", str(tmp_path / "none.md")])
    assert exit.value.code == 2
    assert "cannot read" in capsys.readouterr().err
