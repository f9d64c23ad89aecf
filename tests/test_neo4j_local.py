"""Tests of the local Neo4j launcher: fast checks of what it writes, then one real server for the module.

The real-server tests never skip: without Java or the jars they fail, because the project cannot run without them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import free_ports
from neo4j import GraphDatabase
from neo4j.exceptions import ServiceUnavailable

from graphrag_code.errors import ConfigError, LauncherError
from graphrag_code.neo4j_local import (
    CONF_KEYS,
    DEFAULT_LIB_DIR,
    LocalNeo4j,
    ServerStatus,
    conf_keys,
    find_java,
    neo4j_conf,
)

# Spelled out again here on purpose, so that a typo in the launcher does not pass by being copied.
EXPECTED_KEYS = {
    "server.default_listen_address", "server.bolt.enabled", "server.bolt.listen_address",
    "server.bolt.advertised_address", "server.http.enabled", "server.http.listen_address",
    "server.http.advertised_address", "server.https.enabled", "dbms.security.auth_enabled",
    "dbms.usage_report.enabled", "server.directories.data", "server.directories.logs", "server.directories.run",
    "server.directories.import", "server.directories.plugins", "server.memory.heap.initial_size",
    "server.memory.heap.max_size", "server.memory.pagecache.size", "dbms.memory.transaction.total.max",
    "db.transaction.timeout", "db.tx_log.rotation.retention_policy",
    "internal.dbms.bolt.netty_server_shutdown_quiet_period",
    "server.bolt.connection_keep_alive", "server.bolt.connection_keep_alive_for_requests",
    "server.bolt.connection_keep_alive_streaming_scheduling_interval",
}


def _alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().rsplit(")", 1)[-1].split()[0] not in ("Z", "X")
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, resp.headers.get("Content-Type", ""), resp.read()


# ---- fast tests, no server ---------------------------------------------------------------------------------------


def test_conf_is_loopback_only_and_uses_known_keys(tmp_path: Path) -> None:
    text = neo4j_conf(tmp_path, 17687, 17474, "1g", "256m")
    keys = conf_keys(text)
    assert len(keys) == len(set(keys)), "a key is written twice"
    assert set(keys) <= EXPECTED_KEYS, f"unexpected keys: {set(keys) - EXPECTED_KEYS}"
    assert set(keys) <= CONF_KEYS
    lines = set(text.splitlines())
    assert "server.bolt.listen_address=127.0.0.1:17687" in lines
    assert "server.http.listen_address=127.0.0.1:17474" in lines
    assert "server.default_listen_address=127.0.0.1" in lines
    assert "server.https.enabled=false" in lines
    assert "dbms.security.auth_enabled=false" in lines
    assert f"server.directories.data={tmp_path.resolve() / 'data'}" in lines
    assert "server.memory.pagecache.size=256m" in lines
    assert "dbms.memory.transaction.total.max=1g" in lines
    assert "server.bolt.connection_keep_alive_for_requests=ALL" in lines    # a frozen server noticed in 20 s
    assert "dbms.memory.transaction.total.max=2g" in neo4j_conf(tmp_path, 17687, 17474, "3g", "256m", "2g")
    assert "0.0.0.0" not in text
    assert all(re.fullmatch(r"[a-z_.]+", k) for k in keys)


def settings_missing_from_jars(keys: list[str]) -> list[str]:
    """The keys that are no string constant (a CONSTANT_Utf8 entry) of the 5.26 settings classes we run."""
    LocalNeo4j().ensure_jars()
    (jar,) = DEFAULT_LIB_DIR.glob("neo4j-configuration-*.jar")
    with zipfile.ZipFile(jar) as zf:
        blobs = [zf.read(name) for name in zf.namelist() if name.endswith(".class")]

    def defined(key: str) -> bool:
        entry = b"\x01" + len(key).to_bytes(2, "big") + key.encode()
        return any(entry in blob for blob in blobs)

    return [key for key in sorted(keys) if not defined(key)]


def test_conf_keys_exist_in_the_neo4j_jars() -> None:
    assert settings_missing_from_jars(["server.bolt.listen_adress"]), "the check must reject a misspelt key"
    missing = settings_missing_from_jars(list(CONF_KEYS))
    assert not missing, f"not settings of this Neo4j: {missing}"


def test_java_command_has_heap_opens_and_entry_point(tmp_path: Path) -> None:
    server = LocalNeo4j(state_dir=tmp_path, heap="768m")
    cmd = server.java_command("/usr/bin/java")
    assert cmd[0] == "/usr/bin/java"
    for flag in ("-Xms768m", "-Xmx768m", "-XX:+UseG1GC", "-Dio.netty.tryReflectionSetAccessible=true",
                 "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
                 "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"):
        assert flag in cmd
    assert cmd[cmd.index("-cp") + 1] == f"{server.lib_dir}/*"
    assert cmd[-4:] == ["org.neo4j.server.CommunityEntryPoint", f"--home-dir={tmp_path.resolve()}",
                        f"--config-dir={tmp_path.resolve() / 'conf'}", "--console-mode"]


@pytest.mark.parametrize("kwargs", [{"heap": "1x"}, {"pagecache": ""}, {"tx_memory": "lots"}, {"bolt_port": 0},
                                    {"bolt_port": 17000, "http_port": 17000}, {"heap": "1g", "tx_memory": "1g"},
                                    {"heap": "1g", "tx_memory": "2048m"}])
def test_bad_arguments_raise_config_error(tmp_path: Path, kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        LocalNeo4j(state_dir=tmp_path, **kwargs)  # type: ignore[arg-type]


def test_transaction_memory_defaults_to_half_the_heap() -> None:
    """Transactions may hold at most half the heap unless told otherwise: at the heap's size, two large index runs
    at once exhausted it and the database refused every statement until restarted."""
    assert LocalNeo4j().tx_memory == "1024m" and LocalNeo4j().heap == "2g"
    assert LocalNeo4j(heap="768m").tx_memory == "384m"
    conf = neo4j_conf(Path("/tmp/x"), 7687, 7474, "768m", "256m", LocalNeo4j(heap="768m").tx_memory)
    assert "dbms.memory.transaction.total.max=384m" in conf
    assert LocalNeo4j(heap="4g", tx_memory="3g").tx_memory == "3g"


def test_a_database_that_accepts_connections_but_refuses_statements_is_not_ready(monkeypatch) -> None:
    """After a critical error (heap exhausted) the server still completes Bolt handshakes; only a statement shows
    that it needs a restart, so readiness runs one."""
    import neo4j
    from neo4j.exceptions import DatabaseError

    class Crashed:
        def __init__(self, *args, **kwargs) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def verify_connectivity(self) -> None:
            pass

        def execute_query(self, *args, **kwargs):
            raise DatabaseError("The database has encountered a critical error, and needs to be restarted.")

    monkeypatch.setattr("graphrag_code.neo4j_local._port_open", lambda port: True)
    monkeypatch.setattr(neo4j.GraphDatabase, "driver", Crashed)
    assert LocalNeo4j._bolt_ready(7687) is False


def test_stale_pid_file_is_not_a_running_server(tmp_path: Path) -> None:
    bolt, http = free_ports()
    server = LocalNeo4j(state_dir=tmp_path, bolt_port=bolt, http_port=http)
    server.run_dir.mkdir(parents=True)
    for pid in (os.getpid(), 2**22 + 12345):  # a live process that is not Neo4j, then no process at all
        server.pid_file.write_text(f"{pid}\n")
        assert server.status().running is False
    assert server.stop().running is False
    assert not server.pid_file.exists()


def test_missing_java_is_a_clear_launcher_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(LauncherError, match="Java is not installed"):
        find_java()


def test_missing_maven_is_a_clear_launcher_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    java = shutil.which("java")
    assert java, "Java must be installed to run graphrag-code's Neo4j"
    shutil.copy(DEFAULT_LIB_DIR.parent / "pom.xml", tmp_path / "pom.xml")
    monkeypatch.setenv("JAVA_HOME", str(Path(java).resolve().parent.parent))
    monkeypatch.setenv("PATH", str(tmp_path))
    server = LocalNeo4j(state_dir=tmp_path / "state", lib_dir=tmp_path / "lib")
    assert server.jars_stale()
    with pytest.raises(LauncherError, match="mvn"):
        server.ensure_jars()


@pytest.mark.parametrize("length, count, final_break", [
    (1000, 300, True), (1000, 300, False), (65535, 5, True), (65536, 4, True), (70000, 3, False), (10, 50, True),
])
def test_tail_gives_the_last_whole_lines_however_long(tmp_path: Path, length: int, count: int,
                                                      final_break: bool) -> None:
    """A fixed 64 KiB window gave 44 lines of `logs -n 100` on long lines, the first cut in the middle."""
    from graphrag_code.neo4j_local import _tail

    lines = [f"{i:05d} " + "x" * (length - 6) for i in range(count)]
    path = tmp_path / "console.log"
    path.write_text("\n".join(lines) + ("\n" if final_break else ""))
    for n in (1, 2, count - 1, count, count + 7):
        assert _tail(path, n).split("\n") == lines[-n:], n
    assert _tail(tmp_path / "missing.log", 5) == ""


def _logs_cli(state: Path, *args: str):
    from click.testing import CliRunner

    from graphrag_code.cli import main

    return CliRunner().invoke(main, ["neo4j", "--state-dir", str(state), "logs", *args])


def test_logs_command_prints_exactly_the_last_n_lines_and_names_the_file(tmp_path: Path) -> None:
    logs = tmp_path / "neo4j" / "logs"
    logs.mkdir(parents=True)
    lines = [f"{i:04d} at org.neo4j.Example" + "x" * 1000 for i in range(300)]
    (logs / "console.log").write_text("\n".join(lines) + "\n")
    result = _logs_cli(tmp_path, "-n", "100")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == lines[-100:]
    assert result.stderr == f"(from {logs / 'console.log'})\n"
    assert _logs_cli(tmp_path, "-n", "1000").stdout.splitlines() == lines
    as_json = json.loads(_logs_cli(tmp_path, "-n", "3", "--json").stdout)
    assert as_json == {"path": str(logs / "console.log"), "lines": lines[-3:]}


@pytest.mark.parametrize("console", [None, ""])
def test_logs_from_neo4j_log_say_so(tmp_path: Path, console: str | None) -> None:
    """Without console.log (or with an empty one) the lines come from neo4j.log: --json said console.log, and the
    text output did not say."""
    logs = tmp_path / "neo4j" / "logs"
    logs.mkdir(parents=True)
    if console is not None:
        (logs / "console.log").write_text(console)
    (logs / "neo4j.log").write_text("INFO  Starting...\nINFO  Started.\n")
    text = _logs_cli(tmp_path, "-n", "1")
    assert text.exit_code == 0, text.output
    assert text.stdout == "INFO  Started.\n" and text.stderr == f"(from {logs / 'neo4j.log'})\n"
    as_json = json.loads(_logs_cli(tmp_path, "--json").stdout)
    assert as_json == {"path": str(logs / "neo4j.log"), "lines": ["INFO  Starting...", "INFO  Started."]}
    assert LocalNeo4j(state_dir=tmp_path / "neo4j").logs(5) == (logs / "neo4j.log", "INFO  Starting...\nINFO  Started.")


def test_logs_without_any_log_say_where_the_log_will_be(tmp_path: Path) -> None:
    console = tmp_path / "neo4j" / "logs" / "console.log"
    result = _logs_cli(tmp_path)
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == f"(no log yet at {console})\n"
    assert json.loads(_logs_cli(tmp_path, "--json").stdout) == {"path": str(console), "lines": []}


# ---- one real server for the rest of the module ------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalNeo4j]:
    bolt, http = free_ports()
    srv = LocalNeo4j(state_dir=tmp_path_factory.mktemp("neo4j"), bolt_port=bolt, http_port=http,
                     heap="512m", pagecache="128m")
    srv.first_status = srv.start(timeout=240)  # type: ignore[attr-defined]
    try:
        yield srv
    finally:
        pid = srv.status().pid
        try:
            srv.stop(timeout=30)
        finally:
            if pid is not None and _alive(pid):
                os.killpg(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def driver(server: LocalNeo4j) -> Iterator[object]:
    with GraphDatabase.driver(f"bolt://127.0.0.1:{server.bolt_port}", auth=None) as drv:
        yield drv


@pytest.mark.neo4j
def test_start_reports_running(server: LocalNeo4j) -> None:
    status: ServerStatus = server.first_status  # type: ignore[attr-defined]
    assert status.running and status.ready and status.pid
    assert status.bolt_uri == f"bolt://127.0.0.1:{server.bolt_port}"
    assert status.browser_url == f"http://127.0.0.1:{server.http_port}/browser/"
    assert status.version and status.version.startswith("5.26")
    assert int(server.pid_file.read_text()) == status.pid


@pytest.mark.neo4j
def test_second_start_is_idempotent_and_fast(server: LocalNeo4j) -> None:
    first: ServerStatus = server.first_status  # type: ignore[attr-defined]
    t0 = time.monotonic()
    again = LocalNeo4j(state_dir=server.state_dir, bolt_port=server.bolt_port,
                       http_port=server.http_port).start(timeout=30)
    assert time.monotonic() - t0 < 5
    assert again.pid == first.pid and again.running
    assert again.already_running and not first.already_running and again.heap == "512m"


@pytest.mark.neo4j
def test_start_on_a_running_server_says_so_and_which_sizes_do_not_apply(server: LocalNeo4j, monkeypatch) -> None:
    """`neo4j start --heap 4g` on the running 512m server printed "is up in N s" (the first start's time) and kept
    512m without a word (eighth QA pass)."""
    from click.testing import CliRunner

    from graphrag_code import cli_neo4j
    from graphrag_code.cli import main

    monkeypatch.setattr(cli_neo4j, "_state_dir", lambda ctx: server.state_dir)
    args = ["neo4j", "start", "--bolt-port", str(server.bolt_port), "--http-port", str(server.http_port)]
    result = CliRunner().invoke(main, [*args, "--heap", "4g", "--tx-memory", "3g"])
    assert result.exit_code == 0 and "was already running" in result.output and "is up in" not in result.output
    assert "warning: --heap 4g does not apply: the running server keeps 512m" in result.output, result.output
    assert "--tx-memory 3g does not apply" in result.output
    quiet = CliRunner().invoke(main, args)       # the defaults, not asked for: no warning
    assert quiet.exit_code == 0 and "warning" not in quiet.output, quiet.output


@pytest.mark.neo4j
def test_cypher_over_bolt(driver: object, server: LocalNeo4j) -> None:
    records, _, _ = driver.execute_query("RETURN 1 AS one")  # type: ignore[attr-defined]
    assert records[0]["one"] == 1
    # auth is off, so clients configured with the project's default credentials connect as well
    with GraphDatabase.driver(f"bolt://127.0.0.1:{server.bolt_port}", auth=("neo4j", "graphrag-code")) as drv:
        assert drv.execute_query("RETURN 2 AS two").records[0]["two"] == 2


@pytest.mark.neo4j
def test_browser_is_served(server: LocalNeo4j) -> None:
    status, ctype, body = _get(f"http://127.0.0.1:{server.http_port}/browser/")
    assert status == 200 and ctype.startswith("text/html")
    html = body.decode("utf-8", errors="replace")
    assert "<title>Neo4j Browser</title>" in html
    script = re.search(r'<script[^>]+src="([^"]+\.js)"', html)
    assert script, "the Browser page names no script"
    js_status, _, js_body = _get(f"http://127.0.0.1:{server.http_port}/browser/{script.group(1).lstrip('./')}")
    assert js_status == 200 and len(js_body) > 1000


@pytest.mark.neo4j
def test_status_reports_running(server: LocalNeo4j) -> None:
    status = LocalNeo4j(state_dir=server.state_dir).status()  # other ports: they come from launcher.json
    assert status.running and status.ready
    assert status.bolt_uri == f"bolt://127.0.0.1:{server.bolt_port}"


@pytest.mark.neo4j
def test_port_taken_by_another_program_is_reported(server: LocalNeo4j, tmp_path: Path) -> None:
    (http,) = free_ports(1)
    other = LocalNeo4j(state_dir=tmp_path / "other", bolt_port=server.bolt_port, http_port=http)
    with pytest.raises(LauncherError, match=f"port {server.bolt_port} .* taken"):
        other.start(timeout=30)
    assert not other.pid_file.exists()


@pytest.mark.neo4j
def test_vector_and_english_fulltext_indexes(driver: object) -> None:
    run = driver.execute_query  # type: ignore[attr-defined]
    run("CREATE VECTOR INDEX t IF NOT EXISTS FOR (n:T) ON n.e OPTIONS {indexConfig: "
        "{`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}")
    run("UNWIND [['a', [1.0, 0.0, 0.0]], ['b', [0.9, 0.1, 0.0]], ['c', [0.0, 1.0, 0.0]]] AS p "
        "CREATE (:T {name: p[0], e: p[1]})")
    run("CREATE FULLTEXT INDEX ft IF NOT EXISTS FOR (n:Doc) ON EACH [n.text] "
        "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}")
    run("UNWIND ['parsing the flows', 'validate refresh tokens', 'a cat'] AS t CREATE (:Doc {text: t})")
    run("CALL db.awaitIndexes(120)")
    hits = run("CALL db.index.vector.queryNodes('t', 2, [1.0, 0, 0]) YIELD node, score "
               "RETURN node.name AS name, score").records
    assert [r["name"] for r in hits] == ["a", "b"]
    text = run("CALL db.index.fulltext.queryNodes('ft', 'parse flow') YIELD node RETURN node.text AS t").records
    assert [r["t"] for r in text] == ["parsing the flows"]  # stemming: parse~parsing, flow~flows


@pytest.mark.neo4j
def test_logs_return_text(server: LocalNeo4j) -> None:
    path, text = server.logs(50)
    assert "Started." in text and path == server.console_log
    assert len(server.logs(3)[1].splitlines()) == 3


@pytest.mark.neo4j
def test_stop_then_status_says_not_running(server: LocalNeo4j) -> None:
    """Runs last in the module: stops the shared server."""
    pid = server.status().pid
    assert pid is not None
    stopped = server.stop(timeout=60)
    assert stopped.running is False
    assert not _alive(pid)
    assert not server.pid_file.exists()
    refused = GraphDatabase.driver(f"bolt://127.0.0.1:{server.bolt_port}", auth=None, connection_timeout=2)
    with pytest.raises(ServiceUnavailable), refused:
        refused.verify_connectivity()
    assert server.status().running is False
    assert server.stop().running is False  # idempotent
    assert "Stopped." in server.logs()[1]


def test_start_takes_the_transaction_memory_and_says_what_it_is_for() -> None:
    from click.testing import CliRunner
    from graphrag_code.cli import main

    out = CliRunner().invoke(main, ["neo4j", "start", "--help"]).output
    assert "--tx-memory" in out and "dbms.memory.transaction.total.max" in out
    bad = CliRunner().invoke(main, ["neo4j", "start", "--tx-memory", "lots", "--timeout", "1"])
    assert bad.exit_code == 2, bad.output
    assert "tx_memory must look like 512m or 1g" in bad.output


def test_status_says_when_neo4j_uri_points_at_another_server(tmp_path: Path, monkeypatch) -> None:
    """`neo4j status` reports the launcher's own server; with NEO4J_URI set elsewhere it says that the other
    commands use that one (it said "running, ready" of the local one, and a connection error then suggested
    `neo4j start`)."""
    from click.testing import CliRunner

    from graphrag_code.cli import main

    monkeypatch.setenv("NEO4J_URI", "neo4j+s://example.databases.neo4j.io")
    result = CliRunner().invoke(main, ["neo4j", "--state-dir", str(tmp_path), "status"])
    assert result.exit_code == 1          # no local server in that state dir
    assert "NEO4J_URI=neo4j+s://example.databases.neo4j.io: the other commands use that server" in result.output


def test_up_and_the_neo4j_commands_use_one_state_dir(monkeypatch, tmp_path) -> None:
    """With GRAPHRAG_STATE_DIR set, `up` started its server under <checkout>/.graphrag while `neo4j stop` looked
    in $GRAPHRAG_STATE_DIR: it said "was not running" and left the server up (seventh QA pass)."""
    import click

    from graphrag_code import config
    from graphrag_code.cli_neo4j import _state_dir
    from graphrag_code.neo4j_local import LocalNeo4j

    ctx = click.Context(click.Command("neo4j"), obj={})
    monkeypatch.setenv("GRAPHRAG_STATE_DIR", str(tmp_path))
    assert LocalNeo4j().state_dir == _state_dir(ctx).resolve() == (tmp_path / "neo4j").resolve()
    monkeypatch.delenv("GRAPHRAG_STATE_DIR")
    assert LocalNeo4j().state_dir == _state_dir(ctx).resolve() == (config.DEFAULT_STATE_DIR / "neo4j").resolve()
