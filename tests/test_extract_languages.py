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


def test_a_cpp_header_is_parsed_as_cpp_and_a_c_header_as_c() -> None:
    from graphrag_code.languages import refine_language
    cpp = b"#pragma once\nstruct Node {\n  Edge* in_edge() const { return in_edge_; }\n  Edge* in_edge_;\n};\n" \
          b"class Builder : public Base {\n public:\n  virtual bool Build() = 0;\n};\n"
    c = b'#ifdef __cplusplus\nextern "C" {\n#endif\nstruct s { int a; };\ntypedef struct { int b; } t;\nint f(void);\n'
    assert refine_language("c", "src/graph.h", cpp) == "cpp"
    assert refine_language("c", "include/lz4.h", c) == "c"
    assert refine_language("c", "src/x.c", cpp) == "c"                  # only headers are ambiguous
    names = {d.qualified_name for d in extract(cpp, "cpp").definitions}
    assert {"Node", "Node.in_edge", "Builder", "Builder.Build"} <= names


def test_the_indexer_stores_a_cpp_header_as_cpp(graph, git_repo, repo_name) -> None:
    from graphrag_code.indexer import index_repository
    git_repo.write("src/graph.h", "struct Node {\n  int in_edge() const { return 1; }\n};\n")
    git_repo.write("src/graph.cc", '#include "graph.h"\nint use(Node* n) { return n->in_edge(); }\n')
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    nodes = graph.run("repo_dump", repo=repo_name)[0]["nodes"]
    header = [n["props"] for n in nodes if "File" in n["labels"] and n["props"]["path"] == "src/graph.h"][0]
    assert header["language"] == "cpp"
    assert f"{repo_name}:src/graph.h#Node.in_edge" in {n["props"]["id"] for n in nodes if "Symbol" in n["labels"]}


@pytest.mark.parametrize("source", [
    b"def f(x):\n    if isinstance(x:\n        x.m()\n",
    b"def f(xs):\n    for a, b in zip(:\n        b.m()\n",
    b"def f():\n    try:\n        pass\n    except (A, as e:\n        e.m()\n",
    b"def f(ps):\n    sorted(ps, key=)\n    ps.register(Foo(, 'x')\n    g(ps[0], *)\n",
])
def test_broken_python_around_the_typing_rules_is_extracted_with_a_warning(source: bytes) -> None:
    result = extract(source, "python")
    assert result.parse_status == "partial" and result.warnings
    assert [d.qualified_name for d in result.definitions][:1] == ["f"]


def test_a_long_javascript_test_suite_is_chunked_as_a_container_of_its_tests() -> None:
    """`describe('cache', () => { ... test('a', ...) ... })` over the token budget: the suite's chunks hold its own
    lines (its set-up), each test has its chunk; no test's lines are in two chunks."""
    from graphrag_code.staging import extract_file

    body = "\n".join(f"    expect(cache.find({i})).toBe({i})" for i in range(12))
    source = f"""import {{ describe, test }} from 'vitest'
describe('cache', () => {{
  const cache = make()
  test('a', () => {{
{body}
  }})
  test('b', () => {{
{body}
  }})
}})
"""
    ex = extract_file("typescript", source, 250, "c.test.ts")
    names = [d.qualified_name for d in ex.definitions]
    assert names == ["describe cache", "describe cache.test a", "describe cache.test b"]
    by_def = {}
    for c in ex.chunks:
        by_def.setdefault(names[c.definition] if c.definition is not None else None, []).append((c.start_line, c.end_line))
    assert by_def["describe cache.test a"] == [(4, 17)] and by_def["describe cache.test b"] == [(18, 31)]
    suite_lines = {ln for s, e in by_def["describe cache"] for ln in range(s, e + 1)}
    assert 3 in suite_lines and not suite_lines & set(range(4, 32))


REQUIRE_CONTEXTS = """\
require('stmt');
use(require('arg'));
require('callee')();
exported = require('assigned');
total += require('augmented');
const table = {key: require('pair')};
const list = [require('array')];
const pick = flag ? require('ternary') : null;
const both = base || require('binary');
const wrapped = (require('paren'));
const seq = (0, require('sequence'));
const spread = [...require('spread')];
async function f() { await require('await'); }
function g() { return require('returned'); }
const lazy = () => require('arrow');
const indexed = require('subscript')[key];
const deep = require('member').a.b;
use(require('argmember').name);
const plain = require('declared');
const { one } = require('destructured');
const named = require('declaredmember').name;
if (require('condition')) {}
new (require('constructed'))();
const text = `${require('template')}`;
const cell = table[require('index')];
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_require_outside_a_declaration_is_an_import_in_the_contexts_that_read_one(language: str) -> None:
    """`require(...)` in a statement, argument, callee, assigned, returned or spread value, an operand; its
    `.name` and `[key]` forms once (not also the call inside them); declarations by their own patterns; inside
    parentheses (an `if` condition, a `new` operand) too; a template substitution or a subscript's index is no such
    context. (The same imports as when the 17 contexts were one pattern of the query.)"""
    got = summarize(extract(REQUIRE_CONTEXTS.encode(), language))["imports"]
    found = sorted((i["module"], i["name"], i["alias"], i["line"]) for i in got)
    assert found == sorted([
        ("stmt", None, None, 1), ("arg", None, None, 2), ("callee", None, None, 3), ("assigned", None, None, 4),
        ("augmented", None, None, 5), ("pair", None, None, 6), ("array", None, None, 7), ("ternary", None, None, 8),
        ("binary", None, None, 9), ("paren", None, None, 10), ("sequence", None, None, 11),
        ("spread", None, None, 12), ("await", None, None, 13), ("returned", None, None, 14),
        ("arrow", None, None, 15), ("subscript", None, None, 16), ("member", "a", None, 17),
        ("argmember", "name", None, 18), ("declared", None, "plain", 19), ("destructured", "one", None, 20),
        ("declaredmember", "name", "named", 21), ("condition", None, None, 22), ("constructed", None, None, 23),
    ])
