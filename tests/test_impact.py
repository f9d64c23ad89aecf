"""Impact analysis (graphrag_code.impact and `graphrag-code impact`) on the small Python and JavaScript shops of
test_paths, indexed into the real Neo4j: callers grouped by depth with citations, entry points, tests that
exercise the target, the complete / lower-bound verdict, files and importers, --diff on a real commit,
--staged, --fail-on and the --json shape."""

from __future__ import annotations

import json
import re
import textwrap
import uuid

import pytest
from click.testing import CliRunner
from test_paths import SHOP, SHOP_JS, build

from graphrag_code.cli_graph import FAIL_ON_EXIT_CODE, impact_command
from graphrag_code.db import Graph
from graphrag_code.errors import InputError
from graphrag_code.impact import analyze_impact, parse_diff
from graphrag_code.indexer import delete_repository, index_repository


@pytest.fixture(scope="module")
def shops(tmp_path_factory, neo4j_settings):
    from conftest import GitRepo

    names = {"py": f"test-impact-py-{uuid.uuid4().hex[:8]}", "js": f"test-impact-js-{uuid.uuid4().hex[:8]}"}
    py = build(GitRepo, tmp_path_factory.mktemp("impact") / "py", SHOP)
    js = build(GitRepo, tmp_path_factory.mktemp("impact") / "js", SHOP_JS)
    with Graph(neo4j_settings) as graph:
        index_repository(graph, py.root, name=names["py"])
        index_repository(graph, js.root, name=names["js"])
        yield graph, names, py
        for name in names.values():
            delete_repository(graph, name)


def grouped(result) -> dict[int, list[tuple[str, str, list[str]]]]:
    return {d: sorted((c.node.display, c.kind, c.citations) for c in cs) for d, cs in result.by_depth().items()}


def test_callers_grouped_by_depth_with_entry_points_and_tests(shops) -> None:
    graph, names, _ = shops
    r = analyze_impact(graph, names["py"], "save_row", depth=3)
    assert [t.node.qualified_name for t in r.targets] == ["save_row"]
    assert grouped(r) == {
        1: [("Notifier.flush", "call", ["app/notify.py:6"]),
            ("OrderService.validate", "call", ["app/service.py:28"]),
            ("persist", "call", ["app/service.py:32"])],
        2: [("BaseService.process", "dispatch", ["app/service.py:8"]),   # self.validate() may run the override
            ("OrderService.cancel", "call", ["app/service.py:25"]),   # the surest of its two calls
            ("refund", "call", ["app/service.py:36"]),
            ("test_persist", "call", ["tests/test_service.py:5"])],
        3: [("cancel_view", "call", ["app/views.py:6"]),
            ("helper_cancel", "call", ["tests/test_service.py:13"]),
            ("main", "call", ["app/cli.py:6"])],
    }
    process = next(c for c in r.callers if c.node.name == "process")
    assert process.via.qualified_name == "BaseService.validate"
    assert {c.node.display: c.entry_point for c in r.entry_points} == {
        "cancel_view": ["uncalled", "route"], "main": ["main"]}
    assert [(c.node.display, c.depth) for c in r.tests] == [
        ("test_persist", 2), ("helper_cancel", 3), ("test_cancel_flow", 4)]   # tests at any depth
    assert r.completeness.verdict == "complete" and r.completeness.unresolved_same_name == []
    # `OrderService().cancel(oid)` is no guess by a unique method name either: the receiver is what calling the
    # class returns, an OrderService
    assert r.completeness.low_confidence_edges == []
    assert {c.node.display: (c.confidence, c.resolved_by) for c in r.callers if c.calls.display == "OrderService.cancel"} \
        == {"cancel_view": (0.85, "annotation"), "helper_cancel": (0.85, "annotation")}
    # `self.notifier.flush()` is no longer a guess by a unique method name: `notifier` is named after Notifier
    assert [c.node.display for c in r.completeness.dynamic_dispatch] == ["BaseService.process"]
    assert r.impacted == 8     # non-test callers within depth 3

    deeper = analyze_impact(graph, names["py"], "save_row", depth=4)
    module_code = [c for c in deeper.by_depth()[4] if c.node.label == "File"]
    assert [(c.node.path, c.entry_point, c.citations) for c in module_code] == [
        ("app/cli.py", ["__main__"], ["app/cli.py:10"])]


def test_lower_bound_when_an_unresolved_call_has_the_targets_name(shops) -> None:
    graph, names, _ = shops
    r = analyze_impact(graph, names["py"], "CardRefund.apply_refund")
    assert r.callers == [] and r.completeness.verdict == "lower_bound"
    assert [(u.label, u.citation, u.reason) for u in r.completeness.unresolved_same_name] == [
        ("handler.apply_refund", "app/service.py:37", "dynamic")]
    assert "may be callers the graph misses" in r.completeness.reasons[0]
    # no unresolved call named `write`, `save_row`, ... : complete (here with callers)
    assert analyze_impact(graph, names["py"], "write", depth=2).completeness.complete


def test_calls_the_graph_cannot_see_make_the_answer_a_lower_bound(shops) -> None:
    graph, names, _ = shops
    prop = analyze_impact(graph, names["py"], "Registry.size", depth=1)
    assert prop.completeness.verdict == "lower_bound"
    assert prop.completeness.implicit == [
        "Registry.size is a property: it runs on attribute access, which the graph does not record as a call"]
    dunder = analyze_impact(graph, names["py"], "Registry.__len__", depth=1)
    assert dunder.completeness.verdict == "lower_bound" and "dunder method" in dunder.completeness.implicit[0]
    # a constructor is called through its class: Registry() in make_registry
    init = analyze_impact(graph, names["py"], "Registry.__init__", depth=1)
    assert [(c.node.display, c.kind, c.via.display, c.citations) for c in init.callers] == [
        ("make_registry", "constructor", "Registry", ["app/hooks.py:14"])]
    # a function stored in a table is called through it: no caller in the graph, and the answer says why
    stored = analyze_impact(graph, names["py"], "on_event", depth=1)
    assert stored.callers == [] and stored.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in stored.completeness.value_references] == [("app/hooks.py:21", "value")]
    js = analyze_impact(graph, names["js"], "cancelHandler", depth=1)
    assert [(r["citation"], r["text"]) for r in js.completeness.value_references] == [
        ("src/routes.js:8", "app.post('/orders/:id/cancel', cancelHandler);")]
    assert js.completeness.verdict == "lower_bound"


def test_file_target_lists_importers_and_line_target(shops) -> None:
    graph, names, _ = shops
    r = analyze_impact(graph, names["py"], "app/storage.py", depth=1)
    assert [t.node.display for t in r.targets] == ["app/storage.py (module code)", "save_row", "write", "load_row"]
    assert sorted((c.node.path, c.citations) for c in r.importers) == [
        ("app/notify.py", ["app/notify.py:1"]), ("app/service.py", ["app/service.py:2"])]
    assert sorted(c.node.display for c in r.callers) == [
        "Notifier.flush", "OrderService.cancel", "OrderService.validate", "persist"]   # not save_row -> write
    line = analyze_impact(graph, names["py"], "app/service.py:32", depth=1)
    assert [t.node.qualified_name for t in line.targets] == ["persist"]
    assert sorted(c.node.display for c in line.callers) == ["OrderService.cancel", "refund", "test_persist"]


def test_javascript_impact(shops) -> None:
    graph, names, _ = shops
    r = analyze_impact(graph, names["js"], "src/db.js#save", depth=4)
    assert grouped(r) == {1: [("Notifier.send", "call", ["src/orders.js:5"])],
                          2: [("notify", "call", ["src/orders.js:15"])],
                          3: [("cancelOrder", "call", ["src/orders.js:11"])],
                          4: [("cancelHandler", "call", ["src/routes.js:4"]),
                              ("test cancel", "call", ["test/orders.test.js:4"])]}   # the test, by its title
    assert {c.node.display: c.entry_point for c in r.entry_points} == {"cancelHandler": ["uncalled", "route"]}
    assert [(c.node.path, c.node.display) for c in r.tests] == [("test/orders.test.js", "test cancel")]
    files = analyze_impact(graph, names["js"], "src/orders.js", depth=2)
    assert sorted((c.node.path, c.depth) for c in files.importers) == [
        ("src/routes.js", 1), ("test/orders.test.js", 1)]


def test_diff_of_a_real_commit_and_staged_changes(shops, neo4j_settings, tmp_path) -> None:
    from conftest import GitRepo

    graph, _, _ = shops
    name = f"test-impact-diff-{uuid.uuid4().hex[:8]}"
    repo = build(GitRepo, tmp_path / "diff", SHOP)
    try:
        storage = SHOP["app/storage.py"].replace("    return row\n", "    return dict(row)\n")
        repo.write("app/storage.py", storage + "\n\ndef purge(row):\n    return None\n")
        repo.commit("change write, add purge")
        index_repository(graph, repo.root, name=name)
        r = analyze_impact(graph, name, diff="HEAD~1")
        assert r.diff["hunks"] == {"app/storage.py": [[6, 6], [11, 14]]}
        assert [(t.node.qualified_name, t.reason) for t in r.targets] == [
            ("write", "diff touches app/storage.py:6"), ("purge", "diff touches app/storage.py:11-14")]
        assert [(c.node.display, c.depth) for c in r.by_depth()[1]] == [("save_row", 1)]
        assert r.completeness.complete

        repo.write("app/service.py", SHOP["app/service.py"].replace(
            "    return save_row(order)\n\n\ndef refund", "    return save_row(dict(order))\n\n\ndef refund"))
        repo.git("add", "app/service.py")
        staged = analyze_impact(graph, name, staged=True, depth=1)
        assert [t.node.qualified_name for t in staged.targets] == ["persist"]
        assert sorted(c.node.display for c in staged.callers) == ["OrderService.cancel", "refund", "test_persist"]
        with pytest.raises(InputError, match="either a TARGET or --diff"):
            analyze_impact(graph, name, "persist", staged=True)
    finally:
        delete_repository(graph, name)


def test_diff_of_a_repository_indexed_from_a_subdirectory(shops, tmp_path) -> None:
    """git names the diff's paths from the work tree's top (`b/helpers.py`), the graph from the indexed
    directory (`helpers.py`): the fourth QA pass saw every changed file "not indexed" and the verdict COMPLETE,
    so `--fail-on` passed in CI. --diff and --staged both."""
    from conftest import GitRepo

    graph, _, _ = shops
    name = f"test-impact-sub-{uuid.uuid4().hex[:8]}"
    repo = GitRepo(tmp_path / "mono")
    repo.write("b/helpers.py", "def compute(x):\n    return x + 1\n\n\ndef new_fn():\n    return compute(9)\n")
    repo.write("other/x.py", "def other():\n    return 1\n")
    repo.commit("c1")
    repo.write("b/helpers.py", "def compute(x):\n    return x + 2\n\n\ndef new_fn():\n    return compute(9)\n")
    repo.write("other/x.py", "def other():\n    return 2\n")
    repo.commit("edit")
    try:
        index_repository(graph, repo.root / "b", name=name)
        r = analyze_impact(graph, name, diff="HEAD~1")
        assert r.diff["hunks"] == {"helpers.py": [[2, 2]]}, r.diff      # other/ is outside the indexed directory
        assert [t.node.qualified_name for t in r.targets] == ["compute"]
        assert [c.node.display for c in r.callers] == ["new_fn"] and r.impacted == 1
        repo.write("b/helpers.py", "def compute(x):\n    return x + 3\n\n\ndef new_fn():\n    return compute(9)\n")
        repo.git("add", "b/helpers.py")
        staged = analyze_impact(graph, name, staged=True)
        assert [t.node.qualified_name for t in staged.targets] == ["compute"] and staged.impacted == 1
        with pytest.raises(InputError, match="either --diff REV or --staged"):
            analyze_impact(graph, name, diff="HEAD~1", staged=True)
    finally:
        delete_repository(graph, name)


def test_parse_diff_sides_blank_lines_and_deletions() -> None:
    text = ("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n"
            "@@ -3,0 +4,2 @@\n+\n+def f():\n"          # added: a blank line and a def
            "@@ -10,2 +12,0 @@\n-    a = 1\n-    b = 2\n"   # deleted on the new side after line 12
            "@@ -20 +20 @@\n-\n+\n"                       # whitespace-only change: skipped
            "diff --git a/gone.py b/gone.py\n--- a/gone.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n")
    new, notes = parse_diff(text, "new")
    assert {p: [(h.start, h.end, sorted(h.blank)) for h in hs] for p, hs in new.items()} == {
        "x.py": [(4, 5, [4]), (12, 13, [])]}
    assert notes == ["gone.py: only on the old side of the diff (deleted), not in the indexed snapshot"]
    old, _ = parse_diff(text, "old")
    assert [(h.start, h.end) for h in old["x.py"]] == [(3, 4), (10, 11)]
    assert [(h.start, h.end) for h in old["gone.py"]] == [(1, 2)]


def test_cli_table_tree_json_and_fail_on(shops) -> None:
    _, names, _ = shops
    runner = CliRunner()
    table = runner.invoke(impact_command, ["save_row", "--repo", names["py"]])
    assert table.exit_code == 0, table.output
    assert "callers up to depth 3: 10 (8 non-test)" in table.output
    assert "depth 1\n" in table.output and "app/notify.py:6" in table.output
    assert "completeness: COMPLETE" in table.output and "entry points reached (2)" in table.output

    tree = runner.invoke(impact_command, ["save_row", "--repo", names["py"], "--tree", "--depth", "2"])
    assert tree.exit_code == 0
    lines = tree.output.splitlines()
    root = lines.index("save_row  (app/storage.py:1-2)")
    assert lines[root + 1].startswith("├── Notifier.flush  app/notify.py:6")
    assert any(ln.startswith("│   └── OrderService.cancel  app/service.py:24") for ln in lines)   # under flush

    lower = runner.invoke(impact_command, ["CardRefund.apply_refund", "--repo", names["py"]])
    assert "LOWER BOUND" in lower.output and "0 callers is not certain" in lower.output
    assert "handler.apply_refund" in lower.output and "app/service.py:37" in lower.output

    data = json.loads(runner.invoke(impact_command, ["save_row", "--repo", names["py"], "--json"]).output)
    assert set(data) == {"repo", "commit", "root", "depth", "test_depth", "targets", "resolution", "diff", "callers",
                         "importers", "entry_points", "tests", "counts", "completeness", "notes"}
    assert sorted(data["callers"]) == ["1", "2", "3"]
    first = data["callers"]["1"][0]
    assert set(first) == {"node", "depth", "calls", "kind", "lines", "citations", "confidence", "resolved_by", "via",
                          "entry_point", "is_test"}
    assert {"id", "repo", "commit", "path", "start_line", "end_line"} <= set(first["node"])
    assert data["counts"]["impacted"] == 8 and data["completeness"]["verdict"] == "complete"

    over = runner.invoke(impact_command, ["save_row", "--repo", names["py"], "--fail-on", "7"])
    # its own exit code: neither a crash's 1 nor an error's, so CI tells "too many impacted" from "impact failed"
    assert over.exit_code == FAIL_ON_EXIT_CODE == 8 and "fail-on: 8 impacted > 7" in over.output
    assert runner.invoke(impact_command, ["save_row", "--repo", names["py"], "--fail-on", "8"]).exit_code == 0
    nothing = runner.invoke(impact_command, ["--repo", names["py"]])
    assert nothing.exit_code == InputError.exit_code and "nothing to analyse" in nothing.output


def test_the_fail_on_exit_code_is_no_errors_code() -> None:
    from graphrag_code import errors

    codes = {c.exit_code for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.GraphragError)}
    assert FAIL_ON_EXIT_CODE not in codes | {0, 1, 130}


@pytest.mark.parametrize("line, name, kind", [
    ("    return save_row(order)", "save_row", None),                  # a call
    ("def save_row(row):", "save_row", None),                           # the definition
    ("    callback=save_row,", "save_row", "value"),                    # passed as a value
    ("HANDLERS = {'event': on_event}", "on_event", "value"),            # stored in a table
    ("    'build_url': [build_url, 'doc'],", "build_url", "value"),      # in a list literal (Markdown's config)
    ("def f(rows: List[Row]) -> Row:", "Row", None),                   # a generic's argument
    ("@pass_context", "pass_context", "decorator"),                     # a bare decorator calls it
    ("    x = self.handle", "handle", "value"),                          # a bound method handed out
    ("def f(ctx: Context) -> Context:", "Context", None),               # annotations
    ("    if isinstance(x, Context):", "Context", None),
    ("const notify = (o) => 1", "notify", None),                         # (re)definitions
    ("app.use = function use() {", "use", None),
    ("    will automatically echo the input.", "echo", None),           # prose
])
def test_reference_kinds(line, name, kind) -> None:
    from graphrag_code.impact_references import _reference_kind

    assert _reference_kind(line, re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")) == kind


@pytest.mark.parametrize("line, name", [
    ("package main", "main"),                                   # Go: `main` the function is a caller
    ("package com.acme.validate;", "validate"),                 # Java
    ("namespace Shop.Validate", "Validate"),                    # C#
    ("namespace Shop.Validate;", "Validate"),
    ("namespace App\\Validate;", "Validate"),                    # PHP
    ("mod parse;", "parse"),                                    # Rust
    ("pub(crate) mod parse {", "parse"),
    ("module Validate", "Validate"),                            # Ruby
    ("module Shop::Validate", "Validate"),
])
def test_a_package_namespace_or_module_declaration_is_no_reference(line, name) -> None:
    from graphrag_code.impact_references import _reference_kind

    pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    assert _reference_kind(line, pattern) is None
    assert _reference_kind(f"    run({name})", pattern) == "value"          # the same name handed on still is one


@pytest.mark.parametrize("line, name, kind", [
    ("    let n = parse::run(text);", "parse", None),             # Rust: the module parse, not the function
    ("    return ns::parse(x);", "ns", None),                     # C++: a namespace qualifier
    ("    let n = parse::<u8>(text);", "parse", None),            # a call with type arguments (turbofish)
    ("    auto v = convert<int>(x);", "convert", None),           # C++: a template function's call
    ("    apply(parse, text);", "parse", "value"),                # handed on: still a reference
    ("    apply(parse::<u8>, text);", "parse", "value"),
])
def test_a_qualifier_or_a_call_with_type_arguments_is_no_value_reference(line, name, kind) -> None:
    """A name followed by `::ident` qualifies a path (the Rust module or C++ namespace of that name); `name::<T>(`
    and `name<T>(` call it (third QA pass's follow-up: `parse::run()` made impact of a function `parse` a lower
    bound)."""
    from graphrag_code.impact_references import _reference_kind

    assert _reference_kind(line, re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")) == kind


def test_csharp_using_directive_is_an_import_line() -> None:
    from graphrag_code.impact_references import _EXPORT_LINE

    assert _EXPORT_LINE.match("using Shop.Validate;") and _EXPORT_LINE.match("global using static Shop.Validate;")
    assert not _EXPORT_LINE.match("using (var s = Open(validate)) {")


def test_comments_strings_and_local_bindings_are_not_references() -> None:
    from graphrag_code.impact_references import _binds_locally, code_only

    py = 'def f(x):\n    """Call echo."""\n    y = "echo"  # echo\n    return g(echo)\n'
    blanked = code_only(py, "python")
    assert len(blanked) == len(py) and blanked.split("\n")[1:3] == [" " * 20, "    y =" + " " * 15]
    assert blanked.split("\n")[3] == "    return g(echo)"
    js = "// echo\nrun(echo, 'echo', `${echo}`) /* echo */"
    assert "echo" not in code_only(js, "javascript").replace("run(echo", "")
    assert _binds_locally("def getchar(echo: bool):\n    if echo:", "echo")
    assert _binds_locally("for key, echo in pairs:", "echo") and _binds_locally("let echo = 1", "echo")
    assert not _binds_locally("    return run(echo)", "echo") and not _binds_locally("self.echo = 1", "echo")


def test_overloads_are_one_candidate_and_the_last_definition_is_shown() -> None:
    from graphrag_code.paths import NodeRef, _choose

    def sym(i: int, start: int, path: str = "core.py") -> NodeRef:
        suffix = "" if i == 1 else f"~{i}"
        return NodeRef(f"r:{path}#Cmd.main{suffix}", "r", None, path, "main", "Cmd.main", "method", start, start + 2,
                       False, "Symbol")

    res = _choose("Cmd.main", [(sym(1, 10), "exact_qualified"), (sym(2, 20), "exact_qualified"),
                               (sym(3, 30), "exact_qualified")], "name")
    assert res.node.id == "r:core.py#Cmd.main~3" and not res.ambiguous
    assert [v.id for v in res.variants] == ["r:core.py#Cmd.main", "r:core.py#Cmd.main~2"]
    assert "3 definitions of Cmd.main in core.py" in res.reason
    two = _choose("Cmd.main", [(sym(1, 10), "exact_qualified"), (sym(1, 10, "other.py"), "exact_qualified")], "name")
    assert two.ambiguous and two.node.path == "core.py"


PLACEHOLDER_SHOP = '''class Exporter:
    def run(self, rows):
        return self.render(rows)

    def render(self, rows):
        raise NotImplementedError


class CsvExporter(Exporter):
    def render(self, rows):
        return ",".join(rows)


def export(rows):
    return CsvExporter().run(rows)
'''



def _index_shop(graph, git_repo, repo_name, files: dict[str, str]) -> None:
    """Commit ``files`` into the test's repository and index it."""
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)

def test_a_placeholder_method_reaches_callers_through_its_overrides(graph, git_repo, repo_name) -> None:
    git_repo.write("app/export.py", PLACEHOLDER_SHOP)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    # the call in run() goes to what runs: the override
    direct = analyze_impact(graph, repo_name, "CsvExporter.render", depth=1)
    assert grouped(direct) == {1: [("Exporter.run", "call", ["app/export.py:3"])]}
    # changing the placeholder still puts run() at risk: reached through the override, flagged as dispatch
    base = analyze_impact(graph, repo_name, "Exporter.render", depth=1)
    assert grouped(base) == {1: [("Exporter.run", "dispatch", ["app/export.py:3"])]}
    (run,) = base.callers
    assert run.via.qualified_name == "CsvExporter.render"
    assert any("dynamic dispatch" in r for r in base.completeness.reasons)


LOOKUP_SHOP = {
    "app/walker.py": """\
class Walker:
    def visit(self, node):
        method = "visit_" + type(node).__name__
        visitor = getattr(self, method, self.generic_visit)
        return visitor(node)

    def generic_visit(self, node):
        return None

    def visit_Name(self, node):
        return node.id


def run(tree):
    return Walker().visit(tree)
""",
    "app/commands.py": """\
def on_start(event):
    return "started"


def on_stop(event):
    return "stopped"
""",
    "app/dispatch.py": """\
from app import commands


def dispatch(event):
    return getattr(commands, "on_" + event.kind)(event)


def notify(listener, event):
    return getattr(listener, "handle_" + event.kind)(event)
""",
    "app/listeners.py": """\
class Printer:
    def handle_start(self, event):
        print(event)
""",
}


def test_a_method_looked_up_by_a_built_name_has_its_callers_or_makes_the_answer_a_lower_bound(
        graph, git_repo, repo_name) -> None:
    """`getattr(self, "visit_" + kind)` called reaches visit_Name, `getattr(commands, "on_" + kind)` the module's
    on_start (`reflective` edges, flagged as may-calls); `getattr(listener, "handle_" + kind)` on an object of
    unknown class is followed nowhere: impact on Printer.handle_start has no caller and says that a lookup of
    `handle_*` may call it, instead of calling its empty answer complete."""
    _index_shop(graph, git_repo, repo_name, LOOKUP_SHOP)
    visited = analyze_impact(graph, repo_name, "Walker.visit_Name", depth=2)
    assert grouped(visited) == {1: [("Walker.visit", "call", ["app/walker.py:5"])],
                                2: [("run", "call", ["app/walker.py:15"])]}
    assert visited.callers[0].confidence == 0.6
    assert any("1 call edge(s) reach a callee through a method looked up by a built name" in r
               for r in visited.completeness.reasons)
    started = analyze_impact(graph, repo_name, "on_start", depth=1)
    assert grouped(started) == {1: [("dispatch", "call", ["app/dispatch.py:5"])]}
    handled = analyze_impact(graph, repo_name, "Printer.handle_start", depth=1)
    assert handled.callers == [] and handled.completeness.verdict == "lower_bound"
    assert [(u.label, u.citation, u.reason) for u in handled.completeness.unresolved_same_name] == [
        ("listener.handle_*", "app/dispatch.py:9", "dynamic:getattr")]
    assert any("named handle_*" in r for r in handled.completeness.reasons)


@pytest.mark.parametrize("line, consumed", [
    ("    for row in rows(n):", True),
    ("    return [r * 2 for r in self.rows(n)]", True),
    ("    yield from rows(n)", True),
    ("    total = sum(rows(n))", True),
    ("    text = ''.join(rows(n))", True),
    ("    out.extend(rows(n))", True),
    ("    print(*rows(n))", True),
    ("    for (const r of rows(n)) {", True),
    ("    const all = [...rows(n)];", True),
    ("    yield* rows(n);", True),
    ("    return rows(n)", False),                   # handed to the caller's caller
    ("    stream = self.rows(n)", False),            # kept: iterated later, maybe elsewhere
    ("    return TokenStream(rows(n))", False),      # handed to another function
    ("    # for r in rows(n)", False),                # never a call (then no reference at all)
])
def test_a_generators_call_is_a_reference_unless_it_is_iterated_there(line, consumed) -> None:
    from graphrag_code.impact_references import _reference_kind

    pattern = re.compile(r"(?<![\w$])rows(?![\w$])")
    expected = None if consumed or line.lstrip().startswith("#") else "generator"
    assert _reference_kind(line, pattern, "generator") == expected
    assert _reference_kind(line, pattern) is None                   # a plain function's call is no reference


@pytest.mark.parametrize("line, awaited", [
    ("    return await self.fetch(url)", True),
    ("    data = asyncio.run(fetch(url))", True),
    ("    loop.run_until_complete(fetch(url))", True),
    ("    return self.fetch(url)", False),                # the caller's caller awaits it (Jinja2's auto_await)
    ("    task = asyncio.ensure_future(fetch(url))", False),
])
def test_a_coroutines_call_is_a_reference_unless_it_is_awaited_there(line, awaited) -> None:
    from graphrag_code.impact_references import _reference_kind

    pattern = re.compile(r"(?<![\w$])fetch(?![\w$])")
    assert _reference_kind(line, pattern, "coroutine") == (None if awaited else "coroutine")


def test_python_generators_are_told_by_yield_in_their_own_body() -> None:
    from graphrag_code.impact_references import _python_generator

    assert _python_generator("@cached\ndef rows(n):\n    '''yield rows'''\n    for i in range(n):\n        yield i\n")
    assert _python_generator("    async def ticks(self):\n        x = (yield)\n")
    # a nested generator does not make its outer function one; a docstring or comment saying yield neither
    assert not _python_generator("def pairs(items):\n    def inner():\n        yield 1\n\n    return list(inner())\n")
    assert not _python_generator('def f():\n    """Does not yield."""\n    return 1  # yield\n')
    assert _python_generator("def outer():\n    class K:\n        def m(self):\n            yield 1\n    yield K\n")


GENERATOR_SHOP = {
    "app/rows.py": textwrap.dedent("""\
        def rows(n):
            for i in range(n):
                yield step(i)


        def step(i):
            return i


        def cells(n):
            yield from rows(n)


        def pairs(items):
            def inner():
                yield 1
            return [(a, a) for a in items]


        def total(n):
            return sum(cells(n)) + len(pairs([n]))


        def stream(n):
            return rows(n)


        def listing(n):
            for r in cells(n):
                print(r, stream(r))


        async def fetch(n):
            return n


        async def gather(n):
            return await fetch(n)


        def later(n):
            return fetch(n)
        """),
    "app/deco.py": textwrap.dedent("""\
        import functools


        def logged(func):
            def wrapper(*args):
                return func(*args)
            wrapper = functools.update_wrapper(wrapper, func)
            return wrapper
        """),
    "src/ids.js": textwrap.dedent("""\
        function* ids(n) {
          for (let i = 0; i < n; i++) yield i;
        }

        function first(n) {
          const it = ids(n);
          return it.next().value;
        }

        module.exports = { first };
        """),
}


def test_a_generator_handed_on_makes_the_answer_a_lower_bound(graph, git_repo, repo_name) -> None:
    """`rows` is returned by `stream` (its body then runs wherever that is iterated): lower bound, citing the
    call, for rows and for what rows calls beyond depth 1; `cells` is iterated wherever it is called (`sum(cells(n))`, `for r in cells(n)`): complete; `pairs`
    holds a nested generator but is a plain function: complete; the coroutine function `fetch`, returned unawaited by
    `later`: lower bound; the JavaScript `function*` kept in a variable:
    lower bound."""
    _index_shop(graph, git_repo, repo_name, GENERATOR_SHOP)
    handed = analyze_impact(graph, repo_name, "rows", depth=1)
    assert sorted(c.node.display for c in handed.callers) == ["cells", "stream"]
    assert handed.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in handed.completeness.value_references] == [("app/rows.py:25", "generator")]
    assert any("1 call(s) of generator(s) among the target (rows)" in r for r in handed.completeness.reasons)
    shown = CliRunner().invoke(impact_command, ["rows", "--repo", repo_name, "--depth", "1"])
    assert shown.exit_code == 0 and "LOWER BOUND" in shown.output
    assert re.search(r"app/rows\.py:25 +generator +return rows\(n\)", shown.output), shown.output
    consumed = analyze_impact(graph, repo_name, "cells", depth=1)
    assert sorted(c.node.display for c in consumed.callers) == ["listing", "total"]
    assert consumed.completeness.verdict == "complete", consumed.completeness.reasons
    assert analyze_impact(graph, repo_name, "pairs", depth=1).completeness.verdict == "complete"
    # a caller within the depth that is a generator handed on counts too: step runs in rows, whose callers
    # include wherever stream's result is iterated; at depth 1 rows is the whole answer (it runs step)
    assert analyze_impact(graph, repo_name, "step", depth=1).completeness.verdict == "complete"
    deeper = analyze_impact(graph, repo_name, "step", depth=2)
    assert deeper.completeness.verdict == "lower_bound"
    assert any("1 call(s) of generator(s) among callers within the depth (rows)" in r
               for r in deeper.completeness.reasons)
    # a coroutine function's body runs where it is awaited: `later` hands the coroutine on
    fetched = analyze_impact(graph, repo_name, "fetch", depth=1)
    assert sorted(c.node.display for c in fetched.callers) == ["gather", "later"]
    assert [(r["citation"], r["kind"]) for r in fetched.completeness.value_references] == [("app/rows.py:42", "coroutine")]
    assert any("1 call(s) of coroutine(s) among the target (fetch)" in r for r in fetched.completeness.reasons)
    assert analyze_impact(graph, repo_name, "gather", depth=1).completeness.verdict == "complete"
    # a nested function its enclosing one rebinds and returns: called wherever the result goes, not "0 callers"
    wrapped = analyze_impact(graph, repo_name, "logged.wrapper", depth=1)
    assert wrapped.callers == [] and wrapped.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in wrapped.completeness.value_references] == [
        ("app/deco.py:7", "value"), ("app/deco.py:8", "value")]
    js = analyze_impact(graph, repo_name, "ids", depth=1)
    assert [c.node.display for c in js.callers] == ["first"]
    assert js.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in js.completeness.value_references] == [("src/ids.js:6", "generator")]


FILE_PROTOCOL_SHOP = {
    "app/streams.py": textwrap.dedent('''\
        import io


        class Fixup:
            def __init__(self, stream):
                self._stream = stream

            def seekable(self):
                return True

            def describe(self):
                return "fixup"


        def wrap(stream):
            return io.TextIOWrapper(Fixup(stream))


        def seekable(stream):
            return hasattr(stream, "seek")


        class Session:
            def close(self):
                return None


        def finish(session: Session):
            session.close()
        '''),
}


def test_a_file_protocol_method_may_be_called_by_the_library_it_is_handed_to(graph, git_repo, repo_name) -> None:
    """click's `_FixupStream.seekable` runs inside `io.TextIOWrapper(...)`, which no call in the repository shows:
    a method of the file protocol of a file-like class (one with `seekable`, `fileno`, ...) is a lower bound, as a
    dunder is; another method, a function named like one, and the `close` of a class that is not file-like are
    not."""
    _index_shop(graph, git_repo, repo_name, FILE_PROTOCOL_SHOP)
    method = analyze_impact(graph, repo_name, "Fixup.seekable", depth=1)
    assert method.callers == [] and method.completeness.verdict == "lower_bound"
    assert method.completeness.implicit == [
        "Fixup.seekable is a method of the file protocol: library code (io wrappers, print, shutil) calls it on "
        "objects handed to it, which the graph does not record as a call"]
    assert analyze_impact(graph, repo_name, "Fixup.describe", depth=1).completeness.verdict == "complete"
    assert analyze_impact(graph, repo_name, "app/streams.py#seekable", depth=1).completeness.verdict == "complete"
    closed = analyze_impact(graph, repo_name, "Session.close", depth=1)
    assert [c.node.display for c in closed.callers] == ["finish"] and closed.completeness.verdict == "complete"


@pytest.mark.parametrize("line, kind", [
    ("    cls = Option", "value"),                                       # handed on: constructed elsewhere
    ("HANDLERS = {'p': Option}", "value"),
    ("class Custom(Option):", None),                                    # a base class
    ("class Custom(Base, Option, metaclass=M):", None),
    ("    return Option.default_name", None),                            # its attributes
    ("    Option.validate(x)", None),
    ("    self._opts: t.Dict[str, Option] = {}", None),                  # generics, annotations
    ("def f(ctx: click.Option) -> click.Option:", None),
    ("    opts = [Option, Argument]", "value"),                          # a list literal is a value
    ("    return super(Option, self).parse(x)", None),                   # type checks and super()
    ("    if isinstance(x, (io.IOBase, Option)):", None),
    ("    new_style = isinstance(p, options.Option)", None),
    ("    self.assertIsInstance(r, markdown.util.Option)", None),
    ("    assert_type(cli, click.Option)", None),
    ("    with pytest.raises(click.Option) as excinfo:", None),
    ("    assert type(sub) is Option", None),
    ("    self.opts: util.Registry[Option] = util.Registry()", None),
    ("    assert add(Option) is Option", "value"),                       # handed to add() first
])
def test_class_reference_kinds(line, kind) -> None:
    """Whether a class may be constructed where the graph cannot see: a value yes; a base, an attribute, a type no."""
    from graphrag_code.impact_references import _reference_kind

    assert _reference_kind(line, re.compile(r"(?<![\w$])Option(?![\w$])"), a_class=True) == kind


CONSTRUCTOR_SHOP = {
    "app/models.py": textwrap.dedent('''\
        import typing as t


        class Plain:
            kind = "plain"

            def __init__(self, name):
                self.name = name


        class Special(Plain):
            pass


        class Base:
            @classmethod
            def create(cls):
                return cls()


        class Child(Base):
            def __init__(self):
                self.ready = True


        class Copyable:
            def __init__(self, value=None):
                self.value = value

            def copy(self):
                return type(self)(self.value)


        class Passed:
            def __init__(self):
                self.n = 1


        class Loaded:
            def __init__(self):
                self.n = 2


        def make(name):
            return Plain(name)


        def special():
            return Special("s")


        def describe(p: Plain, others: t.Dict[str, Plain]) -> Plain:
            return Plain.kind


        REGISTRY = {"passed": Passed}
        '''),
    "app/other.py": textwrap.dedent('''\
        class Plain:
            def __init__(self):
                self.other = True
        '''),
    "pyproject.toml": textwrap.dedent('''\
        [project.entry-points."app.plugins"]
        loaded = "app.models:Loaded"
        plain = "app.other:Plain"
        '''),
}


def test_a_constructor_is_complete_unless_its_class_may_be_constructed_out_of_sight(graph, git_repo,
                                                                                    repo_name) -> None:
    """A Python `__init__` runs where its class or a subclass is constructed, which the graph has: it is no
    implicit dunder. It is a lower bound when the class may be constructed where the graph cannot see: an
    ancestor's `cls()`, a `type(self)(...)` in its family, the class handed on as a value, or named by an entry
    point of its own module (`app.models:Loaded`; `app.other:Plain` is not app.models's Plain)."""
    _index_shop(graph, git_repo, repo_name, CONSTRUCTOR_SHOP)
    plain = analyze_impact(graph, repo_name, "app/models.py#Plain.__init__", depth=1)
    assert sorted(c.node.display for c in plain.callers) == ["make", "special"]
    assert plain.completeness.verdict == "complete", plain.completeness.reasons
    assert plain.completeness.implicit == [] and plain.completeness.value_references == []
    child = analyze_impact(graph, repo_name, "Child.__init__", depth=1)
    assert child.completeness.verdict == "lower_bound"
    assert child.completeness.implicit == [
        "Child.__init__ is a constructor, and Base.create construct(s) a class known only at run time (cls(...), "
        "type(self)(...)): it or a subclass, which the graph does not record as a call"]
    copyable = analyze_impact(graph, repo_name, "Copyable.__init__", depth=1)
    assert copyable.completeness.verdict == "lower_bound"
    assert "Copyable.copy construct(s)" in copyable.completeness.implicit[0]
    passed = analyze_impact(graph, repo_name, "Passed.__init__", depth=1)
    assert passed.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"], r["role"]) for r in passed.completeness.value_references] == [
        ("app/models.py:56", "value", "class")]
    loaded = analyze_impact(graph, repo_name, "Loaded.__init__", depth=1)
    assert loaded.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in loaded.completeness.value_references] == [
        ("pyproject.toml:2", "entry_point")]
    assert any("1 entry point(s) name Loaded" in r for r in loaded.completeness.reasons)
    # `app.other:Plain` names the other module's Plain, not app.models's (complete above)
    other = analyze_impact(graph, repo_name, "app/other.py#Plain.__init__", depth=1)
    assert other.callers == [] and other.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in other.completeness.value_references] == [
        ("pyproject.toml:3", "entry_point")]


TEMPLATE_SHOP = {
    "app/loop.py": textwrap.dedent('''\
        class Loop:
            def cycle(self, *args):
                return args[0]

            def other(self):
                return 1

            def shown(self):
                return 2

            def rendered(self):
                return 3
        '''),
    "app/render.py": textwrap.dedent('''\
        from app.loop import Loop

        TEMPLATE = "{% for x in xs %}{{ loop.cycle('a', 'b') }}{% endfor %}"
        __all__ = ["render", "other"]
        LABELS = {"shown": 1, "other": ("rendered", "x")}


        def render(env):
            """Renders; loop.other() in a docstring is prose."""
            # loop.other() in a comment too
            return env.from_string(TEMPLATE)


        def label(loop: Loop):
            return f"<{loop.shown()}>"


        def debug(ext):
            return ext.call_method("rendered", [1])
        '''),
}


def test_a_method_called_in_a_string_of_code_may_be_called_by_code_built_at_run_time(graph, git_repo,
                                                                                        repo_name) -> None:
    """Jinja2's `LoopContext.cycle` runs from compiled templates (`{{ loop.cycle(...) }}` in a test's string): a
    call by name inside a string that is a value makes a lower bound, as does the name as a string handed to a
    call; a docstring, a comment and an f-string's own `{calls}` (extracted as calls) do not."""
    _index_shop(graph, git_repo, repo_name, TEMPLATE_SHOP)
    cycle = analyze_impact(graph, repo_name, "Loop.cycle", depth=1)
    assert cycle.callers == [] and cycle.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in cycle.completeness.value_references] == [
        ("app/render.py:3", "in_string")]
    assert any("1 string(s) of code call cycle" in r for r in cycle.completeness.reasons)
    assert analyze_impact(graph, repo_name, "Loop.other", depth=1).completeness.verdict == "complete"
    shown = analyze_impact(graph, repo_name, "Loop.shown", depth=1)
    assert [c.node.display for c in shown.callers] == ["label"] and shown.completeness.verdict == "complete"
    # a call handed the method's name as a string (Jinja2's `self.call_method("_render", ...)`) may call it; the
    # same string in a list, a dict or a tuple (`__all__`, a table's keys) is not handed to a call
    rendered = analyze_impact(graph, repo_name, "Loop.rendered", depth=1)
    assert rendered.completeness.verdict == "lower_bound"
    assert [(r["citation"], r["kind"]) for r in rendered.completeness.value_references] == [
        ("app/render.py:19", "named_string")]


def test_string_spans_leave_out_docstrings_bare_strings_and_f_strings() -> None:
    from graphrag_code.impact_references import _code_strings

    text = 'def f():\n    """doc x.y()"""\n    "bare"\n    s = "a.b()" + rf"{c.d()}"\n    return g("e.f()")\n'
    assert [text[a:b] for a, b in _code_strings(text)] == ['"a.b()"', '"e.f()"']
    assert _code_strings('    """a string cut by the chunk\n    x = 1\n') == []


DECORATOR_SHOP = {
    "app/__init__.py": "",
    # Django's template Library: `@register.tag` keeps the function in a dict; the parser calls it from there
    "app/library.py": textwrap.dedent('''\
        class Library:
            def __init__(self):
                self.tags = {}

            def tag(self, func):
                self.tags[func.__name__] = func
                return func


        def pass_context(f):
            f.pass_arg = "context"
            return f


        def traced(f):
            def wrapper(*args):
                return f(*args)
            return wrapper


        def keep(*classes):                  # Django's keep_lazy: lazy(func) keeps the function in a proxy
            def decorator(func):
                lazy_func = make_lazy(func, *classes)

                @functools.wraps(func)
                def wrapper(*args):
                    return func(*args)
                return wrapper
            return decorator


        def keep_text(func):
            return keep(str)(func)


        def optimized(f):                    # Jinja2's optimizeconst: its wrapper hands on a node, not f
            def new_func(self, node):
                visited = self.optimizer.visit(node)
                return f(self, visited)
            return functools.update_wrapper(new_func, f)
        '''),
    "app/tags.py": textwrap.dedent('''\
        import functools

        from app.library import Library, keep_text, optimized, pass_context, traced
        from somewhere import signals

        register = Library()


        @register.tag
        def regroup(parser, token):
            return token


        @pass_context
        def marked(context):
            return context


        @traced
        def wrapped(x):
            return x


        @functools.lru_cache
        def cached(x):
            return x


        @signals.receiver
        def on_save(sender):
            return sender


        @keep_text
        def normalize(text):
            return text


        @optimized
        def visit_const(self, node):
            return node


        def use():
            return marked(1), wrapped(2), cached(3), regroup(None, 4), on_save(5), normalize(6), visit_const(7, 8)
        '''),
}


def test_a_decorator_that_may_keep_the_function_makes_the_answer_a_lower_bound(graph, git_repo, repo_name) -> None:
    """A Python definition is handed to its decorators. One that stores it (Django's `@register.tag`: the template
    parser calls it from the library's dict) or a library's one that is not known to wrap it or hand it back
    (`@signals.receiver`), or one that hands it to what may keep it (Django's `keep_lazy_text`: `lazy(func)`) may
    call it where the graph does not see; one that marks it (Jinja2's `@pass_context`), wraps it (`@traced`,
    `@optimized`, whose wrapper hands on its other parameters), or caches it (`@functools.lru_cache`) leaves its
    callers those of its name."""
    _index_shop(graph, git_repo, repo_name, DECORATOR_SHOP)
    verdicts = {name: analyze_impact(graph, repo_name, f"app/tags.py#{name}", depth=1).completeness
                for name in ("regroup", "on_save", "normalize", "marked", "wrapped", "cached", "visit_const")}
    assert {n: c.verdict for n, c in verdicts.items()} == {
        "regroup": "lower_bound", "on_save": "lower_bound", "normalize": "lower_bound", "marked": "complete",
        "wrapped": "complete", "cached": "complete", "visit_const": "complete"}
    assert any("decorated with @register.tag, which may keep the function" in note
               for note in verdicts["regroup"].implicit)
    assert any("@signals.receiver" in note for note in verdicts["on_save"].implicit)


def test_a_class_private_method_is_also_called_by_its_mangled_name(graph, git_repo, repo_name) -> None:
    """Django's `lazy.__proxy__.__cast` is called from outside as `value._proxy____cast()`: Python mangles
    `__name` in a class body to `_Class__name` (leading underscores of the class's name dropped). An unresolved
    call of that name makes the answer a lower bound, as one of `__cast` would."""
    _index_shop(graph, git_repo, repo_name, {
        "app/__init__.py": "",
        "app/proxy.py": textwrap.dedent('''\
            class __proxy__:
                def __cast(self):
                    return 1

                def value(self):
                    return self.__cast()


            class Plain:
                def __hidden(self):
                    return 2
            '''),
        "app/fields.py": "def prep(value):\n    return value._proxy____cast()\n",
    })
    cast = analyze_impact(graph, repo_name, "__proxy__.__cast", depth=1)
    assert [c.node.display for c in cast.callers] == ["__proxy__.value"]
    assert cast.completeness.verdict == "lower_bound"
    assert [(u.label, u.citation) for u in cast.completeness.unresolved_same_name] == [
        ("value._proxy____cast", "app/fields.py:2")]
    assert analyze_impact(graph, repo_name, "Plain.__hidden", depth=1).completeness.verdict == "complete"


def test_a_call_of_a_name_ending_in_function_binds_none_of_its_arguments() -> None:
    """Django's sqlite3 backend registers its SQL functions with `create_deterministic_function("REPEAT", 2,
    _sqlite_repeat)`: `_sqlite_repeat` is a value handed on there, not a parameter of a JavaScript `function(...)`
    (which made the chunk look as if it bound the name, and skipped the reference: a wrong 'complete')."""
    from graphrag_code.impact_references import _local_bindings

    code = 'def register(connection):\n    create_deterministic_function("REPEAT", 2, _sqlite_repeat)\n'
    assert _local_bindings(code) == {"connection"}
    assert _local_bindings("const f = function (a, b) { return a };") >= {"a", "b", "f"}


def test_diff_revision_is_resolved_never_passed_as_an_option(shops, tmp_path) -> None:
    """`git diff` reads a revision starting with '-' as an option (--output=FILE writes a file): refused; any
    other is resolved to its commit first, and the diff runs on that SHA."""
    graph, names, py = shops
    out = tmp_path / "written-by-git"
    for rev in (f"--output={out}", "-p", "--"):
        with pytest.raises(InputError, match="may not start with '-'"):
            analyze_impact(graph, names["py"], diff=rev)
    assert not out.exists()
    with pytest.raises(InputError, match="not a commit of the indexed checkout: 'no-such-branch'"):
        analyze_impact(graph, names["py"], diff="no-such-branch")
    head = py.git("rev-parse", "HEAD")
    r = analyze_impact(graph, names["py"], diff="HEAD")
    assert r.diff["command"] == ("git diff -U0 --no-color --no-ext-diff --no-textconv --src-prefix=a/ "
                                 f"--dst-prefix=b/ --relative {head} {head} --") and not r.targets
    for rev in ("", "  "):    # an unset $BASE: was HEAD against itself, nothing touched, COMPLETE
        with pytest.raises(InputError, match="an empty one"):
            analyze_impact(graph, names["py"], diff=rev)


def test_value_references_count_only_in_languages_that_can_name_the_target(graph, git_repo, repo_name) -> None:
    """An eleventh QA pass: impact of a Rust `Acc::new` listed Java's `new Object()` and a Ruby class method's
    bare `new` as value references (role target), and said LOWER BOUND for them. A name is looked for in the
    languages of the files defining it (C with C++, JavaScript with TypeScript); a Rust function handed as a value
    still counts."""
    git_repo.write("Cargo.toml", '[package]\nname = "rs3"\nversion = "0.1.0"\n')
    git_repo.write("src/lib.rs", "mod calc;\n\npub fn direct() -> i32 {\n    calc::Acc::new();\n    1\n}\n")
    git_repo.write("src/calc.rs", "pub struct Acc { v: i32 }\n\nimpl Acc {\n    pub fn new() -> Acc { Acc { v: 0 } }\n}\n\n"
                                  "pub fn maker() -> fn() -> Acc {\n    Acc::new\n}\n")
    git_repo.write("Main.java", "public class Main {\n    public static void main(String[] args) {\n"
                                "        Object o = new Object();\n    }\n}\n")
    git_repo.write("make.rb", "class Foo\n  def self.make\n    new\n  end\nend\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "Acc.new", depth=1)
    assert grouped(result) == {1: [("direct", "call", ["src/lib.rs:4"])]}
    assert [r["citation"] for r in result.completeness.value_references] == ["src/calc.rs:8"]
