"""Resolution, part 4: dispatch. A call that may run another method than the one it names: overrides in
subclasses (virtual dispatch, placeholders, abstract methods), the members of a union, overloads by arity,
Go's structural interfaces."""

from __future__ import annotations

import posixpath
import re
from collections import Counter, defaultdict

from .languages import LANGUAGES
from .models import NAME_CHAIN as _CHAIN
from .resolve_facts import CONFIDENCE, FileFacts, _last_call, _MAX_BASE_DEPTH, _members, _SUBSCRIPTED


# what each primitive argument may be passed as (Java's widening; boxing to its class, Object or a type parameter
# is allowed anywhere below)
_WIDENS = {"byte": {"byte", "short", "int", "long", "float", "double", "decimal"},
           "short": {"short", "int", "long", "float", "double", "decimal"},
           "char": {"char", "int", "long", "float", "double", "decimal"},
           "int": {"int", "long", "float", "double", "decimal", "byte", "short"},   # (C#: a constant fits smaller)
           "long": {"long", "float", "double", "decimal"}, "float": {"float", "double"}, "double": {"double"},
           "boolean": {"boolean"}}
_PRIMITIVES = frozenset(_WIDENS) | {"decimal"}
_BOXED = {"Integer": "int", "Long": "long", "Double": "double", "Float": "float", "Short": "short", "Byte": "byte",
          "Character": "char", "Boolean": "boolean", "Int32": "int", "Int64": "long", "Int16": "short",
          "Single": "float", "Char": "char", "Decimal": "decimal"}
# a class's type parameter by its usual names (`T`, `E2`, C#'s `TKey`): a method's own are no types already
_TYPE_PARAMETER = re.compile(r"[A-Z]\d?|T[A-Z]\w*")
# the types a string may be passed as besides String
_STRING_TYPES = frozenset({"String", "Object", "CharSequence", "Comparable", "Serializable", "IComparable",
                           "IEnumerable", "ICloneable", "IConvertible", "IEquatable", "Constable", "ConstantDesc"})


def _accepts(param: str, kind: str, subtype) -> bool:
    """Whether a parameter declared ``param`` takes an argument that is ``kind`` ("" when not known; ``null``, a
    primitive's name, ``String`` or a class). ``subtype(sub, sup)``: True, False or None (not known)."""
    param, kind = param.rpartition(".")[2], kind.rpartition(".")[2]
    if not kind or not param or param == kind or param in ("Object", "object", "dynamic") or \
            _TYPE_PARAMETER.fullmatch(param):
        return True
    if kind == "null":
        return param not in _PRIMITIVES
    kind = _BOXED.get(kind, kind) if param in _PRIMITIVES else kind
    if kind in _PRIMITIVES:
        return param in _WIDENS.get(kind, {kind}) or _BOXED.get(param) == kind or \
            param in ("Comparable", "Serializable", "ValueType", "IComparable", "IConvertible", "IFormattable") or \
            param == "Number" and kind not in ("boolean", "char")
    if _TYPE_PARAMETER.fullmatch(kind):
        return param not in _PRIMITIVES
    if kind in ("Object", "object"):
        return False              # (an Object is passed as an Object only, without a cast)
    if kind == "String":
        return param in _STRING_TYPES
    if kind in _BOXED:            # final classes: `Number n` is no `Boolean`, an `Integer` is a `Number` or itself
        return param in ("Comparable", "Serializable", "ValueType", "IComparable", "IConvertible") or \
            param == "Number" and kind not in ("Boolean", "Character", "Char")
    if param in _PRIMITIVES or param in _BOXED or param == "String" or param.startswith("[]") != kind.startswith("[]"):
        return False
    return subtype(kind, param) is not False


class DispatchRules:
    """Calls that may run the overrides, union members or overloads of what they name. A part of ``resolve._Resolver``, whose
    state (set up in its ``__init__``) and other parts it uses."""

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
        """The methods called ``name`` of the (transitive) subclasses of class ``cls``, and the functions of that
        name of objects declared of ``cls`` or of a subclass (``_literal_members``)."""
        found = list(self._literal_members(cls, name))
        for cpath, ci, members in self._below(cls, subclasses, stop):
            if name in members:
                found.append(self.files[cpath].ids[members[name]])
            elif self.files[cpath].language == "cpp":   # `double Circle::area() const {...}` in a .cpp
                found.extend(self._out_of_line(cpath, ci, name))
            found.extend(self._literal_members(self.files[cpath].ids[ci], name))
        return found

    def _out_of_line(self, path: str, cls: int, name: str) -> list[str]:
        """C++: the methods ``name`` of class ``cls`` defined outside its body (`double Circle::area() const {...}`,
        in a .cpp or below the class in its own file), by their qualified name: a class's members hold the ones
        inside its body only."""
        return [self.files[p].ids[j] for p, j in self.ix.qualified.get(f"{self.files[path].defs[cls][2]}.{name}", ())
                if self.files[p].language == "cpp" and self.files[p].defs[j][1] == "method" and
                (p, self.files[p].defs[j][3]) != (path, cls)]     # (in its file too: out of its body, not a member)

    def _literal_members(self, cls: str, name: str) -> list[str]:
        """TypeScript: the functions called ``name`` of object literals declared of class or interface ``cls``
        (``export const dateTimestampProvider: DateTimestampProvider = { now() {...} }``): they implement its
        method, as a subclass's override does."""
        return self._literals.get(cls, {}).get(name, []) if self._literals else []

    def _object_literals(self) -> dict[str, dict[str, list[str]]]:
        """Class id -> method name -> the functions of module-level object literals declared of that class."""
        out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for f in self.files.values():
            if f.language not in ("typescript", "tsx") or not f.module_vars:
                continue
            for i, d in enumerate(f.defs):
                holder, _, member = d[2].partition(".")
                declared = f.module_vars.get(holder, "") if d[3] is None and d[1] == "function" and \
                    member == d[0] else ""
                typed = self._type_named(f, None, declared.removeprefix("class:")) \
                    if declared.startswith("class:") and "|" not in declared else None
                if typed is not None:
                    out[self.files[typed[0]].ids[typed[1]]][member].append(f.ids[i])
        return out

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
            todo.extend(self.files[p].ids[c] for p, c in self._parts(cpath, ci)[1:])   # a C# partial subclass
            yield cpath, ci, members

    def _lsp_hierarchy(self, subclasses: dict[str, list[str]]) -> None:
        """The server landed on an abstract method: the overrides in subclasses, found through the
        INHERITS/IMPLEMENTS edges, are what runs; those among the implementations it named have their edges. An
        interface's declaration below it (``_declared_only``) runs no code."""
        for src, dst, line, named in self.lsp_abstract:
            for override in self._overrides(dst, subclasses):
                if override not in named and not (named and self._declared_only(override)):
                    self._call_edge(src, override, line, "lsp_hierarchy")

    def _note_dispatch(self, f: FileFacts, caller: int | None, receiver: str | None, src: str, dst: str,
                       line: int, typed: bool = False, lsp: bool = False, narrowed: str | None = None) -> None:
        """Remember a call on the object itself (``self.m()``, ``this.m()``, Java's bare ``m()``) that landed on
        the method ``dst``: the object is of the caller's class or of a subclass, which may override ``dst`` (see
        ``_dispatch_overrides``). A receiver of an annotated class (``typed``) gets such edges only when ``dst``
        is abstract (a ``pass`` or docstring-only hook: the overrides are what runs, ``for processor in
        self.blockprocessors: processor.run()``); for other methods every subclass is a candidate, and on click
        5 of 13 such edges ran, against 24 of 27 for ``self`` (eval/callgraph_oracle.py). Queries still follow
        overrides for them (impact, paths). The receiver's class is the one the code around the call narrows it
        to (``narrowed``: ``$this->output instanceof ConsoleOutputInterface ? $this->output->section() : ...``
        looks below ``ConsoleOutputInterface``, not below the declared ``OutputInterface``)."""
        spec = LANGUAGES[f.language]
        path, i = self.where[dst]
        d = self.files[path].defs[i]
        if not spec.virtual_dispatch or d[1] != "method" or d[3] is None or caller is None:
            return
        if dst in self.placeholders or (lsp and dst in self.abstract):
            return                   # _dispatch_placeholders and _lsp_hierarchy send those to the overrides
        if not (receiver in spec.self_names or (receiver is None and spec.implicit_this)):
            if typed and dst in self.abstract:
                cls = (self._value_class(f, caller, narrowed) if narrowed else None) or \
                    (self.receiver_class(f, caller, receiver) if receiver else None)
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
        if f.language == "ruby" and receiver is None and (f.path, caller) not in self.singletons:
            receiver = "self"   # a bare call in an instance method is a call on self (in a class method, on the class)
        if not spec.virtual_dispatch or caller is None or not receiver or receiver in spec.super_names:
            return False
        cls = self.receiver_class(f, caller, receiver)
        if cls is None or self.class_member(*cls, name) is not None:
            return False
        found = self._named_below(name, self.files[cls[0]].ids[cls[1]], subclasses)
        for dst in found:
            self._call_edge(src, dst, line, "dispatch")
        if not found and f.language == "ruby" and receiver == "self" and f.defs[cls[1]][1] == "module":
            return self._includers_call(cls, src, name, line, subclasses)
        return bool(found)

    def _includers_call(self, module: tuple[str, int], src: str, name: str, line: int,
                        subclasses: dict[str, list[str]]) -> bool:
        """A Ruby module's method calling a method the module lacks: the object is of a class that includes it,
        and the method is that class's or comes from its ancestors (Rack::Request::Helpers' `get_header` is
        Rack::Request::Env's, another module Request includes): the method each includer finds (``includer``,
        ``includers`` when they find several). Rack's 50 `get_header` calls were `unknown`."""
        found = dict.fromkeys(self.files[hit[0]].ids[hit[1]] for cpath, ci, _m in self._below(
            self.files[module[0]].ids[module[1]], subclasses) if (hit := self.class_member(cpath, ci, name)))
        for dst in found:
            self._call_edge(src, dst, line, "includer" if len(found) == 1 else "includers")
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

    def _overload(self, hit: tuple, arguments: int | None, caller: tuple[str, int | None],
                  kinds: list[str] | None = None, f: FileFacts | None = None) -> list[tuple]:
        """Of a Java, C# or C++ function's overloads (a name finds the last one), those a call passing
        ``arguments`` arguments can run: gson's `toJson(JsonNull.INSTANCE)` had reached `toJson(JsonElement,
        JsonWriter)`, and pythonnet's `HasKey(string)` calling `HasKey(str)` looked recursive. Overloads taking a
        fixed number come before one taking any number (Java's phases); of several that fit, the calling one is
        left out (an overload calling its namesake with as many arguments hands over to another one far more
        often than it recurses). Java and C#: of several, those whose parameters take what the arguments are
        (``_takes``: a literal's type, a `new`'s, a variable's declared one), when any does; the rest are each one of
        several (``overloads``)."""
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
        if kinds and f is not None and fits:
            # the fixed ones the arguments fit, else the variadic ones they fit (Java's phases, by type too)
            typed = [(rest, h) for rest, h in fits if self._takes(f, caller[1], self.param_kinds.get(h), kinds)]
            fits = typed or fits
        fits = [h for rest, h in fits if rest == min(fits)[0]] if fits else []
        if len(fits) > 1 and tuple(caller) in fits:
            fits.remove(tuple(caller))
        if not fits:
            return [hit]
        if len(fits) == 1:
            return [(*fits[0], *hit[2:])]
        return [(p, i, "overloads") for p, i in fits]

    def _takes(self, f: FileFacts, caller: int | None, params: list[str] | None, kinds: list[str]) -> bool:
        """Whether an overload whose parameters are ``params`` (``_param_kinds``) can take arguments that are
        ``kinds`` (``_argument_kinds``); what is not known is taken."""
        if params is None:
            return True
        for i, kind in enumerate(kinds):
            param = params[i] if i < len(params) else params[-1] if params and params[-1].startswith("...") else None
            if param is None:
                return False
            if kind.startswith("name:"):
                kind = self._declared_name(f, caller, kind[5:]) or ""
            kind = kind.partition(":")[2] if ":" in kind else kind
            if param.startswith("...") and kind.startswith("[]"):
                continue                        # an array handed to `T... rest` / `params T[] rest` as it is
            if not _accepts(param.removeprefix("..."), kind, lambda sub, sup: self._subtype(f, caller, sub, sup)):
                return False
        return True

    def _subtype(self, f: FileFacts, caller: int | None, sub: str, sup: str) -> bool | None:
        """Whether the class ``sub`` is ``sup`` or below it: True, False, or None when it cannot be told (a
        library's class below a library's class)."""
        low, high = self._type_named(f, caller, sub), self._type_named(f, caller, sup)
        if low is None:
            return None if high is None else False    # a library's class is below none of ours
        if high is None and self.files[low[0]].defs[low[1]][1] == "enum":
            return None         # an enum's implicit library bases (Java's Enum, Comparable, Serializable; C#'s Enum)
        seen, todo, external = set(), [low], False
        while todo:
            here = todo.pop()
            if here == high or self.files[here[0]].defs[here[1]][0] == sup.rpartition(".")[2]:
                return True
            if here in seen:
                continue
            seen.add(here)
            todo.extend(self._bases(*here))
            external = external or self._external_base(*here)
        return None if external and high is None else False

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
