"""Identifier-aware text for the full-text index: Neo4j's analyzers do not split `parseFlow` or `read_blob`."""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache


def _mark_ranges() -> str:
    """The combining marks (Mn, Mc) of the Basic Multilingual Plane as a character-class body: Python allows them
    inside identifiers (Devanagari vowel signs, Thai tone marks) but `\\w` does not match them (~10 ms, once)."""
    ranges: list[list[int]] = []
    for code in range(0x300, min(sys.maxunicode, 0xFFFF) + 1):
        if unicodedata.category(chr(code)) in ("Mn", "Mc"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


# An identifier in any script, as Python defines one (after NFKC): a letter or `_`, then letters, digits, `_`
# and combining marks. On ASCII text exactly the old `[A-Za-z_][A-Za-z0-9_]*`.
MARKS = _mark_ranges()
WORD_CHARS = r"\w" + MARKS
IDENT = rf"[^\W\d][{WORD_CHARS}]*"
_IDENT = re.compile(IDENT)
_ASCII_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")   # the same on ASCII text, and ~40% faster
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def normalize(text: str) -> str:
    """NFKC, as Python normalizes identifiers: `ｆｏｏ` is `foo` and a decomposed `é` the composed one, in the index
    and in queries alike (Neo4j's analyzers do neither). ASCII, nearly all code, is returned as it is."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def shape(word: str) -> str:
    """`größeÄndern` -> `aaaaaAaaaaa`: each character as the ASCII class the camel-case rules look at (upper,
    digit, or lower: letters without case, such as CJK ones, and marks count as lower; anything else `_`)."""
    return "".join("A" if c.isupper() else "0" if c.isdecimal() else
                   "a" if c.isalnum() or unicodedata.category(c)[0] == "M" else "_" for c in word)


def split_identifier(word: str) -> list[str]:
    """`parseHTTPFlow_v2` -> ['parse', 'http', 'flow', 'v', '2'] (lower-cased parts); `größePrüfen` -> ['größe',
    'prüfen']."""
    return list(_split(word))


@lru_cache(maxsize=200_000)   # code repeats its identifiers: the cache saves ~3/4 of search_text's time
def _split(word: str) -> tuple[str, ...]:
    if word.isascii():
        return tuple(p.lower() for part in word.split("_") for p in _CAMEL.findall(part))
    # the same rules on the word's shape, cutting the word where they cut the shape
    return tuple(part[m.start():m.end()].lower() for part in word.split("_") for m in _CAMEL.finditer(shape(part)))


def search_text(*parts: str) -> str:
    """Each identifier as written (lower-cased) followed by its parts, so both `parseflow` and `parse flow` match."""
    out: list[str] = []
    for text in parts:
        for word in _ASCII_IDENT.findall(text) if text.isascii() else _IDENT.findall(normalize(text)):
            pieces = _split(word)
            low = word.lower()
            out.append(low)
            if len(pieces) > 1 or (pieces and pieces[0] != low):
                out.extend(pieces)
    return " ".join(out)
