"""Tree-sitter extraction: definitions, calls, imports and base classes of one source file.

What to extract is data: ``queries/<language>-tags.scm``, with the tags captures below. This module only
turns matches into typed records with exact coordinates; it never decides per language what a definition is.

Captures (anything else makes the query file fail to load):
    @definition.<kind>   the whole definition (kind: function, method, class, interface, struct, enum, trait,
                         module, impl, type, constant); with @name, optional @doc and @owner (receiver type)
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
    @reference.export    JavaScript/TypeScript: the name a module's default export names (``module.exports = X``)
    @reference.inherits / @reference.implements   a base named by @name, inside a class-like definition
    @reference.import    an import; with @import.module and optional @import.name, @import.alias, @import.wildcard
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
from .languages import DECLARED_TYPES as _STATIC_TYPED, LANGUAGES, SCRIPT_LANGUAGES, LanguageSpec
from .models import NAME_CHAIN as _CHAIN, SCRIPT_GLOBALS, BaseRef, CallSite, Definition, FileExtraction, ImportRef, \
    item_of

DEFINITION_KINDS = frozenset({"function", "method", "class", "interface", "struct", "enum", "trait", "module",
                              "impl", "type", "constant"})
# @reference.<kind> -> the _Builder method that takes it; the two base kinds go to add_base
_REFERENCE_HANDLERS = {"call": "add_call", "read": "add_read", "with": "add_with", "dunder": "add_dunder",
                       "callback": "add_callback", "registry": "add_registry", "returns": "add_returned",
                       "alias": "add_alias", "export": "add_export", "import": "add_import", "binding": "add_binding",
                       "decorator": "add_decorator"}
_REFERENCE_KINDS = frozenset(_REFERENCE_HANDLERS) | {"inherits", "implements"}
_INNER_CAPTURES = frozenset({"name", "doc", "owner", "receiver", "slot", "import.module", "import.name",
                             "import.alias", "import.wildcard"})
_MODIFIER_TYPES = frozenset({"modifiers", "modifier", "visibility_modifier", "accessibility_modifier",
                             "storage_class_specifier", "visibility"})
_VISIBILITY_WORDS = ("public", "private", "protected", "internal")
_MAX_SIGNATURE = 300
_PROPERTY = re.compile(rb"@(?:functools\.)?(?:cached_)?property\s*$", re.M)   # a getter's decorator
# statements that write an attribute rather than read it: the field holding the target (None: all of it)
_WRITES = {"assignment": "left", "augmented_assignment": "left", "delete_statement": None}
# JavaScript/TypeScript nodes of a function's own scope (see _returns_from)
_SCRIPT_FUNCTIONS = frozenset({"function_declaration", "function_expression", "function", "arrow_function",
                               "generator_function", "generator_function_declaration", "method_definition"})
_YIELD = re.compile(rb"\byield\b")   # a generator (or a function with one nested: left untyped either way)
_NARROWABLE = re.compile(rb"isinstance\(\s*([A-Za-z_][\w.]*)\s*,|\bexcept\b[^:\n]*\bas\s+([A-Za-z_]\w*)\s*:")
# JavaScript/TypeScript: names an `x instanceof A` or a type guard's call in a condition (`if (isObservableSet(obj))`,
# `isMap(obj) ? ... : ...`, `&&`) may narrow
_SCRIPT_NARROWABLE = re.compile(rb"([A-Za-z_$][\w$.]*)\s+instanceof\b|"
                                rb"[A-Za-z_$][\w$.]*\(\s*([A-Za-z_$][\w$.]*)\s*\)\s*(?:\)|&&|\?)")
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


def _text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace") if node.text is not None else ""


def _core(node: Node) -> Node:
    """The definition inside a wrapper (decorated_definition, export_statement, expression_statement)."""
    for field_name in ("definition", "declaration"):
        child = node.child_by_field_name(field_name)
        if child is not None:
            return child
    if node.type == "expression_statement" and node.named_child_count == 1:
        return node.named_children[0]
    return node


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


def _find_body(node: Node, depth: int = 3) -> Node | None:
    body = node.child_by_field_name("body")
    if body is not None or depth == 0:
        return body
    for child in node.named_children:
        found = _find_body(child, depth - 1)
        if found is not None:
            return found
    return None


class _Builder:
    """Turns the query matches of one parsed file into a FileExtraction."""

    def __init__(self, spec: LanguageSpec, source: bytes, root: Node) -> None:
        self.spec, self.source, self.root = spec, source, root
        self.result = FileExtraction(language=spec.name)
        self._imports_seen: set[tuple] = set()      # result.imports as tuples: a list scan per import was O(n^2)
        self._def_nodes: list[Node] = []
        self._name_bytes: list[int] = []       # where each definition's name starts
        self._body_bytes: list[int] = []       # where each definition's body starts (its end when it has none)
        self._properties: set[str] = set()     # names of this file's property getters
        self._callbacks: list[CallSite] = []     # arguments that may be functions (add_callback)
        # Python: names an `isinstance(name, ...)` or an `except ... as name:` may narrow (_narrowing walks up
        # from a call only for these: most files have none)
        self._narrowable = {(m[0] or m[1]).decode() for m in _NARROWABLE.findall(source)} \
            if spec.name == "python" else {(m[0] or m[1]).decode() for m in _SCRIPT_NARROWABLE.findall(source)} \
            if spec.name in SCRIPT_LANGUAGES else set()
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
            **({"attr_types": _go_field_types(node)} if self.spec.name == "go" and kind == "struct" else {}),
            **({"underlying": _go_underlying(node)} if self.spec.name == "go" and kind == "type" else {}),
            partial=self.spec.name == "csharp" and any(c.type == "modifier" and _text(c) == "partial"
                                                        for c in node.children),
        )
        if "owner" in caps:
            definition.qualified_name = f"{_text(caps['owner'][0])}.{name}"
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
               and (_last_row(sibling) < start.start_point.row + (0 if sibling.type.endswith("comment") else 1)
                    # a comment opening the definition's own line (`/*public*/ int[] get()`): the doc above it too
                    or sibling.start_point.row == start.start_point.row == node.start_point.row
                    and not self.source[sibling.start_byte - sibling.start_point.column:sibling.start_byte].strip())):
            start = sibling
            sibling = sibling.prev_named_sibling
        return start

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
        text = self.source[core.start_byte:end].decode("utf-8", errors="replace")
        if body is None:
            text = text.split("\n", 1)[0]
        text = " ".join(text.split()).rstrip("{:= ").rstrip()
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
            return vis, exported
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
        narrowed = (_narrowing(node, receiver) if self.spec.name == "python" else _script_narrowing(node, receiver)) \
            if receiver in self._narrowable else None
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
                                          arity=_call_arity(node) if self.spec.name in _OVERLOADING else None))
        if self.spec.name == "python" and name in _INSERTS and receiver and _CHAIN.fullmatch(receiver):
            self._insert(node, caller, receiver.rsplit(".", 1)[-1], name)
        if caller is not None and node.type in ("call_expression", "new_expression") and self.spec.name != "python":
            self._callback_parameter(node, caller, name, receiver)

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
        else:
            self._script_binding(node, caps)

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
            # `this.right = this.right.right` in `forward()`)
            types.update((n, next(iter(v))) for n, v in self._ctor_assigned.get(i, {}).items()
                         if n not in annotated and len(v) == 1 and next(iter(v)))
            defs[i].attr_types = {n: t for n, t in types.items() if t}
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
        if "import.module" not in caps:
            return
        module = _text(caps["import.module"][0]).strip("'\"`<>")
        name = _text(caps["import.name"][0]) if "import.name" in caps else None
        alias = _text(caps["import.alias"][0]) if "import.alias" in caps else None
        ref = ImportRef(module, name, alias, node.start_point.row + 1, wildcard="import.wildcard" in caps)
        key = (module, name, alias, ref.line, ref.wildcard)
        if key not in self._imports_seen:
            self._imports_seen.add(key)
            self.result.imports.append(ref)


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
    builder.finish_bindings()
    builder.finish_callbacks()
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


_OPTIONAL = re.compile(r"^(?:(?:t|typing)\.)?Optional\[(.*)\]$")
# annotations of a collection whose items are of one class: List[X], t.Iterator[X], Tuple[X, ...], list[X]
_ITEMS = re.compile(r"^(?:(?:t|typing|cabc|abc|collections\.abc)\.)?(?:List|Sequence|MutableSequence|Iterable|"
                    r"Iterator|Set|FrozenSet|AbstractSet|Collection|Generator|Tuple|list|set|frozenset|tuple)"
                    r"\[\s*([^,\[\]]+?)\s*(,\s*\.\.\.\s*)?(,[^\[\]]*)?\]$")
# annotations of a mapping whose values are of one class: t.Dict[str, Option], Mapping[str, X], dict[str, X]
_MAPPING = re.compile(r"^(?:(?:t|typing|cabc|abc|collections\.abc|collections)\.)?(?:Dict|Mapping|MutableMapping|"
                      r"DefaultDict|OrderedDict|dict|defaultdict)\[\s*[^,\[\]]+?\s*,\s*([^,\[\]]+?)\s*\]$")
# a class of the repository with one type argument, `util.Registry[BlockProcessor]` (not a typing special form)
_GENERIC = re.compile(r"^([A-Za-z_][\w.]*)\[\s*([^,\[\]]+?)\s*\]$")
_SPECIAL_FORMS = re.compile(r"^(?:(?:t|typing|te|typing_extensions)\.)?(?:Union|Type|type|ClassVar|Final|Annotated|"
                            r"Literal|Callable|Awaitable|Coroutine|TypeGuard|Unpack|Required|NotRequired)\[")
_CLASS_OBJECT = re.compile(r"^(?:(?:t|typing)\.)?(?:Type|type)\[\s*([^,\[\]]+?)\s*\]$")
# what a union may hold besides the one class that receives calls (`ext: Extension | str`: a str has no
# extendMarkdown), as ``None`` in Optional[X]
_SCALARS = frozenset({"None", "str", "bytes", "int", "float", "bool", "complex"})


def _union_members(text: str, opening: str, closing: str, sep: str = "|") -> list[str]:
    """``text`` split on its top-level ``sep`` (not inside the ``opening`` / ``closing`` brackets)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in opening
        depth -= ch in closing
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [*parts, cur]


def _union(text: str) -> list[str]:
    """The members of a union annotation (top-level ``|``, ``Optional[X]``), scalars and ``None`` left out."""
    text = text.strip().strip("\"'").strip()
    m = _OPTIONAL.match(text)
    if m:
        text = m.group(1)
    parts = [p.strip().strip("\"'").strip() for p in _union_members(text, "[", "]")]
    return [p for p in parts if p and p not in _SCALARS]


def _annotated_type(text: str) -> str | None:
    """``X`` for an annotation naming one class (``_annotated_class``), ``[]X`` for a collection of them
    (``t.List["Parameter"]``, ``t.Iterator[X]``, ``Tuple[X, ...]``; a Tuple of several types is not one),
    ``G[]X`` for a class of the repository with one type argument (``util.Registry[BlockProcessor]``: the
    resolver takes its items to be ``X`` when ``G`` defines ``__iter__``), ``{}V`` for a mapping whose values are
    ``V`` (``t.Dict[str, "Option"]``)."""
    parts = _union(text)
    if len(parts) != 1:
        return None
    inner = parts[0]
    items = _ITEMS.match(inner)
    if items and not (inner.lower().startswith(("tuple", "t.tuple", "typing.tuple")) and items.group(3)
                      and not items.group(2)):
        item = _annotated_class(items.group(1))
        return f"[]{item}" if item else None
    mapping = _MAPPING.match(inner)
    if mapping:
        value = _annotated_class(mapping.group(1))
        return f"{{}}{value}" if value else None
    class_object = _CLASS_OBJECT.match(inner)
    if class_object:                    # `t.Type["Context"]`: the class itself; calling it constructs one
        return _annotated_class(class_object.group(1))
    generic = _GENERIC.match(inner)
    if generic and not _SPECIAL_FORMS.match(inner):
        cls, item = _annotated_class(generic.group(1)), _annotated_class(generic.group(2))
        return f"{cls}[]{item}" if cls and item else cls
    return _annotated_class(inner)


_TS_ITEMS = re.compile(r"^(?:Readonly)?(?:Array|Set)<(.+)>$|^(.+)\[\]$")
_TS_RETURN_TYPE = re.compile(r"(ReturnType|InstanceType)<\s*typeof\s+([A-Za-z_$][\w$.]*)\s*>")
_TS_MAPPING = re.compile(r"^(?:(?:Readonly|Weak)?Map|Record)<(.+)>$", re.S)


_TS_PREDICATE = re.compile(r"\s*:?\s*(?:asserts\s+)?[A-Za-z_$][\w$]*\s+is\s+(.+)", re.S)


def _ts_guard(text: str) -> str:
    """``is:X`` for a TypeScript function type that is a type guard (``(thing: any) => thing is X``), else ""."""
    text = text.strip().lstrip(":")
    arrow = _top_level_arrow(text)
    predicate = _TS_PREDICATE.fullmatch(text[arrow + 2:]) if arrow is not None else None
    guarded = _ts_type(predicate.group(1)) if predicate else None
    return f"is:{guarded}" if guarded else ""


def _ts_type(text: str, union: bool = False) -> str | None:
    """TypeScript: ``X`` for an annotation naming one class or interface (``: Observable<T>``, ``Foo | undefined``,
    ``rx.Subject``), ``[]X`` for an array of them (``Foo[]``, ``Array<Foo>``); with ``union``, ``union:A,B`` for
    a union of such names (``UpdateEncoderV1 | UpdateEncoderV2``); None otherwise (primitives, type parameters
    such as ``T``)."""
    text = text.strip().lstrip(":").strip().removeprefix("readonly ").strip()
    if text.startswith("(") and text.endswith(")") and _top_level_arrow(text) is None:
        text = text[1:-1].strip()       # `(GC | Item)[]`: the items of `GC | Item`
    arrow = _top_level_arrow(text)
    if arrow is not None:         # `() => Unsubscribable | void`: a function; `()X` is what calling it gives
        returned = _ts_type(text[arrow + 2:]) or ""
        returned = "" if returned.startswith(("(", "[]", "call:")) else returned
        # `(source: Observable<T>, subscriber: Subscriber<R>) => void`: `(Observable;Subscriber)`, what a function
        # handed as that argument is called with (its parameters' types where it declares none)
        params = _ts_fn_params(text[:arrow])
        return f"({';'.join(params)}){returned}" if returned or any(params) else None
    parts = [p.strip() for p in _union_members(text, "<([{", ">)]}") if p.strip() not in ("undefined", "null", "void", "")]
    if len(parts) > 1 and union:
        members = list(dict.fromkeys(_ts_type(p) or "" for p in parts))
        plain = all(m and re.fullmatch(r"[\w$.]+", m) for m in members)
        return (f"union:{','.join(members)}" if len(members) > 1 else members[0]) if plain else None
    if len(parts) != 1:
        return None
    wrapped = _TS_RETURN_TYPE.fullmatch(parts[0])
    if wrapped:                   # `ReturnType<typeof getBatchStreamFormatter>`: what calling it gives
        return f"call:{wrapped.group(2)}" if wrapped.group(1) == "ReturnType" else _ts_type(wrapped.group(2))
    mapping = _TS_MAPPING.match(parts[0])
    if mapping:                   # `Map<string, ObservableValue<T>>`: `{}ObservableValue`, what `.get(k)` gives
        args = _union_members(mapping.group(1), "<([{", ">)]}", ",")
        value = _ts_type(args[1], union) if len(args) == 2 else None      # `Map<K, ObservableValue | Computed>` too
        return f"{{}}{value}" if value and not value.startswith(("(", "[]", "{}", "call:")) else None
    items = _TS_ITEMS.match(parts[0])
    if items:
        item = _ts_type(items.group(1) or items.group(2), union)     # `Array<GC|Item>`: `[]union:GC,Item`
        return f"[]{item}" if item and not item.startswith(("[]", "call:")) else None
    # `typeof UpdateDecoderV2`: the class object, read as the class (as Python's `Type[X]`): `new` of it makes one
    name = parts[0].removeprefix("typeof ").split("<", 1)[0].strip()
    if not re.fullmatch(r"[A-Za-z_$][\w$.]*", name):
        return None
    last = name.rsplit(".", 1)[-1]
    # a class's name is capitalized; one capital letter is a type parameter (`T`, `K`), several a class (Yjs's `GC`)
    return last if last[:1].isupper() and len(last) > 1 else None


def _held(declared: str | None) -> str:
    """A local's value for the type ``_ts_type`` read: ``class:X``, or ``call:f`` as it is (``ReturnType<typeof
    f>``: what ``f`` returns), "" for none."""
    return declared if declared and declared.startswith("call:") else f"class:{declared}" if declared else ""


def _ts_fn_params(head: str) -> list[str]:
    """The ``_ts_type`` of each parameter of a TypeScript function type's parameter list (``<T>(a: Foo<T>, b?: Bar,
    ...rest: X[])``), "" for one that names no class (or is itself a function); ``this`` is no parameter: what it
    declares comes first as ``@X`` (``(this: SchedulerAction<T>, state?: T) => void``)."""
    head = head.strip()
    if head.startswith("<"):               # a generic function type's type parameters
        depth = 0
        for i, ch in enumerate(head):
            depth += (ch == "<") - (ch == ">")
            if depth == 0:
                head = head[i + 1:].strip()
                break
    if not (head.startswith("(") and head.endswith(")")):
        return []
    out = []
    for part in _union_members(head[1:-1].replace("=>", "\u2192"), "<([{", ">)]}", ","):
        name, colon, written = part.partition(":")
        name = name.strip().rstrip("?").lstrip(".").strip()
        if not name:
            continue
        typed = _ts_type(written.replace("\u2192", "=>"), union=True) if colon else None
        typed = typed if typed and not typed.startswith(("(", "@")) and ";" not in typed and ")" not in typed else ""
        if name != "this":
            out.append(typed)
        elif typed:
            out.insert(0, f"@{typed}")
    return out


def _top_level_arrow(text: str) -> int | None:
    """Where the ``=>`` of a TypeScript function type is (``(x: A) => B``, ``<T>() => T``), outside brackets."""
    depth, i = 0, 0
    while i < len(text):
        if text.startswith("=>", i):
            if depth == 0:
                return i
            i += 2
            continue
        depth += (text[i] in "([{<") - (text[i] in ")]}>")
        i += 1
    return None


_GO_BUILTIN_TYPES = frozenset("""bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune
string uint uint8 uint16 uint32 uint64 uintptr any comparable""".split())


def _go_type(node: Node | None) -> str:
    """The named type a Go parameter is of (`*Store`, `Stack[T]`, `pkg.Client`), ``[]T`` for a slice or an array of
    one (`[]*Command`: what indexing or a `range` gives), ``{}T`` for a map to one, or "" (a built-in, a function
    type: nothing whose methods the repository defines)."""
    while node is not None and node.type in ("pointer_type", "generic_type", "parenthesized_type"):
        node = node.child_by_field_name("type") or (node.named_children[0] if node.named_children else None)
    if node is not None and node.type in ("slice_type", "array_type"):
        item = _go_type(node.child_by_field_name("element"))
        return f"[]{item}" if item and not item[:2] in ("[]", "{}") else ""
    if node is not None and node.type == "map_type":     # `map[string]*Command`: what indexing or a `range` gives
        item = _go_type(node.child_by_field_name("value"))
        return f"{{}}{item}" if item and not item[:2] in ("[]", "{}") else ""
    if node is None or node.type not in ("type_identifier", "qualified_type"):
        return ""
    name = _text(node)
    return "" if name in _GO_BUILTIN_TYPES else name


def _go_value(node: Node) -> str:
    """What a Go variable is assigned, in ``_value_of``'s notation: ``class:T`` for ``T{...}``, ``&T{...}``,
    ``new(T)`` and ``x.(T)``, ``call:f`` / ``call:pkg.F`` / ``call:c.Root`` for what the call returns (a conversion
    ``T(x)`` is a call of the type: that type), ``attr:c.parent``, ``var:x``; else ""."""
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node.type == "unary_expression" and _text(node.child_by_field_name("operator") or node) == "&":
        node = node.child_by_field_name("operand") or node
    if node.type in ("composite_literal", "type_assertion_expression"):
        kind = _go_type(node.child_by_field_name("type"))
        return f"class:{kind}" if kind else ""
    if node.type == "call_expression":
        fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        text = _text(fn) if fn is not None else ""
        if text == "new" and args is not None and len(args.named_children) == 1:
            kind = _go_type(args.named_children[0])
            return f"class:{kind}" if kind else ""
        return f"call:{text}" if _CHAIN.fullmatch(text) else ""
    if node.type == "selector_expression" and _CHAIN.fullmatch(_text(node)):
        return f"attr:{_text(node)}"
    if node.type == "identifier":
        return f"var:{_text(node)}"
    return ""


_OVERLOADING = frozenset({"java", "csharp", "cpp"})   # languages whose functions are overloaded by parameters
_PRIMITIVE_TYPES = frozenset({"integral_type", "floating_point_type", "boolean_type", "void_type", "predefined_type",
                              "primitive_type", "sized_type_specifier"})
_CPP_POINTERS = frozenset({"unique_ptr", "shared_ptr", "weak_ptr", "scoped_refptr"})   # `->` reaches the pointee
_CPP_DECLARATORS = frozenset({"pointer_declarator", "reference_declarator", "init_declarator", "array_declarator"})


def _type_parameters(node: Node) -> frozenset[str]:
    """The type parameters declared by the methods and classes around ``node`` (``<T>``): a variable of such a
    type names no class."""
    names: set[str] = set()
    while node is not None:
        for child in node.children:
            if child.type in ("type_parameters", "type_parameter_list", "template_parameter_list"):
                names.update(_text(n) for tp in child.named_children
                             if tp.type in ("type_parameter", "type_parameter_declaration")
                             for n in tp.named_children[:1] if n.type in ("type_identifier", "identifier"))
        node = node.parent
    return frozenset(names)


def _static_type(node: Node | None, generics: frozenset[str]) -> str:
    """Java / C# / C++: the class a declared type names, in the resolver's notation: ``Foo``, ``a.b.Foo``, ``[]Foo``
    for an array of them; generic arguments dropped (``List<Foo>`` is a ``List``; C++ smart pointers are their
    pointee, other ``std::`` types ``std.X``); "" for a primitive, ``var``, a type parameter (``T``) or what names
    no class."""
    if node is None or node.type in _PRIMITIVE_TYPES:
        return ""
    if node.type == "array_type":
        return _array_of(_static_type(node.child_by_field_name("element") or node.child_by_field_name("type"),
                                      generics))
    if node.type in ("generic_type", "generic_name", "nullable_type"):
        head = node.child_by_field_name("type") if node.type == "nullable_type" else node.named_children[0]
        if node.type == "generic_name":
            return _text(head)
        return _static_type(head, generics)
    if node.type in ("type_identifier", "identifier"):
        name = _text(node)
        return "" if name in generics or name == "var" else name
    if node.type in ("scoped_type_identifier", "qualified_name"):
        return "" if "<" in _text(node) else "".join(_text(node).split())
    if node.type == "qualified_identifier":          # C++ `ns::Foo`: by its name; the standard library's as `std.X`
        inner = _static_type(node.child_by_field_name("name"), generics)
        return f"std.{inner}" if inner and _text(node).startswith("std::") and \
            node.child_by_field_name("name").type != "template_type" else inner
    if node.type == "template_type":                 # `std::unique_ptr<Client>`: the pointee; `vector<Node*>`: vector
        name = _text(node.child_by_field_name("name"))
        arguments = node.child_by_field_name("arguments")
        if name in _CPP_POINTERS and arguments is not None and arguments.named_children:
            first = arguments.named_children[0]
            return _static_type(first.child_by_field_name("type") if first.type == "type_descriptor" else first,
                                generics)
        return f"std.{name}"
    return ""


def _array_of(item: str) -> str:
    """``[]Foo`` for an array of ``Foo`` (the resolver's notation); "" for one of what names no class or of arrays."""
    return f"[]{item}" if item and not item.startswith("[]") else ""


def _static_initializer(name: Node) -> str:
    """Java / C# / C++, ``var x = ...`` / ``auto x = ...``: ``class:Foo`` for ``new Foo(...)``, ``call:a.f`` for
    what ``a.f(...)`` returns, else "" (the value of the declarator whose name ``name`` is)."""
    declarator = name.parent
    while declarator.type in ("pointer_declarator", "reference_declarator"):    # C++ `auto* p = ...`
        declarator = declarator.parent
    value = declarator.child_by_field_name("value")
    if value is None:         # C#: `variable_declarator` holds the name, `=` and the value
        rest = [c for c in declarator.named_children if c.start_byte > name.start_byte]
        value = rest[-1] if rest else None
    if value is None:
        return ""
    if value.type in ("object_creation_expression", "new_expression"):
        kind = _static_type(value.child_by_field_name("type"), _type_parameters(value))
        return f"class:{kind}" if kind and not kind.startswith("[]") else ""
    if value.type in ("method_invocation", "invocation_expression", "call_expression"):
        if value.type == "method_invocation":
            obj, fn = value.child_by_field_name("object"), value.child_by_field_name("name")
            chain = f"{_text(obj)}.{_text(fn)}" if obj is not None else _text(fn)
        else:
            chain = _text(value.child_by_field_name("function"))
        chain = "".join(chain.split()).replace("->", ".").replace("::", ".")
        return f"call:{chain}" if _STATIC_CHAIN.fullmatch(chain) else ""
    return ""


_STATIC_CHAIN = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def _declared_name(declarator: Node | None) -> Node | None:
    """C++: the name a declarator declares (`*p`, `&r`, `p = nullptr`, `a[3]`), or None (an abstract one)."""
    while declarator is not None and declarator.type in _CPP_DECLARATORS:
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type in ("identifier", "field_identifier")), None)
    return declarator if declarator is not None and declarator.type in ("identifier", "field_identifier") else None


def _static_signature_types(core: Node) -> dict:
    """Java / C# / C++ functions: their parameters' declared types and the type they return (``_static_type``);
    a C# extension method what it extends."""
    params = _parameter_list(core)
    if core.type == "template_declaration":
        core = next((c for c in core.named_children if c.type == "function_definition"), core)
    generics = _type_parameters(core)
    out: dict[str, str] = {}
    for p in params.named_children if params is not None else []:
        name = p.child_by_field_name("name") if p.type != "parameter_declaration" else _declared_name(
            p.child_by_field_name("declarator"))
        if p.type in ("formal_parameter", "parameter", "parameter_declaration") and name is not None:
            out[_text(name)] = _static_type(p.child_by_field_name("type"), generics)
        elif p.type == "spread_parameter":                  # `Foo... xs`: an array
            declarator = next((c for c in p.named_children if c.type == "variable_declarator"), None)
            inner = _static_type(p.named_children[0], generics) if p.named_children else ""
            if declarator is not None and (n := declarator.child_by_field_name("name")) is not None:
                out[_text(n)] = _array_of(inner)
    returned = core.child_by_field_name("type") or core.child_by_field_name("returns")
    if core.type == "function_definition" and returned is not None:
        return {"param_types": out, "return_type": _static_type(returned, generics)}
    first = params.named_children[0] if params is not None and params.named_children else None
    extends = first is not None and first.type == "parameter" and \
        any(c.type == "modifier" and _text(c) == "this" for c in first.children)
    return {"param_types": out, "return_type": _static_type(returned, generics) if returned is not None and
            core.type == "method_declaration" else "",
            # a C# extension method: callable on what its `this` parameter extends (`foo.Count()`)
            **({"extends": _static_type(first.child_by_field_name("type"), generics) or "?"} if extends else {})}
_PARAMETERS = frozenset({"formal_parameter", "parameter", "parameter_declaration", "optional_parameter_declaration",
                         "receiver_parameter"})
_REST_PARAMETERS = frozenset({"spread_parameter", "variadic_parameter_declaration", "...", "params"})


def _call_arity(node: Node) -> int | None:
    """How many arguments a call passes (Java `method_invocation`, C# `invocation_expression`, C++
    `call_expression`), or None without an argument list."""
    args = node.child_by_field_name("arguments")
    return None if args is None else sum(1 for c in args.named_children if not c.type.endswith("comment"))


def _parameter_list(core: Node) -> Node | None:
    """A function's parameter list: its own (Java, C#), or in C++ the function declarator's, under a template and
    the pointer and reference declarators of what it returns (`template <class T> T *&f(int x)`)."""
    if core.type == "template_declaration":           # its own `parameters` are the template's
        core = next((c for c in core.named_children if c.type == "function_definition"), core)
    params, decl = core.child_by_field_name("parameters"), core
    while params is None and decl is not None:        # C++: function_definition > ... > function_declarator
        decl = decl.child_by_field_name("declarator") or next(
            (c for c in decl.named_children if c.type == "function_declarator"), None)
        params = decl.child_by_field_name("parameters") if decl is not None else None
    return params


def _param_arity(core: Node) -> tuple[int, int] | None:
    """(fewest, most) arguments a function takes: parameters with a default value may be left out, and after
    Java's `T... rest`, C#'s `params T[] rest` or C++'s `...` any number more may come (most = -1)."""
    params = _parameter_list(core)
    if params is None:
        return None
    fewest = most = 0
    rest = False
    for c in params.children:
        if c.type in _REST_PARAMETERS:
            rest = True
        elif c.type in _PARAMETERS:
            most += 1
            optional = c.type == "optional_parameter_declaration" or any(x.type == "=" for x in c.children)
            fewest += not optional
    return fewest, -1 if rest else most


def _go_underlying(node: Node) -> str:
    """A named Go slice or map type's underlying type (`type byName []*Command`: ``[]Command``), else ""."""
    spec = node if node.type == "type_spec" else next((c for c in node.named_children if c.type == "type_spec"), None)
    kind = _go_type(spec.child_by_field_name("type")) if spec is not None else ""
    return kind if kind[:2] in ("[]", "{}") else ""


def _go_item(node: Node) -> str:
    """What the second variable of a ``range`` over ``node`` is bound to: an item of it, ``subname:xs``,
    ``subattr:c.commands``, ``subcall:cmd.Commands`` (``models.item_of``'s notation); else ""."""
    value = _go_value(node)
    kind, _, chain = value.partition(":")
    return f"sub{kind}:{chain}" if kind in ("call", "attr") else item_of(chain) if kind == "var" else ""


def _go_param_types(core: Node) -> dict[str, str]:
    """Go: a method's receiver (`func (s *Store) Put`: s -> Store) and a function's parameters (`c *Client`), each
    name to the named type it is of, or "" (every parameter shadows an outer name)."""
    out: dict[str, str] = {}
    for field in ("receiver", "parameters"):
        params = core.child_by_field_name(field)
        for p in params.named_children if params is not None else []:
            if p.type != "parameter_declaration":
                continue
            kind = _go_type(p.child_by_field_name("type"))
            for name in p.children_by_field_name("name"):
                if _text(name) != "_":
                    out[_text(name)] = kind
    return out


def _go_result_type(core: Node) -> str:
    """The named type a Go function returns (`*Command`), or its first result's (`(*Command, []string, error)`:
    what `cmd, args, err := c.Find(a)` binds to `cmd`, the one place Go uses it)."""
    result = core.child_by_field_name("result")
    if result is None or result.type != "parameter_list":
        return _go_type(result)
    first = next((p for p in result.named_children if p.type == "parameter_declaration"), None)
    return _go_type(first.child_by_field_name("type")) if first is not None else ""


def _go_field_types(node: Node) -> dict[str, str]:
    """A Go struct's named fields -> the named type each is of (`parent *Command`); embedded ones are bases."""
    found = [node] if node.type == "struct_type" else []
    stack = list(node.named_children)
    while stack and not found:
        child = stack.pop(0)
        if child.type == "struct_type":
            found.append(child)
        elif child.type in ("type_spec", "type_declaration"):
            stack.extend(child.named_children)
    out: dict[str, str] = {}
    for fields in (c for c in found[0].named_children if c.type == "field_declaration_list") if found else []:
        for decl in fields.named_children:
            if decl.type == "field_declaration":
                kind = _go_type(decl.child_by_field_name("type"))
                for name in decl.children_by_field_name("name"):
                    if kind:
                        out[_text(name)] = kind
    return out


def _ts_signature_types(core: Node) -> dict:
    """TypeScript: a function's parameters (``sub: Subscriber<T>``; unannotated ones shadow too) and what it
    returns (``): Subject<T>``)."""
    if core.type in ("lexical_declaration", "variable_declaration"):        # `const f = (x: Foo) => ...`
        core = next((c for c in core.named_children if c.type == "variable_declarator"), core)
    if core.type in ("variable_declarator", "pair") and core.child_by_field_name("value") is not None:
        core = core.child_by_field_name("value")    # `batch: (callback: () => T) => ...` of a returned object too
    core = _uncast(core)                            # `= function computed(arg1, arg2) {...} as any`
    params = core.child_by_field_name("parameters")
    out: dict[str, str] = {}
    for p in params.named_children if params is not None else []:
        pattern, ann = p.child_by_field_name("pattern"), p.child_by_field_name("type")
        if pattern is not None and pattern.type == "identifier":
            out[_text(pattern)] = (_ts_type(_text(ann), union=True) or "") if ann is not None else ""
        elif pattern is not None and pattern.type == "this" and ann is not None:
            # `function emitWhenIdle(this: SchedulerAction<unknown>)`: what `this` is (no argument binds it)
            out["this"] = _ts_type(_text(ann), union=True) or ""
    returns = core.child_by_field_name("return_type")
    predicate = _TS_PREDICATE.fullmatch(_text(returns)) if returns is not None else None
    if predicate:                          # `(thing: any): thing is ObservableSet<any>`: a type guard
        guarded = _ts_type(predicate.group(1))
        return {"param_types": out, "return_type": f"is:{guarded}" if guarded else ""}
    return {"param_types": out, "return_type": (_ts_type(_text(returns), union=True) or "") if returns is not None else ""}


_JSDOC_PARAM = re.compile(r"@param\s+\{([^{}]+)\}\s+\[?([A-Za-z_$][\w$]*)")
_JSDOC_RETURNS = re.compile(r"@returns?\s+\{([^{}]+)\}")


def _jsdoc_types(params: list[str], leading: bytes) -> dict:
    """JavaScript: a function's parameters typed by its JSDoc (``@param {Transaction} transaction``, ``@param
    {Array<Item>} items``; Yjs types its code so) and what it returns (``@return {Doc}``), as TypeScript's
    annotations would; the others untyped."""
    types = dict.fromkeys(params, "")
    if b"@" not in leading:
        return {"param_types": types}
    doc = leading.decode("utf-8", errors="replace")
    for written, name in _JSDOC_PARAM.findall(doc):
        if name in types:
            types[name] = _jsdoc_type(written)
    returned = _JSDOC_RETURNS.search(doc)
    return {"param_types": types, "return_type": _jsdoc_type(returned.group(1)) if returned else ""}


_JSDOC_TYPE = re.compile(r"@type\s*\{([^{}]+)\}")


def _jsdoc_declared(node: Node) -> str | None:
    """JavaScript: the type a ``/** @type {Item|null} */`` comment directly above a declaration or an assignment
    statement gives it (``this._start = null``, ``let n = type._start``), as an annotation would; None without."""
    statement = node.parent if node.type == "variable_declarator" else node
    if statement is not None and statement.parent is not None and statement.parent.type == "expression_statement":
        statement = statement.parent
    doc = statement.prev_named_sibling if statement is not None else None
    if doc is None or doc.type != "comment" or doc.end_point.row < statement.start_point.row - 1:
        return None
    found = _JSDOC_TYPE.search(_text(doc))
    return _jsdoc_type(found.group(1)) if found else None


def _jsdoc_type(written: str) -> str:
    """A JSDoc type as ``_ts_type`` reads it; JavaScript's own (``{Object<string, any>}``, ``{Function}``: any
    object, any function) says nothing."""
    # `{Item?}`, `{?Item}` (nullable), `{Item=}` (optional), `{!Item}`: the type
    typed = _ts_type(written.strip().strip("?!=").strip(), union=True) or ""
    return "" if typed.removeprefix("[]") in SCRIPT_GLOBALS else typed


def _uncast(node: Node) -> Node:
    """TypeScript: the expression inside casts and parentheses (`(function f() {}) as any`)."""
    while node.type in ("as_expression", "satisfies_expression", "parenthesized_expression") and node.named_children:
        node = node.named_children[0]
    return node


def _js_parameters(core: Node) -> list[str]:
    """JavaScript: the names a function's parameters bind (``function (req, res, next)``, ``({a, b = 1}, ...rest)``,
    ``x => x``), untyped: a bare call of one (``next()``) calls what the caller hands, not a function of the
    module of that name."""
    node = core
    if node.type == "expression_statement" and node.named_children:
        node = node.named_children[0]
    if node.type in ("lexical_declaration", "variable_declaration"):        # `const f = (x) => ...`
        node = next((c for c in node.named_children if c.type == "variable_declarator"), node)
    node = node.child_by_field_name("value") or node.child_by_field_name("right") or node
    return _parameter_names(_uncast(node))


def _parameter_names(fn: Node) -> list[str]:
    """The names the parameters of the function node ``fn`` bind (``(a, {b}) =>``, ``x => x``)."""
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    return _pattern_names(params) if params is not None else []


def _pattern_names(pattern: Node) -> list[str]:
    """The names a JavaScript/TypeScript binding pattern binds: parameters, ``{a, b: c = 1, ...rest}``, ``[x, y]``."""
    names: list[str] = []
    stack = [pattern]
    while stack:
        n = stack.pop()
        if n.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(_text(n))
        elif n.type == "assignment_pattern":
            stack.append(n.child_by_field_name("left"))
        elif n.type in ("required_parameter", "optional_parameter") and n.child_by_field_name("pattern"):
            stack.append(n.child_by_field_name("pattern"))      # TypeScript's `(cache: QueryCache)`
        elif n.type == "pair_pattern":
            stack.append(n.child_by_field_name("value"))
        elif n.type in ("formal_parameters", "rest_pattern", "object_pattern", "array_pattern",
                        "object_assignment_pattern"):
            stack.extend(reversed(n.named_children))
    return names


def _installed_on(call: Node) -> str | None:
    """JavaScript/TypeScript: the object a function holding ``call`` is installed on under a computed name,
    ``proto[method] = function (path) { this.route(path) }`` (Express makes its verb methods so, in a
    ``methods.forEach`` callback): ``this`` there is that object. Arrow functions have no ``this`` of their own."""
    node = call.parent
    while node is not None and node.type not in _SCRIPT_FUNCTIONS - {"arrow_function"}:
        node = node.parent
    assignment = node.parent if node is not None else None
    if assignment is None or assignment.type != "assignment_expression" or \
            assignment.child_by_field_name("right") != node:
        return None
    left = assignment.child_by_field_name("left")
    target = left.child_by_field_name("object") if left is not None and left.type == "subscript_expression" else None
    return _text(target) if target is not None and _CHAIN.fullmatch(_text(target)) else None


def _asserted(receiver: Node) -> Node:
    """TypeScript's ``s!.now()``: the receiver is ``s``. The grammar reads ``a + s!.now()`` as ``(a + s)!.now()``
    (its ``!`` binds looser than binary and conditional operators), so there it is the last operand."""
    while receiver.type == "non_null_expression" and receiver.named_children:
        receiver = receiver.named_children[0]
        while receiver.type in ("binary_expression", "ternary_expression"):
            last = receiver.child_by_field_name("right" if receiver.type == "binary_expression" else "alternative")
            if last is None:
                break
            receiver = last
    return receiver


def _script_value(node: Node, iterated: bool) -> str:
    """JavaScript/TypeScript: what a variable is assigned, as ``_value_of``: ``class:X`` for ``new X(...)``,
    ``call:`` / ``attr:`` for a call or a member chain, ``iter...`` for the items a ``for...of`` walks."""
    while node.type in ("parenthesized_expression", "non_null_expression", "await_expression", "as_expression",
                        "satisfies_expression") and node.named_children:
        if node.type == "as_expression" and not iterated and (cast := _ts_type(_text(node.named_children[-1]), union=True)):
            return f"class:{cast}"          # `const prevQuery = this.#currentQuery as Query<T> | undefined`
        node = node.named_children[0]
    prefix = "iter" if iterated else ""
    if node.type == "binary_expression" and not iterated and \
            _text(node.child_by_field_name("operator") or node) in ("||", "??") and \
            _text(node.child_by_field_name("right") or node) in ("null", "undefined"):
        return _script_value(node.child_by_field_name("left"), False)    # `parent._map.get(key) || null`
    if node.type == "new_expression" and not iterated:
        ctor = node.child_by_field_name("constructor")
        text = _text(ctor) if ctor is not None else ""
        typed = node.child_by_field_name("type_arguments")
        if typed is not None and text in ("Map", "WeakMap", "Set", "Array"):   # `new Map<K, SubjectLike<T>>()`
            made = _ts_type(text + _text(typed), union=True)
            return f"class:{made}" if made and made[:2] in ("{}", "[]") else ""
        if text == "this":                  # `new this(thing)` in a static method: an object of its class
            return "var:this"
        if text.startswith("this.") and _CHAIN.fullmatch(text):
            # `new this.schedulerActionCtor(this, work)`, `schedulerActionCtor: typeof Action`: a class object
            # is read as its class (`_ts_type`), so what it makes is of the attribute's type
            return f"attr:{text}"
        return f"class:{text.rsplit('.', 1)[-1]}" if _CHAIN.fullmatch(text) else ""
    if node.type == "ternary_expression" and not iterated:
        # `thing instanceof this ? thing : new this(thing)` (axios's AxiosHeaders.from): what both branches are
        branches = [_narrowed_branch(node.child_by_field_name("condition"), node.child_by_field_name("consequence")),
                    _script_value(node.child_by_field_name("alternative"), False)]
        return "|".join(sorted(set(branches))) if all(branches) else ""
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        text = _text(fn) if fn is not None else ""
        mapped = _mapped(node) if not iterated and text.endswith(".map") else ""
        if mapped:                          # `matches.map((match) => match.observer)`: an array of those
            return f"each:{mapped}"
        text = text if _CHAIN.fullmatch(text) else _called_method(fn)     # `client.getQueryCache().find`
        return f"{prefix}call:{text}" if text else ""
    if node.type == "member_expression" and _CHAIN.fullmatch(_text(node)):
        return f"{prefix}attr:{_text(node)}"
    if node.type == "this" and not iterated:          # `const self = this`: the object the function runs on
        return "var:this"
    if node.type == "subscript_expression" and not iterated:    # `const observable = list[i]`: an item of list
        held = node.child_by_field_name("object")
        return item_of(_text(held)) if held is not None and _CHAIN.fullmatch(_text(held)) else ""
    if node.type == "identifier":                     # `for (const s of shapes)`, `shapes: Shape[]`
        return f"itername:{_text(node)}" if iterated else f"var:{_text(node)}"    # `let left = referenceItem`
    if node.type == "array" and not iterated and node.named_children:    # `let windows = [new Subject<T>()]`
        made = {_script_value(c, False) for c in node.named_children}
        one = made.pop() if len(made) == 1 else ""
        return f"class:[]{one[6:]}" if one.startswith("class:") and "[]" not in one else ""
    return ""


def _this_declared(node: Node) -> str:
    """TypeScript: ``class:X`` when the function ``this`` belongs to around ``node`` declares it (``function (this:
    SchedulerAction<any>) { this.unsubscribe() }`` handed to a call), else "". An arrow function has no ``this`` of
    its own: the search goes on past it."""
    up = node.parent
    while up is not None and up.type not in ("function_expression", "function_declaration", "method_definition",
                                             "generator_function", "generator_function_declaration", "class_body"):
        up = up.parent
    declared = _parameter_class(up, "this") if up is not None and up.type != "class_body" else None
    if declared is None and up is not None and up.type == "function_expression" and up.parent is not None and \
            up.parent.type == "arguments" and up.parent.parent is not None:
        # `scheduler.schedule(function () { this.schedule() })`: what the callee's function type says `this` is
        call = up.parent.parent
        callee = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
        k = [a for a in up.parent.named_children if a.type != "comment"].index(up)
        return f"cbparam:{_text(callee)}:{k}:this" if callee is not None and _CHAIN.fullmatch(_text(callee)) else ""
    return declared or ""


def _inline_parameter(node: Node, name: str) -> str:
    """TypeScript: ``class:X`` when ``name`` is an annotated parameter of an arrow function or function expression
    around ``node`` (``return (source: Observable<T>) => source.pipe(...)``, a function that is no definition: its
    parameters are no facts of one), else "" (an unannotated one: what the function's callee says of it, if
    anything, is a local of the function around, ``_callback_parameter``)."""
    up = node.parent
    while up is not None and up.type not in ("function_declaration", "method_definition", "class_body", "program"):
        if up.type in ("arrow_function", "function_expression") and name in _parameter_names(up):
            return _parameter_class(up, name) or ""
        up = up.parent
    return ""


def _parameter_class(fn: Node, name: str) -> str | None:
    """``class:X`` for the parameter ``name`` (``this`` too) of the TypeScript function node ``fn`` annotated with a
    class, "" for one annotated otherwise or not at all, None when ``fn`` has no parameter written so."""
    params = fn.child_by_field_name("parameters")
    for param in params.named_children if params is not None else []:
        pattern = param.child_by_field_name("pattern")
        if pattern is not None and _text(pattern) == name:
            ann = param.child_by_field_name("type")
            declared = _ts_type(_text(ann)) if ann is not None else None
            return f"class:{declared}" if declared and not declared.startswith(("(", "[]", "{}", "call:")) else ""
    return None


def _constructed(receiver: Node) -> str:
    """JavaScript/TypeScript: what a receiver that makes an object is (``class:GC`` for ``new GC(id, n)`` and
    ``(new GC(id, n))``, as ``_script_value`` reads it), else "". Its text with the arguments is no name the
    resolver can read (nested calls, longer than a receiver's text is kept)."""
    while receiver.type == "parenthesized_expression" and receiver.named_children:
        receiver = receiver.named_children[0]
    return _script_value(receiver, False) if receiver.type == "new_expression" else ""


def _object_members(value: Node) -> list[tuple[str, str]]:
    """JavaScript/TypeScript: (key, class) of each property of an object literal that is an object made with ``new``
    (``{request: new InterceptorManager(), response: ...}``); the class has no name for another (``""``)."""
    if value.type != "object":
        return []
    out = []
    for pair in value.named_children:
        key, held = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if pair.type == "pair" and key is not None and key.type == "property_identifier" and held is not None:
            out.append((_text(key), _class_made(held) if held.type == "new_expression" else ""))
    return out


def _class_made(value: Node) -> str:
    """The class ``_script_value`` says ``value`` is an object of (``new Map<K, V>()``: ``{}V``), else ""."""
    made = _script_value(value, False)
    return made.removeprefix("class:") if made.startswith("class:") else ""


def _mapped(call: Node) -> str:
    """``_script_value`` of what the arrow function handed to ``xs.map(...)`` gives, when its body is one expression
    (``match => match.observer``: ``attr:match.observer``; its parameter is a local of the function around,
    ``_callback_parameter``), else ""."""
    args = call.child_by_field_name("arguments")
    fn = next((a for a in args.named_children if a.type != "comment"), None) if args is not None else None
    body = fn.child_by_field_name("body") if fn is not None and fn.type == "arrow_function" else None
    if body is None or body.type in ("statement_block", "parenthesized_expression", "object", "array"):
        return ""
    return _script_value(body, False)


def _called_method(fn: Node | None) -> str:
    """``client.getQueryCache().find`` for the function of ``client.getQueryCache().find(...)``: a method of what a
    call returns, as a receiver of that call is written (``_receiver_text``; the resolver reads its one call), or
    "" (not of that shape, or too long to read whole)."""
    if fn is None or fn.type != "member_expression":
        return ""
    obj, prop = fn.child_by_field_name("object"), fn.child_by_field_name("property")
    if obj is None or obj.type != "call_expression" or prop is None or prop.type != "property_identifier":
        return ""
    receiver = _receiver_text(obj, "javascript")
    return f"{receiver}.{_text(prop)}" if len(receiver) < 100 and "|" not in receiver else ""


def _narrowed_branch(condition: Node | None, branch: Node | None) -> str:
    """``_script_value`` of a ``?:`` branch that is the name its condition tests with ``instanceof`` (``thing
    instanceof this ? thing : ...``): of that class (``var:this`` for ``this``); else what it is."""
    if branch is None:
        return ""
    while condition is not None and condition.type == "parenthesized_expression" and condition.named_children:
        condition = condition.named_children[0]
    tested = _instanceof(condition, _text(branch)) if condition is not None else ""
    if tested:
        return "var:this" if tested == "this" else f"class:{tested.rsplit('.', 1)[-1]}"
    return _script_value(branch, False)


def _instanceof(condition: Node, name: str) -> str:
    """The class chain ``condition`` tests ``name`` against when it is ``name instanceof A`` (``A``), else ""."""
    if condition.type != "binary_expression" or _text(condition.child_by_field_name("operator")) != "instanceof":
        return ""
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    return _text(right) if left is not None and right is not None and _text(left) == name and \
        _CHAIN.fullmatch(_text(right)) else ""


def _assigned_class(value: Node, params: dict[str, str]) -> str:
    """The class of what ``self.x = value`` / ``this.x = value`` stores, when the method says: a parameter
    annotated with a class (``self.command = command``), an instance (``self.x = Thing(...)``, ``new X()``) or
    ``call:f`` for what a call of a name chain returns (the resolver reads ``f``'s return annotation),
    ``member:T.x`` for an attribute of a parameter annotated with a class (``self.patterns = md.patterns``,
    ``md: Markdown``: the type of ``Markdown``'s ``patterns``), ``subattr:``/``subname:`` for an item of a
    collection (``_value_of``); else ""."""
    if value.type == "identifier":
        return params.get(_text(value)) or ""
    if value.type == "subscript":           # `self.serializer = self.output_formats[format]`: an item of it
        return _value_of(value, False)
    if value.type == "attribute":
        head, attr = value.child_by_field_name("object"), value.child_by_field_name("attribute")
        cls = params.get(_text(head)) if head is not None and head.type == "identifier" else None
        return f"member:{cls}.{_text(attr)}" if cls and attr is not None and _CHAIN.fullmatch(cls) else ""
    if value.type == "new_expression":       # (`new this.ctor()` is read as the attribute's type: not here)
        made = _script_value(value, False)
        return "" if made.startswith("attr:") else made.removeprefix("class:")
    fn = value.child_by_field_name("function") if value.type == "call" else None
    if fn is None or not _CHAIN.fullmatch(_text(fn)) or _text(fn).split(".")[0] in ("self", "cls"):
        return ""
    if fn.type == "identifier" and _annotated_class(_text(fn)):
        return _annotated_class(_text(fn)) or ""
    return f"call:{_text(fn)}"        # what `build_preprocessors(self)` returns, by its return annotation


# the dunder methods a built-in function calls on its first argument (`list(obj)` asks `len(obj)` for a length
# hint before iterating; so do `tuple` and `sorted`)
_BUILTIN_DUNDERS = {"len": ("__len__",), "iter": ("__iter__",), "next": ("__next__",), "repr": ("__repr__",),
                    "str": ("__str__",), "set": ("__iter__",), "frozenset": ("__iter__",),
                    **dict.fromkeys(("list", "tuple", "sorted"), ("__iter__", "__len__"))}


def _method_owner(function: Node) -> str | None:
    """The name of the class whose body defines ``function`` directly, unless it is a ``@staticmethod``."""
    outer = function.parent
    if outer is not None and outer.type == "decorated_definition":
        if any(_text(d).strip() in ("@staticmethod", "@builtins.staticmethod") for d in outer.children
               if d.type == "decorator"):
            return None
        outer = outer.parent
    cls = outer.parent if outer is not None and outer.type == "block" else None
    name = cls.child_by_field_name("name") if cls is not None and cls.type == "class_definition" else None
    return _text(name) if name is not None else None


# Python literals (and displays built by comprehension): a variable only ever assigned one holds a built-in type
_LITERALS = {"dictionary": "dict", "dictionary_comprehension": "dict", "list": "list", "list_comprehension": "list",
             "set": "set", "set_comprehension": "set", "tuple": "tuple", "string": "str", "concatenated_string": "str",
             "integer": "int", "float": "float"}


def _factory_applied(value: Node, params: dict[str, str]) -> str:
    """``keep_lazy(str)(func)``, returned by Django's ``keep_lazy_text(func)``: a decorator factory's call applied
    to a parameter, returned: the factory's name chain (``returns`` ``wraps:keep_lazy``; the resolver finds the
    wrapper the decorator it returns defines); "" for any other value."""
    fn = value.child_by_field_name("function") if value.type == "call" else None
    inner = fn.child_by_field_name("function") if fn is not None and fn.type == "call" else None
    args = value.child_by_field_name("arguments")
    handed = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    if inner is None or not _CHAIN.fullmatch(_text(inner)) or len(handed) != 1 or handed[0].type != "identifier" \
            or _text(handed[0]) not in params:
        return ""
    return _text(inner)


def _value_of(node: Node, iterated: bool) -> str:
    """What a local variable is assigned, for resolution to type later: ``class:X`` (``X(...)``),
    ``call:a.b.f`` (the value ``a.b.f(...)`` returns), ``attr:a.b`` (an attribute), ``var:x`` (what the name
    ``x`` is: a variable, a parameter, a class; of ``a or b``, what ``b`` is), ``subattr:`` / ``subname:``
    (an item of a subscript, ``self.opts[k]``), ``literal:dict`` (``{}``, ``[...]``, ``"..."``, a comprehension:
    a built-in type), and for a ``for`` target ``itercall:`` / ``iterattr:`` (an item of them); "" when it
    cannot tell."""
    prefix = "iter" if iterated else ""
    if node.type in _LITERALS:
        return "" if iterated else f"literal:{_LITERALS[node.type]}"
    if node.type == "call":
        fn = node.child_by_field_name("function")
        text = _text(fn) if fn is not None else ""
        if not _CHAIN.fullmatch(text):
            return ""
        args = node.child_by_field_name("arguments")
        if text in ("cast", "t.cast", "typing.cast") and args is not None and args.named_children:
            cast = _annotated_class(_text(args.named_children[0]))     # `t.cast(MultiCommand, ctx.command)`
            return f"{prefix}class:{cast}" if cast and not iterated else ""
        if not iterated and "." not in text and _annotated_class(text):
            return f"class:{text}"
        return f"{prefix}call:{text}"
    if node.type == "attribute" and _CHAIN.fullmatch(_text(node)):
        return f"{prefix}attr:{_text(node)}"
    if node.type == "identifier":     # `for p in params` (`params: t.List[Parameter]`); `ctx = __self`: what it is
        return f"itername:{_text(node)}" if iterated else f"var:{_text(node)}"
    if node.type == "conditional_expression" and not iterated:     # `add = start if previous else end`: either
        parts = [c for c in node.named_children if c.type != "comment"]
        both = {_value_of(parts[0], False), _value_of(parts[2], False)} if len(parts) == 3 else {""}
        return "" if "" in both else "|".join(sorted(both))
    right = node.child_by_field_name("right") if node.type == "boolean_operator" and not iterated else None
    if right is not None and node.child_by_field_name("operator").type == "or":
        return _value_of(right, False)    # `cls = attrs.pop("cls", None) or Argument`: the default's class
    held = _indexed(node.child_by_field_name("value")) if node.type == "subscript" and not iterated else ""
    # `option = self._long_opt[opt]`, `self._long_opt: t.Dict[str, Option]`: an item of what it indexes
    return item_of(held) if held else ""


def _unpacked(right: Node, target: Node) -> str:
    """What one name of a ``for a, b in ...`` target is bound to (``_value_of``'s notation): the item of
    ``enumerate(C)`` (the second name), a value of ``C.items()`` (the second: an item of ``C`` by subscript),
    the i-th iterable's item of ``zip(A, B, ...)``; "" otherwise."""
    position = [c for c in target.parent.named_children if c.type != "comment"].index(target)
    fn = right.child_by_field_name("function") if right.type == "call" else None
    arguments = right.child_by_field_name("arguments") if fn is not None else None
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    name = _text(fn) if fn is not None else ""
    if name == "enumerate" and position == 1 and args:
        return _value_of(args[0], True)
    if name == "zip" and position < len(args) and all(a.type != "list_splat" for a in args):
        return _value_of(args[position], True)
    if fn is not None and fn.type == "attribute" and _text(fn.child_by_field_name("attribute")) == "items" \
            and position == 1 and not args:
        held = _indexed(fn.child_by_field_name("object"))
        return item_of(held) if held else ""
    return ""


def _narrowing(node: Node, receiver: str) -> str:
    """The class(es) the code around a call says its receiver is: inside ``if isinstance(x, A):`` (or
    ``isinstance(x, A) and ...``; an ``elif`` too), inside ``except A as x:`` (``_value_of``'s notation)."""
    if not _CHAIN.fullmatch(receiver):
        return ""
    child, up = node, node.parent
    while up is not None and up.type not in ("function_definition", "class_definition", "lambda"):
        if up.type in ("if_statement", "elif_clause") and up.child_by_field_name("consequence") == child:
            classes = _isinstance_of(up.child_by_field_name("condition"), receiver)
            if classes:
                return classes
        if up.type == "except_clause":
            caught = up.child_by_field_name("value")
            alias = caught.child_by_field_name("alias") if caught is not None and caught.type == "as_pattern" else None
            if alias is not None and _text(alias) == receiver:
                return _caught(up)
        child, up = up, up.parent
    return ""


_SCRIPT_SCOPES = frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition",
                            "generator_function_declaration", "generator_function", "class_body"})


_AROUND_DOT = re.compile(r"\s*\.\s*")
_OPTIONAL_CHAIN = re.compile(r"\?\.(?=[\[(])|\?(?=\.)")      # `a?.[0]`, `a?.(x)`: `a[0]`, `a(x)`; `a?.b`: `a.b`


def _receiver_text(node: Node, language: str) -> str:
    """A call's receiver as one line: a chain over several lines (`client\n  .getMutationCache()\n  .build()`) joined
    at its dots, without the comments between its lines; in JavaScript, TypeScript and C# an optional chain
    (`c?.getCache()`) read as the plain one."""
    text = _text(node)
    if "//" in text or "/*" in text or "#" in text:
        text = _without_comments(node)
    text = _AROUND_DOT.sub(".", " ".join(text.split()))
    return (_OPTIONAL_CHAIN.sub("", text) if language in SCRIPT_LANGUAGES | {"csharp"} else text)[:100]


def _without_comments(node: Node) -> str:
    """The text of ``node`` without the comments inside it (`sleep(delay) // Pause if ...\n  .then()`)."""
    data, cuts, stack = node.text or b"", [], [node]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            cuts.append((n.start_byte - node.start_byte, n.end_byte - node.start_byte))
        else:
            stack.extend(n.children)
    for start, end in sorted(cuts, reverse=True):
        data = data[:start] + b" " + data[end:]
    return data.decode("utf-8", errors="replace")


def _script_narrowing(node: Node, receiver: str) -> str:
    """JavaScript/TypeScript: what the code around a call says its receiver is, inside the consequence of an ``if``
    or a ``?:`` whose condition (or one operand of its ``&&``) is ``receiver instanceof A`` (``class:A``) or a call
    with ``receiver`` as its one argument (``guard:isObservableSet``: the resolver reads the function's type
    predicate, ``thing is ObservableSet``)."""
    child, up = node, node.parent
    while up is not None and (up.type not in _SCRIPT_SCOPES or _closure_sees(up, receiver)):
        if up.type in ("if_statement", "ternary_expression") and up.child_by_field_name("consequence") == child:
            said = _script_condition(up.child_by_field_name("condition"), receiver)
            if said:
                return said
        child, up = up, up.parent
    return ""


def _closure_sees(fn: Node, name: str) -> bool:
    """Whether a narrowing around the function ``fn`` holds inside it: an arrow function or a function expression
    (a callback: `if (isObservableMap(obj)) return keys(obj).map(key => obj.get(key))`, as TypeScript narrows a
    name a closure sees) whose own parameters do not bind ``name``."""
    return fn.type in ("arrow_function", "function_expression") and name.split(".")[0] not in _parameter_names(fn)


def _script_condition(condition: Node | None, name: str) -> str:
    while condition is not None and condition.type == "parenthesized_expression" and condition.named_children:
        condition = condition.named_children[0]
    if condition is None or condition.type not in ("binary_expression", "call_expression"):
        return ""
    if condition.type == "binary_expression":
        operator, left = _text(condition.child_by_field_name("operator")), condition.child_by_field_name("left")
        right = condition.child_by_field_name("right")
        if operator == "&&":
            return _script_condition(left, name) or _script_condition(right, name)
        if operator == "||":          # `isObservableMap(obj) || isObservableSet(obj)`: one of the two
            either = (_script_condition(left, name), _script_condition(right, name))
            return "|".join(either) if all(either) else ""
        tested = _instanceof(condition, name) if operator == "instanceof" else ""
        return f"class:{tested.rsplit('.', 1)[-1]}" if tested else ""
    fn, arguments = condition.child_by_field_name("function"), condition.child_by_field_name("arguments")
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    return f"guard:{_text(fn)}" if fn is not None and _CHAIN.fullmatch(_text(fn)) and len(args) == 1 and \
        _text(args[0]) == name else ""


def _isinstance_of(condition: Node | None, name: str) -> str:
    """``class:A`` when ``condition`` is ``isinstance(name, A)``, or holds it in an ``and``."""
    if condition is None:
        return ""
    if condition.type == "boolean_operator" and _text(condition.child_by_field_name("operator")) == "and":
        return _isinstance_of(condition.child_by_field_name("left"), name) or \
            _isinstance_of(condition.child_by_field_name("right"), name)
    fn = condition.child_by_field_name("function") if condition.type == "call" else None
    arguments = condition.child_by_field_name("arguments") if fn is not None and _text(fn) == "isinstance" else None
    if arguments is None:
        return ""
    args = [a for a in arguments.named_children if a.type != "comment"]
    return _classes_named(args[1]) if len(args) == 2 and _text(args[0]) == name else ""


def _items_passed(call: Node) -> list[list]:
    """The arguments of ``call`` that are an item of a name chain by subscript (``self.patterns[i]``), as
    [[slot, "subattr:self.patterns"]] (slot: position, or keyword)."""
    out = []
    for slot, value in _arguments(call):
        held = _indexed(value.child_by_field_name("value")) if value.type == "subscript" else ""
        if held:
            out.append([slot, item_of(held)])
    return out


def _arguments(call: Node) -> list[tuple[int | str, Node]]:
    """The arguments of a Python call with where they bind: (position among the positional ones, or keyword,
    the value's node), up to the first ``*args`` / ``**kwargs`` (the positions after it are unknown)."""
    args = call.child_by_field_name("arguments")
    out: list[tuple[int | str, Node]] = []
    for arg in args.named_children if args is not None and args.type == "argument_list" else ():
        if arg.type in ("list_splat", "dictionary_splat", "parenthesized_list_splat"):
            break
        if arg.type == "keyword_argument":
            name, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if name is not None and value is not None:
                out.append((_text(name), value))
        elif arg.type != "comment":
            out.append((sum(isinstance(slot, int) for slot, _ in out), arg))
    return out


# decorators of the language or its standard library that return the function (or a descriptor) unchanged for calls
# (not `cached_property`: Django and others define their own, a descriptor class the resolver follows)
_TRANSPARENT_DECORATORS = frozenset({"property", "staticmethod", "classmethod", "abstractmethod", "overload",
                                     "override", "final", "dataclass", "total_ordering",
                                     "contextmanager", "asynccontextmanager", "wraps", "lru_cache", "cache",
                                     "singledispatch", "runtime_checkable", "setter", "getter", "deleter"})
_IDENTIFIER_START = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")   # a prefix of at least 3 characters: `do_`, `visit_`


def _reflective(call: Node) -> tuple[str, str, int] | None:
    """``getattr(obj, NAME[, default])`` whose NAME is built from a literal prefix: ``f"visit_{kind}"``,
    ``"parse_" + token``, ``"do_%s" % cmd``, ``"on_{}".format(event)``, or a local variable assigned one of those
    before the call (``method = 'visit_' + ...; getattr(self, method, ...)``, as the standard library's
    ``ast.NodeVisitor``): (obj as written, prefix, 1 when the call is what its function returns, else 0); prefix
    "" for a name computed with no literal prefix on self/cls, called at once or held in a name. None for a
    constant name or anything else."""
    args = _arguments(call)
    if len(args) < 2 or args[0][0] != 0 or args[1][0] != 1 or not _CHAIN.fullmatch(_text(args[0][1])):
        return None
    name = args[1][1]
    computed = name.type != "string"
    if name.type == "identifier":
        name = _assigned_before(call, _text(name))
    prefix = _literal_prefix(name) if name is not None else ""
    returned = call.parent is not None and call.parent.type == "return_statement"
    obj = _text(args[0][1])
    if _IDENTIFIER_START.fullmatch(prefix):
        return obj, prefix, int(returned)
    # no prefix at all (`getattr(self, piece)()` in Django's dateformat.Formatter, `handler = getattr(self, name)`):
    # any method of the object's class may be the one; only for self/cls, and only when the result is called at
    # once or held in a name (the resolver follows it where that name is called, and records nothing otherwise)
    parent = call.parent
    called = parent is not None and parent.type == "call" and parent.child_by_field_name("function") == call
    held = parent is not None and parent.type == "assignment" and parent.child_by_field_name("right") == call \
        and (left := parent.child_by_field_name("left")) is not None and left.type == "identifier"
    return (obj, "", 0) if computed and not prefix and obj in ("self", "cls") and (called or held) else None


def _literal_prefix(node: Node) -> str:
    """The literal text a string expression starts with, when the rest is computed; "" otherwise."""
    if node.type == "string":
        parts = [c for c in node.children if c.type not in ("string_start", "string_end")]
        if not parts or parts[0].type != "string_content" or not any(c.type == "interpolation" for c in parts):
            return ""
        return _text(parts[0])
    if node.type == "binary_operator":
        left, op = node.child_by_field_name("left"), node.child_by_field_name("operator")
        if left is None or op is None:
            return ""
        if op.type == "+":
            return _string_text(left) if _plain_string(left) else _literal_prefix(left)
        if op.type == "%" and _plain_string(left):
            return _string_text(left).split("%", 1)[0]
        return ""
    fn = node.child_by_field_name("function") if node.type == "call" else None
    if fn is not None and fn.type == "attribute" and _text(fn.child_by_field_name("attribute")) == "format":
        obj = fn.child_by_field_name("object")
        return _string_text(obj).split("{", 1)[0] if obj is not None and _plain_string(obj) else ""
    return ""


def _plain_string(node: Node) -> bool:
    """A one-part string literal without interpolation or prefix letters (`'visit_'`)."""
    return node.type == "string" and not any(c.type == "interpolation" for c in node.children) \
        and _text(node)[:1] in ("'", '"') and len(node.children) <= 3


def _assigned_before(at: Node, name: str) -> Node | None:
    """The value last assigned to the local ``name`` before ``at`` in the function around it (``name = ...``)."""
    scope = at.parent
    while scope is not None and scope.type not in ("function_definition", "module"):
        scope = scope.parent
    found, todo = None, [scope] if scope is not None else []
    while todo:
        node = todo.pop()
        if node.start_byte >= at.start_byte:
            continue
        if node.type == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and left.type == "identifier" and _text(left) == name \
                    and (found is None or node.start_byte > found.start_byte):
                found = node
        if node is scope or node.type not in ("function_definition", "class_definition", "lambda"):
            todo.extend(node.children)
    return found.child_by_field_name("right") if found is not None else None


def _string_text(node: Node | None) -> str:
    """``foo`` for the string literal ``'foo'`` / ``"foo"`` (a registry's key), "" for anything else."""
    return _text(node)[1:-1] if node is not None and node.type == "string" else ""


def _indexed(node: Node | None) -> str:
    """The name chain a subscript indexes (``self.patterns`` in ``self.patterns[i]``), or ""."""
    if node is None or node.type not in ("identifier", "attribute"):
        return ""
    return _text(node) if _CHAIN.fullmatch(_text(node)) else ""


def _classes_named(node: Node | None) -> str:
    """``class:A`` for a name or an attribute, ``class:A|class:B`` for a tuple of them (``isinstance(x, (A,
    B))``, ``except (A, B)``); "" for anything else."""
    kinds = node.named_children if node is not None and node.type == "tuple" else [node]
    if not kinds or any(k is None or k.type not in ("identifier", "attribute") or not _CHAIN.fullmatch(_text(k))
                        for k in kinds):
        return ""
    return "|".join(sorted({f"class:{_text(k)}" for k in kinds}))


def _caught(clause: Node) -> str:
    """``except X as e``: ``class:X``; ``except (A, B) as e``: ``class:A|class:B`` (typed when they are one)."""
    caught = clause.child_by_field_name("value")
    return _classes_named(caught.named_children[0] if caught is not None and caught.named_children else None)


def _annotated_class(text: str) -> str | None:
    """The one class an annotation names: `Context`, `"Context"`, `t.Optional["Context"]`, `Context | None`,
    `click.Context` -> `Context`; builtins and containers (`str`, `t.List[X]`) -> None."""
    parts = _union(text)
    if len(parts) != 1 or not re.fullmatch(r"[A-Za-z_][\w.]*", parts[0]):
        return None
    last = parts[0].rsplit(".", 1)[-1]
    return last if last[:1].isupper() and not last.isupper() else None


if __name__ == "__main__":  # python -m graphrag_code.extract FILE LANGUAGE: print what the extractor sees
    import json
    import sys

    from .languages import language_for_path

    file_path = sys.argv[1]
    lang = sys.argv[2] if len(sys.argv) > 2 else language_for_path(file_path)
    with open(file_path, "rb") as fh:
        print(json.dumps(summarize(extract(fh.read(), lang)), indent=1))
