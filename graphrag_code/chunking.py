"""Chunks: retrievable units with exact line ranges, cut on syntax (code) or structure (Markdown, config).

Invariant the tests check: every non-blank line of an indexed file lies in at least one chunk, so a parse
error or an unusual construct never makes code disappear from search.
"""

from __future__ import annotations

import re
from itertools import accumulate

import tree_sitter_language_pack as ts_pack

from .languages import LANGUAGES
from .models import Chunk, Definition

_TOKEN = re.compile(r"\w+|[^\w\s]")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+:._])\1{2,}\s*$")   # a setext / reStructuredText title's underline
_HTTP_METHODS = frozenset({"get", "put", "post", "delete", "patch", "options", "head", "trace"})


class LineTokens:
    """Token counts per line with prefix sums, so the size of any line range costs O(1)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._prefix = [0, *accumulate(len(_TOKEN.findall(line)) for line in lines)]

    def count(self, start: int, end: int) -> int:
        """Tokens in 1-based inclusive lines start..end."""
        return self._prefix[end] - self._prefix[start - 1]

    def text(self, start: int, end: int) -> str:
        return "\n".join(self.lines[start - 1:end])

    def blank(self, line: int) -> bool:
        return not self.lines[line - 1].strip()


def windows(tok: LineTokens, start: int, end: int, budget: int) -> list[tuple[int, int]]:
    """Split lines start..end into consecutive ranges of at most ``budget`` tokens (a longer line stays whole)."""
    out, first, size = [], start, 0
    for line in range(start, end + 1):
        n = tok.count(line, line)
        if size and size + n > budget:
            out.append((first, line - 1))
            first, size = line, 0
        size += n
    out.append((first, end))
    return out


def _trim(tok: LineTokens, start: int, end: int) -> tuple[int, int] | None:
    while start <= end and tok.blank(start):
        start += 1
    while end >= start and tok.blank(end):
        end -= 1
    return (start, end) if start <= end else None


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for line in lines:
        if runs and runs[-1][1] == line - 1:
            runs[-1] = (runs[-1][0], line)
        else:
            runs.append((line, line))
    return runs


def packed(tok: LineTokens, lines: list[int], budget: int) -> list[tuple[int, int]]:
    """Ranges over ``lines`` (the non-blank lines left to chunk, ascending). Paragraphs separated only by blank
    lines are packed together up to ``budget`` tokens, so a module docstring or a block of imports and constants
    is one chunk rather than one per paragraph; a line a definition covers (one missing from ``lines``) always
    ends a range. A paragraph over ``budget`` is windowed and joins nothing."""
    out: list[tuple[int, int]] = []
    can_join = False
    for start, end in _runs(lines):
        if tok.count(start, end) > budget:
            out.extend(windows(tok, start, end, budget))
            can_join = False
        elif (can_join and all(tok.blank(ln) for ln in range(out[-1][1] + 1, start))
              and tok.count(out[-1][0], end) <= budget):
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
            can_join = True
    return out


# -- code -------------------------------------------------------------------------------------------------------
def code_chunks(lines: list[str], defs: list[Definition], budget: int, container_kinds: frozenset[str],
                test_name: re.Pattern[str] | None = None) -> list[Chunk]:
    """Chunks of a source file: one per definition (split when over ``budget``), and the module's own code. A
    container too long for one chunk, or a test suite (a test holding others: ``describe queryCache``, matching
    ``test_name``), keeps its own lines only: its members have chunks of their own."""
    tok = LineTokens(lines)
    children: dict[int, list[int]] = {}
    for i, d in enumerate(defs):
        if d.parent is not None:
            children.setdefault(d.parent, []).append(i)
    chunks: list[Chunk] = []
    for i, d in enumerate(defs):
        if tok.count(d.start_line, d.end_line) <= budget:
            chunks.append(Chunk("symbol", d.start_line, d.end_line, tok.text(d.start_line, d.end_line), definition=i))
        elif (d.kind in container_kinds or test_name is not None and test_name.match(d.name)) and children.get(i):
            chunks.extend(_container_parts(tok, defs, i, children[i], budget))
        else:
            chunks.extend(_function_parts(tok, d, i, budget))
    top_covered = {ln for d in defs if d.parent is None for ln in range(d.start_line, d.end_line + 1)}
    module_lines = [ln for ln in range(1, len(lines) + 1) if ln not in top_covered and not tok.blank(ln)]
    kind = "module" if defs else "file"
    for start, end in packed(tok, module_lines, budget):
        trimmed = _trim(tok, start, end)
        if trimmed:
            chunks.append(Chunk(kind, trimmed[0], trimmed[1], tok.text(*trimmed), title="<module>"))
    return chunks


def _parts(tok: LineTokens, d: Definition, index: int, ranges: list[tuple[int, int]], first_kind: str) -> list[Chunk]:
    out = []
    for n, (start, end) in enumerate(ranges, 1):
        trimmed = _trim(tok, start, end)
        if trimmed is None:
            continue
        kind = first_kind if n == 1 else "part"
        out.append(Chunk(kind, trimmed[0], trimmed[1], tok.text(*trimmed), header="" if n == 1 else d.signature,
                         definition=index, part=n))
    return out


def _container_parts(tok: LineTokens, defs: list[Definition], index: int, kids: list[int], budget: int) -> list[Chunk]:
    """A class too long for one chunk: its own lines (signature, docstring, fields) without its members,
    which have chunks of their own."""
    d = defs[index]
    member = {ln for k in kids for ln in range(defs[k].start_line, defs[k].end_line + 1)}
    own = [ln for ln in range(d.start_line, d.end_line + 1) if ln not in member and not tok.blank(ln)]
    ranges = packed(tok, own, budget)
    return _parts(tok, d, index, ranges, "header")


def _function_parts(tok: LineTokens, d: Definition, index: int, budget: int) -> list[Chunk]:
    """A function too long for one chunk, split between the statements of its body."""
    ranges: list[tuple[int, int]] = []
    start, size = d.start_line, 0
    bounds = [b for b in d.blocks if b[0] > d.start_line] or [(d.start_line, d.end_line)]
    for block_start, block_end in bounds:
        n = tok.count(max(block_start, start), block_end)
        if size and size + n > budget:
            ranges.append((start, block_start - 1))
            start, size = block_start, 0
        size += n
    ranges.append((start, d.end_line))
    # a single statement longer than the budget is cut into line windows
    ranges = [w for r in ranges for w in (windows(tok, *r, budget) if tok.count(*r) > budget else [r])]
    return _parts(tok, d, index, ranges, "symbol")


# -- documents and config ----------------------------------------------------------------------------------------
def markdown_chunks(lines: list[str], budget: int) -> list[Chunk]:
    """Sections by heading: `# Title` (ATX), or a title underlined (Markdown setext, reStructuredText: `Title` over
    `=====`, `-----`, `~~~~`..., optionally overlined too). Fenced code is never a heading."""
    tok, heads, fenced = LineTokens(lines), [], False
    for n, line in enumerate(lines, 1):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            heads.append((n, m.group(2)))
        elif not fenced and n > 1 and _UNDERLINE.match(line) and _title_line(lines[n - 2]) \
                and (not heads or heads[-1][0] < n - 1):
            over = n > 2 and lines[n - 3].strip() == line.strip() and (not heads or heads[-1][0] < n - 2)
            heads.append((n - 2 if over else n - 1, lines[n - 2].strip()))
    bounds = ([(1, "<preamble>")] if not heads or heads[0][0] > 1 else []) + heads
    chunks = []
    for k, (start, title) in enumerate(bounds):
        end = bounds[k + 1][0] - 1 if k + 1 < len(bounds) else len(lines)
        for w in windows(tok, start, end, budget) if end >= start else []:
            trimmed = _trim(tok, *w)
            if trimmed:
                chunks.append(Chunk("section", trimmed[0], trimmed[1], tok.text(*trimmed), title=title))
    return chunks


def _title_line(line: str) -> bool:
    """Text an underline below can make a title: not blank, not indented code, not itself an underline."""
    return bool(line.strip()) and not line.startswith(("    ", "\t")) and not _UNDERLINE.match(line)


def file_chunks(lines: list[str], budget: int, kind: str = "file") -> list[Chunk]:
    tok = LineTokens(lines)
    chunks = []
    for w in windows(tok, 1, len(lines), budget) if lines else []:
        trimmed = _trim(tok, *w)
        if trimmed:
            chunks.append(Chunk(kind, trimmed[0], trimmed[1], tok.text(*trimmed), title="<file>"))
    return chunks


def openapi_operations(data: bytes, fmt: str) -> list[tuple[str, int, int]]:
    """(title "GET /orders/{id}", start_line, end_line) of each operation, or [] when not an OpenAPI document."""
    if fmt not in ("yaml", "json"):
        return []
    root = ts_pack.get_parser(fmt).parse(data).root_node
    ops: list[tuple[str, int, int]] = []
    top = _mapping_pairs(_first_mapping(root), fmt)
    if not any(k in ("openapi", "swagger") for k, _ in top):
        return []
    for key, value in top:
        if key != "paths":
            continue
        for path, item in _mapping_pairs(_first_mapping(value), fmt):
            for method, op in _mapping_pairs(_first_mapping(item), fmt):
                if method.lower() in _HTTP_METHODS:
                    pair = op.parent
                    # a node that ends at column 0 ends on the line before (YAML includes the newline)
                    end = pair.end_point.row + (1 if pair.end_point.column else 0)
                    ops.append((f"{method.upper()} {path}", pair.start_point.row + 1, end))
    return ops


def _first_mapping(node):
    """Descend to the first JSON object / YAML block mapping."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop(0)
        if n.type in ("object", "block_mapping", "flow_mapping"):
            return n
        stack.extend(n.named_children)
    return None


def _mapping_pairs(mapping, fmt: str) -> list[tuple[str, object]]:
    if mapping is None:
        return []
    pairs = []
    for pair in mapping.named_children:
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if key is None or value is None:
            continue
        pairs.append((key.text.decode("utf-8", "replace").strip("'\""), value))
    return pairs


def config_chunks(data: bytes, lines: list[str], fmt: str, budget: int) -> list[Chunk]:
    """OpenAPI documents by operation (plus the rest as file windows); other config files whole or windowed."""
    ops = openapi_operations(data, fmt)
    if not ops:
        return file_chunks(lines, budget)
    tok = LineTokens(lines)
    chunks, covered = [], set()
    for title, start, end in ops:
        covered.update(range(start, end + 1))
        chunks.append(Chunk("operation", start, end, tok.text(start, end), title=title))
    rest = [ln for ln in range(1, len(lines) + 1) if ln not in covered and not tok.blank(ln)]
    for w in packed(tok, rest, budget):
        trimmed = _trim(tok, *w)
        if trimmed:
            chunks.append(Chunk("file", trimmed[0], trimmed[1], tok.text(*trimmed), title="<file>"))
    return chunks


def chunk_file(data: bytes, text: str, language: str, defs: list[Definition], budget: int) -> list[Chunk]:
    lines = text.split("\n")
    if "\r" in text:        # CRLF: a chunk's lines without their terminators, as a lone CR's (a hit ended in `\r`);
        # a CR that ends no line (the last one, unterminated) is content, as /v1/source serves it
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines[:-1]] + lines[-1:]
    if lines and lines[-1] == "":
        lines.pop()
    if language in LANGUAGES:
        return code_chunks(lines, defs, budget, LANGUAGES[language].container_kinds, LANGUAGES[language].test_name)
    if language == "markdown":
        return markdown_chunks(lines, budget)
    return config_chunks(data, lines, language, budget)
