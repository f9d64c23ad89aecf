"""A swap the server refuses for its transaction memory limit: the indexer applies it in several transactions
instead of failing. Uses a server of its own whose limit (dbms.memory.transaction.total.max) is 16 MiB, so that
a few thousand nodes are enough to cross it; the shared server's is 1 GiB, which a 470k-line repository's swap
crosses (Django 5.1.4: 92k nodes, refused at commit; bench/README.md)."""

from __future__ import annotations

import pytest

from conftest import free_ports
from graphrag_code.config import IndexSettings, Neo4jSettings
from graphrag_code.db import Graph
from graphrag_code.errors import TransactionTooLarge
from graphrag_code.indexer import index_repository
from graphrag_code.neo4j_local import LocalNeo4j
from test_indexer import _normalized, dump

pytestmark = pytest.mark.neo4j


@pytest.fixture(scope="module")
def small_server(tmp_path_factory):
    bolt, http = free_ports(2)
    server = LocalNeo4j(state_dir=tmp_path_factory.mktemp("neo4j-small-tx"), bolt_port=bolt, http_port=http,
                        heap="512m", pagecache="64m", tx_memory="16m")
    server.start(timeout=240)
    yield Neo4jSettings(uri=f"bolt://127.0.0.1:{bolt}")
    server.stop()


def _module(i: int) -> str:
    """A module of 15 functions, each calling the next and one of the previous module."""
    funcs = [f'def f{i}_{j}(x):\n    """Step {j} of module {i}, padded so that its chunk has some text to index."""\n'
             f"    return f{i}_{j + 1}(x) + m{max(i - 1, 0)}.f{max(i - 1, 0)}_{j}(x)\n" for j in range(14)]
    funcs.append(f"def f{i}_14(x):\n    return x\n")
    return f"from . import m{max(i - 1, 0)}\n\n\n" + "\n\n".join(funcs)


def test_a_swap_over_the_servers_transaction_memory_is_applied_in_several(small_server, git_repo) -> None:
    git_repo.write("pkg/__init__.py", "")
    for i in range(150):
        git_repo.write(f"pkg/m{i}.py", _module(i))
    git_repo.commit("150 modules")
    with Graph(small_server) as graph:
        # the staging batches fit in 16 MiB; the one-transaction swap does not
        big = IndexSettings(write_batch=300, swap_max_rows=1000, swap_batch_rows=200)
        with pytest.raises(TransactionTooLarge, match="MemoryPoolOutOfMemoryError"):
            # what the server refuses, shown directly: one transaction promoting everything
            index_repository(graph, git_repo.root, name="probe",
                             settings=IndexSettings(write_batch=300, swap_max_rows=10**9, swap_batch_rows=10**9))
        summary = index_repository(graph, git_repo.root, name="fallback",
                                   settings=IndexSettings(write_batch=300, swap_max_rows=10**9, swap_batch_rows=200))
        assert summary.swap_transactions > 3 and summary.symbols == 150 * 15
        assert any("too large for one transaction" in w["warning"] for w in summary.warnings)
        planned = index_repository(graph, git_repo.root, name="planned", settings=big)
        assert planned.swap_transactions > 3 and not planned.warnings
        assert _normalized(dump(graph, "fallback"), "fallback") == _normalized(dump(graph, "planned"), "planned")
        # the probe's swap in several failed at its first transaction: its lease was ended on the way out, so the
        # next run completes the repository at once instead of waiting for the lease
        assert graph.run("repo_get", repo="probe")[0]["repo"]["swap_beat"] == 0
        again = index_repository(graph, git_repo.root, name="probe", settings=big)
        assert again.recovered and again.files_parsed == 150 + 1
        assert _normalized(dump(graph, "probe"), "probe") == _normalized(dump(graph, "planned"), "planned")
        assert summary.edges["CALLS"] == planned.edges["CALLS"] >= 150 * 14
