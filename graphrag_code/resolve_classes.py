"""Resolution, part 2: classes. A class's members (its own, its bases' in order, Go's embedded ones, Rust's
impls and traits), its bases resolved, and the class enclosing a definition."""

from __future__ import annotations

import posixpath

from .languages import DECLARED_TYPES as _STATIC_TYPED
from .models import NAME_CHAIN as _CHAIN
from .resolve_facts import (
    _BUILTIN_NAMES, _container_kinds, FileFacts, _in_namespaces, _MAX_BASE_DEPTH, _php_namespace, _TYPE_KINDS,
)


class ClassRules:
    """Members and bases of the classes of the repository. A part of ``resolve._Resolver``, whose
    state (set up in its ``__init__``) and other parts it uses."""

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
        class being declared, or any other of that name. Ruby's `include Env` in the body of class Request names
        Request's own module Env first (the body is Request's scope; a superclass is never a module)."""
        scope = f.defs[cls][3]
        if f.language == "ruby" and (own := self.ix.members.get((f.path, cls), {}).get(base)) is not None and \
                f.defs[own][1] == "module":
            return f.path, own, "scope"
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
            if not hits and files and (again := self._reexport(files, last)) and self._trait(*again):
                hits = [again]              # `impl ast::Visitor for T` where ast/mod.rs has `pub use visitor::Visitor`
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
            bases = [(rel, target) for p, c in self._parts(path, cls) for owner, base, rel, _line in self.files[p].bases
                     if owner == c and (target := self._base_of(p, c, base))]
            if self.files[path].language == "ruby":
                # Ruby looks a method up in the modules a class includes, the last included first, and then in its
                # superclass: `super` in a class that includes Tracing reaches Tracing#setup, not Base#setup
                bases = [b for b in reversed(bases) if b[0] != "inherits"] + [b for b in bases if b[0] == "inherits"]
            found = list(dict.fromkeys(target for _rel, target in bases))
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
