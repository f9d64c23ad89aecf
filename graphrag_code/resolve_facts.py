"""Cross-file resolution's inputs and outputs (``FileFacts``, ``Resolution``, symbol ids), the repository's index
of definitions (``_Index``), how a module path becomes candidate files, and the constants (confidence per
resolution method) and small helpers every part of the resolver (``resolve._Resolver``) shares."""

from __future__ import annotations

import builtins
import json
import posixpath
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Iterable

from .languages import LANGUAGES, SCRIPT_LANGUAGES
from .models import BUILTIN_CLASSES, NAME_CHAIN as _CHAIN

# resolution method -> confidence of the edge it produces
CONFIDENCE = {
    "self": 0.95, "scope": 0.95, "same_file": 0.95, "import": 0.9, "module_attr": 0.9,
    "same_package": 0.85, "class_attr": 0.85, "inherited": 0.8, "global_unique": 0.6, "method_unique": 0.5,
    "receiver_name": 0.7, "receiver_name_of_several": 0.6, "receiver_name_suffix": 0.6,
    "overloads": 0.6,   # one of several overloads taking as many arguments as the call passes (_overload)
    "macro_alt": 0.6,   # one of several macros of the invoked name (C `#if` branches, macros in several files)
    "extension": 0.85,  # C#: the extension method for the receiver's declared type (or a base of it)
    # answers of a language server (lsp.py): the definition it found; one of several (conditional) definitions;
    # the one implementation of the interface method it landed on; one of several implementations; an override
    # (found through the class hierarchy) of the abstract method it landed on. "One of several" is below 0.7:
    # measured on click (eval/callgraph_oracle.py) 0.62 of them ran, most others are per-platform variants
    "lsp": 0.98, "lsp_alt": 0.6, "lsp_impl": 0.9, "lsp_impls": 0.6, "lsp_hierarchy": 0.6,
    "lsp_external": 0.98,
    # the called name is a variable the server infers to hold this function or class (one; one of several)
    "lsp_held": 0.9, "lsp_held_alt": 0.6,
    # a call that landed on a placeholder method goes to its overrides instead: one of several
    "override": 0.6,
    # a call on an object that may be of a subclass overriding the method it landed on (virtual dispatch)
    "dispatch": 0.6,
    # a Ruby module's call of a method it lacks, found in the classes that include it (or their ancestors): the one
    # they find; one of several
    "includer": 0.8, "includers": 0.6,
    # Go: a type that has every method an interface names implements it (no `implements` in the language)
    "structural": 0.7,
    # a receiver that is a parameter annotated with a class of the repository (Python: `ctx: Context`)
    "annotation": 0.85,
    # a receiver declared one of a few classes of the repository (a union: `UpdateEncoderV1 | UpdateEncoderV2`): the
    # method of each
    "union": 0.8,
    # a variable holding one of a few functions of the repository, called (`const addTo = previous ? addToStart :
    # addToEnd; addTo(...)`): each
    "held": 0.8,
    # a function handed to a library function that calls it (`sorted(ps, key=sort_key)`, LanguageSpec.calls_back)
    "callback": 0.85,
    # a parameter called (`check(s)`): a function the repository's callers hand it
    "argument": 0.7,
    # an item of a collection nothing types, of a class whose objects are put into collections of that name
    "registered": 0.6,
    # what a call returned, called (`command(...)(f)`, `_default_stdout()` for `_default_stdout = make(...)`): the
    # function defined in the callee that it returns (`return decorator`)
    "returned": 0.85,
    # a method looked up by a name built from a prefix (`getattr(self, f"visit_{kind}")`), called: one of the
    # methods of that prefix in the object's class, its bases and subclasses
    "reflective": 0.6,
    # an attribute read (`settings.DEBUG`) on an object whose class defines __getattribute__ / __getattr__
    "attribute_hook": 0.8,
    # `@deco` on a definition: the decorator (a function, or a class's constructor), called with the definition
    # when the `def`/`class` statement runs; never by a name-only guess
    "decorator": 0.9,
    # a descriptor's protocol: reading a definition decorated by a class of the repository that defines
    # __get__ (Django's `@cached_property`) calls its __get__; creating the class that holds it, its __set_name__
    "descriptor": 0.8,
    # a call of a function its decorator replaced with a function it defines (`@logged` returning `wrapper`,
    # `@keep_lazy(str)`): the wrapper runs first (and the edge to the function stays: what breaks if it changes)
    "wrapped": 0.8,
}
# C/C++: clangd answers on declarations we do not index (a prototype in a header, a macro) and finds nothing
# where the compile flags it was given fall short (a missing include path); there an answer that is no indexed
# symbol, or none, says nothing against the tree-sitter edge (C has no methods: a unique name is reliable)
_LSP_DEFER_TO_NAMES = {"c", "cpp"}
_NAME_ONLY = {"global_unique", "method_unique"}   # resolutions by a repository-unique name and nothing else
_GUESSES = _NAME_ONLY | {"receiver_name", "receiver_name_of_several", "receiver_name_suffix"}   # ... or by a receiver's name alone
# languages whose server types every receiver: its finding no definition speaks against a guess by a unique name.
# jedi (Python) and tsserver on JavaScript find nothing for any receiver they cannot infer: on Python-Markdown
# 3.3.7 (no annotations) dropping those guesses cost 8 points of recall (82 sites; by names, 52 of 57 such
# guesses ran)
_LSP_NONE_VETOES_GUESSES = {"typescript", "tsx", "go"}
_MAX_BASE_DEPTH = 4
# words that name a built-in type or a standard-library object as often as a class of the repository
_BUILTIN_WORDS = frozenset({n.lower() for n in BUILTIN_CLASSES} | {"file", "string", "path", "stream", "buffer", "queue",
                                                                   "lock", "thread", "logger", "iterator", "error"})
_CAMEL_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+[0-9]*")
_BUILTIN_NAMES = frozenset(dir(builtins))
# a TypeScript cast in parentheses, then attributes: `(obj as any as IIsObservableObject)`, `(x as Foo<T>).atom_`
_TS_CAST = re.compile(r"\((.+)\s+as\s+([A-Za-z_$][\w$.]*)(?:<.*>)?\)((?:\.[A-Za-z_$][\w$]*)*)", re.S)
_SUBSCRIPTED = re.compile(rf"({_CHAIN.pattern})\[[^\[\]]*\]")   # `subscriptions[i]`, `self._long_opt[opt]`
_TYPE_KINDS = frozenset({"class", "interface", "struct", "trait", "protocol", "enum", "record"})
_NAMESPACED = _TYPE_KINDS | {"module"}      # what a name inside a namespace may be found as (lexical_members)


@dataclass
class FileFacts:
    path: str
    language: str
    defs: list[list]          # [name, kind, qualified_name, parent, start_line, end_line]
    calls: list[list]         # [caller, name, receiver, line, column]
    imports: list[list]       # [module, name, alias, line, wildcard]
    bases: list[list]         # [owner, name, relation, line]
    abstract: list[int] = field(default_factory=list)   # indexes of abstract methods (see Definition.abstract)
    placeholders: list[int] = field(default_factory=list)   # indexes of Definition.placeholder methods
    param_types: list[list] = field(default_factory=list)    # [[def index, {parameter: class name}], ...]
    attr_types: list[list] = field(default_factory=list)     # [[class index, {attribute: class name}], ...]
    returns: list[list] = field(default_factory=list)        # [[def index, class name or "[]" + name], ...]
    var_types: list[list] = field(default_factory=list)      # [[def index, {variable: assigned value}], ...]
    properties: list[int] = field(default_factory=list)  # indexes of property getters (read = called)
    singletons: list[int] = field(default_factory=list)  # Ruby: indexes of class methods (Definition.singleton)
    default_export: str = ""  # JavaScript/TypeScript: `module.exports = Layer` / `export default Layer` -> "Layer"
    narrowed: list[list] = field(default_factory=list)   # [[call index, "class:A"], ...] (CallSite.narrowed)
    reflective: list[list] = field(default_factory=list)  # [[call index, object, prefix, returned]] (CallSite.reflective)
    inserts: list[list] = field(default_factory=list)    # [[caller, collection, value, key]] (FileExtraction.inserts)
    items_passed: list[list] = field(default_factory=list)   # [[call index, slot, "subattr:a.b"]] (CallSite)
    module_vars: dict[str, str] = field(default_factory=dict)   # {variable: assigned value} (FileExtraction)
    aliases: list[list] = field(default_factory=list)   # [[def index, other qualified name]] (FileExtraction)
    fixtures: list[int] = field(default_factory=list)   # Python: indexes of pytest fixtures (FileExtraction.fixtures)
    reads: list[list] = field(default_factory=list)   # [[caller, name, attribute, [lines]]] (FileExtraction.reads)
    attributes: list[list] = field(default_factory=list)   # [[class index, [untyped attribute names]]] (Definition)
    property_names: list[list] = field(default_factory=list)   # [[getter index, property name]] (Definition)
    go_module: str = ""   # go.mod: its module path (FileExtraction.go_module)
    rust_crate: str = ""  # Cargo.toml: its crate's name (FileExtraction.rust_crate)
    arities: list[list] = field(default_factory=list)    # [[call index, arguments passed]] (CallSite.arity)
    overloads: list[list] = field(default_factory=list)  # [[def index, fewest, most]] (FileExtraction._overloads)
    extensions: list[list] = field(default_factory=list)  # [[def index, type extended]] (Definition.extends)
    underlying: list[list] = field(default_factory=list)  # [[def index, "[]T"]] (Definition.underlying)
    ids: list[str] = field(default_factory=list)   # stable symbol id per definition
    lsp: dict | None = None   # {"server": ..., "answers": [one per call, see lsp.py]} when a language server ran


@dataclass
class Resolution:
    # (type, src_id, dst_id) -> properties
    edges: dict[tuple[str, str, str], dict] = field(default_factory=dict)
    # symbol or file id -> ["receiver.name@line:reason", ...]
    unresolved: dict[str, list[str]] = field(default_factory=dict)
    external_modules: set[str] = field(default_factory=set)
    stats: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    warnings: list[str] = field(default_factory=list)     # how the resolving went, for the run's summary


def symbol_ids(repo: str, path: str, defs: list[list]) -> list[str]:
    """Stable ids ``repo:path#qualified.name``; a repeated name (overloads, redefinitions) gets ``~2``, ``~3``.
    A Rust ``impl Point`` is ``#Point~impl`` (``~impl~2``...), so impl blocks above or below never renumber the
    struct ``#Point``."""
    seen: dict[str, int] = defaultdict(int)
    ids = []
    for d in defs:
        base = f"{repo}:{path}#{d[2]}" + ("~impl" if d[1] == "impl" else "")
        seen[base] += 1
        ids.append(base if seen[base] == 1 else f"{base}~{seen[base]}")
    return ids


def file_id(repo: str, path: str) -> str:
    return f"{repo}:{path}"


class _Index:
    """Lookup tables over all files of one repository."""

    def __init__(self, files: dict[str, FileFacts]) -> None:
        self.files = files
        self.stems: dict[str, list[str]] = defaultdict(list)   # path without extension -> paths
        self.dirs: dict[str, list[str]] = defaultdict(list)
        self.top: dict[str, dict[str, list[int]]] = {}          # path -> name -> top-level def indexes
        self.members: dict[tuple[str, int], dict[str, int]] = {}
        self.global_top: dict[str, list[tuple[str, int]]] = defaultdict(list)
        self.global_methods: dict[str, list[tuple[str, int]]] = defaultdict(list)
        self.qualified: dict[str, list[tuple[str, int]]] = defaultdict(list)   # qualified name -> definitions
        self.types: dict[str, list[tuple[str, int]]] = defaultdict(list)       # lower-cased type name -> types
        for path, f in sorted(files.items()):
            stem, _ = posixpath.splitext(path)
            self.stems[stem].append(path)
            self.dirs[posixpath.dirname(path)].append(path)
            top: dict[str, list[int]] = defaultdict(list)
            for i, (name, kind, qualified, parent, *_r) in enumerate(f.defs):
                self.qualified[qualified].append((path, i))
                if kind in _TYPE_KINDS:
                    self.types[name.lower()].append((path, i))
                if parent is None or (kind in _NAMESPACED and _in_namespaces(f, parent)):
                    top[name].append(i)
                    self.global_top[name].append((path, i))
                if parent is not None:
                    # the last definition wins: after `@overload` stubs comes the implementation that runs
                    self.members.setdefault((path, parent), {})[name] = i
                    if kind == "method":
                        self.global_methods[name].append((path, i))
            self.top[path] = top
            for i, alias in f.aliases:        # `res.set = res.header = function header() {}`
                self.qualified[alias].append((path, i))
            for i, name in f.property_names:  # `pk = property(_get_pk_val)`: the member `pk` is its getter
                self.members.setdefault((path, f.defs[i][3]), {}).setdefault(name, i)
        self._drop_out_of_line_members()
        python = [p for p, f in files.items() if f.language == "python"]
        self.py_modules = _python_modules(python, _root_package_name(python, files))
        # go.mod files: (module path, its directory), the longest path first (a nested module wins)
        self.go_modules = sorted(((f.go_module, posixpath.dirname(p)) for p, f in files.items() if f.go_module),
                                 key=lambda m: (-len(m[0]), m))
        # PHP: the files of each namespace (`namespace App\\Db;`: its first top-level module definition)
        self.php_namespaces: dict[str, list[str]] = defaultdict(list)
        for p, f in sorted(files.items()):
            if f.language == "php":
                self.php_namespaces[_php_namespace(f)].append(p)
        # Cargo.toml files: crate name -> the directory of its root module (`src/` beside it)
        self.rust_crates = {f.rust_crate: posixpath.join(posixpath.dirname(p), "src") + "/"
                            for p, f in sorted(files.items()) if f.rust_crate}
        self._by_language: dict[tuple[int, str, str], list[tuple[str, int]]] = {}

    @cached_property
    def path_names(self) -> frozenset[str]:
        """The names of every file (without its extension) and folder: what an import of a module of the
        repository ends in, found or not."""
        return frozenset(posixpath.basename(stem) for stem in self.stems) | \
            frozenset(part for d in self.dirs for part in d.split("/") if part)

    def _drop_out_of_line_members(self) -> None:
        """A C++ member defined out of line (``void Lexer::Error()`` in a .cc) is top-level in its file but no
        free function: a bare ``Error(...)`` elsewhere is not it (ninja: `Error("...")` was ambiguous among the
        free function's two overloads and two classes' methods). ``class_member`` finds it by its qualified
        name; a function of a namespace (``void ns::helper()``) stays."""
        for path, f in self.files.items():
            if f.language != "cpp":
                continue
            for i, (name, kind, qualified, parent, *_r) in enumerate(f.defs):
                owner = qualified.rpartition(".")[0]
                if not owner or not any(self.files[p].defs[j][1] in _TYPE_KINDS for p, j in self.qualified.get(owner, ())):
                    continue
                if parent is None:
                    self.top[path][name].remove(i)
                    self.global_top[name].remove((path, i))
                elif f.defs[parent][1] == "module" and owner != f.defs[parent][2] and \
                        self.members.get((path, parent), {}).get(name) == i:
                    # `double Shape::twice()` inside `namespace gfx {`: no member of the namespace either (a bare
                    # `area()` in Shape::twice had reached Circle::area, defined below it in the namespace)
                    rest = [j for j, d in enumerate(f.defs) if d[3] == parent and d[0] == name and j != i and
                            d[2].rpartition(".")[0] == f.defs[parent][2]]
                    if rest:
                        self.members[(path, parent)][name] = rest[-1]
                    else:
                        del self.members[(path, parent)][name]

    def methods_in(self, name: str, language: str) -> list[tuple[str, int]]:
        """``global_methods[name]`` of one language (kept: a common name asked per call site holds thousands)."""
        return self._of_language(0, self.global_methods, name, language)

    def types_in(self, key: str, language: str) -> list[tuple[str, int]]:
        """``types[key]`` of one language."""
        return self._of_language(1, self.types, key, language)

    def _of_language(self, table: int, source: dict, key: str, language: str) -> list[tuple[str, int]]:
        memo = (table, key, language)
        found = self._by_language.get(memo)
        if found is None:
            found = self._by_language[memo] = [h for h in source.get(key, ()) if self.files[h[0]].language == language]
        return found

    def python_tails(self) -> dict[str, list[str]]:
        """Every path tail (`b/c`, `a/b/c` for `x/a/b/c.py`) of Python files, built once on first use."""
        if not hasattr(self, "_tails"):
            tails: dict[str, list[str]] = defaultdict(list)
            for stem, paths in self.stems.items():
                parts = stem.split("/")
                for p in paths:
                    if p.endswith((".py", ".pyi")):
                        for k in range(len(parts)):
                            tails["/".join(parts[k:])].append(p)
            self._tails = tails
        return self._tails

    def find_files(self, candidates: list[str]) -> list[str]:
        """Repository files for module paths (without extension): exact match first, else unique suffix."""
        for cand in candidates:
            cand = posixpath.normpath(cand).lstrip("./") if cand not in (".", "") else ""
            if cand in self.stems:
                return self.stems[cand]
        for cand in candidates:
            cand = posixpath.normpath(cand).lstrip("/")
            hits = [p for stem, ps in self.stems.items() if stem.endswith("/" + cand) for p in ps]
            if len(hits) == 1 or (hits and len({posixpath.dirname(h) for h in hits}) == 1):
                return sorted(hits)
        return []


def _php_namespace(f: FileFacts) -> str:
    """A PHP file's namespace (`namespace App\\Db;`), "" for the global one."""
    return next((d[2] for d in f.defs if d[1] == "module" and d[3] is None), "")


def _in_namespaces(f: FileFacts, parent: int | None) -> bool:
    """Whether every definition around (from ``parent`` up) is a namespace (``lexical_members`` languages: a C#
    `namespace`, a C++ `namespace`, a Rust `mod`, a Ruby `module`)."""
    spec = LANGUAGES[f.language]
    if not spec.lexical_members:
        return False
    while parent is not None:
        if f.defs[parent][1] != "module":
            return False
        parent = f.defs[parent][3]
    return True


def _python_modules(paths: list[str], root_name: str | None = None) -> dict[str, str]:
    """Dotted module name -> file, from package structure: `src/flask/typing.py` is `flask.typing` because
    `src/flask/` holds an `__init__.py` and `src/` does not. `import typing` therefore never lands on it. A root
    that holds `__init__.py` (a package indexed by its own directory) is ``root_name`` (``_root_package_name``); its
    modules get no name without one: `import json` in `flask/` is never `flask/json/`."""
    packages = {posixpath.dirname(p) for p in paths if posixpath.basename(p) in ("__init__.py", "__init__.pyi")}
    modules: dict[str, str] = {}
    for path in sorted(paths):
        stem = posixpath.splitext(posixpath.basename(path))[0]
        parts = [] if stem == "__init__" else [stem]
        d = posixpath.dirname(path)
        while d and d in packages:
            parts.insert(0, posixpath.basename(d))
            d = posixpath.dirname(d)
        if not d and "" in packages:   # inside the root package: the empty path loops forever, and it is no name
            parts = [root_name, *parts] if root_name else []
        if parts:
            modules.setdefault(".".join(parts), path)
    return modules


def _root_package_name(paths: list[str], files: dict[str, FileFacts]) -> str | None:
    """The name of a package indexed by its own directory (its root holds ``__init__.py``, the paths do not name
    it), as its own absolute imports of itself give it: ``from graphrag_code.models import X`` in ``graphrag_code/``,
    where ``models`` is a module of the root. None for any other root, or when no such import says."""
    if "__init__.py" not in paths:
        return None
    inside = {posixpath.splitext(p)[0].split("/")[0] for p in paths}     # `models`, `extensions` (a subpackage)
    heads = Counter(module.split(".")[0] for f in files.values() if f.language == "python"
                    for module, *_rest in f.imports
                    if module and not module.startswith(".") and "." in module
                    and module.split(".")[1] in inside and module.split(".")[0] not in inside)
    # the most frequent; a tie by name, not by the order files come in (an incremental run reads the changed
    # ones first: two runs over one commit named the package differently and resolved different edges)
    return min(heads.items(), key=lambda kv: (-kv[1], kv[0]))[0] if heads else None


def _module_candidates(lang: str, module: str, importer: str) -> tuple[list[str], bool]:
    """Candidate repository paths (without extension) for an import, and whether it is a directory/package."""
    here = posixpath.dirname(importer)
    if lang == "python":
        dots = len(module) - len(module.lstrip("."))
        rel = module[dots:].replace(".", "/")
        if dots:
            base = here
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            target = posixpath.join(base, rel) if rel else base
            return [target, posixpath.join(target, "__init__")], False
        return [rel, posixpath.join(rel, "__init__")], False
    if lang in SCRIPT_LANGUAGES:
        if not module.startswith("."):
            return [], False
        target = posixpath.normpath(posixpath.join(here, module))
        stem = posixpath.splitext(target)[0] if posixpath.splitext(target)[1] in (".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx") else target
        return [stem, posixpath.join(target, "index")], False
    if lang in ("c", "cpp"):
        stem = posixpath.splitext(module)[0]
        return [posixpath.normpath(posixpath.join(here, stem)), stem], False
    if lang == "ruby":
        return [posixpath.normpath(posixpath.join(here, module)), module, posixpath.join("lib", module)], False
    if lang == "java":
        parts = module.split(".")
        if parts[-1] == "*":
            return ["/".join(parts[:-1])], True
        # the type's own file, or the file of the type it is nested in (`p.Outer.Inner.Deep`: p/Outer.java)
        return ["/".join(parts[:k]) for k in range(len(parts), max(len(parts) - 4, 0), -1)], False
    if lang == "php":
        return [module.replace("\\", "/").lstrip("/")], False
    if lang == "go":
        return [module], True
    return [], False


# how a bare name finds a definition outside the function it is called in (a local variable hides those)
_NAME_LOOKUPS = frozenset({"same_file", "import", "same_package", "global_unique"})
# the method name a call ends with: `.add` of `b.add(1).add` (_last_call)
_METHOD_TAIL = re.compile(r"\??\.\s*([A-Za-z_$][\w$]*)\s*$")
# JavaScript array methods that return an array of the same items (`windows.slice()`)
_SAME_ARRAY = frozenset({"slice", "filter", "concat", "reverse", "sort", "toReversed", "toSorted", "toSpliced"})
# languages where a bare call names a function, never a variable (a C++ function pointer parameter is called bare)
_APART_NAMESPACES = frozenset({"java", "csharp"})
# a receiver made by `new Foo(...)`: that class
_NEW = re.compile(r"new\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*(?:<[^()]*>)?\s*\([^()]*\)")
# what every object has, returning a library class: `getClass()` a Class, `toString()` a String
_OBJECT_METHODS = frozenset({"getClass", "toString", "GetType", "ToString"})
# a cast receiver, `((Class<?>) type)`: the class cast to, generic arguments dropped
_CAST = re.compile(r"\(\(\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*(?:<[^()]*>)?\s*\)\s*[\w$.]+\)")


_PYTHON_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))


@lru_cache(maxsize=None)
def _php_builtins() -> tuple[frozenset[str], frozenset[str]]:
    """PHP's own functions and classes, lower-cased (PHP's names are case-insensitive): data/php_builtins.json,
    written by scripts/php_builtins.py from the stubs of the extensions intelephense loads by default."""
    data = json.loads(resources.files(__package__).joinpath("data", "php_builtins.json").read_text("utf-8"))
    return frozenset(data["functions"]), frozenset(c.lower() for c in data["classes"])


def php_builtin(name: str, function: bool = True) -> bool:
    """Whether ``name`` (``sprintf``, ``\\DOMDocument``) is one of PHP's own classes, or with ``function`` one of
    its functions; a name in a namespace (``App\\Exception``, ``App.Exception`` in the resolver's notation) is not."""
    name = name.removeprefix("\\").lower()
    functions, classes = _php_builtins()
    return "\\" not in name and "." not in name and (name in classes or function and name in functions)


@lru_cache(maxsize=None)
def _java_lang() -> frozenset[str]:
    """The public types of java.lang, which every Java file imports: data/java_lang.json (scripts/java_lang.py)."""
    return frozenset(json.loads(resources.files(__package__).joinpath("data", "java_lang.json").read_text("utf-8"))
                     ["types"])


# java.lang.Object's methods: a bare `getClass()` / `hashCode()` no class of the repository defines is Object's
JAVA_OBJECT_METHODS = frozenset({"getClass", "hashCode", "equals", "toString", "clone", "finalize", "notify",
                                 "notifyAll", "wait"})


@lru_cache(maxsize=None)
def _ruby_builtins() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Ruby's own: the methods of every object (Kernel, BasicObject), those every class or module adds (Module,
    Class; `new` left out: a bare `new` in a class method makes an object of the repository's class), and the core
    classes and modules: data/ruby_builtins.json (scripts/ruby_builtins.py)."""
    data = json.loads(resources.files(__package__).joinpath("data", "ruby_builtins.json").read_text("utf-8"))
    return frozenset(data["object_methods"]), frozenset(data["module_methods"]) - {"new"}, frozenset(data["classes"])


def ruby_builtin_method(name: str, on_class: bool) -> bool:
    """Whether a bare call ``name`` is a method Ruby gives every object (``raise``, ``puts``, ``block_given?``),
    or with ``on_class`` (a class body, a class method) also every class (``attr_reader``, ``alias_method``)."""
    objects, modules, _classes = _ruby_builtins()
    return name in objects or on_class and name in modules


@lru_cache(maxsize=None)
def _csharp_system() -> dict[str, frozenset[str]]:
    """.NET's System namespaces -> their public types: data/csharp_system.json (scripts/csharp_system.py)."""
    data = json.loads(resources.files(__package__).joinpath("data", "csharp_system.json").read_text("utf-8"))
    return {ns: frozenset(names) for ns, names in data["namespaces"].items()}


def csharp_system_type(usings: Iterable[str], name: str) -> str | None:
    """``external:<namespace>`` for a type of one of .NET's System namespaces a file's ``using``s bring
    (``Console`` after ``using System;``, ``List`` after ``using System.Collections.Generic;``), else None."""
    spaces = _csharp_system()
    return next((f"external:{ns}" for ns in usings if name in spaces.get(ns, ())), None)


@lru_cache(maxsize=None)
def _c_library() -> dict[str, frozenset[str]]:
    """The C library's headers -> the functions and function-like macros they declare: data/c_library.json
    (scripts/c_library.py)."""
    data = json.loads(resources.files(__package__).joinpath("data", "c_library.json").read_text("utf-8"))
    return {header: frozenset(names) for header, names in data["headers"].items()}


def c_library_function(includes: Iterable[str], name: str) -> str | None:
    """``external:<header>`` for a function (or function-like macro) of the C library one of ``includes`` declares
    (``printf`` after ``#include <stdio.h>``; C++'s ``<cstdio>`` is ``<stdio.h>``), else None."""
    headers = _c_library()
    for header in includes:
        if "." not in header and header.startswith("c"):
            header = header[1:] + ".h"
        if name in headers.get(header, ()):
            return f"external:{header}"
    return None


def builtin_class(language: str, name: str) -> str | None:
    """The reason a class named ``name`` is the language's own, or None: PHP's global classes (``\\DateTime``:
    ``external:builtins``), Java's java.lang (``IllegalStateException``, ``Math``: ``external:java.lang``), Ruby's
    core (``StandardError``, ``Comparable``: ``external:builtins``)."""
    if language == "php":
        return "external:builtins" if php_builtin(name, function=False) else None
    if language == "java":
        return "external:java.lang" if name in _java_lang() else None
    if language == "ruby":
        return "external:builtins" if name.removeprefix("::") in _ruby_builtins()[2] else None
    return None


def _members(name: str) -> list[str]:
    """The types a declared type names: each member of a union (``union:A,B``, extract_types._ts_type), else itself."""
    return name.removeprefix("union:").split(",") if name.startswith("union:") else [name]


def _cast_or_new(receiver: str) -> str | None:
    """The class a receiver is cast to (``((Reader) o)``) or made as (``new Foo(x)``), else None."""
    found = _CAST.fullmatch(receiver) or _NEW.fullmatch(receiver)
    return found.group(1) if found else None


@lru_cache(maxsize=None)
def _container_kinds(language: str, skip_namespaces: bool) -> frozenset[str]:
    spec = LANGUAGES[language]
    return spec.container_kinds - (spec.namespace_kinds if skip_namespaces else frozenset())


def _string_key(subscript: str) -> str:
    """``foo`` for ``['foo']`` / ``["foo"]``; "" for any other subscript."""
    inner = subscript.strip()[1:-1].strip()
    return inner[1:-1] if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"" else ""


def _lsp_holds(answer: list | None) -> bool:
    """Whether a language server named what a call reaches: a definition, or what the variable holds."""
    return bool(answer) and (answer[0] == "sym" or (answer[0] == "var" and len(answer) > 2 and bool(answer[2])))


def php_receiver(receiver: str) -> str:
    """A PHP receiver in the resolver's notation: variables without ``$`` (``$this`` is ``this``), ``->`` and
    ``?->`` as ``.``: ``$this->collection`` is ``this.collection``, ``$state->getBlock()`` ``state.getBlock()``.
    Static receivers (``Foo``, ``self``, ``parent``) stay as they are."""
    if "$" not in receiver and "->" not in receiver:
        return receiver
    return re.sub(r"\$(?=[A-Za-z_])", "", receiver.replace("?->", ".").replace("->", "."))


def _last_call(receiver: str) -> tuple[str, str] | None:
    """``(x, m)`` for a receiver ending in a call of a method, ``x.m(...)``, whatever ``x`` is (``b.add(1).add(2)``
    gives ``("b.add(1)", "add")``); None otherwise."""
    if not receiver.endswith(")"):
        return None
    depth = 0
    for i in range(len(receiver) - 1, -1, -1):
        depth += (receiver[i] == ")") - (receiver[i] == "(")
        if depth == 0:
            head = receiver[:i]
            match = _METHOD_TAIL.search(head)
            return (head[:match.start()], match.group(1)) if match and match.start() > 0 else None
    return None


def _called_chain(receiver: str) -> str | None:
    """``a.b`` for a receiver that is one call of a name chain, ``a.b(x, f(y))``; None otherwise (``a(b).c(d)``)."""
    head, paren, rest = receiver.partition("(")
    if not paren or not _CHAIN.fullmatch(head) or not rest.endswith(")"):
        return None
    depth = 1
    for ch in rest[:-1]:
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return None
    return head


def implicit_of(call: list) -> str | None:
    """"read" / "dunder" / "callback" / "decorator" for a stored call site without call syntax
    (``CallSite.implicit``)."""
    return call[5] if len(call) > 5 else None


def _directories_up(directory: str) -> list[str]:
    """``a/b`` -> ``["a/b", "a", ""]``: a directory and the ones above it, to the repository's root."""
    out = [directory]
    while directory:
        directory = posixpath.dirname(directory)
        out.append(directory)
    return out


def _last_segment(module: str) -> str:
    for sep in ("/", "::", "\\", "."):
        module = module.split(sep)[-1] or module
    return module
