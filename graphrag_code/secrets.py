"""Secrets never enter the graph: find secret values in source text and replace them, keeping every line.

``redact`` replaces each secret *value* with ``[REDACTED:<kind>]``. It never adds or removes a line break,
so every line number the indexer cites stays exact; a multi-line private key keeps its line structure and
only its base64 body is replaced. A ``Finding`` records the kind and line, never the value.

Kinds, most specific first (an overlap goes to the earlier kind): ``private-key``, ``aws-access-key``,
``aws-secret-key``, ``github-token``, ``gitlab-token``, ``slack-token``, ``stripe-key``, ``google-api-key``,
``anthropic-key``, ``openai-key``, ``sendgrid-key``, ``azure-key`` (a storage or service-bus connection string's
``AccountKey=`` / ``SharedAccessKey=``), ``jwt``, ``auth-header`` (the credential after ``Bearer``, ``Basic``
or an ``Authorization`` header's ``token``), ``url-credentials`` (the password in ``scheme://user:pw@host``),
``connection-string`` (``Password=`` among a connection string's ``;``/``&``-separated or libpq's pairs),
``password-assignment`` and ``high-entropy``.

The last two are heuristics tuned for near-zero false positives on ordinary code (see ``_plausible_value``
and ``_looks_random``): hex-only strings (git SHAs, UUIDs, digests) and word-like identifiers are never
``high-entropy``; placeholders, format fields, variable references and environment lookups are never
``password-assignment``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

KINDS = ("private-key", "aws-access-key", "aws-secret-key", "github-token", "gitlab-token", "slack-token",
         "stripe-key", "google-api-key", "anthropic-key", "openai-key", "sendgrid-key", "azure-key", "jwt",
         "auth-header", "url-credentials", "connection-string", "password-assignment", "high-entropy")


@dataclass(frozen=True)
class Finding:
    kind: str
    line: int        # 1-based line where the secret value starts


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    kind: str
    replacement: str


def _placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


# ---------------------------------------------------------------------------------------------------------
# Token formats with a recognisable prefix

@dataclass(frozen=True)
class _TokenRule:
    kind: str
    triggers: tuple[str, ...]          # cheap substring test; the regex only runs when one is present
    pattern: re.Pattern[str]           # group "v" is the secret value
    check: Callable[[str], bool] | None = None
    lowercase_triggers: bool = False   # test the triggers against the lower-cased text


def _mixed(value: str) -> bool:
    """Random keys mix cases and digits; kebab-case words after a prefix do not."""
    return (any(c.isdigit() for c in value) and any(c.isupper() for c in value)
            and any(c.islower() for c in value))


def _not_doc_example(value: str) -> bool:
    return "EXAMPLE" not in value   # AWS documents AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY


# Patterns start with their literal prefix so `re` can skip ahead fast; the left boundary is checked after.
_E = r"(?![A-Za-z0-9_\-])"             # right boundary of a token
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

_TOKEN_RULES: tuple[_TokenRule, ...] = (
    _TokenRule("aws-access-key", ("AKIA", "ASIA"),
               re.compile(r"(?P<v>A[KS]IA[0-9A-Z]{16})" + _E), _not_doc_example),
    _TokenRule("aws-secret-key", ("aws_secret_access_key", "awssecretaccesskey", "aws-secret-access-key"),
               re.compile(r"aws[_-]?secret[_-]?access[_-]?key[\"']?[ \t]*(?:=>|:=|:|=)[ \t]*[\"']?"
                          r"(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])", re.IGNORECASE),
               _not_doc_example, lowercase_triggers=True),
    _TokenRule("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
               re.compile(r"(?P<v>gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})" + _E)),
    _TokenRule("gitlab-token", ("glpat-",), re.compile(r"(?P<v>glpat-[A-Za-z0-9_\-]{20,})" + _E)),
    _TokenRule("slack-token", ("xox",), re.compile(r"(?P<v>xox[baprs]-[0-9A-Za-z][0-9A-Za-z\-]{8,})" + _E)),
    _TokenRule("stripe-key", ("k_live_",), re.compile(r"(?P<v>[rs]k_live_[0-9A-Za-z]{16,})" + _E)),
    _TokenRule("google-api-key", ("AIza",), re.compile(r"(?P<v>AIza[0-9A-Za-z_\-]{35})" + _E)),
    _TokenRule("anthropic-key", ("sk-ant-",), re.compile(r"(?P<v>sk-ant-[A-Za-z0-9_\-]{20,})" + _E)),
    _TokenRule("openai-key", ("sk-",),
               re.compile(r"(?P<v>sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{40,})" + _E), _mixed),
    _TokenRule("sendgrid-key", ("SG.",), re.compile(r"(?P<v>SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})" + _E)),
    _TokenRule("azure-key", ("accountkey=", "sharedaccesskey="),
               re.compile(r"(?:AccountKey|SharedAccessKey)=(?P<v>[A-Za-z0-9+/]{20,}={0,2})(?![A-Za-z0-9+/=])",
                          re.IGNORECASE), _mixed, lowercase_triggers=True),
    _TokenRule("jwt", ("eyJ",),
               re.compile(r"(?P<v>eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*)" + _E)),
)

# ---------------------------------------------------------------------------------------------------------
# Private keys

_KEY_BEGIN = re.compile(r"-----BEGIN (?P<label>[A-Z0-9 ]{0,20}PRIVATE KEY(?: BLOCK)?)-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]{0,20}PRIVATE KEY(?: BLOCK)?-----")
# base64 runs of the body; never starting right after a backslash, so "\n" escapes in a one-line key survive
_KEY_RUN = re.compile(r"(?<!\\)(?:[A-Za-z0-9+/]{8,}={0,2}|[A-Za-z0-9+/]{1,7}={1,2}|=[A-Za-z0-9+/]{4}(?![A-Za-z0-9+/]))")
_KEY_LINE = re.compile(r"[^\n]*[A-Za-z0-9+/]{16,}[^\n]*\n?")
_MAX_KEY_CHARS = 65_536


def _private_keys(text: str) -> Iterable[_Span]:
    for begin in _KEY_BEGIN.finditer(text):
        start = begin.end()
        end_marker = _KEY_END.search(text, start, start + _MAX_KEY_CHARS)
        if end_marker:
            end = end_marker.start()
        else:  # truncated block: take the following lines that still look like key material
            end = text.find("\n", start) + 1
            while end and (line := _KEY_LINE.match(text, end)) and line.end() > end:
                end = line.end()
            if end <= start:
                continue
        body = text[start:end]
        # A marker mentioned in code (a parser, a docstring) has no key material after it.
        if not re.search(r"[A-Za-z0-9+/]{40,}", body):
            continue
        yield _Span(start, end, "private-key", _KEY_RUN.sub(_placeholder("private-key"), body))


# ---------------------------------------------------------------------------------------------------------
# `password = "value"` and friends

_EOL = "\\n\\r\\x0b\\x0c\\x1c-\\x1e\\x85\\u2028\\u2029"   # every char str.splitlines() breaks on
_PASSWORD = re.compile(
    r"(?:password|passwd|passphrase|secret|secret[_-]?key|api[_-]?key|apikey|auth[_-]?token|access[_-]?token"
    r"|token|access[_-]?key|client[_-]?secret|private[_-]?key"
    # short keys only as a whole word or after a separator: DB_PASS, pwd (not bypass, not cwd)
    r"|(?<![A-Za-z0-9])(?:pass|pwd|credentials?))"
    r"(?![\w-])[\"']?\]?(?P<op>[ \t]*(?:=>|:=|:(?!:)|=(?!=))[ \t]*)"
    r"(?:(?P<q>[\"'`])(?P<quoted>(?:(?!(?P=q))[^" + _EOL + r"]){1,256}?)(?P=q)"
    # unquoted (.env, YAML, properties): the value must be all that is left on the line
    r"|(?P<bare>[^\s\"'`,;(){}\[\]<>]{8,256})(?=[ \t]*;?[ \t]*(?:#[^\n]*)?\r?$))",
    re.MULTILINE,
)
_PASSWORD_ANY_CASE = re.compile(_PASSWORD.pattern, re.IGNORECASE | re.MULTILINE)
_PASSWORD_TRIGGERS = ("pass", "secret", "key", "token", "pwd", "credential")
_FAKE_VALUES = frozenset({"none", "null", "nil", "undefined", "true", "false", "password", "passwd",
                          "secret", "token", "required", "optional", "missing", "default", "notset", "unset",
                          "open sesame"})     # RFC 7617's example password
_FAKE_MARKERS = ("changeme", "change_me", "change-me", "changethis", "***", "...", "${", "#{", "{{",
                 "%(", "%s", "$(", "os.environ", "getenv", "process.env", "env(", "example", "placeholder",
                 "dummy", "redacted", "your_", "your-", "yourpass", "yoursecret", "yourtoken", "fake", "sample",
                 "\u2026", "deadbeef", "blahblah", "foobar", "lorem", "12345678", "abcdefgh", "qwerty")
# words that make a quoted value with spaces prose ("Enter your password", "must be 8 characters"), not a
# passphrase ("correct horse battery staple")
_PROSE = re.compile(r"\b(?:a|an|the|your|my|is|are|be|must|should|please|enter|invalid|required|missing|not|no|"
                    r"for|of|to|in|with|this|that|or|and|if|when|cannot|can't|field|value|user|new|old|\w*pass"
                    r"\w*|\w*secret\w*|\w*token\w*|\w*word\w*|\w*key\w*)\b", re.IGNORECASE)
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CALL = re.compile(r"[A-Za-z_][\w.]*\(.*\)")
_KEY_PREFIX = re.compile(r"[\w.-]{0,40}$")
_SEPARATED_WORDS = re.compile(r"[A-Za-z]+(?:[._-][A-Za-z]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_REFERENCE_STEMS = ("pass", "pwd", "secret", "token", "key", "auth", "cred")
_SELF_DESCRIBING = ("pass", "pwd", "secret", "token")   # a one-case word naming itself is a placeholder
# str.format / Windows %VAR% fields: "{password}", "{0}:{1}", "%HOMEPATH%\\" are filled in, not secrets
_TEMPLATE_FIELD = re.compile(r"\{[\w.]*(?:![rsa])?(?::[^{}]{0,12})?\}|%[A-Za-z_]\w*%")
# `DB_PASSWORD=value` alone on its line (.env, shell, Dockerfile ENV, compose `- KEY=value`, .properties):
# the unquoted value is a literal there, whereas after ` = ` or an indented `key=` (a kwarg) it is a name.
_ENV_LINE_PREFIX = re.compile(r"(?:[ \t]*-[ \t]+|(?:export|env|set)[ \t]+)?[\w.-]*", re.IGNORECASE)


def _names_a_credential(value: str) -> bool:
    """True for an identifier naming a credential field: `userPassword`, `csrf_token`, `auth.secret_key`.

    A stem alone does not make a name: "MyRealPass99" or "hunter2supersecret" are passwords. Field names are
    snake_case/dotted or camelCase without digits; passwords are rarely written that way."""
    if not re.fullmatch(r"[A-Za-z_][\w.]*", value) or not any(stem in value.lower() for stem in _REFERENCE_STEMS):
        return False
    if "_" in value or "." in value:
        return True
    return not any(c.isdigit() for c in value) and re.search(r"[a-z][A-Z]", value) is not None


def _placeholder_like(low: str) -> bool:
    """A placeholder: a marker word, a run of x's making most of it (`xxxxxxxx`, `sk-xxxx`), or `<...>`. A
    password holding "xxx" or "<" somewhere (`maxxxine4Leak9`, `p<ssw0rd>Leak9`) is not one."""
    if any(marker in low for marker in _FAKE_MARKERS):
        return True
    if "xxx" in low and low.count("x") * 2 >= len(low):
        return True
    return low.startswith("<") or low.endswith(">")


def _passphrase(value: str) -> bool:
    """A quoted value with spaces that may be a passphrase: 2-6 words, no prose or credential words, no
    sentence punctuation. "correct horse battery staple" and "Xk9 mP2q Lr7w" are; "Enter your password" and
    "must be at least 8 characters" are not."""
    words = value.split()
    return (2 <= len(words) <= 6 and "\n" not in value and not _PROSE.search(value)
            and all(any(c.isalnum() for c in w) for w in words)     # `"Pwd=" + pwd + ";"`: code between quotes
            and not value.rstrip().endswith((".", "!", "?", ":", ","))
            and not any(c in value for c in "%{}()[]"))


def _plausible_value(value: str, bare: bool, literal: bool = False) -> bool:
    """False for empty, placeholder, templated, referenced or word-like values; True for what may be real.

    ``literal``: an unquoted value known to be a string (``KEY=value`` on a line of its own), not a name."""
    low = value.lower()
    if len(value) < 8 or low in _FAKE_VALUES:
        return False
    if any(c.isspace() for c in value):
        return not bare and _passphrase(value) and not _placeholder_like(low)
    if _placeholder_like(low) or len(set(value)) <= 2 or _TEMPLATE_FIELD.search(value):
        return False
    # `$HOME`, `${VAR}`, `$(cmd)` are references; `$3cretQz8x` (a digit after `$`) or a bcrypt `$2b$...` is not
    if re.match(r"\$[A-Za-z_{(]", value) or value.startswith(("/", "./", "../", "~/", "http://", "https://",
                                                               "file:")):
        return False
    if _DOTTED_NAME.fullmatch(value) or _SEPARATED_WORDS.fullmatch(value) or _CALL.fullmatch(value):
        return False   # a module path, attribute, constant name, kebab/snake words or a call: not a secret
    if (bare and not literal and re.fullmatch(r"[A-Za-z_][\w.]*", value) and not any(c.isdigit() for c in value)
            and any(stem in low for stem in _REFERENCE_STEMS)) or _names_a_credential(value):
        # a name: `password: userPassword`, `CHALLENGE_PASSWORD: "challengePassword"`; with digits it is a
        # value (YAML's `password: MyPass2024x`, `api_key: AbKey8392xQ`)
        return False
    if value.isalpha() and (value.islower() or value.isupper()) and any(w in low for w in _SELF_DESCRIBING):
        return False   # "mypassword", "newsecret", "nopasswd": a placeholder like "password" (Django's tests)
    # A number is more likely a setting (`MAX_TOKEN=100000000`); unquoted, a plain word is more likely a
    # variable (`token = response`, `password: SecretStr`) unless the line is a .env-style `KEY=word`.
    return not (bare and (value.isdigit() or (not literal and re.fullmatch(r"[A-Za-z_]+", value))))


def _file_path(value: str) -> bool:
    """A relative path of lower-case names: a file with an extension (`lib/module/path.py`) or folders of words
    (`config/secrets`); `ab12/cd34ef` (digits, no extension) may be a password."""
    return bool(_PATH_LIKE.fullmatch(value)) and ("." in value.rsplit("/", 1)[-1] or
                                                   all(re.fullmatch(r"[a-z_-]+", p) for p in value.split("/")))


def _password_assignments(text: str, lower: str) -> Iterable[_Span]:
    if not any(t in lower for t in _PASSWORD_TRIGGERS):
        return
    # Matching the lower-cased text is ~7x faster than IGNORECASE; it only works while offsets agree.
    same = len(lower) == len(text)
    haystack = lower if same else text
    for m in (_PASSWORD if same else _PASSWORD_ANY_CASE).finditer(haystack):
        prefix = _KEY_PREFIX.search(haystack, max(0, m.start() - 40), m.start())
        if "public" in ((prefix.group() if prefix else "") + m.group()[:16]).lower():
            continue   # publicKeyToken="…", public_key = "…": public by name
        group = "quoted" if m.group("quoted") is not None else "bare"
        value = text[m.start(group):m.end(group)]
        literal = (group == "bare" and m.group("op") == "="
                   and _ENV_LINE_PREFIX.fullmatch(haystack, haystack.rfind("\n", 0, m.start()) + 1, m.start()))
        if _file_path(value):
            continue   # `pwd=lib/module/path.py`, `private_key: certs/server.key`: where a secret is, at most
        if _plausible_value(value, bare=group == "bare", literal=bool(literal)):
            yield _Span(m.start(group), m.end(group), "password-assignment", _placeholder("password-assignment"))


# ---------------------------------------------------------------------------------------------------------
# Authorization: Bearer <token>, Basic <base64 of user:pw>, token <token>

_B64TOKEN = r"(?P<v>[A-Za-z0-9._~+/\-]+=*)(?![\w.~+/=-])"   # RFC 6750 b64token
# "Bearer"/"Basic" name an HTTP auth scheme wherever they are followed by a credential (headers, curl -H,
# env values); "token" is too common a word, so only right after an Authorization key (GitHub, DRF "Token").
# Each pattern starts with its literal so `re` can skip ahead fast (an alternation is ~10x slower).
_AUTH_PATTERNS = tuple(
    (trigger, re.compile(trigger + rest), re.compile(trigger + rest, re.IGNORECASE)) for trigger, rest in (
        ("bearer", r"[ \t]+" + _B64TOKEN),
        ("basic", r"[ \t]+" + _B64TOKEN),
        # a word followed by more is a scheme: "Authorization: AWS4-HMAC-SHA256 Credential=…"
        ("authorization", r"[\"'`]?\]?[ \t]*(?:=>|:=|:|=|,)[ \t]*[\"'`]?[ \t]*(?:token[ \t]+)?" + _B64TOKEN
                          + r"(?![ \t]+\w)"),
    ))


def _opaque_token(value: str) -> bool:
    """True for an opaque credential: long, letters and digits, not a name, word list or placeholder.

    Real bearer tokens are 20+ chars of mixed material; "Bearer faketoken", "Bearer YOUR_TOKEN", "Bearer realm"
    and the scheme word itself ("Authorization": "Bearer ...") fail this."""
    core = value.rstrip("=")
    low = core.lower()
    if len(core) < 16 or not any(c.isdigit() for c in core) or not any(c.isalpha() for c in core):
        return False
    if _placeholder_like(low) or len(set(low)) <= 4:
        return False
    return not (_DOTTED_NAME.fullmatch(core) or _SEPARATED_WORDS.fullmatch(core))


def _basic_credentials(value: str) -> bool:
    """True when value is base64 of a printable "user:password" whose password (or lone user, an API key)
    is plausible: the RFC's "Aladdin:open sesame" or "user:pass" are examples, not credentials."""
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    user, colon, password = decoded.partition(":")
    secret = password or user     # with spaces: RFC 7617's own example, "open sesame", not a passphrase rule
    return bool(colon) and decoded.isprintable() and not any(c.isspace() for c in secret) and \
        _plausible_value(secret, bare=False)


def _auth_headers(text: str, lower: str) -> Iterable[_Span]:
    same = len(lower) == len(text)
    haystack = lower if same else text
    for trigger, pattern, any_case in _AUTH_PATTERNS:
        if trigger not in lower:
            continue
        for m in (pattern if same else any_case).finditer(haystack):
            before = haystack[m.start() - 1] if m.start() > 0 else " "
            if before.isalnum() or (trigger != "authorization" and before in "_-"):
                continue   # "HTTPBasic", "AggregationAuthorization"; HTTP_AUTHORIZATION is a header
            value = text[m.start("v"):m.end("v")]
            if _basic_credentials(value) if trigger == "basic" else _opaque_token(value):
                yield _Span(m.start("v"), m.end("v"), "auth-header", _placeholder("auth-header"))


# ---------------------------------------------------------------------------------------------------------
# scheme://user:password@host

# the user may be empty (`redis://:pw@host`); the password may hold "@" (up to the last one before the host)
_URL_CREDENTIALS = re.compile(r"://[^\s/:@\"'<>`\[\]]{0,64}:(?P<v>[^\s/:\"'<>`\[\]]{3,128})@")
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_URL_FAKES = frozenset({"pass", "password", "passwd", "pwd", "secret", "xxx", "xxxx", "****", "pw", "changeme",
                        "token", "user", "username"})


def _url_credentials(text: str) -> Iterable[_Span]:
    if "://" not in text:
        return
    for m in _URL_CREDENTIALS.finditer(text):
        value = m.group("v")
        low = value.lower()
        if low in _URL_FAKES or (any(w in low for w in ("pass", "word", "secret", "pwd", "xxx")) and
                                 not any(c.isdigit() for c in _PERCENT_ESCAPE.sub("", value))):
            # user:password@, user:pass%20pass@, p%C3%A4ssword@: examples, not credentials; with a digit it is
            # a password (`MongoPass987`, `S3cr3tPassw0rd!`: a QA pass found them stored)
            continue
        plain = value.replace("@", "")       # `foo:bar@baz@host`: a URL validator's test, words
        if value.startswith(("$", "%", "{", "<")) or len(set(value)) <= 1 or (plain.isalpha() and plain.islower()):
            continue
        yield _Span(m.start("v"), m.end("v"), "url-credentials", _placeholder("url-credentials"))


# ---------------------------------------------------------------------------------------------------------
# Password=…; in a connection string that is no URL: ADO.NET / ODBC (`Server=db;User Id=sa;Password=…;`),
# JDBC parameters (`jdbc:postgresql://db/x?user=root&password=…`), libpq (`host=db user=app password=…`)

_CONNECTION_PASSWORD = re.compile(
    r"(?P<sep>[;&?\"'`]|[ \t])[ \t]*(?:password|passwd|pwd)[ \t]*=[ \t]*(?:\\[\"'])?"
    # ODBC quotes a value holding `;` in braces (`PWD={x;y}`); else it runs to a `;`, `&`, space or quote
    r"(?:\{(?P<braced>[^}\n]{1,256})\}|(?P<v>[^;&\s\"'`\\]{1,256})(?=[;&\s\"'`\\]|$))",
    re.IGNORECASE | re.MULTILINE)
_LIBPQ_KEYS = re.compile(r"(?<![\w.-])(?:host|hostaddr|dbname|user|port|sslmode)=\S", re.IGNORECASE)
_PATH_LIKE = re.compile(r"[a-z0-9_.-]+(?:/[a-z0-9_.-]+)+")


def _connection_passwords(text: str, lower: str) -> Iterable[_Span]:
    """The password of a key=value connection string: after `;`, `&`, `?` or a quote, or after a space on a line with
    libpq's keys (`host=`, `dbname=`, `user=`); its end is a `;`, `&`, space or quote, not the line's. Judged as
    an unquoted assignment's value is: a lower-case word (`?password=incorrect`, `password=credential,` ending a
    line of keyword arguments) or a path is no password."""
    if "pwd" not in lower and "passw" not in lower:
        return
    for m in _CONNECTION_PASSWORD.finditer(text):
        group = "braced" if m.group("braced") is not None else "v"
        value = m.group(group)
        if m.group("sep") in " \t":
            line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
            if not _LIBPQ_KEYS.search(line) or any(c in value for c in "(),[]{}<>"):
                continue        # `f(user, password=pw)`: a keyword argument, left to password-assignment
        if _PATH_LIKE.fullmatch(value) or not _plausible_value(value, bare=True):
            continue
        yield _Span(m.start(group), m.end(group), "connection-string", _placeholder("connection-string"))


# ---------------------------------------------------------------------------------------------------------
# High-entropy string literals

_LITERAL = re.compile(r"([\"'`])(?P<v>[A-Za-z0-9+/=_\-]{24,1024})\1")
_HEX = re.compile(r"[0-9a-fA-F\-]+")
_WORD = re.compile(r"[A-Z][a-z]{2,}|[a-z]{4,}")
_VOWEL = re.compile(r"[aeiouy]", re.IGNORECASE)
_TOKEN = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")   # CamelCase / snake_case / kebab-case pieces
_HASH_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-", "md5-")   # subresource-integrity digests


def _entropy(value: str) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _char_class(ch: str) -> int:
    return 0 if ch.islower() else 1 if ch.isupper() else 2 if ch.isdigit() else 3


def _looks_random(value: str) -> bool:
    """True for a literal that looks like generated key material rather than a name, path or hash.

    Calibrated on 3,000 random base64/base64url/alphanumeric tokens per length (recall ~95% at 24 chars,
    ~98% at 40) against the 7,500 distinct literals of /usr/include, the Python stdlib and site-packages:
    mixed case and digits, entropy near that of random base64 of the same length, frequent changes of
    character class, and not made of words (CamelCase, snake_case, kebab-case identifiers)."""
    n = len(value)
    if _HEX.fullmatch(value) or value.lower().startswith(_HASH_PREFIXES) or not _mixed(value):
        return False
    if "=" in value.rstrip("="):   # "NAME=/usr/bin/x": base64 has "=" only as trailing padding
        return False
    if _entropy(value) < min(5.0, 0.55 + 0.728 * math.log2(n)):   # ~1st percentile of random base64
        return False
    changes = sum(_char_class(a) != _char_class(b) for a, b in zip(value, value[1:]))
    if changes / (n - 1) < 0.35:
        return False
    # Identifiers are made of longer tokens (Gost, Param, 3410) and real words; random text of short ones.
    tokens = _TOKEN.findall(value)
    mean_token = sum(map(len, tokens)) / max(1, len(tokens))
    wordy = sum(len(w) for w in _WORD.findall(value) if _VOWEL.search(w)) / n
    return mean_token + 2 * wordy < 3.6


def _high_entropy(text: str) -> Iterable[_Span]:
    for m in _LITERAL.finditer(text):
        if _looks_random(m.group("v")):
            yield _Span(m.start("v"), m.end("v"), "high-entropy", _placeholder("high-entropy"))


# ---------------------------------------------------------------------------------------------------------

def _candidates(text: str) -> Iterable[_Span]:
    """Every candidate span, in order of precedence."""
    yield from _private_keys(text) if "-----BEGIN" in text else ()
    lower = text.lower()
    for rule in _TOKEN_RULES:
        haystack = lower if rule.lowercase_triggers else text
        if any(t in haystack for t in rule.triggers):
            for m in rule.pattern.finditer(text):
                if m.start("v") > 0 and text[m.start("v") - 1] in _TOKEN_CHARS:
                    continue
                if rule.check is None or rule.check(m.group("v")):
                    yield _Span(m.start("v"), m.end("v"), rule.kind, _placeholder(rule.kind))
    yield from _auth_headers(text, lower)
    yield from _url_credentials(text)
    yield from _connection_passwords(text, lower)
    yield from _password_assignments(text, lower)
    yield from _high_entropy(text)


def redact(text: str) -> tuple[str, list[Finding]]:
    """text with every secret value replaced by ``[REDACTED:<kind>]`` (same lines), and what was found."""
    accepted: list[_Span] = []     # sorted by start, never overlapping
    starts: list[int] = []
    for span in _candidates(text):
        i = bisect_left(starts, span.start)
        if (i > 0 and accepted[i - 1].end > span.start) or (i < len(accepted) and accepted[i].start < span.end):
            continue   # overlaps a span of an earlier, more specific kind
        accepted.insert(i, span)
        starts.insert(i, span.start)
    if not accepted:
        return text, []
    pieces: list[str] = []
    findings: list[Finding] = []
    pos, line = 0, 1
    for span in accepted:
        line += text.count("\n", pos, span.start)
        findings.append(Finding(span.kind, line))
        line += text.count("\n", span.start, span.end)
        pieces += [text[pos:span.start], span.replacement]
        pos = span.end
    pieces.append(text[pos:])
    return "".join(pieces), findings


def redact_bytes(data: bytes) -> tuple[bytes, list[Finding]]:
    """redact() for raw file bytes. Invalid UTF-8 bytes come back unchanged (surrogateescape), so a later
    decode still notices them; the input itself is returned when nothing is found."""
    text = data.decode("utf-8", "surrogateescape")
    redacted, findings = redact(text)
    return (redacted.encode("utf-8", "surrogateescape") if findings else data), findings


def summarize(findings: Iterable[Finding]) -> dict[str, int]:
    """Count of findings per kind, e.g. for the index report."""
    return dict(Counter(f.kind for f in findings))
