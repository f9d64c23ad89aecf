"""Resolution, part 3: what a receiver is. The class of a receiver from annotations, assignments, narrowing,
what a call returns, collections and unions; receivers named after a class; receivers of a library's type
(no guess by name for those)."""

from __future__ import annotations

import posixpath
import re
import sys
from collections import defaultdict

from .languages import DECLARED_TYPES as _STATIC_TYPED, is_test_path, LANGUAGES, SCRIPT_LANGUAGES
from .models import BUILTIN_CLASSES, item_of, NAME_CHAIN as _CHAIN, SCRIPT_GLOBALS
from .resolve_facts import (
    _BUILTIN_WORDS, _called_chain, _CAMEL_WORDS, _cast_or_new, _directories_up, FileFacts, _last_call,
    _last_segment, builtin_class, c_library_function, csharp_system_type, JAVA_OBJECT_METHODS, php_builtin,
    php_receiver, ruby_builtin_method, _MAX_BASE_DEPTH, _members, _OBJECT_METHODS, _PYTHON_BUILTINS, _SAME_ARRAY,
    _string_key, _SUBSCRIPTED, _TS_CAST, _TYPE_KINDS,
)

_UNKNOWN = object()      # receiver_class: not asked yet (None is an answer)
_MAX_TYPING_DEPTH = 4    # steps of one inference chain (_too_deep)


def _item_prefix(items: bool, subscript: bool) -> str:
    """The kind prefix of an item of a value (``extract_types._value_of``): iterated, subscripted, or both."""
    return ("iter" if items else "") + ("sub" if subscript else "")


# pytest's own fixtures (a test's parameter of one of these names is pytest's object, unless a fixture of ours has it)
_PYTEST_FIXTURES = frozenset("cache capfd capfdbinary caplog capsys capsysbinary capteesys doctest_namespace monkeypatch "
                             "pytestconfig pytester record_property record_testsuite_property record_xml_attribute "
                             "recwarn request subtests testdir tmp_path tmp_path_factory tmpdir tmpdir_factory".split())
# Go's predeclared functions
_GO_BUILTINS = frozenset("append cap clear close complex copy delete imag len make max min new panic print println "
                         "real recover".split())
# C++ standard types whose `->` or `*` reaches what they hold (`std::vector<StringPiece>::iterator o; o->AsString()`)
_STD_HOLDERS = frozenset({"iterator", "const_iterator", "reverse_iterator", "const_reverse_iterator", "optional"})


class TypeRules:
    """The class (or library type) of a receiver, and of values. A part of ``resolve._Resolver``, whose
    state (set up in its ``__init__``) and other parts it uses."""

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

    def _builtin_typed(self, f: FileFacts, caller: int | None, receiver: str, method: str | None = None) -> str | None:
        """The reason (``_language_class``) a receiver is one of the language's own classes (or a library's the
        language brings: C#'s System, C++'s std, a Go package's) or an object of one, and of no class of the
        repository; else None. PHP: ``\\DateTime::createFromFormat()``, ``$dom->createElement()`` after ``$dom = new
        \\DOMDocument()``, a parameter or property declared ``\\ArrayObject``; Java: ``Math.max()``, ``s.substring()``
        of a ``String s``; C#: ``Console.WriteLine()``, a ``List<string>`` field's ``Add``; C++: ``std::move()``;
        Go: a ``t *testing.T``'s ``t.Errorf()``. (``receiver``: resolver notation.) With the ``method`` called,
        not where a class of ours may be behind the type and define it (``_ours_behind``)."""
        if f.language == "php" and receiver.startswith("\\") and "\\" not in receiver[1:]:
            return builtin_class("php", receiver)                # `\DateTime::`: the global class, no other
        if f.language == "cpp" and (receiver == "std" or receiver.startswith(("std.", "std::"))):
            return "external:std"                                # `std::move(x)`, `std::chrono::now()`
        if receiver[:1].isupper() and receiver.isidentifier():
            names = [receiver]                                   # `DateTime::`, unless the repository has one
        elif receiver.isidentifier():
            found = self._declared(f, caller, receiver)
            # `items.Add(s)` of a field `List<string> items`; not where a method of ours has the name: a lambda's
            # parameter or a pattern variable may shadow the field (`name => name.Process()`), which facts miss
            field = self._own_field_type(f, caller, receiver) if found is None and f.language in _STATIC_TYPED \
                and not (method and self.ix.methods_in(method, f.language)) else None
            if field is not None:
                found = (None, "param", field[2])
            if found is None or not found[2]:
                return None
            names = found[2].split("|") if found[1] == "param" else \
                [v.removeprefix("class:") if v.startswith("class:") else "" for v in found[2].split("|")]
        elif receiver.startswith("this.") and receiver[5:].isidentifier() and caller is not None:
            own = self._own_class(f, caller)
            typed = self._attribute_type(*own, receiver[5:]) if own is not None else None
            names = typed[2].split("|") if typed else []
        elif f.language == "go" and (last := _last_call(receiver)) and last[0]:
            # `rootCmd.Flags().String(...)`: what a method of ours returns, `*flag.FlagSet` of an imported package,
            # read with the imports of the method's file
            hit = self.resolve_call(f, caller, last[1], last[0])
            returned = self.returns.get((hit[0], hit[1])) if hit[0] != "unresolved" else None
            return self._language_class(self.files[hit[0]], returned) if returned and \
                not self._type_somewhere(f, returned) and not self._ours_behind(f, returned, method) else None
        else:
            return None
        names = [n for n in names if n.lower() != "null"]
        reasons = {self._language_class(f, n) if not self._type_somewhere(f, n.removeprefix("\\")) and
                   not self._ours_behind(f, n, method) else None for n in names}
        return reasons.pop() if len(reasons) == 1 else None

    def _ours_behind(self, f: FileFacts, type_name: str, method: str | None) -> bool:
        """Whether an object declared of the language's (or a library's) type may be of a class of ours defining
        ``method``: a class of ours declares that type a base (`class Task implements Runnable`, `MyStream :
        Stream`), the type is Object (every class's), or, in Go, a type of ours has the method (interfaces are
        met by their methods: `next http.Handler`'s `next.ServeHTTP()`). Then the call stays what it was (a
        reviewer: `r.run()` on a `Runnable r` was `external:java.lang`, and impact missed Task.run's callers)."""
        if not method or not (self.ix.methods_in(method, f.language) or any(   # (Go's methods are top-level)
                self.files[p].language == f.language and self.files[p].defs[i][1] == "method"
                for p, i in self.ix.global_top.get(method, ()))):
            return False
        last = type_name.removeprefix("\\").replace("::", ".").rpartition(".")[2]
        if f.language == "go" or last in ("Object", "object"):
            return True
        if self._base_names is None:
            self._base_names = {b[1].replace("::", ".").replace("\\", ".").rpartition(".")[2]
                                for g in self.files.values() for b in g.bases}
        return last in self._base_names

    def _includes(self, f: FileFacts) -> list[str]:
        """The headers a C/C++ file includes, then those the repository's headers it includes include (one level:
        ninja's build.cc calls `strerror` of the `<string.h>` its util.h includes); once per file."""
        if not self._headers_by_name:
            for p, g in self.files.items():
                if g.language in ("c", "cpp"):
                    self._headers_by_name.setdefault(posixpath.basename(p), []).append(p)
        if f.path not in self._includes_memo:
            own = [i[0] for i in f.imports]
            inner = [i[0] for h in own for p in self._headers_by_name.get(posixpath.basename(h), ())
                     if p != f.path for i in self.files[p].imports]
            self._includes_memo[f.path] = list(dict.fromkeys(own + inner))
        return self._includes_memo[f.path]

    def _collection_typed(self, f: FileFacts, caller: int | None, receiver: str) -> bool:
        """Whether a receiver is declared an array or a map (``xs: Action[]``, ``this.actions: Array<Action>``,
        ``m: Map<string, Action>``; ``[]Action`` / ``{}Action`` in the facts): its methods are the language's own
        (``push``, ``shift``, ``get``), whatever it holds."""
        if receiver.isidentifier():
            declared = self._declared_name(f, caller, receiver)
        elif receiver.startswith(("this.", "self.")) and receiver[5:].isidentifier() and caller is not None:
            own = self._own_class(f, caller)
            typed = self._attribute_type(*own, receiver[5:]) if own is not None else None
            declared = typed[2] if typed else None
        else:
            return False
        return bool(declared) and all(t.startswith(("[]", "{}")) for t in declared.split("|"))

    def _language_class(self, f: FileFacts, name: str) -> str | None:
        """The reason a class is the language's own (``builtin_class``), C#'s of a System namespace the file uses
        (``csharp_system_type``), or C++'s standard library's (``std::string``: ``external:std``)."""
        if f.language == "go":    # `t *testing.T`, `buf bytes.Buffer`: a type of an imported package of another module
            bind = self.bindings[f.path].get(name.partition(".")[0]) if "." in name else None
            return f"external:{bind[1]}" if bind and bind[0] == "external" else None
        if f.language == "cpp":   # (an iterator's or optional's `->` reaches an element: of any class)
            return "external:std" if name.startswith(("std.", "std::")) and \
                name.replace("::", ".").rpartition(".")[2] not in _STD_HOLDERS else None
        if f.language == "csharp":
            return csharp_system_type((i[0] for i in f.imports if not i[1] and not i[2] and not i[4]), name)
        if f.language in SCRIPT_LANGUAGES:       # `name: string`, `p: Promise<T>`, `d: Date`
            return "external:builtins" if name in SCRIPT_GLOBALS else None
        return builtin_class(f.language, name)

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
        if not value or value.startswith(("call:", "member:", "value:", "wraps:", "is:")) or self._too_deep():
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
        if kind != "call" or self._too_deep():     # `a = b.f(); b = a.g()`: no endless round
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
        """``_foreign`` of one value a variable is assigned (``extract_types._value_of``'s notation)."""
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
        what the call returns, one that calls a method on calls what the last returns (``_chain_class``); one
        that indexes (``subscriptions[i]``) an item of what it indexes."""
        depth, key = self._typing_depth, (f.path, caller, receiver)
        kept = self._receivers.get(key)
        if kept is not None and depth + kept[1] <= _MAX_TYPING_DEPTH:   # asked from here, no step would be cut
            self._deepest = max(self._deepest, depth + kept[1])
            return kept[0]
        cut_short = self._receivers_cut.get((*key, depth), _UNKNOWN)
        if cut_short is not _UNKNOWN:
            self._cut += 1
            return cut_short
        cut, deepest, self._deepest = self._cut, self._deepest, depth
        found = self._receiver_class(f, caller, receiver)
        if self._cut == cut:
            self._receivers[key] = (found, self._deepest - depth)
        elif not self._guarded(cut):
            # cut short: the answer of this depth (asked from a shallower one, the chain goes further)
            self._receivers_cut[(*key, depth)] = found
        self._deepest = max(deepest, self._deepest)
        return found

    def _too_deep(self) -> bool:
        """Whether a chain of inferences (a value through calls, attributes, declarations) is too long to follow
        further. Counted in ``_cut`` (and the depth reached in ``_deepest``): ``receiver_class`` keeps an answer cut
        short only under the depth it was asked from, so an answer never depends on the order the call sites are
        resolved in (``resolve_parallel`` relies on it)."""
        self._deepest = max(self._deepest, self._typing_depth)
        if self._typing_depth > _MAX_TYPING_DEPTH:
            self._cut += 1
            return True
        return False

    def _guarded(self, cut: int) -> bool:
        """Whether a recursion guard (``_guessing``) answered since ``_cut`` was ``cut``: such an answer depends on
        the questions being decided further up, and is not kept at all."""
        return self._guards_at is not None and self._guards_at > cut

    def _receiver_class(self, f: FileFacts, caller: int | None, receiver: str) -> tuple[str, int] | None:
        if not LANGUAGES[f.language].self_names and f.language != "go":   # Go: typed receivers and parameters
            return None
        if f.language == "php":
            receiver = php_receiver(receiver)
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
        if _last_call(receiver):
            return self._chain_class(f, caller, receiver)
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

    def _chain_class(self, f: FileFacts, caller: int | None, receiver: str) -> tuple[str, int] | None:
        """`a.toB().toC()`, `$environment->addParser(…)->addRenderer(…)`: the class of the chain's head, then of
        what each method of it returns in turn; a step at a time, in a loop, not one inference inside another
        (a builder's chain has thirty steps)."""
        methods: list[str] = []
        while (chained := _last_call(receiver)) and chained[0] and not _called_chain(receiver):
            receiver = chained[0]
            methods.append(chained[1])
        cls = self.receiver_class(f, caller, receiver) if methods else None
        for method in reversed(methods):
            hit = self.class_member(*cls, method) if cls else None
            cls = self._returned_class(hit) if hit else None
        return cls

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
        """What the variable ``name`` seen from ``scope`` is assigned (``extract_types._value_of``'s notation), with the
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

    def _pytest_fixture(self, f: FileFacts, caller: int | None, receiver: str) -> bool:
        """Whether ``receiver`` is a parameter of a test or fixture that names one of pytest's own fixtures
        (``monkeypatch.setenv(...)``, ``tmp_path.joinpath(...)``) and no fixture of the repository: pytest's."""
        if f.language != "python" or caller is None or receiver not in _PYTEST_FIXTURES:
            return False
        found = self._declared(f, caller, receiver)
        if found is None or found[1] != "param" or found[2] or found[0] is None:
            return False
        d = f.defs[found[0]]
        return (d[0].startswith("test") or found[0] in f.fixtures) and self._fixture(f.path, receiver) is None

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
        """The class of a local variable's value (``extract_types._value_of``); of several values (``a|b``), the one
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
        if kind == "member":              # an attribute of an object of class T (`$node->ref` of a narrowed `$node`)
            return self._member_typed(f, scope, chain, items, subscript)
        if self._too_deep():              # `x = x.parent` and the like
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
                "|" not in found[2] and (items or subscript) and not self._too_deep():
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
        if kind == "guard":             # `if (isObservableSet(obj))`: the type its predicate names
            rtype = self.returns.get((hit[0], hit[1]))
            return self._typed((hit[0], self.files[hit[0]].defs[hit[1]][3], rtype[3:]), False) \
                if rtype and rtype.startswith("is:") and not (items or subscript) else None
        return self._returned_class((hit[0], hit[1]), items, subscript)

    def _returned_class(self, hit: tuple[str, int], items: bool = False,
                        subscript: bool = False) -> tuple[str, int] | None:
        """The class of what calling definition ``hit`` gives: a class's object (a constructor), the class its
        return is annotated or inferred with; with ``items``/``subscript``, an item of it."""
        d = self.files[hit[0]].defs[hit[1]]
        rtype = self.returns.get(hit)
        if d[1] in _TYPE_KINDS:
            return None if items or subscript else hit        # a constructor
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
        typed = self._attribute_type(*cls, attr) if cls and not self._too_deep() else None
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
        typed = self._declared_type(f, found, name) if found and not self._too_deep() else None
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
        if target is not None and self._def_kind(target) not in _TYPE_KINDS:
            # inside class Dog, `Dog` finds its constructor first: the class, found there (a nested `class Puppy
            # extends Dog` was a guess by the type's unique name, 0.6; tenth QA pass)
            target = self._constructed(target)
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
        if not last.isidentifier():
            return None
        if key in self._guessing:         # _foreign may resolve a chain that leads here
            self._cut += 1
            self._guards_at = self._cut
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

    def _why(self, f: FileFacts, caller: int | None, name: str) -> str:
        """Why a bare call ``name()`` that no definition answers has no edge: a library's (``external:<module>``)
        or the language's own function (``external:builtins``), several candidates, or unknown."""
        declared = self._declared(f, caller, name)
        # `var merge = require('utils-merge')` declares the name it imports: no shadowing of the import
        imported = self._imported_from_library(f, name) if declared is None or \
            declared[0] is None and declared[2] == "call:require" else None
        if imported:
            return imported                     # `from os.path import join; join(a, b)`
        n = len(self.ix.global_top.get(name, []))
        return (self._language_function(f, caller, name) or "unknown") if not n else \
            f"ambiguous:{n}" if n > 1 else "unknown"

    def _language_function(self, f: FileFacts, caller: int | None, name: str) -> str | None:
        """The reason a bare call of a name no definition of the repository has is the language's own (or its
        standard library's), else None."""
        language = f.language
        if language in SCRIPT_LANGUAGES:
            return "external:builtins" if name in SCRIPT_GLOBALS else None   # `new Date()`, `setImmediate(f)`
        if language == "python":
            return "external:builtins" if name in _PYTHON_BUILTINS else None  # `len(x)`: no name the module binds
        if language == "php":
            return "external:builtins" if php_builtin(name) else None        # `sprintf(...)`, `new \DOMDocument()`
        if language == "java":                   # `new IllegalStateException(...)`, Object's `getClass()`
            # (a bare `toString()` in a base class or an interface's default method may run an override of ours)
            return "external:java.lang" if builtin_class("java", name) or name in JAVA_OBJECT_METHODS and \
                not self.ix.methods_in(name, "java") else None
        if language == "csharp":                 # `new List<string>()` after `using System.Collections.Generic;`
            return self._language_class(f, name)
        if language == "go":
            return "external:builtins" if name in _GO_BUILTINS else None     # `len(x)`, `append(xs, x)`, `panic(e)`
        if language in ("c", "cpp"):             # `printf(...)` after `#include <stdio.h>`, unless a method of ours
            return None if self.ix.methods_in(name, language) else c_library_function(self._includes(f), name)
        if language == "ruby" and not self.ix.methods_in(name, "ruby") and ruby_builtin_method(
                name, caller is None or f.defs[caller][1] != "method" or (f.path, caller) in self.singletons):
            return "external:builtins"           # `raise`, `puts`; `attr_reader`, `alias_method` in a class body
        return None

    def _imported_from_library(self, f: FileFacts, name: str) -> str | None:
        """``external:<module>`` for a name an import of a library binds (``external:builtins`` for PHP's own class,
        ``use DateTimeImmutable;``), else None. Not for an import no file answered that is no library's: a
        relative one (``./util``), or one whose last name a file or folder of the repository has (a module of
        ours the resolver did not find: its calls stay ``unknown``, which impact counts as possible callers)."""
        bind = self.bindings[f.path].get(name)
        if not bind or bind[0] != "external" or bind[1].startswith(".") or not self._library_module(f, bind[1]):
            return None
        return "external:builtins" if f.language == "php" and php_builtin(bind[1], function=False) else \
            f"external:{bind[1]}"

    def _library_module(self, f: FileFacts, module: str) -> bool:
        """Whether an import no file answered names a library's module rather than one of ours the resolver did not
        find. Python: its package is the standard library's (`typing` beside the repository's flask/typing.py) or no
        file or folder of the repository is called so (`click.testing` beside flask/testing.py); elsewhere: no file
        or folder of the repository is called as its last name."""
        if f.language == "python":
            top = module.split(".")[0]
            return top in sys.stdlib_module_names or top not in self.ix.path_names
        return _last_segment(module) not in self.ix.path_names

    def _base_why(self, f: FileFacts, owner: int, name: str) -> str:
        """Why a base class no definition answers has no edge: a library's (``class V(MethodView)`` after ``from
        flask.views import MethodView``, ``models.Model``: ``external:<module>``), the language's own
        (``Exception``, ``\\Countable``: ``external:builtins``), or unknown."""
        bare = name.removeprefix("\\")
        head = bare.split(".")[0] if f.language in ("python", *SCRIPT_LANGUAGES) else bare
        if f.language in ("php", "java", "ruby", "csharp") and (why := self._builtin_typed(f, owner, name)):
            return why                          # `extends \ArrayObject`, `extends RuntimeException`, `< StandardError`
        bind = self.bindings[f.path].get(head)
        if bind and bind[0] == "external":
            return f"external:{bind[1]}"
        if bind is None and (f.language == "python" and bare in BUILTIN_CLASSES or
                             f.language in SCRIPT_LANGUAGES and bare in SCRIPT_GLOBALS):
            return "external:builtins"
        return "unknown"

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

    def _kind(self, symbol_id: str) -> str:
        path, i = self.where[symbol_id]
        return self.files[path].defs[i][1]
