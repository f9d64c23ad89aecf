"""Write graphrag_code/data/php_builtins.json: the functions and classes PHP itself defines.

The names are read from the stubs intelephense ships (a derivative of JetBrains' phpstorm-stubs, Apache-2.0),
for the extensions intelephense loads by default (its ``intelephense.stubs`` setting), so that name-based
resolution calls PHP's own what the PHP language server calls PHP's own. Only global-namespace names are kept:
an unqualified call in a namespace falls back to them.

    .venv/bin/python scripts/php_builtins.py [--stubs node_modules/intelephense/lib/stub]

Run by hand when intelephense is upgraded (``scripts/setup`` installs it from package-lock.json); the output is
committed, so that indexing never depends on Node.js being installed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tree_sitter_language_pack import get_parser

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "graphrag_code" / "data" / "php_builtins.json"

# intelephense's default `intelephense.stubs` (lib/intelephense.js)
DEFAULT_STUBS = (
    "apache bcmath bz2 calendar com_dotnet Core ctype curl date dba dom enchant exif fileinfo filter fpm ftp gd hash "
    "iconv imap intl json ldap libxml mbstring mcrypt mssql mysqli oci8 odbc openssl pcntl pcre PDO pgsql Phar posix "
    "pspell random readline Reflection regex session shmop SimpleXML snmp soap sockets sodium SPL sqlite3 standard "
    "superglobals sybase sysvmsg sysvsem sysvshm tidy tokenizer uri xml xmlreader xmlrpc xmlwriter zip zlib"
).split() + ["Zend OPcache"]
_TYPES = ("class_declaration", "interface_declaration", "trait_declaration", "enum_declaration")


def _name(node) -> str | None:
    name = node.child_by_field_name("name")
    return name.text.decode() if name is not None else None


def _declarations(node, functions: set[str], classes: set[str]) -> None:
    """Global-namespace functions and types under ``node`` (a namespace with a name is left out; stubs also wrap
    definitions in ``if`` blocks, which are walked)."""
    for child in node.named_children:
        if child.type == "namespace_definition":
            if child.child_by_field_name("name") is None and (body := child.child_by_field_name("body")):
                _declarations(body, functions, classes)
        elif child.type == "function_definition" and (name := _name(child)):
            functions.add(name.lower())            # PHP's function names are case-insensitive
        elif child.type in _TYPES and (name := _name(child)):
            classes.add(name)
        elif child.type in ("if_statement", "compound_statement", "colon_block"):
            _declarations(child, functions, classes)


def _global_namespace(tree) -> bool:
    """Whether a stub file declares into the global namespace (no ``namespace X;`` statement)."""
    return not any(c.type == "namespace_definition" and c.child_by_field_name("name") is not None
                   and c.child_by_field_name("body") is None for c in tree.root_node.named_children)


def collect(stubs: Path) -> dict:
    parser = get_parser("php")
    functions: set[str] = set()
    classes: set[str] = set()
    for ext in DEFAULT_STUBS:
        folder = stubs / ext
        if not folder.is_dir():
            raise SystemExit(f"php_builtins: {folder} is missing (is this intelephense's lib/stub?)")
        for path in sorted(folder.rglob("*.php")):
            tree = parser.parse(path.read_bytes())
            if _global_namespace(tree):
                _declarations(tree.root_node, functions, classes)
    version = json.loads((stubs.parent.parent / "package.json").read_text()).get("version", "?")
    return {"source": f"intelephense {version} lib/stub (derived from JetBrains phpstorm-stubs, Apache-2.0), "
                      f"written by scripts/php_builtins.py",
            "extensions": DEFAULT_STUBS,
            "functions": sorted(functions),
            "classes": sorted(classes, key=str.lower)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stubs", type=Path, default=ROOT / "node_modules" / "intelephense" / "lib" / "stub")
    args = ap.parse_args(argv)
    data = collect(args.stubs)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=0) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(data['functions'])} functions, {len(data['classes'])} classes "
          f"from {len(DEFAULT_STUBS)} extensions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
