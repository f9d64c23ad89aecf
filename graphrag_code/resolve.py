"""Cross-file resolution: turn each file's raw facts (definitions, call sites, imports, bases) into CALLS,
IMPORTS, INHERITS and IMPLEMENTS edges, each carrying how it was resolved and a confidence.

It works on the facts of the whole repository at once and is a pure function of them, so an incremental
run (facts of unchanged files read back from the graph) gives exactly the edges of a full run. Calls that
cannot be pinned to one definition are kept as unresolved, with the reason, so later analysis can say when
an answer is only a lower bound.
"""

from __future__ import annotations

import builtins
import posixpath
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from .languages import DECLARED_TYPES as _STATIC_TYPED, LANGUAGES, SCRIPT_LANGUAGES, is_test_path
from .models import BUILTIN_CLASSES, NAME_CHAIN as _CHAIN, SCRIPT_GLOBALS, item_of

# resolution method -> confidence of the edge it produces
CONFIDENCE = {
    "self": 0.95, "scope": 0.95, "same_file": 0.95, "import": 0.9, "module_attr": 0.9,
    "same_package": 0.85, "class_attr": 0.85, "inherited": 0.8, "global_unique": 0.6, "method_unique": 0.5,
    "receiver_name": 0.7, "receiver_name_of_several": 0.6, "receiver_name_suffix": 0.6,
    "overloads": 0.6,   # one of several overloads taking as many arguments as the call passes (_overload)
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


def symbol_ids(repo: str, path: str, defs: list[list]) -> list[str]:
    """Stable ids ``repo:path#qualified.name``; a repeated name (overloads, redefinitions) gets ``~2``, ``~3``."""
    seen: dict[str, int] = defaultdict(int)
    ids = []
    for d in defs:
        base = f"{repo}:{path}#{d[2]}"
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
                if parent is None and owner and any(
                        self.files[p].defs[j][1] in _TYPE_KINDS for p, j in self.qualified.get(owner, ())):
                    self.top[path][name].remove(i)
                    self.global_top[name].remove((path, i))

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
    return heads.most_common(1)[0][0] if heads else None


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


def _item_prefix(items: bool, subscript: bool) -> str:
    """The kind prefix of an item of a value (``extract._value_of``): iterated, subscripted, or both."""
    return ("iter" if items else "") + ("sub" if subscript else "")


@dataclass
class _Sites:
    """The call-site pass's bookkeeping: the calls handed a function (path, line, column), what each of them
    reached (for ``_settle_callbacks``), and the calls of parameters left for ``_parameter_calls``."""
    taking: set[tuple[str, int, int]]
    outcomes: dict[tuple[str, int, int], list[str] | str | None] = field(default_factory=dict)
    parameter_calls: list[tuple[str, int, str, int]] = field(default_factory=list)


class _Resolver:
    def __init__(self, repo: str, files: dict[str, FileFacts], use_lsp: bool = False) -> None:
        self.repo, self.files, self.ix = repo, files, _Index(files)
        self.use_lsp = use_lsp
        self.where: dict[str, tuple[str, int]] = {}              # symbol id -> (path, definition index)
        self.abstract: set[str] = set()                          # ids of abstract methods
        self.protocol_stubs: set[str] = set()                    # ... of Protocols nothing subclasses
        self.subclass_map: dict[str, list[str]] | None = None    # class id -> direct subclasses, once known
        self.placeholders: set[str] = set()                      # ids of placeholder methods (never the work)
        self.param_types: dict[str, dict[int, dict[str, str]]] = {}   # path -> def index -> {parameter: class}
        self.attr_types: dict[tuple[str, int], dict[str, str]] = {}     # (path, class index) -> {attribute: class}
        self.attr_names: dict[tuple[str, int], set[str]] = {}    # (path, class index) -> its untyped attributes
        self.returns: dict[tuple[str, int], str] = {}                   # (path, def index) -> returned class
        self.var_types: dict[str, dict[int, dict[str, str]]] = {}       # path -> def index -> {variable: value}
        self._receivers: dict[tuple[str, int | None, str], tuple[str, int] | None] = {}   # receiver_class memo
        self._bases_memo: dict[tuple[str, int], list[tuple[str, int]]] = {}   # _bases, once the bases are bound
        self._member_memo: dict[tuple[str, int, str], tuple[str, int] | None] = {}   # class_member, likewise
        self.overloads: dict[tuple[str, str], list[tuple[int, int, int]]] = {}   # (path, qualified) -> overloads
        self.extensions: dict[str, list[tuple[str, int, str]]] = defaultdict(list)   # C#: name -> (path, i, type)
        self._parts_memo: dict[tuple[str, int], list[tuple[str, int]]] = {}
        self.underlying: dict[tuple[str, int], str] = {}    # Go: (path, named slice/map type) -> "[]T" / "{}T"
        self.arity: dict[tuple[str, int], int] = {}              # (path, call index) -> arguments passed
        self._mods_memo: dict[str, set[str]] = {}                # _rust_mods
        self._typing_depth = 0
        self.properties: set[str] = set()                        # ids of property getters
        self.descriptor_gets: dict[str, str] = {}   # getter decorated by a descriptor class -> that class's __get__
        self.wrappers: dict[str, str] = {}          # function -> the wrapper its decorator replaced it with
        self.lsp_abstract: list[tuple[str, str, int]] = []       # (caller, abstract method, line) answered by lsp
        # (caller, method, line, receiver's class, caller's own method name when the receiver is self)
        self.dispatched: list[tuple[str, str, int, str | None, str | None]] = []
        # collection name -> classes of the objects put into one (and by the string key they are registered under),
        # and the functions;
        # attribute names some class annotates as a collection; (function id, parameter) -> the collections an
        # item of which its callers hand it (_collect_inserts, _collect_passed_items)
        self.registered: dict[str, set[tuple[str, int]]] = defaultdict(set)
        self.registered_as: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
        self.registered_functions: dict[str, set[str]] = defaultdict(set)     # collection name -> function ids
        self.typed_collections: set[str] = set()
        self.passed_items: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.out = Resolution()
        self.bindings: dict[str, dict[str, tuple]] = {}
        # Python: what an import inside a function binds, seen from that function: (path, def) -> name -> binding
        self.local_bindings: dict[str, dict[int, dict[str, tuple]]] = {}
        self.wildcards: dict[str, list[str]] = defaultdict(list)
        # (path, local name) -> (path, name) of a module's variable imported by name (`from ._compat import
        # _default_text_stdout`)
        self.imported_vars: dict[tuple[str, str], tuple[str, str]] = {}
        # (path, local name) -> name of a JS/TS `import { name } from "m"` that m does not define (see
        # _settle_reexports)
        self.named_imports: dict[tuple[str, str], str] = {}
        self._external: dict[tuple[str, int], bool] = {}     # (path, class) -> _external_base
        self._guessing: set[tuple[str, int | None, str]] = set()   # receivers _named_after_types is deciding
        # (type name, method, language, from a test file) -> (the methods classes of that name have, how many
        # classes): _named_after_types asks the same of every `field.get_choices()` in the repository
        self._type_methods: dict[tuple[str, str, str, bool], tuple[set[tuple[str, int]], int]] = {}
        self._last_words: dict[str, list[tuple[str, int]]] | None = None   # see _types_ending
        # (path, def index) -> (object, prefix, returned, line) of its getattr(obj, prefix + ...) lookups
        # (CallSite.reflective), and the scopes whose lookups a call was resolved through (_reflected)
        self.reflective: dict[tuple[str, int], list[tuple[str, str, int, int]]] = defaultdict(list)
        self.reflected: set[tuple[str, int]] = set()

    # -- imports ------------------------------------------------------------------------------------------------
    def resolve_module(self, f: FileFacts, module: str) -> list[str]:
        if f.language == "python":
            return self._python_module(f, module)
        if f.language == "rust":
            return self._rust_module(f, module) or []
        cands, is_dir = _module_candidates(f.language, module, f.path)
        if f.language == "go":
            if self.ix.go_modules:
                return self._go_package(module)
            parts = module.split("/")    # no go.mod: a directory named by the import path's last segments
            for k in range(len(parts)):
                suffix = "/".join(parts[k:])
                for d, paths in self.ix.dirs.items():
                    if d == suffix or d.endswith("/" + suffix):
                        return sorted(p for p in paths if p.endswith(".go") and not p.endswith("_test.go"))
            return []
        if is_dir:
            return sorted(p for c in cands for p in self.ix.dirs.get(c, []))
        if f.language == "php" and "/" not in cands[0]:
            # `use RuntimeException;`: a class of the global namespace, a file at the top or none (it had landed
            # on Symfony's Exception/RuntimeException.php, found by the end of its path)
            return [p for p in self.ix.stems.get(cands[0], []) if p != f.path]
        found = [p for p in self.ix.find_files(cands) if p != f.path] if cands else []
        if f.language in ("c", "cpp") and posixpath.splitext(module)[1]:   # `#include "state.h"`: not state.c
            found = [p for p in found if posixpath.basename(p) == posixpath.basename(module)]
        return found

    def _go_package(self, module: str) -> list[str]:
        """The files of the package an import path names, through the repository's go.mod files: the directory
        of the module the path is in, plus the rest of the path (`github.com/spf13/cobra` is the root package of
        cobra's module, `.../cobra/doc` its `doc/`). A path in none of them is another module's: external."""
        for path, directory in self.ix.go_modules:
            if module == path or module.startswith(path + "/"):
                target = posixpath.normpath(posixpath.join(directory, module[len(path) + 1:]))
                target = "" if target == "." else target
                return sorted(p for p in self.ix.dirs.get(target, []) if p.endswith(".go") and not p.endswith("_test.go"))
        return []

    def _rust_module(self, f: FileFacts, module: str) -> list[str] | None:
        """The file of a Rust module path: `crate::a::b` from the crate's root (the nearest directory above with a
        lib.rs or main.rs; a file without one, an integration test, is its own root), `self::` from the file's
        module, `super::` from its parent, `a::b` where the file declares `mod a`; the files `a/b.rs` or
        `a/b/mod.rs` only, never a file elsewhere that ends so (`use core::fmt` had imported serde_json's
        `src/io/core.rs`). ``None`` for another crate's path (`std::`, `serde::`)."""
        parts = [p for p in module.split("::") if p and p != "{}"]
        if not parts or (parts[0] not in ("crate", "self", "super") and parts[0] not in self.ix.rust_crates
                         and parts[0] not in self._rust_mods(f)):
            return None      # before walking the directories: every call with a plain receiver asks
        root, here = self._rust_home(f.path)
        if parts[0] == "crate":
            base, parts = [], parts[1:]
        elif parts[0] in self.ix.rust_crates:             # the repository's own crate by name (its tests)
            root, base, parts = self.ix.rust_crates[parts[0]], [], parts[1:]
        elif parts[0] == "self":
            base, parts = here, parts[1:]
        elif parts[0] == "super":
            base = here
            while parts and parts[0] == "super":
                base, parts = base[:-1], parts[1:]
        else:
            base = here                                   # `mod parse;` then `parse::run()`
        segments = base + parts
        if not segments:
            return [p for p in (f"{root}lib.rs", f"{root}main.rs") if p in self.files][:1] or [f.path]
        stem = root + "/".join(segments)
        return [p for p in (f"{stem}.rs", f"{stem}/mod.rs") if p in self.files][:1]

    def _rust_mods(self, f: FileFacts) -> set[str]:
        """The modules a Rust file declares at its top (`mod parse;`, `mod tests { }`), kept per file: every call
        with a plain receiver asks."""
        found = self._mods_memo.get(f.path)
        if found is None:
            found = self._mods_memo[f.path] = {d[0] for d in f.defs if d[1] == "module" and d[3] is None}
        return found

    def _rust_home(self, path: str) -> tuple[str, list[str]]:
        """(the crate root's directory with a trailing slash, or "", the module path of ``path`` under it)."""
        directory = posixpath.dirname(path)
        probe = directory
        while True:
            prefix = f"{probe}/" if probe else ""
            if f"{prefix}lib.rs" in self.files or f"{prefix}main.rs" in self.files:
                break
            if not probe:
                prefix = f"{directory}/" if directory else ""     # no crate root above: the file is its own
                return prefix, []
            probe = posixpath.dirname(probe)
        rel = path[len(prefix):].removesuffix(".rs").split("/")
        if rel[-1] == "mod" or (len(rel) == 1 and rel[0] in ("lib", "main")):
            rel = rel[:-1]
        return prefix, rel

    def _python_module(self, f: FileFacts, module: str) -> list[str]:
        """Exact module resolution: absolute names through the package map, relative ones from the importer."""
        dots = len(module) - len(module.lstrip("."))
        if not dots:
            hit = self.ix.py_modules.get(module)
            if hit is None and "." in module:   # namespace packages (no __init__.py): a unique exact path tail
                hits = self.ix.python_tails().get(module.replace(".", "/"), [])
                hit = hits[0] if len(hits) == 1 else None
            return [hit] if hit and hit != f.path else []
        cands, _ = _module_candidates("python", module, f.path)
        for cand in cands:
            for path in self.ix.stems.get(posixpath.normpath(cand), []):
                if path.endswith((".py", ".pyi")) and path != f.path:
                    return [path]
        return []

    def bind_imports(self, f: FileFacts) -> None:
        binds: dict[str, tuple] = {}
        src = file_id(self.repo, f.path)
        # Python: an import inside a function binds its name there first (click: `from ._termui_impl import getchar
        # as f` in one function, `raw_terminal as f` in another); the file's binding keeps the last of them too, as
        # a fallback for the lookups that read those alone
        functions = [(d[4], d[5], i) for i, d in enumerate(f.defs) if d[1] in ("function", "method")] \
            if f.language == "python" else []
        for module, name, alias, line, wildcard in f.imports:
            if name and f.language in ("python", "rust"):   # `from pkg import submodule`, `use crate::de;`
                sub = self.resolve_module(f, f"{module}::{name}" if f.language == "rust" else
                                          module + name if module.endswith(".") else f"{module}.{name}")
                if sub:
                    binds[alias or name] = ("module", sub)
                    self._import_edge(src, sub, line, name)
                    continue
            targets = self.resolve_module(f, module)
            dotted = f.language == "python" and not (alias or name) and "." in module.strip(".")
            if dotted:
                self._bind_package(f, module, targets, binds)
            if not targets and f.language == "rust" and self._rust_module(f, module) is not None:
                continue              # a module of this crate that is not indexed (`#[path]`, generated): no guess
            if not targets:
                ext = module.split("/")[0] if f.language in SCRIPT_LANGUAGES else module
                self.out.external_modules.add(ext)
                self._add_edge("IMPORTS", src, f"module:{ext}", {"line": line}, merge_line=True)
                local = alias or name or module.split(".")[-1].split("/")[-1].split("::")[-1].split("\\")[-1]
                if not dotted:
                    binds[local] = ("external", ext)
                continue
            self._import_edge(src, targets, line, name)
            if wildcard:
                self.wildcards[f.path].extend(targets)
            elif name and f.language != "go":   # Go imports name packages, never symbols
                hit = self._top_in(targets, name, exported=True) or (self._nested_import(targets, module)
                                                                     if f.language == "java" else None)
                binds[alias or name] = ("symbol", *hit) if hit else ("module", targets)
                around = max(((start, i) for start, end, i in functions if start < line <= end), default=None) \
                    if hit and functions else None
                if around is not None:
                    self.local_bindings.setdefault(f.path, {}).setdefault(around[1], {})[alias or name] = \
                        ("symbol", *hit)
                if not hit and f.language in SCRIPT_LANGUAGES:
                    self.named_imports[(f.path, alias or name)] = name
                held = self._var_home(targets, name) if not hit else None
                if held:
                    self.imported_vars[(f.path, alias or name)] = held
            elif not dotted:
                local = alias or name or _last_segment(module)
                binds[local] = ("module", targets)
        self.bindings[f.path] = binds

    def _settle_reexports(self) -> None:
        """JavaScript/TypeScript: `import { isES6Map } from "../internal"` where internal.ts only re-exports it
        (`export * from "./utils/utils"`, `export { isES6Map } from "./utils/utils"`: a barrel file, as MobX's)
        binds the definition the re-exports lead to. Not a module: its default export is another thing. A barrel
        may name what another barrel re-exports, so rounds until nothing changes."""
        for _round in range(_MAX_BASE_DEPTH):
            settled = 0
            for (path, local), name in self.named_imports.items():
                bind = self.bindings[path].get(local)
                hit = self._reexport(bind[1], name) if bind and bind[0] == "module" else None
                if hit:
                    self.bindings[path][local] = ("symbol", *hit)
                    settled += 1
            if not settled:
                return

    def _nested_import(self, targets: list[str], module: str) -> tuple[str, int] | None:
        """Java: the type (or static member) an import names inside a file's top-level type: `import
        p.Outer.Inner.Deep;` is `Outer.Inner.Deep` of p/Outer.java, `import static p.Util.max;` `Util.max`."""
        for path in targets:
            stem = posixpath.splitext(path)[0].replace("/", ".")
            found = module.find(stem.rsplit(".", 1)[-1] + ".") if module.startswith(stem.rsplit(".", 1)[0]) else -1
            if found < 0:
                continue
            hits = [h for h in self.ix.qualified.get(module[found:], []) if h[0] == path]
            if hits:
                return hits[0]
        return None

    def _var_home(self, paths: list[str], name: str, depth: int = 0,
                  seen: set[tuple[str, str]] | None = None) -> tuple[str, str] | None:
        """Where the module variable ``name`` imported from ``paths`` is assigned, as (path, its name there): in
        one of ``paths``, or in the module a package's ``__init__.py`` imports it from (``from django.apps import
        apps``, where django/apps/__init__.py has ``from .registry import apps`` and registry.py ``apps =
        Apps(...)``), by name or by a wildcard import, up to ``_MAX_BASE_DEPTH`` re-exports. Each module is
        asked once for a name (``seen``): MobX's barrel re-exports 54 modules that each import from it, and
        without that one resolution asked 385,000 times (1.8 s of its 2)."""
        held = [p for p in paths if name in self.files[p].module_vars]
        if held or depth >= _MAX_BASE_DEPTH:
            return (held[0], name) if len(held) == 1 else None
        seen = set() if seen is None else seen
        for p in paths:
            if (p, name) in seen:
                continue
            seen.add((p, name))
            g = self.files[p]
            for module, imported, alias, _line, wildcard in g.imports:
                if (imported and (alias or imported) == name) or (wildcard and not name.startswith("_")):
                    found = self._var_home(self.resolve_module(g, module), imported or name, depth + 1, seen)
                    if found:
                        return found
        return None

    def _bind_package(self, f: FileFacts, module: str, targets: list[str], binds: dict[str, tuple]) -> None:
        """Python's ``import a.b.c`` binds ``a``, the top package (``click.echo`` after ``import
        click._termui_impl``), and ``a.b.c`` is reached through it: the whole dotted name is bound too."""
        top = module.split(".")[0]
        binds[module] = ("module", targets) if targets else ("external", module)
        if top not in binds:
            package = self.resolve_module(f, top)
            binds[top] = ("module", package) if package else ("external", top)

    def _import_edge(self, src: str, targets: list[str], line: int, name: str | None) -> None:
        for t in targets:
            self._add_edge("IMPORTS", src, file_id(self.repo, t), {"line": line}, merge_line=True)

    def _top_in(self, paths: list[str], name: str, exported: bool = False) -> tuple[str, int] | None:
        """The (last) top-level definition of ``name`` in ``paths``. With ``exported``, what a module exports as
        ``name`` (an import by name, a re-export): in JavaScript/TypeScript not a function of an object
        (``objectProxyTraps.defineProperty`` of MobX's dynamicobject.ts is no export; its utils.ts exports ``const
        defineProperty = Object.defineProperty``) unless the object is ``exports`` (``exports.render = function``)."""
        hits = [(p, i) for p in paths for i in self.ix.top.get(p, {}).get(name, [])
                if not exported or self._binds(self.files[p], i) or
                self.files[p].defs[i][2] in (f"exports.{name}", f"module.exports.{name}")]
        return hits[-1] if hits else None

    # -- names --------------------------------------------------------------------------------------------------
    def lookup_name(self, f: FileFacts, caller: int | None, name: str) -> tuple[str, int, str] | None:
        """(path, def index, method) for a bare name seen inside ``caller`` of file ``f``."""
        spec, scope = LANGUAGES[f.language], caller
        local = self.local_bindings.get(f.path)
        while scope is not None:   # nested functions and members visible from an enclosing scope
            hit = self.ix.members.get((f.path, scope), {}).get(name)
            if hit is not None and (f.defs[scope][1] not in spec.container_kinds or
                                    (spec.lexical_members and self._lexically_visible(f, scope, hit))):
                return f.path, hit, "scope"
            bind = local.get(scope, {}).get(name) if local else None
            if bind is not None:       # `from ._termui_impl import getchar as f` in this function
                return bind[1], bind[2], "import"
            scope = f.defs[scope][3]
        if LANGUAGES[f.language].implicit_this and caller is not None:
            hit = self.member_of_own_class(f, caller, name)
            if hit:
                return hit[0], hit[1], "self"
        top = [i for i in self.ix.top[f.path].get(name, []) if self._binds(f, i)]
        if top:
            return f.path, top[-1], "same_file"
        bind = self.bindings[f.path].get(name)
        if bind and bind[0] == "symbol":
            return bind[1], bind[2], "import"
        if bind and bind[0] == "module":
            # `from markdown import Markdown` where markdown/__init__.py imports it from .core: a re-export
            # (a name imported by name that the module does not define is not its default export)
            default = self._default_export(bind[1]) if (f.path, name) not in self.named_imports else None
            hit = default or (self._reexport(bind[1], name) if f.language in ("python", "rust") else None)
            if hit:
                return hit[0], hit[1], "import"
        if bind:
            return None
        for path in self.wildcards.get(f.path, []):
            top = self.ix.top.get(path, {}).get(name)
            if top:
                return path, top[-1], "import"
        if f.language in ("go", "java", "csharp", "rust", "php"):   # same package / namespace: sibling files
            near = self.ix.php_namespaces[_php_namespace(f)] if f.language == "php" else \
                self.ix.dirs[posixpath.dirname(f.path)]
            hits = [(p, i) for p in near
                    if p != f.path and self.files[p].language == f.language   # not a Python `make` beside g.go
                    for i in self.ix.top.get(p, {}).get(name, [])]
            if len(hits) == 1 or hits and self._one_type(hits):
                return hits[0][0], hits[0][1], "same_package"
        hits = [h for h in self.ix.global_top.get(name, []) if self.files[h[0]].language == f.language
                and self._binds(self.files[h[0]], h[1])]
        if len(hits) == 1 or hits and self._one_type(hits):
            return hits[0][0], hits[0][1], "global_unique"
        return None

    @staticmethod
    def _lexically_visible(f: FileFacts, scope: int, member: int) -> bool:
        """Whether ``member`` of the container ``scope`` is found by its bare name inside it (``lexical_members``):
        a nested type always; anything in a namespace (a C++ `namespace`, a Rust `mod`), but a Ruby module's methods
        are no bare names in the classes inside it."""
        return f.defs[member][1] in _NAMESPACED or (f.defs[scope][1] in LANGUAGES[f.language].namespace_kinds and
                                                    f.language != "ruby")

    def _binds(self, f: FileFacts, i: int) -> bool:
        """Whether top-level definition ``i`` binds its name: `res.send = function send() {}` sets a property;
        a bare `send()` elsewhere calls some other `send` (Express: `var send = require('send')`)."""
        return not (LANGUAGES[f.language].member_assignments and "." in f.defs[i][2])

    def _reexport(self, paths: list[str], name: str, depth: int = 0,
                  seen: set[str] | None = None) -> tuple[str, int] | None:
        """`pkg.name()` where pkg/__init__.py only imports `name` from a submodule: follow that import, or its
        `from .fields import *` (Django's `forms.CharField`, `models.Model`: `django/forms/__init__.py` imports
        every submodule so; `export * from './x'`), a chain of them up to ``_MAX_BASE_DEPTH``. Python's wildcard
        import skips names starting with an underscore. A module two barrels re-export is read once (``seen``)."""
        seen = set() if seen is None else seen
        paths = [p for p in paths if p not in seen]
        seen.update(paths)
        for p in paths:
            bind = self.bindings.get(p, {}).get(name)
            if bind and bind[0] == "symbol":
                return bind[1], bind[2]
        if depth >= _MAX_BASE_DEPTH:
            return None
        for p in paths:
            wild = self.wildcards.get(p) if not (name.startswith("_") and self.files[p].language == "python") \
                else None
            hit = (self._top_in(wild, name, exported=True) or self._reexport(wild, name, depth + 1, seen)) \
                if wild else None
            if hit:
                return hit
        return None

    def _export_member(self, paths: list[str], obj: str, name: str, depth: int = 0,
                       seen: set[str] | None = None) -> tuple[str, int] | None:
        """The function ``obj.name`` of the object a module exports as ``obj`` (``export const timeoutProvider =
        { setTimeout() {} }``), there or where its ``export *`` / ``export { obj } from`` lead."""
        seen = set() if seen is None else seen
        paths = [p for p in paths if p not in seen]
        seen.update(paths)
        for p in paths:
            hits = [h for h in self.ix.qualified.get(f"{obj}.{name}", []) if h[0] == p]
            if hits:
                return hits[0]
        if depth >= _MAX_BASE_DEPTH:
            return None
        for p in paths:
            bind = self.bindings.get(p, {}).get(obj)
            if bind and bind[0] == "module" and (p, obj) in self.named_imports:
                hit = self._export_member(bind[1], self.named_imports[(p, obj)], name, depth + 1, seen)
            else:
                wild = self.wildcards.get(p)
                hit = self._export_member(wild, obj, name, depth + 1, seen) if wild else None
            if hit:
                return hit
        return None

    def _default_member(self, paths: list[str], name: str) -> tuple[str, int] | None:
        """JavaScript/TypeScript: `AxiosHeaders.from()` after `import AxiosHeaders from './AxiosHeaders.js'`, whose
        default export is the class `AxiosHeaders`: a member of the module's default export."""
        if not paths or self.files[paths[0]].language not in SCRIPT_LANGUAGES:
            return None
        default = self._default_export(paths)
        return self.class_member(*default, name) if default else None

    def _default_export(self, paths: list[str]) -> tuple[str, int] | None:
        """What a module's default export is: a definition assigned to it (`module.exports = function () {}`),
        or the top-level definition it names (`module.exports = Layer`, `export default Router`)."""
        for p in paths:
            for i, d in enumerate(self.files[p].defs):
                if d[2] in ("module.exports", "exports.default", "default"):
                    return p, i
        for p in paths:
            named = self.ix.top.get(p, {}).get(self.files[p].default_export) if self.files[p].default_export else None
            if named:
                return p, named[-1]
        return None

    def class_member(self, path: str, cls: int, name: str, depth: int = 0) -> tuple[str, int] | None:
        if depth or self.subclass_map is None:    # bases are final once the subclasses are known (_bases)
            return self._class_member(path, cls, name, depth)
        key = (path, cls, name)
        if key not in self._member_memo:
            self._member_memo[key] = self._class_member(path, cls, name, 0)
        return self._member_memo[key]

    def _class_member(self, path: str, cls: int, name: str, depth: int) -> tuple[str, int] | None:
        for part_path, part in self._parts(path, cls):       # C#: a partial class's parts in other files
            hit = self.ix.members.get((part_path, part), {}).get(name)
            if hit is not None:
                return part_path, hit
        if self.files[path].language == "go":
            found = self._go_method(path, cls, name)
            if found:
                return found
        if self.files[path].language == "cpp":     # `void Shape::describe() const {}` in a .cpp: declared only
            hits = [h for h in self.ix.qualified.get(f"{self.files[path].defs[cls][2]}.{name}", [])
                    if self.files[h[0]].language == "cpp" and _in_namespaces(self.files[h[0]], self.files[h[0]].defs[h[1]][3])]
            if hits:
                return hits[-1]
        return self._from_bases(path, cls, depth, lambda p, c, d: self.class_member(p, c, name, d))

    def _go_method(self, path: str, cls: int, name: str) -> tuple[str, int] | None:
        """Go: a method is declared apart from its type (`func (s *Store) Put`, qualified `Store.Put`), in any
        file of the type's package (its directory)."""
        home = posixpath.dirname(path)
        hits = [h for h in self.ix.qualified.get(f"{self.files[path].defs[cls][0]}.{name}", [])
                if posixpath.dirname(h[0]) == home and self.files[h[0]].language == "go"]
        return hits[0] if len(hits) == 1 else None

    def _from_bases(self, path: str, cls: int, depth: int, find):
        """The first answer ``find(path, class, depth)`` gives for a base of ``cls`` (bases of bases up to
        ``_MAX_BASE_DEPTH``)."""
        if depth >= _MAX_BASE_DEPTH:
            return None
        return next((hit for base in self._bases(path, cls) if (hit := find(*base, depth + 1))), None)

    def _external_base(self, path: str, cls: int) -> bool:
        """Whether class ``cls`` or one of its bases in the repository has a base no definition answers (a
        library's class; `object` aside); worked out once per class (every call on its objects may ask)."""
        if (path, cls) not in self._external:
            self._external[(path, cls)] = self._has_external_base(path, cls)
        return self._external[(path, cls)]

    def _has_external_base(self, path: str, cls: int, depth: int = 0) -> bool:
        declared = self._declared_bases(path, cls)
        found = list(self._bases(path, cls))
        if len(found) < len(declared):
            return True
        return depth < _MAX_BASE_DEPTH and any(self._has_external_base(p, c, depth + 1) for p, c in found
                                               if (p, c) != (path, cls))

    def _single_bases_below(self, path: str, cls: int) -> bool:
        """Whether what ``super()`` reaches from ``cls`` is ``cls``'s own ancestry: ``cls`` declares one base
        (``object`` and ``Generic`` aside), and no class of the repository below it puts a class of ours after
        it in its MRO: it declares one base, or its other bases are a library's (``class TemplateNotFound(IOError,
        LookupError, TemplateError)``). False until the subclasses are known."""
        if self.subclass_map is None or len(self._declared_bases(path, cls)) > 1:
            return False
        below = list(self._below(self.files[path].ids[cls], self.subclass_map))
        line = {(path, cls)} | {(p, c) for p, c, _members in below}
        for p, c, _members in below:
            declared = self._declared_bases(p, c)
            if len(declared) > 1 and any(not self._library_name(self.files[p], c, b) and
                                         self._base_of(p, c, b) not in line for b in declared):
                return False
        return True

    def _base_of(self, path: str, cls: int, base: str) -> tuple[str, int] | None:
        """The definition the base ``base`` declared by class ``cls`` names, as ``_bases`` finds it."""
        hit = self._base_target(self.files[path], cls, base)
        return (hit[0], hit[1]) if hit else None

    def _base_target(self, f: FileFacts, cls: int, base: str) -> tuple[str, int, str] | None:
        """(path, def index, method) of the class a base name declared by class ``cls`` stands for. A Python
        base through a module or class (``class Serializer(base.Serializer)`` after ``from
        django.core.serializers import base``) is that module's or class's; its last name alone would find the
        class being declared, or any other of that name."""
        scope = f.defs[cls][3]
        if f.language == "rust":
            return self._rust_trait(f, scope, base)
        if f.language == "php" and "\\" in base:
            return self._php_qualified(f, base)
        head, _, last = base.rpartition(".")
        if head and f.language == "python" and _CHAIN.fullmatch(base):
            hit = self.resolve_call(f, scope, last, head)
            if hit[0] != "unresolved":
                return hit if self.files[hit[0]].defs[hit[1]][1] in _TYPE_KINDS else None
            if head.split(".")[0] in self.bindings[f.path] or self.lookup_name(f, scope, head.split(".")[0]):
                return None         # `models.Model` of a library, `mod.Gone`: not some class of that name here
        name = base.split(".")[-1].split("::")[-1]
        # Java / C# / C++: a type first (`implements Outer.Inner`, a class nested in another file's, is found as
        # the one type of its name; inside its class, `Foo` is no constructor)
        return (self._type_hit(f, scope, name) if f.language in _STATIC_TYPED else None) or \
            self.lookup_name(f, scope, name)

    def _rust_trait(self, f: FileFacts, scope: int | None, base: str) -> tuple[str, int, str] | None:
        """The trait a Rust `impl T for X` / `trait A: T` names: a trait only (it had landed on an `impl` block of
        a type of that name), through its path when it has one (`de::Error` after `use serde::de`: another
        crate's, never the crate's own `Error`; `crate::value::Index`: in that module's file)."""
        head, _, last = base.rpartition("::")
        if head:
            files = self._rust_module(f, head)
            bind = self.bindings[f.path].get(head.split("::")[0])
            if files is None and bind is not None and bind[0] == "module":
                files = bind[1]                             # `use crate::value;` then `value::Index`
            hits = [(p, i) for p in files or () for i in self.ix.top.get(p, {}).get(last, []) if self._trait(p, i)]
            hits = hits or [h for h in self.ix.qualified.get(f"{head.replace('::', '.')}.{last}", [])
                            if h[0] == f.path and self._trait(*h)]      # `private::Sealed` of an inline `mod`
            return (hits[0][0], hits[0][1], "import") if len(hits) == 1 else None
        bind = self.bindings[f.path].get(last)
        if bind is not None:      # `use std::fmt::Write;` (in a function too): that one, not a `mod io`'s `Write`
            return (bind[1], bind[2], "import") if bind[0] == "symbol" and self._trait(bind[1], bind[2]) else None
        own = [i for i in self.ix.top[f.path].get(last, []) if self._trait(f.path, i)]
        if len(own) == 1:                       # beside `impl Local for X` blocks, which share the type's name
            return f.path, own[0], "same_file"
        found = self.lookup_name(f, scope, last)
        if found and self._trait(found[0], found[1]):
            return found
        hits = [h for h in self.ix.global_top.get(last, []) if self.files[h[0]].language == "rust" and self._trait(*h)]
        return (hits[0][0], hits[0][1], "global_unique") if len(hits) == 1 else None

    def _php_qualified(self, f: FileFacts, base: str) -> tuple[str, int, str] | None:
        """A PHP class named with its namespace: `\\Doctrine\\DBAL\\Configuration` from the global namespace,
        `Sub\\Foo` from the file's own (or from a `use` of its first name); the file of that name, by the end of
        its path as imports are found (its last name alone found the class being declared: `class Configuration
        extends \\Doctrine\\DBAL\\Configuration`)."""
        path = base.lstrip("\\")
        if not base.startswith("\\"):
            head, _, rest = path.partition("\\")
            bind = self.bindings[f.path].get(head)
            path = f"{_php_namespace(f)}\\{path}".lstrip("\\") if bind is None else \
                next((m for m, n, a, _l, _w in f.imports if (a or n or m.rsplit("\\", 1)[-1]) == head), head) + \
                "\\" + rest
        files = self.resolve_module(f, path)
        last = path.rsplit("\\", 1)[-1]
        hits = [(p, i) for p in files for i in self.ix.top.get(p, {}).get(last, [])]
        return (hits[0][0], hits[0][1], "import") if len(hits) == 1 else None

    def _trait(self, path: str, i: int) -> bool:
        return self.files[path].defs[i][1] == "trait"

    def _library_name(self, f: FileFacts, cls: int, base: str) -> bool:
        """Whether the base ``base`` declared by class ``cls`` is a library's: a built-in (``IOError``) or a
        name bound to an external module (``from markupsafe import EscapeFormatter``) that no definition of
        ours answers. A base of ours, or one nothing answers, is not."""
        head = base.split(".")[0]
        if self.lookup_name(f, f.defs[cls][3], head):
            return False
        bind = self.bindings[f.path].get(base) or self.bindings[f.path].get(head)
        return (bind is not None and bind[0] == "external") or (bind is None and head in _BUILTIN_NAMES)

    def _parts(self, path: str, cls: int) -> list[tuple[str, int]]:
        """A C# partial class's declarations (``partial class PyObject`` in two files), this one first; else
        just this one."""
        if self.files[path].language != "csharp":
            return [(path, cls)]
        found = self._parts_memo.get((path, cls))
        if found is None:
            found = self._parts_memo[(path, cls)] = [(path, cls)] + [
                h for h in self.ix.qualified.get(self.files[path].defs[cls][2], []) if h != (path, cls)
                and self.files[h[0]].language == "csharp" and self.files[h[0]].defs[h[1]][1] in _TYPE_KINDS]
        return found

    def _one_type(self, hits: list[tuple[str, int]]) -> bool:
        """Whether several definitions are the parts of one C# partial class."""
        return len({self.files[p].defs[i][2] for p, i in hits}) == 1 and \
            all(self.files[p].language == "csharp" and self.files[p].defs[i][1] in _TYPE_KINDS for p, i in hits)

    def _declared_bases(self, path: str, cls: int) -> list[str]:
        """The names of the bases class ``cls`` declares, resolved or not (``object`` and ``Generic`` aside); of
        every part of a partial class."""
        return list(dict.fromkeys(b for p, c in self._parts(path, cls) for owner, b, _rel, _line in self.files[p].bases
                                  if owner == c and b.rpartition(".")[2] not in ("object", "Generic")))

    def _bases(self, path: str, cls: int) -> list[tuple[str, int]]:
        """The base classes of class ``cls`` of file ``path`` that resolve to definitions, as (path, index).
        Kept once the subclasses are known (every name is bound by then): the calls ask ~300 times per class."""
        found = self._bases_memo.get((path, cls))
        if found is None:
            found = list(dict.fromkeys(target for p, c in self._parts(path, cls)
                                       for owner, base, _rel, _line in self.files[p].bases
                                       if owner == c and (target := self._base_of(p, c, base))))
            if self.subclass_map is not None:
                self._bases_memo[(path, cls)] = found
        return found

    def member_of_own_class(self, f: FileFacts, caller: int, name: str) -> tuple[str, int] | None:
        """``name`` as a member of the class the method ``caller`` belongs to (or its bases): the class around it,
        or for a C++ method defined out of line (``void Builder::Build() {``, qualified ``Builder.Build``) the
        definitions qualified ``Builder.<name>`` anywhere in the repository, when there is one."""
        cls = self.enclosing_class(f, caller, skip_namespaces=True)
        if cls is not None:
            hit = self.class_member(f.path, cls, name)
            outer = self.enclosing_class(f, f.defs[cls][3], skip_namespaces=True) if f.language == "java" else None
            while hit is None and outer is not None:   # Java: an inner class calls its enclosing class's methods
                hit = self.class_member(f.path, outer, name)
                outer = self.enclosing_class(f, f.defs[outer][3], skip_namespaces=True)
            return hit
        qualified = f.defs[caller][2]
        if "." not in qualified:
            return None
        own = self._own_class(f, caller) if f.language == "cpp" else None
        hit = self.class_member(*own, name) if own else None     # its bases' too (`Parser::ExpectToken`)
        if hit:
            return hit
        hits = [h for h in self.ix.qualified.get(f"{qualified.rsplit('.', 1)[0]}.{name}", [])
                if self.files[h[0]].language == f.language]
        # several: overloads of one member (`_overload` picks by the arguments), the last as `members` keeps
        return hits[-1] if len(hits) == 1 or hits and f.language == "cpp" else None

    def enclosing_class(self, f: FileFacts, caller: int | None, skip_namespaces: bool = False) -> int | None:
        kinds = _container_kinds(f.language, skip_namespaces)
        while caller is not None and f.defs[caller][1] not in kinds:   # Rust's `impl Type` counts too
            caller = f.defs[caller][3]
        return caller

    # -- calls --------------------------------------------------------------------------------------------------
    def resolve_call(self, f: FileFacts, caller: int | None, name: str, receiver: str | None):
        """What ``receiver.name()`` (``name()`` without one) called in definition ``caller`` of ``f`` reaches:
        (path, def index, how), or ("unresolved", why). The receiver rules run in order, the first answer wins."""
        if receiver and f.language == "cpp" and "->" in receiver:
            receiver = receiver.replace("->", ".")        # `parent_->LookupRule()`, `builder_->status_->Info()`
        if receiver is None:
            hit = self.lookup_name(f, caller, name)
            if hit is None and (called := self._called_instance(f, caller, None, name)):
                return called[0], called[1], "annotation"
            return hit or ("unresolved", self._why(f, name))
        spec = LANGUAGES[f.language]
        for rule in (self._language_receiver, self._object_itself, self._local_receiver, self._module_receiver,
                     self._class_receiver, self._typed_receiver):
            hit = rule(f, caller, name, receiver, spec)
            if hit:
                return hit
        return self._guessed_receiver(f, caller, name, receiver, spec)

    def _language_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """Ruby's ``Request.new(env)`` and Rust's ``Self::new()``."""
        if name == "new" and f.language == "ruby" and _CHAIN.fullmatch(chain := receiver.replace("::", ".")):
            # `Request.new(env)`, `Rack::Request.new`: constructs the class (as `new Request()` elsewhere)
            hit = self._type_hit(f, caller, chain)
            if hit:
                return hit
        if receiver == "Self" and f.language == "rust":   # `Self::new()`: the type of the `impl` around
            impl = caller
            while impl is not None and f.defs[impl][1] != "impl":
                impl = f.defs[impl][3]
            hit = self._impl_method(f, impl, name) if impl is not None else None
            if hit:
                return hit[0], hit[1], "self"
        return None

    def _object_itself(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """``super().m()`` and ``self.m()`` / ``this.m()`` (also through ``var self = this``): always an answer."""
        if receiver in spec.super_names and spec.virtual_dispatch:     # super(), super.m(), base.M(), parent::m()
            cls = self.enclosing_class(f, caller)
            for target in self._bases(f.path, cls) if cls is not None else ():
                hit = self.class_member(*target, name)
                if hit:
                    return hit[0], hit[1], "inherited"
            # no base of the repository has it: a library's base does, unless a subclass with several bases
            # puts a class of ours next in line (a mixin's cooperative `super().__init__()`)
            linear = cls is not None and self._single_bases_below(f.path, cls)
            return "unresolved", "external:super" if linear else "super-unknown"
        if spec.member_assignments and receiver.isidentifier() and receiver not in spec.self_names:
            held = self._declared(f, caller, receiver)
            if held and held[0] is not None and held[1] == "var" and held[2] == "var:this":
                # `var self = this; function next() { self.route() }`: `this` of the function that said so
                return self.resolve_call(f, held[0], name, spec.self_names[0])
        if receiver in spec.self_names:
            return self._self_call(f, caller, name, receiver, spec)
        return None

    def _self_call(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        cls = self.enclosing_class(f, caller)
        if cls is None and (spec.implicit_this or spec.member_assignments) and caller is not None:
            # `this->x()` in `void B::Run() {`; `this.set()` in `app.defaultConfiguration = function () {`
            hit = self.member_of_own_class(f, caller, name)
            if hit:
                return hit[0], hit[1], "self"
        if cls is not None:
            hit = self.class_member(f.path, cls, name)
            if hit:
                method = "self" if hit[0] == f.path and f.defs[hit[1]][3] == cls else "inherited"
                return hit[0], hit[1], method
            if f.defs[cls][1] == "impl":
                hit = self._impl_method(f, cls, name)
                if hit:
                    return hit[0], hit[1], "self"
        hit = self._called_instance(f, caller, receiver, name)
        if hit:
            return hit[0], hit[1], "annotation"
        # a function outside any class whose `self` is annotated, made into a method later (Jinja2's
        # `def visitor(self: "CodeGenerator", node, frame)` returned by `_make_binop` and set on the class)
        typed = self.receiver_class(f, caller, receiver) if cls is None else None
        hit = self.class_member(*typed, name) if typed else None
        if hit:
            return hit[0], hit[1], "annotation"
        return "unresolved", "self-unknown"

    def _local_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """A call chained on one returning its own object, an object the file defines members on (JS), C's
        ``FN(Prepare)(self)`` and Rust's module paths."""
        chained = _last_call(receiver)
        if chained:
            inner = self.resolve_call(f, caller, chained[1], chained[0])
            if inner[0] != "unresolved" and self._returns_itself(inner):
                # `this.status(404).send()`, `q.where(x).run()`: a method returning its own object hands it on
                return self.resolve_call(f, caller, name, chained[0])
        if spec.member_assignments and _CHAIN.fullmatch(receiver) and \
                self._declared(f, caller, receiver.split(".")[0]) is None:
            # `obj.run()` where the file defines `obj.run` (`const obj = { run() {} }`, `obj.run = function`)
            own = [h for h in self.ix.qualified.get(f"{receiver}.{name}", []) if h[0] == f.path]
            if len(own) == 1:
                return own[0][0], own[0][1], "same_file"
        if f.language == "c" and receiver.isidentifier():
            # `FN(Prepare)(self)`: the function defined as `FN(Prepare)(...)`, qualified `FN.Prepare`: this file's,
            # else the one of the repository
            hits = [h for h in self.ix.qualified.get(f"{receiver}.{name}", []) if self.files[h[0]].language == "c"]
            own = [h for h in hits if h[0] == f.path]
            if own or len(hits) == 1:
                return (*(own or hits)[-1], "same_file" if own else "global_unique")
        if f.language == "rust" and ("::" in receiver or receiver in ("crate", "super") or receiver.isidentifier()):
            files = self._rust_module(f, receiver)        # `crate::de::from_str()`, `super::helper()`, `mod x;` x::f()
            hit = self._top_in(files, name) if files else None
            if hit:
                return hit[0], hit[1], "module_attr"
        return None

    def _module_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """A receiver bound by an import: a module (its function, or a class or variable of it) or an external
        name."""
        head = receiver.split(".")[0].split("->")[0].split("::")[0]
        whole = self.bindings[f.path].get(receiver)
        bind = whole or self.bindings[f.path].get(head)
        if bind and bind[0] == "module" and (f.path, receiver) in self.named_imports:
            # `import { timeoutProvider } from "./timeoutProvider"; timeoutProvider.setTimeout()`
            hit = self._export_member(bind[1], self.named_imports[(f.path, receiver)], name)
            if hit:
                return hit[0], hit[1], "module_attr"
        if bind and bind[0] == "module" and (f.path, head) not in self.imported_vars and \
                (f.path, head) not in self.named_imports:     # not a module's variable, not one module export
            attr = receiver[len(head) + 1:] if not whole and receiver != head else ""
            # `nodes.Const.from_untrusted()` (and `forms.CharField().clean()`) reaches the class's method, never a
            # function of the module; `signals.post_migrate.send()` the method of the module variable's class
            cls = (self._module_class(bind[1], attr.removesuffix("()"), spec)
                   or self._module_var_class(bind[1], attr)) if attr else None
            hit = self.class_member(*cls, name) if cls else self._top_in(bind[1], name) or \
                self._reexport(bind[1], name) or (self._default_member(bind[1], name) if not attr else None)
            if hit:
                return hit[0], hit[1], "module_attr"
            return "unresolved", "module-attr-unknown"
        if bind and bind[0] == "external":
            return "unresolved", f"external:{bind[1]}"
        return None

    def _class_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """``Foo.create()``, ``Thor::Util.find()``: a method of the class the receiver names."""
        if not (receiver.isidentifier() or receiver.replace("::", "").isidentifier() or
                f.language in _STATIC_TYPED and receiver.replace("$", "_").isidentifier()):    # `$Gson$Types`
            return None
        # `Thor::Util.find()`: the definitions of that qualified name first (a class nested in another that
        # its last name alone does not find), else what its last name finds
        targets = [h for q in dict.fromkeys((receiver.replace("::", "."), receiver)) if "::" in receiver
                   for h in self.ix.qualified.get(q, []) if self.files[h[0]].language == f.language]
        target = self.lookup_name(f, caller, receiver.split("::")[-1])
        target = self._constructed(target) if target and f.language in _STATIC_TYPED else target
        for t in [*targets, *([target] if target else [])]:
            if self.files[t[0]].defs[t[1]][1] not in spec.container_kinds:
                continue
            hit = self.class_member(t[0], t[1], name) or self._impl_method(self.files[t[0]], t[1], name)
            if hit:
                return hit[0], hit[1], "class_attr"
        if target is None and self._builtin_class(f, caller, receiver):
            return "unresolved", "external:builtins"      # `IOError.__init__(self, name)`, `object.__new__(cls)`
        return None

    def _typed_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """A receiver of a known type: declared, assigned an instance, a C# extension's, a literal's; or of a
        class of ours whose method is not ours to name."""
        hit = self._annotated_receiver(f, caller, receiver, name) or self._called_instance(f, caller, receiver, name)
        if hit:
            return hit[0], hit[1], "annotation"
        hit = self._extension(f, caller, receiver, name) if name in self.extensions else None
        if hit:
            return hit
        if self._literal(f, caller, receiver):
            return "unresolved", "external:builtins"      # `args.append(x)` after `args = []`
        cls = self.receiver_class(f, caller, receiver) if spec.self_names else None
        if cls is not None and self._external_base(*cls):
            # a class of the repository that lacks the method but has a base outside it (`SessionMixin(
            # MutableMapping)`: `session.get`): the base's method, no guess by name
            return "unresolved", "dynamic:external-base"
        if cls is not None and self._has_attribute(*cls, name):
            # `this.#retryer.continue()` where the interface Retryer declares `continue: () => Promise<unknown>`: a
            # function its object holds, no method found by its name elsewhere
            return "unresolved", "dynamic:attribute"
        return None

    def _guessed_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """An untyped receiver: the class it is named after, else the repository's only method of that name."""
        hit = self._named_after_type(f, receiver, name)
        if hit:
            return hit[0], hit[1], "receiver_name"
        hit = self._named_after_types(f, caller, receiver, name)
        if hit:
            return hit
        hits = self.ix.methods_in(name, f.language)
        if len(hits) == 1 and not self.ix.global_top.get(name) and name not in spec.builtin_methods and \
                spec.guess_unique_methods:
            # unique in the repository; a name the built-in types have too (`update`, `read`) is not unique where
            # it counts: measured on click, 18 of 21 such guesses were a dict's or a file's method
            if self._foreign(f, caller, receiver):
                return "unresolved", "dynamic:foreign-receiver"
            return hits[0][0], hits[0][1], "method_unique"
        return "unresolved", "dynamic" if hits else "unknown"

    def _extension(self, f: FileFacts, caller: int | None, receiver: str, name: str) -> tuple[str, int, str] | None:
        """C#: the one extension method ``name`` (``static int Count(this Foo f)``) for the receiver's type: its
        class of the repository or a base of it, else the type it is declared with (``AppDomain domain``); one
        on a type parameter (``this T x``) fits any receiver. Its own methods came first (``_annotated_receiver``)."""
        cls = self.receiver_class(f, caller, receiver)
        if cls is not None:
            names, todo = set(), [cls]
            while todo and len(names) < 50:
                c = todo.pop()
                names.add(self.files[c[0]].defs[c[1]][0])
                todo.extend(self._bases(*c))
        else:
            declared = self._declared_name(f, caller, receiver)
            names = {declared.rpartition(".")[2]} if declared else set()
        fits = [(p, i) for p, i, extended in self.extensions[name] if self.files[p].language == f.language and
                (extended == "?" or extended.rpartition(".")[2] in names)]
        return (fits[0][0], fits[0][1], "extension") if len(fits) == 1 else None

    def _declared_name(self, f: FileFacts, caller: int | None, receiver: str) -> str | None:
        """The type a receiver of one name is declared with (a parameter, a local, a field), as written."""
        if not receiver.isidentifier():
            return None
        found = self._declared(f, caller, receiver)
        if found is not None:
            value = found[2] if found[1] == "param" else found[2].removeprefix("class:")
            return value if value and ":" not in value and "|" not in value else None
        field = self._own_field_type(f, caller, receiver)
        return field[2] if field and ":" not in field[2] else None

    def _builtin_class(self, f: FileFacts, caller: int | None, name: str) -> bool:
        """Whether ``name`` is one of Python's built-in classes (``BUILTIN_CLASSES``), or one of JavaScript's global
        objects (``SCRIPT_GLOBALS``: ``Object.create(null)`` is no ``TRPCBuilder.create``), that no parameter,
        variable or import of the file shadows."""
        builtin = BUILTIN_CLASSES if f.language == "python" else SCRIPT_GLOBALS \
            if f.language in SCRIPT_LANGUAGES else ()
        return name in builtin and self._declared(f, caller, name) is None and name not in self.bindings[f.path]

    def _literal(self, f: FileFacts, caller: int | None, receiver: str) -> bool:
        """A name only ever assigned literals (``args = []``; ``FILTERS = {...}`` in a module, imported as
        ``DEFAULT_FILTERS``): its methods are the built-in type's, never the repository's."""
        if not receiver.isidentifier() or not LANGUAGES[f.language].self_names:
            return False
        var = self._variable(f, caller, receiver)
        return bool(var and var[2] and all(v.startswith("literal:") for v in var[2].split("|")))

    def _module_class(self, modules: list[str], attr: str, spec) -> tuple[str, int] | None:
        """The class ``attr`` of the module (``nodes.Const`` in ``nodes.Const.from_untrusted()``), if it is one."""
        cls = (self._top_in(modules, attr) or self._reexport(modules, attr)) if attr.isidentifier() else None
        return cls if cls and self.files[cls[0]].defs[cls[1]][1] in spec.container_kinds else None

    def _module_var_class(self, modules: list[str], attr: str) -> tuple[str, int] | None:
        """The class of the module variable ``attr`` of the module (``post_migrate = Signal()``), if known."""
        home = self._var_home(modules, attr) if attr.isidentifier() else None
        return self._value_class(self.files[home[0]], None, self.files[home[0]].module_vars[home[1]]) \
            if home else None

    def _foreign(self, f: FileFacts, caller: int | None, receiver: str, depth: int = 0) -> bool:
        """Whether a receiver named by one name is declared of a type that is not the repository's, so that a
        method of the repository is no guess for it: a parameter annotated with a class no definition of the
        repository is (``elem: etree.Element``), a variable assigned what a call into an external module returns
        (``div = etree.SubElement(parent, "div")``) or an instance of an external class, or what a method of such
        an object yields (``for el in doc.iter()``, ``doc: etree.Element``), its attributes; a variable assigned
        several values when each of them is. On Markdown 3.7 this removed 11 of the 16 testable guesses that never ran
        (`el.set()`: the repository's only `set` is `State.set`) and none that ran (eval/callgraph_oracle.py)."""
        if f.language in _STATIC_TYPED and caller is not None and not receiver.isidentifier():
            return self._foreign_static(f, caller, receiver)
        if not receiver.isidentifier() or caller is None or not LANGUAGES[f.language].self_names:
            return False
        found = self._declared(f, caller, receiver)
        if found is None and (var := self._variable(f, caller, receiver)):   # `from .log import logger`
            f, found = var[0], (var[1], "var", var[2])
        if found is None and (field := self._own_field_type(f, caller, receiver)):
            return self._foreign_type(field)          # a field's declared type (`ExecutorService exec;`)
        if found is None and f.language in _STATIC_TYPED and receiver[0].isupper() and \
                not receiver.isupper() and self.lookup_name(f, caller, receiver) is None:
            # `Integer.parseInt(s)`, `Math.Max(a, b)`: a class that is not the repository's
            return not self._type_somewhere(f, receiver)
        if found is None or not found[2]:
            return False
        scope, kind, value = found
        if f.language in _STATIC_TYPED:      # declared types only: C#'s imports of namespaces name no module
            return self._foreign_type((f.path, scope, value)) if kind == "param" else \
                all(self._foreign_declared(f, scope, one) for one in value.split("|"))
        if kind == "param":
            return self._unknown_type(f, scope, value.removeprefix("[]"))
        # assigned several values, each of them (`c = copy(md)` beside `c = MultiDict()` is the repository's)
        return all(self._foreign_value(f, scope, one, depth) for one in value.split("|"))

    def _unknown_type(self, f: FileFacts, scope: int | None, name: str) -> bool:
        """Whether no type of the repository is what ``name`` names (of a union, ``union:A,B``, any member)."""
        return all(self._type_named(f, scope, one) is None for one in _members(name))

    def _foreign_type(self, typed: tuple[str, int | None, str]) -> bool:
        """Whether a declared type (path, scope, type) names a class that is not the repository's."""
        path, scope, value = typed
        if not value or value.startswith(("call:", "member:", "value:", "wraps:", "is:")) or self._typing_depth > 4:
            return False
        f = self.files[path]
        self._typing_depth += 1         # a chain (`a.B`) is looked up through calls that may ask again
        try:
            return all(self._type_named(f, scope, one) is None and not self._type_somewhere(f, one.rpartition(".")[2])
                       for one in _members(value.removeprefix("[]")))
        finally:
            self._typing_depth -= 1

    def _type_somewhere(self, f: FileFacts, name: str) -> bool:
        """Whether the repository defines a type of that name in ``f``'s language (a C# partial class, a name
        in two namespaces: not found from ``f`` by name, yet perhaps what it means)."""
        return any(self.files[p].defs[i][0] == name for p, i in self.ix.types_in(name.lower(), f.language))

    def _foreign_static(self, f: FileFacts, caller: int, receiver: str) -> bool:
        """``_foreign`` of a Java, C# or C++ receiver that is not one name, by declared types: a cast (``((Class<?>)
        t)``), a field through ``this`` (``this.factories``, a ``List``), what a method of the repository is
        declared to return (``getAsNumber()``, a ``Number``)."""
        if receiver.startswith(('"', '@"', '$"')):
            return True                                 # `"abc".length()`: a String's
        cast = _cast_or_new(receiver)
        if cast:                                        # `((Class<?>) t)`, `new BigDecimal(s)`
            return self._foreign_type((f.path, caller, cast))
        head, _, attr = receiver.partition(".")
        if head in LANGUAGES[f.language].self_names and attr.isidentifier():
            own = self._own_class(f, caller)
            typed = self._attribute_type(*own, attr) if own is not None else None
            return bool(typed) and self._foreign_type(typed)
        called = _called_chain(receiver)
        if called and called.rpartition(".")[2] in _OBJECT_METHODS:
            return True                                 # `x.getClass().getName()`: a Class's
        return self._foreign_declared(f, caller, f"call:{called}") if called else False

    def _foreign_declared(self, f: FileFacts, scope: int | None, value: str) -> bool:
        """Java / C# / C++: whether a variable's value (``class:Foo``, ``call:a.f``) is of a declared type that is not
        the repository's; for a call, the type the method of the repository it reaches is declared to return."""
        kind, _, chain = value.partition(":")
        if kind == "class":
            return self._foreign_type((f.path, scope, chain))
        if kind != "call" or self._typing_depth > 4:     # `a = b.f(); b = a.g()`: no endless round
            return False
        owner, _, last = chain.rpartition(".")
        self._typing_depth += 1
        try:
            hit = self.resolve_call(f, scope, last, owner or None)
        finally:
            self._typing_depth -= 1
        rtype = self.returns.get((hit[0], hit[1])) if hit[0] != "unresolved" else None
        return bool(rtype) and self._foreign_type((hit[0], self.files[hit[0]].defs[hit[1]][3], rtype))

    def _foreign_value(self, f: FileFacts, scope: int | None, value: str, depth: int) -> bool:
        """``_foreign`` of one value a variable is assigned (``extract._value_of``'s notation)."""
        what, _, chain = value.partition(":")
        items, what, head = what.startswith("iter"), what.removeprefix("iter"), chain.split(".")[0]
        if what == "class":
            return self._unknown_type(f, scope, chain)
        if what not in ("call", "attr", "var") or head in LANGUAGES[f.language].self_names:
            return False
        bind = self.bindings[f.path].get(head)
        if bind and bind[0] == "external":
            return True                   # `etree.SubElement(...)`
        # `for el in doc.iter()`, `doc.text`, `el = doc` for a foreign `doc`; not what a method of one returns,
        # which may be the repository's (`ctx.ensure_object(ScriptInfo)`)
        return depth < 2 and (what in ("var", "attr") or items and "." in chain) and \
            self._foreign(f, scope, head, depth + 1)

    def _narrowed_call(self, f: FileFacts, caller: int | None, name: str, value: str) -> tuple | None:
        """``x.m()`` where the code around the call says what class ``x`` is (``CallSite.narrowed``); none of the
        repository's (``except KeyError as e``): no guess by a unique method name either."""
        cls = self._value_class(f, caller, value)
        hit = self.class_member(*cls, name) if cls else None
        if hit:
            return hit[0], hit[1], "annotation"
        if all(one.startswith("class:") for one in value.split("|")) and \
                not any(self._type_named(f, caller, one.partition(":")[2]) for one in value.split("|")):
            return "unresolved", "dynamic:foreign-receiver"
        return None

    def _annotated_receiver(self, f: FileFacts, caller: int | None, receiver: str,
                            name: str) -> tuple[str, int] | None:
        """`ctx.fail()` in `def f(ctx: Context)`, `self.type.convert()` where `self.type: ParamType`: the method
        (or an inherited one) of the receiver's annotated class (see ``receiver_class``)."""
        cls = self.receiver_class(f, caller, receiver)
        return self.class_member(*cls, name) if cls else None

    def _called_instance(self, f: FileFacts, caller: int | None, receiver: str | None,
                         name: str) -> tuple[str, int] | None:
        """`self.type(value)` where `self.type: ParamType`, `proc(value)` where `proc = convert_type(...)` returns
        a ParamType: calling an instance runs its class's ``__call__``. Called, an object of a class without one
        can only be the class itself (`self.context_class(...)`, `context_class: t.Type[Context]`): it constructs."""
        cls = self.receiver_class(f, caller, f"{receiver}.{name}" if receiver else name)
        if cls is None:
            return None
        return self.class_member(*cls, "__call__") or (cls if self.files[cls[0]].defs[cls[1]][1] == "class" else None)

    def receiver_class(self, f: FileFacts, caller: int | None, receiver: str) -> tuple[str, int] | None:
        """The class of a receiver as annotations tell it (Python, TypeScript; JavaScript: ``new X()``): ``self`` /
        ``this``, a parameter annotated with a class of the repository, or a local variable assigned such an object (``parser = self.make_parser(ctx)``, by the
        callee's return annotation; ``for param in self.get_params(ctx)``, by an item annotation), in the caller
        or a function around it unless a nearer one shadows it; then each attribute (``ctx.command``,
        ``self.type``) through the attribute types of that class or its bases. A receiver that is one call is
        what the call returns; one that indexes (``subscriptions[i]``) an item of what it indexes."""
        key = (f.path, caller, receiver)
        if key not in self._receivers:
            self._receivers[key] = self._receiver_class(f, caller, receiver)
        return self._receivers[key]

    def _receiver_class(self, f: FileFacts, caller: int | None, receiver: str) -> tuple[str, int] | None:
        if not LANGUAGES[f.language].self_names and f.language != "go":   # Go: typed receivers and parameters
            return None
        cast = _TS_CAST.fullmatch(receiver) if f.language in ("typescript", "tsx") else None
        if cast:                          # `(this[$mobx] as ObservableArrayAdministration).atom_`: that class's
            return self._through_attributes(self._type_named(f, caller, cast.group(2)), cast.group(3).split(".")[1:])
        called = _called_chain(receiver)
        if called:                        # `innerFrom(notifier).subscribe()`: what the call returns
            return self._value_class(f, caller, f"call:{called}")
        cast = _cast_or_new(receiver) if f.language in _STATIC_TYPED else None
        if cast:                          # `((JsonObject) e).add(...)`, `new Foo(x).run()`: Java / C#, that class
            return self._type_named(f, caller, cast)
        indexed = _SUBSCRIPTED.fullmatch(receiver)
        if indexed:                       # `subscriptions[s].unsubscribe()`: an item of what it indexes
            return self._value_class(f, caller, item_of(indexed.group(1)))
        if not _CHAIN.fullmatch(receiver):
            return None
        head, *attrs = receiver.split(".")
        # `cls` is also a plain parameter's name (`def argument(cls: t.Type[Argument] = None)`): declared, it is that
        cls = self._name_class(f, caller, head) if head not in LANGUAGES[f.language].self_names or \
            self._declared(f, caller, head) else None
        if cls is None and head in LANGUAGES[f.language].self_names:
            cls = self._own_class(f, caller) if caller is not None else None
        elif cls is None and (field := self._own_field_type(f, caller, head)):
            cls = self._typed(field, items=False)     # Java / C#: `exec.submit()` where `exec` is a field
        return self._through_attributes(cls, attrs)

    def _through_attributes(self, cls: tuple[str, int] | None, attrs: list[str]) -> tuple[str, int] | None:
        """The class of ``attrs`` (``ctx.command.params``: ``command``, then ``params``) read from an object of ``cls``
        in turn, by the attribute types of each class."""
        i = 0
        while i < len(attrs):
            typed = self._attribute_type(*cls, attrs[i]) if cls else None
            if typed is None and cls and i + 1 < len(attrs):
                # `this.interceptors.request` of `this.interceptors = {request: new InterceptorManager()}`
                i += 1
                typed = self._attribute_type(*cls, f"{attrs[i - 1]}.{attrs[i]}")
            cls = self._typed(typed, items=False) if typed else None
            i += 1
        return cls

    def _own_field_type(self, f: FileFacts, caller: int | None, name: str) -> tuple[str, int | None, str] | None:
        """The declared type of the field (or property) ``name`` of the class around ``caller``, or of a base, as
        (path, scope, type) for ``_typed``: a bare name that no parameter or local declares, in a language whose
        methods reach their class's members without ``this`` (and whose declarations give types: Java, C#, C++)."""
        if caller is None or not LANGUAGES[f.language].implicit_this or not name.isidentifier() or \
                self._declared(f, caller, name) is not None:
            return None
        own = self._own_class(f, caller)
        return self._attribute_type(*own, name) if own is not None else None

    def _own_class(self, f: FileFacts, caller: int) -> tuple[str, int] | None:
        """The class the method ``caller`` belongs to: the one around it, or for a C++ method defined out of line
        (``void Builder::Build() {``, qualified ``Builder.Build``) the one class of that qualified name."""
        cls = self.enclosing_class(f, caller)
        if cls is not None or f.language != "cpp" or "." not in f.defs[caller][2]:
            return (f.path, cls) if cls is not None else None
        hits = [h for h in self.ix.qualified.get(f.defs[caller][2].rsplit(".", 1)[0], [])
                if self.files[h[0]].language == "cpp" and self.files[h[0]].defs[h[1]][1] in _TYPE_KINDS]
        return hits[0] if len(hits) == 1 else None

    def _declared(self, f: FileFacts, scope: int | None, name: str) -> tuple[int, str, str] | None:
        """Where ``name`` is bound seen from ``scope`` (the nearest function first): (that scope, "param" or
        "var", its annotated type or its assigned value)."""
        params, local = self.param_types.get(f.path) or {}, self.var_types.get(f.path) or {}
        while scope is not None:
            if name in params.get(scope, {}):
                return scope, "param", params[scope][name]
            if name in local.get(scope, {}):
                return scope, "var", local[scope][name]
            scope = f.defs[scope][3]
        return (None, "var", f.module_vars[name]) if name in f.module_vars else None

    def _name_class(self, f: FileFacts, caller: int | None, name: str) -> tuple[str, int] | None:
        found = self._declared(f, caller, name)
        if found is not None and found[1] == "param":
            typed = self._declared_type(f, found, name)
            return self._typed(typed, items=False) if typed else None
        var = self._variable(f, caller, name)
        return self._value_class(*var) if var else None

    def _variable(self, f: FileFacts, scope: int | None, name: str) -> tuple[FileFacts, int | None, str] | None:
        """What the variable ``name`` seen from ``scope`` is assigned (``extract._value_of``'s notation), with the
        file and the scope to read that in: a local or module variable (``_declared``), else a module's variable
        imported by name (``from ._compat import _default_text_stdout``)."""
        found = self._declared(f, scope, name)
        if found is not None:
            return (f, found[0], found[2]) if found[1] == "var" else None
        held = self.imported_vars.get((f.path, name))
        if held is None and f.language == "go":      # a package's variables are seen from all its files
            near = [p for p in self.ix.dirs[posixpath.dirname(f.path)]
                    if p != f.path and name in self.files[p].module_vars and self.files[p].language == "go"]
            held = (near[0], name) if len(near) == 1 else None
        return (self.files[held[0]], None, self.files[held[0]].module_vars[held[1]]) if held else None

    def _declared_type(self, f: FileFacts, found: tuple[int, str, str], name: str) -> tuple[str, int | None, str] | None:
        """The type a binding of ``name`` (``_declared``) is annotated with, for ``_typed``: a parameter's (or the
        one of the method it overrides), a variable's (``subs: Subject[]``, a ``class:`` value); None for a
        variable known only by what it is assigned."""
        scope, kind, value = found
        if kind == "param":
            return (f.path, scope, value) if value else (self._overridden_param_type(f.path, scope, name)
                                                         or self._fixture_type(f, scope, name))
        if value.startswith("class:") and "|" not in value:
            return f.path, scope, value.removeprefix("class:")
        return None

    def _fixture_type(self, f: FileFacts, function: int, name: str) -> tuple[str, int | None, str] | None:
        """pytest hands a test (``test*``) or a fixture the fixture its parameter names: the parameter is what
        that fixture returns (``def runner(request): return CliRunner()``), found in the module, then in the
        conftest.py files of its directory and the ones above; as (path, scope, ``call:name``) for ``_typed``."""
        d = f.defs[function]
        if f.language != "python" or not (d[0].startswith("test") or function in f.fixtures):
            return None
        fixture = self._fixture(f.path, name)
        return (fixture[0], None, f"call:{name}") if fixture else None

    def _fixture(self, path: str, name: str) -> tuple[str, int] | None:
        directory = posixpath.dirname(path)
        for where in (path, *(posixpath.join(d, "conftest.py") for d in _directories_up(directory))):
            f = self.files.get(where)
            if f is None or not f.fixtures:
                continue
            found = [i for i in f.fixtures if f.defs[i][0] == name]
            if found:
                return where, found[-1]
        return None

    def _overridden_param_type(self, path: str, method: int, name: str,
                               depth: int = 0) -> tuple[str, int | None, str] | None:
        """An unannotated parameter of an override takes the annotation of the same parameter of the method it
        overrides (``def extendMarkdown(self, md)`` under ``Extension.extendMarkdown(self, md: Markdown)``), as
        type checkers infer it; as (path, scope, type) for ``_typed``: the type is written in the base's file."""
        d = self.files[path].defs[method]
        if self.files[path].language != "python" or d[1] != "method" or d[3] is None or depth >= _MAX_BASE_DEPTH:
            return None                         # (TypeScript types such a parameter `any`)
        for base in self._bases(path, d[3]):
            hit = self.class_member(*base, d[0])
            if hit is None or hit == (path, method):
                continue
            declared = (self.param_types.get(hit[0]) or {}).get(hit[1], {})
            if name not in declared:
                return None                     # renamed: positions are not tracked
            if declared[name]:
                return hit[0], hit[1], declared[name]
            return self._overridden_param_type(hit[0], hit[1], name, depth + 1)
        return None

    def _value_class(self, f: FileFacts, scope: int | None, value: str) -> tuple[str, int] | None:
        """The class of a local variable's value (``extract._value_of``); of several values (``a|b``), the one
        class they all are. ``iter``/``sub`` before the kind: an item of it (iterated, subscripted)."""
        if not value:                     # a Go local bound to something untyped (it hides outer ones)
            return None
        if "|" in value:
            found = {self._value_class(f, scope, one) for one in value.split("|")}
            return found.pop() if len(found) == 1 else None
        kind, _, chain = value.partition(":")
        items, kind = kind.startswith("iter"), kind.removeprefix("iter")
        subscript, kind = kind.startswith("sub"), kind.removeprefix("sub")
        if kind == "is":                  # a type guard function held in a variable: no object of that type
            return None
        if kind == "members":             # `return { batch, schedule }` of the functions it defines: its members
            return (f.path, scope) if scope is not None and not (items or subscript) else None
        if kind == "class":
            return self._type_named(f, scope, chain)
        if kind == "name":
            return self._named_value_class(f, scope, chain, items, subscript)
        if self._typing_depth > 4:        # `x = x.parent` and the like
            return None
        self._typing_depth += 1
        try:
            return self._derived_value_class(f, scope, kind, chain, items, subscript)
        finally:
            self._typing_depth -= 1

    def _named_value_class(self, f: FileFacts, scope: int | None, chain: str, items: bool,
                           subscript: bool) -> tuple[str, int] | None:
        """The items of a parameter or variable annotated as a collection (``Shape[]``), or of what it holds."""
        found = self._declared(f, scope, chain)
        typed = self._declared_type(f, found, chain) if found else None
        if typed is None and found and found[1] == "var" and found[2].startswith(("call:", "attr:", "each:")) and \
                "|" not in found[2] and (items or subscript) and self._typing_depth <= 4:
            # `children := cmd.Commands(); for _, c := range children`: an item of what the call returns;
            # `const list = globalState.pendingUnobservations; list[i]`: of what the attribute holds
            self._typing_depth += 1
            try:
                return self._value_class(f, found[0], _item_prefix(items, subscript) + found[2])
            finally:
                self._typing_depth -= 1
        return self._typed(typed, items, subscript) if typed else None

    def _derived_value_class(self, f: FileFacts, scope: int | None, kind: str, chain: str, items: bool,
                             subscript: bool) -> tuple[str, int] | None:
        """The class of a value made from another: a callback's parameter, a mapped array, a variable, an
        attribute, a call's result."""
        if kind == "cbparam":         # `operate((source, subscriber) => ...)`: as `operate` declares them
            callee, k, j = chain.rsplit(":", 2)
            typed = self._callback_param_type(f, scope, callee, int(k), j)
            return self._typed(typed, items, subscript) if typed else None
        if kind == "each":            # `xs.map((x) => x.observer)`: its items are what the function gives
            return self._value_class(f, scope, chain) if items or subscript else None
        if kind == "var" and chain in LANGUAGES[f.language].self_names and scope is not None and \
                not (items or subscript):
            found = self._declared(f, scope, chain)
            if not (found and found[1] == "param" and found[2]):
                # `return self` (a builder's `where(x)`): the object itself (an annotated `self` says more)
                return self._own_class(f, scope)
        if kind == "var":             # `ctx = __self`; `cls = Argument`: the class itself (calling it constructs)
            return self._name_class(f, scope, chain) or (None if items or subscript else
                                                         self._type_named(f, scope, chain))
        owner, _, last = chain.rpartition(".")
        called = self._declared(f, scope, last) if kind == "call" and not owner else None
        if called and called[1] == "param" and called[2].startswith("(") and ")" in called[2]:
            # `const resource = resourceFactory()` for `resourceFactory: () => Unsubscribable`: what it returns
            returned = called[2][called[2].index(")") + 1:]
            return None if items or subscript or not returned else self._type_named(f, called[0], returned)
        if kind == "call" and (items or subscript) and last in _SAME_ARRAY and owner and \
                f.language in SCRIPT_LANGUAGES and _CHAIN.fullmatch(owner):
            # `windows.slice()`, `subs.filter(...)`: an array of what the array holds
            what = "name" if "." not in owner else "attr"
            return self._value_class(f, scope, f"{_item_prefix(items, subscript)}{what}:{owner}")
        if kind == "attr":
            cls = self.receiver_class(f, scope, owner)
            typed = self._attribute_type(*cls, last) if cls else None
            return self._typed(typed, items, subscript) if typed else None
        return self._call_value_class(f, scope, kind, owner, last, items, subscript)

    def _call_value_class(self, f: FileFacts, scope: int | None, kind: str, owner: str, last: str, items: bool,
                          subscript: bool) -> tuple[str, int] | None:
        """The class of what ``owner.last()`` returns (a constructor's class, an annotated or inferred return),
        or the type a guard ``last(x)`` narrows to."""
        hit = self.resolve_call(f, scope, last, owner or None)
        if kind == "guard" and hit[0] == "unresolved" and not owner:
            # `export var isObservableMap = ... as (thing: any) => thing is ObservableMap`: a guard held in a variable
            var = self._variable(f, scope, last)
            return self._typed((var[0].path, var[1], var[2][3:]), False) \
                if var and var[2].startswith("is:") and not (items or subscript) else None
        if hit[0] == "unresolved" and owner and (last in ("get", "pop", "setdefault") or last in ("shift", "at")
                                                  and f.language in SCRIPT_LANGUAGES) and not items:
            # `option = self._short_opt.get(opt)` of a mapping or a list: what indexing it gives
            return self._value_class(f, scope, item_of(owner))
        if hit[0] == "unresolved":
            return None
        d = self.files[hit[0]].defs[hit[1]]
        rtype = self.returns.get((hit[0], hit[1]))
        if kind == "guard":             # `if (isObservableSet(obj))`: the type its predicate names
            return self._typed((hit[0], d[3], rtype[3:]), False) if rtype and rtype.startswith("is:") and \
                not (items or subscript) else None
        if d[1] in _TYPE_KINDS:
            return None if items or subscript else (hit[0], hit[1])        # a constructor
        if rtype and rtype.startswith(("wraps:", "is:")):   # a wrapper function (_factory_made), a type guard
            return None
        if rtype and rtype.startswith("value:"):        # unannotated: what it returns, in its own scope
            return None if items or subscript else self._value_class(self.files[hit[0]], hit[1], rtype[6:])
        # `subcall:cmd.Commands` (Go: `for _, c := range cmd.Commands()`): an item of what it returns
        return self._typed((hit[0], d[3], rtype), items, subscript) if rtype else None

    def _typed(self, typed: tuple[str, int | None, str], items: bool,
               subscript: bool = False) -> tuple[str, int] | None:
        """The class a type written in ``path`` (inside definition ``scope``) names: ``X``, or with ``items``
        the items of ``[]X``; ``G[]X`` is class ``G`` whose items are ``X`` when ``G`` is iterable (defines
        ``__iter__``); ``call:f`` (an attribute assigned ``f(...)``) is what ``f`` returns; ``member:T.x`` (one
        assigned an attribute of a parameter annotated ``T``) is what ``T``'s ``x`` is. With ``subscript``,
        what indexing gives: an item of ``[]X`` (of ``G[]X`` when ``G`` defines ``__getitem__``) or a value of
        the mapping ``{}V``."""
        path, scope, name = typed
        f = self.files[path]
        if name.startswith("call:"):
            return None if subscript else self._value_class(f, scope, ("iter" if items else "") + name)
        if name.startswith("member:"):
            return self._member_typed(f, scope, name.removeprefix("member:"), items, subscript)
        if subscript and name.startswith("{}"):
            return self._type_named(f, scope, name[2:])
        container, generic, item = name.partition("[]")
        if not (items or subscript):
            return self._type_named(f, scope, container) if container else None
        if not generic and container and f.language == "go":    # `s[i]` of `s byName`, `type byName []*Command`
            named = self._type_named(f, scope, container)
            under = self.underlying.get(named) if named else None
            return self._typed((named[0], self.files[named[0]].defs[named[1]][3], under), items, subscript) \
                if under else None
        if not generic or (items and subscript):
            return None
        if container:
            cls = self._type_named(f, scope, container)
            if cls is None or not self.class_member(*cls, "__getitem__" if subscript else "__iter__"):
                return None
        return self._type_named(f, scope, item)

    def _member_typed(self, f: FileFacts, scope: int | None, member: str, items: bool,
                      subscript: bool) -> tuple[str, int] | None:
        """``_typed`` of ``T.x``: the type of attribute ``x`` of the class ``T`` names."""
        owner, _, attr = member.rpartition(".")
        cls = self._type_named(f, scope, owner)
        typed = self._attribute_type(*cls, attr) if cls and self._typing_depth <= 4 else None
        if typed is None:
            return None
        self._typing_depth += 1              # `self.x = other.x`, `other: Same`: each step is one more level
        try:
            return self._typed(typed, items, subscript)
        finally:
            self._typing_depth -= 1

    def _attribute_type(self, path: str, cls: int, attr: str, depth: int = 0) -> tuple[str, int | None, str] | None:
        """The type of attribute ``attr`` of class ``cls`` (or of a base) by its attribute types, as (path,
        scope, type) for ``_typed``."""
        name = self.attr_types.get((path, cls), {}).get(attr)
        if name:
            return path, self.files[path].defs[cls][3], name
        return self._from_bases(path, cls, depth, lambda p, c, d: self._attribute_type(p, c, attr, d))

    def _type_named(self, f: FileFacts, scope: int | None, name: str) -> tuple[str, int] | None:
        hit = self._type_hit(f, scope, name.partition("[]")[0])     # `Registry[]Processor`: a Registry
        if hit is None and f.language in SCRIPT_LANGUAGES and name.replace("$", "_").isidentifier():
            return self._class_object(f, scope, name)
        return (hit[0], hit[1]) if hit else None

    def _class_object(self, f: FileFacts, scope: int | None, name: str) -> tuple[str, int] | None:
        """JavaScript/TypeScript: the class a name that is no type holds, when it is a parameter or a variable
        declared a class object (``YDecoder`` in ``new YDecoder(d)`` for ``@param {typeof UpdateDecoderV2}
        YDecoder``: ``typeof X`` is read as ``X``, as Python's ``Type[X]``). ``new`` of an object that is no class
        object would not run, so the declared type says which class is made."""
        found = self._declared(f, scope, name)
        typed = self._declared_type(f, found, name) if found and self._typing_depth <= 4 else None
        if typed is None:
            return None
        self._typing_depth += 1
        try:
            cls = self._typed(typed, items=False)
        finally:
            self._typing_depth -= 1
        return cls if cls and self._def_kind(cls) == "class" else None

    def _made_union(self, f: FileFacts, caller: int | None, name: str) -> list[str]:
        """The ids of the classes ``new YDecoder(d)`` may make, where ``YDecoder`` is declared a union of class
        objects (``typeof UpdateDecoderV1 | typeof UpdateDecoderV2``); [] unless every member is a class of the
        repository."""
        classes = self._union_classes(f, caller, name) if f.language in SCRIPT_LANGUAGES else None
        if not classes or not all(classes) or any(self._def_kind(cls) != "class" for cls in classes):
            return []
        return list(dict.fromkeys(self.files[path].ids[i] for path, i in classes))

    def _type_hit(self, f: FileFacts, scope: int | None, name: str) -> tuple[str, int, str] | None:
        """(path, def index, how it was found) of the type a name or a chain names, else None."""
        owner, _, last = name.rpartition(".")
        if owner and _CHAIN.fullmatch(name):     # `exceptions.UsageError`: through the module (or class) named
            hit = self.resolve_call(f, scope, last, owner)
            target = hit if hit[0] != "unresolved" else None
        else:
            target = self.lookup_name(f, scope, name) if name else None
        if name and (target is None or self._def_kind(target) not in _TYPE_KINDS) and not owner and \
                f.language in _STATIC_TYPED and name not in self.bindings[f.path]:
            # the one type of that name (`LinePrinter`: a header's struct beside its out-of-line constructor,
            # which a bare name finds as well; a nested `Jobserver::Client`), unless an import names another
            types = [h for h in self.ix.types_in(name.lower(), f.language) if self.files[h[0]].defs[h[1]][0] == name]
            if len(types) == 1 or types and self._one_type(types):
                target = (*types[0], "global_unique")
        if target is None:
            return None
        target = self._constructed(target)
        kind = self._def_kind(target)
        # a Go named type (`type byName []*Command`) has methods too; a TypeScript alias of an object type
        # (`type QueryObserverMatch = { observer: QueryObserver }`) has typed properties
        return target if kind in _TYPE_KINDS or kind == "type" and (f.language == "go" or
                                                                    tuple(target[:2]) in self.attr_types) else None

    def _def_kind(self, hit: tuple) -> str:
        return self.files[hit[0]].defs[hit[1]][1]

    def _constructed(self, hit: tuple) -> tuple:
        """The class for a hit on its constructor (a method named as its class: inside the class, ``Foo`` finds
        Foo's constructor first), else the hit."""
        defs = self.files[hit[0]].defs
        parent = defs[hit[1]][3]
        if parent is not None and defs[hit[1]][1] == "method" and defs[parent][0] == defs[hit[1]][0] and \
                defs[parent][1] in _TYPE_KINDS:
            return (hit[0], parent, *hit[2:])
        return hit

    def _named_after_type(self, f: FileFacts, receiver: str, name: str) -> tuple[str, int] | None:
        """`constructorConstructor.get()`, `this.subscriber.next()`, `builder_->Build()`, `layer.handle_request()`:
        a receiver (a field, a variable; C++ members' trailing and Python's leading underscores aside) named after
        the one type of that name in the repository that has such a method (in JavaScript, a constructor function
        whose prototype has it) is, by the usual convention, of that type."""
        last = re.split(r"\.|->|::", receiver)[-1].strip("_")
        if not last.isidentifier() or last.lower() == last.upper():
            return None
        types = self.ix.types_in(last.lower(), f.language)
        if len(types) == 1:
            return self.class_member(types[0][0], types[0][1], name)
        if LANGUAGES[f.language].member_assignments and not types:
            # a constructor function and its prototype: `layer.handle_request()`, `Layer.prototype.handle_request`
            hits = [h for h in self.ix.qualified.get(f"{last[0].upper()}{last[1:]}.prototype.{name}", [])
                    if self.files[h[0]].language == f.language]
            if len(hits) == 1:
                return hits[0]
        return None

    def _named_after_types(self, f: FileFacts, caller: int | None, receiver: str,
                           name: str) -> tuple[str, int, str] | None:
        """Python: `app_config.get_model()`, `field.get_choices()`, `self.lhs.output_field.get_internal_type()`: a
        receiver named after a class (`app_config`: AppConfig), or whose last word is (`output_field`: Field), is of
        the one such class that has the method. Several classes may have that name (Django has a model `Field`
        and a form `Field`): the method narrows them, and a class of the tests never names a receiver outside the
        tests. A receiver declared of a type outside the repository is no guess (``_foreign``)."""
        if f.language != "python":
            return None
        last = receiver.split(".")[-1].strip("_")
        key = (f.path, caller, receiver)
        if not last.isidentifier() or key in self._guessing:    # _foreign may resolve a chain that leads here
            return None
        words = last.lower().split("_")
        test = is_test_path(f.language, f.path)
        # the last word as the end of a class's name (`compiler`: SQLCompiler), unless it names what the language
        # has already (`self.file.write()`, `settings_dict.pop()`: a file, a dict, not ContentFile or QueryDict)
        ending = [("~", words[-1])] if words[-1] not in _BUILTIN_WORDS else []
        tiers = [("", "".join(words))] + [("", words[-1])] * (len(words) > 1) + ending
        for tier, typename in tiers:
            memo = (tier + typename, name, f.language, test)
            if memo not in self._type_methods:
                named = self.ix.types.get(typename, []) if not tier else self._types_ending(typename)
                types = [t for t in named if self.files[t[0]].language == f.language
                         and (test or not is_test_path(f.language, t[0]))]
                self._type_methods[memo] = ({hit for t in types if (hit := self.class_member(*t, name))},
                                            len(types))
            found, candidates = self._type_methods[memo]
            if not found:
                continue
            self._guessing.add(key)
            try:
                if len(found) > 1 or self._foreign(f, caller, receiver):
                    return None
            finally:
                self._guessing.discard(key)
            hit = next(iter(found))
            if tier:
                return hit[0], hit[1], "receiver_name_suffix"
            return hit[0], hit[1], "receiver_name" if candidates == 1 else "receiver_name_of_several"
        return None

    def _types_ending(self, word: str) -> list[tuple[str, int]]:
        """Classes whose CamelCase name of two words or more ends with ``word`` (`compiler`: SQLCompiler,
        SQLInsertCompiler; `hasher`: MD5PasswordHasher)."""
        if self._last_words is None:
            self._last_words = defaultdict(list)
            for types in self.ix.types.values():
                for path, i in types:
                    parts = _CAMEL_WORDS.findall(self.files[path].defs[i][0])
                    if len(parts) > 1:
                        self._last_words[parts[-1].lower()].append((path, i))
        return self._last_words.get(word, [])

    def _impl_method(self, f: FileFacts, owner: int, name: str) -> tuple[str, int] | None:
        """Rust: a method of a type may live in any `impl Type` block of the same file."""
        type_name = f.defs[owner][0]
        for i, d in enumerate(f.defs):
            if d[1] == "impl" and d[0] == type_name:
                hit = self.ix.members.get((f.path, i), {}).get(name)
                if hit is not None:
                    return f.path, hit
        return None

    def _why(self, f: FileFacts, name: str) -> str:
        n = len(self.ix.global_top.get(name, []))
        if not n and name in SCRIPT_GLOBALS and f.language in SCRIPT_LANGUAGES:
            return "external:builtins"          # `new Date()`, `Error(msg)`, `Symbol()`: JavaScript's own
        if not n and f.language == "python" and name in _PYTHON_BUILTINS:
            return "external:builtins"          # `len(x)`, `sorted(...)`: no name the module binds, Python's own
        return f"ambiguous:{n}" if n > 1 else "unknown"

    # -- edges --------------------------------------------------------------------------------------------------
    def _add_edge(self, etype: str, src: str, dst: str, props: dict, merge_line: bool = False) -> None:
        key = (etype, src, dst)
        old = self.out.edges.get(key)
        if old is None:
            self.out.edges[key] = {**props, "lines": [props["line"]]} if "line" in props else dict(props)
            self.out.edges[key].pop("line", None)
            return
        if "line" in props and props["line"] not in old["lines"]:
            old["lines"] = sorted([*old["lines"], props["line"]])
        if props.get("confidence", 0) > old.get("confidence", 0):
            old["confidence"], old["resolved_by"] = props["confidence"], props["resolved_by"]
            old.pop("via", None)
            if "via" in props:
                old["via"] = props["via"]

    def _call_edge(self, src: str, dst: str, line: int, method: str, stat: str | None = None,
                   via: str | None = None) -> None:
        """A CALLS edge found by ``method`` (its confidence from CONFIDENCE), counted in the stats; ``via``: the
        method the call names, when the edge goes to an override of it (``dispatch``)."""
        props = {"line": line, "confidence": CONFIDENCE[method], "resolved_by": method}
        self._add_edge("CALLS", src, dst, {**props, "via": via} if via else props)
        self.out.stats[stat or f"calls:{method}"] += 1
        wrapper = self.wrappers.get(dst)
        if wrapper is not None and wrapper != src:   # the wrapper's own call of it: `argument`
            self._call_edge(src, wrapper, line, "wrapped")

    def _lsp_edge(self, f: FileFacts, caller: int | None, src: str, answer: list, hit: tuple, name: str,
                  receiver: str | None, line: int, narrowed: str | None = None) -> bool:
        """Apply a language server's answer for one call site; False leaves it to the tree-sitter resolution."""
        kind = answer[0]
        if kind == "sym":
            return self._lsp_symbol(f, caller, src, answer, hit, name, receiver, line, narrowed)
        if kind == "ext":
            for module in answer[1]:
                self.out.external_modules.add(module)
                self._add_edge("CALLS_EXTERNAL", src, "module:" + module,
                               {"line": line, "confidence": CONFIDENCE["lsp_external"], "resolved_by": "lsp"})
            self.out.stats["lsp:" + ("external" if hit[0] == "unresolved" else "corrected")] += 1
            self.out.stats["calls:lsp_external"] += 1
            return True
        if f.language in _LSP_DEFER_TO_NAMES:
            return False
        if kind == "none" and hit[0] != "unresolved" and hit[2] in _NAME_ONLY and f.language in _LSP_NONE_VETOES_GUESSES:
            # the server looked and found nothing: a guess by a unique name alone is not worth an edge
            self._unresolved(src, receiver, name, line, "dynamic:lsp-no-definition")
            self.out.stats["lsp:dropped_name_guess"] += 1
            return True
        if kind == "var":
            return self._lsp_variable(f, caller, src, answer, hit, name, receiver, line)
        return False

    def _lsp_symbol(self, f: FileFacts, caller: int | None, src: str, answer: list, hit: tuple, name: str,
                    receiver: str | None, line: int, narrowed: str | None) -> bool:
        """The server named definitions (and implementations): their edges, or none where only a Protocol's
        stub or an interface was named."""
        defs = [i for i in answer[1] if i in self.where]
        if not defs:
            return False          # stale: the symbol it named is gone
        impls = [i for i in answer[2] if i in self.where and i not in defs]
        if not impls and all(d in self.protocol_stubs for d in defs):
            # `self.client.get(key)` for `client: _MemcachedClient`, a Protocol: its stub never runs, some
            # other class's method does (as for an interface)
            self._unresolved(src, receiver, name, line, "protocol")
            self.out.stats["lsp:protocol"] += 1
            return True
        if not impls and all(self._kind(d) == "interface" for d in defs):
            # `new EmptyError()` where the interface EmptyError shares its name with the (unindexed) const
            # that constructs: no code of an interface runs
            self._unresolved(src, receiver, name, line, "interface")
            self.out.stats["lsp:interface"] += 1
            return True
        ts_dst = self.files[hit[0]].ids[hit[1]] if hit[0] != "unresolved" else None
        self.out.stats["lsp:" + ("agreed" if ts_dst in defs else "added" if ts_dst is None else "corrected")] += 1
        method = "lsp" if len(defs) == 1 else "lsp_alt"
        for dst in defs:
            self._call_edge(src, dst, line, method)
            if not impls:
                self._note_dispatch(f, caller, receiver, src, dst, line, lsp=True)
        method = "lsp_impl" if len(impls) == 1 else "lsp_impls"
        for impl in impls:
            self._call_edge(src, impl, line, method)
        if not impls and receiver:
            self._union_call(f, caller, receiver, src, name, line, found=defs, narrowed=narrowed)
        if not impls:
            self.lsp_abstract.extend((src, d, line) for d in defs if d in self.abstract)
        return True

    def _lsp_variable(self, f: FileFacts, caller: int | None, src: str, answer: list, hit: tuple, name: str,
                      receiver: str | None, line: int) -> bool:
        """The server landed on a variable: what it holds when the server inferred that, else unresolved (or
        what the names found, for a variable of an annotated class)."""
        held = [i for i in answer[2] if i in self.where] if len(answer) > 2 else []
        if held:
            self.out.stats["lsp:" + ("inferred" if hit[0] == "unresolved" else "inferred_over_names")] += 1
            if any(self._kind(h) == "class" and self.class_member(*self.where[h], "__call__") for h in held):
                # jedi names the class for an instance too, and calling an instance runs __call__: which one the
                # variable holds is unknown, unless its assignment tells (`gadget = Gadget()`: an instance)
                if hit[0] != "unresolved" and hit[2] == "annotation":
                    return False
                self._unresolved(src, receiver, name, line, "dynamic:lsp-instance-or-class")
                return True
            # calling a function runs it, calling a class constructs it
            method = "lsp_held" if len(held) == 1 else "lsp_held_alt"
            for dst in held:
                self._call_edge(src, dst, line, method)
            return True
        if hit[0] != "unresolved" and hit[2] == "annotation":
            return False              # a variable of an annotated class (`self.type(...)`): its __call__
        if hit[0] == "unresolved" and self._registry_call(f, caller, receiver, src, name, line):
            return True               # a variable the server cannot infer, holding an item of a registry
        self._unresolved(src, receiver, name, line, "dynamic:lsp-variable")
        self.out.stats["lsp:" + ("variable" if hit[0] == "unresolved" else "corrected")] += 1
        return True

    def _unresolved(self, src: str, receiver: str | None, name: str, line: int, reason: str) -> None:
        """Keep a call no definition was found for on its caller, as ``receiver.name@line:reason``."""
        label = f"{receiver}.{name}" if receiver else name
        self.out.unresolved.setdefault(src, []).append(f"{label}@{line}:{reason}")
        self.out.stats[f"unresolved:{reason.split(':')[0]}"] += 1

    def _protocol_stubs(self, subclasses: dict[str, list[str]]) -> set[str]:
        """The stub methods (``...``, ``pass``, a docstring) of Python Protocol classes that no class of the
        repository subclasses: a call typed by such a protocol runs another class's method, never the stub."""
        stubs: set[str] = set()
        for f in self.files.values():
            if f.language != "python":
                continue
            for owner in {owner for owner, name, _relation, _line in f.bases if name.rpartition(".")[2] == "Protocol"}:
                if not subclasses.get(f.ids[owner]):
                    stubs.update(f.ids[i] for i in f.abstract if f.defs[i][3] == owner)
        return stubs

    def _subclasses(self) -> dict[str, list[str]]:
        subclasses: dict[str, list[str]] = defaultdict(list)
        for etype, a, b in self.out.edges:
            if etype in ("INHERITS", "IMPLEMENTS"):
                subclasses[b].append(a)
        return subclasses

    def _overrides(self, method: str, subclasses: dict[str, list[str]], below: str | None = None,
                   stop=None) -> list[str]:
        """The methods of the same name in the (transitive) subclasses of ``method``'s class, or of ``below``;
        ``stop(path, members)``: a subclass (and its own subclasses) not to enter."""
        path, i = self.where[method]
        f = self.files[path]
        name, parent = f.defs[i][0], f.defs[i][3]
        if below is None and parent is None:
            return []
        return self._named_below(name, below or f.ids[parent], subclasses, stop)

    def _named_below(self, name: str, cls: str, subclasses: dict[str, list[str]], stop=None) -> list[str]:
        """The methods called ``name`` of the (transitive) subclasses of class ``cls``."""
        return [self.files[cpath].ids[members[name]] for cpath, _ci, members in self._below(cls, subclasses, stop)
                if name in members]

    def _below(self, cls: str, subclasses: dict[str, list[str]], stop=None):
        """The (transitive) subclasses of class ``cls`` (at most 200), as (path, class index, members);
        ``stop(path, members)``: a subclass not to enter, nor its own subclasses."""
        seen: set[str] = set()
        todo = list(subclasses.get(cls, []))
        while todo and len(seen) < 200:
            cls = todo.pop()
            if cls in seen:
                continue
            seen.add(cls)
            cpath, ci = self.where[cls]
            members = self.ix.members.get((cpath, ci), {})
            if stop is not None and stop(cpath, members):
                continue
            todo.extend(subclasses.get(cls, []))
            yield cpath, ci, members

    def _lsp_hierarchy(self, subclasses: dict[str, list[str]]) -> None:
        """The server landed on an abstract method and named no implementation (jedi has no such request):
        the overrides in subclasses, found through the INHERITS/IMPLEMENTS edges, are what runs."""
        for src, dst, line in self.lsp_abstract:
            for override in self._overrides(dst, subclasses):
                self._call_edge(src, override, line, "lsp_hierarchy")

    def _note_dispatch(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, dst: str,
                       line: int, typed: bool = False, lsp: bool = False) -> None:
        """Remember a call on the object itself (``self.m()``, ``this.m()``, Java's bare ``m()``) that landed on
        the method ``dst``: the object is of the caller's class or of a subclass, which may override ``dst`` (see
        ``_dispatch_overrides``). A receiver of an annotated class (``typed``) gets such edges only when ``dst``
        is abstract (a ``pass`` or docstring-only hook: the overrides are what runs, ``for processor in
        self.blockprocessors: processor.run()``); for other methods every subclass is a candidate, and on click
        5 of 13 such edges ran, against 24 of 27 for ``self`` (eval/callgraph_oracle.py). Queries still follow
        overrides for them (impact, paths)."""
        spec = LANGUAGES[f.language]
        path, i = self.where[dst]
        d = self.files[path].defs[i]
        if not spec.virtual_dispatch or d[1] != "method" or d[3] is None or caller is None:
            return
        if dst in self.placeholders or (lsp and dst in self.abstract):
            return                   # _dispatch_placeholders and _lsp_hierarchy send those to the overrides
        if not (receiver in spec.self_names or (receiver is None and spec.implicit_this)):
            if typed and dst in self.abstract:
                cls = self.receiver_class(f, caller, receiver) if receiver else None
                self.dispatched.append((src, dst, line, self.files[cls[0]].ids[cls[1]] if cls else None, None))
            return
        cls = self.enclosing_class(f, caller)
        if cls is not None:
            own = f.defs[caller][0] if f.defs[caller][3] == cls else None
            self.dispatched.append((src, dst, line, f.ids[cls], own))

    def _dispatch_overrides(self, subclasses: dict[str, list[str]]) -> None:
        """Virtual dispatch: a call on an object whose class (or a superclass) defines the method it landed on
        may run the override of any subclass of that class; each gets an edge (``dispatch``). For ``self.m()``
        in method ``c`` the object is one whose ``c`` is this one: a subclass overriding ``c`` (without calling
        the overridden ``c``, as ``super().c()`` does) and its own subclasses never get here."""
        extends = self._extending_overrides()
        for src, dst, line, below, own in self.dispatched:
            def overrides_caller(path: str, members: dict[str, int]) -> bool:
                return own in members and self.files[path].ids[members[own]] not in extends
            for override in self._overrides(dst, subclasses, below, overrides_caller if own is not None else None):
                if override not in (src, dst) and not self._declared_only(override):
                    self._call_edge(src, override, line, "dispatch", via=dst)

    def _declared_only(self, method: str) -> bool:
        """An interface's method without a body (``SubscriptionLike.unsubscribe`` below ``Unsubscribable``'s):
        no code of it runs, so no call dispatches to it."""
        path, i = self.where[method]
        parent = self.files[path].defs[i][3]
        return method in self.abstract and parent is not None and self.files[path].defs[parent][1] == "interface"

    def _missing_member(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, name: str,
                        line: int, subclasses: dict[str, list[str]]) -> bool:
        """A call on ``self`` or on a receiver of an annotated class that has no method of that name runs the
        method of a subclass, or fails (``if hasattr(ext, "reset"): ext.reset()``): each subclass's method of
        that name gets an edge (``dispatch``, no ``via``: there is no method of the class the call could name).
        False when there is none: the call stays unresolved."""
        spec = LANGUAGES[f.language]
        if not spec.virtual_dispatch or caller is None or not receiver or receiver in spec.super_names:
            return False
        cls = self.receiver_class(f, caller, receiver)
        if cls is None or self.class_member(*cls, name) is not None:
            return False
        found = self._named_below(name, self.files[cls[0]].ids[cls[1]], subclasses)
        for dst in found:
            self._call_edge(src, dst, line, "dispatch")
        return bool(found)

    def _union_call(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, name: str,
                    line: int, found: list[str] = (), narrowed: str | None = None) -> bool:
        """``encoder.writeVarUint(n)`` where ``@param {UpdateEncoderV1|UpdateEncoderV2} encoder``: a receiver declared
        one of a few classes of the repository (``union:A,B``); the method of each member that has one gets an edge
        (``union``; an interface's declaration runs no code). With ``found`` (what a language server answered:
        tsserver names the method of one member), only when that is one of them, the others. A receiver the code
        around the call narrows to one of several classes (``narrowed``: ``if (isObservableMap(obj) ||
        isObservableSet(obj)) obj.keys()``) is such a union too. False when the receiver is declared no union, or
        one with a member that is no type of the repository (it may be the one that runs)."""
        targets = self._union_targets(f, caller, receiver, name, narrowed)
        if found and not set(found) & set(targets):
            return False
        for dst in targets:
            if dst not in found:
                self._call_edge(src, dst, line, "union")
        return bool(targets)

    def _union_targets(self, f: FileFacts, caller: int | None, receiver: str | None, name: str,
                       narrowed: str | None = None) -> list[str]:
        if narrowed and "|" in narrowed:
            classes = [self._value_class(f, caller, one) for one in narrowed.split("|")]
        else:
            classes = self._union_classes(f, caller, receiver) if receiver else None
        if not classes or not all(classes):
            return []
        hits = [h for cls in classes if (h := self.class_member(*cls, name))]
        return list(dict.fromkeys(self.files[h[0]].ids[h[1]] for h in hits
                                  if (owner := self.files[h[0]].defs[h[1]][3]) is None or
                                  self._def_kind((h[0], owner)) != "interface"))

    def _union_classes(self, f: FileFacts, caller: int | None, receiver: str) -> list | None:
        """The (path, def) of each member of the union ``receiver`` is declared (``_declared_union``; None in place
        of a member that is no type of the repository), or None when it is declared no union."""
        declared = self._declared_union(f, caller, receiver) if caller is not None else None
        if declared is None:
            return None
        path, scope, members = declared
        return [self._type_named(self.files[path], scope, one) for one in members]

    def _declared_union(self, f: FileFacts, caller: int | None, receiver: str,
                        items: bool = False) -> tuple[str, int | None, list[str]] | None:
        """(path, scope, member names) of the union a receiver is declared: a parameter's or a variable's annotation
        (``encoder``), the attribute type of the last attribute of a chain (``this.encoder``); with ``items``, the
        union the items of the array it names are (``structs: Array<GC|Item>``: ``structs[i]``, ``for (const s of
        structs)``, ``const s = structs[i]``); else None."""
        indexed = _SUBSCRIPTED.fullmatch(receiver) if not items else None
        if indexed:
            return self._declared_union(f, caller, indexed.group(1), items=True)
        got = _last_call(receiver) if not items else None
        if got and got[1] == "get" and _CHAIN.fullmatch(got[0]):     # `this.values_.get(key)!.get()`: a value of it
            return self._declared_union(f, caller, got[0], items=True)
        if not _CHAIN.fullmatch(receiver):
            return None
        head, _, attr = receiver.rpartition(".")
        typed = None
        if head:
            cls = self.receiver_class(f, caller, head)
            typed = self._attribute_type(*cls, attr) if cls else None
        elif (found := self._declared(f, caller, attr)) is not None:
            kind, _, chain = found[2].partition(":")
            if found[1] == "var" and not items and kind in ("subname", "subattr", "itername", "iterattr") and \
                    "|" not in chain:
                return self._declared_union(f, found[0], chain, items=True)
            if found[1] == "var" and not items and kind == "call" and chain.endswith(".get") and \
                    _CHAIN.fullmatch(chain):     # `const observable = this.data_.get(key)!`
                return self._declared_union(f, found[0], chain[:-4], items=True)
            if found[1] == "var" and kind == "class" and chain != attr and chain.replace("$", "_").isidentifier() \
                    and self._type_hit(f, found[0], chain) is None:
                # `const encoder = new YEncoder()` for `YEncoder: typeof UpdateEncoderV1 | typeof UpdateEncoderV2`
                return self._declared_union(f, found[0], chain, items)
            value = found[2] if found[1] == "param" else found[2].removeprefix("class:")
            typed = (f.path, found[0], value)
        if typed is None or not typed[2].startswith(("[]union:", "{}union:") if items else "union:"):
            return None         # (an item of an array, a value of a map)
        return typed[0], typed[1], _members(typed[2][2:] if items else typed[2])

    def _collect_inserts(self) -> None:
        """The classes of the objects put into each collection name (``FileFacts.inserts``), by the key they are
        registered under too; and the attribute names some class annotates as a collection of a class."""
        for path in sorted(self.files):
            f = self.files[path]
            for caller, collection, value, key in f.inserts:
                kind, _, held = value.partition(":")
                if kind == "var" and self._declared(f, caller, held) is None:
                    hit = self.lookup_name(f, caller, held)
                    if hit and self.files[hit[0]].defs[hit[1]][1] in ("function", "method"):
                        self.registered_functions[collection].add(self.files[hit[0]].ids[hit[1]])
                        continue
                cls = self._name_class(f, caller, held) if kind == "var" else self._value_class(f, caller, value)
                if cls is not None and self.files[cls[0]].defs[cls[1]][1] in _TYPE_KINDS:
                    self.registered[collection].add(cls)
                    if key:
                        self.registered_as[(collection, key)].add(cls)
        self.typed_collections = {attr for types in self.attr_types.values() for attr, t in types.items()
                                  if "[]" in t or t.startswith("{}")}

    def _collect_passed_items(self) -> None:
        """For each parameter, the collections an item of which its callers hand it (``self.__apply(
        self.patterns[i])``: ``FileFacts.items_passed``)."""
        for path in sorted(self.files):
            f = self.files[path]
            for k, slot, value in f.items_passed:
                caller, name, receiver = f.calls[k][:3]
                hit = self.resolve_call(f, caller, name, receiver)
                if hit[0] == "unresolved" or self.files[hit[0]].defs[hit[1]][1] not in ("function", "method", "class"):
                    continue
                callee = self.files[hit[0]].ids[hit[1]]
                parameter = self._parameter_at(callee, slot)
                if parameter:
                    self.passed_items[(callee, parameter)].add(value.partition(":")[2])

    def _collect_decorations(self) -> None:
        """What a decorator of the repository makes of the definition under it. ``@cached_property``, a class
        defining ``__get__``: reading the attribute calls that ``__get__`` (``descriptor_gets``, for
        ``_implicit_call`` and ``_attribute_hooks``), and the ``class`` statement calls its ``__set_name__``.
        ``@logged`` returning a function it defines (``return wrapper``), or a factory's call ``@keep_lazy(str)``
        returning one (``decorator``) that does: calling the definition runs that wrapper (``wrappers``), when it is
        the outermost decorator (the one nearest the top runs last and is what the name holds; the extractor keeps
        only the innermost plain decorator, so one is outermost only on the first line of the range)."""
        for path in sorted(self.files):
            f = self.files[path]
            children: dict[int | None, list[int]] = defaultdict(list)
            for i, d in enumerate(f.defs):
                if d[1] in ("function", "method"):
                    children[d[3]].append(i)
            for call in f.calls:
                kind = implicit_of(call)
                if kind not in (None, "decorator") or not children.get(call[0]):
                    continue
                # a decorator, or a call in a definition's head, is its scope's call on a line of its range
                target = next((i for i in children[call[0]] if f.defs[i][4] <= call[3] <= f.defs[i][5]), None)
                # only the outermost decorator, on the range's first line, makes a wrapper (a range starting at a
                # comment: unknown); any decorator site may make a descriptor
                outermost = target is not None and call[3] == f.defs[target][4]
                if target is None or not (outermost or kind == "decorator"):
                    continue
                hit = self.resolve_call(f, call[0], call[1], call[2])
                if hit[0] == "unresolved" or hit[2] in _GUESSES:
                    continue
                if self.files[hit[0]].defs[hit[1]][1] == "class":
                    if kind == "decorator":
                        self._descriptor(f, call[0], target, hit)
                    continue
                made = self._returned_def(*hit[:2]) or self._factory_made(*hit[:2])
                if made is not None and (kind is None or self._returned_def(*made)):
                    # a plain decorator that returns a decorator: Django's `async_unsafe`, a factory that also
                    # decorates (`if callable(message): return decorator(message)`)
                    made = self._returned_def(*made)
                if outermost and made is not None:
                    self.wrappers.setdefault(f.ids[target], self.files[made[0]].ids[made[1]])

    def _descriptor(self, f: FileFacts, cls: int, method: int, hit: tuple) -> None:
        get = self.class_member(hit[0], hit[1], "__get__")
        if get is None:
            return
        self.descriptor_gets[f.ids[method]] = self.files[get[0]].ids[get[1]]
        set_name = self.class_member(hit[0], hit[1], "__set_name__")
        if set_name is not None:
            src = f.ids[f.defs[cls][3]] if f.defs[cls][3] is not None else file_id(self.repo, f.path)
            self._call_edge(src, self.files[set_name[0]].ids[set_name[1]], f.defs[cls][4], "descriptor")

    def _factory_made(self, path: str, i: int) -> tuple[str, int] | None:
        """What a decorator returning ``keep_lazy(str)(func)`` (``returns`` ``wraps:keep_lazy``) makes of ``func``:
        the decorator the factory returns, whose own returned function (``_collect_decorations``) is the wrapper."""
        rtype = self.returns.get((path, i), "")
        if not rtype.startswith("wraps:"):
            return None
        head, _, last = rtype[6:].rpartition(".")
        hit = self.resolve_call(self.files[path], i, last, head or None)
        return self._returned_def(*hit[:2]) if hit[0] != "unresolved" and hit[2] not in _GUESSES else None

    def _returned_def(self, path: str, i: int) -> tuple[str, int] | None:
        """The function ``i`` defines and returns (``returns`` ``def:name``): the last definition of that name in
        it, the one bound when ``return`` runs in the usual define-then-return shape (Django's ``lazy``)."""
        returned = self.returns.get((path, i), "")
        # JavaScript/TypeScript: `return format` (`value:var:format`) where `format` is a function it defines
        name = returned[4:] if returned.startswith("def:") else returned[10:] if returned.startswith("value:var:") \
            and "|" not in returned else None
        if not name:
            return None
        g = self.files[path]
        return next(((path, j) for j in range(len(g.defs) - 1, -1, -1)
                     if g.defs[j][3] == i and g.defs[j][0] == name and
                     (returned.startswith("def:") or g.defs[j][1] in ("function", "method"))), None)

    def _registry_call(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, name: str,
                       line: int) -> bool:
        """A call on, or of, an item of a collection nothing types: ``_registered_call`` (a method of the objects
        put into it) or ``_registered_function_call`` (a function written into it). False when neither."""
        return self._registered_call(f, caller, receiver, src, name, line) or \
            self._registered_function_call(f, caller, receiver, src, name, line)

    def _keyed_item(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, name: str, line: int,
                    typed: list[str], subclasses: dict[str, list[str]]) -> bool:
        """``self.treeprocessors['prettify'].run()``: the declared type of the registry's items (an annotation, or
        the language server's answer) lands on ``Treeprocessor.run``, whose every override it would reach; the
        classes registered under that key say which one runs. Their method wins (``registered``) when it is one of
        ``typed`` or overrides one. False when the key names no class with the method, or another one."""
        key, targets = self._registered_methods(f, caller, receiver, name, annotated=True)
        if not key or not targets:
            return False
        allowed = set(typed).union(*(self._overrides(d, subclasses) for d in typed))
        if not set(targets) <= allowed:
            return False
        for target in targets:
            self._call_edge(src, target, line, "registered")
        self.out.stats["calls:keyed_item_over_type"] += 1
        return True

    def _registered_call(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, name: str,
                         line: int) -> bool:
        """``processor.run()`` for ``for processor in self.blockprocessors`` (or ``self.blockprocessors[k].run()``)
        where nothing types the collection: each class whose objects some code puts into a collection of that
        name (``parser.blockprocessors.register(EmptyBlockProcessor(parser), ...)``) and that has the method gets
        an edge (``registered``). False when none has."""
        _key, targets = self._registered_methods(f, caller, receiver, name)
        for target in targets:
            self._call_edge(src, target, line, "registered")
        return bool(targets)

    def _registered_methods(self, f: FileFacts, caller: int | None, receiver: str | None, name: str,
                            annotated: bool = False) -> tuple[str | None, list[str]]:
        """(the string key or "", the ids of the methods ``name`` of the classes registered into the collection,
        under that key when there is one) for a receiver that is an item of a collection (``_collection_of``);
        (None, []) when it is none."""
        held = self._collection_of(f, caller, receiver, annotated) if receiver and self.registered else None
        if held is None:
            return None, []
        collection, key = held
        classes = self.registered_as.get(held, ()) if key else self.registered.get(collection, ())
        members = {self.class_member(*cls, name) for cls in classes}
        return key, sorted(self.files[path].ids[i] for path, i in filter(None, members))

    def _registered_function_call(self, f: FileFacts, caller: int | None, receiver: str | None, src: str,
                                  name: str, line: int) -> bool:
        """A call of an item of a collection of functions (``opener = binary_streams.get(name); opener()``;
        ``self.serializer(root)`` where ``self.serializer = self.output_formats[format]``): each function written
        into a collection of that name gets an edge (``registered``). False when it is none of these."""
        if not self.registered_functions:
            return False
        if receiver is None:
            var = self._variable(f, caller, name)
            value = var[2] if var else ""
        else:
            cls = self.receiver_class(f, caller, receiver)
            typed = self._attribute_type(*cls, name) if cls else None
            value = typed[2] if typed else ""
        kind, _, chain = value.partition(":")
        if kind == "call" and chain.rpartition(".")[2] in ("get", "pop"):
            chain = chain.rpartition(".")[0]                  # `binary_streams.get(name)`: an item of it
        elif kind not in ("subattr", "subname"):
            return False
        collection = chain.rsplit(".", 1)[-1]
        targets = sorted(self.registered_functions.get(collection, ())) if collection not in self.typed_collections \
            else []
        for target in targets:
            self._call_edge(src, target, line, "registered")
        return bool(targets)

    def _returned_function(self, f: FileFacts, caller: int | None, name: str | None,
                           receiver: str | None) -> str | None:
        """The function a call returned, called: ``_default_text_stdout()`` for a variable (here or imported)
        assigned ``_make_cached_stream_func(...)``, ``command(...)(f)`` (a dunder ``__call__`` site whose receiver is
        ``command()``), when the callee returns a function it defines (``return func``: ``returns`` ``def:func``)."""
        made = self._returned_made(f, caller, name, receiver)
        return self.files[made[0]].ids[made[1]] if made else None

    def _returned_property(self, f: FileFacts, caller: int | None, receiver: str | None, name: str) -> str | None:
        """JavaScript/TypeScript: ``formatter.end()`` where ``formatter = getBatchStreamFormatter()`` returns its
        function ``format`` after ``format.end = () => '}'``: the function assigned to that property of it."""
        if not receiver or f.language not in SCRIPT_LANGUAGES or not receiver.replace("$", "_").isidentifier():
            return None
        made = self._returned_made(f, caller, receiver, None)
        if made is None:
            return None
        g = self.files[made[0]]
        fn = g.defs[made[1]]
        prop = next((k for k, d in enumerate(g.defs) if d[3] == fn[3] and d[2] == f"{fn[0]}.{name}"), None)
        return g.ids[prop] if prop is not None else None

    def _callback_param_type(self, f: FileFacts, scope: int | None, callee: str, k: int,
                             j: str) -> tuple[str, int | None, str] | None:
        """TypeScript: the type parameter ``j`` (a position, or ``this``) of the function handed as argument ``k`` to
        ``callee`` has, by the function type ``callee`` declares for that parameter (``operate(init: (liftedSource:
        Observable<T>, subscriber: Subscriber<R>) => ...)``; a class's constructor for ``new Observable((subscriber)
        => ...)``; ``schedule(work: (this: SchedulerAction<T>) => void)``), as (path, scope, type) for ``_typed``;
        None when it declares none."""
        owner, _, last = callee.rpartition(".")
        hit = self.resolve_call(f, scope, last, owner or None)
        if hit[0] == "unresolved":
            return None
        signature = self._signature(hit[0], hit[1])
        if signature is None:
            return None
        path, i, params = signature
        declared = params[k][1] if k < len(params) else ""
        if not declared.startswith("(") or ")" not in declared:
            return None
        listed = declared[1:declared.index(")")].split(";")
        if j == "this":
            return (path, i, listed[0][1:]) if listed[0].startswith("@") and len(listed[0]) > 1 else None
        types = [t for t in listed if not t.startswith("@")]
        return (path, i, types[int(j)]) if int(j) < len(types) and types[int(j)] else None

    def _signature(self, path: str, i: int) -> tuple[str, int, list[tuple[str, str]]] | None:
        """(path, def, [(parameter, declared type), ...]) of the function ``i`` of ``path``, or of a class's
        constructor (``__init__``, ``constructor``); TypeScript's ``this`` parameter takes no argument's place."""
        if self.files[path].defs[i][1] == "class":
            made = self.class_member(path, i, "__init__" if self.files[path].language == "python" else "constructor")
            if made is None:
                return None
            path, i = made
        return path, i, [(p, t) for p, t in self.param_types.get(path, {}).get(i, {}).items() if p != "this"]

    def _held_functions(self, f: FileFacts, caller: int | None, name: str) -> list[str]:
        """JavaScript/TypeScript and Python: the ids of the functions a variable called holds, when each value it is
        assigned names a function of the repository (``const addTo = previous ? addToStart : addToEnd``,
        ``var:addToStart|var:addToEnd``; ``f = start if previous else end``); [] when one of them is anything else
        (``options.hashFn || hashKey``)."""
        var = self._variable(f, caller, name) if f.language in SCRIPT_LANGUAGES | {"python"} else None
        if var is None or not var[2]:
            return []
        owner, scope, value = var
        out = []
        local_imports = {n for names in self.local_bindings.get(owner.path, {}).values() for n in names} \
            if scope is None else set()
        for one in value.split("|"):
            kind, _, held = one.partition(":")
            # (a module variable assigned in a function, `global _getchar; _getchar = f`, reads names where it was
            # assigned: one that a function's own import binds is not known from here)
            hit = self.lookup_name(owner, scope, held) if kind == "var" and held != name and held.isidentifier() \
                and held not in local_imports else None
            if hit is None or self.files[hit[0]].defs[hit[1]][1] not in ("function", "method") or \
                    hit[0] == f.path and self._encloses(f, hit[1], caller):
                # (`const base = scheduler; scheduler = f => fn(() => base(f))`: the function being defined is
                # not what the variable was assigned)
                return []
            out.append(self.files[hit[0]].ids[hit[1]])
        return list(dict.fromkeys(out))

    @staticmethod
    def _encloses(f: FileFacts, outer: int, inner: int | None) -> bool:
        """Whether definition ``outer`` is ``inner`` or around it."""
        while inner is not None:
            if inner == outer:
                return True
            inner = f.defs[inner][3]
        return False

    def _returned_made(self, f: FileFacts, caller: int | None, name: str | None,
                       receiver: str | None) -> tuple[str, int] | None:
        called = _called_chain(receiver) if receiver else None
        if called:
            owner, value = f, f"call:{called}"
        elif receiver is None and (var := self._variable(f, caller, name)):
            owner, caller, value = var
        else:
            return None
        kind, _, chain = value.partition(":")
        if kind != "call":
            return None
        head, _, last = chain.rpartition(".")
        hit = self.resolve_call(owner, caller, last, head or None)
        return self._returned_def(*hit[:2]) if hit[0] != "unresolved" else None

    def _reflected(self, f: FileFacts, caller: int | None, name: str | None, receiver: str | None,
                   subclasses: dict[str, list[str]]) -> list[str]:
        """What a method looked up by a built name runs, called: ``getattr(self, "parse_" + t)()``, a variable
        assigned such a lookup (``visitor = getattr(self, method, ...)``; ``visitor(node)``) or assigned a call of
        a function returning one (``f = self.get_visitor(node)``; ``f(node)``): the methods whose name starts with
        the prefix in the class of the lookup's ``self`` or ``cls``, its bases and its subclasses, or the functions
        of that prefix of an imported module (``getattr(actions, "on_" + action)``)."""
        called = _called_chain(receiver) if receiver else None
        if called:
            owner, scope, value = f, caller, f"call:{called}"
        elif receiver is None and (var := self._variable(f, caller, name)):
            owner, scope, value = var
        else:
            return []
        kind, _, chain = value.partition(":")
        if kind != "call" or scope is None:
            return []
        returned_only = chain != "getattr"
        if returned_only:                 # a function whose `return getattr(self, ...)` is the value
            head, _, last = chain.rpartition(".")
            hit = self.resolve_call(owner, scope, last, head or None)
            if hit[0] == "unresolved" or (hit[0], hit[1]) not in self.reflective:
                return []
            owner, scope = self.files[hit[0]], hit[1]
        found: list[str] = []
        for obj, prefix, returned, _line in self.reflective.get((owner.path, scope), ()):
            if returned_only and not returned:
                continue
            cls = self.enclosing_class(owner, scope) if obj in ("self", "cls") else None
            if cls is not None:        # not the function looking up: `parse_statement` is no `parse_` target
                found += [m for m in self._prefixed(owner.path, cls, prefix, subclasses)
                          if m not in found and m != owner.ids[scope]]
            elif "." not in obj and self._declared(owner, scope, obj) is None:   # an imported module's functions
                bound = self.bindings.get(owner.path, {}).get(obj)
                for mpath in bound[1] if bound and bound[0] == "module" else ():
                    g = self.files[mpath]
                    found += [g.ids[i] for n, indexes in sorted(self.ix.top[mpath].items()) for i in indexes
                              if n.startswith(prefix) and len(n) > len(prefix) and g.defs[i][1] == "function"
                              and g.ids[i] not in found]
        if found:
            self.reflected.add((owner.path, scope))
        return found

    def _unfollowed_lookups(self) -> None:
        """Lookups by a built name that no call was resolved through (`getattr(handler, "on_" + name)` on an object
        of unknown class, a lookup whose result is stored or handed on) stay unresolved as
        ``obj.prefix*``: impact reads a method of that prefix as maybe called there (impact._completeness)."""
        for (path, scope), lookups in sorted(self.reflective.items()):
            if (path, scope) not in self.reflected:
                for obj, prefix, _returned, line in lookups:
                    if prefix:         # `self.*` would make every method of the repository a lower bound
                        self._unresolved(self.files[path].ids[scope], obj, prefix + "*", line, "dynamic:getattr")

    def _prefixed(self, path: str, cls: int, prefix: str, subclasses: dict[str, list[str]]) -> list[str]:
        """The methods named ``prefix...`` of class ``cls``, of its bases in the repository and of its
        (transitive) subclasses."""
        classes, todo = [], [(path, cls, 0)]
        while todo:                                       # the class and its bases
            p, c, depth = todo.pop()
            if (p, c) not in classes:
                classes.append((p, c))
                if depth < _MAX_BASE_DEPTH:
                    todo += [(bp, bc, depth + 1) for bp, bc in self._bases(p, c)]
        classes += [(p, c) for p, c, _members in self._below(self.files[path].ids[cls], subclasses)
                    if (p, c) not in classes]                # and its subclasses
        found = []
        for p, c in classes:
            g = self.files[p]
            found += [g.ids[i] for n, i in sorted(self.ix.members.get((p, c), {}).items())
                      if n.startswith(prefix) and len(n) > len(prefix) and g.defs[i][1] == "method"
                      and (prefix or not n.startswith("__"))]    # a name computed from nothing: no dunder
        return found

    def _extending_overrides(self) -> set[str]:
        """Methods that call the method they override (``super().c()``, ``Base.c(self)``): any call of their
        own name on a receiver other than the object itself."""
        out = set()
        for f in self.files.values():
            spec = LANGUAGES.get(f.language)
            for caller, name, receiver, *_rest in f.calls if spec else ():
                if caller is not None and receiver and receiver not in spec.self_names and f.defs[caller][0] == name:
                    out.add(f.ids[caller])
        return out

    def _dispatch_placeholders(self, subclasses: dict[str, list[str]]) -> None:
        """A call that landed on a placeholder (a method whose body only raises NotImplementedError, or that is
        declared abstract) runs an override whenever the class has any: the edge goes to the overrides instead
        (``override``, or ``lsp_hierarchy`` when a language server gave the placeholder). An override calling
        its own placeholder (``super().m()``) keeps the edge: that call does run it."""
        for key in [k for k in self.out.edges if k[0] == "CALLS" and k[2] in self.placeholders]:
            _, src, dst = key
            overrides = self._overrides(dst, subclasses)
            if not overrides or src in overrides:
                continue
            props = self.out.edges.pop(key)
            method = "lsp_hierarchy" if props["resolved_by"].startswith("lsp") else "override"
            for override in overrides:
                for line in props["lines"]:
                    self._call_edge(src, override, line, method, "calls:placeholder_dispatch")
            self.out.stats["calls:" + props["resolved_by"]] -= len(props["lines"])

    def _implicit_call(self, src: str, implicit: str, answer: list | None, hit: tuple, name: str, line: int) -> None:
        """A call without call syntax (``CallSite.implicit``): a property read (``x.total``, ``total`` a getter of
        the file) or a dunder method Python calls on an object (``name``: ``with obj:``'s ``__enter__``/
        ``__exit__``, ``for x in obj``'s ``__iter__``, ``obj[k]``'s ``__getitem__``, ...). The server's answer
        names the getter, or obj's class whose method it is; without one only ``self``/``cls`` and receivers of an
        annotated class (``receiver_class``) are followed. Finding nothing records nothing: most attribute reads
        are plain attributes, most objects iterated, indexed or entered the built-in types' or a library's."""
        if answer and answer[0] == "sym":
            found, method = [self.where[i] for i in answer[1] if i in self.where], "lsp"
            if implicit == "dunder":
                found = [self.class_member(path, i, name) for path, i in found]
        elif hit[0] != "unresolved" and hit[2] in ("self", "inherited", "annotation"):
            found, method = [hit[:2]], hit[2]
        else:
            return
        for path, i in filter(None, found):
            dst = self.files[path].ids[i]
            if implicit == "dunder":
                self._call_edge(src, dst, line, method, "calls:dunder")
            else:
                self._getter_read(src, dst, line, method)

    def _getter_read(self, src: str, getter: str | None, line: int, method: str) -> None:
        """Reading the attribute ``getter`` defines: a property's getter runs, and first a descriptor's
        ``__get__`` (``descriptor_gets``); a plain method or attribute runs nothing."""
        if getter in self.properties:
            self._call_edge(src, getter, line, method, "calls:property_read")
        if getter in self.descriptor_gets:
            self._call_edge(src, self.descriptor_gets[getter], line, "descriptor")

    def _attribute_hooks(self) -> None:
        """Reading an attribute of an object (``FileFacts.reads``) runs its class's ``__getattribute__``, and its
        ``__getattr__`` when the attribute is none of the class's members or known attributes: Django's
        ``settings.DEBUG`` runs LazySettings.__getattr__ and LazyObject.__getattribute__; reading a property
        runs its getter (the extractor makes reads of its own file's properties calls). Only for a name whose
        class is known (a variable or an imported module variable assigned an instance, an annotated parameter)
        and a hook defined by a class of the repository."""
        hooks: dict[tuple[str, int], tuple] = {}
        for path in sorted(self.files):
            f = self.files[path]
            for caller, held, attr, lines in f.reads:
                cls = self._name_class(f, caller, held)
                if cls is None:
                    continue
                if cls not in hooks:
                    hooks[cls] = (self.class_member(*cls, "__getattribute__"), self.class_member(*cls, "__getattr__"))
                every, missing = hooks[cls]
                member = self.class_member(*cls, attr)
                if missing and (member or self._has_attribute(*cls, attr)):
                    missing = None               # found the usual way: __getattr__ is not asked
                getter = self.files[member[0]].ids[member[1]] if member else None
                src = f.ids[caller] if caller is not None else file_id(self.repo, path)
                for line in lines:
                    for hit in filter(None, (every, missing)):
                        self._call_edge(src, self.files[hit[0]].ids[hit[1]], line, "attribute_hook")
                    # a property of another file's class (the file's own are "read" calls: _implicit_call)
                    self._getter_read(src, getter, line, "annotation")

    def _has_attribute(self, path: str, cls: int, attr: str, depth: int = 0) -> bool:
        """Whether objects of class ``cls`` have the attribute ``attr`` (assigned on self or annotated, by it or
        a base of the repository)."""
        if attr in self.attr_names.get((path, cls), ()) or attr in self.attr_types.get((path, cls), {}):
            return True
        return bool(self._from_bases(path, cls, depth, lambda p, c, d: self._has_attribute(p, c, attr, d)))

    def _collection_of(self, f: FileFacts, caller: int | None, receiver: str,
                       annotated: bool = False) -> tuple[str, str] | None:
        """(the collection's last name, the string key or "") a receiver is an item of: ``self.procs['x']``, a
        variable bound to an item (``for p in self.procs``, ``p = self.procs[k]``), a parameter its callers hand
        an item of one collection; None when it is none of them, or (unless ``annotated``) some class annotates
        that collection."""
        subscripted, key = _SUBSCRIPTED.fullmatch(receiver), ""
        holder = self._parameter_of(f, caller, receiver) if receiver.isidentifier() else None
        if subscripted:
            collection, key = subscripted.group(1), _string_key(receiver[subscripted.end(1):])
        elif holder is not None:
            passed = self.passed_items.get((f.ids[holder], receiver), set())
            if len(passed) != 1 or self.param_types[f.path].get(holder, {}).get(receiver):
                return None
            collection = next(iter(passed))
        else:
            found = self._declared(f, caller, receiver) if receiver.isidentifier() else None
            kind, _, collection = found[2].partition(":") if found and found[1] == "var" and "|" not in found[2] \
                else ("", "", "")
            if kind not in ("iterattr", "itername", "subattr", "subname"):
                return None
        collection = collection.rsplit(".", 1)[-1]
        # annotated somewhere (`params: t.List[Parameter]`): its annotation says what it holds, not a guess
        return None if collection in self.typed_collections and not annotated else (collection, key)

    # -- functions handed to calls ----------------------------------------------------------------------------
    def _local_of(self, f: FileFacts, caller: int | None, name: str) -> bool:
        """Whether a bare ``name`` seen inside ``caller`` is a local variable of it or of a function around it (a
        parameter of a function handed to a call, ``cbparam:``, is bound only inside that function: it hides no
        name from the rest of the one around)."""
        table = self.var_types.get(f.path) or {}
        scope = self._bound_in(f, caller, name, table)
        return scope is not None and not all(v.startswith("cbparam:") for v in table[scope][name].split("|"))

    def _parameter_of(self, f: FileFacts, caller: int | None, name: str) -> int | None:
        """The function whose parameter a bare call names (``check(s)`` in ``def stream(s, check)``, or in a
        function nested in it)."""
        return self._bound_in(f, caller, name, self.param_types[f.path])

    def _bound_in(self, f: FileFacts, caller: int | None, name: str, table: dict[int, dict]) -> int | None:
        """The definition, ``caller`` or one around it, whose ``table`` (parameters, locals) binds ``name``,
        unless a nested definition of that name comes first."""
        scope = caller
        while scope is not None:
            if name in table.get(scope, {}):
                return scope
            if name in self.ix.members.get((f.path, scope), {}):
                return None
            scope = f.defs[scope][3]
        return None

    def _outcome(self, answer: list | None, hit: tuple, calls_back: bool) -> list[str] | str | None:
        """What a call handed a function reaches: the repository's functions (ids), "calls back" (a library
        function of ``LanguageSpec.calls_back``: no definition of that name in the repository), or None."""
        if answer and answer[0] == "sym":
            found = [i for i in answer[1] if i in self.where]
            if found:
                return found
        if hit[0] != "unresolved":
            return [self.files[hit[0]].ids[hit[1]]]
        # "module-attr-unknown": a method of a module's variable (`util.PLACEHOLDER_RE.sub(get_stash, text)`, a
        # compiled pattern): no definition of the repository either
        external = (answer and answer[0] == "ext") or hit[1] in ("unknown", "module-attr-unknown") or \
            hit[1].startswith("external:")
        return "calls back" if external and calls_back else None

    def _settle_callbacks(self, callbacks: list[tuple[str, int]],
                          outcomes: dict[tuple[str, int, int], list[str] | str | None]) -> dict:
        """A function handed to a library function that calls it (``LanguageSpec.calls_back``: ``sorted(ps,
        key=sort_key)``, ``re.sub(p, self._sub, s)``) runs, as far as the graph can tell, in the code that hands
        it over: a ``callback`` edge from there. One handed to any other library function is kept or wrapped
        (``update_wrapper(new_func, f)``): nothing is recorded. One handed to a
        function of the repository runs where that function calls the parameter it binds to: returned as
        {(callee id, parameter): {function ids}} for ``_parameter_calls``."""
        flows: dict[tuple[str, str], set[str]] = defaultdict(set)
        for path, k in callbacks:
            f = self.files[path]
            caller, name, receiver, line, _column, _implicit, of_line, of_column, slot = f.calls[k]
            if receiver is None and self._declared(f, caller, name) is not None:
                continue                  # `getchar(echo)`: the parameter or variable echo, not the function
            hit = self.resolve_call(f, caller, name, receiver)
            member = self.ix.members.get((path, caller), {}).get(name) if receiver is None and caller is not None \
                and f.defs[caller][1] == "class" else None
            if hit[0] == "unresolved" and member is not None:
                hit = (path, member, "scope")   # a class body names its members (`@optimizeconst def visit_Call`)
            if hit[0] == "unresolved" or self.files[hit[0]].defs[hit[1]][1] not in ("function", "method"):
                continue                  # a class, a constant, a variable: a value
            target = self.files[hit[0]].ids[hit[1]]
            outcome = outcomes.get((path, of_line, of_column))
            if outcome == "calls back":
                self._call_edge(f.ids[caller] if caller is not None else file_id(self.repo, path), target, line,
                                "callback")
                continue
            for callee in outcome or ():
                parameter = self._parameter_at(callee, slot)
                if parameter:
                    flows[(callee, parameter)].add(target)
        return flows

    def _parameter_at(self, callee: str, slot: int | str) -> str | None:
        """The parameter of ``callee`` an argument binds to: by keyword, or by position (``self`` not counted: a
        method is called through its object); a class's ``__init__``'s for a class."""
        signature = self._signature(*self.where[callee])
        params = [p for p, _ in signature[2]] if signature else []
        if isinstance(slot, str):
            return slot if slot in params else None
        return params[slot] if slot < len(params) else None

    def _parameter_calls(self, calls: list[tuple[str, int, str, int]], flows: dict) -> None:
        """``check(s)`` where ``check`` is a parameter: an ``argument`` edge to every function of the repository
        that a call of the function binds to that parameter; unresolved (``dynamic:parameter``) without one."""
        for path, k, src, holder in calls:
            f = self.files[path]
            name, line = f.calls[k][1], f.calls[k][3]
            targets = flows.get((f.ids[holder], name))
            for target in sorted(targets or ()):
                self._call_edge(src, target, line, "argument")
            if not targets:
                self._unresolved(src, None, name, line, "dynamic:parameter")

    def _kind(self, symbol_id: str) -> str:
        path, i = self.where[symbol_id]
        return self.files[path].defs[i][1]

    def run(self) -> Resolution:
        for path in sorted(self.files):
            self._read_facts(self.files[path])
        for path in sorted(self.files):
            self.bind_imports(self.files[path])
        self._settle_reexports()
        for path in sorted(self.files):
            self._resolve_bases(self.files[path])
        self.go_implementers = self._go_implementations()
        subclasses = self._subclasses()     # before the calls: a method the receiver's class lacks is a subclass's
        self.protocol_stubs = self._protocol_stubs(subclasses)
        self.subclass_map = subclasses
        self._collect_inserts()
        self._collect_passed_items()
        self._collect_decorations()
        callbacks = [(path, k) for path in sorted(self.files) for k, call in enumerate(self.files[path].calls)
                     if implicit_of(call) == "callback"]
        # calls handed a function, whose outcome _settle_callbacks reads
        sites = _Sites({(path, *self.files[path].calls[k][6:8]) for path, k in callbacks})
        for path in sorted(self.files):
            f = self.files[path]
            answers = ((f.lsp or {}).get("answers") or []) if self.use_lsp else []
            narrowed = dict(f.narrowed)
            for k, call in enumerate(f.calls):
                if implicit_of(call) != "callback":   # _settle_callbacks, once every call handed one is resolved
                    self._resolve_site(f, k, answers[k] if k < len(answers) else None, narrowed.get(k), sites)
        self._parameter_calls(sites.parameter_calls, self._settle_callbacks(callbacks, sites.outcomes))
        self._attribute_hooks()
        self._unfollowed_lookups()
        if self.lsp_abstract:
            self._lsp_hierarchy(subclasses)
        if self.dispatched:
            self._dispatch_overrides(subclasses)
        if self.placeholders:
            self._dispatch_placeholders(subclasses)
        if self.go_implementers:
            self._go_dispatch()
        return self.out

    def _read_facts(self, f: FileFacts) -> None:
        """A file's facts into the resolver's repository-wide tables."""
        path = f.path
        f.ids = f.ids or symbol_ids(self.repo, path, f.defs)
        self.where.update((sid, (path, i)) for i, sid in enumerate(f.ids))
        self.abstract.update(f.ids[i] for i in f.abstract)
        self.placeholders.update(f.ids[i] for i in f.placeholders)
        self.param_types[path] = {i: types for i, types in f.param_types}
        self.attr_types.update(((path, i), types) for i, types in f.attr_types)
        self.attr_names.update(((path, i), set(names)) for i, names in f.attributes)
        self.returns.update(((path, i), rtype) for i, rtype in f.returns)
        self.var_types[path] = {i: values for i, values in f.var_types}
        self.properties.update(f.ids[i] for i in f.properties)
        self.properties.update(f.ids[i] for i, _name in f.property_names)
        for i, fewest, most in f.overloads:
            self.overloads.setdefault((path, f.defs[i][2]), []).append((i, fewest, most))
        for i, extended in f.extensions:
            self.extensions[f.defs[i][0]].append((path, i, extended))
        self.underlying.update(((path, i), kind) for i, kind in f.underlying)
        self.arity.update(((path, k), n) for k, n in f.arities)
        for k, obj, prefix, returned in f.reflective:
            if f.calls[k][0] is not None:
                self.reflective[(path, f.calls[k][0])].append((obj, prefix, returned, f.calls[k][3]))

    def _resolve_site(self, f: FileFacts, k: int, answer, narrowed: str | None, sites: _Sites) -> None:
        """Call site ``f.calls[k]`` (``answer``: the language server's, if any): its edges or its unresolved call.
        A call of a parameter waits for what the callers hand it (``sites.parameter_calls``)."""
        call = f.calls[k]
        caller, name, receiver, line = call[:4]
        implicit = implicit_of(call)
        src = f.ids[caller] if caller is not None else file_id(self.repo, f.path)
        # (a bare call in Java or C# names a method, never a parameter: they are apart)
        holder = self._parameter_of(f, caller, name) if receiver is None and \
            f.language not in _APART_NAMESPACES else None
        if holder is not None and self._called_instance(f, caller, None, name):
            holder = None             # `cls(...)`, `cls: t.Type[Argument]`: its annotation says what runs
        if holder is not None and not _lsp_holds(answer):
            if made := self._made_union(f, caller, name):
                for dst in made:      # `new YDecoder(d)`, `YDecoder: typeof DecoderV1 | typeof DecoderV2`
                    self._call_edge(src, dst, line, "union")
            else:
                sites.parameter_calls.append((f.path, k, src, holder))   # `check(s)`: what the callers hand it
            return
        hit = self._site_hit(f, caller, name, receiver, narrowed)
        handed = (f.path, line, call[4])
        if implicit == "decorator":    # what it is handed: _settle_callbacks
            if handed in sites.taking:
                sites.outcomes[handed] = self._outcome(None, hit, False)
            if hit[0] != "unresolved" and hit[2] not in _GUESSES:
                self._call_edge(src, self.files[hit[0]].ids[hit[1]], line, "decorator")
            return
        if self._indirect_call(f, caller, name, receiver, src, line, hit, answer, implicit):
            return
        if implicit:
            self._implicit_call(src, implicit, answer, hit, name, line)
            return
        if handed in sites.taking:
            sites.outcomes[handed] = self._outcome(answer, hit, name in LANGUAGES[f.language].calls_back)
        self._site_edges(f, k, src, answer, hit, narrowed)

    def _site_hit(self, f: FileFacts, caller: int | None, name: str, receiver: str | None, narrowed: str | None):
        """What the names say a call reaches (``resolve_call``), where a local variable hides a function."""
        hit = (narrowed is not None and self._narrowed_call(f, caller, name, narrowed)) or \
            self.resolve_call(f, caller, name, receiver)
        if receiver is None and hit[0] != "unresolved" and hit[2] in _NAME_LOOKUPS and \
                self.files[hit[0]].defs[hit[1]][1] not in _TYPE_KINDS and self._local_of(f, caller, name):
            # `const { delay } = config; delay(err)`, `handler = make(); handler()`: the local variable, not
            # the module's or an import's function of that name; what it holds when that is known. (A local
            # named as a class, `Signer = import_string(settings.SIGNING_BACKEND)`, mostly holds it or
            # one like it: Django's test run confirmed three such edges)
            called = self._called_instance(f, caller, None, name)
            hit = (*called, "annotation") if called else ("unresolved", "dynamic:variable")
        return hit

    def _indirect_call(self, f: FileFacts, caller: int | None, name: str, receiver: str | None, src: str,
                       line: int, hit: tuple, answer, implicit: str | None) -> bool:
        """A call of what a variable holds the names did not find: a returned function (or its property), the
        functions every value names, a method looked up by name (``getattr``). True when it got edges."""
        held = (implicit == "dunder" and name == "__call__") or receiver is None
        if held and hit[0] == "unresolved" and (returned := self._returned_function(f, caller, name, receiver)):
            self._call_edge(src, returned, line, "returned")
            return True
        if receiver is None and hit[0] == "unresolved" and not _lsp_holds(answer) and \
                (fns := self._held_functions(f, caller, name)):     # (a server's answer says more)
            for dst in fns:
                self._call_edge(src, dst, line, "held")
            return True
        if not held and hit[0] == "unresolved" and (returned := self._returned_property(f, caller, receiver, name)):
            self._call_edge(src, returned, line, "returned")     # `formatter.end()`
            return True
        # before what names found: `f = self.get_visitor(node)` may be annotated with a Protocol
        if held and self.reflective and \
                (looked_up := self._reflected(f, caller, name, receiver, self.subclass_map)):
            for dst in looked_up:
                self._call_edge(src, dst, line, "reflective")
            return True
        return False

    def _site_edges(self, f: FileFacts, k: int, src: str, answer, hit: tuple, narrowed: str | None) -> None:
        """The edges of an explicit call: the server's answer, else what the names found (an item of a typed
        collection, a union's members, a registry's entries, a subclass's method, overloads), else unresolved."""
        caller, name, receiver, line = f.calls[k][:4]
        subclasses = self.subclass_map
        typed = [i for i in answer[1] if i in self.where] if answer and answer[0] == "sym" else \
            [self.files[hit[0]].ids[hit[1]]] if hit[0] != "unresolved" and hit[2] == "annotation" else []
        if typed and self._keyed_item(f, caller, receiver, src, name, line, typed, subclasses):
            return
        if answer and self._lsp_edge(f, caller, src, answer, hit, name, receiver, line, narrowed):
            return
        if hit[0] != "unresolved" and self.files[hit[0]].defs[hit[1]][1] == "interface":
            hit = ("unresolved", "interface")   # no code of an interface runs: the callee is unindexed
        elif hit[0] != "unresolved" and self.files[hit[0]].ids[hit[1]] in self.protocol_stubs:
            hit = ("unresolved", "protocol")    # nor a Protocol's stub
        if (hit[0] == "unresolved" or hit[2] in _GUESSES) and \
                (self._union_call(f, caller, receiver, src, name, line, narrowed=narrowed) or
                 self._registry_call(f, caller, receiver, src, name, line)):
            return
        if hit[0] == "unresolved":
            if not self._missing_member(f, caller, receiver, src, name, line, subclasses):
                self._unresolved(src, receiver, name, line, hit[1])
            return
        for one in self._overload(hit, self.arity.get((f.path, k)), (f.path, caller)) if self.overloads else [hit]:
            dst = self.files[one[0]].ids[one[1]]
            self._call_edge(src, dst, line, one[2])
            self._note_dispatch(f, caller, receiver, src, dst, line, typed=one[2] == "annotation")

    def _returns_itself(self, hit: tuple, depth: int = 0) -> bool:
        """Whether the function ``hit`` returns only its own object: ``return self`` / ``return this``, or what a
        method of its own object returning itself returns (Express's `res.location` ends `return this.set(...)`)."""
        f = self.files[hit[0]]
        names = LANGUAGES[f.language].self_names
        returned = self.returns.get((hit[0], hit[1])) or ""
        if returned in {f"value:var:{n}" for n in names}:
            return True
        own, _, method = returned.removeprefix("value:call:").rpartition(".")
        if not returned.startswith("value:call:") or own not in names or depth >= 3:
            return False
        inner = self.resolve_call(f, hit[1], method, own)
        return inner[0] != "unresolved" and self._returns_itself(inner, depth + 1)

    def _overload(self, hit: tuple, arguments: int | None, caller: tuple[str, int | None]) -> list[tuple]:
        """Of a Java, C# or C++ function's overloads (a name finds the last one), those a call passing
        ``arguments`` arguments can run: gson's `toJson(JsonNull.INSTANCE)` had reached `toJson(JsonElement,
        JsonWriter)`, and pythonnet's `HasKey(string)` calling `HasKey(str)` looked recursive. Overloads taking a
        fixed number come before one taking any number (Java's phases); of several that fit, the calling one is
        left out (an overload calling its namesake with as many arguments hands over to another one far more
        often than it recurses), and the rest are each one of several (``overloads``)."""
        if arguments is None:
            return [hit]
        d = self.files[hit[0]].defs[hit[1]]
        # a C# partial class's overloads may sit in several of its files (`ToString()`, `ToString(IFormatProvider)`)
        paths = dict.fromkeys(p for p, _c in self._parts(hit[0], d[3])) if d[3] is not None else {hit[0]: None}
        group = [(p, i, fewest, most) for p in paths for i, fewest, most in self.overloads.get((p, d[2]), ())]
        if not group:
            return [hit]
        fits = [(most < 0, (p, i)) for p, i, fewest, most in group
                if fewest <= arguments and (most < 0 or arguments <= most)]
        fits = [h for rest, h in fits if rest == min(fits)[0]] if fits else []
        if len(fits) > 1 and tuple(caller) in fits:
            fits.remove(tuple(caller))
        if not fits:
            return [hit]
        if len(fits) == 1:
            return [(*fits[0], *hit[2:])]
        return [(p, i, "overloads") for p, i in fits]

    def _go_implementations(self) -> dict[str, dict[str, dict[str, str]]]:
        """Go has no `implements`: a named type of the repository implements an interface when it has every
        method the interface names (its own and its embedded interfaces'; by name), itself or through a type it
        embeds. Adds those IMPLEMENTS edges (``structural``); returns interface id -> implementing type id ->
        method name -> the method that runs (missing where a method comes from an embedded interface)."""
        go = [p for p in sorted(self.files) if self.files[p].language == "go"]
        if not go:
            return {}
        embeds: dict[str, list[str]] = defaultdict(list)
        for etype, a, b in self.out.edges:
            if etype == "INHERITS" and self.files[self.where[a][0]].language == "go":
                embeds[a].append(b)
        named: dict[tuple[str, str], str] = {}              # (package directory, type name) -> type id
        own: dict[str, dict[str, str | None]] = defaultdict(dict)   # type or interface id -> method -> id
        interfaces = []
        for p in go:
            f = self.files[p]
            bases = Counter(owner for owner, *_rest in f.bases)
            for i, d in enumerate(f.defs):
                if d[3] is None and d[1] in ("struct", "type", "interface"):
                    named[(posixpath.dirname(p), d[0])] = f.ids[i]
                    if d[1] == "interface" and len(embeds.get(f.ids[i], [])) == bases[i]:
                        interfaces.append(f.ids[i])     # every interface it embeds is the repository's
        for p in go:
            f = self.files[p]
            for i, d in enumerate(f.defs):
                if d[1] != "method":
                    continue
                if d[3] is not None and f.defs[d[3]][1] == "interface":
                    own[f.ids[d[3]]][d[0]] = None      # an interface's method: a name, no code
                elif d[3] is None and "." in d[2]:      # `func (c *counter) Inc()`: counter.Inc
                    owner = named.get((posixpath.dirname(p), d[2].rsplit(".", 1)[0]))
                    if owner:
                        own[owner][d[0]] = f.ids[i]

        def method_set(type_id: str, depth: int = 0) -> dict[str, str | None]:
            found: dict[str, str | None] = {}
            for embedded in embeds.get(type_id, []) if depth < _MAX_BASE_DEPTH else []:
                found.update(method_set(embedded, depth + 1))     # promoted; the type's own win
            found.update(own.get(type_id, {}))
            return found

        having: dict[str, set[str]] = defaultdict(set)          # method name -> types that have it
        sets = {t: method_set(t) for t in named.values() if self._kind(t) != "interface"}
        for t, methods in sets.items():
            for name in methods:
                having[name].add(t)
        out: dict[str, dict[str, dict[str, str]]] = {}
        for iface in interfaces:
            names = sorted(method_set(iface), key=lambda n: len(having[n]))
            if not names:
                continue                                        # `interface{}`: every type
            types = set(having[names[0]]).intersection(*(having[n] for n in names[1:]))
            for t in sorted(types):
                out.setdefault(iface, {})[t] = {n: m for n, m in sets[t].items() if n in names and m}
                self._add_edge("IMPLEMENTS", t, iface, {"line": self.files[self.where[t][0]].defs[self.where[t][1]][4],
                                                        "confidence": CONFIDENCE["structural"],
                                                        "resolved_by": "structural"})
        return out

    def _go_dispatch(self) -> None:
        """A Go call that landed on an interface's method runs the method of whichever type implements the
        interface (``_go_implementations``): each gets an edge (``dispatch``, via the interface's method)."""
        for (etype, src, dst), props in sorted(self.out.edges.items()):
            if etype != "CALLS" or props["resolved_by"] == "dispatch" or props["resolved_by"].startswith("lsp"):
                continue          # (a language server was asked for the implementations itself)
            path, i = self.where[dst]
            d = self.files[path].defs[i]
            if d[1] != "method" or d[3] is None:
                continue
            for methods in self.go_implementers.get(self.files[path].ids[d[3]], {}).values():
                if methods.get(d[0]) and methods[d[0]] != src:
                    for line in props["lines"]:
                        self._call_edge(src, methods[d[0]], line, "dispatch", via=dst)

    def _resolve_bases(self, f: FileFacts) -> None:
        """INHERITS / IMPLEMENTS edges of the classes of ``f`` (a base no definition answers: unresolved)."""
        for owner, name, relation, line in f.bases:
            target = self._base_target(f, owner, name)
            src = f.ids[owner]
            if target is None:
                self.out.unresolved.setdefault(src, []).append(f"{relation.lower()} {name}@{line}:unknown")
                continue
            dst = self.files[target[0]].ids[target[1]]
            if dst != src:
                self._add_edge(relation, src, dst, {"line": line, "confidence": CONFIDENCE[target[2]],
                                                    "resolved_by": target[2]})


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


def _members(name: str) -> list[str]:
    """The types a declared type names: each member of a union (``union:A,B``, extract._ts_type), else itself."""
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


def resolve(repo: str, files: dict[str, FileFacts], use_lsp: bool = False) -> Resolution:
    """Edges of the whole repository; with ``use_lsp`` the language-server answers stored in the facts win
    over name-based resolution where they name a definition."""
    return _Resolver(repo, files, use_lsp).run()
