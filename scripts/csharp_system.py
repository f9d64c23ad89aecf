"""Write graphrag_code/data/csharp_system.json: the public types of .NET's System namespaces, by namespace.

A C# file's `using System;` / `using System.Collections.Generic;` bring `Console`, `ArgumentNullException`,
`List<T>`, `Dictionary<K, V>` into scope; where the repository defines no type of that name, a call of them
(`new List<string>()`, `Console.WriteLine(...)`) or on an object declared with one is .NET's, not a possible
caller of a method of ours. The names are read from the metadata of Mono's class libraries (mscorlib, System,
System.Core: the base class library of .NET Framework 4.x with later additions), Debian's packages
libmono-corlib4.5-dll, libmono-system4.0-cil and libmono-system-core4.0-cil, fetched with `apt-get download`,
unpacked with `dpkg -x` and read with the `dnfile` package (PyPI). Only namespaces starting with `System` are kept.

    pip install dnfile && .venv/bin/python scripts/csharp_system.py

Run by hand; the output is committed, so that indexing needs neither Mono nor dnfile.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "graphrag_code" / "data" / "csharp_system.json"
PACKAGES = ("libmono-corlib4.5-dll", "libmono-system4.0-cil", "libmono-system-core4.0-cil")


def main() -> int:
    try:
        import dnfile
    except ImportError:
        print("needs the dnfile package: pip install dnfile", file=sys.stderr)
        return 1
    found: dict[str, set[str]] = defaultdict(set)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["apt-get", "download", *PACKAGES], cwd=tmp, check=True, capture_output=True)
        for deb in Path(tmp).glob("*.deb"):
            subprocess.run(["dpkg", "-x", str(deb), "root"], cwd=tmp, check=True)
        for dll in sorted((Path(tmp) / "root" / "usr" / "lib" / "mono" / "4.5").glob("*.dll")):
            for row in dnfile.dnPE(str(dll)).net.mdtables.TypeDef:
                namespace = str(row.TypeNamespace)
                if row.Flags.tdPublic and namespace.startswith("System"):
                    found[namespace].add(str(row.TypeName).split("`")[0])     # `List`1` is List<T>
    OUT.write_text(json.dumps({"source": f"Mono 6.8 ({', '.join(PACKAGES)}; scripts/csharp_system.py)",
                               "namespaces": {ns: sorted(names) for ns, names in sorted(found.items())}},
                              indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {sum(map(len, found.values()))} types in {len(found)} namespaces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
