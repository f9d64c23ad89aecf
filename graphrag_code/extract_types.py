"""What the extractor reads about types and values, per language: annotations (Python's typing forms,
TypeScript's types and function types, JSDoc, Go, Java/C#/C++ declarations), the notation of a variable's
value (``_value_of``: ``class:A``, ``call:f``, ``attr:self.x``, ``iter``/``sub`` items), narrowing
(``isinstance``, ``instanceof``, type guards), receivers' text, arguments, and the tree helpers they share.
``extract._Builder`` turns these into a file's facts."""

from __future__ import annotations

import re

from tree_sitter import Node

from .languages import SCRIPT_LANGUAGES
from .models import NAME_CHAIN as _CHAIN, SCRIPT_GLOBALS, item_of


# JavaScript/TypeScript nodes of a function's own scope (see _returns_from)
_SCRIPT_FUNCTIONS = frozenset({"function_declaration", "function_expression", "function", "arrow_function",
                               "generator_function", "generator_function_declaration", "method_definition"})
# ... of them, those with a `this` of their own (an arrow function's is the one around it)
_THIS_OWNERS = _SCRIPT_FUNCTIONS - {"arrow_function"}


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


_TS_PRIMITIVES = {"string": "String", "number": "Number", "boolean": "Boolean", "bigint": "BigInt"}


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
    if name in _TS_PRIMITIVES:      # `name: string`: its methods are String's (`name.indexOf(...)`)
        return _TS_PRIMITIVES[name]
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
_TYPED_OVERLOADS = frozenset({"java", "csharp"})      # ... and whose overloads are told apart by the arguments' types
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
    if node is not None and node.type == "predefined_type" and _text(node) in ("string", "object"):
        return _TYPE_WORDS[_text(node)]              # C#'s aliases of System.String and System.Object: classes
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
            # (`this object o`, `this T x`: any receiver)
            **({"extends": "?" if (t := _static_type(first.child_by_field_name("type"), generics)) in ("", "Object")
                else t} if extends else {})}


def _php_signature_types(core: Node, leading: bytes = b"") -> dict:
    """PHP functions and methods: their parameters' declared classes (``Store $box``, ``?Store $box``, a promoted
    ``private Cache $cache``) by the variable's name without its ``$`` (the resolver's receivers drop it: ``box``),
    and the class they return (``self``/``static`` their class, ``parent`` its base). Where the declaration names
    no class (none, ``array``, ``mixed``), the doc comment's ``@param Store $box`` / ``@return InputOption[]`` does
    (``_php_doc_type``)."""
    own = _php_own_class(core)
    doc = leading.decode("utf-8", errors="replace") if b"@" in leading else ""
    documented = {name: written for written, name in _PHP_DOC_PARAM.findall(doc)}
    params = core.child_by_field_name("parameters")
    out: dict[str, str] = {}
    for p in params.named_children if params is not None else []:
        name = p.child_by_field_name("name")
        if p.type in ("simple_parameter", "property_promotion_parameter") and name is not None:
            key = _text(name).lstrip("$")
            out[key] = _php_type(p.child_by_field_name("type"), own) or _php_doc_type(documented.get(key, ""), own)
        elif p.type == "variadic_parameter" and name is not None:      # `Foo ...$xs`: an array, untyped here
            out[_text(name).lstrip("$")] = ""
    returned = _PHP_DOC_RETURN.search(doc)
    return {"param_types": out, "return_type": _php_type(core.child_by_field_name("return_type"), own) or
            (_php_doc_type(returned.group(1), own) if returned else "")}


# a doc comment's type: `Foo`, `\\Ns\\Foo[]`, `array<string, Foo>` (generics nest once), unions of them
_PHP_DOC_ONE = r"[^\s<>$|*\[\]]+(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?(?:\[\])*"
_PHP_DOC_TYPE = rf"({_PHP_DOC_ONE}(?:\s*\|\s*{_PHP_DOC_ONE})*)"
_PHP_DOC_PARAM = re.compile(rf"@param\s+{_PHP_DOC_TYPE}\s+(?:\.\.\.)?\$(\w+)")
_PHP_DOC_RETURN = re.compile(rf"@return\s+{_PHP_DOC_TYPE}")
_PHP_DOC_VAR = re.compile(rf"@var\s+{_PHP_DOC_TYPE}")
_PHP_DOC_VAR_NAMED = re.compile(rf"@var\s+{_PHP_DOC_TYPE}\s+\$(\w+)")      # `/** @var Foo $x */`
# what holds items of one type: `Foo[]`, `array<Foo>`, `array<string, Foo>`, `list<Foo>`, `iterable<Foo>`
_PHP_DOC_ITEMS = re.compile(r"(?:array|list|iterable|non-empty-array|non-empty-list)<(?:[^<>,]+,\s*)?([^<>,]+)>")


def _php_doc_type(written: str, own: tuple[str, str] = ("", "")) -> str:
    """The class a PHP doc comment's type names, in ``_php_type``'s notation: ``Foo``, ``?Foo``, ``Foo|null``
    (``|false`` too) the class ``Foo``; ``Foo[]``, ``array<int, Foo>``, ``list<Foo>`` items of ``Foo`` (``[]Foo``);
    ``$this``, ``self``, ``static`` the class ``own`` names, ``parent`` its base; a union of classes, a generic's
    arguments, and lowercase names (``string``, ``array-key``: no class by convention) give none."""
    kept = [t.strip() for t in written.strip().lstrip("?").split("|")
            if t.strip().lower() not in ("null", "false", "void", "")]
    if len(kept) != 1:
        return ""
    one = kept[0]
    items = _PHP_DOC_ITEMS.fullmatch(one)
    if items or one.endswith("[]"):
        inner = _php_doc_type(items.group(1) if items else one[:-2], own)
        return f"[]{inner}" if inner and not inner.startswith("[]") else ""
    one = re.sub(r"<.*>$", "", one)          # `Collection<int, Foo>`: a Collection
    if one in ("$this", "self", "static"):
        return own[0]
    if one == "parent":
        return own[1]
    return one.lstrip("\\").replace("\\", ".") if re.fullmatch(r"\\?[A-Z][\w\\]*", one) else ""


def _php_own_class(node: Node) -> tuple[str, str]:
    """(name, first base) of the class, interface, trait or enum around ``node``, for ``self``/``static`` and
    ``parent``; ("", "") outside one."""
    up = node.parent
    while up is not None and up.type not in ("class_declaration", "interface_declaration", "trait_declaration",
                                            "enum_declaration"):
        up = up.parent
    if up is None:
        return "", ""
    name = up.child_by_field_name("name")
    base = next((c for c in up.named_children if c.type == "base_clause"), None)
    named = next((c for c in base.named_children if c.type in ("name", "qualified_name")), None) if base else None
    return (_text(name) if name is not None else "", _php_class_name(named) if named is not None else "")


def _php_property_types(node: Node) -> dict[str, str]:
    """A PHP class's typed properties by name without ``$`` (``private ?Store $store;``) and the constructor's
    promoted parameters (``public function __construct(private Cache $cache)``), as ``$this->store`` reads them."""
    body = node.child_by_field_name("body")
    out: dict[str, str] = {}
    own = _php_own_class(body) if body is not None else ("", "")
    for member in body.named_children if body is not None else []:
        if member.type == "property_declaration" and (typed := _php_type(member.child_by_field_name("type"), own) or
                                                      _php_doc_var(member, own)):
            for element in member.named_children:
                name = element.child_by_field_name("name") if element.type == "property_element" else None
                if name is not None:
                    out[_text(name).lstrip("$")] = typed
        elif member.type == "method_declaration" and _text(member.child_by_field_name("name")) == "__construct":
            params = member.child_by_field_name("parameters")
            for p in params.named_children if params is not None else []:
                name = p.child_by_field_name("name")
                if p.type == "property_promotion_parameter" and name is not None and \
                        (typed := _php_type(p.child_by_field_name("type"), own)):
                    out[_text(name).lstrip("$")] = typed
    return out


def _doc_above(statement: Node | None) -> str:
    """The text of the comment right above ``statement`` (on the line before it, or ending there); ""."""
    doc = statement.prev_named_sibling if statement is not None else None
    if doc is None or doc.type != "comment" or doc.end_point.row < statement.start_point.row - 1:
        return ""
    return _text(doc)


def _php_doc_var(declaration: Node, own: tuple[str, str]) -> str:
    """The class the doc comment right above a PHP property declaration gives it (``/** @var Foo */``)."""
    found = _PHP_DOC_VAR.search(_doc_above(declaration))
    return _php_doc_type(found.group(1), own) if found else ""


def _php_doc_local(assignment: Node, variable: str) -> str:
    """The class a ``/** @var Foo $x */`` comment right above the statement assigning ``$x`` gives it."""
    statement = assignment.parent if assignment.parent is not None and \
        assignment.parent.type == "expression_statement" else assignment
    written = next((t for t, name in _PHP_DOC_VAR_NAMED.findall(_doc_above(statement)) if name == variable), "")
    typed = _php_doc_type(written, _php_own_class(assignment)) if written else ""
    return "" if typed.startswith("[]") else typed


def _php_value(node: Node) -> str:
    """What a PHP local variable is assigned, in ``_value_of``'s notation and the resolver's receiver notation
    (``resolve_facts.php_receiver``): ``class:Foo`` for ``new Foo(...)``, ``call:make`` for ``make(...)``,
    ``call:this.factory`` / ``call:repo.find`` for ``$this->factory(...)`` / ``$repo->find(...)``, ``call:Foo.create``
    for ``Foo::create(...)``, ``attr:this.store`` for ``$this->store``, ``var:y`` for ``$y``,
    ``subattr:this.xs`` for ``$this->xs[$i]``; "" otherwise."""
    if node.type == "object_creation_expression":
        named = next((c for c in node.named_children if c.type in ("name", "qualified_name")), None)
        return f"class:{_php_class_name(named)}" if named is not None else ""
    if node.type == "function_call_expression":
        fn = node.child_by_field_name("function")
        return f"call:{_text(fn)}" if fn is not None and fn.type == "name" else ""
    if node.type in ("member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"):
        holder = node.child_by_field_name("object") or node.child_by_field_name("scope")
        name = node.child_by_field_name("name")
        chain = _php_chain(holder) if holder is not None else None
        return f"call:{chain}.{_text(name)}" if chain and name is not None else ""
    if node.type == "member_access_expression":
        chain = _php_chain(node)
        return f"attr:{chain}" if chain else ""
    if node.type == "variable_name":
        return f"var:{_text(node).lstrip('$')}"
    if node.type == "subscript_expression" and node.named_children:     # `$this->parsers[$i]`: an item of it
        held = _php_held(node.named_children[0])
        return "sub" + held if held else ""
    return ""


def _php_held(node: Node) -> str:
    """What a PHP expression that is indexed or iterated holds, for ``sub``/``iter`` before it (``_value_of``'s
    notation: a variable is ``name:``): a call's result, a property, a variable; "" otherwise."""
    held = _php_value(node).replace("var:", "name:", 1)
    return held if held.startswith(("attr:", "name:", "call:")) else ""


def _php_assigned_class(node: Node, param_types: dict[str, str]) -> str:
    """The class a PHP property is assigned: ``new Foo(...)`` or a parameter declared ``Foo $foo``, narrowed to
    ``Foo`` by the code before the assignment (``if ($foo instanceof Foo)``); "" otherwise."""
    if node.type == "object_creation_expression":
        return _php_value(node).removeprefix("class:")
    if node.type == "variable_name":
        narrowed = _php_narrowing(node, _text(node))
        return narrowed.removeprefix("class:") if narrowed.startswith("class:") else \
            param_types.get(_text(node).lstrip("$"), "")
    return ""


_PHP_SCOPES = frozenset({"function_definition", "method_declaration", "anonymous_function", "arrow_function",
                         "class_declaration"})


def _php_narrowing(node: Node, variable: str) -> str:
    """The class the code before a PHP call says its receiver ``$v`` (or ``$this->v``) is (``_value_of``'s
    ``class:X``): inside ``if ($v instanceof X ...)`` or ``$v instanceof X ? ... :`` (a conjunct of ``&&``), on
    the right of ``$v instanceof X && ...`` or ``!$v instanceof X || ...``, or after ``X::assertInstanceOf($v);``,
    ``assert($v instanceof X);`` or ``if (!$v instanceof X) { return ...; }`` in an enclosing block of the same
    function; the nearest wins. "" when none says so."""
    child, up = node, node.parent
    while up is not None and up.type not in _PHP_SCOPES:
        if up.type in ("if_statement", "conditional_expression") and up.child_by_field_name("body") == child:
            found = _php_instanceof(up.child_by_field_name("condition"), variable, negated=False)
            if found:
                return found
        if up.type == "binary_expression" and up.child_by_field_name("right") == child:
            # `$v instanceof X && $v->m()`; `!$v instanceof X || $v->m()`: the right runs when the left says so
            operator = _text(up.child_by_field_name("operator"))
            if operator in ("&&", "and", "||", "or"):
                found = _php_instanceof(up.child_by_field_name("left"), variable, negated=operator in ("||", "or"))
                if found:
                    return found
        if up.type == "compound_statement":
            for statement in reversed([c for c in up.named_children if c.end_byte <= child.start_byte]):
                found = _php_asserted(statement, variable)
                if found:
                    return found
        child, up = up, up.parent
    return ""


def _php_asserted(statement: Node, variable: str) -> str:
    """``class:X`` when ``statement`` asserts ``$v`` is an ``X`` for what follows it."""
    if statement.type == "expression_statement" and statement.named_children:
        call = statement.named_children[0]
        args = call.child_by_field_name("arguments")
        first = args.named_children[0].named_children[0] if args is not None and args.named_children and \
            args.named_children[0].named_children else None
        if first is None:
            return ""
        if call.type == "scoped_call_expression" and _text(call.child_by_field_name("name")) == "assertInstanceOf" \
                and first.type in ("variable_name", "member_access_expression") and _text(first) == variable:
            scope = call.child_by_field_name("scope")
            return f"class:{_php_class_name(scope)}" if scope is not None and scope.type in ("name", "qualified_name") \
                else ""
        if call.type == "function_call_expression" and _text(call.child_by_field_name("function")) == "assert":
            return _php_instanceof(first, variable, negated=False)
    if statement.type == "if_statement" and _php_exits(statement.child_by_field_name("body")):
        return _php_instanceof(statement.child_by_field_name("condition"), variable, negated=True)
    return ""


def _php_instanceof(condition: Node | None, variable: str, negated: bool) -> str:
    """``class:X`` for a condition that is (``negated``: is the negation of) ``$v instanceof X``, or an ``&&`` of
    conditions one of which is; "" otherwise."""
    while condition is not None and condition.type == "parenthesized_expression" and condition.named_children:
        condition = condition.named_children[0]
    if condition is None:
        return ""
    if negated:
        inner = condition.named_children[0] if condition.type == "unary_op_expression" and \
            _text(condition).startswith("!") and condition.named_children else None
        return _php_instanceof(inner, variable, negated=False) if inner is not None else ""
    if condition.type != "binary_expression":
        return ""
    operator = _text(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if operator == "instanceof" and left is not None and _text(left) == variable and right is not None and \
            right.type in ("name", "qualified_name"):
        return f"class:{_php_class_name(right)}"
    if operator in ("&&", "and"):
        return _php_instanceof(left, variable, False) or _php_instanceof(right, variable, False)
    return ""


def _php_exits(body: Node | None) -> bool:
    """Whether a block (or a single statement) always leaves: its last statement returns, throws or continues."""
    last = body.named_children[-1] if body is not None and body.type == "compound_statement" and \
        body.named_children else body
    return last is not None and (last.type in ("return_statement", "continue_statement", "break_statement") or
                                 last.type == "expression_statement" and bool(last.named_children) and
                                 last.named_children[0].type == "throw_expression")


def _php_chain(node: Node) -> str | None:
    """``$this->a->b`` as ``this.a.b``, ``$x`` as ``x``, ``Foo`` as ``Foo``; None for anything else (a call)."""
    if node.type == "variable_name":
        return _text(node).lstrip("$")
    if node.type == "name":
        return _text(node)
    if node.type == "member_access_expression":
        inner = node.child_by_field_name("object")
        name = node.child_by_field_name("name")
        head = _php_chain(inner) if inner is not None else None
        return f"{head}.{_text(name)}" if head and name is not None and name.type == "name" else None
    return None


def _php_type(node: Node | None, own: tuple[str, str] = ("", "")) -> str:
    """The class a PHP type declaration names: ``Store``, ``?Store`` and ``Store|null`` the class ``Store``,
    ``\\App\\Store`` as ``App.Store`` (the resolver's dotted notation); ``self``/``static`` the class ``own`` names,
    ``parent`` its base (none without ``own``); "" for a primitive, a union of classes or nothing."""
    if node is not None and node.type == "optional_type" and node.named_children:
        node = node.named_children[0]
    if node is not None and node.type == "union_type":
        named = [c for c in node.named_children if c.type == "named_type"]
        others = [c for c in node.named_children if c.type != "named_type"]
        node = named[0] if len(named) == 1 and all(_text(c).lower() == "null" for c in others) else None
    if node is None or node.type != "named_type":
        return ""
    name = _php_class_name(node)
    if name.lower() in ("self", "static", "parent"):
        return own[1] if name.lower() == "parent" else own[0]
    return "" if name.lower() in ("mixed", "object", "callable", "iterable") else name


def _php_class_name(node: Node) -> str:
    """A PHP class name in the resolver's dotted notation: ``\\App\\Store`` is ``App.Store``."""
    return _text(node).lstrip("\\").replace("\\", ".")


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


# Java's and C#'s primitive types and strings by one name (C#'s keywords are its types' aliases)
_TYPE_WORDS = {"string": "String", "object": "Object", "bool": "boolean", "sbyte": "byte", "ushort": "short",
               "uint": "int", "ulong": "long", "nint": "long", "nuint": "long"}
_ARGUMENT_KINDS = {"string_literal": "String", "verbatim_string_literal": "String", "raw_string_literal": "String",
                   "interpolated_string_expression": "String", "text_block": "String", "character_literal": "char",
                   "decimal_integer_literal": "int", "hex_integer_literal": "int", "octal_integer_literal": "int",
                   "binary_integer_literal": "int", "integer_literal": "int", "decimal_floating_point_literal": "double",
                   "hex_floating_point_literal": "double", "real_literal": "double", "true": "boolean",
                   "false": "boolean", "boolean_literal": "boolean", "null_literal": "null"}


def _type_kind(node: Node | None, generics: frozenset[str]) -> str:
    """A parameter's type for picking among overloads: a primitive's name (``int``, ``boolean``; C#'s ``string``
    is ``String``), else the class ``_static_type`` names ("" for a type parameter or what names none)."""
    if node is None:
        return ""
    if node.type in _PRIMITIVE_TYPES:
        word = _text(node)
        return _TYPE_WORDS.get(word, word)
    return _static_type(node, generics)


def _param_kinds(core: Node) -> list[str] | None:
    """Java / C#: the type of each parameter in order (``_type_kind``), a rest parameter's as ``...X``."""
    params = _parameter_list(core)
    if params is None:
        return None
    generics = _type_parameters(core)
    out = []
    for p in params.named_children:
        if p.type in ("formal_parameter", "parameter"):
            out.append(_type_kind(p.child_by_field_name("type"), generics))
        elif p.type == "spread_parameter":                # Java's `long... rest`
            out.append("..." + (_type_kind(p.named_children[0], generics) if p.named_children else ""))
    rest = params.child_by_field_name("type")             # C#'s `params object[] rest` sits in the list itself
    if rest is not None:
        out.append("..." + _type_kind(rest, generics).removeprefix("[]"))
    return out


def _argument_kinds(node: Node) -> list[str] | None:
    """Java / C#: what each argument of a call is, as far as its text tells: a literal's type (``String``,
    ``int``, ``null``), ``new:Foo`` / ``cast:Foo``, ``name:x`` (a variable, typed by the resolver), else ""."""
    args = node.child_by_field_name("arguments") or next(
        (c for c in node.named_children if c.type == "argument_list"), None)
    if args is None:
        return None
    out = []
    for a in args.named_children:
        if a.type.endswith("comment"):
            continue
        if a.type == "argument":                      # C#: `ref x`, `name: x`
            if a.child_by_field_name("name") is not None or any(c.type == "name_colon" for c in a.children):
                return None                           # named arguments go by name, not position: no telling
            a = a.named_children[-1] if a.named_children else a
        if a.type in _ARGUMENT_KINDS:
            kind = _ARGUMENT_KINDS[a.type]
            if kind == "int" and _text(a)[-1:] in "lL":
                kind = "long"
            elif kind == "double" and _text(a)[-1:] in "fF":
                kind = "float"
            elif kind in ("int", "double") and _text(a)[-1:] in "mM" and a.type in ("integer_literal", "real_literal"):
                kind = "decimal"                      # C#'s `1.5m`, `2m`
            out.append(kind)
        elif a.type == "object_creation_expression" and not any(c.type == "class_body" for c in a.children) and \
                (t := _static_type(a.child_by_field_name("type"), frozenset())):
            out.append(f"new:{t}")                    # (an anonymous class is of a subclass)
        elif a.type == "array_creation_expression" and (t := _type_kind(a.child_by_field_name("type"), frozenset())):
            out.append(f"new:{t if t.startswith('[]') else '[]' + t}")    # Java's element type, C#'s array type
        elif a.type == "cast_expression" and (t := _type_kind(a.child_by_field_name("type"), frozenset())):
            out.append(f"cast:{t}")
        elif a.type == "identifier":
            out.append(f"name:{_text(a)}")
        else:
            out.append("")
    return out


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
    found = _JSDOC_TYPE.search(_doc_above(statement))
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
    while node is not None and node.type not in _THIS_OWNERS:
        node = node.parent
    assignment = node.parent if node is not None else None
    if assignment is None or assignment.type != "assignment_expression" or \
            assignment.child_by_field_name("right") != node:
        return None
    left = assignment.child_by_field_name("left")
    target = left.child_by_field_name("object") if left is not None and left.type == "subscript_expression" else None
    return _text(target) if target is not None and _CHAIN.fullmatch(_text(target)) else None


# a member of an object: node type -> (the object's field, the member's field); PHP, Python, JavaScript/TypeScript
_MEMBER_FIELDS = {"member_call_expression": ("object", "name"), "nullsafe_member_call_expression": ("object", "name"),
                  "member_access_expression": ("object", "name"),
                  "nullsafe_member_access_expression": ("object", "name"),
                  "attribute": ("object", "attribute"), "member_expression": ("object", "property")}


def narrowed_chain(call: Node, receiver: Node, narrowable: set[str], narrowing) -> str:
    """A receiver that is a method or attribute of a variable the code around ``call`` narrows to one class
    (``$node->getReference()->getLabel()`` after ``FootnoteRef::assertInstanceOf($node)``; ``x.f().g()`` inside
    ``if isinstance(x, A):``): what that class's method returns (``call:FootnoteRef.getReference``) or its
    attribute holds (``member:A.f``), in ``_value_of``'s notation; "" otherwise. ``narrowing(call, variable)`` is
    the language's narrowing (``_php_narrowing``, ``_narrowing``, ``_script_narrowing``)."""
    called = receiver.type in ("call", "call_expression")
    member = receiver.child_by_field_name("function") if called else receiver
    if member is None or member.type not in _MEMBER_FIELDS:
        return ""
    called = called or member.type.endswith("call_expression")
    obj_field, name_field = _MEMBER_FIELDS[member.type]
    obj, name = member.child_by_field_name(obj_field), member.child_by_field_name(name_field)
    if obj is None or name is None or _text(obj) not in narrowable:
        return ""
    said = narrowing(call, _text(obj))
    if not said.startswith("class:") or "|" in said:
        return ""
    return f"{'call' if called else 'member'}:{said.removeprefix('class:')}.{_text(name)}"


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
    while up is not None and up.type not in _THIS_OWNERS and up.type != "class_body":
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
    """A call's receiver as one line: a chain over several lines (`client\n  .getMutationCache()\n  .build()`,
    PHP's `$environment\n  ->addRenderer(...)`) joined at its dots and arrows, without the comments between its
    lines; in JavaScript, TypeScript and C# an optional chain (`c?.getCache()`) read as the plain one. One longer
    than ``_RECEIVER_CHARS`` has its calls' arguments elided (`(…)`: the resolver reads the chain, not the
    arguments), and may then run to ``_ELIDED_CHARS`` (a builder's chain of thirty calls); what is still too long
    is cut and ends in ``…``, which no rule reads as a whole receiver."""
    text = _text(node)
    text = _one_line(_without_comments(node) if "//" in text or "/*" in text or "#" in text else text)
    limit = _RECEIVER_CHARS
    if len(text) > limit:
        text, limit = _one_line(_elided(node)), _ELIDED_CHARS
    if language in SCRIPT_LANGUAGES | {"csharp"}:
        text = _OPTIONAL_CHAIN.sub("", text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


_RECEIVER_CHARS, _ELIDED_CHARS = 100, 1000
_AROUND_ARROW = re.compile(r"\s*(\??->)\s*")
_ARGUMENT_LISTS = frozenset({"arguments", "argument_list"})


def _one_line(text: str) -> str:
    """A receiver's text on one line, joined at its dots and (PHP) arrows."""
    return _AROUND_ARROW.sub(r"\1", _AROUND_DOT.sub(".", " ".join(text.split())))


def _elided(node: Node) -> str:
    """``node``'s text with the inside of every argument list that has one replaced by ``…``, and its comments
    left out."""
    source, start, out, at = node.text or b"", node.start_byte, [], 0
    todo, cut = [node], []
    while todo:
        n = todo.pop()
        if (n.type in _ARGUMENT_LISTS and n.named_child_count) or n.type.endswith("comment"):
            cut.append(n)
            continue
        todo.extend(n.children)
    for n in sorted(cut, key=lambda n: n.start_byte):
        out.append(source[at:n.start_byte - start])
        out.append(b"" if n.type.endswith("comment") else "(…)".encode())
        at = n.end_byte - start
    out.append(source[at:])
    return b"".join(out).decode("utf-8", errors="replace")


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
