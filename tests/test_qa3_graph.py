"""Findings of the third QA pass on the graph side, end to end against the real Neo4j: Go impact verdicts that a
`package main` clause made lower bounds, Go methods called on locals, and `embed` racing a delete."""

from __future__ import annotations

import json
import uuid

from click.testing import CliRunner

from graphrag_code.cli import main
from graphrag_code.cli_graph import impact_command
from graphrag_code.db import Graph
from graphrag_code.indexer import delete_repository, index_repository

GO = {
    "go.mod": "module example.com/flow\n\ngo 1.22\n",
    "main.go": """package main

func main() {
	run()
}

func run() {
	_ = Validate("x")
	_ = Report()
}
""",
    "worker.go": """package main

func Validate(s string) bool {
	return s != ""
}

type Square struct{ S float64 }

func (q Square) Area() float64 { return q.S * q.S }

func Report() float64 {
	sq := Square{S: 2}
	return sq.Area()
}
""",
}


def test_go_impact_is_complete_despite_package_main_and_reaches_methods_of_locals(graph: Graph, git_repo,
                                                                                  repo_name: str) -> None:
    """`package main` in every file of the package named the caller `main` as a value: every target reaching
    main was a lower bound. `sq := Square{S: 2}; sq.Area()` had no caller without --lsp."""
    for path, text in GO.items():
        git_repo.write(path, text)
    git_repo.commit("flow")
    index_repository(graph, git_repo.root, name=repo_name)
    runner = CliRunner()

    out = runner.invoke(impact_command, ["Validate", "--repo", repo_name, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert sorted(c["node"]["qualified_name"] for cs in data["callers"].values() for c in cs) == ["main", "run"]
    assert data["completeness"]["value_references"] == []
    assert data["completeness"]["verdict"] == "complete", data["completeness"]["reasons"]

    area = json.loads(runner.invoke(impact_command, ["Square.Area", "--repo", repo_name, "--json"]).output)
    first = area["callers"]["1"]
    assert [(c["node"]["qualified_name"], c["citations"]) for c in first] == [("Report", ["worker.go:13"])]
    assert area["completeness"]["verdict"] == "complete", area["completeness"]["reasons"]


def test_embed_of_a_repository_deleted_meanwhile_fails_with_the_indexing_exit_code(graph: Graph, git_repo,
                                                                                   repo_name: str, monkeypatch,
                                                                                   tmp_path) -> None:
    """`graphrag-code delete` while the vectors are filled: `embed` ends with an error and exit 6, not with the
    vectors counted as filled."""
    from graphrag_code import embeddings

    marker = uuid.uuid4().hex           # text no cache holds: the model runs on it
    git_repo.write("a.py", f"def f():\n    return '{marker}'\n\n\ndef g():\n    return f()\n")
    git_repo.commit("a")
    index_repository(graph, git_repo.root, name=repo_name)
    real = embeddings.load_embedder(None)

    class DeletesTheRepository:
        model_id, dim, max_tokens = real.model_id, real.dim, real.max_tokens

        def embed(self, texts: list[str]) -> list[list[float]]:
            delete_repository(graph, repo_name)         # as `graphrag-code delete` from another shell
            return real.embed(texts)

    monkeypatch.setattr(embeddings, "load_embedder", lambda *_, **__: DeletesTheRepository())
    monkeypatch.setenv("GRAPHRAG_STATE_DIR", str(tmp_path))
    out = CliRunner().invoke(main, ["embed", "--repo", repo_name])
    assert out.exit_code == 6, out.output
    assert f"repository {repo_name!r} was deleted while its vectors were filled" in out.output
    assert graph.run("repo_get", repo=repo_name) == []


def test_names_on_the_lines_of_a_multi_line_import_are_no_references(graph: Graph, git_repo, repo_name) -> None:
    """`import {\\n  startBatch,\\n} from "./internal"` and `from .x import (\\n    helper,\\n)`: only the first line
    of an import was recognised, so the name on the next lines was a value reference and every verdict a lower
    bound (MobX's startBatch: 7 such lines; fifth QA pass)."""
    from graphrag_code.impact import analyze_impact

    git_repo.write("src/batch.ts", "export function startBatch(): void {}\n")
    git_repo.write("src/api.ts", 'import {\n  startBatch,\n  type Other,\n} from "./batch";\n\n'
                                 "export function run(): void {\n  startBatch();\n}\n")
    git_repo.write("pkg/__init__.py", "")
    git_repo.write("pkg/x.py", "def helper():\n    return 1\n")
    git_repo.write("pkg/y.py", "from .x import (\n    helper,\n)\n\n\ndef use():\n    return helper()\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    for target, caller in (("startBatch", "run"), ("helper", "use")):
        result = analyze_impact(graph, repo_name, target, depth=1)
        assert [c.node.qualified_name for c in result.callers] == [caller]
        assert result.completeness.value_references == [], result.completeness.value_references
        assert result.completeness.verdict == "complete", result.completeness.reasons


def test_a_sibling_subclass_calling_the_base_through_super_is_no_dynamic_caller(graph: Graph, git_repo,
                                                                                repo_name) -> None:
    """impact of BadOptionUsage.__init__ listed BadParameter.__init__ (whose super().__init__() reaches
    UsageError.__init__, never a sibling's) and the target itself as dynamic-dispatch callers (fifth QA pass)."""
    from graphrag_code.impact import analyze_impact

    git_repo.write("exc.py", "class Base:\n    def run(self):\n        return 0\n\n\n"
                             "class Left(Base):\n    def run(self):\n        return super().run() + 1\n\n\n"
                             "class Right(Base):\n    def run(self):\n        return super().run() + 2\n\n\n"
                             "def drive(b: Base):\n    return b.run()\n\n\n"
                             # a sibling calling the base method on another object may run Right.run (Jinja's
                             # PrefixLoader.list_templates calls each loader's: a runtime caller of the others)
                             "class Prefix(Base):\n    def __init__(self, inner: Base):\n        self.inner = inner\n\n"
                             "    def run(self):\n        inner: Base = self.inner\n        return inner.run()\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "Right.run", depth=1)
    dispatch = sorted(c.node.qualified_name for c in result.completeness.dynamic_dispatch)
    assert dispatch == ["Prefix.run", "drive"], dispatch
    # a class deriving from both makes Left.run's super().run() run Right.run (the MRO): a caller again
    git_repo.write("both.py", "from exc import Left, Right\n\n\nclass Both(Left, Right):\n    pass\n")
    git_repo.commit("v2")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "Right.run", depth=1)
    assert sorted(c.node.qualified_name for c in result.completeness.dynamic_dispatch) == ["Left.run", "Prefix.run",
                                                                                           "drive"]
