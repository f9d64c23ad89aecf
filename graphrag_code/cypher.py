"""Named Cypher statements loaded from ``cypher/*.cypher``; no Cypher is assembled in Python.

Each file starts with a header of ``//`` lines::

    // name: promote                      must equal the file name
    // Turn the staged nodes of a run ...  what it does and returns (shown by --explain)
    // params: repo, run                  every $parameter the body uses, and no other

A file may hold several statements separated by ``;`` at the end of a line (the schema does); they share the
header. Headers are checked when the file loads, parameters again on every call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .config import CYPHER_DIR
from .errors import QueryFileError

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`")


@dataclass(frozen=True)
class Statement:
    name: str
    description: str
    params: frozenset[str]
    texts: tuple[str, ...]     # one or more statements, run in order

    def check(self, given: dict) -> None:
        missing, extra = self.params - set(given), set(given) - self.params
        if missing or extra:
            raise QueryFileError(f"{self.name}.cypher called with wrong parameters: "
                                 f"missing {sorted(missing)}, unexpected {sorted(extra)}")


def _parse(path: Path) -> Statement:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = [ln[2:].strip() for ln in lines if ln.startswith("//")]
    body = "\n".join(ln for ln in lines if not ln.startswith("//")).strip()
    fields = {k.strip(): v.strip() for k, _, v in (h.partition(":") for h in header) if k.strip() in ("name", "params")}
    name = fields.get("name")
    if name != path.stem:
        raise QueryFileError(f"{path.name}: header 'name: {name}' must equal the file name")
    if "params" not in fields:
        raise QueryFileError(f"{path.name}: header has no 'params:' line")
    declared = frozenset(p.strip() for p in fields["params"].split(",") if p.strip())
    used = frozenset(_PARAM.findall(_STRING.sub("", body)))
    if declared != used:
        raise QueryFileError(f"{path.name}: declared params {sorted(declared)} but the body uses {sorted(used)}")
    description = " ".join(h for h in header if not h.startswith(("name:", "params:")))
    texts = tuple(t.strip() for t in re.split(r";\s*$", body, flags=re.M) if t.strip())
    if not texts:
        raise QueryFileError(f"{path.name}: no statement")
    return Statement(name, description, declared, texts)


@lru_cache(maxsize=None)
def load(name: str, directory: Path = CYPHER_DIR) -> Statement:
    path = directory / f"{name}.cypher"
    if not path.is_file():
        raise QueryFileError(f"no Cypher statement named {name!r} (looked for {path})")
    return _parse(path)


def load_all(directory: Path = CYPHER_DIR) -> dict[str, Statement]:
    """Every statement under ``directory`` (recursively), checked: used by tests and --explain listings.
    Names must be unique across folders, so one file can never hide another."""
    out: dict[str, Statement] = {}
    for p in sorted(directory.rglob("*.cypher")):
        if p.stem in out:
            raise QueryFileError(f"two Cypher files are named {p.stem!r}: {p.relative_to(directory)} and another")
        out[p.stem] = _parse(p)
    return out
