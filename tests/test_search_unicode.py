"""Full-text search for names and words outside ASCII, against the real Neo4j and its `english` analyzer (which
cuts CJK text into one token per ideograph and keeps accented words whole, on the stored text and queries alike)."""

from __future__ import annotations

import unicodedata

import pytest

from graphrag_code.indexer import index_repository
from graphrag_code.search import Filters, Searcher, SearchOptions

CALC = '''def 计算总和(数字):
    """返回所有数字的总和。"""
    return sum(数字)


def average(values):
    return sum(values) / len(values)
'''
CHECKS = '''def größe_prüfen(wert):
    """Überprüft, ob die Größe gültig ist."""
    return wert > 0


def validate(value):
    return value is not None
'''
CAFE = '''def brew(beans):
    return beans * 2
'''


@pytest.fixture
def unicode_repo(graph, git_repo, repo_name):
    git_repo.write("calc.py", CALC)
    git_repo.write("checks.py", CHECKS)
    git_repo.write("naïve café.py", CAFE)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    return Searcher(graph), repo_name


@pytest.mark.parametrize("query, path, name", [
    ("计算总和", "calc.py", "计算总和"),
    ("where is 计算总和 defined?", "calc.py", "计算总和"),
    ("größe", "checks.py", "größe_prüfen"),
    ("größe_prüfen", "checks.py", "größe_prüfen"),
    ("Überprüft", "checks.py", "größe_prüfen"),
    ("gültig", "checks.py", "größe_prüfen"),
    ("café", "naïve café.py", "brew"),
    ("naïve", "naïve café.py", "brew"),
])
def test_full_text_finds_names_and_words_in_any_script(unicode_repo, query: str, path: str, name: str) -> None:
    searcher, repo = unicode_repo
    res = searcher.search(query, Filters(repo=repo), SearchOptions(k=5, channels=("fulltext",), hops=0))
    assert res.hits, query
    assert (res.hits[0].path, res.hits[0].qualified_name) == (path, name)
    assert res.hits[0].channels == {"fulltext": 1}


def test_a_decomposed_query_finds_the_composed_text(unicode_repo) -> None:
    searcher, repo = unicode_repo
    res = searcher.search(unicodedata.normalize("NFD", "größe"), Filters(repo=repo),
                          SearchOptions(k=5, channels=("fulltext",), hops=0))
    assert res.hits and res.hits[0].qualified_name == "größe_prüfen"


def test_what_calls_a_name_in_another_script(graph, git_repo, repo_name) -> None:
    git_repo.write("calc.py", CALC + "\n\ndef 报告(数字):\n    return 计算总和(数字)\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("what calls 计算总和?", Filters(repo=repo_name),
                                 SearchOptions(k=5, channels=("fulltext", "symbol")))
    assert [h.qualified_name for h in res.hits[:2]] == ["报告", "计算总和"]
