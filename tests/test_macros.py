"""Rust and C/C++ macros (extractor 175). tree-sitter keeps a macro's arguments and a `macro_rules!` rule's expansion as
unparsed tokens: a call written there (`assert_eq!(parse(""), 0)`, `format!("{}", f(x))`) made no call at all,
so a function checked only inside `assert_eq!` had no test among its callers, and a macro was no definition, so
`impact` could not name one and did not see through one to what it expands to."""

from __future__ import annotations

from graphrag_code.db import Graph
from graphrag_code.extract import extract
from graphrag_code.impact import analyze_impact
from graphrag_code.indexer import index_repository
from graphrag_code.resolve import FileFacts, resolve, symbol_ids

SOURCE = """fn t() {
    assert_eq!(parse(x), Foo::new(1));
    println!("{}", a.len());
    let v = vec![make(1), self.other()];
    my_mac!(inner::go(2), crate::m::h::<u8>(3));
    assert!(vec![f(1),
        g(2)].is_empty(), "{}", q(
  z(1)));
    let w = vec![zero(); n];
    format!("\u00e9{}", \u00e9t\u00e9(1));
}
"""
M = "macro"


def test_calls_in_macro_arguments_have_exact_names_receivers_and_positions() -> None:
    source = SOURCE.encode()
    calls = extract(source, "rust").calls
    got = {(c.line, c.column, c.name, c.receiver, c.implicit) for c in calls}
    assert got == {
        (2, 4, "assert_eq", None, M), (2, 15, "parse", None, None), (2, 30, "new", "Foo", None),
        (3, 4, "println", None, M), (3, 21, "len", "a", None),
        (4, 12, "vec", None, M), (4, 17, "make", None, None), (4, 31, "other", "self", None),
        (5, 4, "my_mac", None, M), (5, 19, "go", "inner", None), (5, 36, "h", "crate::m", None),
        (6, 4, "assert", None, M), (6, 12, "vec", None, M),                  # a macro in a macro's arguments
        (6, 17, "f", None, None), (7, 8, "g", None, None), (7, 14, "is_empty", "vec![f(1), g(2)]", None),
        (7, 32, "q", None, None), (8, 2, "z", None, None),                   # over three lines
        (9, 12, "vec", None, M), (9, 17, "zero", None, None),
        (10, 4, "format", None, M), (10, 20, "\u00e9t\u00e9", None, None),  # byte columns
    }, sorted(got)
    lines = source.split(b"\n")
    for c in calls:       # each position is where the name is written
        assert lines[c.line - 1][c.column:].startswith(c.name.encode()), c
    assert all(c.caller == 0 for c in calls)


RULES = """macro_rules! square {
    ($x:expr) => { helper($x) * $x };
    ($($a:expr),*) => {{ $( $crate::util::go($a); )* $f(1); }};
}
"""


def test_a_macro_rules_is_a_definition_whose_expansion_calls_are_its_own() -> None:
    result = extract(RULES.encode(), "rust")
    assert [(d.qualified_name, d.kind, d.start_line, d.end_line) for d in result.definitions] == \
        [("square", "macro", 1, 4)]
    # `$x` is no call, nor `$( ... )*` or `$f(1)` (metavariables); `$crate::util::go` is the crate's
    assert [(c.line, c.column, c.name, c.receiver, c.caller) for c in result.calls] == \
        [(2, 19, "helper", None, 0), (3, 42, "go", "crate::util", 0)]


LIB = """macro_rules! square {
    ($x:expr) => { helper($x) * $x };
}

fn helper(x: i32) -> i32 {
    x + 1
}

pub fn compute(v: i32) -> i32 {
    let a = square!(v);
    println!("{}", a);
    a
}

pub fn not_the_macro(v: i32) -> i32 {
    square(v)
}

#[test]
fn squares() {
    assert_eq!(square!(2), 6);
}
"""


def test_impact_sees_through_a_macro_and_into_assert_eq(graph: Graph, git_repo, repo_name) -> None:
    git_repo.write("Cargo.toml", '[package]\nname = "rs2"\nversion = "0.1.0"\n')
    git_repo.write("src/lib.rs", LIB)
    git_repo.write("src/parse.rs", 'pub fn parse(s: &str) -> usize {\n    s.len()\n}\n\n'
                                   'pub fn render(n: usize) -> String {\n    format!("<{}>", parse(&n.to_string()))\n}\n')
    git_repo.write("tests/parse_test.rs", 'use rs2::parse::parse;\n\n#[test]\nfn parses_empty() {\n'
                                          '    assert_eq!(parse(""), 0);\n}\n')
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)

    parse = analyze_impact(graph, repo_name, "parse", depth=2)
    assert {(c.node.qualified_name, tuple(c.lines)) for c in parse.callers} == \
        {("render", (6,)), ("parses_empty", (5,))}
    assert [t.node.qualified_name for t in parse.tests] == ["parses_empty"]

    helper = analyze_impact(graph, repo_name, "helper", depth=3)
    callers = {(c.node.qualified_name, c.node.kind, c.depth, tuple(c.lines)) for c in helper.callers}
    # `square(v)` without `!` is a function call: no function of that name, so it is not the macro's
    assert callers == {("square", "macro", 1, (2,)), ("compute", "function", 2, (10,)),
                       ("squares", "function", 2, (21,))}, callers
    assert [t.node.qualified_name for t in helper.tests] == ["squares"]
    assert helper.completeness.verdict == "lower_bound"      # the unresolved `square(v)` is named like a caller
    assert not [r for r in helper.completeness.value_references if r["kind"] in ("macro", "value")], \
        helper.completeness.value_references


def test_std_macros_are_no_unresolved_calls_and_a_call_without_bang_is_no_macro_call() -> None:
    facts = extract(LIB.encode(), "rust").facts()
    f = FileFacts("src/lib.rs", "rust", **facts)
    f.ids = symbol_ids("r", f.path, f.defs)
    res = resolve("r", {f.path: f})
    assert res.unresolved == {"r:src/lib.rs#not_the_macro": ["square@16:unknown"]}, res.unresolved
    calls = {(src.split("#")[1], dst.split("#")[1], props["lines"][0] if "lines" in props else props["line"])
             for (kind, src, dst), props in res.edges.items() if kind == "CALLS"}
    assert calls == {("square", "helper", 2), ("compute", "square", 10), ("squares", "square", 21)}, calls


CPP = """#define CHECK(cond, msg) \\
    if (!(cond)) report(#cond, msg, ::util::where())
#define ID(x) x

int run(int v) {
    CHECK(v > 0, "v");
    return ID(v);
}
"""


def test_a_cpp_function_like_macro_is_a_definition_with_its_calls() -> None:
    result = extract(CPP.encode(), "cpp")
    assert [(d.qualified_name, d.kind, d.start_line, d.end_line) for d in result.definitions] == \
        [("CHECK", "macro", 1, 2), ("ID", "macro", 3, 3), ("run", "function", 5, 8)]
    assert sorted((c.line, c.column, c.name, c.receiver, c.caller) for c in result.calls) == [
        (2, 17, "report", None, 0), (2, 44, "where", "util", 0),   # `#cond` is no call, `cond` a parameter
        (6, 4, "CHECK", None, 2), (7, 11, "ID", None, 2)]

