"""Findings of the fifth QA pass on extraction, each with the exact symbols and lines it must give: a comment
ending a line of code is no doc of the definition below; C macros before `if`; C++ out-of-line members under
deeper qualification and nested templates; C functions returning function pointers; TypeScript namespace
functions; JavaScript/TypeScript exports other than by the `export` keyword; comments out of signatures."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphrag_code.cli_graph import impact_command
from graphrag_code.db import Graph
from graphrag_code.indexer import index_repository
from graphrag_code.staging import extract_file


def _defs(language: str, source: str, path: str = "x") -> list[tuple]:
    ex = extract_file(language, source, 1000, path)
    return [(d.qualified_name, d.start_line, d.end_line, d.docstring) for d in ex.definitions]


@pytest.mark.parametrize("language, source, expected", [
    ("ruby", "class Foo # :nodoc:\n  def initialize(x)\n    @x = x\n  end\nend\n",
     [("Foo", 1, 5, ""), ("Foo.initialize", 2, 4, "")]),
    ("python", "class A:  # trailing\n    def f(self):\n        pass\n", [("A", 1, 3, ""), ("A.f", 2, 3, "")]),
    ("java", "class A { // helper\n    void f() {}\n}\n", [("A", 1, 3, ""), ("A.f", 2, 2, "")]),
    ("javascript", "class A { // helper\n    f() {}\n}\n", [("A", 1, 3, ""), ("A.f", 2, 2, "")]),
    ("typescript", "class A { // helper\n    f() {}\n}\n", [("A", 1, 3, ""), ("A.f", 2, 2, "")]),
    ("csharp", "class A { // helper\n    void F() {}\n}\n", [("A", 1, 3, ""), ("A.F", 2, 2, "")]),
    ("cpp", "class A { // helper\n    void f() {}\n};\n", [("A", 1, 3, ""), ("A.f", 2, 2, "")]),
    ("php", "<?php\nclass A { // trailing\n    function f() {}\n}\n", [("A", 2, 4, ""), ("A.f", 3, 3, "")]),
    ("c", "int x = 1; // trailing\nint f(void) { return 0; }\n", [("f", 2, 2, "")]),
    ("go", "package p\n\nvar x = 1 // trailing\nfunc F() {}\n", [("F", 4, 4, "")]),
    ("rust", "struct S; // trailing\nfn f() {}\n", [("S", 1, 1, ""), ("f", 2, 2, "")]),
    # a doc comment on its own line still belongs to the definition below, after a trailing one too
    ("python", "x = 1  # note\n# doc\ndef f():\n    pass\n", [("f", 2, 4, "doc")]),
    ("java", "class A { // helper\n    /** Doc. */\n    void f() {}\n}\n", [("A", 1, 4, ""), ("A.f", 2, 3, "Doc.")]),
])
def test_a_comment_ending_a_line_of_code_is_not_the_doc_of_the_definition_below(language, source, expected) -> None:
    assert _defs(language, source) == expected


MACRO_C = """static int work(void) { return 1; }
static void fail(void) {}

static int f(void)
{
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = work();
    Py_END_ALLOW_THREADS
    if (r < 0) {
        fail();
    }
    while (r > 5) {
        r--;
    }
    return r;
}
"""


def test_a_c_macro_statement_before_if_makes_no_function_named_if() -> None:
    ex = extract_file("c", MACRO_C, 1000, "m.c")
    assert [(d.qualified_name, d.start_line, d.end_line) for d in ex.definitions] == \
        [("work", 1, 1), ("fail", 2, 2), ("f", 4, 17)]
    assert [(ex.definitions[c.caller].name, c.name, c.line) for c in ex.calls] == [("f", "work", 8), ("f", "fail", 11)]


CPP = """namespace ns {
class Outer {
  class Inner {
    void run();
  };
};
}

void ns::Outer::Inner::run() { helper(); }

const char* ns::Outer::name_outer() { return "x"; }

template <typename T>
template <typename U>
void Box<T>::put(U u) { u.go(); }

/// doc of n
template <typename T>
template <typename U>
int S<T>::n(U u) { return 1; }

char* A::B::f() { return g1(); }
int& A::B::h() { return g2(); }
const char* ns::Cls::name() const noexcept { return g3(); }
"""


def test_cpp_out_of_line_members_under_deeper_qualification_and_nested_templates() -> None:
    ex = extract_file("cpp", CPP, 1000, "a.cpp")
    got = [(d.qualified_name, d.kind, d.start_line, d.end_line) for d in ex.definitions]
    # qualified as the class they are members of (`ns.Outer.Inner`): the whole scope, namespaces included
    assert got[3:] == [("ns.Outer.Inner.run", "method", 9, 9), ("ns.Outer.name_outer", "method", 11, 11),
                       ("Box.put", "method", 13, 15), ("S.n", "method", 17, 20), ("A.B.f", "method", 22, 22),
                       ("A.B.h", "method", 23, 23), ("ns.Cls.name", "method", 24, 24)]
    assert ex.definitions[6].docstring == "doc of n"
    assert [(ex.definitions[c.caller].qualified_name, c.name) for c in ex.calls] == \
        [("ns.Outer.Inner.run", "helper"), ("Box.put", "go"), ("A.B.f", "g1"), ("A.B.h", "g2"), ("ns.Cls.name", "g3")]


def test_a_c_function_returning_a_function_pointer_is_a_definition() -> None:
    source = ("static int add(int a, int b) { return a + b; }\n\n"
              "static int (*pick(int which))(int, int) { return add; }\n")
    assert [(q, s, e) for q, s, e, _ in _defs("c", source)] == [("add", 1, 1), ("pick", 3, 3)]


def test_javascript_and_typescript_exports_without_the_export_keyword_are_exported() -> None:
    cjs = ("function createApp() {}\nexports.helper = function () {};\nmodule.exports = createApp;\n"
           "module.exports.other = function other() {};\nfunction hidden() {}\n")
    ex = extract_file("javascript", cjs, 1000, "index.js")
    assert [(d.qualified_name, d.exported) for d in ex.definitions] == \
        [("createApp", True), ("exports.helper", True), ("module.exports.other", True), ("hidden", False)]
    listed = ("function a() {}\nclass B {}\nconst c = () => 1;\nfunction d() {}\nexport { a, B as Bee };\n"
              "export default c;\nexport { d as e } from './y';\n")
    for language in ("javascript", "typescript", "tsx"):
        ex = extract_file(language, listed, 1000, "e.ts")
        assert [(d.qualified_name, d.exported) for d in ex.definitions] == \
            [("a", True), ("B", True), ("c", True), ("d", False)], language


@pytest.mark.parametrize("language, source, expected", [
    ("ruby", "module Billing\n  # Invoice doc.\n  class Invoice\n    def total\n      # TODO: remove\n      42\n"
             "    end\n  end\nend\n", ["module Billing", "class Invoice", "def total"]),
    ("python", "def f(a,\n      b):  # noqa\n    # explain\n    return a\n\ndef g(a,  # first\n      b=\"#x\"):\n"
               "    pass\n", ["def f(a, b)", 'def g(a, b="#x")']),
    ("go", "package p\n\nfunc F(a int /* x */) int { // y\n\treturn a\n}\n", ["func F(a int) int"]),
    ("javascript", "function f(a /* x */, b) { // y\n  return a\n}\n", ["function f(a, b)"]),
])
def test_comments_are_not_part_of_a_signature(language, source, expected) -> None:
    assert [d.signature for d in extract_file(language, source, 1000, "x").definitions] == expected


NAMESPACE_TS = """export namespace Geo {
  export function dist(a: number, b: number): number { return a - b; }
  export function twice(a: number): number { return dist(a, 0) * 2; }
  export class Pt { norm(): number { return dist(1, 2); } }
}
export function outside(): number { return Geo.dist(1, 2); }
"""


def test_typescript_namespace_functions_are_functions_and_calls_between_them_resolve(
        graph: Graph, git_repo, repo_name: str) -> None:
    """Inside `namespace Geo`, `dist(a, 0)` is Geo.dist, as inside a C++ namespace; and the C macro's calls are
    f's, found by impact."""
    git_repo.write("src/ns.ts", NAMESPACE_TS)
    git_repo.write("src/m.c", MACRO_C)
    git_repo.commit("ns")
    index_repository(graph, git_repo.root, name=repo_name)
    ex = extract_file("typescript", NAMESPACE_TS, 1000, "ns.ts")
    assert [(d.qualified_name, d.kind) for d in ex.definitions] == \
        [("Geo", "module"), ("Geo.dist", "function"), ("Geo.twice", "function"), ("Geo.Pt", "class"),
         ("Geo.Pt.norm", "method"), ("outside", "function")]
    runner = CliRunner()
    out = runner.invoke(impact_command, ["Geo.dist", "--repo", repo_name, "--json", "--depth", "1"])
    assert out.exit_code == 0, out.output
    callers = json.loads(out.output)["callers"]["1"]
    assert sorted((c["node"]["qualified_name"], tuple(c["citations"])) for c in callers) == \
        [("Geo.Pt.norm", ("src/ns.ts:4",)), ("Geo.twice", ("src/ns.ts:3",)), ("outside", ("src/ns.ts:6",))]
    out = runner.invoke(impact_command, ["fail", "--repo", repo_name, "--json", "--depth", "1"])
    assert [c["node"]["qualified_name"] for c in json.loads(out.output)["callers"]["1"]] == ["f"]


def test_rust_impl_blocks_never_renumber_the_type_they_implement() -> None:
    """An impl above the struct made the struct `Point~2`; adding one shifted every later id."""
    from graphrag_code.resolve_facts import symbol_ids

    source = ("impl Point { fn a(&self) {} }\npub struct Point { x: i32 }\nimpl Point { fn b(&self) {} }\n"
              "impl std::fmt::Display for Point { fn fmt(&self) {} }\n")
    defs = [[d.name, d.kind, d.qualified_name] for d in extract_file("rust", source, 1000, "p.rs").definitions]
    assert symbol_ids("r", "p.rs", defs) == ["r:p.rs#Point~impl", "r:p.rs#Point.a", "r:p.rs#Point",
                                             "r:p.rs#Point~impl~2", "r:p.rs#Point.b", "r:p.rs#Point~impl~3",
                                             "r:p.rs#Point.fmt"]


def test_visibility_of_typescript_members_without_a_modifier_and_of_cpp_nested_types() -> None:
    ts = "class A {\n  f() {}\n  private g() {}\n  #h() {}\n  static s() {}\n}\n"
    ex = extract_file("typescript", ts, 1000, "a.ts")
    assert [(d.qualified_name, d.visibility) for d in ex.definitions] == \
        [("A", None), ("A.f", "public"), ("A.g", "private"), ("A.#h", "private"), ("A.s", "public")]
    cpp = ("class A {\n public:\n  void f() {}\n private:\n  class Inner { void g() {} };\n  void h() {}\n};\n"
           "struct P { class Q {}; };\n")
    ex = extract_file("cpp", cpp, 1000, "a.cpp")
    assert [(d.qualified_name, d.visibility, d.exported) for d in ex.definitions] == \
        [("A", "public", True), ("A.f", "public", True), ("A.Inner", "private", False),
         ("A.Inner.g", "private", False), ("A.h", "private", False), ("P", "public", True), ("P.Q", "public", True)]
