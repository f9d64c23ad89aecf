"""Identifier-aware text for the full-text index: Neo4j's analyzers do not split `parseFlow` or `read_blob`."""

from __future__ import annotations

import re
from functools import lru_cache

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(word: str) -> list[str]:
    """`parseHTTPFlow_v2` -> ['parse', 'http', 'flow', 'v', '2'] (lower-cased parts)."""
    return list(_split(word))


@lru_cache(maxsize=200_000)   # code repeats its identifiers: the cache saves ~3/4 of search_text's time
def _split(word: str) -> tuple[str, ...]:
    return tuple(p.lower() for part in word.split("_") for p in _CAMEL.findall(part))


def search_text(*parts: str) -> str:
    """Each identifier as written (lower-cased) followed by its parts, so both `parseflow` and `parse flow` match."""
    out: list[str] = []
    for text in parts:
        for word in _IDENT.findall(text):
            pieces = _split(word)
            low = word.lower()
            out.append(low)
            if len(pieces) > 1 or (pieces and pieces[0] != low):
                out.extend(pieces)
    return " ".join(out)
