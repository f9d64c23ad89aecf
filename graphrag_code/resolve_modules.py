"""Resolution, part 1: modules and names. Which file an import names (per language), what a file's imports
bind, re-exports, and the definition a bare name reaches from a scope (``lookup_name``)."""

from __future__ import annotations

import posixpath

from .languages import LANGUAGES, SCRIPT_LANGUAGES
from .resolve_facts import (
    file_id, FileFacts, _last_segment, _MAX_BASE_DEPTH, _module_candidates, _NAMESPACED, _php_namespace,
)


class ModuleRules:
    """What the imports of each file bind, and what a name reaches from a scope. A part of ``resolve._Resolver``, whose
    state (set up in its ``__init__``) and other parts it uses."""

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
        if f.language == "php" and not found:
            # Composer's PSR-4 maps a namespace prefix to a folder (`App\` to src/): `App\Sub\Helper` is in
            # src/Sub/Helper.php, whose path does not end with the namespace's. Found by the namespace the file
            # declares and the class's name as its file's.
            namespace, _, name = module.strip("\\").rpartition("\\")
            found = [p for p in self.ix.php_namespaces.get(namespace, [])
                     if p != f.path and posixpath.splitext(posixpath.basename(p))[0] == name] if namespace else []
        if f.language in ("c", "cpp") and posixpath.splitext(module)[1]:   # `#include "state.h"`: not state.c
            found = [p for p in found if posixpath.basename(p) == posixpath.basename(module)]
        return found

    def _path_alias(self, module: str) -> bool:
        """Whether a JavaScript/TypeScript import no file answered is a path alias (`@/x`, `~/x`, `#x`, `$lib/x`), or
        names a file of the repository after its first part (`@app/utils/helper`), rather than a package."""
        first, _, rest = module.partition("/")
        if first in ("@", "~") or first[:1] in ("~", "#", "$"):
            return True
        parts = [p for p in rest.split("/") if p not in ("", ".")]
        tails = {t for k in range(len(parts)) for t in ("/".join(parts[k:]), "/".join(parts[k:]) + "/index")}
        return any(("/" + stem).endswith("/" + t) for stem in self.ix.stems for t in tails)

    def _csharp_namespace(self, f: FileFacts, module: str) -> list[str]:
        """The files declaring the namespace a C# `using Geo.Shapes;` names, wherever they are: it was an
        external module (`module:Geo.Shapes`; tenth QA pass). Its types are bare names in the file."""
        return sorted({p for p, i in self.ix.qualified.get(module.strip(), ()) if p != f.path and
                       self.files[p].language == "csharp" and self.files[p].defs[i][1] == "module"})

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
            if wildcard and f.language == "cpp":    # `using namespace geo;`: no file, the names of a namespace
                self.cpp_usings[f.path].append(module.replace("::", "."))
                continue
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
            function = self.php_function(module) if not targets and f.language == "php" else None
            if function:              # `use function App\helper_fn;`: a function its namespace declares
                binds[alias or name or module.rsplit("\\", 1)[-1]] = ("symbol", *function)
                self._import_edge(src, [function[0]], line, name)
                continue
            declared = self._csharp_namespace(f, module) if not targets and f.language == "csharp" else None
            if declared:
                self._import_edge(src, declared, line, name)
                self.wildcards[f.path].extend(declared)
                continue
            if not targets and f.language in SCRIPT_LANGUAGES and self._path_alias(module):
                # `@/utils/helper` (a bundler's or tsconfig's alias): a file of ours the resolver did not find, no
                # package `@` (a review: impact took its calls for a library's)
                if not wildcard:
                    binds[alias or name or module.split("/")[-1]] = ("module", [])
                continue
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
                elif not hit and f.language == "rust":
                    self.rust_reexported[(f.path, alias or name)] = name
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
        may name what another barrel re-exports, so rounds until nothing changes. Rust's `use crate::ast::Visitor`
        where ast/mod.rs has `pub use crate::ast::visitor::{visit, Visitor}` the same way."""
        for _round in range(_MAX_BASE_DEPTH):
            settled = 0
            for (path, local), name in [*self.named_imports.items(), *self.rust_reexported.items()]:
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

    def php_function(self, qualified: str) -> tuple[str, int] | None:
        """The function ``App\\helper_fn`` (a `use function` import, a call `\\App\\helper_fn()`): declared in a
        file of namespace ``App``, at its top or in its `namespace App { }` block. Both lost their callers (ninth QA
        pass): the import was looked for as a class's file, the call's namespace as a receiver."""
        namespace, _, name = qualified.strip("\\").rpartition("\\")
        hits = [(p, i) for p in self.ix.php_namespaces.get(namespace, []) if namespace
                for i, d in enumerate(self.files[p].defs) if d[0] == name and d[1] == "function" and
                (d[3] is None or self.files[p].defs[d[3]][1] == "module")]
        return hits[0] if len(hits) == 1 else None

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
            # a Rust `impl Circle` names its type: `Circle { r }` builds the struct, not the last impl (tenth QA
            # pass); a type a macro defines (syn's `ast_struct!`) has only its impls
            return f.path, ([i for i in top if f.defs[i][1] != "impl"] or top)[-1], "same_file"
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
        for namespace in self.cpp_usings.get(f.path, ()):     # `using namespace geo;`, then `total(xs, n)`
            hits = [h for h in self.ix.qualified.get(f"{namespace}.{name}", ()) if self.files[h[0]].language == "cpp"]
            if hits and len({p for p, _i in hits}) == 1:       # overloads: one file's (`_overload` picks)
                return hits[-1][0], hits[-1][1], "import"
        if f.language in ("go", "java", "csharp", "rust", "php"):   # same package / namespace: sibling files
            near = self.ix.php_namespaces[_php_namespace(f)] if f.language == "php" else \
                self.ix.dirs[posixpath.dirname(f.path)]
            hits = [(p, i) for p in near
                    if p != f.path and self.files[p].language == f.language   # not a Python `make` beside g.go
                    for i in self.ix.top.get(p, {}).get(name, [])]
            if len(hits) == 1 or hits and self._one_type(hits):
                return hits[0][0], hits[0][1], "same_package"
        # C++ calls C's functions (it includes a C header: `extern "C"`); C calls no C++ (a C++ header read with the
        # C grammar, ninja's .h, makes calls of its declarations: they found the .cc's definitions)
        family = ("cpp", "c") if f.language == "cpp" else (f.language,)
        hits = [h for h in self.ix.global_top.get(name, []) if self.files[h[0]].language in family
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
