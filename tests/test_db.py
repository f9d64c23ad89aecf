"""Driver errors translated at the boundary (db._translate): the message says what the failure means."""

from __future__ import annotations

from neo4j import exceptions as neo4j_errors

from graphrag_code.db import _translate
from graphrag_code.errors import DatabaseUnavailable


def test_a_commit_cut_off_says_its_outcome_is_unknown() -> None:
    err = _translate(neo4j_errors.IncompleteCommit("connection lost during commit"), "swap_transaction")
    assert isinstance(err, DatabaseUnavailable) and err.exit_code == 3 and err.http_status == 503
    assert "swap_transaction" in str(err) and "whether it committed is unknown" in str(err)
    assert "not reachable" not in str(err)


def test_a_server_that_is_away_is_not_reachable() -> None:
    err = _translate(neo4j_errors.ServiceUnavailable("refused"), "live_files")
    assert isinstance(err, DatabaseUnavailable) and "not reachable" in str(err)
