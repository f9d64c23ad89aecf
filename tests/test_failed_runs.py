"""A run that fails: what the repository says afterwards, against the real Neo4j. A file deleted from a plain
directory while it is indexed stops the run with a hint; the run is recorded as failed (not "has not finished"
forever), a repository with no completed index is refused by queries with that reason instead of answering as
an empty one, and a failed re-run leaves the live snapshot and clears its mark when a run completes (sixth QA
pass: the repository showed "indexing" and search answered "No results." with exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from graphrag_code import discovery, indexer
from graphrag_code.cli import main
from graphrag_code.db import Graph
from graphrag_code.errors import NotFound, SourceMoved
from graphrag_code.indexer import index_repository
from graphrag_code.paths import repository

APP = "def load_user(user_id):\n    return user_id\n\n\ndef handler(request):\n    return load_user(request)\n"


def _tree(root: Path, files: int = 3) -> Path:
    root.mkdir()
    for i in range(files):
        (root / f"m{i}.py").write_text(APP.replace("load_user", f"load_user_{i}"))
    return root


def vanish_after_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on discovery.snapshot deletes m1.py once it returns: the directory changing between the snapshot
    and the read."""
    real = discovery.snapshot

    def snapshot_then_delete(root: Path, **kw):
        snap = real(root, **kw)
        (Path(root) / "m1.py").unlink()
        return snap

    monkeypatch.setattr(indexer.discovery, "snapshot", snapshot_then_delete)


def _repo(graph: Graph, name: str) -> dict:
    return graph.run("repo_get", repo=name)[0]["repo"]


def test_a_first_run_that_fails_is_recorded_and_queries_say_why(graph: Graph, client, repo_name, tmp_path,
                                                                monkeypatch) -> None:
    root = _tree(tmp_path / "plain")
    vanish_after_snapshot(monkeypatch)
    with pytest.raises(SourceMoved, match="m1.py was deleted after the snapshot") as err:
        index_repository(graph, root, name=repo_name)
    assert "index again" in (err.value.hint or "")
    props = _repo(graph, repo_name)
    assert props["status"] == "failed" and "running" not in props, props
    assert "m1.py was deleted" in props["last_failure"] and "hint" not in props["last_failure"]
    with pytest.raises(NotFound, match="no completed index yet: the last run .* failed at .*m1.py was deleted"):
        repository(graph, repo_name)

    runner = CliRunner()
    status = runner.invoke(main, ["status"])
    assert f"the last run ({props['failed_run']}) failed at" in status.output, status.output
    for args in (["search", "load_user_0"], ["impact", "load_user_0"], ["ask", "--no-llm", "where is load_user_0"]):
        refused = runner.invoke(main, [*args, "--repo", repo_name])
        assert refused.exit_code == 2 and "no completed index yet" in refused.output, (args, refused.output)
        assert f"graphrag-code index {root.resolve()} --name {repo_name}" in refused.output

    for endpoint, body in (("/v1/search", {"query": "load_user_0"}), ("/v1/impact", {"target": "load_user_0"}),
                           ("/v1/ask", {"question": "where is load_user_0", "llm": False})):
        resp = client.post(endpoint, json={**body, "repo": repo_name})
        assert resp.status_code == 404, (endpoint, resp.get_json())
        assert "no completed index yet" in resp.get_json()["error"]["message"], (endpoint, resp.get_json())
    listed = {r["id"]: r for r in client.get("/v1/repositories").get_json()["repositories"]}[repo_name]
    assert listed["status"] == "failed" and "m1.py was deleted" in listed["last_failure"], listed

    monkeypatch.undo()                      # the directory stops changing: the next run completes
    index_repository(graph, root, name=repo_name)
    props = _repo(graph, repo_name)
    assert props["status"] == "ready" and not {"last_failure", "failed_run", "failed_at"} & set(props), props
    assert repository(graph, repo_name)["indexed_at"]


def test_a_failed_rerun_keeps_the_live_snapshot(graph: Graph, repo_name, tmp_path, monkeypatch) -> None:
    root = _tree(tmp_path / "plain")
    index_repository(graph, root, name=repo_name)
    before = repository(graph, repo_name)
    (root / "m1.py").write_text(APP + "\n\ndef added():\n    return 1\n")   # a change, so the rerun reads m1.py
    vanish_after_snapshot(monkeypatch)
    failed = CliRunner().invoke(main, ["index", str(root), "--name", repo_name])
    # a file gone mid-run is an indexing failure (exit 6), not bad input (2)
    assert failed.exit_code == 6 and "m1.py was deleted after the snapshot" in failed.output, failed.output
    assert "index again once the files stop changing" in failed.output
    after = repository(graph, repo_name)           # still answers: the live snapshot is the first run's
    assert after["status"] == "ready" and after["indexed_at"] == before["indexed_at"]
    assert "m1.py was deleted" in after["last_failure"] and "running" not in after
    status = CliRunner().invoke(main, ["status"])
    assert "the last run" in status.output and "has not finished" not in status.output


def test_a_run_still_going_is_named_as_such(graph: Graph, repo_name, tmp_path) -> None:
    """A repository whose first run registered and has not ended (or was killed): refused, 'has not finished'."""
    graph.run("repo_begin", repo=repo_name, name=repo_name, root=str(tmp_path), run="abc123", started_at="then")
    with pytest.raises(NotFound, match=r"a run \(abc123, started then\) has not finished") as err:
        repository(graph, repo_name)
    assert "wait for it" in (err.value.hint or "")
    assert repository(graph, repo_name, complete=False)["running"] == "abc123"
