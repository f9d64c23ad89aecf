"""Resolution, part 5: calls through values. Decorators and descriptors, registries (objects put into
collections), functions returned or held in variables, callbacks handed to library functions, calls of
parameters (what the callers hand them), methods looked up by a built name, implicit calls (dunders,
properties, attribute hooks)."""

from __future__ import annotations

from collections import defaultdict

from .languages import SCRIPT_LANGUAGES
from .resolve_facts import _called_chain, file_id, FileFacts, _GUESSES, implicit_of, _MAX_BASE_DEPTH, _TYPE_KINDS


class IndirectRules:
    """Calls of functions that travel as values. A part of ``resolve._Resolver``, whose
    state (set up in its ``__init__``) and other parts it uses."""

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
