"""Each installed language server starts offline through lsp_servers.create_server and follows a call across
files (through an import alias, a method on a struct, a header) to the defining file and line.

A server that is not installed is skipped with missing_reason (scripts/setup installs them). Positions are LSP's:
0-based lines, columns in UTF-16 code units: the call lines carry non-BMP characters before the call, where bytes,
code points and UTF-16 units all differ.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from graphrag_code import lsp_servers
from graphrag_code.lsp_servers import create_server, find_server, missing_reason

TIMEOUT = 50.0          # seconds for start-up plus every request of one test
EMOJI = "é😀"           # 2 code points, 3 UTF-16 units, 6 UTF-8 bytes


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _position(root: Path, rel: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """0-based line and UTF-16 column of the ``occurrence``-th ``needle`` in the file."""
    seen = 0
    for line0, line in enumerate((root / rel).read_text(encoding="utf-8").split("\n")):
        start = 0
        while (col := line.find(needle, start)) >= 0:
            if seen == occurrence:
                return line0, len(line[:col].encode("utf-16-le")) // 2
            seen, start = seen + 1, col + 1
    raise AssertionError(f"{needle!r} not in {rel}")


def _line_of(root: Path, rel: str, needle: str) -> int:
    return _position(root, rel, needle)[0]


def _spec(language: str) -> lsp_servers.ServerSpec:
    spec = find_server(language)
    if spec is None:
        pytest.skip(missing_reason(language))
    return spec


async def _definitions(spec, root: Path, queries: list[tuple[str, int, int]], **kwargs) -> tuple[list, dict]:
    """Start the server on ``root``, ask a definition at each (file, line0, col16); the answers and timings."""
    server = create_server(spec, str(root), **kwargs)
    times: dict = {}
    t0 = time.monotonic()
    async with server.start_server():
        times["start"] = time.monotonic() - t0
        answers, times["requests"] = [], []
        for rel, line0, col in queries:
            t1 = time.monotonic()
            answers.append(await server.request_definition(rel, line0, col))
            times["requests"].append(round(time.monotonic() - t1, 3))
    times["total"] = time.monotonic() - t0
    print(f"\n{spec.name} {spec.version}: start {times['start']:.2f} s, definitions {times['requests']} s")
    return answers, times


def _run(coro):
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


def _assert_lands(answer: list, root: Path, rel: str, line0: int) -> None:
    assert answer, "no definition returned"
    hits = [(Path(loc["absolutePath"]).resolve(), loc["range"]["start"]["line"]) for loc in answer]
    assert ((root / rel).resolve(), line0) in hits, f"expected {rel}:{line0}, got {hits}"


# -- the registry ----------------------------------------------------------------------------------------------
def test_unknown_and_unsupported_languages_explain_themselves():
    assert find_server("java") is None and find_server("nope") is None
    assert "download at run time" in missing_reason("java")
    for language in lsp_servers.LANGUAGES:
        assert "scripts/setup" in missing_reason(language) or "PATH" in missing_reason(language)


def test_servers_come_from_this_checkout_not_the_indexed_repository(tmp_path: Path):
    fake = tmp_path / "node_modules" / ".bin" / "typescript-language-server"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    spec = find_server("typescript", tmp_path)
    assert spec is None or not spec.binary.startswith(str(tmp_path))


def test_compile_commands_go_outside_the_repository(tmp_path: Path):
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    _write(repo, {"include/util.h": "int helper(int x);\n", "src/util.c": "int helper(int x) { return x; }\n",
                  "src/main.cpp": "int main() { return 0; }\n", "node_modules/x/y.c": "int y;\n"})
    target = lsp_servers.write_compile_commands(repo, cache)
    assert target.parent == cache and not (repo / "compile_commands.json").exists()
    entries = json.loads(target.read_text())
    assert sorted(Path(e["file"]).name for e in entries) == ["main.cpp", "util.c"]
    assert f"-I{repo.resolve() / 'include'}" in entries[0]["arguments"]
    mtime = target.stat().st_mtime_ns
    lsp_servers.write_compile_commands(repo, cache)          # unchanged: not rewritten (clangd keeps its index)
    assert target.stat().st_mtime_ns == mtime


# -- the servers -----------------------------------------------------------------------------------------------
def test_python_definition_through_an_import_alias(tmp_path: Path):
    spec = _spec("python")
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/b.py": "import os\n\n\ndef helper():\n    return os.sep\n",
        "pkg/a.py": f"from .b import helper as h\n\n\ndef main():\n    s = \"{EMOJI}\"; return h()\n",
    })
    (answer,), _ = _run(_definitions(spec, tmp_path, [("pkg/a.py", *_position(tmp_path, "pkg/a.py", "h()"))]))
    _assert_lands(answer, tmp_path, "pkg/b.py", _line_of(tmp_path, "pkg/b.py", "def helper"))


def _ts_project(root: Path, ext: str, with_tsconfig: bool) -> str:
    files = {
        f"src/b.{ext}": "export function helper() {\n  return 1;\n}\n",
        f"src/a.{ext}": (f"import {{ helper as h }} from \"./b\";\n\nexport function main() {{\n"
                         f"  const s = \"{EMOJI}\"; return h();\n}}\n"),
        # the indexed repository's own TypeScript must not be used (this one would not even start)
        "node_modules/typescript/package.json": '{"name": "typescript", "version": "7.0.0"}\n',
        "node_modules/typescript/lib/tsserver.js": "process.exit(3);\n",
    }
    if ext == "tsx":
        files["src/a.tsx"] = files["src/a.tsx"].replace("return h();", "return <div>{h()}</div>;")
    if with_tsconfig:
        files["tsconfig.json"] = ('{"compilerOptions": {"strict": true, "jsx": "react-jsx", "noEmit": true, '
                                  '"module": "esnext", "moduleResolution": "bundler"}, "include": ["src"]}\n')
    _write(root, files)
    return f"src/a.{ext}"


@pytest.mark.parametrize("language,ext,with_tsconfig", [
    ("typescript", "ts", True), ("tsx", "tsx", True), ("javascript", "js", False)])
def test_typescript_family_definition_through_an_import_alias(tmp_path: Path, language, ext, with_tsconfig):
    spec = _spec(language)
    a = _ts_project(tmp_path, ext, with_tsconfig)
    (answer,), _ = _run(_definitions(spec, tmp_path, [(a, *_position(tmp_path, a, "h()"))]))
    _assert_lands(answer, tmp_path, f"src/b.{ext}", 0)
    assert not (tmp_path / ".log").exists()      # tsserver logging stays off


_GO_B = "package demo\n\ntype Store struct{ n int }\n\nfunc (s *Store) Get() int {\n\treturn s.n\n}\n\n" \
        "func helper() int { return 2 }\n"
_GO_A = f"package demo\n\nfunc run() int {{\n\tst := &Store{{}}\n\t_ = \"{EMOJI}\"; return st.Get() + helper()\n}}\n"


@pytest.mark.parametrize("go_mod", [
    "module example.com/demo\n\ngo 1.22\n",
    # a requirement that is not in the module cache: offline, a module before go 1.17 (no graph pruning) does
    # not load at all ("no package metadata") unless gopls gets the stub go.work (outside the repository)
    "module example.com/demo\n\ngo 1.16\n\nrequire example.invalid/missing v1.2.3\n",
    None,
], ids=["module", "module-with-uncached-requirement", "no-go.mod"])
def test_go_method_through_a_variable_and_function_across_files(tmp_path: Path, go_mod):
    spec = _spec("go")
    repo = tmp_path / "repo"
    files = {"b.go": _GO_B, "a.go": _GO_A, **({"go.mod": go_mod} if go_mod else {})}
    if go_mod and "missing" in go_mod:
        files["c.go"] = "package demo\n\nimport \"example.invalid/missing\"\n\nvar _ = missing.Thing\n"
    _write(repo, files)
    (get, helper), _ = _run(_definitions(spec, repo, [("a.go", *_position(repo, "a.go", "Get()")),
                                                      ("a.go", *_position(repo, "a.go", "helper()"))],
                                         cache_dir=tmp_path / "gopls-cache"))
    _assert_lands(get, repo, "b.go", _line_of(repo, "b.go", "func (s *Store) Get"))
    _assert_lands(helper, repo, "b.go", _line_of(repo, "b.go", "func helper"))
    assert sorted(p.name for p in repo.iterdir()) == sorted(files)        # nothing written to the repository


def test_offline_go_work_only_when_a_requirement_is_missing(tmp_path: Path):
    if lsp_servers.go_binary() is None:
        pytest.skip("go not found")
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    _write(repo, {"go.mod": "module example.com/demo\n\ngo 1.22\n", "a.go": "package demo\n"})
    assert lsp_servers.offline_go_work(repo, cache) is None
    _write(repo, {"go.mod": "module example.com/demo\n\ngo 1.22\n\nrequire (\n\texample.invalid/Missing v1.2.3 "
                            "// indirect\n\texample.com/local v0.0.0\n)\n\nreplace example.com/local => ./local\n"})
    work = lsp_servers.offline_go_work(repo, cache)
    assert work is not None and work.parent == cache
    text = work.read_text()
    assert f'use "{repo.resolve()}"' in text
    assert "replace example.invalid/Missing v1.2.3 =>" in text and "example.com/local" not in text
    assert lsp_servers.offline_go_work(repo, cache, {"GOWORK": "off"}) is None    # the user's GOWORK wins


def test_c_definition_in_another_file_through_a_header(tmp_path: Path):
    spec = _spec("c")
    repo = tmp_path / "repo"
    _write(repo, {
        "include/util.h": "#ifndef UTIL_H\n#define UTIL_H\nint helper(int x);\n#endif\n",
        "src/util.c": "#include \"util.h\"\n\nint helper(int x) {\n    return x + 1;\n}\n",
        "src/main.c": f"#include <stdio.h>\n#include \"util.h\"\n\nint main(void) {{\n"
                      f"    const char *s = \"{EMOJI}\"; return helper(1);\n}}\n",
    })
    (answer,), _ = _run(_definitions(spec, repo, [("src/main.c", *_position(repo, "src/main.c", "helper(1)"))],
                                     cache_dir=tmp_path / "clangd-cache"))
    _assert_lands(answer, repo, "src/util.c", _line_of(repo, "src/util.c", "int helper(int x) {"))
    assert not (repo / ".cache").exists() and not (repo / "compile_commands.json").exists()


def test_cpp_method_through_a_variable_in_another_file(tmp_path: Path):
    spec = _spec("cpp")
    repo = tmp_path / "repo"
    _write(repo, {
        "store.hpp": "#pragma once\nnamespace demo {\nclass Store {\n public:\n  int get() const;\n};\n}\n",
        "store.cpp": "#include \"store.hpp\"\n\nnamespace demo {\nint Store::get() const { return 1; }\n}\n",
        "main.cpp": f"#include \"store.hpp\"\n\nint main() {{\n  demo::Store st;\n"
                    f"  const char *s = \"{EMOJI}\"; return st.get();\n}}\n",
    })
    (answer,), _ = _run(_definitions(spec, repo, [("main.cpp", *_position(repo, "main.cpp", "get()"))],
                                     cache_dir=tmp_path / "clangd-cache"))
    _assert_lands(answer, repo, "store.cpp", _line_of(repo, "store.cpp", "Store::get"))


def test_php_method_of_a_returned_object_in_another_file(tmp_path: Path):
    """intelephense from node_modules (npm ci), its index outside the repository; `make()->get()` needs the
    return type of `make`, which the name-based resolver does not follow across files."""
    spec = _spec("php")
    repo = tmp_path / "repo"
    _write(repo, {
        "src/Store.php": "<?php\nnamespace Demo;\n\nclass Store {\n    public function get(): int { return 1; }\n}\n",
        "src/main.php": (f"<?php\nnamespace Demo;\n\nfunction make(): Store {{ return new Store(); }}\n\n"
                         f"function main(): int {{\n    $s = \"{EMOJI}\"; return make()->get();\n}}\n"),
    })
    cache = tmp_path / "intelephense-cache"
    (answer,), _ = _run(_definitions(spec, repo, [("src/main.php", *_position(repo, "src/main.php", "get()"))],
                                     cache_dir=cache))
    # intelephense answers with the declaration's whole range (from `public`): its first line
    _assert_lands(answer, repo, "src/Store.php", _line_of(repo, "src/Store.php", "function get"))
    assert cache.is_dir() and not any(p.name.startswith(".") for p in repo.iterdir())


def test_nothing_is_fetched_at_run_time(monkeypatch: pytest.MonkeyPatch):
    """The stock multilspy classes would run npm or download clangd; ours must never reach those paths."""
    specs = [spec for language in lsp_servers.LANGUAGES if (spec := find_server(language)) is not None]

    def forbidden(*args, **kwargs):
        raise AssertionError(f"a run-time download was attempted: {args}")
    import multilspy.multilspy_utils as utils
    monkeypatch.setattr(utils.FileUtils, "download_and_extract_archive", forbidden)
    monkeypatch.setattr(subprocess, "run", forbidden)
    for spec in specs:
        create_server(spec, os.getcwd())     # constructing runs the stock classes' setup_runtime_dependencies


def test_python_import_roots_are_the_parents_of_top_level_packages(tmp_path) -> None:
    for path in ("libs/pygments/pygments/__init__.py", "libs/pygments/pygments/lexers/__init__.py",
                 "src/click/__init__.py", "top/__init__.py", "top/sub/__init__.py", "scripts/run.py",
                 ".venv/lib/site/__init__.py", "node_modules/x/y/__init__.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    roots = lsp_servers.python_import_roots(tmp_path)
    # a package at the root imports from the root (searched anyway); hidden and vendored folders are not code
    assert roots == [str((tmp_path / "libs/pygments").resolve()), str((tmp_path / "src").resolve())]
    assert lsp_servers.python_import_roots(tmp_path, limit=1) == roots[:1]
    # a repository that is itself a package imports itself from the folder above
    assert lsp_servers.python_import_roots(tmp_path / "top") == [str(tmp_path.resolve())]
