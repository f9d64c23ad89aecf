"""The identifier-split text of the full-text index, in every script: what `search_text` stores."""

from __future__ import annotations

import unicodedata

import pytest

from graphrag_code.textutil import search_text, split_identifier


@pytest.mark.parametrize("word, parts", [
    ("größePrüfen", ["größe", "prüfen"]),
    ("ÄnderungSpeichern", ["änderung", "speichern"]),
    ("größe_prüfen", ["größe", "prüfen"]),
    ("计算Total", ["计算", "total"]),
    ("计算总和", ["计算总和"]),
])
def test_split_identifier_in_any_script(word: str, parts: list[str]) -> None:
    assert split_identifier(word) == parts
    # the same rules as on ASCII identifiers, which split as they always did
    assert [split_identifier(w) for w in ("parseHTTPFlow_v2", "XMLHttpRequest", "__init__")] == [
        ["parse", "http", "flow", "v", "2"], ["xml", "http", "request"], ["init"]]


def test_identifiers_and_words_in_any_script_are_kept_whole() -> None:
    text = search_text("naïve café.py", "计算总和", 'def größe_prüfen(数字):\n    """Überprüft die Größe."""')
    assert text == "naïve café py 计算总和 def größe_prüfen größe prüfen 数字 überprüft die größe"
    # ASCII text as before: digits never start a word, identifiers are followed by their parts
    assert search_text("app/auth.py", "OrderService.cancel", "def parseFlow(x_1, 2fa_token):") == (
        "app auth py orderservice order service cancel def parseflow parse flow x_1 x 1 fa_token fa token")


def test_combining_marks_stay_inside_their_word() -> None:
    assert search_text("नमस्ते दुनिया") == "नमस्ते दुनिया"      # virama and vowel signs are marks, not `\w`
    decomposed = unicodedata.normalize("NFD", "café")
    assert search_text(decomposed) == "café"                    # one word, composed as queries are
    assert search_text("ｐａｒｓｅＦｌｏｗ") == "parseflow parse flow"   # NFKC, as Python reads identifiers
