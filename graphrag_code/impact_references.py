"""Non-call uses of the targets of an impact analysis: the ways code may run without a call the graph records
(dunder methods, properties, file-protocol methods, decorators that keep what they decorate, constructors of a
class built at run time) and the references to a target's name that are no call (passed, stored, decorating,
named in a string, an entry point's export). ``impact._completeness`` turns them into its verdict's reasons."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .db import Graph
from .languages import LANGUAGES, SCRIPT_LANGUAGES, language_for_path
from .paths import NodeRef

_DUNDER = re.compile(r"^__\w+__$")
_MACRO_HEAD = re.compile(r"[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*(?:\([^)]*\))?")   # a macro's name and parameters
# A Python definition is handed to each of its decorators, which may keep it (a registry: Django's
# `@register.tag`, `@receiver(...)`, `@admin.register`) and call it where the graph does not see. These decorators
# return the function itself, a wrapper that calls it, or a descriptor the other rules cover (properties).
_PY_DECORATOR = re.compile(r"^[ \t]*@[ \t]*([\w.]+)", re.M)
_TRANSPARENT_DECORATORS = frozenset({
    "staticmethod", "classmethod", "abstractmethod", "abstractproperty", "overload", "override", "final",
    "wraps", "cache", "lru_cache", "cached_property", "property", "setter", "getter", "deleter",
    "total_ordering", "dataclass", "runtime_checkable", "no_type_check", "deprecated",
    "contextmanager", "asynccontextmanager",     # generators: the 'generator' rule says what runs them
    "parametrize", "skip", "skipIf", "skipUnless", "expectedFailure", "xfail", "skipif", "usefixtures",
    "filterwarnings", "timeout", "override_settings", "modify_settings", "patch", "object", "dict",
})
_PROPERTY = re.compile(r"^\s*@(?:[\w.]*\.)?(property|cached_property|getter|setter|deleter)\b", re.M)
# JavaScript/TypeScript accessors run on property access (`p.name = x`, `${p.full}`), as Python's properties
_ACCESSOR = re.compile(r"^\s*(?:(?:public|private|protected|static|override|abstract|async)\s+)*(get|set)\s+"
                       r"[\w$#]+\s*\(", re.M)
# Methods each language's runtime or standard library calls without a call to them in the code (the equivalents
# of Python's dunders): string conversion, equality and ordering, iteration, closing, serving, sorting; and
# Go's `init`, run before main. Keyed by language; a name here makes an impact verdict a lower bound.
_IMPLICIT = {
    "go": frozenset({"String", "GoString", "Error", "Format", "Unwrap", "Is", "As", "Len", "Less", "Swap",
                     "ServeHTTP", "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText", "MarshalYAML",
                     "UnmarshalYAML", "Read", "Write", "Close", "Scan", "Value", "init"}),
    "java": frozenset({"toString", "equals", "hashCode", "compareTo", "compare", "close", "iterator", "hasNext",
                       "next", "run", "call", "accept", "apply", "test", "finalize", "clone", "readObject",
                       "writeObject", "readResolve", "writeReplace"}),
    "javascript": frozenset({"toString", "valueOf", "toJSON", "then", "next", "handleEvent"}),
    "csharp": frozenset({"ToString", "Equals", "GetHashCode", "CompareTo", "Dispose", "DisposeAsync",
                          "GetEnumerator", "MoveNext", "Finalize"}),
    "ruby": frozenset({"to_s", "to_str", "inspect", "each", "<=>", "==", "eql?", "hash", "method_missing",
                       "respond_to_missing?", "call", "to_proc", "coerce"}),
    "rust": frozenset({"fmt", "drop", "deref", "deref_mut", "from", "into", "next", "clone", "eq", "ne", "cmp",
                       "partial_cmp", "hash", "default", "index", "index_mut", "try_from", "from_str"}),
    "php": frozenset({"__construct", "__destruct", "__toString", "__get", "__set", "__isset", "__unset",
                      "__call", "__callStatic", "__invoke", "__clone", "__serialize", "__unserialize",
                      "jsonSerialize", "getIterator", "offsetGet", "offsetSet", "offsetExists", "offsetUnset",
                      "count"}),
}
_IMPLICIT["typescript"] = _IMPLICIT["tsx"] = _IMPLICIT["javascript"]
_CPP_IMPLICIT = re.compile(r"^(?:operator\W|operator\s|~)")       # C++ operators and destructors
# Python's file protocol: the standard library calls these on a file-like object handed to it (io.TextIOWrapper
# calls `seekable()` of the stream it wraps: click's `_FixupStream.seekable`; print, shutil, json.dump call `write`).
# A class is file-like when it has one of the capability methods no other kind of class has; a `close()` or
# `flush()` alone (a session, a notifier) is not enough.
_FILE_PROTOCOL = frozenset({"read", "read1", "readinto", "readline", "readlines", "readable", "seek", "seekable",
                            "tell", "truncate", "write", "writelines", "writable", "flush", "close", "fileno",
                            "isatty"})
_FILE_CAPABILITIES = frozenset({"readable", "writable", "seekable", "fileno", "isatty", "read1", "readinto"})
_DEFINES = re.compile(r"\b(?:(def|class|function|func|fn|interface|struct|enum|trait|type)\s+|function\s*\*\s*|"
                      r"macro_rules!\s*)$")
_EXPORT_LINE = re.compile(r"^\s*(import\b|from\s+\S+\s+import\b|export\s*\{|module\.exports\b|exports\.|__all__|"
                          r"#include|use\s|(?:global\s+)?using\s[^(]*;)")     # C#'s `using Shop.Validate;` too
# the opening line of an import or export list that goes on (`from m import (`, `import {`, `import X, {`,
# `export type {`, Go's `import (`)
_IMPORT_LIST = re.compile(r"^\s*(?:from\s+\S+\s+import\s*\(|import\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{|"
                          r"export\s+(?:type\s+)?\{|import\s*\()")
# what a package, namespace or module declaration names: Go's `package main` (where `main` is a caller), Java's
# `package com.acme.validate;`, C#'s and PHP's `namespace App\Validate`, Rust's `pub mod parse;`, Ruby's
# `module Validate`: a scope of that name, never a use of a function of that name
_NAMESPACE_DECLARATION = re.compile(r"^\s*(?:package|namespace|module|(?:pub(?:\s*\([^)]*\))?\s+)?mod)\s+[\w.\\:]*$")
# `List[name`, not `: [name` (a list literal holding the function, a value)
# `name: T` is an annotation only where T may be a type; a function or method after `key: ` is a value stored
# under a key (Go's `Run: fn,`, a JS object's `data: onData`, a Python dict's `KEY: cb`)
_ANNOTATED = re.compile(r"(?:^|[(,]|\bself\.)\s*\w+\s*:\s*$")
_CALLABLE_KINDS = frozenset({"function", "method"})
_TYPE_POSITION = re.compile(r"(->|(?<=[\w\]])\[|\|)\s*$"                                     # returns, generics
                            r"|\b(isinstance|issubclass)\(\s*[^,]*,\s*\(?\s*$|\bexcept\b|\bcast\(\s*$")

_BASE_LIST = re.compile(r"^\s*class\s+\w+\s*\([^)]*$")                      # `class Sub(Base, ` before the name
_PROSE = (".md", ".markdown", ".rst", ".adoc")
_QUALIFIED_ANNOTATION = re.compile(r"(?:(?:^|[(,])\s*[\w.]+\s*:|->)\s*(?:\w+\.)+$")  # `ctx: click.` before it

# the class as a type: checked against (isinstance, assert_type, pytest.raises, `type(x) is C`), not constructed
_CLASS_CHECK = re.compile(r"\b(?:isinstance|issubclass|assert_type|assertIsInstance|assertNotIsInstance)\(\s*[^,]*,"
                          r"\s*\(?(?:\s*[\w.]+\s*,)*\s*$|\b(?:raises|assertRaises|assertRaisesRegex)\(\s*\(?"
                          r"(?:\s*[\w.]+\s*,)*\s*$|\b(?:is(?:\s+not)?|==|!=)\s*$|\bsuper\(\s*$")


def _not_a_construction(before: str, after: str) -> bool:
    """For a class's name: whether this mention cannot construct it: an attribute of it (``Cls.attr``), a base
    class, an annotation or a generic's argument, a type check (``isinstance(x, (A, mod.Cls))``, ``pytest.raises``,
    ``type(x) is Cls``, ``super(Cls, self)``)."""
    if re.match(r"\s*\.\s*\w", after):
        return True
    bare = re.sub(r"(?:\w+\.)+$", "", before)          # `mod.` before `Cls`
    return bool(_BASE_LIST.search(bare) or _QUALIFIED_ANNOTATION.search(before) or _in_generic(bare)
                or _CLASS_CHECK.search(bare))


def _in_generic(before: str) -> bool:
    """Whether the text ends inside a subscription of a name (``t.Dict[str, ``, ``Callable[[``): a type
    argument, not a list literal (``= [``)."""
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        c = before[i]
        if c == "]":
            depth += 1
        elif c == "[":
            if depth:
                depth -= 1
            elif re.search(r"[\w\]]\s*$", before[:i]):
                return True
    return False


@dataclass
class ConstructorFamily:
    """A Python constructor's class: the names whose construction runs it (``names``) and the methods that
    construct a class known only at run time, which may be it (``dynamic``)."""
    names: list[tuple[str, str]]      # (class name, path)
    dynamic: list[str]


def _entry_points(chunk: dict[str, Any], language: str | None, names: list[str], roles: dict[str, str],
                  where: dict[str, set[str]], seen: set[tuple[str, int]]) -> list[dict[str, Any]]:
    """References of the form ``package.module:Name`` (an entry point in pyproject.toml, setup.cfg, setup.py or
    entry_points.txt; an extension named by a string in code) whose module is a file defining ``Name``
    (``where``: name -> paths): it is imported by its text and called or constructed where the graph does not
    see. In code only inside a string; not in prose (Markdown, reST)."""
    path = chunk["path"]
    if not names or path.lower().endswith(_PROSE):
        return []
    text = chunk["text"] or ""
    code = code_only(text, language) if language in LANGUAGES else None
    lines, refs = text.split("\n"), []
    for name in names:
        for m in re.finditer(rf"(?<![\w.:])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):{re.escape(name)}(?![\w.])", text):
            if code is not None and code[m.start()] != " ":
                continue                                # in code, outside a string: an annotation `x:Name`
            if not any(_is_module(m[1], p) for p in where.get(name, ())):
                continue                                # another module's `run`
            i = text.count("\n", 0, m.start())
            if (path, chunk["start_line"] + i) not in seen:
                seen.add((path, chunk["start_line"] + i))
                refs.append(_reference(chunk, lines, i, name, roles[name], "entry_point"))
    return refs


def _is_module(dotted: str, path: str) -> bool:
    """Whether the Python module ``dotted`` (``markdown.extensions.toc``) can be the file ``path``
    (``markdown/extensions/toc.py``, ``src/pkg/mod/__init__.py``)."""
    stem = path.rsplit(".", 1)[0].removesuffix("/__init__").replace("/", ".")
    return stem == dotted or stem.endswith("." + dotted)


def _file_like(graph: Graph, nodes: Iterable[NodeRef]) -> set[str]:
    """The ids of the Python methods among ``nodes`` that belong to the file protocol of a file-like class."""
    ids = sorted(n.id for n in nodes if n.kind == "method" and n.name in _FILE_PROTOCOL
                 and language_for_path(n.path or "") == "python")
    rows = graph.run("sibling_methods", ids=ids) if ids else []
    return {r["id"] for r in rows if _FILE_CAPABILITIES.intersection(r["names"])}


MAX_REFERENCE_NAMES = 100
FULLTEXT_LIMIT = 50_000
# Lucene's English stop words: the chunk_text analyzer drops them, so names like `then` are scanned for instead
_STOP_WORDS = frozenset("a an and are as at be but by for if in into is it no not of on or such that the their "
                        "then there these they this to was will with".split())
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')

_PY_NOISE = re.compile(r'''"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|#[^\n]*''')
_C_NOISE = re.compile(r'''//[^\n]*|/\*[\s\S]*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`''')
_HASH_COMMENT_LANGUAGES = ("python", "ruby")


def code_only(text: str, language: str) -> str:
    """``text`` with comments and string literals blanked out (same length, newlines kept), so that a name
    in a docstring, a comment or a string is not taken for a use of it."""
    noise = _PY_NOISE if language in _HASH_COMMENT_LANGUAGES else _C_NOISE
    return noise.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), text)


def _chunks_naming(graph: Graph, repo: str, names: list[str]) -> list[dict[str, Any]]:
    """Chunks of the repository containing one of ``names``: through the full-text index, falling back to a
    scan of the repository's chunks for stop words and when the index hits reach the limit."""
    indexed = [n for n in names if n.lower() not in _STOP_WORDS and re.search(r"[A-Za-z0-9]", n)]
    scan = [n for n in names if n not in indexed]
    chunks: list[dict[str, Any]] = []
    if indexed:
        query = " OR ".join(_LUCENE_SPECIAL.sub(r"\\\1", n.lower()) for n in indexed)
        row = graph.run("name_references", repo=repo, query=query, names=indexed, limit=FULLTEXT_LIMIT)[0]
        if row["hits"] >= FULLTEXT_LIMIT:
            scan = names
        else:
            chunks = row["chunks"]
    if scan:
        chunks += graph.run("name_references_scan", repo=repo, names=scan)
    unique = {(c["path"], c["start_line"]): c for c in chunks}
    return [unique[k] for k in sorted(unique)]


def _implicit_uses(graph: Graph, repo: str, targets: list[NodeRef], inner: list[NodeRef],
                   search_callers: bool = True, families: dict[str, ConstructorFamily] | None = None,
                   ) -> tuple[list[str], list[dict[str, Any]], int]:
    """Ways the targets (and the callers within the depth, whose own callers count too) run without a call the
    graph can see: dunder methods and properties (called by the language), and non-call references to their
    names (a function passed as a callback, stored in a table, used as a bare decorator, a bound method handed
    out). Chunks naming them are found through the full-text index; their lines, with comments and strings
    blanked out, are checked one by one; imports and export lists are not references; a chunk that binds the
    name itself (a parameter, a local) is skipped for it. ``search_callers=False`` searches the targets' names
    only. A Python constructor in ``families`` is not a dunder here: the graph has its callers (constructions
    of its class and subclasses), unless a class known only at run time is constructed in its family or one
    of those classes is handed on as a value (role "class"). Returns (reasons, references, names not searched)."""
    families = families or {}
    role = {t.id: "target" for t in targets if t.label == "Symbol" and t.name}
    for n in inner:
        role.setdefault(n.id, "caller")
    nodes = {n.id: n for n in [*targets, *inner] if n.id in role}
    heads = {r["id"]: r["head"] or "" for r in graph.run("symbol_heads", ids=sorted(nodes))} if nodes else {}
    notes = _implicit_notes(graph, repo, nodes, role, heads, families)
    by_name, where = _reference_names(nodes, role, families, search_callers)
    names = sorted(by_name, key=lambda n: (by_name[n] != "target", n))
    unchecked = max(0, len(names) - MAX_REFERENCE_NAMES)
    names = names[:MAX_REFERENCE_NAMES]
    if not names:
        return notes, [], unchecked
    deferred = _deferred(graph, nodes, heads)
    kinds: dict[str, set[str]] = defaultdict(set)
    for node in nodes.values():
        kinds[node.name].add(node.kind or "")
    callables = frozenset(n for n in names if by_name[n] != "class" and kinds[n] and kinds[n] <= _CALLABLE_KINDS)
    patterns = {n: re.compile(rf"(?<![\w$]){re.escape(n)}(?![\w$])") for n in names}
    # the languages that can name each: a Rust method `new` is no Java `new Object()` (an eleventh QA pass)
    speaks: dict[str, set[str]] = defaultdict(set)
    for name, paths in where.items():
        speaks[name].update(_family(language_for_path(p)) for p in paths)
    refs: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for chunk in _chunks_naming(graph, repo, names):
        language = language_for_path(chunk["path"])
        text = chunk["text"] or ""
        in_text = [n for n in names if n in text]
        refs += _entry_points(chunk, language, in_text, by_name, where, seen)
        if language not in LANGUAGES:
            continue                                    # docs and config files mention names without using them
        in_text = [n for n in in_text if _family(language) in speaks[n]]
        code = code_only(text, language)
        if language == "python":
            refs += _called_in_strings(chunk, text, code, [n for n in in_text if by_name[n] != "class"], by_name,
                                       seen)
        elif language == "php":
            refs += _php_named(chunk, text, code, [n for n in in_text if by_name[n] != "class"], by_name, seen)
        present = [n for n in in_text if n in code and patterns[n].search(code)]
        if present:
            # a local of that name is not the target, unless the chunk holds the target's own definition: a
            # nested function rebound or returned by its enclosing one (`wrapper = wraps(f)(wrapper)`)
            bound = _local_bindings(code) - _defined_in(chunk, text, nodes.values())
            present = [n for n in present if n not in bound]
        if present:
            refs += _line_references(chunk, text, code, present, patterns, by_name, deferred, seen, callables,
                                     _macro_lines(code, language))
    return notes, refs, unchecked


def _implicit_notes(graph: Graph, repo: str, nodes: dict[str, NodeRef], role: dict[str, str],
                    heads: dict[str, str], families: dict[str, ConstructorFamily]) -> list[str]:
    """Why each target (or caller within the depth) may run without a call: a constructor of a class built at
    run time, a dunder, a property, a file-protocol method, a decorator that may keep it."""
    file_like = _file_like(graph, nodes.values())
    kept_by: dict[str, bool] = {}       # decorator name -> whether it may keep what it decorates
    notes: list[str] = []
    implicit_callers = []
    for node_id, node in nodes.items():
        how = short = None
        language = language_for_path(node.path or "") or ""
        if node_id in families:
            dynamic = families[node_id].dynamic
            if dynamic:
                forms = "self.class.new" if language == "ruby" else "cls(...), type(self)(...)"
                how = (f"a constructor, and {', '.join(dynamic[:3])}{' ...' if len(dynamic) > 3 else ''} "
                       f"construct(s) a class known only at run time ({forms}): it or a subclass")
                short = "a constructor of a class built at run time"
        elif _DUNDER.match(node.name):
            how = "a dunder method: the language calls it implicitly (operators, with, iteration, attribute access)"
            short = "a dunder method"
        elif m := _PROPERTY.search(heads.get(node_id, "")):
            how = f"a {m[1]}: it runs on attribute access"
            short = f"a {m[1]}"
        elif language in SCRIPT_LANGUAGES and (m := _ACCESSOR.search(heads.get(node_id, ""))):
            how = f"a {m[1]}ter: it runs on property access"
            short = f"a {m[1]}ter"
        elif ((node.kind == "method" or node.name == "init") and node.name in _IMPLICIT.get(language, ())
              or language == "cpp" and _CPP_IMPLICIT.match(node.name)):
            how = ("a method the language or its standard library calls implicitly (string conversion, equality, "
                   "ordering, iteration, closing, operators, serving, init)")
            short = "called implicitly by the language or its library"
        elif node_id in file_like:
            how = ("a method of the file protocol: library code (io wrappers, print, shutil) calls it on objects "
                   "handed to it")
            short = "a file-protocol method"
        elif kept := _keeping_decorators(graph, repo, node, heads.get(node_id, ""), kept_by):
            how = (f"decorated with @{', @'.join(kept)}, which may keep the function (a registry) and call it "
                   f"where the graph does not see")
            short = f"kept by @{kept[0]}"
        if how and role[node_id] == "target":
            notes.append(f"{node.display} is {how}, which the graph does not record as a call")
        elif how:
            implicit_callers.append(f"{node.display}: {short}")
    if implicit_callers:
        more = f"; ... {len(implicit_callers) - 5} more" if len(implicit_callers) > 5 else ""
        notes.append(f"{len(implicit_callers)} caller(s) within the depth run where the graph does not see "
                     f"({'; '.join(sorted(implicit_callers)[:5])}{more}): their own callers are not in the graph")
    return notes


def _family(language: str | None) -> str:
    """Languages that call each other's definitions by name: C and C++, JavaScript and TypeScript."""
    return "c" if language in ("c", "cpp") else "js" if language in SCRIPT_LANGUAGES else language or ""


def _reference_names(nodes: dict[str, NodeRef], role: dict[str, str], families: dict[str, ConstructorFamily],
                     search_callers: bool) -> tuple[dict[str, str], dict[str, set[str]]]:
    """The names to search references of, each with its role (targets first), and the files defining each."""
    by_name: dict[str, str] = {}
    for node_id, node in sorted(nodes.items(), key=lambda kv: role[kv[0]] != "target"):
        if not _DUNDER.match(node.name) and (search_callers or role[node_id] == "target"):
            by_name.setdefault(node.name, role[node_id])
            if mangled := _mangled(node):          # `value._proxy____cast` from outside the class
                by_name.setdefault(mangled, role[node_id])
    where: dict[str, set[str]] = defaultdict(set)          # name -> the files defining it (entry points)
    for node in nodes.values():
        where[node.name].add(node.path or "")
    for node_id, family in families.items():
        if node_id in role and (search_callers or role[node_id] == "target"):
            for name, path in family.names:
                by_name.setdefault(name, "class")
                where[name].add(path)
    return by_name, where


def _line_references(chunk: dict[str, Any], text: str, code: str, present: list[str],
                     patterns: dict[str, re.Pattern], by_name: dict[str, str], deferred: dict[str, str],
                     seen: set[tuple[str, int]], callables: frozenset[str] = frozenset(),
                     macros: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The lines of a chunk that use one of the ``present`` names without calling it (one reference a line);
    ``callables``: the names that are functions or methods only, never a type. ``macros``: the text of macro
    bodies by line index (``_macro_lines``); a name there is a reference (kind "macro") even where it is
    called: the graph has no call from the code that expands the macro."""
    refs = []
    raw = text.split("\n")
    closer = ""        # inside a multi-line import or export list (`from m import (`, `import {`): its closer
    for i, line in enumerate(code.split("\n")):
        lineno = chunk["start_line"] + i
        body = (macros or {}).get(i)
        if body is not None:
            name = next((n for n in present if patterns[n].search(body)), None)
            if name is not None and _first_on_line(chunk, i, seen):
                refs.append(_reference(chunk, raw, i, name, by_name[name], "macro"))
            continue
        if closer:
            closer = "" if closer in line else closer
            continue
        if _EXPORT_LINE.match(line):
            opened = _IMPORT_LIST.match(line)
            close = (")" if "(" in opened.group(0) else "}") if opened else ""
            if close and close not in line[opened.end():]:
                closer = close                  # the names on the next lines are imported too
            continue
        if (chunk["path"], lineno) in seen or "require(" in raw[i]:
            continue
        for name in present:
            if name not in line:
                continue
            kind = _reference_kind(line, patterns[name], deferred.get(name), by_name[name] == "class",
                                   name in callables)
            if kind:
                seen.add((chunk["path"], lineno))
                refs.append(_reference(chunk, raw, i, name, by_name[name], kind))
                break
    return refs


def _macro_lines(code: str, language: str) -> dict[int, str]:
    """The bodies of a chunk's object-like macros (C/C++ `#define HANDLER helper`), by line index: the lines after
    the macro's name, with their continuation lines. (A function-like `#define` and a Rust `macro_rules!` are
    definitions whose calls the graph has: extract._reparsed_calls.)"""
    out: dict[int, str] = {}
    if language in ("c", "cpp"):
        continued, kept = False, False    # the previous line is a macro's and ends with a backslash; one kept
        for i, line in enumerate(code.split("\n")):
            head = _MACRO_HEAD.match(line)
            if head:
                kept = "(" not in head.group(0)
            if (head or continued) and kept:
                out[i] = line[head.end():] if head else line
            continued = (head is not None or continued) and line.rstrip().endswith("\\")
    return out


def _first_on_line(chunk: dict[str, Any], i: int, seen: set[tuple[str, int]]) -> bool:
    """Whether line ``i`` of ``chunk`` has no reference yet; it has one from now on (one reference a line)."""
    key = (chunk["path"], chunk["start_line"] + i)
    if key in seen:
        return False
    seen.add(key)
    return True


def _references_at(chunk: dict[str, Any], text: str, hits: list[tuple[int, str, str]], roles: dict[str, str],
                   seen: set[tuple[str, int]]) -> list[dict[str, Any]]:
    """References for ``hits`` (offset in ``text``, name, kind), the first on each line."""
    lines = text.split("\n")
    refs = []
    for at, name, kind in sorted(hits):
        i = text.count("\n", 0, at)
        if _first_on_line(chunk, i, seen):
            refs.append(_reference(chunk, lines, i, name, roles[name], kind))
    return refs


def _reference(chunk: dict[str, Any], lines: list[str], i: int, name: str, role: str, kind: str) -> dict[str, Any]:
    """A non-call reference found on line ``i`` of ``chunk`` (``lines``: its text's lines), as impact lists it."""
    lineno = chunk["start_line"] + i
    return {"name": name, "role": role, "path": chunk["path"], "line": lineno, "citation": f"{chunk['path']}:{lineno}",
            "kind": kind, "text": lines[i].strip()[:160]}


def _called_in_strings(chunk: dict[str, Any], text: str, code: str, names: list[str], roles: dict[str, str],
                       seen: set[tuple[str, int]]) -> list[dict[str, Any]]:
    """A method called by name inside a string of Python code that is no docstring (``env.from_string("{{
    loop.cycle('a', 'b') }}")``, text handed to ``eval``/``exec`` or a template compiler): the code built from
    it at run time calls it where the graph does not see (kind "in_string")."""
    hits = [(m.start(), name, "in_string") for name in names
            for m in re.finditer(rf"\.{re.escape(name)}\s*\(", text) if code[m.start()] == " "]
    # the name as a whole string handed to a call: `self.call_method("_render", ...)`, `methodcaller("close")`
    hits += [(m.start(2), name, "named_string") for name in names
             for m in re.finditer(rf"([(,]\s*)(['\"]){re.escape(name)}\2", text)
             if code[m.start(2)] == " " and _call_argument(code, m.start(2))]
    if not hits:
        return []
    spans = _code_strings(text)       # not a comment or a docstring
    return _references_at(chunk, text, [h for h in hits if any(a <= h[0] < b for a, b in spans)], roles, seen)


def _php_named(chunk: dict[str, Any], text: str, code: str, names: list[str], roles: dict[str, str],
               seen: set[tuple[str, int]]) -> list[dict[str, Any]]:
    r"""PHP's ways of naming a function or method to run it elsewhere: a callable array (`[$this, 'mapper']`,
    `[self::class, 'm']`, `array($obj, 'm')`) or a string handed to a call (`array_map('util_fn', $xs)`,
    `call_user_func('Foo::bar')`, `'App\Sub\f'`), kind "named_string"; and another name for it (`use function
    A\f as g;`, a trait's `greet as protected traitGreet;`), kind "value". The context is read from ``code``
    (strings and comments blanked), so a comment that looks so is none."""
    hits = []
    for name in names:
        for m in re.finditer(rf"(['\"])(?:[\w\\]*(?:::|\\))?{re.escape(name)}\1", text):
            at = m.start()
            if code[at] != " ":
                continue                                    # not a string literal
            if re.search(r"[\[(]\s*(?:\$\w+|[\w\\]+::class)\s*,\s*$", code[:at]) or \
                    (re.search(r"[(,]\s*$", code[:at]) and _call_argument(code, at)):
                hits.append((at, name, "named_string"))
        hits += [(m.start(), name, "value")
                 for m in re.finditer(rf"(?<![\w$]){re.escape(name)}\s+as\s+(?:(?:public|protected|private)\s+)?\w",
                                      code)]
    return _references_at(chunk, text, hits, roles, seen)


def _call_argument(code: str, at: int) -> bool:
    """Whether position ``at`` of ``code`` (strings blanked) is among a call's arguments: the innermost bracket
    open there is a ``(`` right after a name or a closing bracket, not a list, a dict, a tuple or a subscript."""
    depth = 0
    for i in range(at - 1, -1, -1):
        c = code[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth:
                depth -= 1
                continue
            return c == "(" and bool(re.search(r"[\w)\]]\s*$", code[:i]))
    return False


def _code_strings(text: str) -> list[tuple[int, int]]:
    """Character spans of the string literals of Python ``text`` that are values: not a statement of their own
    (docstrings, bare strings), not f-strings. Empty when the text does not tokenize (a chunk cut inside a
    string)."""
    import io
    import tokenize

    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    spans: list[tuple[int, int]] = []
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.COMMENT, tokenize.NL)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return spans
    statement_start = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for k, t in enumerate(tokens):
        if t.type != tokenize.STRING:
            continue
        first = k == 0 or tokens[k - 1].type in statement_start
        alone = k + 1 == len(tokens) or tokens[k + 1].type in (tokenize.NEWLINE, tokenize.ENDMARKER)
        if first and alone:
            continue                                    # a docstring, or a string as a statement
        if re.match(r"[rRbB]?[fF]", t.string):
            continue                                    # an f-string's `{calls}` are the code's own (extracted)
        spans.append((starts[t.start[0] - 1] + t.start[1], starts[t.end[0] - 1] + t.end[1]))
    return spans


def _quoted_or_commented(before: str) -> bool:
    return bool(before.count('"') % 2 or before.count("'") % 2 or before.count("`") % 2
                or "#" in before or "//" in before)


# what iterates a generator where it is called: `for x in gen(`, `yield from`, `list(gen(`, `"".join(gen(`,
# `*gen(`, `[...gen(`, `Array.from(gen(` (a receiver chain such as `self.` may come before the name)
_CONSUMED = re.compile(
    r"(?:\bfor\b.*\b(?:in|of)\s*\(?|\byield\s+from\s+|\byield\s*\*\s*|(?<![\w.])(?:list|tuple|set|frozenset|sorted"
    r"|dict|sum|any|all|min|max|next|enumerate|zip|map|filter|iter|reversed|deque|Counter|OrderedDict)\(\s*"
    r"|\.(?:join|extend|update|writelines|from)\(\s*|(?:^|[(\[,=\s])\*\s*|\.\.\.\s*)[\w$.]*$")
_AWAITED = re.compile(r"(?:\bawait\s+|\b(?:asyncio\.)?run\(\s*|\.run_until_complete\(\s*)[\w$.]*$")
_PY_ASYNC = re.compile(r"^\s*async\s+def\b", re.M)
_PY_NESTED = re.compile(r"^(\s*)(?:async\s+def|def|class)\b")
_PY_YIELD = re.compile(r"(?<![\w.])yield\b")
_JS_GENERATOR = re.compile(r"\bfunction\s*\*|^\s*(?:static\s+|async\s+|public\s+|private\s+|protected\s+)*\*\s*"
                           r"[\w$]+\s*\(", re.M)


def _mangled(node: NodeRef) -> str | None:
    """The name a Python class-private method (``__cast`` of class ``__proxy__``) is called by from outside its
    class: ``_proxy____cast`` (Python mangles ``__name`` inside a class body to ``_Class__name``)."""
    name, owner = node.name or "", (node.qualified_name or "").rpartition(".")[0].rpartition(".")[2]
    if not (name.startswith("__") and not name.endswith("__") and owner.strip("_")
            and language_for_path(node.path or "") == "python"):
        return None
    return f"_{owner.lstrip('_')}{name}"


def _keeping_decorators(graph: Graph, repo: str, node: NodeRef, head: str, memo: dict[str, bool]) -> list[str]:
    """The decorators of a Python function or class that may keep it somewhere (a registry) and call it later:
    a library's (all but those known to return it, wrap it, or make it a property; pytest's aside, which tests
    exercise anyway), or one of the repository whose code stores one of its parameters (``_stores_a_parameter``:
    Django's ``Library.tag``), not one that marks or wraps it (Jinja2's ``@pass_context``, ``@internalcode``)."""
    if language_for_path(node.path) != "python" or node.kind not in ("function", "method", "class"):
        return []
    lines = head.split("\n")
    end = next((i for i, ln in enumerate(lines) if re.match(r"\s*(async\s+)?(def|class)\b", ln)), len(lines))
    kept = []
    for line in lines[:end]:
        m = _PY_DECORATOR.match(line)
        name = m[1] if m else ""
        if not m or name.rpartition(".")[2] in _TRANSPARENT_DECORATORS or name.startswith(("pytest.", "mock.")):
            continue
        if name not in memo:
            last = name.rpartition(".")[2]
            found = [r["node"]["id"] for r in graph.run("symbol_lookup_name", repo=repo, name=last, qualified=last,
                                                         suffix=f".{last}", limit=20)
                     if r["node"]["kind"] in ("function", "method") and r["node"]["name"] == last
                     and language_for_path(r["node"]["path"]) == "python"]
            texts = ["\n".join(t for _, t in sorted(r["texts"]))
                     for r in (graph.run("symbol_texts", ids=found) if found else [])]
            memo[name] = not texts or any(_stores_a_parameter(t) for t in texts)
        if memo[name]:
            kept.append(name)
    return kept


_PY_PARAMS = re.compile(r"\bdef\s+\w+\s*\(([^)]*)\)")

# calls that look at a function handed to them, or wrap it for a decorator, and keep nothing
_INSPECTING = frozenset({
    "wraps", "update_wrapper", "isinstance", "issubclass", "callable", "getattr", "hasattr", "setattr", "delattr",
    "id", "type", "repr", "str", "len", "vars", "dir", "print", "format", "iscoroutinefunction",
    "isgeneratorfunction", "isasyncgenfunction", "ismethod", "isfunction", "signature", "getfullargspec",
    "getmembers", "getsource", "from_obj", "cast"})


def _stores_a_parameter(text: str) -> bool:
    """Whether a Python function's code (nested functions included) keeps one of its parameters: stores it in a
    subscript or an attribute, or hands it whole to a call that may keep it (a registry's ``register(f)``,
    ``signal.connect(f)``, Django's ``lazy(func, str)`` and ``keep_lazy(str)(func)``) rather than to one that
    only looks at it or copies its name for a wrapper (``wraps(f)``, ``isinstance(f, ...)``)."""
    params = {p.strip().lstrip("*").split(":")[0].split("=")[0].strip()
              for m in _PY_PARAMS.finditer(text) for p in m[1].split(",")} - {"", "self", "cls"}
    code = code_only(text, "python")
    for p in params:
        q = re.escape(p)
        # the decorated function: a parameter the code calls, returns, wraps, or hands to what a call returned
        if not re.search(rf"\breturn\s+{q}\s*$|\bwraps\(\s*{q}\b|update_wrapper\([^)]*\b{q}\b|(?<![\w.]){q}\s*\("
                         rf"|\)\(\s*{q}\s*[,)]", code, re.M):
            continue
        if re.search(rf"(\]|\.\w+)\s*=\s*{q}\s*(?:$|[#;\n])", code, re.M):
            return True
        for m in re.finditer(rf"([\w.]*\)?)\s*\((?:[^()]*,)?\s*(?:\w+\s*=\s*)?{q}\s*[,)]", code):
            callee = m[1].rstrip(")").rpartition(".")[2]
            if callee and callee not in _INSPECTING \
                    and not re.search(r"\bdef\s+\w*\s*$", code[:m.start(1)].rsplit("\n", 1)[-1]):
                return True
            if m[1].endswith(")"):           # `keep_lazy(str)(func)`: what a call returned, handed the function
                return True
    return False


def _deferred(graph: Graph, nodes: dict[str, NodeRef], heads: dict[str, str]) -> dict[str, str]:
    """The functions among ``nodes`` whose body does not run when they are called, by name: 'generator'
    (Python: ``yield`` in their own body, not in a nested definition; JavaScript/TypeScript: ``function*`` or a
    ``*method()``) or 'coroutine' (Python's ``async def`` without ``yield``: its body runs where it is awaited)."""
    found: dict[str, str] = {}
    python = []
    for node_id, node in nodes.items():
        if node.kind not in ("function", "method"):
            continue
        language = language_for_path(node.path)
        if language == "python":
            python.append(node_id)
        elif language in SCRIPT_LANGUAGES and _JS_GENERATOR.search(heads.get(node_id, "")):
            found[node.name] = "generator"
    for r in graph.run("symbol_texts", ids=python) if python else []:
        name = nodes[r["id"]].name
        if _python_generator("\n".join(t for _, t in sorted(r["texts"]))):
            found[name] = "generator"
        elif _PY_ASYNC.search(heads.get(r["id"], "")):
            found.setdefault(name, "coroutine")
    return found


def _python_generator(text: str) -> bool:
    """``yield`` in the function's own body: after its ``def`` line, outside nested functions and classes."""
    base: int | None = None
    nested: int | None = None
    for line in code_only(text, "python").split("\n"):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        m = _PY_NESTED.match(line)
        if base is None:
            base = indent if m else None
            continue
        if nested is not None and indent > nested:
            continue
        nested = None
        if m and indent > base:
            nested = indent
        elif _PY_YIELD.search(line):
            return True
    return False


_KEYWORDS = frozenset("and as assert async await break case catch class const continue def del delete do elif else "
                      "except export extends finally for from function global if import in instanceof is lambda let "
                      "new nonlocal not of or pass raise return static switch throw try typeof var void while with "
                      "yield".split())

# `\b`: `create_deterministic_function("REPEAT", 2, _sqlite_repeat)` (Django) is a call, not a JavaScript function
_PARAMS = re.compile(r"(?<![\w$])(?:def|function)\s*[\w$]*\s*\(([^)]*)\)|\(([^()]*)\)\s*=>|\blambda([^:]*):")
_BINDERS = re.compile(r"^\s*([\w$]+)\s*(?::[^=\n]*)?=(?!=)|\b(?:let|const|var|as|global|nonlocal)\s+([\w$]+)"
                      r"|(?<![\w$.])([\w$]+)\s*=>", re.M)
_FOR_TARGETS = re.compile(r"\bfor\s*\(?\s*(?:let|const|var)?([\w\s,()$]*?)\s+(?:in|of)\b")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def _defined_in(chunk: dict[str, Any], text: str, nodes: Iterable[NodeRef]) -> set[str]:
    """Names of ``nodes`` whose definition starts inside ``chunk``."""
    first, last = chunk["start_line"], chunk["start_line"] + text.count("\n")
    return {n.name for n in nodes if n.path == chunk["path"] and n.start_line and first <= n.start_line <= last}


def _local_bindings(code: str) -> set[str]:
    """Names a chunk (comments and strings blanked) binds itself: parameters, assignments at the start of a
    line, loop and ``as`` targets, let/const/var. Inside such a chunk the name is a local, not the target."""
    bound: set[str] = set()
    for m in _PARAMS.finditer(code):
        for group in m.groups():
            if group:
                bound.update(p.split(":")[0].split("=")[0].strip(" *") for p in group.split(","))
    for m in _BINDERS.finditer(code):
        bound.update(g for g in m.groups() if g)
    for m in _FOR_TARGETS.finditer(code):
        bound.update(_IDENTIFIER.findall(m[1]))
    return bound


def _binds_locally(code: str, name: str) -> bool:
    return name in _local_bindings(code)


def _reference_kind(line: str, pattern: re.Pattern[str], deferred: str | None = None,
                    a_class: bool = False, a_callable: bool = False) -> str | None:
    """'value' / 'decorator' when ``line`` mentions the name other than by calling, defining or quoting it;
    ``deferred`` ('generator' / 'coroutine', a function whose body runs later) when the line calls it without
    iterating or awaiting the result there (kept, returned or handed on: the body runs where that happens).
    For ``a_class`` (is it constructed where the graph cannot see?), reading its attributes (``Cls.attr``,
    ``Cls.method()``) and naming it as a base class are not references. ``a_callable``: the name is a function or
    method only, so ``key: name`` stores it (no annotation names it)."""
    for m in pattern.finditer(line):
        before, after = line[:m.start()], line[m.end():]
        if _DEFINES.search(before) or _NAMESPACE_DECLARATION.match(before):
            continue                                              # the definition itself, a package's name
        if a_class and _not_a_construction(before, after):
            continue
        if re.match(r"\s*::\s*\w", after):
            continue                                              # a path's qualifier: Rust parse::run(), C++ ns::f
        if re.match(r"\s*(?:::\s*)?<[\w\s,:<>&\[\]]*>\s*\(", after):
            continue                                              # a call with type arguments: parse::<u8>(...)
        if re.match(r"!\s*[(\[{]", after):
            continue                                              # a Rust macro's invocation: a call in the graph
        if re.match(r"\s*\(", after):
            used = _CONSUMED if deferred == "generator" else _AWAITED
            if deferred and not used.search(before) and not _quoted_or_commented(before):
                return deferred
            continue                                              # a call
        if re.match(r"\s*=(?!=)", after) or re.match(r"\s*:\s*(function|async\b|\()", after):
            continue                                              # assigned to: a (re)definition
        if _TYPE_POSITION.search(before) or (not a_callable and _ANNOTATED.search(before)):
            continue                                              # an annotation, generic, isinstance, except
        if _quoted_or_commented(before):
            continue
        if before.endswith(("`", ":func:", ":meth:", ":class:")) or after.startswith("`"):
            continue                                              # documentation markup (``name``, :func:)
        if re.search(r"@\s*(?:[\w.]*\.)?$", before) and not re.match(r"\s*\(", after):
            return "decorator"
        if before.rstrip().endswith("new"):
            continue
        prev, nxt = re.search(r"([A-Za-z_]\w*)\s+$", before), re.match(r"\s+([A-Za-z_]\w*)", after)
        if prev and nxt and prev[1] not in _KEYWORDS and nxt[1] not in _KEYWORDS:
            continue                                              # "word name word": prose, not code
        return "value"
    return None
