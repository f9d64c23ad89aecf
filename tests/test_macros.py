"""Rust and C/C++ macros (extractor 175). tree-sitter keeps a macro's arguments and a `macro_rules!` rule's expansion as
unparsed tokens: a call written there (`assert_eq!(parse(""), 0)`, `format!("{}", f(x))`) made no call at all,
so a function checked only inside `assert_eq!` had no test among its callers, and a macro was no definition, so
`impact` could not name one and did not see through one to what it expands to."""

from __future__ import annotations

import pytest

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



# -- what a QA pass of these found (eighth) ----------------------------------------------------------------------
def _calls(files: dict[str, tuple[str, str]]) -> set[tuple[str, str, str, int]]:
    """CALLS (caller, callee, callee's kind, line) that resolve() finds for ``files`` {path: (language, source)}."""
    facts = {}
    for path, (language, source) in files.items():
        f = FileFacts(path, language, **extract(source.encode(), language).facts())
        f.ids = symbol_ids("r", path, f.defs)
        facts[path] = f
    kinds = {i: d[1] for f in facts.values() for i, d in zip(f.ids, f.defs)}
    res = resolve("r", facts)
    return {(src.split("#")[1], dst.split("#")[1], kinds[dst], (props.get("lines") or [props.get("line")])[0])
            for (kind, src, dst), props in res.edges.items() if kind == "CALLS"}


def test_an_exported_macro_brought_in_by_use_is_called() -> None:
    """`use crate::exported;` then `exported!(1)`: the call was dropped (no edge, not even unresolved), and impact
    said COMPLETE with 0 callers."""
    calls = _calls({
        "src/lib.rs": ("rust", "mod macros;\npub mod user;\npub fn make(x: i32) -> i32 { x * 2 }\n"),
        "src/macros.rs": ("rust", "#[macro_export]\nmacro_rules! exported {\n    ($x:expr) => { $crate::make($x) };\n}\n"),
        "src/user.rs": ("rust", "use crate::exported;\n\npub fn u() -> i32 {\n    exported!(1)\n}\n")})
    assert ("u", "exported", "macro", 4) in calls and ("exported", "make", "function", 3) in calls, calls


@pytest.mark.parametrize("macro_first", [True, False])
def test_a_macro_and_a_function_of_one_name_are_called_apart(macro_first: bool) -> None:
    """Rust keeps macros apart from functions: `check(x) && check!(x)` calls both, whichever is defined last
    (the last one had taken both calls)."""
    macro = "macro_rules! check {\n    ($x:expr) => { validate($x) };\n}\n"
    fn = "fn check(x: i32) -> bool { x > 0 }\n"
    source = (macro + fn if macro_first else fn + macro) + \
        "fn validate(x: i32) -> bool { x < 9 }\nfn run(x: i32) -> bool { check(x) && check!(x) }\n"
    calls = {(a, b, kind) for a, b, kind, _ in _calls({"src/lib.rs": ("rust", source)})}
    macro_id, fn_id = ("check", "check~2") if macro_first else ("check~2", "check")    # one qualified name
    assert calls == {("run", fn_id, "function"), ("run", macro_id, "macro"), (macro_id, "validate", "function")}, \
        calls


def test_macro_text_that_does_not_run_there_makes_no_call() -> None:
    """stringify!(leaf(9)) is a string, quote! code for elsewhere, matches!'s pattern constructs nothing: false
    edges (to `leaf`, `helper`, the struct `Token`)."""
    source = ("fn t(v: Tok) {\n    let q = stringify!(leaf(9));\n    let w = quote::quote! { fn x() { helper() } };\n"
              "    if matches!(v.kind(), Token(_) | Other(a, b)) { go(1); }\n    let c = concat!(\"a\", f(1));\n}\n")
    got = {(c.name, c.line) for c in extract(source.encode(), "rust").calls if c.implicit is None}
    assert got == {("kind", 4), ("go", 4)}, got


def test_a_c_wrapper_macro_calls_the_function_of_its_name_and_branches_are_both_called() -> None:
    """`#define compute(x) (trace(0), compute(x))` wraps the function: the macro had called itself. A macro
    defined in both branches of an #ifdef in a header: its use in another file was ambiguous, no edge."""
    calls = _calls({
        "a.c": ("c", "int trace(int t) { return t; }\nint compute(int v) { return v; }\n"
                     "#define compute(x) (trace(0), compute(x))\n"),
        "m.h": ("c", "int helper(int);\nint other(int);\n#ifdef FAST\n#define PICK(x) helper(x)\n#else\n"
                     "#define PICK(x) other(x)\n#endif\n"),
        "m.c": ("c", "#include \"m.h\"\nint use_pick(int v) {\n    return PICK(v);\n}\n")})
    # the macro is compute~2 (the function, defined first, is compute)
    assert {c for c in calls if c[0] == "compute~2"} == {("compute~2", "compute", "function", 3),
                                                        ("compute~2", "trace", "function", 3)}, calls
    assert {c for c in calls if c[0] == "use_pick"} == {("use_pick", "PICK", "macro", 3),
                                                       ("use_pick", "PICK~2", "macro", 3)}, calls


def test_a_macro_is_no_overload_of_the_function_of_its_name(graph: Graph, git_repo, repo_name) -> None:
    """`impact` of the function `shadow` also took the macro `shadow` as 'another definition (overload or
    redefinition)', and its callers with it."""
    from graphrag_code.paths import resolve_endpoint

    git_repo.write("src/lib.rs", "pub fn shadow() -> i32 { 1 }\n\nmacro_rules! shadow {\n    () => { 2 };\n}\n\n"
                                 "pub fn a() -> i32 {\n    shadow()\n}\n\npub fn b() -> i32 {\n    shadow!()\n}\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    fn = resolve_endpoint(graph, repo_name, f"{repo_name}:src/lib.rs#shadow")
    assert fn.node.kind == "function" and fn.variants == []
    result = analyze_impact(graph, repo_name, f"{repo_name}:src/lib.rs#shadow", depth=1)
    assert [(c.node.qualified_name, c.lines) for c in result.callers] == [("a", [8])]
    macro = analyze_impact(graph, repo_name, f"{repo_name}:src/lib.rs#shadow~2", depth=1)
    assert [(c.node.qualified_name, c.lines) for c in macro.callers] == [("b", [12])]
