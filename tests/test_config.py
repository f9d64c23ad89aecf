"""Settings from the environment, and the repository-name rule the indexer and the API share."""

from __future__ import annotations

import pytest

from graphrag_code.config import IndexSettings, check_repo_name
from graphrag_code.errors import ConfigError, InputError


@pytest.mark.parametrize("variable", ["GRAPHRAG_SWAP_MAX_ROWS", "GRAPHRAG_SWAP_BATCH_ROWS"])
def test_numeric_settings_are_parsed_or_named_when_malformed(monkeypatch, variable: str) -> None:
    field = variable.removeprefix("GRAPHRAG_").lower()
    monkeypatch.setenv(variable, "1234")
    assert getattr(IndexSettings(), field) == 1234
    for bad in ("abc", "1.5"):
        monkeypatch.setenv(variable, bad)
        with pytest.raises(ConfigError, match=f"{variable}='{bad}'"):
            IndexSettings()


@pytest.mark.parametrize("name", ["shop:v2", "shop#1", ":", "#"])
def test_repository_names_may_not_hold_colon_or_hash(name: str) -> None:
    with pytest.raises(InputError, match="may not contain ':' or '#'"):
        check_repo_name(name)


def test_other_repository_names_pass() -> None:
    assert check_repo_name("shop-v2.1_x") == "shop-v2.1_x"
    assert check_repo_name("org/repo") == "org/repo" and check_repo_name("ünïcødé-名前") == "ünïcødé-名前"


@pytest.mark.parametrize("name", ["", " ", " shop", "shop ", "a\tb", "new\nline", "x" * 201])
def test_repository_names_are_printable_trimmed_and_short(name: str) -> None:
    with pytest.raises(InputError, match="1-200 printable characters"):
        check_repo_name(name)


def test_a_malformed_neo4j_uri_is_a_configuration_error_not_an_unavailable_server(monkeypatch) -> None:
    """`NEO4J_URI=notaurl` exited 3 ("Neo4j unavailable"), which says to wait and retry; it is a setting (exit 2)."""
    from click.testing import CliRunner

    from graphrag_code.cli import main

    monkeypatch.setenv("NEO4J_URI", "notaurl")
    result = CliRunner().invoke(main, ["status"])
    assert result.exit_code == 2 and "bad NEO4J_URI 'notaurl'" in result.output, result.output


@pytest.mark.parametrize("uri, port", [("bolt://127.0.0.1:99999", "99999"), ("neo4j://u:p@host:0/db", "0")])
def test_a_neo4j_uri_port_out_of_range_is_refused_not_wrapped(monkeypatch, uri: str, port: str) -> None:
    """The driver dialled bolt://127.0.0.1:99999 as port 34463 (99999 mod 65536), perhaps some other server's."""
    from click.testing import CliRunner

    from graphrag_code.cli import main

    monkeypatch.setenv("NEO4J_URI", uri)
    result = CliRunner().invoke(main, ["status"])
    assert result.exit_code == 2 and f"port {port} is not in 1-65535" in result.output, result.output
