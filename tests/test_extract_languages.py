"""Per-language fixtures: the extractor must find exactly the definitions, calls, imports and bases listed in
each ``tests/fixtures/lang/<language>/<file>.expected.json`` (written by hand from reading the fixture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphrag_code.extract import extract, load_query, summarize
from graphrag_code.languages import LANGUAGES, language_for_path

FIXTURES = Path(__file__).parent / "fixtures" / "lang"
CASES = sorted(p for p in FIXTURES.glob("*/*") if not p.name.endswith(".expected.json")
               and p.with_name(p.name + ".expected.json").exists())


def _key(item: dict) -> str:
    return json.dumps(item, sort_keys=True)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_extraction_is_exact(path: Path) -> None:
    expected = json.loads(path.with_name(path.name + ".expected.json").read_text())
    language = expected.get("language") or language_for_path(path.name)
    got = summarize(extract(path.read_bytes(), language))
    assert got["parse_status"] == expected["parse_status"]
    for section in ("definitions", "calls", "imports", "bases"):
        want = sorted(map(_key, expected[section]))
        have = sorted(map(_key, got[section]))
        missing = [json.loads(k) for k in want if k not in have]
        extra = [json.loads(k) for k in have if k not in want]
        assert not missing and not extra, f"{section}: missing {missing}, unexpected {extra}"


def test_every_language_has_a_fixture() -> None:
    covered = {p.parent.name for p in CASES}
    assert set(LANGUAGES) <= covered, f"languages without a fixture: {sorted(set(LANGUAGES) - covered)}"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_query_files_load_and_use_known_captures(language: str) -> None:
    query = load_query(language)
    names = {query.capture_name(i) for i in range(query.capture_count)}
    assert "name" in names and any(n.startswith("definition.") for n in names)
    assert "reference.call" in names
