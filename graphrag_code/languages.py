"""Which languages graphrag-code parses, and the few facts about each that are not in its .scm query."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath


@dataclass(frozen=True)
class LanguageSpec:
    name: str                       # our name; also the .scm file stem: queries/<name>-tags.scm
    grammar: str                    # tree-sitter-language-pack name
    extensions: tuple[str, ...]
    # node types that, directly above a definition with no blank line between, belong to it
    # (doc comments, attributes, annotations, decorators)
    leading_types: frozenset[str] = frozenset({"comment"})
    # definition kinds whose nested functions are methods, and that are split into a header chunk
    container_kinds: frozenset[str] = frozenset({"class", "interface", "struct", "trait", "enum", "module", "impl"})
    # container kinds that are only namespaces: functions directly inside stay functions (C++, PHP namespaces)
    namespace_kinds: frozenset[str] = frozenset()
    self_names: tuple[str, ...] = ()  # receivers meaning "this object"
    implicit_this: bool = False       # a bare name inside a method may be a member of its class (Java, C++, C#)
    # functions assigned to object properties (`app.set = function`, `View.prototype.render = function`) are
    # members of that object: `this` in them is the object, and their names are no lexical bindings (JS, TS)
    member_assignments: bool = False
    comment_prefixes: tuple[str, ...] = ("//", "/*", "*", "*/")
    test_path: re.Pattern[str] = field(default=re.compile(r"(^|/)(tests?|__tests__|spec)/"))
    test_name: re.Pattern[str] = field(default=re.compile(r"^(test_?|Test)"))
    # methods of the language's built-in types: a repository's only definition of such a name says little about
    # `x.update()`, which is far more often a dict's (see resolve.py, method_unique)
    builtin_methods: frozenset[str] = frozenset()
    # every method is virtual: a call on an object of class C may run an override in any subclass of C
    # (Python, JavaScript, TypeScript, Java, Ruby, C#, PHP; not C++, where only `virtual` ones are, nor Go or Rust)
    virtual_dispatch: bool = False
    # library functions that call a function handed to them before they return (`sorted(ps, key=f)`,
    # `re.sub(p, f, s)`): the code handing it over is, as far as the graph can tell, its caller. Others keep or
    # wrap what they are handed (`update_wrapper(new, f)`, `Thread(target=f)`, `atexit.register(f)`)
    calls_back: frozenset[str] = frozenset()
    # receivers naming the base class's implementation (`super.m()`, C#'s `base.M()`, PHP's `parent::m()`)
    super_names: tuple[str, ...] = ("super()", "super")
    # a name is looked up through the enclosing definitions: a nested type from inside the class around it
    # (Ruby's `class Error < StandardError` inside `class Thor`, then `< Error`; Java, C#, C++), any member of an
    # enclosing namespace (C++ `namespace`, Rust `mod`, C#; Ruby modules: their types), and a type declared in a
    # namespace is found from other files as a top-level one is (resolve._Index). Python and JavaScript scopes are
    # functions only.
    lexical_members: bool = False
    # a method name defined once in the repository stands for it on a receiver of unknown type (method_unique);
    # not where the standard library's methods (Ruby's `map`, `pop`; Rust's `clear`, `to_owned`) share most names:
    # a QA pass found 2 of 15 (rack), 6 of 15 (thor, serde_json) such edges right
    guess_unique_methods: bool = True


_C_LIKE_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
# the public methods of dict, list, set, frozenset, str, bytes, bytearray, tuple, int, float, collections.deque
# and the io file objects (Python 3.11)
# builtins, list.sort, re's and functools'/itertools'/heapq's/bisect's functions that take a key or a function
_PYTHON_CALLS_BACK = frozenset("""
sorted sort min max map filter iter reduce sub subn starmap groupby accumulate takewhile dropwhile filterfalse
nsmallest nlargest merge bisect bisect_left bisect_right insort insort_left insort_right
""".split())
_PYTHON_BUILTIN_METHODS = frozenset("""
add append appendleft as_integer_ratio bit_count bit_length capitalize casefold center clear close conjugate copy
count decode detach difference difference_update discard encode endswith expandtabs extend extendleft fileno find
flush format format_map from_bytes fromhex fromkeys get getbuffer getvalue hex index insert intersection
intersection_update is_integer isalnum isalpha isascii isatty isdecimal isdigit isdisjoint isidentifier islower
isnumeric isprintable isspace issubset issuperset istitle isupper items join keys ljust lower lstrip maketrans
partition peek pop popitem popleft read read1 readable readinto readinto1 readline readlines reconfigure remove
removeprefix removesuffix replace reverse rfind rindex rjust rotate rpartition rsplit rstrip seek seekable
setdefault sort split splitlines startswith strip swapcase symmetric_difference symmetric_difference_update tell
title to_bytes translate truncate union update upper values writable write writelines zfill""".split())
_JS_COMMENT_PREFIXES = ("//", "/**", "/*", "*", "*/")  # JSDoc / TSDoc
# a function named `test...`, or a test or a suite of a test runner (extract._test_title: `it finds a query`)
_SCRIPT_TEST_NAME = re.compile(r"^(test_?|Test|(describe|context|suite|it|test|specify|fdescribe|xdescribe|fit|xit) )")
# methods of JavaScript's built-in prototypes (Object, Function, Array, Set, Map, String, Promise, iterators, RegExp,
# EventTarget) and of Node's EventEmitter and streams: a method of the repository that shares one of these names
# is no guess for an unknown receiver (MobX's `this.data_.add(x)` on a Set is not `ObservableSet.add`, rxjs's
# `predicate.call(thisArg, ...)` not `Operator.call`: of the 34 such guesses over MobX, rxjs and Immer, 31 were wrong,
# one undecidable; the two right ones are calls a type guard narrows, typed so since: `if (isObservableSet(obj))`)
_JS_BUILTIN_METHODS = frozenset("""
add addEventListener addListener apply at bind call catch charAt charCodeAt clear codePointAt concat copyWithin
delete deref destroy difference dispatchEvent emit end endsWith entries every exec fill filter finally find
findIndex findLast findLastIndex flat flatMap forEach get getTime has hasOwnProperty includes indexOf
intersection isDisjointFrom isPrototypeOf isSubsetOf isSupersetOf join keys lastIndexOf listenerCount listeners
localeCompare map match matchAll next normalize off on once padEnd padStart pipe pop prependListener
propertyIsEnumerable push read reduce reduceRight removeAllListeners removeEventListener removeListener repeat
replace replaceAll return reverse search set setMaxListeners shift slice some sort splice split startsWith substr
substring symmetricDifference test then throw toExponential toFixed toISOString toJSON toLocaleLowerCase
toLocaleString toLocaleUpperCase toLowerCase toPrecision toReversed toSorted toSpliced toString toUpperCase trim
trimEnd trimStart union unshift valueOf values with write
arrayBuffer blob clone formData json text""".split())      # the last line: fetch's Request / Response / Blob

LANGUAGES: dict[str, LanguageSpec] = {spec.name: spec for spec in (
    LanguageSpec("python", "python", (".py", ".pyi"), virtual_dispatch=True, leading_types=frozenset({"comment"}),
                 self_names=("self", "cls"), comment_prefixes=("#",), builtin_methods=_PYTHON_BUILTIN_METHODS,
                 calls_back=_PYTHON_CALLS_BACK,
                 test_path=re.compile(r"(^|/)(tests?/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")),
    LanguageSpec("javascript", "javascript", (".js", ".jsx", ".mjs", ".cjs"), virtual_dispatch=True, self_names=("this",), member_assignments=True,
                 comment_prefixes=_JS_COMMENT_PREFIXES, builtin_methods=_JS_BUILTIN_METHODS,
                 test_path=re.compile(r"(^|/)(tests?|__tests__|spec)/|\.(test|spec)\.[cm]?jsx?$"),
                 test_name=_SCRIPT_TEST_NAME),
    # a TypeScript `namespace` scopes its functions as a C++ one does: `dist(a, 0)` inside `namespace Geo` is Geo.dist
    LanguageSpec("typescript", "typescript", (".ts", ".mts", ".cts"), virtual_dispatch=True, self_names=("this",), member_assignments=True,
                 namespace_kinds=frozenset({"module"}), lexical_members=True,
                 leading_types=frozenset({"comment", "decorator"}),  # method decorators are class-body siblings
                 comment_prefixes=_JS_COMMENT_PREFIXES, builtin_methods=_JS_BUILTIN_METHODS,
                 test_path=re.compile(r"(^|/)(tests?|__tests__|spec)/|\.(test|spec)\.[cm]?ts$"),
                 test_name=_SCRIPT_TEST_NAME),
    LanguageSpec("tsx", "tsx", (".tsx",), virtual_dispatch=True, self_names=("this",), member_assignments=True, leading_types=frozenset({"comment", "decorator"}),
                 namespace_kinds=frozenset({"module"}), lexical_members=True,
                 comment_prefixes=_JS_COMMENT_PREFIXES, builtin_methods=_JS_BUILTIN_METHODS,
                 test_path=re.compile(r"(^|/)(tests?|__tests__|spec)/|\.(test|spec)\.tsx$"),
                 test_name=_SCRIPT_TEST_NAME),
    LanguageSpec("go", "go", (".go",), test_path=re.compile(r"_test\.go$"), test_name=re.compile(r"^(Test|Benchmark|Example|Fuzz)")),
    LanguageSpec("java", "java", (".java",), virtual_dispatch=True, leading_types=_C_LIKE_COMMENTS, self_names=("this",), implicit_this=True,
                 lexical_members=True,
                 comment_prefixes=("//", "/**", "/*", "*", "*/"),
                 test_path=re.compile(r"(^|/)src/test/|Tests?\.java$"),
                 test_name=re.compile(r"^(test[A-Z0-9_]|Test)")),   # not `test` itself: Predicate.test()
    LanguageSpec("rust", "rust", (".rs",), leading_types=_C_LIKE_COMMENTS | {"attribute_item"}, self_names=("self",),
                 namespace_kinds=frozenset({"module"}), lexical_members=True, guess_unique_methods=False,
                 test_path=re.compile(r"(^|/)tests/"), test_name=re.compile(r"^test_")),
    LanguageSpec("c", "c", (".c", ".h"), comment_prefixes=("/**", "//", "/*", "*", "*/"),
                 test_path=re.compile(r"(^|/)tests?/|_test\.c$")),
    LanguageSpec("cpp", "cpp", (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"), self_names=("this",), implicit_this=True,
                 namespace_kinds=frozenset({"module"}), lexical_members=True, comment_prefixes=("/**", "//", "/*", "*", "*/"),
                 test_path=re.compile(r"(^|/)tests?/|_test\.(cc|cpp)$")),
    LanguageSpec("ruby", "ruby", (".rb",), virtual_dispatch=True, self_names=("self",), comment_prefixes=("#",),
                 implicit_this=True, lexical_members=True, guess_unique_methods=False,   # `parse_query(env)`: self's
                 test_path=re.compile(r"(^|/)(test|spec)/|_(test|spec)\.rb$")),
    LanguageSpec("csharp", "csharp", (".cs",), virtual_dispatch=True, self_names=("this",), implicit_this=True,
                 namespace_kinds=frozenset({"module"}), lexical_members=True, super_names=("base",),
                 # `Foo.Tests/`, `embed_tests/`, `TestPyInt.cs` (NUnit), `FooTests.cs`
                 test_path=re.compile(r"(^|/)[^/]*(Tests?|[._-]tests?)/|(^|/)tests?/|Tests?\.cs$|(^|/)Test[A-Z][^/]*\.cs$")),
    LanguageSpec("php", "php", (".php",), virtual_dispatch=True, self_names=("$this", "this", "self", "static"), comment_prefixes=("/**", "//", "#", "/*", "*", "*/"),
                 namespace_kinds=frozenset({"module"}), lexical_members=True, super_names=("parent",),
                 test_path=re.compile(r"(^|/)[Tt]ests?/|Test\.php$")),          # Symfony's `Tests/` too
)}

# Languages whose declarations give types (extract_types._static_type: parameters, locals, fields, return types) that
# type receivers, and where a capitalized name that is no variable is a class (`Integer.parseInt`)
DECLARED_TYPES = frozenset({"java", "csharp", "cpp"})
SCRIPT_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})   # one family: the same query file, JSX aside

# Files that are not parsed as code but still chunked: Markdown by heading, config files whole or by OpenAPI operation.
TEXT_FORMATS: dict[str, tuple[str, ...]] = {
    "markdown": (".md", ".markdown", ".rst", ".txt"),
    "yaml": (".yaml", ".yml"),
    "json": (".json",),
    "toml": (".toml",),
    "gomod": (),              # go.mod, by its name (_BY_NAME): chunked whole; its module path maps Go imports
}
_BY_NAME = {"go.mod": "gomod"}

_BY_EXTENSION = {ext: spec.name for spec in LANGUAGES.values() for ext in spec.extensions}
_BY_EXTENSION.update({ext: fmt for fmt, exts in TEXT_FORMATS.items() for ext in exts})


def language_for_path(path: str) -> str | None:
    """Our language (or text format) name for a repository path, or None when we do not index it."""
    p = PurePosixPath(path)
    return _BY_NAME.get(p.name) or _BY_EXTENSION.get(p.suffix.lower())


# a `.h` file is C or C++: the extension cannot tell, the content can (C headers may say `extern "C"`, not these)
_CPP_HEADER = re.compile(rb"(?m)^[ \t]*(?:namespace[ \t]+\w+|template[ \t]*<|using[ \t]+namespace\b|"
                         rb"class[ \t]+\w+[^;(]*?[:{]|struct[ \t]+\w+[ \t]*:[ \t]*(?:public|private|protected)\b|"
                         rb"(?:public|private|protected)[ \t]*:|virtual\b)|\bstd::\w|\)[ \t]*const[ \t]*[{;]")


def refine_language(language: str, path: str, data: bytes) -> str:
    """The language once the content is known: a C++ header (``.h`` with classes, namespaces or templates) is
    parsed as C++, so its classes, inline methods and virtual declarations become definitions."""
    if language == "c" and path.lower().endswith(".h") and _CPP_HEADER.search(data):
        return "cpp"
    return language


def is_test_path(language: str, path: str) -> bool:
    spec = LANGUAGES.get(language)
    if spec is None:
        return bool(re.search(r"(^|/)(tests?|spec|__tests__)/", path))
    return bool(spec.test_path.search(path))


def parse_go_mod(text: str) -> tuple[str, list[tuple[str, str]], set[str]]:
    """(module path, requirements (path, version), replaced paths) of a go.mod file."""
    module, requires, replaced, block = "", [], set(), None
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if block:
            if line == ")":
                block = None
                continue
            verb, rest = block, line
        else:
            verb, _, rest = line.partition(" ")
            rest = rest.strip()
            if rest == "(":
                block = verb
                continue
        words = [w.strip('"') for w in rest.split()]
        if verb == "module" and words:
            module = words[0]
        elif verb == "require" and len(words) >= 2:
            requires.append((words[0], words[1]))
        elif verb == "replace" and words:
            replaced.add(words[0])
    return module, requires, replaced
