"""Findings of the ninth QA pass and the items earlier notes left, against the real Neo4j where they need it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def test_ctrl_c_while_the_command_line_imports_exits_130_without_a_traceback() -> None:
    """The console script imported graphrag_code.cli (about a second) before any handler existed: a Ctrl-C
    then printed a KeyboardInterrupt traceback from inside an import. A real SIGINT, delivered while one of the
    command line's modules is being imported."""
    script = textwrap.dedent("""
        import importlib.abc, os, signal, sys

        # as on a terminal: a job started in the background by a shell without job control (CI) inherits SIGINT
        # ignored, and Python then raises no KeyboardInterrupt for it
        signal.signal(signal.SIGINT, signal.default_int_handler)

        class Interrupt(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "graphrag_code.cli_cypher":     # imported with the command line (ask loads later)
                    os.kill(os.getpid(), signal.SIGINT)
                return None

        sys.meta_path.insert(0, Interrupt())
        sys.argv = ["graphrag-code", "--version"]
        from graphrag_code.entry import main
        main()
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.strip() == "interrupted" and "Traceback" not in proc.stderr, proc.stderr


def test_the_console_script_runs_the_command_line() -> None:
    proc = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['graphrag-code', '--version'];"
                           " from graphrag_code.entry import main; main()"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "graphrag-code, version" in proc.stdout, (proc.returncode, proc.stderr)


OFFSET_FILES = {
    "bom.py": b"\xef\xbb\xbfdef a():\n    return 1\n",
    "inv.py": b"# \xff\xfe\ndef b():\n    return '\xe9'\n\n\ndef after():\n    return 2\n",
    "sec.py": b'password = "s3cr3t-P4ssw0rd-xyz"\n\n\ndef c():\n    token = "sk_live_51Habc0123456789abcdefABCDEF"\n'
              b'    return token\n\n\ndef d():\n    return 3\n',
    "mac.py": b"def m():\r    return 1\r\rdef n():\r    return 2\r",
}


def test_symbol_byte_offsets_are_offsets_into_the_blob(graph, git_repo, repo_name) -> None:
    """start_byte/end_byte were offsets into the text after the BOM was dropped, invalid bytes became U+FFFD
    (3 bytes each) and secrets were redacted: blob[start:end] cut the definition mid-token (ninth QA pass)."""
    from graphrag_code.indexer import index_repository

    for path, data in OFFSET_FILES.items():
        git_repo.write(path, data)
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    rows = [n["props"] for n in graph.run("repo_dump", repo=repo_name)[0]["nodes"] if "Symbol" in n["labels"]]
    got = {r["name"]: OFFSET_FILES[r["path"]][r["start_byte"]:r["end_byte"]] for r in rows}
    assert got == {
        "a": b"def a():\n    return 1",
        "b": b"# \xff\xfe\ndef b():\n    return '\xe9'",     # (a comment right above is the definition's)
        "after": b"def after():\n    return 2",
        "c": b'def c():\n    token = "sk_live_51Habc0123456789abcdefABCDEF"\n    return token',
        "d": b"def d():\n    return 3",
        "m": b"def m():\r    return 1",
        "n": b"def n():\r    return 2",
    }, got


def test_impact_diff_of_odd_files_and_any_git_config(graph, git_repo, repo_name) -> None:
    """Ninth QA pass: a diff of a Latin-1 file, or of a file whose name git quotes and that is not ASCII, crashed
    (UnicodeDecodeError, a 500 from the API); diff.mnemonicPrefix / diff.noprefix made every changed file "not
    indexed" and the verdict COMPLETE; a lone-CR file's every change touched its first definition (git sees one
    line); a changed line starting with a form feed was read as blank and its hunk skipped."""
    from graphrag_code.impact import analyze_impact
    from graphrag_code.indexer import index_repository

    quoted = 'café "v2".py'
    v1 = {"lat.py": b'def lat():\n    return "caf\xe9"\n',
          quoted: b"def quoted():\n    return 1\n",
          "mac.py": b"def first():\r    return 1\r\r\rdef second():\r    return 2\r",
          "ff.py": b"def before():\n    return 0\n\x0cdef target(a):\n    return a\n",
          "b/deep.py": b"def deep():\n    return 1\n",
          "u.py": b"from mac import second\nfrom ff import target\n\n\ndef user():\n    return second() + target(1)\n"}
    for path, data in v1.items():
        git_repo.write(path, data)
    git_repo.commit("v1")
    git_repo.write("lat.py", v1["lat.py"].replace(b"caf\xe9", b"caf\xe9s"))
    git_repo.write(quoted, v1[quoted].replace(b"1", b"2"))
    git_repo.write("mac.py", v1["mac.py"].replace(b"return 2", b"return 22"))
    git_repo.write("ff.py", v1["ff.py"].replace(b"target(a)", b"target(a, b=2)"))
    git_repo.write("b/deep.py", v1["b/deep.py"].replace(b"1", b"2"))
    git_repo.commit("v2")
    index_repository(graph, git_repo.root, name=repo_name)
    for config in (None, "diff.mnemonicPrefix", "diff.noprefix"):
        if config:
            git_repo.git("config", config, "true")
        r = analyze_impact(graph, repo_name, diff="HEAD~1")
        assert sorted(t.node.qualified_name for t in r.targets) == ["deep", "lat", "quoted", "second", "target"], \
            (config, [t.reason for t in r.targets], r.notes)
        assert [c.node.display for c in r.callers] == ["user"], config
        if config:
            git_repo.git("config", "--unset", config)
    assert analyze_impact(graph, repo_name, diff="HEAD~1").diff["hunks"]["mac.py"] == [[6, 6]]
    git_repo.write("b/deep.py", b"def deep():\n    return 3\n")
    git_repo.git("add", "b/deep.py")
    git_repo.git("config", "diff.mnemonicPrefix", "true")        # --cached: c/ and i/
    assert [t.node.qualified_name for t in analyze_impact(graph, repo_name, staged=True).targets] == ["deep"]


@pytest.mark.parametrize("setting", ["attributes", "autocrlf"])
def test_a_crlf_checkout_of_lf_blobs_is_no_changed_working_tree(graph, git_repo, repo_name, setting) -> None:
    """With `*.py text eol=crlf` or core.autocrlf=true (Windows' default) git calls the checkout clean, yet every
    citation of `ask` said "the working-tree file differs at these lines" and linked the working tree (ninth QA
    pass): its lines keep their CRs, the indexed ones (the LF blob's) have none."""
    import json

    from click.testing import CliRunner

    from graphrag_code.cli import main
    from graphrag_code.indexer import index_repository

    if setting == "attributes":
        git_repo.write(".gitattributes", "*.py text eol=crlf\n")
    else:
        git_repo.git("config", "core.autocrlf", "true")
    git_repo.write("a.py", "def g():\n    return 1\n\n\ndef caller():\n    return g()\n")
    git_repo.commit("v1")
    (git_repo.root / "a.py").unlink()
    git_repo.git("checkout", "a.py")
    assert b"\r\n" in (git_repo.root / "a.py").read_bytes() and git_repo.git("status", "--porcelain") == ""
    index_repository(graph, git_repo.root, name=repo_name)
    result = CliRunner().invoke(main, ["ask", "what calls g?", "--repo", repo_name, "--no-llm", "--json"])
    assert result.exit_code == 0, result.output
    citations = json.loads(result.output)["citations"]
    assert citations and all(c["status"] == "ok" and not c["worktree_changed"] and not c["reason"]
                             for c in citations), citations

    (git_repo.root / "a.py").write_bytes(b"def g():\r\n    return 2\r\n\r\n\r\ndef caller():\r\n    return g()\r\n")
    result = CliRunner().invoke(main, ["ask", "what calls g?", "--repo", repo_name, "--no-llm", "--json"])
    by_line = {c["start_line"]: c for c in json.loads(result.output)["citations"]}
    assert by_line[1]["worktree_changed"] and not by_line[5]["worktree_changed"], by_line


def test_names_and_paths_with_a_hash_sign(graph, git_repo, repo_name, monkeypatch) -> None:
    """Any text with `#` was taken for an id (ninth QA pass): `impact 'h#sh.py'` found the file's id and answered
    for its module-level code alone (0 callers, COMPLETE), `./h#sh.py` was never made repository-relative, and
    JavaScript's private methods could not be named as the output names them (`Store.#bump`)."""
    import json

    from click.testing import CliRunner

    from graphrag_code.cli import main
    from graphrag_code.indexer import index_repository
    from graphrag_code.paths import resolve_endpoint

    git_repo.write("h#sh.py", "def hf():\n    return 1\n")
    git_repo.write("u.py", "from importlib import import_module\n\n\ndef uses():\n    return hf()\n\n\n"
                           "def hf_user():\n    return hf()\n")
    git_repo.write("store.js", "class Store {\n  #bump(n) {\n    return n + 1;\n  }\n  add(n) {\n"
                               "    return this.#bump(n);\n  }\n}\n\nfunction useStore() {\n  const s = new Store();\n  return s.add(1);\n}\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    monkeypatch.chdir(git_repo.root)
    for target in ("h#sh.py", "./h#sh.py", f"{repo_name}:h#sh.py"):
        result = CliRunner().invoke(main, ["impact", target, "--repo", repo_name, "--json"])
        assert result.exit_code == 0, (target, result.output)
        out = json.loads(result.output)
        assert [t["node"]["qualified_name"] for t in out["targets"]] == [None, "hf"], target    # the file, its def
        assert sorted(c["node"]["qualified_name"] for c in out["callers"]["1"]) == ["hf_user", "uses"], target
    for name in ("Store.#bump", "#bump"):
        assert resolve_endpoint(graph, repo_name, name, allow_file=True).node.qualified_name == "Store.#bump", name
    result = CliRunner().invoke(main, ["path", "useStore", "Store.#bump", "--repo", repo_name, "--json"])
    assert result.exit_code == 0 and "store.js:6" in result.output, result.output
    result = CliRunner().invoke(main, ["impact", "nothing#here", "--repo", repo_name])
    assert result.exit_code == 2 and f"no symbol with id '{repo_name}:nothing#here'" in result.output, result.output


def test_a_file_name_with_a_backslash_is_cited_and_served(graph, git_repo, repo_name, client) -> None:
    """git allows a backslash in a name and the indexer indexed such a file, but every citation of it was
    "stale: unsafe path" and /v1/source refused it as not relative (ninth QA pass). On POSIX it is a character."""
    import json

    from click.testing import CliRunner

    from graphrag_code.cli import main
    from graphrag_code.indexer import index_repository

    git_repo.write("back\\slash.py", "def backslash_helper():\n    return 1\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    resp = client.get("/v1/source", query_string={"repo": repo_name, "path": "back\\slash.py", "start": 1, "end": 2})
    assert resp.status_code == 200 and resp.json["lines"] == ["def backslash_helper():", "    return 1"], resp.json
    result = CliRunner().invoke(main, ["ask", "backslash_helper", "--repo", repo_name, "--no-llm", "--json"])
    cited = [c for c in json.loads(result.output)["citations"] if c["path"] == "back\\slash.py"]
    assert cited and all(c["status"] == "ok" for c in cited), cited


def test_source_of_a_plain_directory_serves_unmoved_blank_lines(graph, client, repo_name, tmp_path) -> None:
    """Lines 1-4 of a file whose last function changed: 1 and 3-4 lie in unchanged chunks, 2 is a blank line no
    chunk holds; it was a 409 saying the indexed lines 'are not all there any more' (ninth QA pass)."""
    from graphrag_code.indexer import index_repository

    (tmp_path / "a.py").write_text("import os\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n")
    index_repository(graph, tmp_path, name=repo_name)
    (tmp_path / "a.py").write_text("import os\n\ndef f():\n    return 1\n\n\ndef g():\n    return 3\n")

    def get(start: int, end: int):
        return client.get("/v1/source", query_string={"repo": repo_name, "path": "a.py", "start": start, "end": end})
    for start, end in ((1, 4), (2, 2), (3, 4)):
        resp = get(start, end)
        assert resp.status_code == 200, (start, end, resp.json)
    assert get(3, 5).status_code == 409          # 5 is blank, but the chunk below it changed: it may have moved
    assert get(1, 4).json["lines"] == ["import os", "", "def f():", "    return 1"]
    assert get(7, 8).status_code == 409
    (tmp_path / "a.py").write_text("import os\n\ndef f():\n    return 1\n\n# new\ndef g():\n    return 2\n")
    assert get(6, 6).status_code == 409          # a line no chunk held is not blank any more
    (tmp_path / "a.py").write_text("import os\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n")
    assert get(2, 2).status_code == 409          # a blank line inserted: the chunk below it moved


def test_a_git_lfs_pointer_is_skipped_with_its_reason(graph, git_repo, repo_name) -> None:
    """A Git LFS pointer (`model.py` whose content lives on an LFS server) was indexed as Python with syntax
    errors (ninth QA pass): a skip with its reason, as every other file not indexed."""
    from graphrag_code.indexer import index_repository

    git_repo.write("model.py", "version https://git-lfs.github.com/spec/v1\noid sha256:" + "ab" * 32 +
                   "\nsize 1234567\n")
    git_repo.write("real.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    summary = index_repository(graph, git_repo.root, name=repo_name)
    assert summary.skipped.get("lfs-pointer") == ["model.py"], summary.skipped
    assert summary.files_parsed == 1


def test_a_transient_error_inside_a_statement_is_retried(graph, monkeypatch) -> None:
    """Graph.run translated the driver's errors inside the managed transaction, so the driver never saw a
    transient one and never retried it: a deadlock between two index runs ended one with exit 3 (ninth QA pass).
    A real DeadlockDetected error raised by the first attempt's statement; the retry runs it on the real server."""
    import neo4j
    from neo4j import exceptions as neo4j_errors

    real_run, attempts = neo4j.ManagedTransaction.run, []

    def run_once_deadlocked(self, query, parameters=None, **kwargs):
        attempts.append(query)
        if len(attempts) == 1:
            raise neo4j_errors.Neo4jError._hydrate_neo4j(code="Neo.TransientError.Transaction.DeadlockDetected",
                                                         message="deadlock (raised by the test)")
        return real_run(self, query, parameters, **kwargs)

    monkeypatch.setattr(neo4j.ManagedTransaction, "run", run_once_deadlocked)
    rows = graph.run("meta_get", key="schema")
    assert len(attempts) == 2 and rows and rows[0]["schema_version"], (attempts, rows)


P1_CS = """namespace N
{
    public partial class A
    {
        public void Run()
        {
            Hook();
        }

        protected virtual void Hook() { }
    }
}
"""
P2_CS = """namespace N
{
    public partial class A
    {
        public void Other() { }
    }

    public class B : A
    {
        protected override void Hook() { Other(); }
    }
}
"""


def test_a_subclass_of_a_csharp_partial_class_overrides_the_methods_of_every_part(graph, git_repo,
                                                                                   repo_name) -> None:
    """B : A inherited only the part of A its name resolved to (P2.cs), which does not declare Hook: A.Run's
    call of Hook had no dispatch edge to B.Hook, and `impact N.B.Hook` said 0 callers, COMPLETE (ninth QA pass)."""
    from graphrag_code.impact import analyze_impact
    from graphrag_code.indexer import index_repository

    git_repo.write("P1.cs", P1_CS)
    git_repo.write("P2.cs", P2_CS)
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    edges = graph.run("repo_dump", repo=repo_name)[0]["edges"]
    inherits = sorted(e["dst"].split(":", 1)[1] for e in edges if e["type"] == "INHERITS")
    assert inherits == ["P1.cs#N.A", "P2.cs#N.A"], inherits
    calls = {(e["src"].split("#")[1], e["dst"].split("#")[1], e["props"]["resolved_by"])
             for e in edges if e["type"] == "CALLS"}
    assert ("N.A.Run", "N.B.Hook", "dispatch") in calls, calls
    r = analyze_impact(graph, repo_name, "N.B.Hook")
    assert [c.node.display for c in r.callers] == ["N.A.Run"], [c.node.display for c in r.callers]


def test_a_read_a_swap_committed_under_is_run_again(graph, git_repo, repo_name) -> None:
    """Neo4j reads are read committed: a request's statements that straddle a swap's commit mixed two commits
    (search hits of one commit's lines under the other's SHA; ninth QA pass). Graph.consistent sees the swap by the
    repository's snapshot marker and reads again. Here the first attempt's swap is a real index run of a new
    commit, between its two statements."""
    from graphrag_code.errors import SnapshotMoved
    from graphrag_code.indexer import index_repository

    git_repo.write("a.py", "def f():\n    return 1\n")
    first = git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    attempts = []

    def read() -> tuple[str, str]:
        before = graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"]
        attempts.append(before)
        if len(attempts) == 1:
            git_repo.write("a.py", "# moved\ndef f():\n    return 1\n")
            git_repo.commit("v2")
            index_repository(graph, git_repo.root, name=repo_name)
        return before, graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"]

    seen = graph.consistent(read)
    assert len(attempts) == 2 and attempts[0] == first and seen[0] == seen[1] != first, (attempts, seen)

    calls = []

    def deleted_under() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise SnapshotMoved("a node was deleted under the read (raised by the test)")
        return "read"
    assert graph.consistent(deleted_under) == "read" and len(calls) == 3

    def always_moved() -> str:
        calls.append(1)
        raise SnapshotMoved("a node was deleted under the read (raised by the test)")
    calls.clear()
    with pytest.raises(SnapshotMoved):
        graph.consistent(always_moved)
    assert len(calls) == 3


def test_entity_not_found_is_translated_to_snapshot_moved() -> None:
    from neo4j import exceptions as neo4j_errors

    from graphrag_code.db import _translate
    from graphrag_code.errors import SnapshotMoved

    exc = neo4j_errors.Neo4jError._hydrate_neo4j(code="Neo.ClientError.Statement.EntityNotFound",
                                                 message="Node 7672 was unexpectedly deleted")
    assert isinstance(_translate(exc, "call_paths"), SnapshotMoved)


def test_a_database_that_is_starting_is_unavailable_not_a_database_error() -> None:
    """/readyz showed the driver's words while Neo4j booted ('meta_get: Neo.TransientError.General.
    DatabaseUnavailable: ...'): every other 503 says Neo4j is unavailable and logs the cause (ninth QA pass)."""
    from neo4j import exceptions as neo4j_errors

    from graphrag_code.db import _translate
    from graphrag_code.errors import DatabaseUnavailable

    exc = neo4j_errors.Neo4jError._hydrate_neo4j(code="Neo.TransientError.General.DatabaseUnavailable",
                                                 message="The database is not currently available to serve your "
                                                         "request")
    assert isinstance(_translate(exc, "meta_get"), DatabaseUnavailable)


def test_the_api_reads_search_paths_impact_and_symbols_on_one_snapshot(graph, git_repo, repo_name, client,
                                                                       monkeypatch) -> None:
    from graphrag_code.db import Graph
    from graphrag_code.indexer import index_repository

    git_repo.write("a.py", "def f():\n    return 1\n\n\ndef g():\n    return f()\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    real, used = Graph.consistent, []

    def recorded(self, read, attempts=3):
        used.append(request_path())
        return real(self, read, attempts)

    from flask import request

    def request_path() -> str:
        return request.path
    monkeypatch.setattr(Graph, "consistent", recorded)
    assert client.post("/v1/search", json={"query": "f", "repo": repo_name}).status_code == 200
    assert client.post("/v1/paths", json={"source": "g", "target": "f", "repo": repo_name}).status_code == 200
    assert client.post("/v1/impact", json={"target": "f", "repo": repo_name}).status_code == 200
    assert client.get(f"/v1/symbols/{repo_name}:a.py%23f").status_code == 200
    assert used == ["/v1/search", "/v1/paths", "/v1/impact", f"/v1/symbols/{repo_name}:a.py#f"], used


def test_a_run_that_waited_for_another_runs_swap_reports_the_snapshot_it_finished_on(graph, git_repo, repo_name,
                                                                                     monkeypatch) -> None:
    """The later of two runs read the repository before repo_begin waited for the earlier run's swap: finding
    nothing to do, it printed the counts of the commit before (ninth QA pass). The read before the wait is given
    here as it was then: the first commit's row, while the graph holds the second's."""
    from graphrag_code import indexer
    from graphrag_code.indexer import index_repository

    git_repo.write("a.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    stale = graph.run("repo_get", repo=repo_name)
    git_repo.write("b.py", "def g():\n    return 2\n\n\ndef h():\n    return g()\n")
    second = git_repo.commit("v2")
    first_run = index_repository(graph, git_repo.root, name=repo_name)
    monkeypatch.setattr(indexer, "_wait_for_swap", lambda *args: stale)
    later = index_repository(graph, git_repo.root, name=repo_name)
    assert later.files_parsed == 0 and later.commit == second
    assert (later.symbols, later.edges) == (first_run.symbols, first_run.edges) == (3, later.edges), \
        (later.symbols, first_run.symbols)


def test_a_receiver_declared_a_librarys_type_is_not_guessed_by_its_name() -> None:
    """`Map<String, String> attributes; attributes.get(tag)` went to the repository's Attributes.get, and
    `String protocol; protocol.equals(...)` to a nested Protocol.equals (receiver_name, 0.7): 3 of jsoup's 8 such
    guesses (ninth QA pass). One declared the repository's type still reaches it (`Open.read`)."""
    from test_resolve import _extracted

    from graphrag_code.resolve import resolve

    files = _extracted({
        "p/Attributes.java": "package p;\n\npublic class Attributes {\n    public String get(String key) "
                             "{ return key; }\n}\n",
        "p/Safe.java": """package p;

import java.util.Map;
import java.util.HashMap;
import java.net.URL;

public class Safe {
    private final Map<String, String> attributes = new HashMap<>();

    public String lookup(String tag) {
        return attributes.get(tag);
    }

    public boolean check(URL url) {
        String protocol = url.getProtocol();
        return protocol.equals("http");
    }

    static class Protocol {
        public boolean equals(Object o) { return false; }
    }
}
""",
        "p/Open.java": "package p;\n\npublic class Open {\n    String read(Attributes attributes) {\n"
                       "        return attributes.get(key());\n    }\n\n    String guess(Object holder) {\n"
                       "        return holder.hashCode();\n    }\n}\n",
    }, "java")
    res = resolve("r", files)
    calls = {(src.split("#")[1], dst.split("#")[1]) for (etype, src, dst) in res.edges if etype == "CALLS"}
    assert ("Safe.lookup", "Attributes.get") not in calls and ("Safe.check", "Safe.Protocol.equals") not in calls, \
        calls
    assert ("Open.read", "Attributes.get") in calls, calls


def test_a_ruby_class_method_and_an_instance_method_of_one_name_each_get_their_calls() -> None:
    """`def self.offset` beside `def offset`: every call went to the last of the name, the instance method, and
    `Other.build(1)` inside the instance `build` was a call of itself (tzinfo's set_timezone_offset; ninth QA
    pass). A constant receiver, or a bare or `self.` call in a class method, runs the class method."""
    from test_resolve import _calls_from, _extracted

    from graphrag_code.resolve import resolve

    files = _extracted({"ts.rb": """class Stamp
  def self.offset(a, b)
    helper(a)
  end

  def offset(b)
    helper(b)
  end

  def self.helper(x)
    x
  end

  def helper(x)
    x
  end

  class << self
    def make(x)
      offset(x, 1)
    end
  end
end

class Other
  def self.build(x)
    x
  end

  def build
    Other.build(1)
  end
end

def go
  Stamp.offset(1, 2)
  Stamp.make(3)
end
"""}, "ruby")
    res = resolve("r", files)
    assert _calls_from(res, "ts.rb#go") == {("Stamp.offset", "class_attr"), ("Stamp.make", "class_attr")}
    assert _calls_from(res, "ts.rb#Other.build~2") == {("Other.build", "class_attr")}
    assert {dst for dst, _how in _calls_from(res, "ts.rb#Stamp.offset")} == {"Stamp.helper"}
    assert {dst for dst, _how in _calls_from(res, "ts.rb#Stamp.offset~2")} == {"Stamp.helper~2"}
    assert {dst for dst, _how in _calls_from(res, "ts.rb#Stamp.make")} == {"Stamp.offset"}


def test_a_php_namespaced_function_imported_or_fully_qualified_gets_its_calls() -> None:
    """`use function App\\helper_fn; helper_fn();` and `\\App\\helper_fn();` were unresolved (`unknown`) while a
    file that imported nothing had its edge by the unique name (ninth QA pass): a correct import lost the caller."""
    from test_resolve import _calls_from, _extracted

    from graphrag_code.resolve import resolve

    files = _extracted({
        "src/Writer.php": "<?php\nnamespace App;\n\nfunction helper_fn(): int\n{\n    return 1;\n}\n\n"
                          "function other(): int\n{\n    return \\App\\helper_fn();\n}\n",
        "src/Sub/Deep.php": "<?php\nnamespace App\\Sub {\n    function deep(): int { return 2; }\n}\n",
        "src/Caller.php": "<?php\nnamespace Other;\n\nuse function App\\helper_fn;\nuse function App\\Sub\\deep as d;"
                          "\n\nclass Caller\n{\n    public function a(): int\n    {\n        return helper_fn() + "
                          "\\App\\helper_fn() + d() + \\App\\Sub\\deep();\n    }\n}\n",
        "src/Twin.php": "<?php\nnamespace Twin;\n\nfunction helper_fn(): int\n{\n    return 3;\n}\n",
    }, "php")
    res = resolve("r", files)
    assert {k[2] for k in res.edges if k[0] == "CALLS" and k[1] == "r:src/Caller.php#Caller.a"} == {
        "r:src/Writer.php#helper_fn", "r:src/Sub/Deep.php#App\\Sub.deep"}
    assert {dst for dst, _how in _calls_from(res, "src/Writer.php#other")} == {"helper_fn"}
