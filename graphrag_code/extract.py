"""Tree-sitter extraction: definitions, calls, imports and base classes of one source file.

What to extract is data: ``queries/<language>-tags.scm``, with the tags captures below. This module only
turns matches into typed records with exact coordinates; it never decides per language what a definition is.

Captures (anything else makes the query file fail to load):
    @definition.<kind>   the whole definition (kind: function, method, class, interface, struct, enum, trait,
                         module, impl, type, constant, macro); with @name, optional @doc and @owner (receiver
                         type)
    @reference.call      a call; with @name (the called identifier) and optional @receiver
    @reference.read      an attribute read, with @name and @receiver: kept as a call when the name is a property
                         defined in the same file and the read is not a call or an assignment target
    @reference.with      a `with` item whose object is @receiver (a name, an attribute or a call): calls of
                         its __enter__ and __exit__
    @reference.dunder    a statement, operator or built-in function that calls a dunder method of @receiver: a
                         ``for`` loop's iterable (__iter__), ``in`` (__contains__), ``len()``, ``iter()``,
                         ``list()``... (@name: _BUILTIN_DUNDERS), a subscript (__getitem__, __setitem__,
                         __delitem__), a call of a call's result (__call__: ``command(name)(f)``)
    @reference.registry  an assignment of a collection written out (@_items: a dict, list, tuple or set) to
                         @name: the names in it are items of that collection (``FileExtraction.inserts``)
    @reference.returns   a ``return`` of a value (@_value): a function defined in the returning one (calling what
                         it returns calls that), or for an unannotated function, what it returns
    @reference.alias     another name (@name) of the definition the statement makes (`res.set = res.header =
                         function header() {}`): ``FileExtraction.aliases``
    @reference.callback  a call one of whose arguments (@name, optional @receiver; @slot for a keyword argument)
                         may be a function: the callee may call it
    @reference.decorator a definition decorated by a name (@name, optional @receiver): a call of the decorator
                         handed the definition (a callback at slot 0), made where the definition is
    @reference.binding   an assignment or loop target (@name; @receiver for ``self.x``) that may tell a
                         receiver's class
    @reference.super     Ruby's `super`: a call of the enclosing method's name on the superclass
    @reference.chain     a constructor handing over to another (@name `super` / `this`, or C#'s initializer):
                         Java's `super(...)` / `this(...)`, C#'s `: base(...)` / `: this(...)`, JavaScript's
                         `super(...)`: a call of the base class (its first INHERITS) or of the class itself, as
                         `new Base(...)` is (``finish_chains``)
    @reference.bare      Ruby: a bare name (@name, the same node) that is a call unless a local variable
    @reference.macro_call  Rust: a macro's invocation (@name): a call of a macro (``CallSite.implicit`` "macro")
    @reference.macro_args / @reference.macro_body   Rust: a macro's token tree (@args), its arguments or a
                         ``macro_rules!`` rule's expansion; C/C++ (macro_body): a function-like ``#define``'s body
                         (@args); parsed again for the calls in it (``_reparsed_calls``)
    @reference.export    JavaScript/TypeScript: the name a module's default export names (``module.exports = X``)
    @reference.inherits / @reference.implements   a base named by @name, inside a class-like definition
    @reference.import    an import; with @import.module and optional @import.name, @import.alias, @import.wildcard
    @reference.use       Rust: a `use` declaration (@args: its argument), one import per name it brings, groups
                         nested at any depth (``add_use``)
    @_<anything>         a node a predicate tests (``(#eq? @_module "module")``), not used otherwise

A query file may start from others: a ``; inherits: a, b`` line loads ``a-tags.scm`` and ``b-tags.scm`` first
(``tsx`` inherits ``typescript``; ``javascript`` and ``typescript`` both inherit ``ecmascript``, the patterns
their grammars share, which is no language of its own).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from functools import lru_cache

import tree_sitter_language_pack as ts_pack
from tree_sitter import Node, Parser, Query, QueryCursor, Range, Tree

from .config import QUERIES_DIR
from .errors import QueryFileError
from .extract_types import (
    _annotated_type, _arguments, _asserted, _assigned_class, _BUILTIN_DUNDERS, _call_arity, _caught, _class_made,
    _constructed, _core, _factory_applied, _go_field_types, _go_item, _go_param_types, _go_result_type, _go_type,
    _go_underlying, _go_value, _held, _inline_parameter, _installed_on, _items_passed, _js_parameters,
    _jsdoc_declared, _jsdoc_types, _method_owner, _narrowing, narrowed_chain, _object_members, _OVERLOADING, _TYPED_OVERLOADS,
    _param_arity, _param_kinds, _argument_kinds, _parameter_names, _pattern_names, _receiver_text, _reflective, _SCRIPT_FUNCTIONS,
    _script_narrowing, _php_assigned_class, _php_doc_local, _php_narrowing, _php_property_types,
    _php_class_name, _php_signature_types, _php_value, _php_held, _SCRIPT_SCOPES, _script_value, _static_initializer,
    _static_signature_types, _static_type, _string_text, _text, _this_declared, _TRANSPARENT_DECORATORS, _ts_guard,
    _ts_signature_types, _ts_type, _type_parameters, _uncast, _unpacked, _value_of,
)
from .languages import DECLARED_TYPES as _STATIC_TYPED, LANGUAGES, SCRIPT_LANGUAGES, LanguageSpec
from .models import NAME_CHAIN as _CHAIN, BaseRef, CallSite, Definition, FileExtraction, ImportRef

DEFINITION_KINDS = frozenset({"function", "method", "class", "interface", "struct", "enum", "trait", "module",
                              "impl", "type", "constant", "macro"})
# @reference.<kind> -> the _Builder method that takes it; the two base kinds go to add_base
_REFERENCE_HANDLERS = {"call": "add_call", "read": "add_read", "with": "add_with", "dunder": "add_dunder",
                       "callback": "add_callback", "registry": "add_registry", "returns": "add_returned",
                       "alias": "add_alias", "export": "add_export", "import": "add_import", "binding": "add_binding",
                       "decorator": "add_decorator", "exported": "add_exported", "super": "add_super",
                       "bare": "add_bare", "chain": "add_chain", "use": "add_use",
                       "macro_args": "add_macro_args", "macro_body": "add_macro_body",
                       "macro_call": "add_macro_call"}
_REFERENCE_KINDS = frozenset(_REFERENCE_HANDLERS) | {"inherits", "implements"}
_INNER_CAPTURES = frozenset({"name", "doc", "owner", "receiver", "slot", "args", "import.module", "import.name",
                             "import.alias", "import.wildcard"})
_MODIFIER_TYPES = frozenset({"modifiers", "modifier", "visibility_modifier", "accessibility_modifier",
                             "storage_class_specifier", "visibility"})
_VISIBILITY_WORDS = ("public", "private", "protected", "internal")
_MAX_SIGNATURE = 300
_PROPERTY = re.compile(rb"@(?:functools\.)?(?:cached_)?property\s*$", re.M)   # a getter's decorator
# statements that write an attribute rather than read it: the field holding the target (None: all of it)
_WRITES = {"assignment": "left", "augmented_assignment": "left", "delete_statement": None}
_YIELD = re.compile(rb"\byield\b")   # a generator (or a function with one nested: left untyped either way)
_NARROWABLE = re.compile(rb"isinstance\(\s*([A-Za-z_][\w.]*)\s*,|\bexcept\b[^:\n]*\bas\s+([A-Za-z_]\w*)\s*:")
# JavaScript/TypeScript: names an `x instanceof A` or a type guard's call in a condition (`if (isObservableSet(obj))`,
# `isMap(obj) ? ... : ...`, `&&`) may narrow
_SCRIPT_NARROWABLE = re.compile(rb"([A-Za-z_$][\w$.]*)\s+instanceof\b|"
                                rb"[A-Za-z_$][\w$.]*\(\s*([A-Za-z_$][\w$.]*)\s*\)\s*(?:\)|&&|\?)")
# PHP: variables (and properties: `$this->output`) an `instanceof`, an `X::assertInstanceOf($v)` or an
# `assert($v instanceof X)` may narrow
_PHP_NARROWABLE = re.compile(rb"(\$[A-Za-z_]\w*(?:->[A-Za-z_]\w*)*)\s+instanceof\b|"
                             rb"assertInstanceOf\(\s*(\$[A-Za-z_]\w*(?:->[A-Za-z_]\w*)*)\s*\)")
# per language: what finds the names a file may narrow, and what tells a call's receiver's class from the code around
_NARROWINGS = {"python": (_NARROWABLE, _narrowing), "php": (_PHP_NARROWABLE, _php_narrowing),
               **{language: (_SCRIPT_NARROWABLE, _script_narrowing) for language in SCRIPT_LANGUAGES}}
# JavaScript/TypeScript: names a `const` / `let` declares (a name declared twice may be of two classes, one per block)
_SCRIPT_DECLARED = re.compile(rb"\b(?:const|let)\s+([A-Za-z_$][\w$]*)")
# JavaScript's array (and Set) methods whose callback's first parameter is an item
_ITERATING = frozenset({"forEach", "map", "filter", "some", "every", "find", "findIndex", "findLast", "findLastIndex",
                        "flatMap"})
# methods that put an object into a collection (a list, a set, a deque, a registry of the repository's own)
_INSERTS = frozenset({"append", "appendleft", "add", "insert", "register"})


def check_captures(names: list[str], source: str) -> None:
    """Reject capture names outside the convention, the way tree-sitter's tags loader does."""
    for name in names:
        head, _, tail = name.partition(".")
        ok = (name in _INNER_CAPTURES or name.startswith("_")    # `@_module`: only for a predicate
              or (head == "definition" and tail in DEFINITION_KINDS)
              or (head == "reference" and tail in _REFERENCE_KINDS))
        if not ok:
            raise QueryFileError(f"{source}: unknown capture @{name}",
                                 hint=f"use @definition.<{'|'.join(sorted(DEFINITION_KINDS))}>, "
                                      f"@reference.<{'|'.join(sorted(_REFERENCE_KINDS))}> or "
                                      f"@{', @'.join(sorted(_INNER_CAPTURES))} (@_<name> for predicates)")


_INHERITS = re.compile(r"^;\s*inherits:\s*([\w, ]+)$", re.M)


def query_source(language: str, _seen: tuple[str, ...] = ()) -> str:
    """The text of queries/<language>-tags.scm, preceded by the files its `; inherits: a, b` line names."""
    path = QUERIES_DIR / f"{language}-tags.scm"
    if language in _seen:
        raise QueryFileError(f"{path.name}: inherits itself through {' -> '.join(_seen)}")
    try:
        own = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise QueryFileError(f"no query file for {language}: {path}") from exc
    parents = [p.strip() for m in _INHERITS.finditer(own) for p in m.group(1).split(",") if p.strip()]
    return "\n".join([*(query_source(p, (*_seen, language)) for p in parents), own])


@lru_cache(maxsize=None)
def load_query(language: str) -> Query:
    """Compile queries/<language>-tags.scm once per process, checking its captures."""
    path = QUERIES_DIR / f"{language}-tags.scm"
    source = query_source(language)
    try:
        query = Query(ts_pack.get_language(LANGUAGES[language].grammar), source)
    except Exception as exc:  # tree-sitter raises QueryError / NameError-like errors with the position
        raise QueryFileError(f"{path.name}: {exc}") from exc
    check_captures([query.capture_name(i) for i in range(query.capture_count)], path.name)
    return query


@lru_cache(maxsize=None)
def get_parser(language: str) -> Parser:
    return ts_pack.get_parser(LANGUAGES[language].grammar)


_RECOVERY_JOIN = 5       # top-level blocks a statement that does not parse alone may span (see _recovered)
_RECOVERY_PARSES = 400   # parses _recovered may spend on one file
_SWALLOWED_LINES = 20    # a top-level statement this long with an error inside may have taken code with it


def _in_interface(node: Node) -> bool:
    """A member declared in the body of an interface (TypeScript, Java, C#, PHP)."""
    body = node.parent
    return body is not None and body.parent is not None and body.parent.type == "interface_declaration"


def _test_title(runner: str, title: Node) -> str:
    """The name of a JavaScript/TypeScript test or suite: its runner and its title, ``it finds a query``. The space
    keeps it apart from every identifier (a suite titled after the class it tests is not that class); the title's
    dots and ``#`` (which qualified names and symbol ids use) become spaces, and it is cut at 100 characters."""
    text = _text(title)
    text = text[1:-1] if len(text) >= 2 and text[0] in "'\"`" and text[-1] == text[0] else text
    return " ".join(f"{runner} {re.sub(r'[.#]', ' ', text)}".split())[:100]


# Ruby nodes that bind the identifiers in them (an assignment's left side, a `for`'s pattern, the rest whole)
_RUBY_BINDERS = frozenset({"method_parameters", "block_parameters", "lambda_parameters", "assignment",
                           "operator_assignment", "exception_variable", "for", "in_clause", "test_pattern",
                           "match_pattern"})
_RUBY_IMPLICIT_PARAMETER = re.compile(r"_[1-9]|it")       # a block's `_1`, `it`


def _identifiers(node: Node) -> list[Node]:
    """The identifiers in ``node``, itself included, not those of a default value (`def f(a, b = compute)`)."""
    if node.type == "identifier":
        return [node]
    if node.type in ("optional_parameter", "keyword_parameter") and node.child_by_field_name("name") is not None:
        return [node.child_by_field_name("name")]
    if node.type == "keyword_pattern" and node.child_by_field_name("value") is None:
        return [node.child_by_field_name("key")] if node.child_by_field_name("key") is not None else []   # `in {name:}`
    if node.type in ("call", "element_reference"):
        return []           # `self.status = 1`, `h[key] = 1` bind no local
    return [i for c in node.named_children for i in _identifiers(c)]


def _ruby_singleton(node: Node) -> bool:
    """A Ruby method of the class itself: `def self.x`, or `def x` inside `class << self`."""
    if node.type == "singleton_method":
        return True
    body = node.parent
    return node.type == "method" and body is not None and body.parent is not None and \
        body.parent.type == "singleton_class"


def _find_body(node: Node, depth: int = 3) -> Node | None:
    body = node.child_by_field_name("body")
    if body is not None or depth == 0:
        return body
    for child in node.named_children:
        found = _find_body(child, depth - 1)
        if found is not None:
            return found
    return None


_C_STATEMENT_WORDS = frozenset({"if", "else", "while", "for", "do", "switch", "case", "return", "sizeof", "goto"})


class _Builder:
    """Turns the query matches of one parsed file into a FileExtraction."""

    def __init__(self, spec: LanguageSpec, source: bytes, root: Node) -> None:
        self.spec, self.source, self.root = spec, source, root
        self.result = FileExtraction(language=spec.name)
        self._imports_seen: set[tuple] = set()      # result.imports as tuples: a list scan per import was O(n^2)
        self._def_nodes: list[Node] = []
        self._locals_of: dict[int, frozenset[str]] = {}     # Ruby: the names each method binds (_ruby_locals)
        # add_chain: caller, own, line, column, arity, argument kinds
        self._chains: list[tuple[int, bool, int, int, int | None, list[str] | None]] = []
        self._name_bytes: list[int] = []       # where each definition's name starts
        self._body_bytes: list[int] = []       # where each definition's body starts (its end when it has none)
        self._properties: set[str] = set()     # names of this file's property getters
        self._callbacks: list[CallSite] = []     # arguments that may be functions (add_callback)
        # Python: names an `isinstance(name, ...)` or an `except ... as name:` may narrow (_narrowing walks up
        # from a call only for these: most files have none)
        narrowable = _NARROWINGS.get(spec.name)
        self._narrowable = {(m[0] or m[1]).decode() for m in narrowable[0].findall(source)} if narrowable else set()
        # JavaScript/TypeScript: names declared in more than one block (`const observer = new QueryObserver(...)` in
        # one test's callback, `= new MutationObserver(...)` in another's): _block_declared tells them apart
        declared = Counter(m.decode() for m in _SCRIPT_DECLARED.findall(source)) if spec.name in SCRIPT_LANGUAGES \
            else Counter()
        self._redeclared = {name for name, n in declared.items() if n > 1}
        # Python bindings (add_binding): definition index -> name -> what it is assigned / annotated with
        self._locals: dict[int, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._hiding: dict[int, set[str]] = defaultdict(set)   # JS/TS: names a destructuring declaration binds
        self._go_declared: dict[int, dict[str, str]] = defaultdict(dict)   # Go `var x T`: def -> name -> class:T
        self._attr_annotated: dict[int, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._attr_assigned: dict[int, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._ctor_assigned: dict[int, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))   # JS/TS
        self._module_vars: dict[str, set[str]] = defaultdict(set)
        self._returned: dict[int, set[str]] = defaultdict(set)      # function index -> values it returns
        self._export_list: set[str] = set()     # JS/TS: names an `export { a, B as Bee }` lists

    # -- definitions ---------------------------------------------------------------------------------------
    def add_definitions(self, matches: list[tuple[str, Node, dict[str, list[Node]]]]) -> None:
        # One definition per @name node; when a wrapper (decorators, export) and the bare form both match,
        # the wider node wins so decorators stay inside the range.
        chosen: dict[tuple[int, int], tuple[str, Node, dict[str, list[Node]]]] = {}
        for kind, node, caps in matches:
            name_node = caps["name"][0]
            key = (name_node.start_byte, name_node.end_byte)
            old = chosen.get(key)
            if old is None or (node.end_byte - node.start_byte) > (old[1].end_byte - old[1].start_byte):
                chosen[key] = (kind, node, caps)
        # one statement captured for several names (`app.get('/', function auth() {}, function list() {})`):
        # each definition is its own function then, not the whole statement
        shared = Counter((node.start_byte, node.end_byte) for _kind, node, _caps in chosen.values())
        chosen = {key: (kind, caps["name"][0].parent if shared[(node.start_byte, node.end_byte)] > 1 and
                        caps["name"][0].parent is not None else node, caps)
                  for key, (kind, node, caps) in chosen.items()}
        ordered = sorted(chosen.values(), key=lambda m: (m[1].start_byte, -m[1].end_byte))
        for kind, node, caps in ordered:
            self._add_definition(kind, node, caps)
        self._link_parents()
        if self.spec.name == "python":
            self._property_assignments()
        self._properties = {d.name for d in self.result.definitions if d.property}.union(
            *(d.property_names for d in self.result.definitions))

    def _property_assignments(self) -> None:
        """`pk = property(_get_pk_val, _set_pk_val)` in a class body: reading `pk` runs `_get_pk_val`
        (``Definition.property_names``; Django has 52 such properties). The getter named first, a method of the
        class; a keyword (`fget=`) or a lambda is not followed."""
        defs = self.result.definitions
        for i, d in enumerate(defs):
            body = _core(self._def_nodes[i]).child_by_field_name("body") if d.kind == "class" else None
            for statement in body.named_children if body is not None else ():
                assigned = statement.named_children[0] if statement.type == "expression_statement" and \
                    statement.named_child_count == 1 else statement     # (the grammar may leave the wrapper out)
                left = assigned.child_by_field_name("left") if assigned.type == "assignment" else None
                right = assigned.child_by_field_name("right") if left is not None else None
                if left is None or left.type != "identifier" or right is None or right.type != "call" or \
                        _text(right.child_by_field_name("function")) != "property":
                    continue
                handed = [a for a in right.child_by_field_name("arguments").named_children if a.type != "comment"]
                getter = _text(handed[0]) if handed and handed[0].type == "identifier" else ""
                found = [j for j, g in enumerate(defs) if g.parent == i and g.name == getter and g.kind == "method"]
                if found:
                    defs[found[-1]].property_names.append(_text(left))

    def _add_definition(self, kind: str, node: Node, caps: dict[str, list[Node]]) -> None:
        core, head, end_row = _core(node), node, node.end_point.row
        if kind == "macro" and node.type.startswith("preproc"):
            end_row = _last_row(node)         # a #define's node holds its newline: it ends at the next row's start
        while self.spec.name == "cpp" and head.parent is not None and head.parent.type == "template_declaration":
            head = head.parent      # `template <class T> template <class U> R Box<T>::put(U)`: both lines
        if node.parent is None and node.children:
            # Captured on the root: a declaration that scopes the rest of the file (C# `namespace X;`) runs from
            # that declaration to the file's last line, and the rest of the file nests inside it.
            name_start = caps["name"][0].start_byte
            head = core = next(c for c in node.children if c.end_byte > name_start)
            end_row = _last_row(node.children[-1])
        start = self._leading_start(head)
        body = _find_body(core)
        name = " ".join(_text(caps["name"][0]).split())
        if "_runner" in caps:                           # `it('finds a query', () => ...)`: `it finds a query`
            name = _test_title(_text(caps["_runner"][0]), caps["name"][0])
        if self.spec.name in ("c", "cpp") and name in _C_STATEMENT_WORDS:
            return      # `Py_END_ALLOW_THREADS if (r < 0) {`: a macro without `;` makes the grammar see a function `if`
        owner = ""
        if caps["name"][0].type == "qualified_identifier":     # `void ns::Outer::Inner::run()`: ns.Outer.Inner.run
            owner, name = _scope_path(caps["name"][0])
        elif "owner" in caps and self.spec.name == "cpp":      # `b::Widget::twice()`: b.Widget, not Widget
            top = caps["name"][0]
            while top.parent is not None and top.parent.type == "qualified_identifier":
                top = top.parent
            owner = _scope_path(top)[0] or _text(caps["owner"][0])
        if caps["name"][0].type == "operator_cast":     # C++ `operator bool() const`: `operator bool`
            cast_type = caps["name"][0].child_by_field_name("type")
            name = f"operator {' '.join(_text(cast_type).split())}" if cast_type is not None else "operator"
        definition = Definition(
            name=name, kind=kind,
            start_line=start.start_point.row + 1, end_line=end_row + 1,
            start_byte=start.start_byte, end_byte=node.end_byte,
            signature=self._signature(core, body),
            docstring=self._docstring(caps, body, start, head),
            body_start_line=body.start_point.row + 1 if body is not None else None,
            blocks=[(c.start_point.row + 1, c.end_point.row + 1) for c in (body.named_children if body else [])],
            **self._abstract(start, core, body),
            property=bool(_PROPERTY.search(self.source[start.start_byte:core.start_byte])),
            **(self._signature_types(core, self.source[start.start_byte:head.start_byte] if start is not head
                                     else b"") if kind in ("function", "method") else {}),
            arity=_param_arity(core) if kind in ("function", "method") and self.spec.name in _OVERLOADING else None,
            param_kinds=_param_kinds(core) if kind in ("function", "method") and self.spec.name in _TYPED_OVERLOADS
            else None,
            **({"attr_types": _go_field_types(node)} if self.spec.name == "go" and kind == "struct" else {}),
            **({"attr_types": _php_property_types(node)} if self.spec.name == "php" and kind == "class" else {}),
            **({"underlying": _go_underlying(node)} if self.spec.name == "go" and kind == "type" else {}),
            partial=self.spec.name == "csharp" and any(c.type == "modifier" and _text(c) == "partial"
                                                        for c in node.children),
            singleton=self.spec.name == "ruby" and _ruby_singleton(node),
        )
        if "owner" in caps or owner:
            definition.qualified_name = f"{owner or _text(caps['owner'][0])}.{name}"
        elif "::" in name and self.spec.name in ("cpp", "ruby"):
            # `namespace a::b {`, Ruby's `module Outer::Inner`: named `b` inside `a`, as `namespace a { namespace b`
            definition.qualified_name, definition.name = name.replace("::", "."), name.rsplit("::", 1)[1]
        elif "." in name and kind == "function":
            # `app.use = function…` / `exports.render = …`: the qualified name is the whole target, the name
            # its last part, so `app.use(...)` elsewhere and lookups by `use` both find it
            definition.qualified_name, definition.name = name, name.rsplit(".", 1)[1]
        definition.visibility, definition.exported = self._visibility(head, core, name)
        self.result.definitions.append(definition)
        self._def_nodes.append(node)
        self._name_bytes.append(caps["name"][0].start_byte)
        self._body_bytes.append(body.start_byte if body is not None else node.end_byte)

    def _abstract(self, start: Node, core: Node, body: Node | None) -> dict[str, bool]:
        """Whether a method is declared to be overridden (``Definition.abstract``) and whether its body cannot do
        the work (``Definition.placeholder``)."""
        head = self.source[start.start_byte:(body.start_byte if body is not None else core.end_byte)]
        if re.search(rb"\babstract(method)?\b", head) or re.search(rb"\)[^;{]*=\s*0\s*;?\s*$", head):
            return {"abstract": True, "placeholder": True}   # `abstract`, `@abstractmethod`, C++ `= 0;`
        if body is None and _in_interface(core):
            # an interface's method without a body (not Java's `default` one): what implements it runs. Not a
            # placeholder: a call typed by the interface keeps its edge (changing the signature breaks it)
            return {"abstract": True, "placeholder": False}
        if self.spec.name != "python" or body is None:
            return {"abstract": False, "placeholder": False}
        # the grammar gives a docstring and `...` bare or wrapped in an expression statement
        statements = [_core(c) for c in body.named_children if c.type != "comment"]
        if statements and statements[0].type == "string":
            statements = statements[1:]            # the docstring
        if len(statements) != 1:
            return {"abstract": not statements, "placeholder": False}   # a docstring alone (a protocol method)
        only = statements[0]
        raises = only.type == "raise_statement" and b"NotImplementedError" in self.source[only.start_byte:only.end_byte]
        # `pass` / `...` bodies are hooks that run as no-ops when not overridden: abstract, not placeholders
        return {"abstract": raises or only.type in ("pass_statement", "ellipsis"), "placeholder": raises}

    def _leading_start(self, node: Node) -> Node:
        """Extend a definition upwards over doc comments, attributes and annotations touching it."""
        start = node
        sibling, wrapper = node.prev_named_sibling, node.parent
        # a wrapper starting exactly at the definition is transparent: Ruby keeps a comment above the first
        # statement of a class body outside the body_statement that holds that statement
        while sibling is None and wrapper is not None and wrapper.start_byte == node.start_byte:
            sibling, wrapper = wrapper.prev_named_sibling, wrapper.parent
        while (sibling is not None and sibling.type in self.spec.leading_types
               and _last_row(sibling) >= start.start_point.row - 1
               # a comment ending a line of code (`class A {  // helper`) is that line's, not a doc of what follows
               and (self._opens_line(sibling) or not sibling.type.endswith("comment"))
               and (_last_row(sibling) < start.start_point.row + (0 if sibling.type.endswith("comment") else 1)
                    # a comment opening the definition's own line (`/*public*/ int[] get()`): the doc above it too
                    or sibling.start_point.row == start.start_point.row == node.start_point.row)):
            start = sibling
            sibling = sibling.prev_named_sibling
        return start

    def _opens_line(self, node: Node) -> bool:
        """Only whitespace precedes ``node`` on its first line."""
        return not self.source[node.start_byte - node.start_point.column:node.start_byte].strip()

    def _signature_types(self, core: Node, leading: bytes) -> dict:
        if self.spec.name == "python":
            return self._python_types(core)
        if self.spec.name in ("typescript", "tsx"):
            return _ts_signature_types(core)
        if self.spec.name == "javascript":
            return _jsdoc_types(_js_parameters(core), leading)
        if self.spec.name == "go" and core.type in ("function_declaration", "method_declaration"):
            return {"param_types": _go_param_types(core), "return_type": _go_result_type(core)}
        if self.spec.name in _STATIC_TYPED:
            return _static_signature_types(core)
        if self.spec.name == "php" and core.type in ("method_declaration", "function_definition"):
            return _php_signature_types(core, leading)
        return {}

    def _python_types(self, core: Node) -> dict:
        """What a Python function's signature tells: its parameters' classes and what it returns
        (``_annotated_type``); its local variables come from ``@reference.binding`` (``add_binding``)."""
        returns = core.child_by_field_name("return_type")
        return {"param_types": self._param_types(core),
                "return_type": (_annotated_type(_text(returns)) or "") if returns is not None else ""}

    def _param_types(self, core: Node) -> dict[str, str]:
        """Python parameters -> the one class each is annotated with (`ctx: Context`, `param:
        "t.Optional[Parameter]"`, `f: click.File | None`), or "" (no annotation, a builtin, a union of two
        classes, a generic): a parameter shadows one of the same name in an enclosing function."""
        params = core.child_by_field_name("parameters")
        out: dict[str, str] = {}
        for p in params.named_children if params is not None else []:
            if p.type == "identifier":           # unannotated: it still shadows a parameter of an outer function
                out[_text(p)] = ""
                continue
            if p.type not in ("typed_parameter", "typed_default_parameter", "default_parameter"):
                continue
            name = p.child_by_field_name("name") or next((c for c in p.named_children if c.type == "identifier"), None)
            annotation = p.child_by_field_name("type")
            if name is not None:
                out[_text(name)] = (_annotated_type(_text(annotation)) or "") if annotation is not None else ""
        first = params.named_children[0] if params is not None and params.named_children else None
        owner = _method_owner(core) if first is not None and first.type == "identifier" else None
        if owner and _text(first) in ("self", "cls"):
            del out[_text(first)]              # the resolver's self_names
        elif owner:                            # `def invoke(__self, callback)`: the object, whatever its name
            out[_text(first)] = owner
        return out

    def _signature(self, core: Node, body: Node | None) -> str:
        end = body.start_byte if body is not None and body.start_byte > core.start_byte else core.end_byte
        if body is None:
            newline = self.source.find(b"\n", core.start_byte, end)
            end = newline if newline >= 0 else end
        raw = self.source[core.start_byte:end]
        if b"#" in raw or b"//" in raw or b"/*" in raw:
            # comments before the body (`def total  # TODO`, `def f(a, b):  # noqa`) are not the signature
            for start_byte, end_byte in sorted(_comments_before(core, end), reverse=True):
                before, after = raw[:start_byte - core.start_byte], raw[end_byte - core.start_byte:]
                raw = before.rstrip() + after if after[:1] in (b")", b",") else before + b" " + after
        text = " ".join(raw.decode("utf-8", errors="replace").split()).rstrip("{:= ").rstrip()
        return text[:_MAX_SIGNATURE]

    def _docstring(self, caps: dict[str, list[Node]], body: Node | None, start: Node, node: Node) -> str:
        if "doc" in caps:
            return _clean_doc(" ".join(_text(n) for n in caps["doc"]), self.spec.comment_prefixes)
        if body is not None and body.named_child_count and self.spec.name == "python":
            first = body.named_children[0]
            if first.type == "expression_statement" and first.named_child_count and \
                    first.named_children[0].type == "string":
                return _clean_doc(_text(first.named_children[0]), ())
            if first.type == "string":
                return _clean_doc(_text(first), ())
        if start is not node:
            # up to the definition's own line: a comment opening it (`/*public*/ int[] get()`) is no doc
            end = node.start_byte - node.start_point.column if node.start_point.row > start.start_point.row \
                else node.start_byte
            comments = self.source[start.start_byte:end].decode("utf-8", errors="replace")
            lines = [ln for ln in comments.splitlines() if not ln.strip().startswith(("#[", "@", "["))]
            return _clean_doc("\n".join(lines), self.spec.comment_prefixes)
        return ""

    def _visibility(self, node: Node, core: Node, name: str) -> tuple[str | None, bool | None]:
        lang = self.spec.name
        if lang == "python":
            private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
            return ("private" if private else "public"), not private
        if lang == "go":
            return ("public" if name[:1].isupper() else "private"), name[:1].isupper()
        words = " ".join(_text(c) for n in (node, core) for c in n.children if c.type in _MODIFIER_TYPES)
        if lang in SCRIPT_LANGUAGES:
            exported = node.type == "export_statement" or (node.parent is not None and
                                                           node.parent.type == "export_statement")
            vis = next((w for w in _VISIBILITY_WORDS if w in words.split()), None)
            if name.startswith("#"):
                vis = "private"
            elif vis is None and node.parent is not None and node.parent.type == "class_body":
                vis = "public"          # a class member without a modifier
            return vis, exported
        if lang == "cpp" and node.parent is not None and node.parent.type == "field_declaration" and \
                node.parent.parent is not None and node.parent.parent.type == "field_declaration_list":
            node = node.parent          # a nested class, `private: class Inner {...};`: its declaration's label
        if lang == "cpp" and node.parent is not None and node.parent.type == "field_declaration_list":
            # a member: the nearest `public:`/`private:` label above it, else the class/struct default
            label = node.prev_sibling
            while label is not None and label.type != "access_specifier":
                label = label.prev_sibling
            owner_type = node.parent.parent.type if node.parent.parent is not None else ""
            vis = _text(label) if label is not None else ("private" if owner_type == "class_specifier" else "public")
            return vis, vis == "public"
        if lang in ("c", "cpp"):
            internal = "static" in words.split()
            return ("internal" if internal else "public"), not internal
        if lang == "ruby":  # `private def x`, or a bare `private` / `protected` line above the defs in a body
            labels = ("public", "private", "protected")
            call = node.parent.parent if node.parent is not None and node.parent.type == "argument_list" else None
            method = call.child_by_field_name("method") if call is not None and call.type == "call" else None
            label = node.prev_named_sibling if node.type == "method" else None
            while label is not None and not (label.type == "identifier" and _text(label) in labels):
                label = label.prev_named_sibling
            vis = _text(method) if method is not None and _text(method) in labels else \
                (_text(label) if label is not None else "public")
            return vis, vis == "public"
        if lang == "php":  # functions, types and members without a visibility modifier are public
            vis = next((w for w in _VISIBILITY_WORDS if w in words.split()), "public")
            return vis, vis == "public"
        if lang == "rust":  # `pub(crate)`, `pub(super)`, `pub(in path)` are visible inside the crate only
            restricted = words.replace(" ", "").startswith("pub(")
            return ("internal" if restricted else "public" if words.startswith("pub") else "private"), \
                words.startswith("pub") and not restricted
        vis = next((w for w in _VISIBILITY_WORDS if w in words.split()), None)
        return vis, (vis in (None, "public")) if lang == "ruby" else (vis == "public")

    def _link_parents(self) -> None:
        defs, nodes = self.result.definitions, self._def_nodes
        stack: list[int] = []
        for i, node in enumerate(nodes):
            while stack and nodes[stack[-1]].end_byte < node.end_byte:
                stack.pop()
            if stack and nodes[stack[-1]].start_byte <= node.start_byte:
                defs[i].parent = stack[-1]
            stack.append(i)
        for d in defs:
            parent = defs[d.parent] if d.parent is not None else None
            in_namespace = parent is not None and parent.kind in self.spec.namespace_kinds
            if d.kind == "function" and parent is not None and parent.kind in self.spec.container_kinds \
                    and not in_namespace:
                d.kind = "method"
            if not d.qualified_name:
                d.qualified_name = f"{_scope_name(parent)}.{d.name}" if parent is not None else d.name
            elif in_namespace:  # `void Foo::bar()` inside `namespace ns {}`: the @owner is relative to ns
                d.qualified_name = f"{_scope_name(parent)}.{d.qualified_name}"
        # a definition owns its leading lines too: calls in decorators that the grammar puts beside the
        # definition (TypeScript method decorators) belong to it, as they do where the grammar nests them
        self._starts = [d.start_byte for d in defs]

    def enclosing(self, byte: int) -> int | None:
        """Index of the innermost definition containing ``byte`` (walks parents: ranges nest)."""
        i = bisect.bisect_right(self._starts, byte) - 1
        while i is not None and i >= 0:
            if self._def_nodes[i].end_byte > byte:
                return i
            i = self.result.definitions[i].parent
        return None

    def caller_at(self, node: Node) -> int | None:
        """The definition whose code runs ``node``: the innermost one containing it, but in Python not the one
        whose head holds it. A decorator, a default value, an annotation or a base class is evaluated when the
        ``def``/``class`` statement runs, in the scope around it (``@click.option(...)`` in a test function is
        called by the test, not by the command it decorates)."""
        caller = self.enclosing(node.start_byte)
        if self.spec.name == "python":
            while caller is not None and node.start_byte < self._body_bytes[caller]:
                caller = self.result.definitions[caller].parent
        return caller

    # -- references ----------------------------------------------------------------------------------------
    def add_call(self, node: Node, caps: dict[str, list[Node]]) -> None:
        name = _text(caps["name"][0]) if "name" in caps else ""
        if not name:
            return
        receiver = _receiver_text(_asserted(caps["receiver"][0]), self.spec.name) if "receiver" in caps else None
        if receiver and receiver.split(".")[0] == "this" and self.spec.name != "python" and \
                (holder := _installed_on(node)):
            receiver = holder + receiver[4:]     # `proto[method] = function () { this.route() }`: proto.route
        line, column = caps["name"][0].start_point.row + 1, caps["name"][0].start_point.column
        caller = self.caller_at(node)
        while caller is not None and node.start_byte <= self._name_bytes[caller] < node.end_byte:
            # a call wrapping the definition (`defineGetter(req, 'ip', function ip() {})`) is made by the code
            # around it, not by the function it is given
            caller = self.result.definitions[caller].parent
        narrowed = _NARROWINGS[self.spec.name][1](node, receiver) if receiver in self._narrowable else None
        if not narrowed and receiver and self._narrowable:   # `$node->getReference()->getLabel()`
            narrowed = narrowed_chain(node, _asserted(caps["receiver"][0]), self._narrowable,
                                      _NARROWINGS[self.spec.name][1])
        if not narrowed and receiver in self._redeclared:
            narrowed = self._block_declared(node, receiver)
        if not narrowed and receiver and self.spec.name in SCRIPT_LANGUAGES:
            narrowed = _constructed(caps["receiver"][0])      # `new GC(id, length).integrate(tr, 0)`
        if not narrowed and receiver == "this" and self.spec.name in ("typescript", "tsx"):
            narrowed = _this_declared(node)
        elif not narrowed and receiver and receiver.isidentifier() and self.spec.name in ("typescript", "tsx"):
            narrowed = _inline_parameter(node, receiver)      # `return (source: Observable<T>) => source.pipe()`
        passed = _items_passed(node) if self.spec.name == "python" and node.type == "call" else None
        reflective = _reflective(node) if self.spec.name == "python" and name == "getattr" and receiver is None \
            and node.type == "call" else None
        self.result.calls.append(CallSite(caller, name, receiver, line, column, narrowed=narrowed or None,
                                          items_passed=passed or None, reflective=reflective,
                                          arity=_call_arity(node) if self.spec.name in _OVERLOADING else None,
                                          arg_kinds=_argument_kinds(node) if self.spec.name in _TYPED_OVERLOADS
                                          else None))
        if self.spec.name == "python" and name in _INSERTS and receiver and _CHAIN.fullmatch(receiver):
            self._insert(node, caller, receiver.rsplit(".", 1)[-1], name)
        if caller is not None and node.type in ("call_expression", "new_expression") and self.spec.name != "python":
            self._callback_parameter(node, caller, name, receiver)

    def add_super(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Ruby's `super` / `super(...)`: a call of the method it is in, on the superclass (receiver `super`,
        resolved as Python's `super().m()` is)."""
        caller = self.caller_at(node)
        if caller is not None and self.result.definitions[caller].kind == "method":
            self.result.calls.append(CallSite(caller, self.result.definitions[caller].name, "super",
                                              node.start_point.row + 1, node.start_point.column))

    def add_chain(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """A constructor's `super(...)` / `this(...)` (C#: `: base(...)` / `: this(...)`): kept until the class's
        bases are all read (``finish_chains``). It made no call: Java's and C#'s impact of a base's constructor
        missed the subclasses' constructors that run it, and `this(...)` the overload handing over."""
        caller = self.caller_at(node)
        if caller is None or self.result.definitions[caller].parent is None:
            return
        word = _text(caps["name"][0]) if "name" in caps else \
            next((c.type for c in node.children if c.type in ("base", "this")), "")
        args = node.child_by_field_name("arguments") or next(
            (c for c in node.named_children if c.type == "argument_list"), None)    # C#'s is no field
        arity = sum(1 for c in args.named_children if not c.type.endswith("comment")) if args is not None else None
        self._chains.append((caller, word == "this", node.start_point.row + 1, node.start_point.column,
                             arity if self.spec.name in _OVERLOADING else None,
                             _argument_kinds(node) if self.spec.name in _TYPED_OVERLOADS else None))

    def finish_chains(self) -> None:
        """The calls ``add_chain`` kept: of the class's first base class (the class itself for `this(...)`)."""
        for caller, own, line, column, arity, kinds in self._chains:
            cls = self.result.definitions[caller].parent
            name = self.result.definitions[cls].name if own else \
                next((b.name for b in self.result.bases if b.owner == cls and b.relation == "INHERITS"), None)
            if name:
                self.result.calls.append(CallSite(caller, name, None, line, column, arity=arity, arg_kinds=kinds))

    def add_bare(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Ruby's bare name (`audit` after `super`): a call of a method without arguments, as `audit()` is, unless
        the method or block around binds the name (a parameter, an assignment anywhere in it: the order is not
        checked). It was no call site at all (a tenth QA pass: `impact` saw `audit` only as a value reference)."""
        caller = self.caller_at(node)
        if caller is None or self.result.definitions[caller].kind not in ("method", "function"):
            return
        name = _text(node)
        if name in self._ruby_locals(caller) or _RUBY_IMPLICIT_PARAMETER.fullmatch(name):
            return
        self.result.calls.append(CallSite(caller, name, None, node.start_point.row + 1, node.start_point.column))

    def _ruby_locals(self, caller: int) -> frozenset[str]:
        """The names a Ruby method binds: its parameters and its blocks', assigned ones (`x = `, `x ||= `,
        `a, b = `), `rescue => e`, `for x in`; once per method."""
        if caller not in self._locals_of:
            found: set[str] = set()
            todo = [self._def_nodes[caller]]
            while todo:
                n = todo.pop()
                if n.type in _RUBY_BINDERS:
                    found.update(_text(c) for c in _identifiers(n.child_by_field_name("left") or
                                                                 n.child_by_field_name("pattern") or n))
                todo.extend(n.named_children)
            self._locals_of[caller] = frozenset(found)
        return self._locals_of[caller]

    def add_macro_args(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Rust: the calls written in a macro's arguments (``assert_eq!(total(&[o]), 3)``) are the enclosing
        definition's, and those in a ``macro_rules!`` rule's expansion the macro's (see _token_calls)."""
        args = caps["args"][0]
        self._add_token_calls(node, _token_calls(self.spec.name, _run_tokens(node, args.text or b""),
                                                 args.start_point))

    def add_macro_body(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """The calls in a macro's expansion are the macro's: a Rust ``macro_rules!`` rule's, a C/C++ function-like
        ``#define``'s body (its parameters called are no calls: ``#define APPLY(f, x) f(x)``)."""
        if self.spec.name == "rust":
            self.add_macro_args(node, caps)
            return
        args, params = caps["args"][0], node.child_by_field_name("parameters")
        skip = frozenset(_text(p) for p in params.named_children) if params is not None else frozenset()
        at = (args.start_point.row, args.start_point.column)
        self._add_token_calls(node, _reparsed_calls(self.spec.name, args.text or b"", at, _C_BODY_WRAP, skip))

    def _add_token_calls(self, node: Node, calls: list[_TokenCall]) -> None:
        """Calls found in a macro's text, made by the definition around ``node``."""
        caller = self.caller_at(node)
        for name, receiver, line, column, implicit in calls:
            self.result.calls.append(CallSite(caller, name, receiver, line, column, implicit=implicit))

    def add_macro_call(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Rust: ``square!(x)`` invokes a macro (``implicit`` "macro": it reaches a ``macro_rules!`` definition of
        the repository or nothing, std's ``println!`` and a crate's ``json!`` being outside it)."""
        name = caps["name"][0]
        self.result.calls.append(CallSite(self.caller_at(node), _text(name), None, name.start_point.row + 1,
                                          name.start_point.column, implicit="macro"))

    def _callback_parameter(self, call: Node, caller: int, name: str, receiver: str | None) -> None:
        """JavaScript/TypeScript: the parameters of a function handed to a call, locals of the function around (the
        calls in that function are its calls): what an annotation says (``(d: IDerivation) =>``); for an array
        method's callback, its first is an item of the array (``observable.observers_.forEach(d =>
        d.onBecomeStale_())``, ``observers_: Set<IDerivation>``); in TypeScript, one the callee's declared function
        type says (``operate((source, subscriber) => ...)``: ``cbparam:operate:0:1``, read by the resolver). Any
        other untyped one is no binding: the function around is its scope here, and it would hide a name the rest
        of that function calls."""
        args = call.child_by_field_name("arguments")
        callee = f"{receiver}.{name}" if receiver else name
        contextual = self.spec.name in ("typescript", "tsx") and _CHAIN.fullmatch(callee) is not None
        positional = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        for k, fn in enumerate(positional):
            if fn.type not in ("arrow_function", "function_expression") or (k and not contextual):
                continue
            params = fn.child_by_field_name("parameters")
            listed = [p for p in params.named_children if p.type != "comment"] if params is not None else \
                [fn.child_by_field_name("parameter")]               # `d => ...`
            for j, param in enumerate(listed):
                pattern = param.child_by_field_name("pattern") if param is not None and param.type != "identifier" \
                    else param
                if pattern is None or pattern.type != "identifier":
                    continue
                ann = param.child_by_field_name("type") if param.type != "identifier" else None
                if ann is not None:
                    if k == 0 and j == 0:
                        self._locals[caller][_text(pattern)].add(_held(_ts_type(_text(ann), union=True)))
                elif k == 0 and j == 0 and name in _ITERATING and receiver and _CHAIN.fullmatch(receiver):
                    # `sub`: an item of an array or a set, the value of a map (`this.share.forEach((v, k) => ...)`)
                    self._locals[caller][_text(pattern)].add(f"sub{'attr' if '.' in receiver else 'name'}:{receiver}")
                elif contextual and name not in _ITERATING:
                    self._locals[caller][_text(pattern)].add(f"cbparam:{callee}:{k}:{j}")

    def _insert(self, call: Node, caller: int | None, collection: str, method: str) -> None:
        """``parser.blockprocessors.register(EmptyBlockProcessor(parser), 'empty', 100)``: an object put into a
        collection (``FileExtraction.inserts``); the items of any collection of that name may be one."""
        positional = [value for slot, value in _arguments(call) if isinstance(slot, int)]
        index = 1 if method == "insert" else 0
        if collection in ("self", "cls") or len(positional) <= index:
            return
        item = positional[index]
        value = f"var:{_text(item)}" if item.type == "identifier" else _value_of(item, False)
        key = positional[1] if method == "register" and len(positional) > 1 else None   # register(obj, 'name', ...)
        if value.startswith(("var:", "class:", "call:")):
            self.result.inserts.append([caller, collection, value, _string_text(key)])

    def add_export(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`module.exports = Layer`, `export default Router`: the file's default export."""
        self.result.default_export = _text(caps["name"][0])

    def add_exported(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`export { a, B as Bee }`: the file's own definitions of those names are exported."""
        self._export_list.add(_text(caps["name"][0]))

    def finish_exports(self) -> None:
        """JavaScript/TypeScript top-level definitions exported other than by an `export` keyword on them: listed
        in `export { ... }`, the default export (`export default c`, `module.exports = createApp`), or CommonJS
        (`exports.helper = function`, `module.exports.other = ...`, `module.exports = function`)."""
        if self.spec.name not in SCRIPT_LANGUAGES:
            return
        named = self._export_list | ({self.result.default_export} if self.result.default_export else set())
        for d in self.result.definitions:
            if d.parent is None and (d.name in named and "." not in d.qualified_name or
                                     d.qualified_name.startswith(("exports.", "module.exports"))):
                d.exported = True

    def add_alias(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`res.set = res.header = function header() {}`: the definition the statement makes (qualified by the
        innermost target, `res.header`) is also reached as `res.set`."""
        i = self.enclosing(node.start_byte)
        if i is not None and self._def_nodes[i] == node:
            self.result.aliases.append([i, " ".join(_text(caps["name"][0]).split())])

    def add_registry(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`binary_streams = {"stdin": get_binary_stdin, ...}`, `self.handlers = [on_open, on_close]`: each name
        written in the collection is an item of it (by its string key in a dict), like one put in by ``add``."""
        left = caps["name"][0]
        if left.type == "attribute":
            left = left.child_by_field_name("attribute")
        if left is None:
            return
        caller = self.enclosing(node.start_byte)
        for item in caps["_items"][0].named_children:
            key, value = "", item
            if item.type == "pair":
                key, value = _string_text(item.child_by_field_name("key")), item.child_by_field_name("value")
            if value is not None and value.type == "identifier":
                self.result.inserts.append([caller, _text(left), f"var:{_text(value)}", key])

    def add_returned(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`return decorator` in a function that defines `decorator`: it returns that function (``return_type``
        ``def:decorator``, unless annotated), so calling what it returns calls it (``command(...)(f)``). Any other
        value is kept for ``finish_bindings`` (``_value_of``'s notation; ``return None`` says nothing)."""
        owner, value = self.enclosing(node.start_byte), caps["_value"][0]
        defs = self.result.definitions
        if owner is None or defs[owner].return_type.startswith(("def:", "value:")) or \
                defs[owner].kind not in ("function", "method"):
            return
        if self.spec.name != "python":            # JavaScript / TypeScript
            if not defs[owner].return_type and self._returns_from(node, owner):
                self._returned[owner].add("var:this" if value.type == "this" else
                                          "members:" if self._returns_own_functions(value, owner) else
                                          _script_value(value, False))
            return
        name = _text(value) if value.type == "identifier" else ""
        if name and any(d.parent == owner and d.name == name and d.kind == "function" for d in defs):
            defs[owner].return_type = f"def:{name}"
        elif factory := _factory_applied(value, defs[owner].param_types):
            defs[owner].return_type = f"wraps:{factory}"
        elif value.type != "none":
            self._returned[owner].add(_value_of(value, False))

    def _returns_own_functions(self, value: Node, owner: int) -> bool:
        """``return { batch: (cb) => ..., schedule } as const`` in ``createNotifyManager`` (TanStack Query), Redux's
        ``return { dispatch, subscribe, getState }``: an object literal of functions ``owner`` defines, each under
        its own name (``members:``: the resolver finds ``notifyManager.batch()`` among them)."""
        value = _uncast(value)
        props = [c for c in value.named_children if c.type != "comment"] if value.type == "object" else []
        own = {d.name for d in self.result.definitions if d.parent == owner and d.kind == "function"}
        named = [_text(p) if p.type == "shorthand_property_identifier" else
                 _text(p.child_by_field_name("name") or p) if p.type == "method_definition" else
                 _text(p.child_by_field_name("key") or p) if p.type == "pair" else None for p in props]
        # each property one of its functions under its own name (`batch: (cb) => ...` is one since it is a
        # definition), or another value (`promise`); no spread, no renaming (`run: other`)
        return any(n in own for n in named) and all(
            n is not None and (n in own or p.type == "shorthand_property_identifier" or
                               p.type == "pair" and (p.child_by_field_name("value") is None or
                                                     p.child_by_field_name("value").type != "identifier"))
            for n, p in zip(named, props))

    def _returns_from(self, statement: Node, owner: int) -> bool:
        """Whether a JavaScript/TypeScript ``return`` is definition ``owner``'s own, not one of a function nested
        in it that is no definition (a callback), and ``owner`` is no async function (its call gives a promise)."""
        top, functions, node = self._def_nodes[owner], [], statement.parent
        while node is not None and node != top:
            if node.type in _SCRIPT_FUNCTIONS:
                functions.append(node)
            node = node.parent
        own = functions if top.type not in _SCRIPT_FUNCTIONS else [*functions, top]
        return node == top and len(own) == 1 and not any(c.type == "async" for c in own[0].children)

    def add_read(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`self.total` where `total` is a property of this file: reading it runs the getter. Any other read
        through a plain name (`settings.DEBUG`) is kept apart (``FileExtraction.reads``): the resolver calls
        the class's ``__getattribute__`` / ``__getattr__`` there when it knows what the name holds."""
        name = _text(caps["name"][0])
        parent = node.parent
        if parent is None:
            return
        if parent.type == "call" and parent.child_by_field_name("function") == node:
            return                                          # a call: @reference.call has it
        if parent.type in _WRITES and (_WRITES[parent.type] is None or
                                       parent.child_by_field_name(_WRITES[parent.type]) == node):
            return                                          # assigned or deleted, not read
        if name in self._properties:
            self.add_call(node, caps)
            self.result.calls[-1].implicit = "read"
            return
        receiver = caps["receiver"][0] if "receiver" in caps else None
        if self.spec.name == "python" and receiver is not None and receiver.type == "identifier":
            held = _text(receiver)
            if held not in ("self", "cls"):
                lines = self.result.reads.setdefault((self.caller_at(node), held, name), [])
                if node.start_point.row + 1 not in lines:
                    lines.append(node.start_point.row + 1)

    def add_with(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`with ctx:` / `with self.lock as held:` calls the object's __enter__ and __exit__; `with
        self.make_context(args) as ctx:` those of what the call returns."""
        self._dunder_sites(node, caps["receiver"][0], ("__enter__", "__exit__"))

    def add_dunder(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """`for x in obj`, `k in obj`, `len(obj)`, `obj[k]` (assigned, deleted): the dunder(s) Python calls on obj."""
        if node.type == "subscript":
            up = node.parent
            while up is not None and up.type not in ("block", "module", "expression_statement"):
                if up.type == "type":
                    return                  # `util.Registry[Processor]` in an annotation is no subscript at run time
                if up.type == "argument_list" and up.parent is not None and up.parent.type == "class_definition":
                    return                  # `class Stack(Base[int])`: the base's __class_getitem__, not __getitem__
                up = up.parent
            parent = node.parent
            role = parent.type if parent is not None else ""
            if role in ("assignment", "augmented_assignment") and parent.child_by_field_name("left") != node:
                role = ""
            names = {"assignment": ("__setitem__",), "augmented_assignment": ("__getitem__", "__setitem__"),
                     "delete_statement": ("__delitem__",)}.get(role, ("__getitem__",))
        else:
            names = {"for_statement": ("__iter__",), "for_in_clause": ("__iter__",), "comparison_operator": ("__contains__",),
                     "call": _BUILTIN_DUNDERS.get(_text(caps["name"][0]), ()) if "name" in caps else ("__call__",)
                     }[node.type]
        self._dunder_sites(node, caps["receiver"][0], names)

    def _dunder_sites(self, node: Node, obj: Node, names: tuple[str, ...]) -> None:
        """Implicit calls of ``names`` on ``obj``; the site is the object's last name, where a language server can
        say what type the object has. An object that is a call of a name chain is written ``f()`` (what ``f``
        returns: ``resolve._called_chain``), at the called name."""
        receiver = " ".join(_text(obj).split())[:100]
        if obj.type == "call":
            obj = obj.child_by_field_name("function")
            if obj is None or not _CHAIN.fullmatch(_text(obj)):
                return
            receiver = f"{_text(obj)}()"
        at = obj.child_by_field_name("attribute") if obj.type == "attribute" else obj
        if at is None:
            return
        caller = self.caller_at(node)
        for name in names:
            self.result.calls.append(CallSite(caller, name, receiver, at.start_point.row + 1, at.start_point.column,
                                              implicit="dunder"))

    def add_callback(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """A function handed to the call ``node`` as an argument (``sorted(ps, key=sort_key)``, ``re.sub(p,
        self._sub, s)``), at the argument's name; ``finish_callbacks`` keeps the ones that can name a function."""
        function = node.child_by_field_name("function")
        if function is not None and function.type == "attribute":
            function = function.child_by_field_name("attribute")
        if function is None or function.type != "identifier":
            return                       # `f(x)(cb)`: which call takes it is not a name
        name = caps["name"][0]
        argument = name.parent if "receiver" in caps else name
        slot = next((slot for slot, value in _arguments(node) if value == argument), None)
        if slot is None:
            return                       # after `*args` its position is unknown
        receiver = _text(caps["receiver"][0]) if "receiver" in caps else None
        self._callbacks.append(CallSite(self.caller_at(node), _text(name), receiver,
                                        name.start_point.row + 1, name.start_point.column, implicit="callback",
                                        of=(function.start_point.row + 1, function.start_point.column), slot=slot))

    def add_decorator(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """``@deco`` on a definition: ``deco(f)`` runs where the definition is (the module, the class body), and
        ``f`` is handed to it, so a wrapper calling the decorator's parameter calls ``f`` (``argument`` edges).
        The decorator's own call is an implicit "decorator" site: the resolver makes it the scope's call of the
        decorator, and learns from it what the definition becomes (a descriptor, a wrapper:
        ``resolve._collect_decorations``). Built-in decorators (``property``, ``staticmethod``, ...) and
        ``functools`` ones change nothing here."""
        name, definition = caps["name"][0], node.child_by_field_name("definition")
        receiver = _text(caps["receiver"][0]) if "receiver" in caps else None
        defined = definition.child_by_field_name("name") if definition is not None else None
        if defined is None or _text(name) in _TRANSPARENT_DECORATORS or receiver in ("functools", "abc", "typing",
                                                                                      "t", "contextlib"):
            return
        index = self.enclosing(defined.start_byte)     # the decorated definition, when it is one we extracted
        if index is None or self._name_bytes[index] != defined.start_byte:
            return
        scope = self.result.definitions[index].parent
        line, column = name.start_point.row + 1, name.start_point.column
        self.result.calls.append(CallSite(scope, _text(name), receiver, line, column, implicit="decorator"))
        self._callbacks.append(CallSite(scope, _text(defined), None, defined.start_point.row + 1,
                                        defined.start_point.column, implicit="callback", of=(line, column), slot=0))

    def finish_callbacks(self) -> None:
        """Keep the arguments that can name a function: a function of this file or an imported name (``cb``),
        a method of this file through ``self``/``cls`` (``self._sub``), an attribute of an imported module
        (``mod.cb``). Any other name is far more often a value than a function (``f(self.name)``, ``f(path)``)."""
        defs, imports = self.result.definitions, self.result.imports
        functions = {d.name for d in defs if d.kind in ("function", "method")}
        methods = {d.name for d in defs if d.kind == "method"}
        imported = {i.alias or i.name or i.module.split(".")[0] for i in imports}
        for site in self._callbacks:
            if site.receiver is None and (site.name in functions or site.name in imported) or \
                    site.receiver in ("self", "cls") and site.name in methods or site.receiver in imported:
                self.result.calls.append(site)

    def add_binding(self, node: Node, caps: dict[str, list[Node]]) -> None:
        if self.spec.name == "python":
            self._python_binding(node, caps)
        elif self.spec.name == "go":
            self._go_binding(node, caps)
        elif self.spec.name in _STATIC_TYPED:
            self._static_binding(node, caps)
        elif self.spec.name == "php":
            self._php_binding(node, caps)
        else:
            self._script_binding(node, caps)

    def _php_binding(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """PHP, ``@reference.binding``: ``$x = ...`` in a function or method, keyed ``x`` as the resolver reads
        ``$x`` (``php_value``); a variable assigned two different things is left untyped (``finish_bindings``).
        ``$this->x = ...`` in a method: what the class's property ``x`` is assigned (``null`` aside), for a
        property declared without a type (symfony/console 5.4's ``private $definition;``). A ``foreach`` target:
        an item of what it iterates."""
        owner = self.enclosing(node.start_byte)
        if owner is None or self.result.definitions[owner].kind not in ("function", "method"):
            return
        d, name, right = self.result.definitions[owner], _text(caps["name"][0]), node.child_by_field_name("right")
        if node.type == "foreach_statement":         # an item of what it iterates: a call's, a property's, a variable's
            iterated = _php_held(node.named_children[0])
            self._locals[owner][name].add("iter" + iterated if iterated else "")
        elif node.type == "catch_clause":            # `catch (A|B $e)`: one of several classes is left untyped
            caught = node.child_by_field_name("type")
            types = [c for c in caught.named_children if c.type == "named_type"] if caught is not None else []
            named = types[0].named_children[-1] if len(types) == 1 and types[0].named_children else None
            # by its last name, as a parameter's type (`\App\MyErr` is `MyErr`: the dotted name found nothing)
            self._locals[owner][name].add(f"class:{_php_class_name(named).rpartition('.')[2]}" if named is not None
                                          else "")
        elif node.child_by_field_name("left").type != "member_access_expression":
            documented = _php_doc_local(node, name)       # `/** @var Foo $x */` above: what the code says it is
            self._locals[owner][name].add(f"class:{documented}" if documented else
                                          _php_value(right) if right is not None else "")
        elif d.kind == "method" and d.parent is not None and right is not None and _text(right).lower() != "null":
            assigned = _php_assigned_class(right, d.param_types)
            self._attr_assigned[d.parent][name].add(assigned)
            if d.name == "__construct":
                self._ctor_assigned[d.parent][name].add(assigned)

    def _go_binding(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Go, ``@reference.binding``: a variable bound in a function (``:=``, ``=``, ``var``, a ``range``, ``select``
        or type-switch target, a function literal's parameter), with what tells its type: ``class:T`` for
        ``T{...}``, ``&T{...}``, ``new(T)``, ``x.(T)`` and ``var x T``, ``call:f`` for what ``f(...)`` returns,
        ``attr:`` / ``var:`` as ``_value_of``; "" when nothing does (``a, b := f()``, a ``range`` target), which
        leaves the name untyped in the whole function (``finish_bindings``): scopes of blocks are not tracked."""
        owner = self.enclosing(node.start_byte)
        target = caps["name"][0]
        name = _text(target)
        if owner is None and node.type == "var_spec" and name != "_":
            self._go_package_var(node, target, name)
            return
        if owner is None or name == "_" or self.result.definitions[owner].kind not in ("function", "method"):
            return
        if node.type == "func_literal":                      # `func(q *Square) {...}`: its parameter's type
            kind = _go_type(target.parent.child_by_field_name("type"))
            self._locals[owner][name].add(f"class:{kind}" if kind else "")
            return
        declared = node.child_by_field_name("type") if node.type == "var_spec" else None
        if declared is not None:                             # `var sq Square` (`var s Shape = sq`: a Shape)
            kind = _go_type(declared)
            self._locals[owner][name].add(f"class:{kind}" if kind else "")
            if kind:             # what is assigned later is of that type (`var c *Command; c, a, err = f()`)
                self._go_declared[owner][name] = f"class:{kind}"
            return
        left = target.parent if target.parent.type == "expression_list" else None
        right = node.child_by_field_name("value" if node.type == "var_spec" else "right")
        if node.type == "range_clause" and right is not None and left is not None and \
                left.named_children.index(target) == 1:      # `for _, c := range cmds`: an item of cmds
            self._locals[owner][name].add(_go_item(right))
            return
        if node.type in ("range_clause", "type_switch_statement", "receive_statement") or right is None:
            self._locals[owner][name].add("")
            return
        names = [c for c in left.named_children if c.type != "comment"] if left is not None else \
            node.children_by_field_name("name")             # `var a, b = x, y`
        values = [c for c in right.named_children if c.type != "comment"] \
            if right.type == "expression_list" else [right]
        position = names.index(target)
        compound = node.type == "assignment_statement" and \
            _text(node.child_by_field_name("operator") or node) != "="          # `n += 1`: untyped
        value = ""
        if not compound and len(values) == len(names):
            value = _go_value(values[position])
        elif not compound and position == 0 and len(values) == 1 and \
                values[0].type in ("type_assertion_expression", "call_expression"):
            value = _go_value(values[0])                     # `sq, ok := s.(Square)`, `cmd, args, err := c.Find(a)`
        self._locals[owner][name].add(value)

    def _go_package_var(self, spec: Node, target: Node, name: str) -> None:
        """A package-level ``var DefaultRegisterer Registerer = defaultRegistry`` (its declared type) or ``var
        defaultRegistry = NewRegistry()`` (what the value tells, as a local's): a module variable."""
        declared = spec.child_by_field_name("type")
        if declared is not None:
            kind = _go_type(declared)
            self._module_vars[name].add(f"class:{kind}" if kind else "")
            return
        names = spec.children_by_field_name("name")
        right = spec.child_by_field_name("value")
        values = [c for c in right.named_children if c.type != "comment"] if right is not None else []
        self._module_vars[name].add(_go_value(values[names.index(target)]) if len(values) == len(names) else "")

    def _static_binding(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Java, C# and C++, ``@reference.binding``: a declared variable and its type (``Foo x = ...``, ``for (Foo f
        : fs)``, a resource, a caught exception), as ``class:Foo``; a ``var`` / ``auto`` by its initializer (``new
        Foo()``, what a call returns); a class's field or property, as an attribute type. An untyped one is kept as "": it hides
        a field of the same name in the whole method (scopes of blocks are not tracked, as in Go)."""
        owner = self.enclosing(node.start_byte)
        if owner is None:
            return
        target = caps["name"][0]
        d, name = self.result.definitions[owner], _text(target)
        if node.type == "property_declaration":            # a C# property is a definition: its class holds it
            owner = d.parent
            if owner is None:
                return
            d = self.result.definitions[owner]
        declared = node.child_by_field_name("type")
        if node.type == "catch_formal_parameter":           # Java's `catch (IOException | X e)`: one type only
            caught = [c for c in node.named_children if c.type == "catch_type"]
            declared = caught[0].named_children[0] if caught and caught[0].named_child_count == 1 else None
        generics = _type_parameters(node)
        kind = _static_type(declared, generics)
        if d.kind in ("class", "interface", "enum", "struct"):
            if node.type in ("field_declaration", "variable_declaration", "property_declaration", "declaration"):
                self._attr_annotated[owner][name].add(kind)
            return
        if d.kind not in ("function", "method"):
            return
        if declared is not None and (_text(declared) == "var" or declared.type == "placeholder_type_specifier"):
            value = _static_initializer(target)
            self._locals[owner][name].add(value)
            return
        self._locals[owner][name].add(f"class:{kind}" if kind else "")

    def _script_binding(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """JavaScript/TypeScript, ``@reference.binding``: a variable's annotation or initializer (``const w = new
        Subject()``, ``let r: Foo``), a class field's (``private source: Observable<T>``), a constructor's
        parameter property (``constructor(private scheduler: SchedulerLike)``), ``this.x = ...`` in a method, a
        ``for (const s of ...)`` target."""
        owner = self.enclosing(node.start_byte)
        if owner is None:
            self._script_module_var(node, caps["name"][0])
            return
        if caps["name"][0].type in ("object_pattern", "array_pattern"):
            if self.result.definitions[owner].kind in ("function", "method"):
                self._hiding[owner].update(_pattern_names(caps["name"][0]))
            return
        d, name, kind = self.result.definitions[owner], _text(caps["name"][0]), node.type
        value = node.child_by_field_name("value") or node.child_by_field_name("right")
        declared = self._declared_type(node)
        if kind in ("required_parameter", "optional_parameter"):
            if d.kind == "method" and d.parent is not None:
                if declared is None and value is not None:    # `public values_ = new Map<K, A | B>()`
                    declared = _class_made(value)
                self._attr_annotated[d.parent][name].add(declared or "")
        elif kind == "property_signature":     # (a type alias of an object type: `type Match = { observer: ... }`)
            if d.kind in ("interface", "type") and declared is not None:
                self._attr_annotated[owner][name].add(declared)
        elif kind == "public_field_definition":
            if d.kind == "class" and declared is not None:
                self._attr_annotated[owner][name].add(declared)
            elif d.kind == "class" and value is not None:
                self._attr_assigned[owner][name].add(_assigned_class(value, {}))
        elif kind == "assignment_expression":
            if d.kind == "method" and d.parent is not None and declared:     # `/** @type {Item|null} */ this._start`
                self._attr_annotated[d.parent][name].add(declared)
            elif d.kind == "method" and d.parent is not None and value is not None:
                assigned = _assigned_class(value, d.param_types)
                self._attr_assigned[d.parent][name].add(assigned)
                if d.name == "constructor":
                    self._ctor_assigned[d.parent][name].add(assigned)
                for key, made in _object_members(value):     # `this.interceptors = {request: new Manager()}`
                    self._attr_assigned[d.parent][f"{name}.{key}"].add(made)
        elif d.kind in ("function", "method"):
            if kind == "for_in_statement":
                operator = node.child_by_field_name("operator")
                if operator is not None and _text(operator) == "of" and value is not None:
                    self._locals[owner][name].add(_script_value(value, True))
            elif declared is not None:       # `const subscriptions: Subscription[] = []` too: its items
                self._locals[owner][name].add(_held(declared))
            elif value is not None:
                self._locals[owner][name].add(_script_value(value, False))

    def _block_declared(self, node: Node, name: str) -> str:
        """JavaScript/TypeScript: what the nearest ``const`` / ``let`` declaration of ``name`` in a block around
        ``node`` gives it (``_declared_value``), or "": the variable a call's receiver names, where the function's
        (or the module's) variables of that name are several (one per test callback). A function parameter of that
        name in between hides the declarations further out."""
        up = node.parent
        while up is not None and up.type != "program":
            if up.type in _SCRIPT_SCOPES:
                if name in _parameter_names(up):
                    return ""
            elif up.type == "statement_block":
                for statement in up.named_children:
                    if statement.type != "lexical_declaration" or statement.start_byte > node.start_byte:
                        continue
                    for declarator in statement.named_children:
                        target = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" \
                            else None
                        if target is not None and target.type == "identifier" and _text(target) == name:
                            # a union as the alternatives a narrowing names (`class:A|class:B`, as `a || b` gives)
                            value = self._declared_value(declarator)
                            return "|".join(f"class:{m}" for m in value[12:].split(",")) \
                                if value.startswith("class:union:") else value
            up = up.parent
        return ""

    def _declared_type(self, node: Node) -> str | None:
        """The type a JavaScript/TypeScript binding is declared (``_ts_type`` of its annotation, "" for one that names
        no class; a JavaScript JSDoc ``@type`` above it), None when nothing declares it."""
        ann = node.child_by_field_name("type")
        if ann is not None:
            return _ts_type(_text(ann), union=True) or ""
        return _jsdoc_declared(node) if self.spec.name == "javascript" else None

    def _declared_value(self, declarator: Node) -> str:
        """A ``const`` / ``let`` declarator's value as a local's (``class:X`` by its annotation or JSDoc type, else
        ``_script_value`` of what it is assigned)."""
        declared, value = self._declared_type(declarator), declarator.child_by_field_name("value")
        if declared is not None:
            return _held(declared)
        return _script_value(value, False) if value is not None else ""

    def _script_module_var(self, node: Node, target: Node) -> None:
        """JavaScript/TypeScript: a module's variable (``export let globalState: MobXGlobals = ...``, ``const
        router = new Router()``), typed as a local is: ``FileExtraction.module_vars``, where importers find it too
        (an untyped one is left out, as in Python)."""
        if node.type != "variable_declarator" or target.type != "identifier":
            return
        ann, value = node.child_by_field_name("type"), node.child_by_field_name("value")
        cast = value.named_children[-1] if value is not None and value.type == "as_expression" else None
        guard = _ts_guard(_text(ann if ann is not None else cast)) if ann is not None or cast is not None else ""
        if guard:           # `export var isObservableMap = make(...) as (thing: any) => thing is ObservableMap`
            self._module_vars[_text(target)].add(guard)
        elif ann is not None:
            declared = _ts_type(_text(ann), union=True)
            self._module_vars[_text(target)].add(_held(declared))
        else:
            self._module_vars[_text(target)].add(_script_value(value, False) if value is not None else "")

    def _python_binding(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Python, ``@reference.binding``: an assignment or a ``for`` target that may tell a receiver's class
        (resolve.receiver_class): a local variable of a function (``Definition.var_types``), an annotated name in
        a class body or ``self.x`` in a method (``Definition.attr_types``), a module's variable
        (``FileExtraction.module_vars``). ``finish_bindings`` settles them."""
        owner = self.enclosing(node.start_byte)
        ann = node.child_by_field_name("type") if node.type == "assignment" else None
        right = node.child_by_field_name("right")
        if owner is None:
            if node.type == "assignment" and "receiver" not in caps:
                item = _annotated_type(_text(ann)) if ann is not None else None
                value = f"class:{item}" if item else _value_of(right, False) if right is not None else ""
                self._module_vars[_text(caps["name"][0])].add(value)
            return
        d, name = self.result.definitions[owner], _text(caps["name"][0])
        if "receiver" in caps:       # `self.x = ...` directly in a method (not in a function nested in it)
            if _text(caps["receiver"][0]) != "self" or d.kind != "method" or d.parent is None:
                return
            if ann is not None:
                self._attr_annotated[d.parent][name].add(_annotated_type(_text(ann)) or "")
            elif right is not None and right.type != "none":
                self._attr_assigned[d.parent][name].add(_assigned_class(right, d.param_types))
        elif d.kind in ("function", "method"):
            if node.type == "except_clause":
                self._locals[owner][name].add(_caught(node))
            elif node.type in ("for_statement", "for_in_clause") and caps["name"][0].parent.type == "pattern_list":
                self._locals[owner][name].add(_unpacked(right, caps["name"][0]) if right is not None else "")
            elif node.type in ("for_statement", "for_in_clause"):
                self._locals[owner][name].add(_value_of(right, True) if right is not None else "")
            elif ann is not None:             # `procs: t.List[Proc] = []` too: its items
                item = _annotated_type(_text(ann))
                self._locals[owner][name].add(f"class:{item}" if item else "")
            elif right is not None and right.type != "none":
                self._locals[owner][name].add(_value_of(right, False))
        elif d.kind == "class" and ann is not None:
            self._attr_annotated[owner][name].add(_annotated_type(_text(ann)) or "")

    def finish_bindings(self) -> None:
        """A local variable assigned several different things keeps them all, ``|``-joined (the resolver types it
        only when they all are of one class: ``for ext in extensions: ... ext = self.build_extension(ext)``), and
        is left unknown when one of them is unknown; an attribute assigned two different things (``None`` aside)
        is left unknown, and its annotation wins over its assignments."""
        defs = self.result.definitions
        for i, seen in self._locals.items():
            seen.update((n, {t}) for n, t in self._go_declared.get(i, {}).items())
            defs[i].var_types = {n: "|".join(sorted(v)) for n, v in seen.items() if v and all(v)}
            if self.spec.name == "go" or self.spec.name in _STATIC_TYPED:
                # an untyped local stays, as "": it hides a variable of an outer function (Go), a field (Java, C#)
                defs[i].var_types.update((n, "") for n, v in seen.items() if n not in defs[i].var_types)
        for i, names in self._hiding.items():
            # `const { delay } = config`: a local that hides the module's `delay` (rxjs's retry), untyped
            defs[i].var_types.update((n, "") for n in names if n not in defs[i].var_types)
        self.result.module_vars = {n: "|".join(sorted(v)) for n, v in self._module_vars.items() if v and all(v)}
        for i, values in self._returned.items():
            # an unannotated function returning values of one kind (`registry = util.Registry(); ...; return
            # registry`): the resolver types a call of it by them, in the function's own scope; not a generator's
            # or a coroutine's, whose call returns something else
            d = defs[i]
            if not d.return_type and values and all(values) and not d.signature.startswith("async ") and \
                    not _YIELD.search(self.source, self._def_nodes[i].start_byte, self._def_nodes[i].end_byte):
                d.return_type = "value:" + "|".join(sorted(values))
        for i in set(self._attr_annotated) | set(self._attr_assigned):
            annotated, assigned = self._attr_annotated.get(i, {}), self._attr_assigned.get(i, {})
            types = {n: next(iter(v)) for n, v in annotated.items() if len(v) == 1}
            types.update((n, next(iter(v))) for n, v in assigned.items() if n not in annotated and len(v) == 1)
            # TypeScript's rule for a JavaScript class: an attribute the constructor assigns a known type is of
            # that type, whatever other methods assign it (`this.right = right`, `@param {Item|null} right`;
            # `this.right = this.right.right` in `forward()`); in PHP only over other methods' assignments of
            # unknown things, never over another class's
            for n, v in self._ctor_assigned.get(i, {}).items():
                known = {t for t in assigned.get(n, ()) if t}
                if n not in annotated and len(v) == 1 and next(iter(v)) and (self.spec.name != "php" or known == v):
                    types[n] = next(iter(v))
            # what a declaration gives (a PHP property's type, a Go struct's fields) wins over assignments
            defs[i].attr_types = {**{n: t for n, t in types.items() if t}, **defs[i].attr_types}
            if self.spec.name == "python":
                defs[i].attributes = sorted((set(annotated) | set(assigned)) - set(defs[i].attr_types))

    def add_base(self, relation: str, node: Node, caps: dict[str, list[Node]]) -> None:
        owner = self.enclosing(node.start_byte)
        name_node = caps.get("name", [node])[0]
        if owner is None:
            return
        name = _text(name_node)
        scoped = name_node.parent
        if self.spec.name == "rust" and scoped is not None and scoped.type == "scoped_type_identifier" and \
                scoped.child_by_field_name("path") is not None:      # `impl de::Error for Error`: through `de`
            name = f"{_text(scoped.child_by_field_name('path'))}::{name}"
        elif self.spec.name == "php" and scoped is not None and scoped.type == "qualified_name":
            name = _text(scoped)                                      # `extends \Doctrine\DBAL\Configuration`
        self.result.bases.append(BaseRef(owner, name, relation, name_node.start_point.row + 1))

    def add_import(self, node: Node, caps: dict[str, list[Node]]) -> None:
        if "import.module" not in caps or ("_require" in caps and not _require_context(node)):
            return
        module = _text(caps["import.module"][0]).strip("'\"`<>")
        name = _text(caps["import.name"][0]) if "import.name" in caps else None
        alias = _text(caps["import.alias"][0]) if "import.alias" in caps else None
        self._import(ImportRef(module, name, alias, node.start_point.row + 1, wildcard="import.wildcard" in caps))

    def _import(self, ref: ImportRef) -> None:
        key = (ref.module, ref.name, ref.alias, ref.line, ref.wildcard)
        if key not in self._imports_seen:
            self._imports_seen.add(key)
            self.result.imports.append(ref)

    def add_use(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """Rust's `use` (@args: its tree), one import per name, groups nested at any depth: `use a::b::C;` ->
        (a::b, C); `use a::{b::{self, C}, d::e as f, g::*};` -> (a::b), (a::b, C), (a::d, e, alias f), (a::g,
        wildcard). The query's patterns saw one level of `{...}` only: regex-syntax's `use crate::{ast::{self,
        Ast}, ...}` imported nothing."""
        self._use_tree(caps["args"][0], "", node.start_point.row + 1)

    def _use_tree(self, tree: Node, prefix: str, line: int) -> None:
        def joined(path: Node | None) -> str:
            return "::".join(p for p in (prefix, _text(path) if path is not None else "") if p)

        at = tree.start_point.row + 1 if prefix else line     # an item of a group: its own line
        kind = tree.type
        if kind == "self" and prefix:                         # `a::b::{self}`: the module a::b
            self._import(ImportRef(prefix, None, None, at))
        elif kind in ("identifier", "crate", "super", "self"):
            # `use a;` (and `use {a, b};`): the module a; in a group of a path, a name of it
            self._import(ImportRef(prefix, _text(tree), None, at) if prefix else ImportRef(_text(tree), None, None, at))
        elif kind == "scoped_identifier":
            path = tree.child_by_field_name("path")
            self._import(ImportRef(joined(path), _text(tree.child_by_field_name("name")), None, at))
        elif kind == "use_as_clause":
            path, alias = tree.child_by_field_name("path"), _text(tree.child_by_field_name("alias"))
            if path.type == "scoped_identifier":
                self._import(ImportRef(joined(path.child_by_field_name("path")),
                                       _text(path.child_by_field_name("name")), alias, at))
            elif prefix:
                self._import(ImportRef(prefix, _text(path), alias, at))
            else:
                self._import(ImportRef(_text(path), None, alias, at))
        elif kind == "use_wildcard":
            inner = tree.named_children[0] if tree.named_children else None
            self._import(ImportRef(joined(inner), None, None, at, wildcard=True))
        elif kind == "scoped_use_list":
            inner = joined(tree.child_by_field_name("path"))
            for item in tree.child_by_field_name("list").named_children:
                self._use_tree(item, inner, line)
        elif kind == "use_list":
            for item in tree.named_children:
                self._use_tree(item, prefix, line)


# where a `require(...)` form (the call, `.name` of it, `[key]` of it) that no declaration pattern takes is an import:
# the parent's type -> the field holding the form (None: any child); a form inside another form is never one (the
# outer form is)
_REQUIRE_CONTEXTS = {
    "expression_statement": None, "arguments": None, "call_expression": "function", "assignment_expression": "right",
    "augmented_assignment_expression": "right", "pair": "value", "array": None, "ternary_expression": None,
    "binary_expression": None, "parenthesized_expression": None, "sequence_expression": None, "spread_element": None,
    "await_expression": None, "return_statement": None, "arrow_function": "body", "variable_declarator": "value",
    "member_expression": "object",
}
# parents that hold only one of the forms there: a member as the object of another (`require('m').a.b`), a declarator
# `require('m')[key]` (the declaration patterns take its other values)
_REQUIRE_ONLY = {"member_expression": "member_expression", "variable_declarator": "subscript_expression"}


def _require_context(node: Node) -> bool:
    """Whether a ``require(...)`` form (``@_require``) stands where an import of it is read (_REQUIRE_CONTEXTS)."""
    parent = node.parent
    if parent is None or parent.type not in _REQUIRE_CONTEXTS:
        return False
    field_name = _REQUIRE_CONTEXTS[parent.type]
    if field_name is not None and parent.child_by_field_name(field_name) != node:
        return False
    return _REQUIRE_ONLY.get(parent.type, node.type) == node.type


def _scope_path(qualified: Node) -> tuple[str, str]:
    """C++ ``ns::Outer::Inner::run``: (``ns.Outer.Inner``, ``run``), the class's qualified name as its own
    definition has it (the namespaces were dropped: ``a::b::Widget::get`` was ``Widget.get``, no member of
    ``a.b.Widget``; tenth QA pass); a template scope by its name (``Box<T>``: ``Box``)."""
    scopes = []
    while qualified.type == "qualified_identifier" and qualified.child_by_field_name("name") is not None:
        scope, qualified = qualified.child_by_field_name("scope"), qualified.child_by_field_name("name")
        if scope is not None and scope.type == "template_type" and scope.child_by_field_name("name") is not None:
            scope = scope.child_by_field_name("name")
        if scope is not None:
            scopes.append(_text(scope))
    return ".".join(scopes), " ".join(_text(qualified).split())


def _comments_before(node: Node, end: int) -> list[tuple[int, int]]:
    """Byte spans of the comments inside ``node`` that end by byte ``end``."""
    spans, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.start_byte >= end:
            continue
        if n.type.endswith("comment") and n is not node:
            if n.end_byte <= end:
                spans.append((n.start_byte, n.end_byte))
            continue
        stack.extend(n.children)
    return spans


def _last_row(node: Node) -> int:
    """The last row holding text of ``node``: a line comment that swallows its newline (Rust `///`) ends at
    column 0 of the next row."""
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


def _scope_name(d: Definition) -> str:
    return d.name if d.kind == "impl" else d.qualified_name


def _clean_doc(text: str, prefixes: tuple[str, ...]) -> str:
    text = text.strip()
    for quote in ('"""', "'''", '"', "'"):
        for prefix in ("", "r", "u", "b", "R", "U", "B"):
            q = prefix + quote
            if text.startswith(q) and text.endswith(quote) and len(text) >= len(q) + len(quote):
                text = text[len(q):-len(quote)]
                break
        else:
            continue
        break
    lines = []
    for line in text.splitlines():
        line = line.strip()
        for p in sorted(prefixes, key=len, reverse=True):
            if line.startswith(p):
                line = line[len(p):].strip()
                break
        lines.append(line.removeprefix("/").removesuffix("*/").strip())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()[:2000]


def _count_errors(root: Node) -> int:
    if not root.has_error:
        return 0
    count, cursor_stack = 0, [root]
    while cursor_stack:
        node = cursor_stack.pop()
        if node.is_error or node.is_missing:
            count += 1
            continue
        cursor_stack.extend(c for c in node.children if c.has_error or c.is_error or c.is_missing)
    return count


def _matches(language: str, tree: Tree) -> tuple[list, list]:
    """The query's definition and reference matches, as (kind, node, captures)."""
    defs, refs = [], []
    for _, caps in QueryCursor(load_query(language)).matches(tree.root_node):
        main = next((k for k in caps if k.startswith(("definition.", "reference."))), None)
        if main is None:
            continue
        head, _, kind = main.partition(".")
        (defs if head == "definition" else refs).append((kind, caps[main][0], caps))
    return [m for m in defs if "name" in m[2]], refs


# a Rust macro's token tree parsed again: `(a, f(b))` and `[x; n]` as a call's arguments, `{ ... }` as a block
_TOKEN_WRAPS = {b"(": (b"fn _m() { _m(", b"); }"), b"[": (b"fn _m() { _m([", b"]); }"), b"{": (b"fn _m() {", b"}")}
_C_BODY_WRAP = (b"void _m(void) {", b"\n;}")     # a C/C++ function-like macro's body, as statements
# text a macro may hold that does not parse, read as names of the same length: a macro_rules! expansion's
# metavariables (`$x` -> `_x`, `$crate::f` -> `crate ::f`); a #define's `#x`, `a##b` and line continuations
_UNPARSED = {"rust": (re.compile(rb"\$(crate\b)?"), lambda m: b"crate " if m.group(1) else b"_"),
             "c": (re.compile(rb"#|\\(?=\r?\n)"), lambda m: b" ")}
_UNPARSED["cpp"] = _UNPARSED["c"]
_TOKEN_DEPTH = 4         # macros in macros' arguments (`assert!(vec![f(1)].is_empty())`) followed this deep

# Rust macros whose arguments are text, not code that runs where they are written: `stringify!(leaf(9))` is a
# string, `quote! { fn f() { helper() } }` code generated for elsewhere
_UNRUN_MACROS = frozenset({"stringify", "concat", "concat_idents", "include_str", "include_bytes", "env",
                           "option_env", "compile_error", "quote", "quote_spanned", "parse_quote", "format_ident"})


def _run_tokens(invocation: Node, text: bytes) -> bytes:
    """The part of a Rust macro invocation's token tree ``text`` that is code run where it is written: none for
    _UNRUN_MACROS, the scrutinee alone for ``matches!`` (its pattern, `Token(_)`, constructs nothing)."""
    macro = invocation.child_by_field_name("macro") if invocation.type == "macro_invocation" else None
    if macro is not None and macro.type == "scoped_identifier":
        macro = macro.child_by_field_name("name")
    name = _text(macro) if macro is not None else ""
    if name in _UNRUN_MACROS:
        return b""
    if name == "matches":
        depth = 0
        for at in range(1, len(text) - 1):     # (ASCII delimiters: never a byte of a multibyte character)
            char = text[at:at + 1]
            if char in (b"(", b"[", b"{"):
                depth += 1
            elif char in (b")", b"]", b"}"):
                depth -= 1
            elif char == b"," and depth == 0:
                return text[:at] + text[-1:]
    return text


_TokenCall = tuple[str, str | None, int, int, str | None]    # name, receiver, 1-based line, byte column, implicit


def _token_calls(language: str, text: bytes, at: tuple[int, int], depth: int = 0) -> list[_TokenCall]:
    """The calls in a Rust macro's token tree ``text`` (its arguments, a rule's expansion), whose opening delimiter
    is at ``at`` (0-based row and byte column) in the file: ``_reparsed_calls`` of what the delimiters hold."""
    wrap = _TOKEN_WRAPS.get(text[:1])
    if wrap is None or depth > _TOKEN_DEPTH:
        return []
    return _reparsed_calls(language, text[1:-1], (at[0], at[1] + 1), wrap, depth=depth)


def _reparsed_calls(language: str, inner: bytes, at: tuple[int, int], wrap: tuple[bytes, bytes],
                    skip: frozenset[str] = frozenset(), depth: int = 0) -> list[_TokenCall]:
    """The calls (name, receiver, line, column, "macro" for a macro's) written in macro text ``inner`` that
    tree-sitter keeps unparsed (a Rust macro's tokens, a C ``#define``'s body), starting at ``at`` in the file:
    parsed again inside ``wrap``; what a Rust macro in there takes is read the same way. Positions map back to
    the file: the same bytes, shifted on the first line by the wrapper. Not calls: a metavariable's (``$f(x)``,
    ``$( ... )*``) and those of the names in ``skip`` (a ``#define``'s parameters)."""
    if b"(" not in inner:
        return []                   # no call without a parenthesis: `println!("done")`, `vec![]`
    head, tail = wrap
    pattern, replace = _UNPARSED.get(language, (None, None))
    sub = get_parser(language).parse(head + (pattern.sub(replace, inner) if pattern else inner) + tail)
    row0, col0 = at

    def place(point) -> tuple[int, int]:
        return (row0, col0 + point.column - len(head)) if point.row == 0 else (row0 + point.row, point.column)

    found: list[_TokenCall] = []
    for kind, node, caps in _matches(language, sub)[1]:
        if kind in ("macro_args", "macro_body"):
            args = caps["args"][0]         # its text as written (`$`s included), not as parsed
            text = _run_tokens(node, inner[args.start_byte - len(head):args.end_byte - len(head)])
            found += _token_calls(language, text, place(args.start_point), depth + 1)
            continue
        start = caps["name"][0].start_byte - len(head) if "name" in caps else -1
        if kind not in ("call", "macro_call") or start < 0 or inner[start:start + 1] == b"$" or \
                _text(caps["name"][0]) in skip:
            continue                       # the wrapper's call, a metavariable's, a parameter's
        row, column = place(caps["name"][0].start_point)
        receiver = _receiver_text(caps["receiver"][0], language).replace("crate ::", "crate::") \
            if "receiver" in caps else None
        found.append((_text(caps["name"][0]), receiver, row + 1, column, "macro" if kind == "macro_call" else None))
    return found


def _top_level_blocks(source: bytes) -> list[tuple[int, int]]:
    """Byte spans of the file cut before every line that starts in column 0 with code (not a closing bracket,
    not the middle of a block comment): where top-level statements may start."""
    starts, offset = [0], 0
    for line in source.splitlines(keepends=True):
        if offset and line.strip() and line[:1] not in b" \t})]*":
            starts.append(offset)
        offset += len(line)
    return [(a, b) for a, b in zip(starts, [*starts[1:], len(source)]) if a < b]


def _recovered(language: str, source: bytes, tree: Tree, defs: list) -> tuple[Tree, list, list, int]:
    """A file with syntax errors whose recovery lost definitions (the TypeScript grammar reads MobX's
    `IActionFactory` call signatures as one error that runs to the end of action.ts: none of its functions
    were found): parse it again without the top-level statements that do not parse alone, even joined to the
    next few (a decorator, a string over several lines), which stay module code. Taken when that finds more
    definitions. Returns the tree, its matches and how many statements were left out."""
    root = tree.root_node
    swallowed = [(n.start_byte, n.end_byte) for n in ([root] if root.is_error else root.children)
                 if n.has_error and n.end_point.row - n.start_point.row >= _SWALLOWED_LINES]
    if not swallowed:
        return tree, defs, [], 0     # errors the grammar kept to a few lines: its own recovery is the better
    parser, blocks, parses = get_parser(language), _top_level_blocks(source), 0
    good, i, left_out = [], 0, 0
    while i < len(blocks):
        if not any(a < blocks[i][1] and blocks[i][0] < b for a, b in swallowed):
            good.append(blocks[i])        # parsed in the file as it is, outside what the errors took
            i += 1
            continue
        for j in range(i, min(i + _RECOVERY_JOIN, len(blocks))):
            parses += 1
            if parses > _RECOVERY_PARSES:
                return tree, defs, [], 0   # a generated table of thousands of lines: not worth the time
            if not parser.parse(source[blocks[i][0]:blocks[j][1]]).root_node.has_error:
                good.append((blocks[i][0], blocks[j][1]))
                i = j + 1
                break
        else:
            i, left_out = i + 1, left_out + 1
    if not good or not left_out:
        return tree, defs, [], 0
    ranges, lines = [], _line_starts(source)
    for a, b in good:
        if ranges and ranges[-1][1] == a:
            ranges[-1] = (ranges[-1][0], b)
        else:
            ranges.append((a, b))
    partial = Parser(ts_pack.get_language(LANGUAGES[language].grammar),
                     included_ranges=[Range(_point(lines, a), _point(lines, b), a, b) for a, b in ranges])
    again = partial.parse(source)
    more, refs = _matches(language, again)
    found = len({caps["name"][0].start_byte for _kind, _node, caps in more})
    return (again, more, refs, left_out) if found > len({c["name"][0].start_byte for _k, _n, c in defs}) \
        else (tree, defs, [], 0)


def _line_starts(source: bytes) -> list[int]:
    return [0, *(i + 1 for i, c in enumerate(source) if c == 10)]


def _point(line_starts: list[int], byte: int) -> tuple[int, int]:
    row = bisect.bisect_right(line_starts, byte) - 1
    return row, byte - line_starts[row]


_SIGNATURE_LINE = re.compile(rb"(?m)^([ \t]*)[ \t]<")


def _separated(language: str, source: bytes, tree: Tree) -> Tree:
    """TypeScript: an interface's call signatures on lines of their own (``<T>(value?: T): X`` below ``<T>(value:
    T): X``, no ``;`` between) are read by the grammar as a generic call of the type above, an error that may
    run on for the rest of the file (MobX's ``IObservableFactory``: its ``observableFactories`` and the
    ``computed`` of computed.ts were lost). A ``;`` written over the last space of the indentation of every
    line starting with ``<`` separates them and keeps every byte offset; that tree is taken when it has fewer
    errors (a ``<T>x`` cast starting a line may become a statement of its own: then it has more)."""
    patched = _SIGNATURE_LINE.sub(lambda m: m.group(1) + b";<", source)
    if patched == source:
        return tree
    again = get_parser(language).parse(patched)
    return again if _count_errors(again.root_node) < _count_errors(tree.root_node) else tree


def extract(source: bytes, language: str) -> FileExtraction:
    """Parse ``source`` and extract definitions and references with exact 1-based lines."""
    spec = LANGUAGES[language]
    tree = get_parser(language).parse(source)
    if tree.root_node.has_error and language == "typescript":
        tree = _separated(language, source, tree)
    defs, refs = _matches(language, tree)
    left_out = 0
    if tree.root_node.has_error:
        again, more, more_refs, left_out = _recovered(language, source, tree, defs)
        if left_out:
            tree, defs, refs = again, more, more_refs
    builder = _Builder(spec, source, tree.root_node)
    builder.add_definitions(defs)
    for kind, node, caps in refs:
        if kind in _REFERENCE_HANDLERS:
            getattr(builder, _REFERENCE_HANDLERS[kind])(node, caps)
        else:
            builder.add_base(kind.upper(), node, caps)
    builder.finish_chains()
    builder.finish_bindings()
    builder.finish_callbacks()
    builder.finish_exports()
    result = builder.result
    result.calls.sort(key=lambda c: (c.line, c.name, c.column))
    errors = _count_errors(tree.root_node)
    if errors:
        result.parse_status = "partial"
        result.warnings.append(f"syntax errors in {errors} place(s); definitions recovered where possible, "
                               f"every other line kept in module chunks")
    if left_out:
        result.parse_status = "partial"
        result.warnings.append(f"syntax errors: {left_out} top-level statement(s) that do not parse were read "
                               f"as module code, and the rest of the file parsed without them")
    return result


def summarize(result: FileExtraction) -> dict:
    """The extraction in the shape of the fixtures' ``*.expected.json`` files (names instead of indexes)."""
    defs = result.definitions

    def qname(index: int | None) -> str | None:
        return defs[index].qualified_name if index is not None else None

    return {
        "parse_status": result.parse_status,
        "definitions": [{"qualified_name": d.qualified_name, "kind": d.kind,
                         "start_line": d.start_line, "end_line": d.end_line} for d in defs],
        "calls": [{"caller": qname(c.caller), "name": c.name, "receiver": c.receiver, "line": c.line,
                   **({"implicit": c.implicit} if c.implicit else {}),
                   **({"slot": c.slot} if c.of else {})} for c in result.calls],
        "imports": [{"module": i.module, "name": i.name, "alias": i.alias, "line": i.line}
                    for i in result.imports],
        "bases": [{"owner": qname(b.owner), "name": b.name, "relation": b.relation, "line": b.line}
                  for b in result.bases],
    }


if __name__ == "__main__":  # python -m graphrag_code.extract FILE LANGUAGE: print what the extractor sees
    import json
    import sys

    from .languages import language_for_path

    file_path = sys.argv[1]
    lang = sys.argv[2] if len(sys.argv) > 2 else language_for_path(file_path)
    with open(file_path, "rb") as fh:
        print(json.dumps(summarize(extract(fh.read(), lang)), indent=1))
