"""Cross-file resolution: turn each file's raw facts (definitions, call sites, imports, bases) into CALLS,
IMPORTS, INHERITS and IMPLEMENTS edges, each carrying how it was resolved and a confidence.

It works on the facts of the whole repository at once and is a pure function of them, so an incremental
run (facts of unchanged files read back from the graph) gives exactly the edges of a full run. Calls that
cannot be pinned to one definition are kept as unresolved, with the reason, so later analysis can say when
an answer is only a lower bound.

The resolver is one class, ``_Resolver``, in parts: modules and names (``resolve_modules``), classes
(``resolve_classes``), receivers' types (``resolve_types``), dispatch (``resolve_dispatch``) and calls through
values (``resolve_indirect``); this module holds its state, the order the receiver rules run in
(``resolve_call``), the pass over every call site and the edges it writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .languages import DECLARED_TYPES as _STATIC_TYPED, LANGUAGES
from .models import NAME_CHAIN as _CHAIN
from .resolve_facts import (
    _APART_NAMESPACES, CONFIDENCE, file_id, FileFacts, _GUESSES, implicit_of, _Index, _last_call, php_receiver,
    _LSP_DEFER_TO_NAMES, _lsp_holds, _LSP_NONE_VETOES_GUESSES, _NAME_LOOKUPS, _NAME_ONLY, Resolution,
    symbol_ids, _TYPE_KINDS,
)
from .resolve_classes import ClassRules
from .resolve_dispatch import DispatchRules
from .resolve_indirect import IndirectRules
from .resolve_modules import ModuleRules
from .resolve_parallel import site_pass
from .resolve_types import TypeRules

# the resolver's inputs and outputs, for the indexer and the tools
__all__ = ["FileFacts", "Resolution", "file_id", "implicit_of", "resolve", "symbol_ids"]


@dataclass
class _Sites:
    """The call-site pass's bookkeeping: the calls handed a function (path, line, column), what each of them
    reached (for ``_settle_callbacks``), and the calls of parameters left for ``_parameter_calls``."""
    taking: set[tuple[str, int, int]]
    outcomes: dict[tuple[str, int, int], list[str] | str | None] = field(default_factory=dict)
    parameter_calls: list[tuple[str, int, str, int]] = field(default_factory=list)


class _Resolver(ModuleRules, ClassRules, TypeRules, DispatchRules, IndirectRules):
    """The resolution of one repository's facts: state, the receiver rules of ``resolve_call``, the pass over the
    call sites, and the edges (the other rules are in the parts it is made of)."""

    def __init__(self, repo: str, files: dict[str, FileFacts], use_lsp: bool | tuple[str, ...] = False,
                 processes: int = 1) -> None:
        self.repo, self.files, self.ix = repo, files, _Index(files)
        self.processes = processes                               # for the call-site pass (resolve_parallel)
        self._log: list[tuple] | None = None                     # a child's writes, for its parent to replay
        self.file_macros: dict[str, dict[str, list[tuple[str, int]]]] = {}   # path -> name -> its macros (_macros)
        # the languages whose stored answers count: a run with `--lsp python` after one with `--lsp go` keeps
        # the Go files' answers stored (a later `--lsp go` run reuses them) but resolves Go by names, as fresh
        wanted = frozenset(("all",) if use_lsp is True else use_lsp or ())
        self.lsp_wants = lambda language: "all" in wanted or language in wanted
        self.where: dict[str, tuple[str, int]] = {}              # symbol id -> (path, definition index)
        self.abstract: set[str] = set()                          # ids of abstract methods
        self.protocol_stubs: set[str] = set()                    # ... of Protocols nothing subclasses
        self.subclass_map: dict[str, list[str]] | None = None    # class id -> direct subclasses, once known
        self._literals: dict[str, dict[str, list[str]]] | None = None   # _literal_members (before the calls)
        self.placeholders: set[str] = set()                      # ids of placeholder methods (never the work)
        self.param_types: dict[str, dict[int, dict[str, str]]] = {}   # path -> def index -> {parameter: class}
        self.attr_types: dict[tuple[str, int], dict[str, str]] = {}     # (path, class index) -> {attribute: class}
        self.attr_names: dict[tuple[str, int], set[str]] = {}    # (path, class index) -> its untyped attributes
        self.returns: dict[tuple[str, int], str] = {}                   # (path, def index) -> returned class
        self.var_types: dict[str, dict[int, dict[str, str]]] = {}       # path -> def index -> {variable: value}
        # receiver_class's answers: (class, the chain's depth below it) where no step was cut short, else by the
        # depth it was asked from; _deepest and _cut say how deep a chain went and how often one was cut short
        # (_too_deep), _guards_at the _cut a recursion guard answered at
        self._receivers: dict[tuple[str, int | None, str], tuple[tuple[str, int] | None, int]] = {}
        self._receivers_cut: dict[tuple[str, int | None, str, int], tuple[str, int] | None] = {}
        self._deepest, self._guards_at = 0, None
        self._bases_memo: dict[tuple[str, int], list[tuple[str, int]]] = {}   # _bases, once the bases are bound
        self._member_memo: dict[tuple[str, int, str], tuple[str, int] | None] = {}   # class_member, likewise
        self.overloads: dict[tuple[str, str], list[tuple[int, int, int]]] = {}   # (path, qualified) -> overloads
        self.extensions: dict[str, list[tuple[str, int, str]]] = defaultdict(list)   # C#: name -> (path, i, type)
        self._parts_memo: dict[tuple[str, int], list[tuple[str, int]]] = {}
        self.underlying: dict[tuple[str, int], str] = {}    # Go: (path, named slice/map type) -> "[]T" / "{}T"
        self.arity: dict[tuple[str, int], int] = {}              # (path, call index) -> arguments passed
        self.arg_kinds: dict[tuple[str, int], list[str]] = {}    # (path, call index) -> what the arguments are
        self.param_kinds: dict[tuple[str, int], list[str]] = {}  # (path, def index) -> an overload's parameter types
        self._includes_memo: dict[str, list[str]] = {}            # C/C++: path -> headers included (_includes)
        self._headers_by_name: dict[str, list[str]] = {}          # C/C++: a file's name -> its paths (_includes)
        self._base_names: set[str] | None = None                  # every base name any class declares (_ours_behind)
        self._mods_memo: dict[str, set[str]] = {}                # _rust_mods
        self._typing_depth = 0
        self._cut = 0                                            # inferences cut short (TypeRules._too_deep)
        self.properties: set[str] = set()                        # ids of property getters
        self.singletons: set[tuple[str, int]] = set()            # Ruby: class methods (FileFacts.singletons)
        # Ruby: a method of a class that also has a method of the other kind of its name -> (the last class method,
        # the last instance method) of that name (_ruby_side)
        self.ruby_twins: dict[tuple[str, int], tuple[int, int]] = {}
        self.descriptor_gets: dict[str, str] = {}   # getter decorated by a descriptor class -> that class's __get__
        self.wrappers: dict[str, str] = {}          # function -> the wrapper its decorator replaced it with
        # (caller, abstract method, line, the implementations the server named) answered by lsp
        self.lsp_abstract: list[tuple[str, str, int, tuple[str, ...]]] = []
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
        self.cpp_usings: dict[str, list[str]] = defaultdict(list)    # path -> namespaces of `using namespace`
        # (path, local name) -> (path, name) of a module's variable imported by name (`from ._compat import
        # _default_text_stdout`)
        self.imported_vars: dict[tuple[str, str], tuple[str, str]] = {}
        # (path, local name) -> name of a JS/TS `import { name } from "m"` that m does not define (see
        # _settle_reexports)
        self.named_imports: dict[tuple[str, str], str] = {}
        # Rust: (path, local name) -> the name a `use` brings from a module file that only re-exports it
        # (`use crate::ast::Visitor` where ast/mod.rs has `pub use crate::ast::visitor::Visitor`): _settle_reexports
        self.rust_reexported: dict[tuple[str, str], str] = {}
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

    # -- calls --------------------------------------------------------------------------------------------------
    def resolve_call(self, f: FileFacts, caller: int | None, name: str, receiver: str | None):
        """What ``receiver.name()`` (``name()`` without one) called in definition ``caller`` of ``f`` reaches:
        (path, def index, how), or ("unresolved", why). The receiver rules run in order, the first answer wins."""
        hit = self._resolve_call(f, caller, name, receiver)
        if self.ruby_twins and f.language == "ruby" and hit[0] != "unresolved":
            return self._ruby_side(f, caller, receiver, hit)
        return hit

    def _ruby_side(self, f: FileFacts, caller: int | None, receiver: str | None, hit: tuple) -> tuple:
        """A Ruby class may have a class method and an instance method of one name (`def self.x` and `def x`),
        both live: `Klass.x` (class_attr) and a bare or `self.` call in a class method run the class method, other
        calls the instance one (the last of the name had every call; ninth QA pass)."""
        path, i, how = hit
        twins = self.ruby_twins.get((path, i))
        if twins is None:
            return hit
        wanted = how == "class_attr" or (receiver in (None, "self") and (f.path, caller) in self.singletons)
        return path, twins[0] if wanted else twins[1], how

    def _ruby_twins(self, f: FileFacts) -> None:
        """``singletons`` and ``ruby_twins`` of a Ruby file with class methods, once (not per call)."""
        ones = set(f.singletons)
        self.singletons.update((f.path, i) for i in ones)
        sides: dict[tuple[int, str], list[list[int]]] = {}
        for j, d in enumerate(f.defs):
            if d[3] is not None and d[1] == "method":
                sides.setdefault((d[3], d[0]), [[], []])[0 if j in ones else 1].append(j)
        for class_side, instance_side in sides.values():
            if class_side and instance_side:
                for j in class_side + instance_side:
                    self.ruby_twins[(f.path, j)] = (class_side[-1], instance_side[-1])

    def _resolve_call(self, f: FileFacts, caller: int | None, name: str, receiver: str | None):
        if receiver and f.language == "cpp" and "->" in receiver:
            receiver = receiver.replace("->", ".")        # `parent_->LookupRule()`, `builder_->status_->Info()`
        elif receiver and f.language == "php":
            receiver = php_receiver(receiver)             # `$this->collection`: `this.collection`
        if name == "new" and f.language == "ruby" and receiver in (None, "self") and (f.path, caller) in self.singletons:
            cls = self.enclosing_class(f, caller)        # `new(s)` in `def self.build`: an object of the class
            if cls is not None:
                return f.path, cls, "self"
        if receiver is None:
            hit = self.lookup_name(f, caller, name)
            if hit is None and (called := self._called_instance(f, caller, None, name)):
                return called[0], called[1], "annotation"
            return hit or ("unresolved", self._why(f, caller, name))
        spec = LANGUAGES[f.language]
        return self._language_receiver(f, caller, name, receiver, spec) or \
            self._object_itself(f, caller, name, receiver, spec) or \
            self._local_receiver(f, caller, name, receiver, spec) or \
            self._module_receiver(f, caller, name, receiver, spec) or \
            self._class_receiver(f, caller, name, receiver, spec) or \
            self._typed_receiver(f, caller, name, receiver, spec) or \
            self._guessed_receiver(f, caller, name, receiver, spec)

    def _language_receiver(self, f: FileFacts, caller: int | None, name: str, receiver: str, spec):
        """Ruby's ``Request.new(env)``, PHP's ``\\App\\helper_fn()`` and Rust's ``Self::new()``."""
        if name == "new" and f.language == "ruby" and _CHAIN.fullmatch(chain := receiver.replace("::", ".")):
            # `Request.new(env)`, `Rack::Request.new`: constructs the class (as `new Request()` elsewhere)
            hit = self._type_hit(f, caller, chain)
            if hit:
                return hit
        if f.language == "php" and (hit := self.php_function(f"{receiver}\\{name}")):
            return hit[0], hit[1], "module_attr"          # `\App\helper_fn()`: receiver `App`
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
        """``self.m()``: the method of the class around or a base of it, of the ``impl`` around, or of the class
        ``self`` is annotated with; else ("unresolved", "self-unknown")."""
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
            head, _, last = receiver.rpartition("::")
            files = self._rust_module(f, head) if head and not files else None
            owner = self._top_in(files, last) if files else None
            if owner and self.files[owner[0]].defs[owner[1]][1] in ("struct", "enum", "trait", "type", "impl"):
                # `calc::Acc::new()` after `mod calc;`: a function of the module's type (an eleventh QA pass)
                hit = self.class_member(*owner, name) or self._impl_method(self.files[owner[0]], owner[1], name)
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
            # (Rust: `hir::ClassUnicode` after `use crate::hir`, two characters apart)
            attr = receiver[len(head):].removeprefix("::").removeprefix(".") if not whole and receiver != head else ""
            # `nodes.Const.from_untrusted()` (and `forms.CharField().clean()`) reaches the class's method, never a
            # function of the module; `signals.post_migrate.send()` the method of the module variable's class
            cls = (self._module_class(bind[1], attr.removesuffix("()"), spec)
                   or self._module_var_class(bind[1], attr)) if attr else None
            hit = (self.class_member(*cls, name) or self._impl_method(self.files[cls[0]], cls[1], name)) if cls \
                else self._top_in(bind[1], name) or \
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
            if f.language == "rust" and name[:1].isupper() and self.files[t[0]].defs[t[1]][1] == "enum":
                return t[0], t[1], "class_attr"           # `Err::Error(e)`: a variant of the enum, made
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
        if self._pytest_fixture(f, caller, receiver):
            return "unresolved", "external:pytest"      # `monkeypatch.setenv(...)` in a test
        if f.language != "go" and self._collection_typed(f, caller, receiver):
            return "unresolved", "external:builtins"    # `this.actions.shift()` of an `Array<Action>`
        if f.language in ("php", "java", "csharp", "cpp", "go", "typescript", "tsx") and \
                (why := self._builtin_typed(f, caller, receiver, name)):
            return "unresolved", why     # `$dom->createElement()` after `$dom = new \DOMDocument()`, `Math.max()`
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
        if hit and f.language in _STATIC_TYPED and self._foreign(f, caller, receiver):
            # declared a library's type (`Map<String, String> attributes`, `String protocol`): its name is no clue
            # (jsoup: 3 of 8 such guesses, `attributes.get(tag)` -> Attributes.get; ninth QA pass). Java, C#, C++
            # only: Python's annotations name modules (`node: nodes.Template`) that the test cannot always follow
            return "unresolved", "dynamic:foreign-receiver"
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

    # -- edges --------------------------------------------------------------------------------------------------
    def _add_edge(self, etype: str, src: str, dst: str, props: dict, merge_line: bool = False) -> None:
        if self._log is not None:        # a share of the call-site pass in a child process (resolve_parallel)
            self._log.append(("edge", etype, src, dst, dict(props), merge_line))
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
        # the overrides of an abstract method it named go to _lsp_hierarchy: every one where it named no
        # implementation (jedi has no such request), else those it left out: tsserver names the implementing
        # classes' methods, not their subclasses' overrides (`resource.unsubscribe()` on an Unsubscribable reached
        # Subject's, not WebSocketSubject's, which the names' dispatch found)
        self.lsp_abstract.extend((src, d, line, tuple(impls)) for d in defs if d in self.abstract)
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
        if (hit[0] == "unresolved" or hit[2] in _GUESSES) and receiver and \
                answer[1] in self._type_files(f, caller, receiver) and \
                self._missing_member(f, caller, receiver, src, name, line, self.subclass_map):
            # a property of the receiver's declared type or of a type it extends (`observer.complete()` where
            # `complete: () => void` is a member of the interface Observer): the methods of that name its
            # implementations define, as names find them (a guess by a unique name included)
            return True
        self._unresolved(src, receiver, name, line, "dynamic:lsp-variable")
        self.out.stats["lsp:" + ("variable" if hit[0] == "unresolved" else "corrected")] += 1
        return True

    def _type_files(self, f: FileFacts, caller: int | None, receiver: str) -> set[str]:
        """The files of the receiver's class and of the classes it extends or implements (32 classes at most)."""
        cls = self.receiver_class(f, caller, receiver)
        todo, seen = [cls] if cls else [], set()
        while todo and len(seen) < 32:
            one = todo.pop()
            if one not in seen:
                seen.add(one)
                todo.extend(self._bases(*one))
        return {path for path, _i in seen}

    def _unresolved(self, src: str, receiver: str | None, name: str, line: int, reason: str) -> None:
        """Keep a call no definition was found for on its caller, as ``receiver.name@line:reason``."""
        label = f"{receiver}.{name}" if receiver else name
        self.out.unresolved.setdefault(src, []).append(f"{label}@{line}:{reason}")
        if self._log is not None:
            self._log.append(("unresolved", src, f"{label}@{line}:{reason}"))
        self.out.stats[f"unresolved:{reason.split(':')[0]}"] += 1

    def run(self) -> Resolution:
        """Read every file's facts, bind imports, resolve bases, then every call site; last the edges that need
        all of them (calls of parameters, callbacks, attribute hooks, dispatch to overrides)."""
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
        self._warm_bases()
        self._literals = self._object_literals()   # before the calls, as the bases: the same table in every process
        self._collect_inserts()
        self._collect_passed_items()
        self._collect_decorations()
        callbacks = [(path, k) for path in sorted(self.files) for k, call in enumerate(self.files[path].calls)
                     if implicit_of(call) == "callback"]
        # calls handed a function, whose outcome _settle_callbacks reads
        sites = _Sites({(path, *self.files[path].calls[k][6:8]) for path, k in callbacks})
        self.out.warnings += site_pass(self, sorted(self.files), sites, self.processes)
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

    def _warm_bases(self) -> None:
        """Every class's bases, kept (``_bases``) before any call site asks, in file order: bound through a call
        (``class X(ns.Base)``, ``ns = make()``), a base asked for first deep in an inference chain was cut short
        there (``_too_deep``) and kept so, and the members, externality and dispatch read from it depended on which
        call site asked first (a review of ``resolve_parallel``: one process and two disagreed)."""
        for path in sorted(self.files):
            f = self.files[path]
            owners = {owner for owner, *_rest in f.bases}
            for i, d in enumerate(f.defs):
                if i in owners or d[1] in _TYPE_KINDS:
                    self._bases(path, i)

    def _sites_of(self, paths: list[str], sites: _Sites) -> None:
        """The call-site pass over the files ``paths``, in order (``resolve_parallel`` hands each process a share)."""
        for path in paths:
            f = self.files[path]
            answers = ((f.lsp or {}).get("answers") or []) if self.lsp_wants(f.language) else []
            narrowed = dict(f.narrowed)
            for k, call in enumerate(f.calls):
                if implicit_of(call) != "callback":   # _settle_callbacks, once every call handed one is resolved
                    self._resolve_site(f, k, answers[k] if k < len(answers) else None, narrowed.get(k), sites)

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
        if f.singletons:
            self._ruby_twins(f)
        self.properties.update(f.ids[i] for i, _name in f.property_names)
        for i, fewest, most, *kinds in f.overloads:
            self.overloads.setdefault((path, f.defs[i][2]), []).append((i, fewest, most))
            if kinds:
                self.param_kinds[(path, i)] = kinds[0]
        for i, extended in f.extensions:
            self.extensions[f.defs[i][0]].append((path, i, extended))
        self.underlying.update(((path, i), kind) for i, kind in f.underlying)
        for k, n, *kinds in f.arities:
            self.arity[(path, k)] = n
            if kinds:
                self.arg_kinds[(path, k)] = kinds[0]
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
        # `square!(x)`: its macro_rules!, else one outside the repository; looked up among macros alone, before
        # the name rules and parameters (whose lookups it does not need)
        if implicit == "macro":
            found = self._macros(f, name)
            method = "macro_alt" if len(found) > 1 else "same_file" if found and found[0][0] == f.path \
                else "global_unique"
            for path, i in found:
                self._call_edge(src, self.files[path].ids[i], line, method)
            return
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
        elif hit[0] != "unresolved" and self.files[hit[0]].defs[hit[1]][1] == "macro" and \
                (f.language == "rust" or self.files[hit[0]].ids[hit[1]] == src):
            # a call without `!` never expands a macro_rules! of that name, nor a #define its own name
            # (`#define compute(x) (trace(0), compute(x))` wraps the function): a function of that name, if any
            hit = self._non_macro(f, name) or ("unresolved", "unknown")
        if hit[0] == "unresolved" and f.language in ("c", "cpp") and str(hit[1]).startswith("ambiguous") and \
                receiver is None and (found := self._macros(f, name)):
            for path, i in found:      # a macro defined in each `#if` branch of a header: one of them expands
                self._call_edge(src, self.files[path].ids[i], line, "macro_alt" if len(found) > 1 else "global_unique")
            return
        if (hit[0] == "unresolved" or hit[2] in _GUESSES) and \
                (self._union_call(f, caller, receiver, src, name, line, narrowed=narrowed) or
                 self._registry_call(f, caller, receiver, src, name, line)):
            return
        if hit[0] == "unresolved":
            if not self._missing_member(f, caller, receiver, src, name, line, subclasses):
                self._unresolved(src, receiver, name, line, hit[1])
            return
        for one in self._overload(hit, self.arity.get((f.path, k)), (f.path, caller), self.arg_kinds.get((f.path, k)),
                                  f) if self.overloads else [hit]:
            dst = self.files[one[0]].ids[one[1]]
            self._call_edge(src, dst, line, one[2])
            self._note_dispatch(f, caller, receiver, src, dst, line, typed=one[2] == "annotation", narrowed=narrowed)

    def _macros(self, f: FileFacts, name: str) -> list[tuple[str, int]]:
        """The macros ``name!(...)`` may expand, by name alone (Rust resolves macros apart from other items, and a
        `#[macro_export]` one at the crate's root whatever the `use` says): the file's own, else the repository's
        top-level ones. Several (definitions in `#if` branches, or in several files): all of them."""
        if f.path not in self.file_macros:        # once per file: a file makes many macro calls
            self.file_macros[f.path] = defaultdict(list)
            for i, d in enumerate(f.defs):
                if d[1] == "macro":
                    self.file_macros[f.path][d[0]].append((f.path, i))
        own = self.file_macros[f.path].get(name, [])
        return own or [(p, i) for p, i in self.ix.global_top.get(name, ()) if self.files[p].defs[i][1] == "macro"]

    def _non_macro(self, f: FileFacts, name: str) -> tuple[str, int, str] | None:
        """A function (no macro) named ``name``: the file's top-level one, else the repository's only one."""
        own = [i for i in self.ix.top.get(f.path, {}).get(name, ()) if f.defs[i][1] != "macro"]
        if own:
            return f.path, own[-1], "same_file"
        others = [(p, i) for p, i in self.ix.global_top.get(name, ()) if self.files[p].defs[i][1] != "macro"]
        return (*others[0], "global_unique") if len(others) == 1 else None

    def _resolve_bases(self, f: FileFacts) -> None:
        """INHERITS / IMPLEMENTS edges of the classes of ``f`` (a base no definition answers: unresolved)."""
        for owner, name, relation, line in f.bases:
            target = self._base_target(f, owner, name)
            src = f.ids[owner]
            if target is None:
                why = self._base_why(f, owner, name)
                self.out.unresolved.setdefault(src, []).append(f"{relation.lower()} {name}@{line}:{why}")
                continue
            # to every part of a C# partial class (one class in several files): the subclass overrides the methods
            # of each, and dispatch, impact and path go from a method to its class's subclasses (ninth QA pass: an
            # override of a method of another part had no caller, and impact said COMPLETE)
            for part_path, part in self._parts(target[0], target[1]):
                dst = self.files[part_path].ids[part]
                if dst != src:
                    self._add_edge(relation, src, dst, {"line": line, "confidence": CONFIDENCE[target[2]],
                                                        "resolved_by": target[2]})


def resolve(repo: str, files: dict[str, FileFacts], use_lsp: bool | tuple[str, ...] = False,
            processes: int = 1) -> Resolution:
    """Edges of the whole repository; with ``use_lsp`` (True, or the ``--lsp`` languages) the language-server
    answers stored in the facts win over name-based resolution where they name a definition. ``processes``:
    how many share the call-site pass (``resolve_parallel.processes_for``); the result is the same."""
    return _Resolver(repo, files, use_lsp, processes).run()
