"""Calls written in Rust macros' arguments (`assert_eq!(parse(""), 0)`, `format!("{}", f(x))`, `vec![make(1)]`):
tree-sitter keeps a macro's arguments as unparsed tokens, and they were no calls at all, so a Rust function
checked only inside `assert_eq!` had no test among its callers."""

from __future__ import annotations

from graphrag_code.db import Graph
from graphrag_code.extract import extract
from graphrag_code.impact import analyze_impact
from graphrag_code.indexer import index_repository

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


def test_calls_in_macro_arguments_have_exact_names_receivers_and_positions() -> None:
    source = SOURCE.encode()
    calls = extract(source, "rust").calls
    got = {(c.line, c.column, c.name, c.receiver) for c in calls}
    assert got == {
        (2, 15, "parse", None), (2, 30, "new", "Foo"),
        (3, 21, "len", "a"),
        (4, 17, "make", None), (4, 31, "other", "self"),
        (5, 19, "go", "inner"), (5, 36, "h", "crate::m"),
        (6, 17, "f", None), (7, 8, "g", None), (7, 14, "is_empty", "vec![f(1), g(2)]"),   # a macro in a macro
        (7, 32, "q", None), (8, 2, "z", None),                                           # over three lines
        (9, 17, "zero", None),
        (10, 20, "\u00e9t\u00e9", None),                                                 # byte columns
    }, sorted(got)
    lines = source.split(b"\n")
    for c in calls:       # each position is where the name is written
        assert lines[c.line - 1][c.column:].startswith(c.name.encode()), c
    assert all(c.caller == 0 for c in calls)


def test_a_function_asserted_in_a_rust_test_has_that_test_among_its_callers(graph: Graph, git_repo,
                                                                           repo_name) -> None:
    git_repo.write("Cargo.toml", '[package]\nname = "rs2"\nversion = "0.1.0"\n')
    git_repo.write("src/lib.rs", 'pub fn parse(s: &str) -> usize {\n    s.len()\n}\n\n'
                                 'pub fn render(n: usize) -> String {\n    format!("<{}>", parse(&n.to_string()))\n}\n')
    git_repo.write("tests/parse_test.rs", 'use rs2::parse;\n\n#[test]\nfn parses_empty() {\n'
                                          '    assert_eq!(parse(""), 0);\n}\n')
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "parse", depth=2)
    callers = {(c.node.qualified_name, tuple(c.lines)) for c in result.callers}
    assert callers == {("render", (6,)), ("parses_empty", (5,))}, callers
    assert [t.node.qualified_name for t in result.tests] == ["parses_empty"]
