"""`impact --diff REV` and the definitions the diff removes (graphrag_code.impact, `graphrag-code impact`): a
definition REV has and the indexed commit lacks (deleted from its file, its file deleted or renamed away) is
listed under `removed` with its lines at REV and the callers at the indexed commit that still call its name
(unresolved calls of that name, calls resolution now binds by that name alone to another definition). Callers
left make the answer no complete one and count for --fail-on. Git repositories built here, indexed into the real
Neo4j."""

from __future__ import annotations

import json

from click.testing import CliRunner

from graphrag_code.cli_graph import FAIL_ON_EXIT_CODE, impact_command
from graphrag_code import impact
from graphrag_code.impact import analyze_impact
from graphrag_code.indexer import index_repository

A_PY = ("def foo():\n"              # 1
        "    return 1\n"            # 2
        "\n\n"
        "def bar():\n"              # 5
        "    return 2\n")           # 6
B_PY = ("from a import bar, foo\n"  # 1
        "\n\n"
        "def use_foo():\n"          # 4
        "    return foo()\n"        # 5
        "\n\n"
        "def use_bar():\n"          # 8
        "    return bar()\n")       # 9
K_PY = ("class K:\n"                # 1
        "    def go(self):\n"       # 2
        "        return self.foo()\n")   # 3: a method call, never the function foo


def _two_commits(graph, git_repo, repo_name, before: dict[str, str], after: dict[str, str | None]) -> None:
    """Commit ``before``, then ``after`` (None deletes a path), and index the second commit."""
    for path, text in before.items():
        git_repo.write(path, text)
    git_repo.commit("before")
    for path, text in after.items():
        if text is None:
            git_repo.git("rm", "-q", path)
        else:
            git_repo.write(path, text)
    git_repo.commit("after")
    index_repository(graph, git_repo.root, name=repo_name)


def _removed(result) -> list[tuple]:
    return [(r.qualified_name, r.kind, r.path, r.start_line, r.end_line, r.file_gone,
             [(c.node.display, c.kind, c.call, c.citations) for c in r.callers]) for r in result.removed]


def test_a_removed_function_still_called_elsewhere_is_impacted(graph, git_repo, repo_name) -> None:
    """The QA repro: commit 2 removes foo from a.py and edits bar; b.py still calls foo. use_foo's call is broken
    (unresolved in the graph now): it is listed under the removed foo, counts for --fail-on, and the verdict is
    not COMPLETE. `self.foo()` in a method is no call of the function foo."""
    _two_commits(graph, git_repo, repo_name, {"a.py": A_PY, "b.py": B_PY, "k.py": K_PY},
                 {"a.py": "def bar():\n    return 22\n"})
    base = git_repo.git("rev-parse", "HEAD~1")
    r = analyze_impact(graph, repo_name, diff="HEAD~1")
    assert [t.node.qualified_name for t in r.targets] == ["bar"]
    assert [c.node.display for c in r.callers] == ["use_bar"]
    assert r.completeness.verdict == "lower_bound"
    assert r.impacted == 2                                    # use_bar, and use_foo whose call broke
    assert "removed (foo) are still called" in r.completeness.reasons[0]
    assert _removed(r) == [("foo", "function", "a.py", 1, 2, False,
                            [("use_foo", "unresolved", "foo", ["b.py:5"])])]
    assert r.removed[0].commit == base

    runner = CliRunner()
    text = runner.invoke(impact_command, ["--diff", "HEAD~1", "--repo", repo_name, "--fail-on", "1"])
    assert text.exit_code == FAIL_ON_EXIT_CODE and "fail-on: 2 impacted > 1" in text.output
    assert "COMPLETE" not in text.output and "completeness: LOWER BOUND" in text.output
    out = text.output
    assert out.index("removed by the diff: 1 definition(s)") < out.index("completeness:")
    assert "a.py:1-2 @ " + base[:12] in out and "at b.py:5" in out and "foo  unresolved (unknown)" in out
    assert runner.invoke(impact_command, ["--diff", "HEAD~1", "--repo", repo_name, "--fail-on", "2"]).exit_code == 0

    data = json.loads(runner.invoke(impact_command, ["--diff", "HEAD~1", "--repo", repo_name, "--json"]).output)
    assert data["counts"]["impacted"] == 2 and data["completeness"]["verdict"] == "lower_bound"
    [foo] = data["removed"]
    assert {k: foo[k] for k in ("name", "qualified_name", "path", "start_line", "end_line", "commit", "citation",
                                "file_gone", "moved_to")} == {
        "name": "foo", "qualified_name": "foo", "path": "a.py", "start_line": 1, "end_line": 2, "commit": base,
        "citation": "a.py:1-2", "file_gone": False, "moved_to": None}
    [caller] = foo["callers"]
    assert (caller["node"]["qualified_name"], caller["kind"], caller["call"], caller["citations"],
            caller["reason"]) == ("use_foo", "unresolved", "foo", ["b.py:5"], "unknown")
    assert caller["node"]["commit"] == data["commit"]         # callers are cited at the indexed commit


def test_a_deleted_file_whose_function_is_still_called(graph, git_repo, repo_name) -> None:
    """A whole file deleted: no indexed symbol is touched, yet its function is still called (no COMPLETE); a file
    renamed away removes its definitions under the old path (moved_to names the new one); nothing calls
    those."""
    _two_commits(graph, git_repo, repo_name, {
        "util.py": "def helper():\n    return 1\n\n\ndef unused():\n    return 2\n",
        "main.py": "from util import helper\n\n\ndef run():\n    return helper()\n",
        "old_name.py": "def moved():\n    return 3\n"}, {"util.py": None})
    git_repo.git("mv", "old_name.py", "new_name.py")
    git_repo.commit("rename")
    index_repository(graph, git_repo.root, name=repo_name)
    r = analyze_impact(graph, repo_name, diff="HEAD~2")
    assert r.targets == [] and r.callers == []
    assert r.completeness.verdict == "lower_bound" and r.impacted == 1
    assert _removed(r) == [
        ("moved", "function", "old_name.py", 1, 2, True, []),
        ("helper", "function", "util.py", 1, 2, True, [("run", "unresolved", "helper", ["main.py:5"])]),
        ("unused", "function", "util.py", 5, 6, True, [])]
    assert [x.moved_to for x in r.removed] == ["new_name.py", None, None]

    out = CliRunner().invoke(impact_command, ["--diff", "HEAD~2", "--repo", repo_name, "--fail-on", "0"])
    assert out.exit_code == FAIL_ON_EXIT_CODE and "fail-on: 1 impacted > 0" in out.output
    assert "no indexed symbol is touched (the diff removes 3 definition(s): below)" in out.output
    assert "COMPLETE" not in out.output
    assert out.output.index("util.py:1-2 @") < out.output.index("completeness:") < out.output.index(
        "note: util.py: only on the old side")
    assert "(file renamed to new_name.py) no caller left" in out.output


def test_a_removed_function_no_longer_called_is_listed_without_impact(graph, git_repo, repo_name) -> None:
    """foo and its only caller use_foo both removed: both listed, no caller left, nothing impacted by them, and
    the verdict stays complete. A diff that removes no definition has an empty `removed` and no such section."""
    _two_commits(graph, git_repo, repo_name, {"a.py": A_PY, "b.py": B_PY},
                 {"a.py": A_PY.replace("def foo():\n    return 1\n\n\n", ""),
                  "b.py": B_PY.replace(", foo", "").replace("def use_foo():\n    return foo()\n\n\n", "")})
    r = analyze_impact(graph, repo_name, diff="HEAD~1")
    assert _removed(r) == [("foo", "function", "a.py", 1, 2, False, []),
                           ("use_foo", "function", "b.py", 4, 5, False, [])]
    assert r.completeness.verdict == "complete"
    assert r.impacted == sum(1 for c in r.callers if not c.node.is_test)
    out = CliRunner().invoke(impact_command, ["--diff", "HEAD~1", "--repo", repo_name])
    assert out.exit_code == 0 and "completeness: COMPLETE" in out.output
    assert "foo" in out.output.split("removed by the diff: 2 definition(s)")[1].split("completeness:")[0]

    git_repo.write("a.py", "def bar():\n    return 2\n\n\ndef baz():\n    return bar()\n")
    git_repo.commit("add baz")
    index_repository(graph, git_repo.root, name=repo_name)
    added = analyze_impact(graph, repo_name, diff="HEAD~1")
    assert added.removed == [] and added.to_dict()["removed"] == []
    text = CliRunner().invoke(impact_command, ["--diff", "HEAD~1", "--repo", repo_name]).output
    assert "removed by the diff" not in text


def test_a_removed_method_whose_name_became_unique_lists_the_call_that_rebound(graph, git_repo, repo_name) -> None:
    """Circle.area removed while Square.area stays: `shape.area()` was no unique-name call at REV (two methods
    had the name); now resolution binds it by the name alone to Square.area. The graph made that edge because of
    the removal: the caller is listed (kind 'rebound', with the definition it reaches now) and impacted."""
    _two_commits(graph, git_repo, repo_name, {
        "shapes.py": "class Circle:\n    def area(self):\n        return 1\n\n\n"
                     "class Square:\n    def area(self):\n        return 2\n",
        "use.py": "def total(shape):\n    return shape.area()\n"},
        {"shapes.py": "class Circle:\n    pass\n\n\nclass Square:\n    def area(self):\n        return 2\n"})
    r = analyze_impact(graph, repo_name, diff="HEAD~1")
    assert r.completeness.verdict == "lower_bound" and r.impacted == 1
    assert _removed(r) == [("Circle.area", "method", "shapes.py", 2, 3, False,
                            [("total", "rebound", "area", ["use.py:2"])])]
    rebound = r.removed[0].callers[0]
    assert rebound.now_calls.qualified_name == "Square.area" and rebound.reason == "method_unique"


def test_parse_removals_old_side_lines_deletions_renames_and_copies() -> None:
    text = ("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n"
            "@@ -3,0 +4,2 @@\n+\n+def f():\n"                       # added only: nothing removed
            "@@ -10,2 +12,0 @@\n--- a comment\n-    b = 2\n"         # a removed line that starts with '--'
            "@@ -20 +20 @@\n-old\n+new\n"
            "diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n"
            "@@ -1,2 +0,0 @@\n-x\n-y\n"
            "diff --git a/m1.py b/m2.py\nsimilarity index 100%\nrename from m1.py\nrename to m2.py\n"
            "diff --git a/src.py b/copy.py\nsimilarity index 90%\ncopy from src.py\ncopy to copy.py\n"
            "--- a/src.py\n+++ b/copy.py\n@@ -4 +4 @@\n-a\n+b\n")
    lines, gone = impact.parse_removals(text)
    assert lines == {"x.py": [(10, 11), (20, 20)], "gone.py": [(1, 2)]}
    assert gone == {"gone.py": None, "m1.py": "m2.py"}
