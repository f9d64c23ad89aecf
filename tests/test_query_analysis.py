"""Query analysis without a database: words in any script, relation targets, stack-trace paths."""

from __future__ import annotations

import pytest

from graphrag_code.query_analysis import analyze, is_identifier


@pytest.mark.parametrize("query, terms", [
    ("计算总和", ["计算总和"]),
    ("Überprüft", ["überprüft"]),
    ("where are Äpfel counted", ["äpfel", "counted"]),
    ("Ölpreis größe", ["ölpreis", "größe"]),
])
def test_words_in_any_script_are_terms(query: str, terms: list[str]) -> None:
    a = analyze(query)
    assert a.terms == terms and a.lucene() == " ".join(terms)


def test_identifiers_in_any_script() -> None:
    a = analyze("where is größePrüfen defined")
    assert a.identifiers == ["größePrüfen"] and a.terms == ["größe", "prüfen"]
    assert is_identifier("größe_prüfen") and is_identifier("ÄnderungSpeichern")
    assert not is_identifier("Überprüft") and not is_identifier("计算总和")


def test_a_message_in_another_language_is_matched_as_a_phrase() -> None:
    a = analyze("Ungültiger Wert für größe")
    assert a.phrases == ["Ungültiger Wert für größe"]
    assert '"ungültiger wert für größe"^2' in a.lucene()


@pytest.mark.parametrize("query, relation, target", [
    ("what calls sign?", "caller", "sign"),
    ("who calls sign", "caller", "sign"),
    ("callers of sign", "caller", "sign"),
    ("where is sign called?", "caller", "sign"),
    ("what calls `sign()`?", "caller", "sign"),
    ("what calls get?", "caller", "get"),                   # a stop word elsewhere, a name here
    ("what does sign call?", "callee", "sign"),
    ("callees of sign", "callee", "sign"),
    ("what calls check_expiry?", "caller", "check_expiry"),
    ("what calls the database", None, None),                # no name to take the callers of
    ("who uses this", None, None),
    ("what calls app/auth.py", None, None),                 # a path, not a name
])
def test_the_target_of_a_relation_question_may_be_a_plain_word(query: str, relation: str | None,
                                                               target: str | None) -> None:
    a = analyze(query)
    assert (a.relation, a.target) == (relation, target)
    if target:
        assert a.names[0] == target
    if target and not is_identifier(target):     # looked for in the full text too, even `get`
        assert target.lower() in a.terms


def test_a_plain_word_outside_a_relation_question_is_no_name() -> None:
    a = analyze("how is the payload signed")
    assert a.names == [] and a.relation is None and a.target is None


def test_absolute_trace_paths_are_kept_whole() -> None:
    """location_seeds matches the longest indexed tail of the whole path; site-packages/ and the like still go."""
    trace = 'File "/home/user/proj/pkg/auth.py", line 12, in x\n  File "/x/site-packages/flask/app.py", line 3, in y'
    assert analyze(trace).locations == [{"path": "home/user/proj/pkg/auth.py", "line": 12},
                                        {"path": "flask/app.py", "line": 3}]


@pytest.mark.parametrize("query, about", [
    ("tests for validate_refresh_token", True), ("where are the tests of the router", True),
    ("which test covers sign", True), ("is there a test for sign", True), ("where is the test client created", True),
    ("fixtures for the database", True),
    ("which function decides if a path is a test file", False), ("how are test files detected", False),
    ("what detects test functions", False), ("how is a file marked as a test", False),
    ("where is the token refreshed", False),
])
def test_a_question_is_about_tests_unless_it_asks_how_tests_are_told_apart(query: str, about: bool) -> None:
    assert analyze(query).about_tests is about
