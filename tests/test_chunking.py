"""Module-level code, a long class's own lines and the rest of an OpenAPI file are packed across blank lines
(a module docstring is one chunk, not one per paragraph), never across a definition, and within the budget."""

from __future__ import annotations

from graphrag_code.chunking import LineTokens, packed
from graphrag_code.staging import extract_file

MODULE = '''"""How does X reach Y.

The library behind ``path X Y``::

    find_paths(graph, "shop", "a", "b")

Endpoints may be a symbol id or a phrase.
"""

from __future__ import annotations

import math
import re

LIMIT = 8


def f():
    return LIMIT


AFTER = 1

OTHER = 2
'''


def _spans(chunks, kind):
    return [(c.start_line, c.end_line) for c in chunks if c.kind == kind]


def test_a_module_docstring_and_the_code_up_to_the_first_definition_are_one_chunk() -> None:
    ex = extract_file("python", MODULE, 1000, "paths.py")
    assert _spans(ex.chunks, "symbol") == [(18, 19)]
    # 1-15: docstring paragraphs, imports, constant; 22-24 after f, which ends the first range
    assert _spans(ex.chunks, "module") == [(1, 15), (22, 24)]
    assert ex.chunks[1].text.startswith('"""How does X reach Y.') and ex.chunks[1].text.endswith("LIMIT = 8")


def test_packing_stops_at_the_budget_and_every_non_blank_line_stays_in_a_chunk() -> None:
    ex = extract_file("python", MODULE, 12, "paths.py")
    module = _spans(ex.chunks, "module")
    assert len(module) > 2
    tok = LineTokens(MODULE.split("\n"))
    for start, end in module:
        lines = [ln for ln in range(start, end + 1) if not tok.blank(ln)]
        assert tok.count(start, end) <= 12 or len(lines) == 1 or start == end
    covered = {ln for c in ex.chunks for ln in range(c.start_line, c.end_line + 1)}
    assert all(ln in covered for ln in range(1, len(MODULE.split("\n")) + 1) if not tok.blank(ln))


def test_a_paragraph_over_the_budget_is_windowed_and_joins_neither_neighbour() -> None:
    lines = ["a = 1", "", "b = [", *[f"    {i}, {i}, {i}," for i in range(6)], "]", "", "c = 3"]
    tok = LineTokens(lines)
    non_blank = [ln for ln in range(1, len(lines) + 1) if not tok.blank(ln)]
    ranges = packed(tok, non_blank, 15)
    assert ranges[0] == (1, 1) and ranges[-1] == (len(lines), len(lines))
    middle = ranges[1:-1]
    assert len(middle) > 1 and middle[0][0] == 3 and middle[-1][1] == len(lines) - 2
    assert all(tok.count(s, e) <= 15 for s, e in middle)


def test_a_line_a_definition_covers_ends_a_range_even_when_the_budget_has_room() -> None:
    lines = ["x = 1", "y = 2", "z = 3", "", "w = 4"]
    tok = LineTokens(lines)
    assert packed(tok, [1, 3, 5], 1000) == [(1, 1), (3, 5)]


def test_underlined_titles_cut_markdown_and_restructuredtext_into_sections() -> None:
    from graphrag_code.chunking import markdown_chunks

    text = ("Project\n=======\n\nIntro text.\n\nInstall\n-------\n\npip install x\n\n#######\nUsage\n#######\n\n"
            "Run it.\n\n```\ncode\n----\n```\n\n# Atx\n\nbody\n")
    got = [(c.start_line, c.end_line, c.title) for c in markdown_chunks(text.split("\n")[:-1], 1000)]
    # the overlined title starts at its overline; `----` inside the fence is code, not an underline
    assert got == [(1, 4, "Project"), (6, 9, "Install"), (11, 20, "Usage"), (22, 24, "Atx")]


def test_a_crlf_file_s_chunks_hold_its_lines_without_their_terminators() -> None:
    """An eleventh QA pass: a search hit in a CRLF file ended in a stray `\\r` (its last line's `\\r` without the
    `\\n`), and its other lines kept theirs, unlike a lone-CR file's (read with LFs) and `/v1/source`'s lines."""
    chunks = extract_file("python", "def crlf_func(a):\r\n    return helper_crlf(a)\r\n\r\n\r\n"
                                    "def helper_crlf(b):\r\n    return b\r\n", 400, "crlf.py").chunks
    assert [(c.text, c.start_line, c.end_line) for c in chunks] == [
        ("def crlf_func(a):\n    return helper_crlf(a)", 1, 2), ("def helper_crlf(b):\n    return b", 5, 6)]
