"""Write graphrag_code/data/java_lang.json: the public top-level types of the package java.lang.

Java imports java.lang into every file, so `new IllegalStateException(...)`, `Math.max(a, b)` or a `String`
parameter's `s.substring(1)` name Java's own classes wherever the repository defines no type of that name. The
names are read from the running JDK's own modules (the `jrt:/` file system) by a small Java program run with the
source launcher, keeping the public classes only.

    .venv/bin/python scripts/java_lang.py [--java java]

Run by hand when the JDK is upgraded; the output is committed, so that indexing never depends on a JDK.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "graphrag_code" / "data" / "java_lang.json"

_PROGRAM = """
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.*;
import java.util.*;

public class ListLang {
    public static void main(String[] args) throws Exception {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(jrt.getPath("/modules/java.base/java/lang"))) {
            for (Path p : ds) {
                String f = p.getFileName().toString();
                if (!f.endsWith(".class") || f.contains("$") || f.equals("module-info.class")) continue;
                String n = f.substring(0, f.length() - 6);
                Class<?> c = Class.forName("java.lang." + n, false, ClassLoader.getSystemClassLoader());
                if (Modifier.isPublic(c.getModifiers())) out.add(n);
            }
        }
        Collections.sort(out);
        System.out.println(Runtime.version().feature());
        for (String n : out) System.out.println(n);
    }
}
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--java", default="java", help="the java command of the JDK to read (default: java)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "ListLang.java"
        source.write_text(_PROGRAM, encoding="utf-8")
        run = subprocess.run([args.java, str(source)], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return 1
    feature, *types = run.stdout.split()
    OUT.write_text(json.dumps({"source": f"java.base of JDK {feature} (scripts/java_lang.py)", "types": types},
                              indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(types)} public types of java.lang (JDK {feature})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
