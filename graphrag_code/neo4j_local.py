"""Run a private Neo4j 5.26 Community server from the jars Maven Central serves, without Docker or a tarball.

The jars come from ``neo4j/pom.xml`` (``mvn dependency:copy-dependencies`` into ``neo4j/lib``); the server runs as
``java -cp 'lib/*' org.neo4j.server.CommunityEntryPoint`` with a state directory of its own::

    <state>/conf/neo4j.conf       written on every start (never edit it by hand: it is overwritten)
    <state>/data, logs, run, import, plugins
    <state>/logs/console.log      the JVM's stdout and stderr (the user log, plus crashes)
    <state>/run/neo4j.pid         the server's pid (Neo4j writes the same file and removes it on a clean stop)
    <state>/run/launcher.json     ports, start time and version of the running server, for status()

Both connectors listen on 127.0.0.1 only. The neo4j-browser jar on the class path makes the server serve the
Browser at ``http://127.0.0.1:<http>/browser/``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphrag_code import config
from graphrag_code.errors import ConfigError, LauncherError

DEFAULT_LIB_DIR = config.PROJECT_ROOT / "neo4j" / "lib"
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
MIN_JAVA = 17
LOG_TAIL_LINES = 60
JARS_MARKER = ".pom-sha256"
MAVEN_TIMEOUT_S = 1800.0
_SIZE_RE = re.compile(r"^[1-9][0-9]*[kmgKMG]?$")

# Taken from the `server.jvm.additional` lines of the 5.26 neo4j.conf template (bin/neo4j adds them; we run the
# entry point ourselves, so we must). -XX:+AlwaysPreTouch is left out on purpose: it commits the whole heap up
# front, which slows start-up and holds memory a development machine wants back.
JVM_FLAGS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-XX:FlightRecorderOptions=stackdepth=256",
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:+DebugNonSafepoints",
    # Without java.nio opened, the HNSW (vector index) build is reported to stall near the end.
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j.layout.jsonTemplate.maxStringLength=32768",
    "-Dfile.encoding=UTF-8",
)

# Every key neo4j_conf() may write. Neo4j validates neo4j.conf strictly (a misspelt key stops start-up); each of
# these was checked against the 5.26.30 jars, and tests/test_neo4j_local.py checks them again.
CONF_KEYS: frozenset[str] = frozenset({
    "server.default_listen_address",
    "server.bolt.enabled", "server.bolt.listen_address", "server.bolt.advertised_address",
    "server.http.enabled", "server.http.listen_address", "server.http.advertised_address",
    "server.https.enabled",
    "dbms.security.auth_enabled",
    "dbms.usage_report.enabled",
    "server.directories.data", "server.directories.logs", "server.directories.run",
    "server.directories.import", "server.directories.plugins",
    "server.memory.heap.initial_size", "server.memory.heap.max_size",
    "server.memory.pagecache.size",
    "dbms.memory.transaction.total.max",
    "db.transaction.timeout",
    "db.tx_log.rotation.retention_policy",
    "internal.dbms.bolt.netty_server_shutdown_quiet_period",
    "server.bolt.connection_keep_alive", "server.bolt.connection_keep_alive_for_requests",
    "server.bolt.connection_keep_alive_streaming_scheduling_interval",
})


@dataclass(frozen=True)
class ServerStatus:
    """What the launcher knows about its server. ``ready`` means Bolt answered just now."""

    running: bool
    pid: int | None
    bolt_uri: str
    http_url: str
    browser_url: str
    state_dir: str
    version: str | None = None
    ready: bool = False
    started_at: float | None = None
    startup_seconds: float | None = None
    heap: str | None = None                 # what the running server was started with
    pagecache: str | None = None
    tx_memory: str | None = None
    already_running: bool = False           # start found it running: the sizes asked for now do not apply

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_size(name: str, value: str) -> str:
    if not _SIZE_RE.match(value):
        raise ConfigError(f"{name} must look like 512m or 1g, not {value!r}")
    return value


def _size_bytes(value: str) -> int:
    """Bytes of a size as Neo4j and the JVM write it (``512m``, ``2g``, a plain number of bytes)."""
    unit = value[-1].lower()
    return int(value[:-1]) * 1024 ** "kmg".index(unit) * 1024 if unit in "kmg" else int(value)


def _check_port(name: str, value: int) -> int:
    if not 0 < int(value) < 65536:
        raise ConfigError(f"{name} must be a TCP port (1-65535), not {value!r}")
    return int(value)


def _tail(path: Path, lines: int) -> str:
    """The last `lines` whole lines of a text file (all of them when it has fewer), or '' when it does not exist."""
    if lines <= 0:
        return ""
    block = 65536
    try:
        with path.open("rb") as fh:
            pos = fh.seek(0, os.SEEK_END)
            chunks: list[bytes] = []
            breaks = 0
            # read back until the window holds `lines` line breaks besides a final one: a fixed window held fewer
            # lines than asked when they were long (Java stack traces), and cut the first one
            while pos > 0 and breaks - (chunks[-1].endswith(b"\n") if chunks else 0) < lines:
                size = min(block, pos)
                pos -= size
                fh.seek(pos)
                chunks.insert(0, fh.read(size))
                breaks += chunks[0].count(b"\n")
    except OSError:
        return ""
    data = b"".join(chunks)
    parts = (data[:-1] if data.endswith(b"\n") else data).split(b"\n")
    if pos > 0:
        parts = parts[1:]       # the window starts inside this line
    return "\n".join(p.decode("utf-8", errors="replace").removesuffix("\r") for p in parts[-lines:])


def _port_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when nothing listens on host:port (a bind would succeed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def _port_open(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _http_get(url: str, timeout: float = 3.0) -> tuple[int, bytes]:
    """(status, body) of a GET; status 0 when the server cannot be reached."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, b""
    except (urllib.error.URLError, OSError):
        return 0, b""


def _process_cmdline(pid: int) -> str | None:
    """The command line of a live (non-zombie) process, or None when there is no such process."""
    proc = Path(f"/proc/{pid}")
    if proc.is_dir():
        try:
            stat = (proc / "stat").read_text()
            if stat.rsplit(")", 1)[-1].split()[0] in ("Z", "X"):
                return None
            return (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            return None
    try:  # no /proc (macOS): ask ps
        out = subprocess.run(["ps", "-o", "stat=,command=", "-p", str(pid)], capture_output=True, text=True,
                             timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not out or out.startswith("Z"):
        return None
    return out.split(None, 1)[-1]


def _java_major(java: str) -> int:
    """The major version of a `java` executable (17 for 17.0.15, 8 for 1.8.0)."""
    try:
        res = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as err:
        raise LauncherError(f"cannot run {java} -version: {err}") from err
    match = re.search(r'version "(\d+)(?:\.(\d+))?', res.stderr + res.stdout)
    if not match:
        raise LauncherError(f"cannot tell the Java version from: {res.stderr.strip()[:300]}")
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def find_java() -> str:
    """The `java` to run: $JAVA_HOME/bin/java when set, else the one on PATH. Raises LauncherError if none."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        java = str(Path(home) / "bin" / "java")
    else:
        found = shutil.which("java")
        if not found:
            raise LauncherError("Java is not installed: `java` is not on PATH and JAVA_HOME is not set",
                                hint="install a JDK 17 or 21 (e.g. apt-get install openjdk-17-jre-headless)")
        java = found
    major = _java_major(java)
    if major < MIN_JAVA:
        raise LauncherError(f"{java} is Java {major}; Neo4j 5.26 needs Java 17 or 21",
                            hint="set JAVA_HOME to a JDK 17 or 21")
    return java


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on `path` (created if needed) for the duration of the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def neo4j_conf(state_dir: Path, bolt_port: int, http_port: int, heap: str, pagecache: str,
               tx_memory: str = "1g") -> str:
    """The text of neo4j.conf for a loopback-only server whose files all live under `state_dir`."""
    s = state_dir.resolve()
    lines = [
        "# Written by graphrag_code/neo4j_local.py on every start: edits here are lost.",
        "# JVM flags are passed on the java command line (server.jvm.additional is read only by bin/neo4j).",
        "server.default_listen_address=127.0.0.1",
        "server.bolt.enabled=true",
        f"server.bolt.listen_address=127.0.0.1:{bolt_port}",
        f"server.bolt.advertised_address=127.0.0.1:{bolt_port}",
        "server.http.enabled=true",
        f"server.http.listen_address=127.0.0.1:{http_port}",
        f"server.http.advertised_address=127.0.0.1:{http_port}",
        "server.https.enabled=false",
        "# Authentication is off: this is a single-user development server that listens on 127.0.0.1 only, and",
        "# anyone who can reach that port can already read its store files under the same state directory.",
        "# With auth off the server accepts any credentials, so clients configured with a password still connect.",
        "# Never copy this setting to a server that listens on another interface.",
        "dbms.security.auth_enabled=false",
        "# The server must not phone home (no internet here, and nobody asked for it).",
        "dbms.usage_report.enabled=false",
        f"server.directories.data={s / 'data'}",
        f"server.directories.logs={s / 'logs'}",
        f"server.directories.run={s / 'run'}",
        f"server.directories.import={s / 'import'}",
        f"server.directories.plugins={s / 'plugins'}",
        "# Informational here (bin/neo4j turns them into -Xms/-Xmx); kept equal to the flags we pass.",
        f"server.memory.heap.initial_size={heap}",
        f"server.memory.heap.max_size={heap}",
        f"server.memory.pagecache.size={pagecache}",
        "# What all open transactions may hold; a swap too large for it is applied in several (indexer.py).",
        f"dbms.memory.transaction.total.max={tx_memory}",
        "db.transaction.timeout=10m",
        "# Re-indexing rewrites a lot: keep transaction logs bounded by size, not by days.",
        "db.tx_log.rotation.retention_policy=1G size",
        "# A client waits on a read only as long as the server's hint says (connection.recv_timeout_seconds, twice",
        "# the keep-alive): with keep-alive NOOPs sent during every request, a server that stops answering (frozen,",
        "# paused, a dropped network) is noticed in ~20 s instead of 120 s, and a long query is not cut short.",
        "server.bolt.connection_keep_alive=10s",
        "server.bolt.connection_keep_alive_for_requests=ALL",
        "server.bolt.connection_keep_alive_streaming_scheduling_interval=5s",
        "# Netty's 5 s quiet period (twice) made every stop take ~12 s; 0 is what Neo4j's own test harness uses.",
        "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
    ]
    return "\n".join(lines) + "\n"


def conf_keys(conf_text: str) -> list[str]:
    """The setting keys of a neo4j.conf text (comments and blank lines skipped)."""
    keys = []
    for line in conf_text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keys.append(line.split("=", 1)[0].strip())
    return keys


def default_state_dir() -> Path:
    """Where the local server lives: ``$GRAPHRAG_STATE_DIR/neo4j``, else ``<checkout>/.graphrag/neo4j``. One
    place, so that `up` (and the tests) start the server the `neo4j` commands then find and stop."""
    return Path(os.environ.get("GRAPHRAG_STATE_DIR") or config.DEFAULT_STATE_DIR) / "neo4j"


class LocalNeo4j:
    """A Neo4j server owned by this project: started from Maven jars, state under `state_dir`, loopback only."""

    def __init__(
        self,
        state_dir: Path | None = None,
        bolt_port: int = config.DEFAULT_BOLT_PORT,
        http_port: int = config.DEFAULT_HTTP_PORT,
        heap: str = "2g",
        pagecache: str = "256m",
        lib_dir: Path | None = None,
        tx_memory: str | None = None,
    ) -> None:
        """``tx_memory`` (what all open transactions may hold) defaults to half the heap and must stay below it:
        at the heap's size, two large transactions at once plus the server's own use exhausted the heap and the
        database stopped answering until restarted (measured with two index runs of a 0.9 MB generated file)."""
        self.state_dir = Path(state_dir or default_state_dir()).resolve()
        self.bolt_port = _check_port("bolt_port", bolt_port)
        self.http_port = _check_port("http_port", http_port)
        if self.bolt_port == self.http_port:
            raise ConfigError(f"Bolt and HTTP need different ports (both are {bolt_port})")
        self.heap = _check_size("heap", heap)
        self.pagecache = _check_size("pagecache", pagecache)
        if tx_memory is None:
            tx_memory = f"{_size_bytes(self.heap) // 2 // 1024 ** 2}m"
        self.tx_memory = _check_size("tx_memory", tx_memory)
        if _size_bytes(self.tx_memory) >= _size_bytes(self.heap):
            raise ConfigError(f"tx_memory ({self.tx_memory}) must be below the heap ({self.heap}): transactions "
                              f"holding all of it would leave the server no heap of its own and crash it")
        self.lib_dir = Path(lib_dir or DEFAULT_LIB_DIR).resolve()
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    # ---- paths -------------------------------------------------------------------------------------------------
    @property
    def conf_dir(self) -> Path:
        return self.state_dir / "conf"

    @property
    def logs_dir(self) -> Path:
        return self.state_dir / "logs"

    @property
    def run_dir(self) -> Path:
        return self.state_dir / "run"

    @property
    def pid_file(self) -> Path:
        return self.run_dir / "neo4j.pid"

    @property
    def console_log(self) -> Path:
        return self.logs_dir / "console.log"

    @property
    def meta_file(self) -> Path:
        return self.run_dir / "launcher.json"

    @property
    def pom_path(self) -> Path:
        """The pom that fills lib_dir (lib_dir's parent holds it); a lib_dir without one is managed by the user."""
        return self.lib_dir.parent / "pom.xml"

    # ---- jars --------------------------------------------------------------------------------------------------
    def _jars_present(self) -> bool:
        return any(self.lib_dir.glob("neo4j-server-*.jar")) and any(self.lib_dir.glob("neo4j-browser-*.jar"))

    def jars_stale(self) -> bool:
        """True when lib_dir lacks the server or Browser jar, or was filled from another version of the pom."""
        if not self._jars_present():
            return True
        if not self.pom_path.is_file():
            return False
        marker = self.lib_dir / JARS_MARKER
        want = hashlib.sha256(self.pom_path.read_bytes()).hexdigest()
        return not marker.is_file() or marker.read_text().strip() != want

    def ensure_jars(self) -> None:
        """Copy the Neo4j jars with Maven when lib_dir is missing or older than pom.xml. Raises LauncherError."""
        if not self.jars_stale():
            return
        if not self.pom_path.is_file():
            raise LauncherError(f"no Neo4j jars in {self.lib_dir} and no pom.xml beside it to fetch them with")
        find_java()
        mvn = shutil.which("mvn")
        if not mvn:
            raise LauncherError("Maven is not installed: `mvn` is needed once to fetch the Neo4j jars",
                                hint="install Maven 3.6+ (e.g. apt-get install maven), or use docker-compose.yml")
        with _locked(self.lib_dir / ".lock"):
            if self.jars_stale():
                self._run_maven(mvn)

    def _run_maven(self, mvn: str) -> None:
        marker = self.lib_dir / JARS_MARKER
        if marker.is_file():  # the pom changed since the last copy: old versions would shadow the new ones
            for jar in self.lib_dir.glob("*.jar"):
                jar.unlink()
        cmd = [mvn, "-B", "-q", "-Dstyle.color=never", "-f", str(self.pom_path), "dependency:copy-dependencies"]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=MAVEN_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as err:
            raise LauncherError(f"Maven did not finish in {MAVEN_TIMEOUT_S:.0f} s: {' '.join(cmd)}") from err
        if res.returncode != 0 or not self._jars_present():
            out = re.sub(r"\x1b\[[0-9;]*m", "", (res.stdout or "") + (res.stderr or ""))
            tail = "\n".join(out.strip().splitlines()[-40:])
            raise LauncherError(f"Maven could not fetch the Neo4j jars (exit {res.returncode}):\n{tail}",
                                hint=f"run it yourself to see more: {' '.join(cmd[:1] + cmd[3:])}")
        marker.write_text(hashlib.sha256(self.pom_path.read_bytes()).hexdigest() + "\n")

    # ---- pid and metadata --------------------------------------------------------------------------------------
    def _read_pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def _is_ours(self, pid: int) -> bool:
        """True when `pid` is alive and is a Neo4j entry point whose home is our state dir."""
        if self._proc is not None and self._proc.pid == pid and self._proc.poll() is not None:
            return False  # our own child, already exited (poll() reaped it)
        cmdline = _process_cmdline(pid)
        if not cmdline:
            return False
        return ENTRY_POINT in cmdline and f"--home-dir={self.state_dir} " in cmdline + " "

    def _starting(self, pid: int) -> bool:
        """Still alive while it starts. For our own child the exit status decides: its /proc cmdline can read
        empty for a moment while the java launcher re-executes itself (seen once in CI as a false "exited")."""
        if self._proc is not None and self._proc.pid == pid:
            return self._proc.poll() is None
        return self._is_ours(pid)

    def _live_pid(self) -> int | None:
        pid = self._read_pid()
        return pid if pid is not None and self._is_ours(pid) else None

    def _read_meta(self) -> dict[str, Any]:
        try:
            data = json.loads(self.meta_file.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write_meta(self, **fields: Any) -> None:
        self.meta_file.write_text(json.dumps(fields, indent=2) + "\n")

    def _clear_run_files(self) -> None:
        self.pid_file.unlink(missing_ok=True)
        self.meta_file.unlink(missing_ok=True)

    # ---- status ------------------------------------------------------------------------------------------------
    def _status(self, pid: int | None, ready: bool, meta: dict[str, Any]) -> ServerStatus:
        bolt = int(meta.get("bolt_port", self.bolt_port))
        http = int(meta.get("http_port", self.http_port))
        return ServerStatus(
            running=pid is not None, pid=pid, ready=ready,
            bolt_uri=f"bolt://127.0.0.1:{bolt}", http_url=f"http://127.0.0.1:{http}",
            browser_url=f"http://127.0.0.1:{http}/browser/", state_dir=str(self.state_dir),
            version=meta.get("version"), started_at=meta.get("started_at"),
            startup_seconds=meta.get("startup_seconds"), heap=meta.get("heap"), pagecache=meta.get("pagecache"),
            tx_memory=meta.get("tx_memory"),
        )

    def status(self) -> ServerStatus:
        """Whether our server runs (pid file names a live Neo4j with our home dir) and whether Bolt answers."""
        pid = self._live_pid()
        meta = self._read_meta() if pid is not None else {}
        ready = pid is not None and self._bolt_ready(int(meta.get("bolt_port", self.bolt_port)))
        return self._status(pid, ready, meta)

    def logs(self, lines: int = 200) -> tuple[Path, str]:
        """The last `lines` lines of console.log (the JVM's output), else (missing or empty) of neo4j.log, and the
        file they come from (console.log when both are empty)."""
        text = _tail(self.console_log, lines)
        if text:
            return self.console_log, text
        user_log = self.logs_dir / "neo4j.log"
        text = _tail(user_log, lines)
        return (user_log, text) if text else (self.console_log, "")

    # ---- readiness ---------------------------------------------------------------------------------------------
    @staticmethod
    def _bolt_ready(port: int) -> bool:
        """True when the database on 127.0.0.1:port answers a query: a server whose database hit a critical error
        (the heap exhausted) still accepts Bolt connections but refuses every statement until restarted."""
        if not _port_open(port):
            return False
        from neo4j import GraphDatabase
        from neo4j.exceptions import DriverError, Neo4jError

        try:
            with GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=None, connection_timeout=3.0,
                                      connection_acquisition_timeout=5.0, max_transaction_retry_time=0) as driver:
                driver.execute_query("RETURN 1")
            return True
        except (DriverError, Neo4jError, OSError):
            return False

    @staticmethod
    def _browser_ready(http_port: int) -> bool:
        status, _ = _http_get(f"http://127.0.0.1:{http_port}/browser/")
        return status == 200

    @staticmethod
    def _server_version(http_port: int) -> str | None:
        status, body = _http_get(f"http://127.0.0.1:{http_port}/")
        if status != 200:
            return None
        try:
            version = json.loads(body).get("neo4j_version")
        except (ValueError, AttributeError):
            return None
        return str(version) if version else None

    def _failure(self, what: str) -> LauncherError:
        path, tail = self.logs(LOG_TAIL_LINES)
        return LauncherError(
            f"{what}\n--- last lines of {path} ---\n{tail or '(empty)'}",
            hint=f"more detail in {self.logs_dir / 'debug.log'}",
        )

    def _wait_ready(self, pid: int, deadline: float) -> None:
        """Block until Bolt and /browser/ answer; LauncherError when the process dies or the deadline passes."""
        bolt_ok = False
        while True:
            if not self._starting(pid):
                raise self._failure(f"Neo4j (pid {pid}) exited during start-up")
            bolt_ok = bolt_ok or self._bolt_ready(self.bolt_port)
            if bolt_ok and self._browser_ready(self.http_port):
                return
            if time.monotonic() > deadline:
                missing = "the Browser at /browser/" if bolt_ok else "Bolt"
                raise self._failure(f"Neo4j (pid {pid}) did not get ready in time: {missing} never answered")
            time.sleep(0.5)

    # ---- start -------------------------------------------------------------------------------------------------
    def write_conf(self) -> Path:
        """Create the state directories and write conf/neo4j.conf; returns its path."""
        for sub in ("conf", "data", "logs", "run", "import", "plugins"):
            (self.state_dir / sub).mkdir(parents=True, exist_ok=True)
        path = self.conf_dir / "neo4j.conf"
        path.write_text(neo4j_conf(self.state_dir, self.bolt_port, self.http_port, self.heap, self.pagecache,
                                   self.tx_memory))
        return path

    def java_command(self, java: str = "java") -> list[str]:
        """The full command line that starts the server."""
        return [
            java, f"-Xms{self.heap}", f"-Xmx{self.heap}", *JVM_FLAGS,
            "-cp", str(self.lib_dir / "*"), ENTRY_POINT,
            f"--home-dir={self.state_dir}", f"--config-dir={self.conf_dir}", "--console-mode",
        ]

    def _check_ports(self) -> None:
        for name, port in (("Bolt", self.bolt_port), ("HTTP", self.http_port)):
            if not _port_free(port):
                raise LauncherError(
                    f"{name} port {port} on 127.0.0.1 is taken by another program, not by this project's Neo4j "
                    f"(state dir {self.state_dir})",
                    hint="stop that program; or start this project's Neo4j on other ports (`graphrag-code neo4j "
                         "start --bolt-port/--http-port`, or GRAPHRAG_BOLT_PORT/GRAPHRAG_HTTP_PORT for `up` too); "
                         "or use a server of your own: NEO4J_URI=bolt://host:port (`up` then starts none)",
                )

    def _spawn(self, java: str) -> int:
        """Start the JVM detached in its own session, output to console.log; returns its pid."""
        if self.console_log.exists():
            self.console_log.replace(self.console_log.with_name("console.log.1"))
        with self.console_log.open("wb") as out:
            self._proc = subprocess.Popen(
                self.java_command(java), cwd=self.state_dir, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True, close_fds=True,
            )
        self.pid_file.write_text(f"{self._proc.pid}\n")
        return self._proc.pid

    def _running_status(self, pid: int, deadline: float) -> ServerStatus:
        """Status of a server that is already ours and alive (maybe still starting), after waiting for it."""
        meta = self._read_meta()
        ports = (int(meta.get("bolt_port", self.bolt_port)), int(meta.get("http_port", self.http_port)))
        if ports != (self.bolt_port, self.http_port):
            raise LauncherError(
                f"this project's Neo4j already runs (pid {pid}) on Bolt {ports[0]} / HTTP {ports[1]}, "
                f"not on the ports asked for ({self.bolt_port} / {self.http_port})",
                hint="stop it first (graphrag-code neo4j stop) to change ports",
            )
        self._wait_ready(pid, deadline)
        return dataclasses.replace(self._status(pid, True, meta), already_running=True)

    def start(self, timeout: float = 180) -> ServerStatus:
        """Start the server and wait until Bolt and the Browser answer; return at once if it already runs."""
        deadline = time.monotonic() + timeout
        self.run_dir.mkdir(parents=True, exist_ok=True)
        with _locked(self.run_dir / "launcher.lock"):
            pid = self._live_pid()
            if pid is not None:
                return self._running_status(pid, deadline)
            self._clear_run_files()
            java = find_java()
            self.ensure_jars()
            self._check_ports()
            self.write_conf()
            t0, started_at = time.monotonic(), time.time()
            pid = self._spawn(java)
            meta: dict[str, Any] = {"pid": pid, "bolt_port": self.bolt_port, "http_port": self.http_port,
                                    "heap": self.heap, "pagecache": self.pagecache, "tx_memory": self.tx_memory,
                                    "started_at": started_at}
            self._write_meta(**meta)
            try:
                self._wait_ready(pid, deadline)
            except LauncherError:
                self._kill(pid, grace=10.0)
                raise
            meta.update(version=self._server_version(self.http_port),
                        startup_seconds=round(time.monotonic() - t0, 2))
            self._write_meta(**meta)
            return self._status(pid, True, meta)

    # ---- stop --------------------------------------------------------------------------------------------------
    def _signal(self, pid: int, sig: int) -> None:
        """Send `sig` to the server's process group (its own session), or to the pid if it has no group."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if os.getpgid(pid) == pid:
                os.killpg(pid, sig)
            else:
                os.kill(pid, sig)

    def _wait_gone(self, pid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._is_ours(pid):
                return True
            time.sleep(0.2)
        return not self._is_ours(pid)

    def _kill(self, pid: int, grace: float) -> None:
        """SIGTERM, wait up to `grace` seconds, then SIGKILL; reap our child; remove the run files."""
        self._signal(pid, signal.SIGTERM)
        if not self._wait_gone(pid, grace):
            self._signal(pid, signal.SIGKILL)
            if not self._wait_gone(pid, 15.0):
                raise LauncherError(f"Neo4j (pid {pid}) survived SIGKILL; stop it by hand")
        if self._proc is not None and self._proc.pid == pid:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)
            self._proc = None
        self._clear_run_files()

    def stop(self, timeout: float = 60) -> ServerStatus:
        """Stop our server (SIGTERM to its process group, SIGKILL after `timeout` s). Safe to call when stopped."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        with _locked(self.run_dir / "launcher.lock"):
            pid = self._live_pid()
            if pid is not None:
                self._kill(pid, grace=timeout)
            self._clear_run_files()
            return self._status(None, False, {})
