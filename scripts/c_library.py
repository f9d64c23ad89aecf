"""Write graphrag_code/data/c_library.json: the functions and function-like macros the C library's headers declare.

A C or C++ file that includes `<stdio.h>` calls `printf`, `fclose`, `snprintf`; `<string.h>` brings `memcpy`,
`<errno.h>` and `<string.h>` `strerror`, `<assert.h>` the macro `assert`, `<stdarg.h>` `va_start`; a CPython
extension's `<Python.h>` brings `PyErr_Format`. Where the repository defines no function of that name, such a call
is the library's (`external:stdio.h`), not a possible caller of a function of ours. The names are read from this
machine's headers (glibc's in /usr/include, GCC's own stdarg.h and stddef.h, CPython's in /usr/include/python3.*)
by their declarations' shape: every function a header (and the `bits/` headers it includes) declares and every
function-like `#define`. C++'s `<cstdio>` is `<stdio.h>`.

    .venv/bin/python scripts/c_library.py

Run by hand; the output is committed, so that indexing does not depend on the machine's headers.
"""

from __future__ import annotations

import glob
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "graphrag_code" / "data" / "c_library.json"
INCLUDE = Path("/usr/include")
# C11's headers and the POSIX ones programs include most
HEADERS = """assert.h ctype.h errno.h fenv.h float.h inttypes.h limits.h locale.h math.h setjmp.h signal.h stdarg.h
stddef.h stdint.h stdio.h stdlib.h string.h threads.h time.h uchar.h wchar.h wctype.h
unistd.h fcntl.h dirent.h pthread.h poll.h netdb.h dlfcn.h glob.h spawn.h strings.h libgen.h pwd.h grp.h syslog.h
sched.h semaphore.h regex.h getopt.h termios.h fnmatch.h err.h search.h utime.h iconv.h langinfo.h
sys/stat.h sys/types.h sys/wait.h sys/time.h sys/resource.h sys/socket.h sys/select.h sys/mman.h sys/ioctl.h
sys/utsname.h sys/epoll.h sys/uio.h sys/file.h sys/times.h sys/sysinfo.h sys/statvfs.h
netinet/in.h arpa/inet.h""".split()
_INCLUDED = re.compile(rb'^\s*#\s*include\s*<(bits/[^>]+)>', re.M)


# glibc declares every function `extern <type> name (...)`, CPython `PyAPI_FUNC(<type>) name(...)` or `static
# inline <type> name(...)`; a function-like macro is `#define name(`. (tree-sitter's C grammar loses whole headers
# to their attribute macros: `__THROW __attribute_malloc__ __wur` after a declaration.)
_DECLARED = re.compile(rb"(?:\bextern(?!\s*\")|\bPyAPI_FUNC\([^()]*(?:\([^()]*\))?[^()]*\)|\bstatic\s+inline)"
                       rb"[\w\s*]*?\b([A-Za-z_]\w*)\s*\(")
_MACRO = re.compile(rb"^\s*#\s*define\s+([A-Za-z_]\w*)\(", re.M)


def _names(source: bytes) -> set[str]:
    """Functions and function-like macros a header declares; names starting with `__` are the implementation's."""
    found = {m.decode() for m in _DECLARED.findall(source)} | {m.decode() for m in _MACRO.findall(source)}
    return {n for n in found if not n.startswith("__")}


def _header_names(path: Path, depth: int = 0) -> set[str]:
    data = path.read_bytes()
    found = _names(data)
    if depth < 2:
        for inner in _INCLUDED.findall(data):
            for base in (INCLUDE, INCLUDE / "x86_64-linux-gnu"):
                if (base / inner.decode()).exists():
                    found |= _header_names(base / inner.decode(), depth + 1)
                    break
    return found


def main() -> int:
    headers: dict[str, list[str]] = {}
    gcc = sorted(glob.glob("/usr/lib/gcc/*/*/include"))
    for header in HEADERS:
        places = [INCLUDE / header, INCLUDE / "x86_64-linux-gnu" / header] + [Path(g) / header for g in gcc[-1:]]
        found = set().union(*(_header_names(p) for p in places if p.exists()))
        if found:
            headers[header] = sorted(found)
    python = sorted(glob.glob(str(INCLUDE / "python3.*")))
    if python:
        api = set().union(*(_names(Path(p).read_bytes()) for p in
                            glob.glob(python[-1] + "/*.h") + glob.glob(python[-1] + "/cpython/*.h")))
        headers["Python.h"] = sorted(n for n in api if n.startswith(("Py", "_Py")))
    OUT.write_text(json.dumps({"source": "glibc, GCC and CPython headers of /usr/include (scripts/c_library.py)",
                               "headers": headers}, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {sum(map(len, headers.values()))} names in {len(headers)} headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
