"""Findings of the fifth QA pass on the language-server pass, each failing before its fix: incremental runs after
a re-export moved, a target file edited in the working tree, a file that is not UTF-8, a CRLF checkout, a run
with other languages than the last, calls into vendored files, a module named like the standard library's, and
servers that hang, die, or lose their worker process."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import psutil
import pytest

from graphrag_code import lsp, lsp_servers
from graphrag_code.config import IndexSettings
from graphrag_code.indexer import index_repository
from graphrag_code.resolve import FileFacts, resolve, symbol_ids

needs_jedi = pytest.mark.skipif(lsp_servers._jedi() is None,
                                reason="jedi-language-server not found; run scripts/setup (pip installs multilspy)")
PY = IndexSettings(lsp_languages=("python",))


@pytest.fixture(autouse=True)
def _jedi(monkeypatch) -> None:
    monkeypatch.setenv("GRAPHRAG_LSP_PYTHON_SERVER", "jedi")


def _calls(graph, repo: str) -> dict[tuple[str, str], dict]:
    d = graph.run("repo_dump", repo=repo)[0]
    return {(e["src"].split("#", 1)[-1], e["dst"] if e["dst"].startswith("module:") else e["dst"].split(":", 1)[-1]):
            e["props"] for e in d["edges"] if e["type"] in ("CALLS", "CALLS_EXTERNAL")}


def _unresolved(graph, repo: str) -> list[str]:
    d = graph.run("repo_dump", repo=repo)[0]
    return sorted(u for n in d["nodes"] for u in (n["props"].get("unresolved_calls") or []))


# -- which files are asked again ---------------------------------------------------------------------------------
def _f(path: str, language: str, defs: list, calls: list, imports: list, answers: list | None) -> FileFacts:
    f = FileFacts(path, language, defs=defs, calls=calls, imports=imports, bases=[])
    f.ids = symbol_ids("r", path, defs)
    f.lsp = {"server": "s 1", "format": lsp.ANSWER_FORMAT, "answers": answers} if answers is not None else None
    return f


def test_an_importer_of_a_changed_file_and_a_go_package_sibling_are_asked_again() -> None:
    files = {
        "main.py": _f("main.py", "python", [["main", "function", "main", None, 1, 2]], [[0, "helper", None, 2, 11]],
                      [["pkg", "helper", None, 1, False]], [["sym", ["r:pkg/a.py#helper"], []]]),
        "pkg/__init__.py": _f("pkg/__init__.py", "python", [], [], [[".b", "helper", None, 1, False]], None),
        "pkg/a.py": _f("pkg/a.py", "python", [["helper", "function", "helper", None, 1, 2]], [], [], None),
        "other.py": _f("other.py", "python", [["o", "function", "o", None, 1, 2]], [[0, "run", None, 2, 4]],
                       [["os", None, None, 1, False]], [["ext", ["os"]]]),
        "main.go": _f("main.go", "go", [["use", "function", "use", None, 1, 2]], [[0, "Run", "x.Item", 2, 9]], [],
                      [["sym", ["r:a.go#A.Run"], []]]),
        "types.go": _f("types.go", "go", [["Box", "struct", "Box", None, 1, 1]], [], [], None),
        "sub/x.go": _f("sub/x.go", "go", [["z", "function", "z", None, 1, 2]], [[0, "Run", "q", 2, 9]], [],
                       [["sym", ["r:a.go#A.Run"], []]]),
    }
    servers = {"python": "s 1", "go": "s 1"}
    # pkg/__init__.py now re-exports helper from b: main.py imports pkg, nothing of it points into the change
    assert lsp.files_to_ask(files, {"pkg/__init__.py"}, set(), servers, lsp.LspSettings()) == {"main.py"}
    # types.go changed a field's type: main.go, in the same package, is asked; sub/x.go (another package) not
    assert lsp.files_to_ask(files, {"types.go"}, set(), servers, lsp.LspSettings()) == {"main.go"}
    # an answer that could not be mapped (its target was edited) is asked again, whatever changed
    files["other.py"].lsp["answers"] = [["dirty", "pkg/a.py"]]
    assert lsp.files_to_ask(files, set(), set(), servers, lsp.LspSettings()) == {"other.py"}


def test_stored_answers_count_only_for_the_languages_of_this_run() -> None:
    files = {"a.py": _f("a.py", "python", [["run", "function", "run", None, 1, 3]], [[0, "join", "os.path", 2, 8]],
                        [], [["ext", ["posixpath"]]])}
    assert any(k[0] == "CALLS_EXTERNAL" for k in resolve("r", files, use_lsp=("python",)).edges)
    assert any(k[0] == "CALLS_EXTERNAL" for k in resolve("r", files, use_lsp=("all",)).edges)
    assert not any(k[0] == "CALLS_EXTERNAL" for k in resolve("r", files, use_lsp=("go",)).edges)


def test_python_own_names_are_top_level_packages() -> None:
    assert [lsp._top_module(p) for p in ("src/click/core.py", "myapp/logging.py", "setup.py", "lib/x/y.py")] == \
        ["click", "myapp", "setup", "x"]


# -- a real server ----------------------------------------------------------------------------------------------
@needs_jedi
def test_incremental_run_after_a_re_export_moved_equals_a_fresh_one(graph, git_repo, repo_name) -> None:
    git_repo.write("pkg/a.py", "def helper():\n    return 1\n")
    git_repo.write("pkg/b.py", "def helper():\n    return 2\n")
    git_repo.write("pkg/__init__.py", "from .a import helper\n")
    git_repo.write("main.py", "from pkg import helper\n\n\ndef main():\n    return helper()\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    assert _calls(graph, repo_name)[("main", "pkg/a.py#helper")]["resolved_by"] == "lsp"
    git_repo.write("pkg/__init__.py", "from .b import helper\n")
    git_repo.commit("v2")
    second = index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    assert second.lsp["groups"]["python"]["files"] == 1
    calls = _calls(graph, repo_name)
    assert ("main", "pkg/b.py#helper") in calls and ("main", "pkg/a.py#helper") not in calls


@needs_jedi
def test_a_target_edited_in_the_working_tree_keeps_the_names_edge_until_asked_again(graph, git_repo,
                                                                                    repo_name) -> None:
    git_repo.write("lib.py", "def helper(x):\n    return x\n")
    git_repo.write("main.py", "from lib import helper\n\n\ndef main():\n    return helper(1)\n")
    git_repo.commit("v1")
    with (git_repo.root / "lib.py").open("a") as fh:
        fh.write("# wip\n")
    first = index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    assert first.lsp["groups"]["python"]["unmapped"] == 1
    assert ("main", "lib.py#helper") in _calls(graph, repo_name) and _unresolved(graph, repo_name) == []
    git_repo.git("checkout", "lib.py")
    again = index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    assert again.lsp["groups"]["python"]["files"] == 1              # main.py, whose answer could not be mapped
    assert _calls(graph, repo_name)[("main", "lib.py#helper")]["resolved_by"] == "lsp"


@needs_jedi
def test_a_file_that_is_not_utf8_is_left_out_alone_and_a_crlf_checkout_is_asked(graph, git_repo,
                                                                                 repo_name) -> None:
    git_repo.write("latin.py", b"# Fran\xe7ois\ndef helper(x):\n    return x\n\n\ndef g():\n    return helper(2)\n")
    git_repo.write(".gitattributes", "crlf.py text eol=crlf\n")
    git_repo.write("crlf.py", "from latin import helper\n\n\ndef main():\n    return helper(1)\n")
    git_repo.commit("v1")
    (git_repo.root / "crlf.py").unlink()
    git_repo.git("checkout", "crlf.py")
    assert b"\r\n" in (git_repo.root / "crlf.py").read_bytes()
    summary = index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    report = summary.lsp
    assert report["files_not_asked"] == {"not UTF-8 (language servers read UTF-8 only)": 1}
    assert report["groups"]["python"]["files"] == 1 and not report["groups"]["python"]["skipped"]
    assert _calls(graph, repo_name)[("main", "latin.py#helper")]["resolved_by"] == "lsp"


@needs_jedi
@pytest.mark.parametrize("files, module", [
    # a vendored file (not indexed): an external module, not a variable that dropped the names' edge
    ({"third_party/vlib.py": "def vfunc(x):\n    return x\n", "third_party/__init__.py": "",
      "app/main.py": "from third_party.vlib import vfunc\n\n\ndef main():\n    return vfunc(1)\n"}, "vlib"),
    # a module of ours named like the standard library's did not hide it
    ({"myapp/__init__.py": "", "myapp/logging.py": "def setup():\n    return 1\n",
      "myapp/main.py": "import logging\n\n\ndef main():\n    return logging.getLogger('x')\n"}, "logging"),
], ids=["vendored", "stdlib-name"])
def test_calls_outside_the_indexed_code_are_external_modules(graph, git_repo, repo_name, files, module) -> None:
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    summary = index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    assert summary.lsp["groups"]["python"]["variable"] == 0
    assert ("main", f"module:{module}") in _calls(graph, repo_name), _calls(graph, repo_name)
    assert _unresolved(graph, repo_name) == []


# -- servers that hang, die or lose their worker -----------------------------------------------------------------
def test_a_stopped_process_tree_is_killed() -> None:
    parent = subprocess.Popen(["bash", "-c", "sleep 60 & wait"])
    try:
        deadline = time.monotonic() + 5
        while not psutil.Process(parent.pid).children() and time.monotonic() < deadline:
            time.sleep(0.05)
        child = psutil.Process(parent.pid).children()[0]
        parent.send_signal(19)                                   # SIGSTOP: SIGTERM would wait in the queue
        lsp._kill_tree(parent.pid)
        assert parent.wait(5) == -9
        child.wait(5)
        assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE
    finally:
        if parent.poll() is None:
            parent.kill()


def test_a_request_to_a_server_that_exits_fails_at_once_not_after_its_timeout() -> None:
    async def run() -> float:
        process = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(0.3)")
        started = time.monotonic()
        with pytest.raises(lsp._ServerDied):
            await lsp._unless_exit(asyncio.sleep(30), process, 20)
        return time.monotonic() - started
    assert asyncio.run(run()) < 5

    async def answered() -> str:
        process = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(5)")
        try:
            async def reply():
                return "ok"
            return await lsp._unless_exit(reply(), process, 2)
        finally:
            process.kill()
            await process.wait()
    assert asyncio.run(answered()) == "ok"


def test_a_server_that_lost_its_worker_process_is_seen() -> None:
    parent = subprocess.Popen(["bash", "-c", "sleep 60 & wait"])

    class Server:
        class server:
            process = parent
    try:
        deadline = time.monotonic() + 5
        while not lsp._has_workers(Server) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lsp._has_workers(Server) is True
        psutil.Process(parent.pid).children()[0].kill()
        deadline = time.monotonic() + 5
        while lsp._has_workers(Server) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lsp._has_workers(Server) is False
    finally:
        parent.kill()
        parent.wait()
    assert lsp._has_workers(Server) is None


def test_a_typescript_run_whose_tsserver_dies_is_restarted_and_asks_that_file_again(graph, git_repo, repo_name,
                                                                                    monkeypatch) -> None:
    if lsp_servers.find_server("typescript", git_repo.root) is None:
        pytest.skip("typescript-language-server not found; run scripts/setup (npm ci)")
    git_repo.write("src/lib.ts", "export function twice(x: number): number { return x * 2; }\n")
    for i in range(3):
        git_repo.write(f"src/m{i}.ts", f"import {{ twice }} from './lib';\nexport function f{i}(): number "
                                       f"{{ return twice({i}); }}\n")
    git_repo.commit("v1")
    real_ask, asked = lsp._Asker.ask_file, []

    async def ask_then_kill_tsserver(self, path):
        answers = await real_ask(self, path)
        asked.append(path)
        if len(asked) == 2:        # tsserver dies after the second file; typescript-language-server lives on
            for child in psutil.Process(self.server.server.process.pid).children(recursive=True):
                child.kill()
            time.sleep(0.5)
        return answers
    monkeypatch.setattr(lsp._Asker, "ask_file", ask_then_kill_tsserver)
    summary = index_repository(graph, git_repo.root, name=repo_name,
                               settings=IndexSettings(lsp_languages=("typescript",)))
    group = summary.lsp["groups"]["typescript"]
    assert group["restarts"] == 1 and not group["skipped"]
    calls = _calls(graph, repo_name)
    assert all(calls[(f"f{i}", "src/lib.ts#twice")]["resolved_by"] == "lsp" for i in range(3))
    assert asked.count(asked[1]) == 2                            # the file asked when it died: asked again


@needs_jedi
def test_jedi_is_asked_in_code_points_after_an_emoji(graph, git_repo, repo_name) -> None:
    """jedi-language-server reads LSP's UTF-16 columns as code points: `f` after two emoji was asked two
    columns too far and the edge was lost."""
    git_repo.write("e.py", 'def f(x):\n    return x\n\n\ndef main():\n    s = "\U0001F389\U0001F389"; return f(len(s))\n')
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    calls = _calls(graph, repo_name)
    assert calls[("main", "e.py#f")]["resolved_by"] == "lsp" and ("main", "module:builtins") in calls


def test_a_call_of_an_anonymous_default_export_keeps_its_edge(graph, git_repo, repo_name) -> None:
    if lsp_servers.find_server("typescript", git_repo.root) is None:
        pytest.skip("typescript-language-server not found; run scripts/setup (npm ci)")
    git_repo.write("src/anon.ts", "export default function (x: number): number {\n  return x * 2;\n}\n")
    git_repo.write("src/main.ts", 'import anon from "./anon";\n\nexport function run(): number {\n'
                                  "  return anon(1);\n}\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name, settings=IndexSettings(lsp_languages=("typescript",)))
    assert _calls(graph, repo_name)[("run", "src/anon.ts#default")]["resolved_by"] == "lsp"


@needs_jedi
def test_the_budget_stops_the_pass_inside_a_file_not_only_between_files(graph, git_repo, repo_name,
                                                                        monkeypatch) -> None:
    """The deadline was checked between files only: one file with thousands of call sites ran past it."""
    git_repo.write("big.py", "def f(x):\n    return x\n\n\ndef main():\n" +
                   "".join(f"    f({i})\n" for i in range(200)))
    git_repo.commit("v1")
    real_ask, requests = lsp._Asker.ask_file, []
    real_request = lsp._Asker._request

    async def ask(self, path):
        self.deadline = time.monotonic() + 0.5          # the budget runs out half a second into the file
        return await real_ask(self, path)

    async def request(self, *args):
        requests.append(args)
        await asyncio.sleep(0.05)
        return await real_request(self, *args)
    monkeypatch.setattr(lsp._Asker, "ask_file", ask)
    monkeypatch.setattr(lsp._Asker, "_request", request)
    started = time.monotonic()
    summary = index_repository(graph, git_repo.root, name=repo_name, settings=PY)
    assert time.monotonic() - started < 20 and len(requests) < 50
    assert summary.lsp["budget_exhausted"] is True
    assert summary.lsp["files_not_asked"] == {"LSP time budget exhausted": 1}
    assert _calls(graph, repo_name)[("main", "big.py#f")]["resolved_by"] == "same_file"     # names kept


def test_the_summary_says_when_no_file_needed_asking_and_counts_unmapped_answers(capsys) -> None:
    from graphrag_code.cli import _print_lsp

    _print_lsp({"seconds": 0.0, "budget_exhausted": False, "groups": {}, "files_not_asked": {}})
    assert "no file needed asking" in capsys.readouterr().out
    group = {**lsp.GroupReport(server="jedi 1", files=1, asked=2, symbol=1, unmapped=1).__dict__,
             "seconds_per_1k_calls": None}
    _print_lsp({"seconds": 1.0, "budget_exhausted": False, "groups": {"python": group}, "files_not_asked": {}})
    out = capsys.readouterr().out
    assert "1 into files edited since indexed (asked again next run)" in out and "no file needed" not in out


def test_lsp_budget_without_lsp_is_warned_about(git_repo, repo_name, neo4j_settings) -> None:
    from click.testing import CliRunner

    from graphrag_code.cli import main

    git_repo.write("a.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    result = CliRunner().invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--no-embed",
                                       "--lsp-budget", "5"])
    assert result.exit_code == 0 and "warning: --lsp-budget does nothing without --lsp" in result.output


def test_a_refused_call_hierarchy_is_no_error(tmp_path) -> None:
    """gopls answers prepareCallHierarchy with an error for what is no function; those calls are asked one by
    one, so a healthy run on cobra reported 21 "errors"."""
    async def run() -> lsp.GroupReport:
        process = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(30)")

        async def refuse(method, params):
            raise RuntimeError("X is not a function")

        class Server:
            server = type("Inner", (), {"process": process, "send_request": staticmethod(refuse)})()
        report = lsp.GroupReport()
        asker = lsp._Asker("go", tmp_path, {}, lsp._Sources(tmp_path, {}), lsp.LspSettings(), report, "gopls")
        asker.server = Server
        try:
            assert await asker._raw("textDocument/prepareCallHierarchy", {}) is None
            assert await asker._raw("callHierarchy/outgoingCalls", {}) is None
        finally:
            process.kill()
            await process.wait()
        return report
    report = asyncio.run(run())
    assert (report.hierarchy_refused, report.errors) == (1, 1)


def test_seconds_per_1k_call_sites_leave_the_servers_start_up_out() -> None:
    """A small run reported '1943 s per 1k call sites': the start-up divided by a handful of calls."""
    assert lsp.GroupReport(asked=4, seconds=8.0, startup_seconds=7.6).seconds_per_1k == 100.0
    assert lsp.GroupReport(asked=0, seconds=8.0).seconds_per_1k is None
