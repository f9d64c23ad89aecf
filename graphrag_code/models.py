"""Typed records the extractor produces and the indexer writes; every one knows exactly where it lives."""

from __future__ import annotations

import builtins
import re
from dataclasses import asdict, dataclass, field

# a receiver or value made of names only (`ctx.command`, `self._long_opt`): what extraction records for typing
# (extract_types._value_of) and resolution types (resolve.receiver_class)
NAME_CHAIN = re.compile(r"[A-Za-z_]\w*(?:\.#?[A-Za-z_]\w*)*")   # `this.#queryCache`: JavaScript's private names
# Python's built-in classes a receiver may name (`IOError.__init__(self)`, `object.__new__(cls)`): the exceptions
# and warnings (capitalised) and the built-in types; `type`, `filter`, `id` are too often a variable's name
BUILTIN_CLASSES = frozenset({n for n in dir(builtins) if n[0].isupper() and isinstance(getattr(builtins, n), type)}
                            | set("object str bytes bytearray dict list tuple set frozenset int float complex bool"
                                  .split()))


# JavaScript's global objects and constructors (and Node's): `Object.create(null)`, `Promise.resolve()`, `JSON.parse()`
SCRIPT_GLOBALS = frozenset("""Array ArrayBuffer Atomics BigInt Boolean Buffer DataView Date Error EvalError Function
Intl JSON Map Math Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String Symbol SyntaxError
TypeError URIError URL URLSearchParams WeakMap WeakRef WeakSet console document globalThis navigator process
window
AggregateError FinalizationRegistry SharedArrayBuffer WebAssembly Int8Array Uint8Array Uint8ClampedArray Int16Array
Uint16Array Int32Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array
setTimeout setInterval clearTimeout clearInterval setImmediate clearImmediate queueMicrotask structuredClone
parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape
fetch atob btoa AbortController AbortSignal TextEncoder TextDecoder XMLHttpRequest WebSocket FormData Blob
requestAnimationFrame cancelAnimationFrame MutationObserver IntersectionObserver ResizeObserver CustomEvent
EventTarget performance""".split())   # (the language's, Node's and the browser's; not Request, Event or Node, which
# repositories name classes after)


def item_of(chain: str) -> str:
    """An item a name chain holds, got by subscript, in extract_types._value_of's notation: ``subattr:self.opts``
    (an attribute's), ``subname:opts`` (a variable's or a parameter's)."""
    return f"sub{'attr' if '.' in chain else 'name'}:{chain}"


@dataclass
class Definition:
    """A named syntactic unit: function, method, class, struct, interface, trait, enum, module, assignment."""

    name: str
    kind: str
    start_line: int          # 1-based, inclusive; includes decorators and doc comments directly above
    end_line: int            # 1-based, inclusive
    start_byte: int
    end_byte: int
    qualified_name: str = ""
    parent: int | None = None  # index of the enclosing definition in FileExtraction.definitions
    signature: str = ""
    docstring: str = ""
    visibility: str | None = None   # public / private / protected / internal, where the language has it
    exported: bool | None = None
    body_start_line: int | None = None
    # (start_line, end_line) of the statements of the body, used to split long definitions
    blocks: list[tuple[int, int]] = field(default_factory=list)
    # declared to be overridden: @abstractmethod, a body that only raises NotImplementedError / is `pass` or
    # `...`, an `abstract` modifier: a call that lands here runs an override
    abstract: bool = False
    # a subset of abstract: the body cannot do the work (it only raises NotImplementedError, or the method is
    # declared abstract / pure virtual), so a call that lands here runs an override whenever one exists
    placeholder: bool = False
    # Python, TypeScript: parameters annotated with a class (`ctx: Context`, `box: Store`) -> class name, or
    # `[]Name` for a collection of them
    param_types: dict[str, str] = field(default_factory=dict)
    # Python, TypeScript classes: attributes that hold instances of one class (`self.type: ParamType`) -> class, or
    # `[]Name` for a collection of them (`params: t.List["Parameter"]`)
    attr_types: dict[str, str] = field(default_factory=dict)
    # Python classes: the other attributes its methods assign on self or its body annotates (no type known): an
    # object has them, so reading one never asks __getattr__
    attributes: list[str] = field(default_factory=list)
    # Python, TypeScript functions: the returned class (`-> "HelpFormatter"`), `[]Name` for a collection, or "";
    # Python without an annotation: `def:name` for a function it defines and returns (`return decorator`), else
    # `value:` and what its `return` statements return in extract_types._value_of's notation (`value:var:registry`)
    return_type: str = ""
    # Python, JavaScript, TypeScript functions: local variable -> what it is assigned (`call:self.make_parser`)
    var_types: dict[str, str] = field(default_factory=dict)
    property: bool = False   # a getter read as an attribute (`@property`, `@cached_property`): reading it calls it
    # Python: the names its class body makes properties of it (`pk = property(_get_pk_val, _set_pk_val)`)
    property_names: list[str] = field(default_factory=list)
    # Java, C#, C++ functions: how many arguments a call may pass, (fewest, most; -1: any number more)
    arity: tuple[int, int] | None = None
    # Java, C# functions: each parameter's type, to pick among overloads (extract_types._param_kinds)
    param_kinds: list[str] | None = None
    # C# extension methods (`static int Count(this Foo f)`): the type their first parameter extends, or "?"
    extends: str = ""
    # Go named slice and map types (`type byName []*Command`): the underlying type (``[]Command``, ``{}Command``)
    underlying: str = ""
    partial: bool = False    # a C# `partial` class, struct or interface (its other parts are in other files)
    singleton: bool = False  # Ruby: a method of the class itself (`def self.x`, in `class << self`), beside `def x`


@dataclass
class CallSite:
    caller: int | None       # index of the innermost enclosing definition; None for module-level code
    name: str                # the called name (last identifier)
    receiver: str | None     # text before the last `.`/`->`/`::`, e.g. "self", "os.path", "this.store"
    line: int
    column: int = 0          # 0-based byte column of the called name in its line (where a language server asks)
    # a call without call syntax (see extract.py): "read", an attribute read naming a property getter of this
    # file; "dunder", a dunder method of the object Python calls for a statement or operator (`with obj:`'s
    # __enter__/__exit__, `for x in obj`'s __iter__, `k in obj`, `len(obj)`, `obj[k]`); "callback", a function
    # handed to a call as an argument (`sorted(ps, key=sort_key)`): the callee may call it; "decorator", the call
    # of a decorator (`@optimizeconst`) with the definition it decorates (its callback at slot 0): the scope's call
    implicit: str | None = None
    of: tuple[int, int] | None = None   # callback: (line, column) of the name of the call it is an argument of
    slot: int | str | None = None       # callback: its position among the positional arguments, or its keyword
    # Python: the class(es) the receiver is known to be where the call is (`if isinstance(x, A): x.m()`,
    # `except A as e: e.m()`), in extract_types._value_of's notation (`class:A`)
    narrowed: str | None = None
    # Python: arguments that are an item of a collection (`self.__apply(self.patterns[i], data)`), as
    # [[slot, "subattr:self.patterns"], ...]: what the callee's parameter holds
    items_passed: list | None = None
    # Python: `getattr(obj, f"visit_{...}")`, a method looked up by a name built from a literal prefix (visitors,
    # command dispatchers): (obj as written, the prefix); what the lookup returns, called, runs a method of obj's
    # class (or a subclass) whose name starts with the prefix; the third item is 1 when the function returns it
    reflective: tuple[str, str, int] | None = None
    arity: int | None = None    # Java, C#, C++: how many arguments the call passes (picks among overloads)
    arg_kinds: list[str] | None = None   # Java, C#: what each argument is (extract_types._argument_kinds)


@dataclass
class ImportRef:
    module: str              # module / path as written ("..a.b", "./lib/router", "github.com/x/y", "java.util.List")
    name: str | None         # the imported name, for `from m import name`-style imports
    alias: str | None        # local alias
    line: int
    wildcard: bool = False


@dataclass
class BaseRef:
    owner: int               # index of the class-like definition
    name: str
    relation: str            # "INHERITS" or "IMPLEMENTS"
    line: int


@dataclass
class Chunk:
    """A retrievable unit of text with exact 1-based line coordinates in its file."""

    kind: str                # symbol | part | header | module | file | section | operation
    start_line: int
    end_line: int
    text: str                # exactly the source lines start..end, nothing added (citations hash these)
    header: str = ""         # context repeated for parts of a split definition: its signature
    definition: int | None = None   # index of the definition it belongs to
    part: int = 0            # 1.. for parts of a split definition, 0 otherwise
    title: str = ""          # heading, OpenAPI operation, or "<module>"


@dataclass
class FileExtraction:
    language: str
    definitions: list[Definition] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    imports: list[ImportRef] = field(default_factory=list)
    bases: list[BaseRef] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    parse_status: str = "ok"   # ok | partial (syntax errors, recovered) | failed | text
    default_export: str = ""   # JavaScript/TypeScript: the name `module.exports = X` / `export default X` names
    # Python: objects put into a collection (`parser.blockprocessors.register(EmptyBlockProcessor(parser), ...)`,
    # `handlers.append(h)`, `handlers = {"k": h}`): [caller index, the collection's last name, the object in
    # extract_types._value_of's notation or `var:<name>`, the name it is registered under or ""]
    inserts: list[list] = field(default_factory=list)
    # Python: what each module-level variable is assigned, in extract_types._value_of's notation
    # (`_default_text_stdout = _make_cached_stream_func(...)`: `call:_make_cached_stream_func`); one assigned
    # anything unknown is left out
    module_vars: dict[str, str] = field(default_factory=dict)
    # JavaScript/TypeScript: [definition index, another qualified name it is assigned to] (`res.set = res.header =
    # function header() {}`: [index of res.header, "res.set"])
    aliases: list[list] = field(default_factory=list)
    # Python: attributes read through a plain name other than self/cls, not called (`settings.DEBUG`):
    # (caller index, the name, the attribute) -> lines; reading one runs the class's __getattribute__ and, for an
    # attribute it lacks, its __getattr__ (resolve._attribute_hooks)
    reads: dict[tuple, list[int]] = field(default_factory=dict)
    go_module: str = ""        # go.mod: the module path its directory's packages are imported by
    rust_crate: str = ""       # Cargo.toml: the crate name its src/ is used by (`serde_json::from_str`)

    def facts(self) -> dict:
        """What call/import resolution needs from this file, without source text (stored on the File node)."""
        fixtures = self.fixtures()
        calling = self._calling_a_parameter() | self._tests(fixtures)
        # a parameter named like a module's variable or an imported name shadows it (`def test(app)`)
        outer = set(self.module_vars) | {i.alias or i.name or "" for i in self.imports}
        return {
            "defs": [[d.name, d.kind, d.qualified_name, d.parent, d.start_line, d.end_line]
                     for d in self.definitions],
            "calls": [[c.caller, c.name, c.receiver, c.line, c.column] + ([c.implicit] if c.implicit else [])
                      + ([*c.of, c.slot] if c.of else []) for c in self.calls],
            "imports": [[i.module, i.name, i.alias, i.line, i.wildcard] for i in self.imports],
            "bases": [[b.owner, b.name, b.relation, b.line] for b in self.bases],
            "abstract": [i for i, d in enumerate(self.definitions) if d.abstract and d.kind == "method"],
            "placeholders": [i for i, d in enumerate(self.definitions) if d.placeholder and d.kind == "method"],
            "properties": [i for i, d in enumerate(self.definitions) if d.property],
            # a function's parameters when one names a class, when it is nested (its parameters may shadow), when
            # it is a method (an unannotated one may take the annotation of the method it overrides), when it
            # calls one (what its callers hand it is what runs), when it is a test or a pytest fixture (its
            # parameters may be fixtures) or when one shadows a name of the module or a built-in class
            "param_types": [[i, d.param_types] for i, d in enumerate(self.definitions) if d.param_types and (
                any(d.param_types.values()) or d.kind == "method" or i in calling or (
                    d.parent is not None and self.definitions[d.parent].kind in ("function", "method")) or
                not outer.isdisjoint(d.param_types) or not BUILTIN_CLASSES.isdisjoint(d.param_types))],
            "attr_types": [[i, d.attr_types] for i, d in enumerate(self.definitions) if d.attr_types],
            **({"attributes": names} if (names := [[i, d.attributes] for i, d in enumerate(self.definitions)
                                                    if d.attributes]) else {}),
            "returns": [[i, d.return_type] for i, d in enumerate(self.definitions) if d.return_type],
            "var_types": [[i, d.var_types] for i, d in enumerate(self.definitions) if d.var_types],
            **({"default_export": self.default_export} if self.default_export else {}),
            **({"inserts": self.inserts} if self.inserts else {}),
            **({"module_vars": self.module_vars} if self.module_vars else {}),
            **({"go_module": self.go_module} if self.go_module else {}),
            **({"rust_crate": self.rust_crate} if self.rust_crate else {}),
            **({"aliases": self.aliases} if self.aliases else {}),
            **({"fixtures": fixtures} if fixtures else {}),
            **({"reads": reads} if (reads := self._reads()) else {}),
            **({"singletons": ones} if (ones := [i for i, d in enumerate(self.definitions) if d.singleton]) else {}),
            **({"property_names": named} if (named := [[i, n] for i, d in enumerate(self.definitions)
                                                       for n in d.property_names]) else {}),
            **({"narrowed": narrowed} if (narrowed := [[k, c.narrowed] for k, c in enumerate(self.calls)
                                                       if c.narrowed]) else {}),
            **({"items_passed": passed} if (passed := [[k, *a] for k, c in enumerate(self.calls)
                                                       for a in c.items_passed or ()]) else {}),
            **({"reflective": found} if (found := [[k, *c.reflective] for k, c in enumerate(self.calls)
                                                    if c.reflective]) else {}),
            **({"arities": found} if (found := [[k, c.arity, *([c.arg_kinds] if any(c.arg_kinds or ()) else [])]
                                                  for k, c in enumerate(self.calls) if c.arity is not None]) else {}),
            **({"overloads": found} if (found := self._overloads()) else {}),
            **({"extensions": found} if (found := [[i, d.extends] for i, d in enumerate(self.definitions)
                                                     if d.extends]) else {}),
            **({"underlying": found} if (found := [[i, d.underlying] for i, d in enumerate(self.definitions)
                                                     if d.underlying]) else {}),
        }

    def _overloads(self) -> list[list]:
        """[[def index, fewest, most(, parameter types)], ...] of the functions that share their qualified name with
        another (Java, C#, C++ overloads): the resolver picks among them by a call's number of arguments, then (Java,
        C#) by what the arguments are."""
        seen: dict[tuple, list[int]] = {}
        for i, d in enumerate(self.definitions):
            if d.arity is not None:
                seen.setdefault(d.qualified_name, []).append(i)   # C++ `void A::f(int)` out of line too
        # a C# partial class's methods all: their namesakes may be in its other files
        return [[i, *self.definitions[i].arity, *([kinds] if (kinds := self.definitions[i].param_kinds) else [])]
                for group in seen.values() if len(group) > 1 or self._in_partial(group[0]) for i in group]

    def _in_partial(self, i: int) -> bool:
        parent = self.definitions[i].parent
        return parent is not None and self.definitions[parent].partial

    def _reads(self) -> list[list]:
        """``reads`` as [[caller, name, attribute, [lines]], ...], without reads through a module imported whole
        (``import os``: ``os.sep``), which no class of the repository answers."""
        modules = {i.alias or i.module.split(".")[0] for i in self.imports if not i.name}
        return [[caller, held, attr, lines] for (caller, held, attr), lines in self.reads.items()
                if held not in modules]

    def _tests(self, fixtures: list[int]) -> set[int]:
        """Indexes of the Python functions pytest may hand fixtures to: ``test*`` functions and the ``fixtures``."""
        if self.language != "python":
            return set()
        return {i for i, d in enumerate(self.definitions) if d.kind == "function" and d.name.startswith("test")} | \
            set(fixtures)

    def fixtures(self) -> list[int]:
        """Indexes of the module-level functions decorated as pytest fixtures: a call named ``fixture``
        (``@pytest.fixture``, ``@pytest.fixture(...)``) made by the scope around one within its range, its
        decorator."""
        defs = self.definitions
        return sorted({i for c in self.calls if c.name == "fixture" and c.caller is None
                       for i, d in enumerate(defs) if d.parent is None and d.kind == "function"
                       and d.start_line <= c.line < d.end_line})

    def _calling_a_parameter(self) -> set[int]:
        """Indexes of the functions one of whose parameters is called (`check(s)`), in them or in a function
        nested in them."""
        out = set()
        for c in self.calls:
            scope = c.caller if c.receiver is None and not c.implicit else None
            while scope is not None and c.name not in self.definitions[scope].param_types:
                scope = self.definitions[scope].parent
            if scope is not None:
                out.add(scope)
        return out


def to_dict(obj) -> dict:
    return asdict(obj)
