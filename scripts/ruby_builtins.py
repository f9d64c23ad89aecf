"""Write graphrag_code/data/ruby_builtins.json: the methods every Ruby object answers and Ruby's core classes.

A bare `raise`, `puts`, `block_given?` or `Integer(s)` in a Ruby method is a method of Kernel or BasicObject,
which every object has; `attr_reader :x`, `alias_method`, `private_constant` in a class body (or a class method)
are Module's and Class's, which every class has;
`class Error < StandardError`, `include Comparable` name Ruby's core classes and modules. The names are read from
a Ruby interpreter itself, started without RubyGems, so only the core is listed (no standard library that needs a
`require`).

    .venv/bin/python scripts/ruby_builtins.py [--ruby ruby]

Without a `ruby` on PATH (our machines have none), Debian's ruby3.1 and libruby3.1 packages are fetched with
`apt-get download` into a temporary directory and run from there. Run by hand; the output is committed, so that
indexing never depends on Ruby.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "graphrag_code" / "data" / "ruby_builtins.json"
_PROGRAM = """
object = [Kernel, BasicObject].flat_map { |m| m.instance_methods + m.private_instance_methods }.uniq
mod = [Module, Class].flat_map { |m| m.instance_methods + m.private_instance_methods }.uniq - object
classes = Object.constants.select { |c| Object.const_get(c).is_a?(Module) rescue false }
puts RUBY_VERSION
puts object.sort.join(" ")
puts mod.sort.join(" ")
puts classes.sort.join(" ")
"""
_METHOD = re.compile(r"[A-Za-z_]\w*[?!]?")      # no operators (`==`, `!~`): no bare call is written so


def _debian_ruby(tmp: str) -> tuple[list[str], dict[str, str]]:
    """The command and environment of Debian's ruby3.1, fetched and unpacked into ``tmp``."""
    subprocess.run(["apt-get", "download", "ruby3.1", "libruby3.1"], cwd=tmp, check=True, capture_output=True)
    for deb in Path(tmp).glob("*.deb"):
        subprocess.run(["dpkg", "-x", str(deb), "root"], cwd=tmp, check=True)
    root = Path(tmp) / "root" / "usr"
    env = {**os.environ, "LD_LIBRARY_PATH": str(next(root.glob("lib/*-linux-gnu")))}
    return [str(root / "bin" / "ruby3.1")], env


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruby", default=shutil.which("ruby"), help="the ruby to read (default: ruby on PATH, else "
                                                                 "Debian's ruby3.1 fetched with apt-get download)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        command, env = ([args.ruby], dict(os.environ)) if args.ruby else _debian_ruby(tmp)
        run = subprocess.run([*command, "--disable-gems", "-e", _PROGRAM], capture_output=True, text=True, env=env)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return 1
    version, *lists = run.stdout.splitlines()
    objects, modules, classes = ([m for m in names.split() if _METHOD.fullmatch(m)] for names in lists)
    OUT.write_text(json.dumps({"source": f"Ruby {version} without RubyGems (scripts/ruby_builtins.py)",
                               "object_methods": objects, "module_methods": modules, "classes": classes},
                              indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(objects)} methods of every object, {len(modules)} more of every class "
          f"or module, {len(classes)} classes and modules (Ruby {version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
