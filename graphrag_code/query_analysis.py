"""What a search query contains: identifiers, paths, stack-trace locations, quoted strings, prose.

Identifier-like and location queries are routed lexical-first; prose goes to every channel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import small_int
from .textutil import IDENT, MARKS, WORD_CHARS, normalize, shape, split_identifier

_STOP = frozenset("""a an and are as at be by can do does for from how i in is it its me of on or show
that the their them then there these this to was what when where which who why will with would you your
find get code function method class defined define definition implemented implement implementation
handled handle handles""".split())
# irregular past forms of verbs code is named after (the full-text index's English stemmer strips -ed and -s,
# not these); ambiguous ones (left, saw, lay) are not here
_IRREGULAR = {"built": "build", "found": "find", "made": "make", "written": "write", "wrote": "write",
              "sent": "send", "thrown": "throw", "threw": "throw", "held": "hold", "kept": "keep", "got": "get",
              "gotten": "get", "ran": "run", "bound": "bind", "caught": "catch", "chosen": "choose", "chose": "choose",
              "given": "give", "gave": "give", "taken": "take", "took": "take", "begun": "begin", "began": "begin",
              "shown": "show", "known": "know", "drawn": "draw", "hidden": "hide", "broken": "break",
              "broke": "break", "spun": "spin", "fed": "feed", "led": "lead", "lost": "lose", "meant": "mean",
              "paid": "pay", "said": "say", "sold": "sell", "told": "tell", "thought": "think", "stuck": "stick",
              "struck": "strike", "went": "go", "gone": "go", "won": "win", "torn": "tear", "worn": "wear",
              "woken": "wake", "frozen": "freeze"}
_MAX_LINE = 2**31 - 1        # no indexed file is longer; a larger line is capped (see _line)
_PY_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_JAVA_FRAME = re.compile(r"at [\w$.<>]+\(([\w$-]+\.\w+):(\d+)\)")
_PATH_LINE = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:py|js|mjs|cjs|ts|tsx|jsx|go|java|rs|c|h|cc|cpp|hpp|rb|cs|php)):(\d+)")
_PATH = re.compile(r"(?:[\w.-]+/)+[\w.-]+\.\w+|[\w-]+\.(?:py|js|mjs|ts|tsx|go|java|rs|c|h|cc|cpp|hpp|rb|cs|php)\b")
_QUOTED = re.compile(r"\"([^\"]{3,200})\"|'([^']{3,200})'|`([^`]{2,200})`")
# a name in any script (`größe`, `计算总和`, `$scope`), qualified or not (`OrderService.cancel`, `Foo::bar`)
_NAME = rf"(?:[^\W\d]|\$)[{WORD_CHARS}$]*(?:(?:\.|::|->|#)(?:[^\W\d]|\$)[{WORD_CHARS}$]*)*"
_WORD = re.compile(_NAME)
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_TEST_WORDS = frozenset({"test", "tests", "testing", "spec", "specs", "fixture", "fixtures"})
# ... except where the question is how code tells tests apart: "decides if a path is a test file", "how are test
# files detected" ask for the detector, which the tests that exercise it would bury (fourth QA pass: all ten hits
# were tests, the detector not among them)
_TEST_DETECTION = re.compile(
    r"\b(?:is|as)\s+an?\s+(?:test|spec|fixture)\b"
    r"|\b(?:test|spec|fixture)s?\s+(?:files?|paths?|functions?|modules?|directories)\s+(?:are\s+|is\s+|get\s+)?"
    r"(?:detected|recogni[sz]ed|identified|classified|marked|flagged|told apart|excluded|skipped)\b"
    r"|\b(?:detects?|recogni[sz]es?|identif(?:y|ies)|classif(?:y|ies)|tells? apart)\s+(?:the\s+)?"
    r"(?:test|spec|fixture)s?\b", re.I)
# questions about a relation of a named symbol: "what calls X", "who uses X", "callers of X", "where is X called",
# "which operators are built on top of X" (callers); "what does X call", "callees of X" (callees)
_ASKS_CALLEES = re.compile(r"\bwhat (?:functions |methods )?does \S+ (?:call|invoke|use)\b|\bcallees? of\b", re.I)
_ASKS_CALLERS = re.compile(
    r"\b(?:what|who|which(?: \w+){0,2})\s+(?:calls?|invokes?|uses?)\b|\bcallers? of\b|\bcalled (?:from|by)\b|"
    r"\bwhere (?:is|are) \S+ (?:called|used|invoked)\b|\bbuilt on(?: top of)?\b", re.I)
# the name in X's position of those questions: their target even when it is a plain word ("what calls sign?")
_X = rf"[`'\"]?({_NAME})(?:\(\))?[`'\"]?"
_CALLEE_TARGET = re.compile(rf"\bwhat (?:functions |methods )?does {_X} (?:call|invoke|use)\b|\bcallees? of {_X}", re.I)
_CALLER_TARGET = re.compile(
    rf"\b(?:what|who|which(?: \w+){{0,2}})\s+(?:calls?|invokes?|uses?)\s+{_X}|\bcallers? of {_X}|"
    rf"\bwhere (?:is|are) {_X} (?:called|used|invoked)\b|\bbuilt on(?: top of)? {_X}", re.I)
# words in that position that name no symbol: "what calls the database", "who uses this"
_NOT_TARGETS = frozenset("""a an the this that these those it its my our your their his her any each every all
some me us them which what who there here into to for from in on with of""".split())


def is_identifier(word: str) -> bool:
    """`parseFlow`, `read_blob`, `OrderService.cancel`, `Foo::bar`, `HTTPServer` look like code; `request` doesn't."""
    if any(sep in word for sep in (".", "::", "->", "#")):
        return True
    if "_" in word.strip("_") or word.startswith("__"):
        return True
    return bool(re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]|^[A-Z][a-z]+[A-Z]", word if word.isascii() else shape(word)))


@dataclass
class QueryAnalysis:
    text: str
    identifiers: list[str] = field(default_factory=list)     # as written: parseFlow, OrderService.cancel
    names: list[str] = field(default_factory=list)           # what symbol names to look up: parseFlow, cancel
    locations: list[dict] = field(default_factory=list)      # [{path, line}] from stack traces / path:line
    paths: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)         # word runs of an error message, matched in order
    terms: list[str] = field(default_factory=list)           # lower-cased content words and identifier parts
    about_tests: bool = False
    relation: str | None = None          # "caller" / "callee": the question asks for that relation of a name
    target: str | None = None            # the name it asks about: `sign` in "what calls sign?"

    @property
    def lexical_first(self) -> bool:
        return bool(self.identifiers or self.locations or self.quoted or self.paths)

    def lucene(self) -> str:
        """A Lucene query over the identifier-split ``search_text``: exact identifiers boosted, then parts and
        words; every special character escaped, so user text can never change the query's structure."""
        parts: list[str] = []
        for q in [*self.quoted, *self.phrases]:
            words = [w.lower() for w in _WORD.findall(q)]
            if len(words) > 1:   # a one-word quote in a message is usually user data ('purple'), not code
                parts.append('"' + " ".join(_escape(w) for w in words) + '"^2')
        for ident in self.identifiers:
            for piece in re.split(r"\.|::|->|#", ident):
                if piece:
                    parts.append(f"{_escape(piece.lower())}^3")
        parts.extend(_escape(t) for t in self.terms)
        return " ".join(dict.fromkeys(parts)) or _escape(self.text.lower()[:200]) or "*"


_QUESTION_START = re.compile(r"^\s*(where|how|what|which|why|when|who|is|are|does|do|can|should|show|find|list)\b", re.I)
_LETTER = r"[^\W\d_]"
_MESSAGE_RUN = re.compile(rf"{_LETTER}(?:{_LETTER}|[ {MARKS}])+{_LETTER}")   # letters and spaces


def _is_message(text: str) -> bool:
    """An error message or log line pasted as the query, rather than a question about the code."""
    return not text.rstrip().endswith("?") and not _QUESTION_START.match(text)


def _escape(term: str) -> str:
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def _line(digits: str) -> int:
    """A location's line, capped where Neo4j's integers end: ``views.py:9223372036854775808`` still names the
    file, and the driver refuses an integer past 2**63 - 1 (an OverflowError it reports as its own). Python
    reads no int of over 4,300 digits (a ValueError: a pasted `app.py:` and 5,000 nines was a 500)."""
    line = small_int(digits)
    return _MAX_LINE if line is None else min(line, _MAX_LINE)


def analyze(query: str) -> QueryAnalysis:
    a = QueryAnalysis(text=query)
    query = normalize(query)      # as the index's text is: `ｆｏｏ` is `foo`, `é` one character
    for m in _PY_FRAME.finditer(query):
        a.locations.append({"path": _relative(m.group(1)), "line": _line(m.group(2))})
    for m in _JAVA_FRAME.finditer(query):
        a.locations.append({"path": m.group(1), "line": _line(m.group(2))})
        method = m.group(0)[3:].split("(")[0]
        segments = method.split(".")
        a.identifiers.append(method)
        a.names.extend([".".join(segments[-2:]), segments[-1]])
        a.terms.extend(split_identifier(segments[-1]))
    for m in _PATH_LINE.finditer(query):
        loc = {"path": _relative(m.group(1)), "line": _line(m.group(2))}
        if loc not in a.locations:
            a.locations.append(loc)
    rest = _PATH_LINE.sub(" ", _JAVA_FRAME.sub(" ", _PY_FRAME.sub(" ", query)))
    a.paths = list(dict.fromkeys(_PATH.findall(rest)))
    a.quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(rest)]
    if _is_message(rest):
        a.phrases = [run for run in _MESSAGE_RUN.findall(_QUOTED.sub(" | ", rest)) if len(run.split()) >= 3]
    for n, word in enumerate(re.findall(IDENT, rest)):
        if n and word[:1].isupper() and word[1:].islower() and len(word) > 2 and word.lower() not in _STOP:
            a.names.append(word)   # `the Command struct`: a capitalised word mid-sentence may be a type
    for word in _WORD.findall(_PATH.sub(" ", rest)):
        if word.lower() in _STOP:
            continue
        if is_identifier(word):
            a.identifiers.append(word)
            segments = [s for s in re.split(r"\.|::|->|#", word) if s]
            # `com.acme.Foo.bar` -> also `Foo.bar` and `bar`, the forms qualified names take in the graph
            a.names.extend([word, ".".join(segments[-2:]), segments[-1]] if len(segments) > 1 else [word])
            a.terms.extend(split_identifier(segments[-1]))
        else:
            low = word.lower()
            if len(low) > 1:
                a.terms.append(low)
                if low in _IRREGULAR:      # "where is the prompt built": the index's stemmer makes no `build` of it
                    a.terms.append(_IRREGULAR[low])
    if not a.locations:      # a stack trace's "which frame calls my code" is about its frames
        relation = "callee" if _ASKS_CALLEES.search(rest) else "caller" if _ASKS_CALLERS.search(rest) else None
        a.target = _target(_PATH.sub(" ", rest), relation, a.identifiers)
        if a.target and a.target not in a.identifiers:   # a plain word: a name to look up (search uses it
            a.names.insert(0, a.target)                  # only where the repository has a symbol of that name)
        if a.identifiers or a.target:
            a.relation = relation
    alone = _WORD.findall(rest)
    if not a.names and len(alone) == 1 and rest.strip().strip("`'\"()") == alone[0] and alone[0].lower() not in _STOP:
        a.names.append(alone[0])     # `helper` alone: a one-word query is most often a name (QA: `helper2` ranked first)
    a.identifiers = list(dict.fromkeys(a.identifiers))
    a.names = list(dict.fromkeys(a.names))
    a.names = a.names[:12]
    a.terms = [t for t in dict.fromkeys(a.terms) if t not in _STOP]
    if a.target and a.target not in a.identifiers and a.target.lower() not in a.terms:
        a.terms.append(a.target.lower())         # "what calls get?": a name, even where it is a stop word
    a.about_tests = bool(_TEST_WORDS & {w.lower() for w in _WORD.findall(query)}) and not _TEST_DETECTION.search(query)
    return a


def _target(text: str, relation: str | None, identifiers: list[str]) -> str | None:
    """The name in X's position of "what calls X" / "what does X call": an identifier of the query, or a plain
    word (`sign`) that is_identifier alone would not take for code; None for "what calls the database"."""
    m = (_CALLEE_TARGET if relation == "callee" else _CALLER_TARGET).search(text) if relation else None
    word = next((g for g in m.groups() if g), None) if m else None
    if not word or word.lower() in _NOT_TARGETS:
        return None
    return word if word in identifiers or not is_identifier(word) else None   # not a path's `auth.py`


def _relative(path: str) -> str:
    """Stack traces carry absolute or site-packages paths: drop what is outside any repository (site-packages/,
    node_modules/, ...), keep the rest, absolute paths whole (location_seeds takes their longest indexed tail)."""
    path = path.replace("\\", "/")
    for marker in ("site-packages/", "dist-packages/", "node_modules/", "/src/"):
        if marker in path:
            path = path.split(marker)[-1]
    return path.lstrip("./")
