"""Call paths (graphrag_code.paths and `graphrag-code path`) on small real repositories indexed into the real
Neo4j: exact hops with call-site lines, k-best ordering, dynamic dispatch, endpoint resolution, and the
frontier with the unresolved call that could hide a path when there is none."""

from __future__ import annotations

import json
import uuid

import pytest
from click.testing import CliRunner

from graphrag_code.cli_graph import path_command
from graphrag_code.db import Graph
from graphrag_code.errors import InputError, NotFound
from graphrag_code.indexer import delete_repository, index_repository
from graphrag_code.paths import find_paths, repository, resolve_endpoint

# A Python shop. Line numbers matter: the tests below cite them.
SHOP = {
    "app/__init__.py": "",
    "app/storage.py": (
        "def save_row(row):\n"                       # 1
        "    return write(row)\n"                    # 2
        "\n\n"
        "def write(row):\n"                          # 5
        "    return row\n"                           # 6
        "\n\n"
        "def load_row(oid):\n"                       # 9
        "    return {'id': oid}\n"),                 # 10
    "app/notify.py": (
        "from app.storage import save_row\n"         # 1
        "\n\n"
        "class Notifier:\n"                          # 4
        "    def flush(self, order):\n"              # 5
        "        return save_row(order)\n"),         # 6
    "app/service.py": (
        "from app.notify import Notifier\n"          # 1
        "from app.storage import load_row, save_row\n"
        "\n\n"
        "class BaseService:\n"                       # 5
        "    def process(self, order):\n"            # 6
        "        self.audit(order)\n"                # 7
        "        return self.validate(order)\n"      # 8
        "\n"
        "    def validate(self, order):\n"           # 10
        "        return order\n"
        "\n"
        "    def audit(self, order):\n"              # 13
        "        return order\n"
        "\n\n"
        "class OrderService(BaseService):\n"         # 17
        "    def __init__(self):\n"                  # 18
        "        self.notifier = Notifier()\n"       # 19
        "\n"
        "    def cancel(self, oid):\n"               # 21
        "        order = load_row(oid)\n"            # 22
        "        self.process(order)\n"              # 23
        "        self.notifier.flush(order)\n"       # 24
        "        return persist(order)\n"            # 25
        "\n"
        "    def validate(self, order):\n"           # 27
        "        return save_row(order)\n"           # 28
        "\n\n"
        "def persist(order):\n"                      # 31
        "    return save_row(order)\n"               # 32
        "\n\n"
        "def refund(order, handler):\n"              # 35
        "    persist(order)\n"                       # 36
        "    handler.apply_refund(order)\n"          # 37
        "    return order\n"),                       # 38
    "app/refunds.py": (
        "class CardRefund:\n"
        "    def apply_refund(self, order):\n"       # 2
        "        return order\n"
        "\n\n"
        "class CashRefund:\n"
        "    def apply_refund(self, order):\n"       # 7
        "        return order\n"),
    "app/views.py": (
        "from app.service import OrderService\n"
        "\n\n"
        "@app.route('/orders/<oid>/cancel')\n"       # 4
        "def cancel_view(oid):\n"
        "    return OrderService().cancel(oid)\n"),  # 6
    "app/cli.py": (
        "import sys\n"
        "from app.service import refund\n"
        "\n\n"
        "def main():\n"                              # 5
        "    return refund(sys.argv[1], None)\n"     # 6
        "\n\n"
        "if __name__ == '__main__':\n"               # 9
        "    main()\n"),                             # 10
    "app/hooks.py": (
        "class Registry:\n"
        "    def __init__(self):\n"                 # 2
        "        self.items = {}\n"
        "\n"
        "    @property\n"                           # 5
        "    def size(self):\n"
        "        return len(self.items)\n"
        "\n"
        "    def __len__(self):\n"                  # 9
        "        return self.size\n"
        "\n\n"
        "def make_registry():\n"                    # 13
        "    return Registry()\n"                   # 14
        "\n\n"
        "def on_event(event):\n"                    # 17
        "    return event\n"
        "\n\n"
        "HANDLERS = {'event': on_event}\n"),        # 21
    "tests/test_service.py": (
        "from app.service import OrderService, persist\n"
        "\n\n"
        "def test_persist():\n"                      # 4
        "    assert persist({'id': 1})\n"            # 5
        "\n\n"
        "def test_cancel_flow():\n"                  # 8
        "    assert helper_cancel()\n"               # 9
        "\n\n"
        "def helper_cancel():\n"                     # 12
        "    return OrderService().cancel(1)\n"),    # 13
}

# The same shape in JavaScript (CommonJS).
SHOP_JS = {
    "src/db.js": (
        "function load(id) {\n"
        "  return { id };\n"
        "}\n"
        "\n"
        "function save(order) {\n"                   # 5
        "  return order;\n"
        "}\n"
        "\n"
        "module.exports = { load, save };\n"),
    "src/orders.js": (
        "const db = require('./db');\n"
        "\n"
        "class Notifier {\n"                         # 3
        "  send(order) {\n"                          # 4
        "    return db.save(order);\n"               # 5
        "  }\n"
        "}\n"
        "\n"
        "function cancelOrder(id) {\n"               # 9
        "  const order = db.load(id);\n"             # 10
        "  return notify(order);\n"                  # 11
        "}\n"
        "\n"
        "function notify(order) {\n"                 # 14
        "  return new Notifier().send(order);\n"     # 15
        "}\n"
        "\n"
        "module.exports = { cancelOrder };\n"),
    "src/routes.js": (
        "const { cancelOrder } = require('./orders');\n"
        "\n"
        "function cancelHandler(req, res) {\n"       # 3
        "  res.json(cancelOrder(req.params.id));\n"  # 4
        "}\n"
        "\n"
        "module.exports = function register(app) {\n"
        "  app.post('/orders/:id/cancel', cancelHandler);\n"
        "};\n"),
    "test/orders.test.js": (
        "const { cancelOrder } = require('../src/orders');\n"
        "\n"
        "test('cancel', () => {\n"
        "  expect(cancelOrder(1)).toBeTruthy();\n"   # 4
        "});\n"),
}


def build(repo_cls, root, files: dict[str, str]):
    repo = repo_cls(root)
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("shop")
    return repo


@pytest.fixture(scope="module")
def shop(tmp_path_factory, neo4j_settings):
    """(graph, repo name, GitRepo) for the Python shop and (graph, name) for the JS one, indexed once."""
    from conftest import GitRepo

    names = {"py": f"test-paths-py-{uuid.uuid4().hex[:8]}", "js": f"test-paths-js-{uuid.uuid4().hex[:8]}"}
    py = build(GitRepo, tmp_path_factory.mktemp("shop") / "py", SHOP)
    js = build(GitRepo, tmp_path_factory.mktemp("shop") / "js", SHOP_JS)
    with Graph(neo4j_settings) as graph:
        index_repository(graph, py.root, name=names["py"])
        index_repository(graph, js.root, name=names["js"])
        yield graph, names, py
        for name in names.values():
            delete_repository(graph, name)


def hops(path) -> list[tuple[str, str, str, list[str], float]]:
    return [(h.caller.display, h.callee.display, h.kind, h.citations, h.confidence) for h in path.hops]


def test_k_best_paths_with_exact_hops_lines_and_ranking(shop) -> None:
    graph, names, _ = shop
    result = find_paths(graph, names["py"], "OrderService.cancel", "save_row", k=4)
    assert result.found and result.commit and len(result.commit) == 40
    assert [(p.length, p.confidence) for p in result.paths] == [(2, 0.855), (2, 0.765), (3, 0.432), (4, 0.3249)]
    assert hops(result.paths[0]) == [
        ("OrderService.cancel", "persist", "call", ["app/service.py:25"], 0.95),
        ("persist", "save_row", "call", ["app/service.py:32"], 0.9)]
    assert hops(result.paths[1]) == [
        # self.notifier = Notifier() in __init__: the attribute holds a Notifier
        ("OrderService.cancel", "Notifier.flush", "call", ["app/service.py:24"], 0.85),
        ("Notifier.flush", "save_row", "call", ["app/notify.py:6"], 0.9)]
    # the third and fourth go through dynamic dispatch: process() calls self.validate, which OrderService
    # overrides. The resolver gave that call an edge to the override (cited at the call site)...
    assert hops(result.paths[2]) == [
        ("OrderService.cancel", "BaseService.process", "call", ["app/service.py:23"], 0.8),
        ("BaseService.process", "OrderService.validate", "dispatch", ["app/service.py:8"], 0.6),
        ("OrderService.validate", "save_row", "call", ["app/service.py:28"], 0.9)]
    # ...and the query finds it through the class hierarchy too, as for any receiver (cited at the class line
    # that inherits)
    assert hops(result.paths[3]) == [
        ("OrderService.cancel", "BaseService.process", "call", ["app/service.py:23"], 0.8),
        ("BaseService.process", "BaseService.validate", "call", ["app/service.py:8"], 0.95),
        ("BaseService.validate", "OrderService.validate", "dispatch", ["app/service.py:17"], 0.475),
        ("OrderService.validate", "save_row", "call", ["app/service.py:28"], 0.9)]
    first = result.paths[0].hops[0]
    assert (first.caller.repo, first.caller.commit, first.caller.path, first.caller.start_line,
            first.caller.end_line) == (names["py"], result.commit, "app/service.py", 21, 25)
    assert first.caller.id == f"{names['py']}:app/service.py#OrderService.cancel"
    # k=1 keeps only the best; a smaller depth bound drops the longer path
    assert [p.length for p in find_paths(graph, names["py"], "OrderService.cancel", "save_row", k=1).paths] == [2]
    assert [p.length for p in find_paths(graph, names["py"], "OrderService.cancel", "save_row", k=5,
                                         max_hops=3).paths] == [2, 2, 3]


def test_endpoints_by_id_file_line_module_path_and_phrase(shop) -> None:
    graph, names, _ = shop
    repo = names["py"]
    by_id = resolve_endpoint(graph, repo, "app/service.py#persist")
    assert (by_id.how, by_id.node.qualified_name) == ("id", "persist")
    at_line = resolve_endpoint(graph, repo, "app/service.py:24")
    assert (at_line.how, at_line.node.qualified_name) == ("file_line", "OrderService.cancel")
    assert "innermost symbol containing line 24" in at_line.reason and "OrderService" in at_line.reason
    module = resolve_endpoint(graph, repo, "service.py:10")       # a suffix of the path works too
    assert module.node.qualified_name == "BaseService.validate"
    top = resolve_endpoint(graph, repo, "app/cli.py:10")
    assert (top.how, top.node.label, top.node.path) == ("module_code", "File", "app/cli.py")
    dotted = resolve_endpoint(graph, repo, "service.OrderService.cancel")
    assert (dotted.how, dotted.node.qualified_name) == ("module_qualified", "OrderService.cancel")
    phrase = resolve_endpoint(graph, repo, "cancel view")
    assert (phrase.how, phrase.node.name) == ("phrase", "cancel_view")
    with pytest.raises(NotFound, match="no symbol matches the phrase 'frobnicate the widgets'") as phrase_err:
        resolve_endpoint(graph, repo, "frobnicate the widgets")
    assert phrase_err.value.hint == "give a symbol name, id or file:line; `search` finds code by description"
    with pytest.raises(NotFound, match="no symbol named 'nope'"):
        resolve_endpoint(graph, repo, "nope")
    # a line the file does not have is an error, not the file's module-level code
    for outside in ("app/cli.py:0", "app/cli.py:9999"):
        with pytest.raises(InputError, match=r"line \d+ is outside app/cli.py \(lines 1-\d+\)"):
            resolve_endpoint(graph, repo, outside)


def test_ambiguous_names_list_candidates_and_prefer_exact_then_non_test(shop) -> None:
    graph, names, _ = shop
    res = resolve_endpoint(graph, names["py"], "validate")
    assert res.ambiguous and res.how == "name"
    assert {c.qualified_name for c in res.candidates} == {"BaseService.validate", "OrderService.validate"}
    assert "ambiguous: 2 candidates" in res.reason
    exact = resolve_endpoint(graph, names["py"], "OrderService.validate")
    assert not exact.ambiguous and exact.how == "exact_qualified" and len(exact.candidates) == 2
    refund = resolve_endpoint(graph, names["py"], "apply_refund")
    assert refund.ambiguous and refund.node.qualified_name == "CardRefund.apply_refund"   # first by path/line


def test_no_path_reports_frontier_and_the_unresolved_call_that_could_hide_one(shop) -> None:
    graph, names, _ = shop
    result = find_paths(graph, names["py"], "refund", "CardRefund.apply_refund")
    assert not result.found and result.paths == []
    f = result.frontier
    assert f is not None
    assert f.per_depth == {1: 1, 2: 1, 3: 1} and f.reached == 3 and not f.cut_at_bound   # persist, save_row, write
    assert [(u.label, u.citation, u.reason, u.node.qualified_name) for u in f.suspects] == [
        ("handler.apply_refund", "app/service.py:37", "dynamic", "refund")]
    assert f.target_callers == []
    # the JSON shape says the same
    data = result.to_dict()
    assert data["found"] is False and data["paths"] == [] and data["frontier"]["per_depth"] == {"1": 1, "2": 1, "3": 1}
    assert data["frontier"]["suspects"][0]["citation"] == "app/service.py:37"


def test_class_endpoint_counts_its_members(shop) -> None:
    graph, names, _ = shop
    result = find_paths(graph, names["py"], "cancel_view", "Notifier")
    # cancel_view -> OrderService.cancel -> Notifier.flush (a member of the class)
    assert [h.callee.display for h in result.paths[0].hops] == ["OrderService.cancel", "Notifier.flush"]
    assert any("Notifier is a class" in n for n in result.notes)


def test_file_line_of_a_path_with_spaces_or_a_hash(graph, git_repo, repo_name) -> None:
    """`dir with space/my file.js:2` was taken for a phrase and `src/a#b.py:1` for an id (fourth QA pass): a
    path:line whose path is exactly an indexed file's is file:line, whatever the path holds."""
    git_repo.write("dir with space/my file.js", "// helpers\nfunction spaced() {\n  return 1;\n}\n")
    git_repo.write("src/a#b.py", "def hashed():\n    return 2\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    spaced = resolve_endpoint(graph, repo_name, "dir with space/my file.js:2")
    assert (spaced.how, spaced.node.qualified_name) == ("file_line", "spaced")
    hashed = resolve_endpoint(graph, repo_name, "src/a#b.py:1")
    assert (hashed.how, hashed.node.qualified_name) == ("file_line", "hashed")
    assert resolve_endpoint(graph, repo_name, "src/a#b.py#hashed").how == "id"
    with pytest.raises(NotFound, match="no symbol matches the phrase"):     # no such file: still a phrase
        resolve_endpoint(graph, repo_name, "dir with space/other.js:2")


def test_a_test_runners_test_is_found_by_its_name_with_spaces(graph, git_repo, repo_name) -> None:
    """`it('finds a query')` is the symbol `it finds a query` in `describe queryCache`: by its name or qualified
    name it was "no symbol matches the phrase" (fourth QA pass); only its id worked."""
    git_repo.write("src/cache.ts", "export function findQuery(key: string) {\n  return key;\n}\n")
    git_repo.write("test/cache.test.ts", "import { findQuery } from '../src/cache';\n\n"
                   "describe('queryCache', () => {\n  it('finds a query', () => {\n    findQuery('a');\n  });\n});\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    for text in ("it finds a query", "describe queryCache.it finds a query"):
        found = resolve_endpoint(graph, repo_name, text)
        assert found.node.qualified_name == "describe queryCache.it finds a query", (text, found)
    result = find_paths(graph, repo_name, "it finds a query", "findQuery")
    assert [p.length for p in result.paths] == [1]


def test_javascript_path_and_file_line(shop) -> None:
    graph, names, _ = shop
    result = find_paths(graph, names["js"], "cancelHandler", "src/db.js:6")
    assert result.target.node.qualified_name == "save"
    assert hops(result.paths[0]) == [
        ("cancelHandler", "cancelOrder", "call", ["src/routes.js:4"], 0.9),
        ("cancelOrder", "notify", "call", ["src/orders.js:11"], 0.95),
        ("notify", "Notifier.send", "call", ["src/orders.js:15"], 0.85),     # `new Notifier().send()`: its class's
        ("Notifier.send", "save", "call", ["src/orders.js:5"], 0.9)]
    none = find_paths(graph, names["js"], "save", "cancelHandler")
    assert not none.found and none.frontier.reached == 0


def test_cli_path_text_json_and_errors(shop, monkeypatch) -> None:
    _, names, py = shop
    runner = CliRunner()
    text = runner.invoke(path_command, ["OrderService.cancel", "save_row", "--repo", names["py"], "-k", "2"])
    assert text.exit_code == 0, text.output
    assert "2 paths within 8 hops" in text.output
    assert "-> persist" in text.output and "at app/service.py:25" in text.output
    out = runner.invoke(path_command, ["OrderService.cancel", "save_row", "--repo", names["py"], "--json"])
    data = json.loads(out.output)
    assert set(data) == {"repo", "commit", "source", "target", "max_hops", "k", "found", "shortest", "paths",
                         "frontier", "notes"}
    assert data["shortest"] == 2 and len(data["paths"]) == 3
    hop = data["paths"][0]["hops"][0]
    assert set(hop) == {"from", "to", "kind", "lines", "confidence", "resolved_by", "citations"}
    assert hop["citations"] == ["app/service.py:25"] and hop["from"]["start_line"] == 21
    assert data["source"]["chosen"]["id"].endswith("#OrderService.cancel")

    nopath = runner.invoke(path_command, ["refund", "CardRefund.apply_refund", "--repo", names["py"]])
    assert nopath.exit_code == 0
    assert "No call path" in nopath.output and "handler.apply_refund" in nopath.output
    assert "could hide" in nopath.output

    monkeypatch.chdir(py.root / "app")            # no --repo: the indexed repository containing the cwd
    here = runner.invoke(path_command, ["persist", "save_row", "--explain"])
    assert here.exit_code == 0, here.output
    assert "1 path within 8 hops" in here.output and "call_paths_dispatch" in here.output   # --explain on stderr

    missing = runner.invoke(path_command, ["nope", "save_row", "--repo", names["py"]])
    assert missing.exit_code == InputError.exit_code and "no symbol named 'nope'" in missing.output
    unknown = runner.invoke(path_command, ["a", "b", "--repo", "no-such-repo-here"])
    assert unknown.exit_code == InputError.exit_code and "is not indexed" in unknown.output
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    down = runner.invoke(path_command, ["a", "b", "--repo", "x"])
    assert down.exit_code == 3 and "Neo4j is not reachable" in down.output


def test_a_path_to_a_placeholder_ends_at_the_override_its_call_was_resolved_to(graph, git_repo, repo_name) -> None:
    from test_impact import PLACEHOLDER_SHOP

    from graphrag_code.indexer import index_repository

    git_repo.write("app/export.py", PLACEHOLDER_SHOP)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    r = find_paths(graph, repo_name, "export", "Exporter.render")
    assert [[(h.caller.display, h.callee.display, h.citations) for h in p.hops] for p in r.paths] == [[
        ("export", "Exporter.run", ["app/export.py:15"]),
        ("Exporter.run", "CsvExporter.render", ["app/export.py:3"])]]
    assert any("only raises NotImplementedError" in n for n in r.notes)


class _Repositories:
    """A graph holding only repository nodes: all ``repository`` reads."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids

    def run(self, name: str, /, **params) -> list[dict]:
        return [] if name == "repo_get" else [{"repo": {"id": i}} for i in self.ids]


def test_the_unknown_repository_hint_says_how_many_it_leaves_out() -> None:
    ids = [f"repo-{i:02d}" for i in range(34)]
    with pytest.raises(NotFound) as many:
        repository(_Repositories(ids), "nope")
    assert many.value.hint == (f"indexed: {', '.join(ids[:20])} ... and 14 more; `graphrag-code status` lists "
                               f"them; index it with `graphrag-code index PATH`")
    with pytest.raises(NotFound) as few:
        repository(_Repositories(ids[:20]), "nope")
    assert few.value.hint == f"indexed: {', '.join(ids[:20])}; index it with `graphrag-code index PATH`"


def test_an_unmatched_phrase_of_a_target_that_may_be_a_file_offers_a_file_path(shop) -> None:
    graph, names, _ = shop
    with pytest.raises(NotFound, match="no symbol matches the phrase 'frobnicate the widgets'") as err:
        resolve_endpoint(graph, names["py"], "frobnicate the widgets", allow_file=True)
    assert err.value.hint == "give a symbol name, id, file:line or file path; `search` finds code by description"
    for unknown in ("app/service.py#nope", "app/nowhere.py:3"):
        with pytest.raises(NotFound):
            resolve_endpoint(graph, names["py"], unknown)


def test_a_depth_below_the_paths_length_says_a_longer_path_may_exist(graph, git_repo, repo_name) -> None:
    """`path main leaf --depth 1` where main -> mid -> leaf said "verdict: no path in the graph" (fifth QA pass)."""
    git_repo.write("chain.py", "def leaf():\n    return 1\n\n\ndef mid():\n    return leaf()\n\n\n"
                               "def main():\n    return mid()\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    runner = CliRunner()
    short = runner.invoke(path_command, ["main", "leaf", "--repo", repo_name, "--depth", "1"])
    assert "verdict: no path within 1 hops (a longer one may exist: raise --depth)" in short.output, short.output
    assert "1 path within" in runner.invoke(path_command, ["main", "leaf", "--repo", repo_name]).output


def test_the_frontier_of_a_dense_call_graph_is_walked_level_by_level(tmp_path, neo4j_settings) -> None:
    """An eleventh QA pass: `path n0_0 n_back` on 11 layers of 8 functions, each calling the 8 of the next, ran
    past 300 s: the frontier's `ANY SHORTEST (a)-[:CALLS]->{1,10}(b)` to every node enumerated the walks of the
    graph before `--depth` applied. The frontier is now a breadth-first walk, one `callees_step` per level
    (each node expanded once); what it reports is the same: nodes per depth, the cut at the bound, the weak
    edges on the way."""
    from conftest import GitRepo
    from graphrag_code.db import Recorder

    layers, width = 7, 6
    text = "".join(f"def n{l}_{w}():\n" + ("".join(f"    n{l + 1}_{v}()\n" for v in range(width))
                                          if l < layers - 1 else "    return 1\n") + "\n"
                   for l in range(layers) for w in range(width))
    repo = GitRepo(tmp_path / "dense")
    repo.write("d.py", text + "def n_back():\n    n0_0()\n")
    repo.commit("dense")
    name = f"test-paths-dense-{uuid.uuid4().hex[:8]}"
    with Graph(neo4j_settings) as graph:
        index_repository(graph, repo.root, name=name)
        try:
            recorder = Recorder()
            with graph.trace(recorder):
                result = find_paths(graph, name, "n0_0", "n_back", max_hops=4)
            f = result.frontier
            assert not result.found and f is not None
            assert f.per_depth == {1: 6, 2: 6, 3: 6, 4: 6} and f.reached == 24 and f.cut_at_bound
            walked = [e for e in recorder.events if e.name == "callees_step"]
            assert len(walked) == 4 and [len(e.params["ids"]) for e in walked] == [1, 6, 6, 6]
            whole = find_paths(graph, name, "n0_0", "n_back", max_hops=10).frontier
            assert whole.reached == 36 and not whole.cut_at_bound          # every layer, nothing beyond
        finally:
            delete_repository(graph, name)
