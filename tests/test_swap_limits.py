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


def _big(n: int, edited: int | None = None) -> str:
    return "\n\n".join(f"def f{i}(x):\n    return x + {i if i != edited else -1}\n" for i in range(n))


def test_a_file_too_large_for_one_transaction_is_replaced_in_slices(small_server, git_repo) -> None:
    """A generated module of 1,500 definitions (3,000 nodes, where 16 MiB holds fewer than 1,000 promoted at once):
    its first index, an edit and its removal each complete, and equal a fresh index of the same commit. A fourth
    QA pass found that after a file of 50k definitions had been indexed once, any change to it failed every run
    with exit 3 (its 100k old nodes deleted in the transaction that promoted 100k new ones, over 1 GiB), and the
    swap had not counted the deleted nodes: the edit below, 3,000 staged + 3,000 deleted rows under a one-
    transaction limit of 4,000, was tried in one transaction and refused."""
    git_repo.write("pkg/__init__.py", "")
    git_repo.write("pkg/big.py", _big(1500))
    git_repo.write("pkg/use.py", "from pkg.big import f7\n\n\ndef user():\n    return f7(2)\n")
    git_repo.commit("big")
    settings = IndexSettings(write_batch=300, swap_max_rows=4000, swap_batch_rows=200)
    with Graph(small_server) as graph:
        first = index_repository(graph, git_repo.root, name="sliced", settings=settings)
        # 3,008 rows: tried in one transaction, refused, then applied in several (a warning says so)
        assert first.symbols == 1501 and first.swap_transactions > 10
        git_repo.write("pkg/big.py", _big(1500, edited=3))
        git_repo.commit("edit one definition")
        edit = index_repository(graph, git_repo.root, name="sliced", settings=settings)
        assert edit.files_parsed == 1 and edit.swap_transactions > 10, edit
        assert not edit.warnings, "planned in several, not refused in one and then split"
        fresh = index_repository(graph, git_repo.root, name="sliced-fresh", settings=settings)
        assert _normalized(dump(graph, "sliced"), "sliced") == _normalized(dump(graph, "sliced-fresh"), "sliced-fresh")
        assert edit.edges["CALLS"] == fresh.edges["CALLS"] == 1      # use -> f7, made again into the new nodes
        git_repo.git("rm", "-q", "pkg/big.py")
        git_repo.commit("remove it")
        gone = index_repository(graph, git_repo.root, name="sliced", settings=settings)
        assert gone.symbols == 1      # 3,003 rows deleted: tried in one transaction, refused, then in several
        assert not graph.run("file_node_counts", repo="sliced", paths=["pkg/big.py"])[0]["nodes"]
