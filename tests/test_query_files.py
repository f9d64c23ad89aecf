"""Query files are data and are checked when they load: Cypher headers and parameters, tree-sitter captures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphrag_code import cypher
from graphrag_code.errors import QueryFileError
from graphrag_code.extract import check_captures


def test_every_cypher_file_loads_with_a_description() -> None:
    statements = cypher.load_all()
    assert {"schema", "stage_nodes", "promote", "delete_files", "repo_dump"} <= set(statements)
    for name, st in statements.items():
        assert st.description, f"{name}.cypher has no description line"


@pytest.mark.parametrize("text, error", [
    ("// name: other\n// params: a\nRETURN $a", "must equal the file name"),
    ("// name: q\nRETURN 1", "no 'params:' line"),
    ("// name: q\n// params: a\nRETURN $a, $b", "declared params ['a'] but the body uses ['a', 'b']"),
    ("// name: q\n// params: a, c\nRETURN $a", "declared params ['a', 'c'] but the body uses ['a']"),
    ("// name: q\n// params:\n", "no statement"),
])
def test_malformed_cypher_files_are_rejected_when_loaded(tmp_path: Path, text: str, error: str) -> None:
    (tmp_path / "q.cypher").write_text(text)
    with pytest.raises(QueryFileError, match=error.replace("[", r"\[").replace("]", r"\]")):
        cypher.load_all(tmp_path)


def test_dollar_inside_strings_is_not_a_parameter(tmp_path: Path) -> None:
    (tmp_path / "q.cypher").write_text("// name: q\n// x\n// params: a\nRETURN $a, '$notparam' AS s")
    assert cypher.load_all(tmp_path)["q"].params == frozenset({"a"})


def test_calls_must_pass_exactly_the_declared_parameters() -> None:
    st = cypher.load("promote")
    st.check({"repo": "r", "run": "x"})
    with pytest.raises(QueryFileError, match="missing \\['run'\\]"):
        st.check({"repo": "r"})
    with pytest.raises(QueryFileError, match="unexpected \\['evil'\\]"):
        st.check({"repo": "r", "run": "x", "evil": 1})


def test_a_missing_or_miscalled_statement_is_no_neo4j_failure(graph) -> None:
    """Raised through Graph.run, Graph.transaction and Tx.run, a query-file error stays one (exit 1), instead
    of turning into "Neo4j failed" (exit 3): a package built without its cypher/ folder must say so."""
    from graphrag_code.errors import DatabaseError
    for call in (lambda: graph.run("no_such_statement"), lambda: graph.run("promote", repo="r")):
        with pytest.raises(QueryFileError) as raised:
            call()
        assert not isinstance(raised.value, DatabaseError)
    with pytest.raises(QueryFileError, match="no Cypher statement named 'nope'"), graph.transaction() as tx:
        tx.run("nope")


@pytest.mark.parametrize("capture", ["definition.banana", "reference.jump", "whatever", "import.thing"])
def test_unknown_tree_sitter_captures_are_rejected(capture: str) -> None:
    with pytest.raises(QueryFileError, match=f"unknown capture @{capture}"):
        check_captures(["name", capture], "x-tags.scm")


def test_every_lookup_by_id_can_use_a_unique_index() -> None:
    """`(:Symbol {id: $x})` is a label scan: the unique index is on CodeNode.id (and Repository.id, Pending.uid,
    GraphragMeta.key). A node pattern that looks a node up by id must carry one of those labels."""
    import re

    indexed = {"CodeNode", "Repository"}
    offenders = []
    for path in sorted(cypher.CYPHER_DIR.glob("*.cypher")):
        for m in re.finditer(r"\(\s*\w*\s*((?::\w+)+)\s*\{\s*id\s*:", path.read_text()):
            if not indexed & set(m.group(1).strip(":").split(":")):
                offenders.append(f"{path.name}: {m.group(0)}")
    assert offenders == []


def _plan_operators(plan: dict) -> list[tuple[str, str]]:
    own = [(plan["operatorType"].split("@")[0], plan.get("args", {}).get("Details", ""))]
    return own + [op for child in plan.get("children", []) for op in _plan_operators(child)]


def test_no_statement_scans_every_repository_s_nodes(graph) -> None:
    """A node found by ``{repo: $repo}`` alone cannot use the (repo, path) indexes: the planner scans every
    File, Symbol or Chunk of the database, every repository's, and filters them by repository, so a small
    repository's counts took 0.6 s beside Django's. Plans are read with EXPLAIN, which runs nothing; a scan the
    planner chooses for other reasons (a test symbol anywhere, on a small database) is not this."""
    scans = {}
    with graph._session() as session:
        for name, st in cypher.load_all().items():
            if name == "schema":
                continue
            for text in st.texts:
                ops = _plan_operators(session.run("EXPLAIN " + text, {p: None for p in st.params}).consume().plan)
                scanned = [d.split(":")[0] for op, d in ops if op.endswith(("LabelScan", "AllNodesScan"))]
                filtered = [v for v in scanned for op, d in ops
                            if op == "Filter" and re.search(rf"\b{re.escape(v)}\.repo = ", d)]
                if filtered and name != "path_files":   # path_files: every repository's files unless one is given
                    scans[name] = filtered
    assert scans == {}
