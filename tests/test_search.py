"""Hybrid search against the real Neo4j: channels, fusion, graph expansion, filters, hostile input."""

from __future__ import annotations

import pytest

import graphrag_code.search as search_module
from graphrag_code.errors import InputError, LLMUnavailable
from graphrag_code.indexer import index_repository
from graphrag_code.query_analysis import analyze
from graphrag_code.rerankers import StructuralReranker, make_reranker
from graphrag_code.search import Filters, Searcher, SearchOptions, rrf
from token_app import AUTH, ROUTES

TESTS = '''from app.auth import validate_refresh_token


def test_validate_refresh_token_rejects_expired():
    assert validate_refresh_token
'''
OPTS = SearchOptions(k=5, channels=("fulltext", "symbol", "location"))


@pytest.fixture
def indexed(graph, git_repo, repo_name):
    git_repo.write("app/__init__.py", "")
    git_repo.write("app/auth.py", AUTH)
    git_repo.write("app/routes.py", ROUTES)
    git_repo.write("tests/test_auth.py", TESTS)
    git_repo.write("docs/jwt.md", "# Tokens\nRefresh tokens expire after a day.\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    return Searcher(graph), repo_name


def test_identifier_query_finds_the_definition_first(indexed) -> None:
    searcher, repo = indexed
    res = searcher.search("where is validate_refresh_token defined?", Filters(repo=repo), OPTS)
    top = res.hits[0]
    assert (top.path, top.start_line, top.end_line) == ("app/auth.py", 5, 10)
    assert top.qualified_name == "validate_refresh_token" and top.kind == "function"
    assert "symbol" in top.channels and "fulltext" in top.channels
    assert res.analysis.lexical_first and top.commit and len(top.commit) == 40


def test_tests_are_excluded_unless_asked_for(indexed) -> None:
    searcher, repo = indexed
    plain = searcher.search("validate_refresh_token", Filters(repo=repo), OPTS)
    assert all(not h.path.startswith("tests/") for h in plain.hits)
    about = searcher.search("tests for validate_refresh_token", Filters(repo=repo), OPTS)
    assert any(h.path == "tests/test_auth.py" for h in about.hits)


def test_stack_trace_routes_to_the_enclosing_function(indexed) -> None:
    searcher, repo = indexed
    trace = 'Traceback:\n  File "/srv/app/auth.py", line 9, in validate_refresh_token\nTokenExpired: refresh token expired'
    res = searcher.search(trace, Filters(repo=repo), OPTS)
    assert res.hits[0].qualified_name == "validate_refresh_token"
    assert res.hits[0].channels.get("location") == 1


def test_graph_expansion_brings_callees_with_the_call_line(indexed) -> None:
    searcher, repo = indexed
    res = searcher.search("refresh_route", Filters(repo=repo), SearchOptions(k=10, channels=("symbol",), hops=1))
    by_name = {h.qualified_name: h for h in res.hits}
    assert by_name["refresh_route"].channels == {"symbol": 1}
    callee = by_name["validate_refresh_token"]
    assert callee.channels.get("graph:callee") == 1
    assert "callee of refresh_route (line 6)" in callee.via
    two = searcher.search("refresh_route", Filters(repo=repo), SearchOptions(k=10, channels=("symbol",), hops=2))
    assert "check_signature" in {h.qualified_name for h in two.hits}       # two hops away
    none = searcher.search("refresh_route", Filters(repo=repo), SearchOptions(k=10, channels=("symbol",), hops=0))
    assert [h.qualified_name for h in none.hits] == ["refresh_route"]


def test_what_calls_x_puts_the_callers_of_x_first(indexed) -> None:
    searcher, repo = indexed
    res = searcher.search("what calls check_signature?", Filters(repo=repo), OPTS)
    assert res.analysis.relation == "caller"
    names = [h.qualified_name for h in res.hits]
    assert names[:2] == ["validate_refresh_token", "check_signature"]
    assert "caller of check_signature (line 10)" in res.hits[0].via
    assert res.hits[0].channels.get("graph:caller") == 1
    callees = searcher.search("what does validate_refresh_token call?", Filters(repo=repo), OPTS)
    assert callees.analysis.relation == "callee" and callees.hits[0].qualified_name == "check_signature"
    # without graph expansion the question finds the named function itself first
    plain = searcher.search("what calls check_signature?", Filters(repo=repo),
                            SearchOptions(k=5, channels=OPTS.channels, hops=0))
    assert plain.hits[0].qualified_name == "check_signature"


@pytest.mark.parametrize("query, relation", [
    ("What calls ConstructorConstructor.get?", "caller"),
    ("who uses parse_token", "caller"),
    ("Which operators are built on top of mergeInternals?", "caller"),
    ("where is check_signature called", "caller"),
    ("what does refresh_route call?", "callee"),
    ("callees of refresh_route", "callee"),
    ("how does refresh_route validate tokens", None),
    ("what calls the database", None),              # no name to take the callers of
    ('File "/srv/app/auth.py", line 9, in validate_refresh_token: which frame calls my_code', None),
])
def test_questions_about_callers_or_callees(query: str, relation: str | None) -> None:
    assert analyze(query).relation == relation


def test_filters_by_path_language_and_kind(indexed) -> None:
    searcher, repo = indexed
    res = searcher.search("token", Filters(repo=repo, path_glob="docs/*"), OPTS)
    assert res.hits and all(h.path.startswith("docs/") for h in res.hits)
    res = searcher.search("token", Filters(repo=repo, kind="class"), OPTS)
    assert [h.qualified_name for h in res.hits] == ["TokenExpired"]


@pytest.mark.parametrize("hostile", ['foo(bar) AND "x', "a:b OR c~ ^2 [1 TO 5] \\", "MATCH (n) DETACH DELETE n",
                                     "'); DROP TABLE x; --", "*?"])
def test_hostile_queries_are_plain_text(indexed, hostile: str) -> None:
    searcher, repo = indexed
    searcher.search(hostile, Filters(repo=repo), OPTS)      # no Lucene or Cypher error, no effect
    assert searcher.search("validate_refresh_token", Filters(repo=repo), OPTS).hits


def test_empty_query_is_an_input_error(indexed) -> None:
    searcher, repo = indexed
    with pytest.raises(InputError):
        searcher.search("   ", Filters(repo=repo), OPTS)


def test_structural_reranker_prefers_exact_names(indexed) -> None:
    searcher, repo = indexed
    searcher.reranker = StructuralReranker()
    res = searcher.search("sign", Filters(repo=repo), SearchOptions(k=3, channels=("fulltext", "symbol"), hops=1))
    assert res.reranker == "structural" and res.hits[0].qualified_name == "sign"


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf({"a": ["x", "y"], "b": ["y", "z"]}, k=60)
    assert fused["y"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["x"] == pytest.approx(1 / 61) and fused["z"] == pytest.approx(1 / 62)
    assert sorted(fused, key=fused.get, reverse=True)[0] == "y"


@pytest.mark.parametrize("query, identifiers, locations", [
    ("where is parseFlow defined", ["parseFlow"], []),
    ("OrderService.cancel fails", ["OrderService.cancel"], []),
    ('File "/x/site-packages/flask/app.py", line 12, in run', [], [{"path": "flask/app.py", "line": 12}]),
    ("at com.acme.Foo.bar(Foo.java:123)", ["com.acme.Foo.bar"], [{"path": "Foo.java", "line": 123}]),
    ("how do blueprints register routes", [], []),
])
def test_query_analysis(query: str, identifiers: list, locations: list) -> None:
    a = analyze(query)
    assert a.identifiers == identifiers and a.locations == locations


def test_overloads_take_one_slot_showing_the_implementation(graph, git_repo, repo_name) -> None:
    git_repo.write("lib/conv.py", '''from typing import overload


@overload
def convert(value: int) -> str: ...


@overload
def convert(value: str) -> int: ...


def convert(value):
    """Convert between int and str."""
    if isinstance(value, int):
        return str(value)
    return int(value)


def unrelated():
    return convert(1)
''')
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("convert", Filters(repo=repo_name), SearchOptions(k=5, channels=("fulltext", "symbol")))
    converts = [h for h in res.hits if h.qualified_name == "convert"]
    assert len(converts) == 1
    assert (converts[0].start_line, converts[0].end_line) == (12, 16)
    assert "fulltext" in converts[0].channels


# -- expansion: hops by repository size, implementations, tests; the path channel; rerankers -------------------
def test_small_repository_gets_two_hops_unless_told(indexed, monkeypatch: pytest.MonkeyPatch) -> None:
    searcher, repo = indexed
    opts = SearchOptions(k=10, channels=("symbol",))          # hops not given
    res = searcher.search("refresh_route", Filters(repo=repo), opts)
    assert res.hits[0].qualified_name == "refresh_route"
    two = next(h for h in res.hits if h.qualified_name == "check_signature")
    assert two.channels.get("graph:callee") == 2
    monkeypatch.setattr(search_module, "SMALL_REPO_SYMBOLS", 2)   # the fixture now counts as large: one hop
    assert "check_signature" not in {h.qualified_name for h in searcher.search("refresh_route", Filters(repo=repo),
                                                                                  opts).hits}


SHAPES = '''class Shape:
    def area(self):
        raise NotImplementedError

    def describe(self):
        return f"area {self.area()}"


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


def total_area(shapes):
    return sum(s.area() for s in shapes)
'''
SHAPE_TESTS = '''from app.shapes import total_area as measure


def test_measure_of_nothing_is_zero():
    assert measure([]) == 0
'''


@pytest.fixture
def shapes(graph, git_repo, repo_name):
    git_repo.write("app/__init__.py", "")
    git_repo.write("app/shapes.py", SHAPES)
    git_repo.write("tests/test_shapes.py", SHAPE_TESTS)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    return Searcher(graph), repo_name


def test_expansion_reaches_the_implementations_of_a_method(shapes) -> None:
    searcher, repo = shapes
    res = searcher.search("Shape.area", Filters(repo=repo), SearchOptions(k=10, channels=("symbol",), hops=1))
    assert res.hits[0].qualified_name == "Shape.area"
    impl = next(h for h in res.hits if h.qualified_name == "Square.area")
    assert impl.channels.get("graph:implementation") == 1 and impl.start_line == 13
    assert any(v.startswith("implementation of Shape.area") for v in impl.via)
    # describe() calls the placeholder; its edge goes to the override, and it is still a caller of Shape.area
    caller = next(h for h in res.hits if h.qualified_name == "Shape.describe")
    assert caller.channels.get("graph:caller") == 1 and "caller of Shape.area (line 6)" in caller.via


def test_expansion_brings_the_tests_that_call_a_hit_only_for_test_questions(shapes) -> None:
    searcher, repo = shapes
    opts = SearchOptions(k=10, channels=("symbol",), hops=1)
    about = searcher.search("tests for total_area", Filters(repo=repo), opts)
    test = next(h for h in about.hits if h.qualified_name == "test_measure_of_nothing_is_zero")
    assert test.channels == {"graph:test": 1} and test.is_test       # reached only through the aliased call
    assert any(v == "test of total_area (line 5)" for v in test.via)
    plain = searcher.search("total_area", Filters(repo=repo), opts)
    assert not any(h.is_test for h in plain.hits)


def test_path_channel_seeds_from_a_file_the_query_names(indexed) -> None:
    searcher, repo = indexed
    res = searcher.search("what parses the token in app/routes.py?", Filters(repo=repo),
                          SearchOptions(k=10, channels=("path",), hops=0))
    assert res.channels_used == ["path"]
    assert {h.path for h in res.hits} == {"app/routes.py"}
    assert res.hits[0].qualified_name == "parse_token"                   # the name shares the query's terms
    none = searcher.search("what parses the token?", Filters(repo=repo), SearchOptions(k=10, channels=("path",)))
    assert none.hits == [] and none.channels_used == []


class _BrokenReranker:
    name = "broken"

    def rerank(self, analysis, hits):
        raise LLMUnavailable("the Anthropic API is rate-limiting this key")


def test_a_failing_reranker_keeps_the_fused_order_and_says_so(indexed) -> None:
    searcher, repo = indexed
    plain = searcher.search("token expiry", Filters(repo=repo), OPTS)
    searcher.reranker = _BrokenReranker()
    res = searcher.search("token expiry", Filters(repo=repo), OPTS)
    assert res.reranker == "none"
    assert [h.id for h in res.hits] == [h.id for h in plain.hits]
    assert any("reranker broken failed, fused order kept" in n and "rate-limiting" in n for n in res.notes)


def test_cross_encoder_reranks_search_results(indexed, tmp_path) -> None:
    from test_rerankers import build_cross_encoder

    searcher, repo = indexed
    plain = searcher.search("sign", Filters(repo=repo), OPTS)
    assert plain.hits[0].qualified_name == "sign"
    assert "validate_refresh_token" in {h.qualified_name for h in plain.hits}   # two callers up
    build_cross_encoder(tmp_path / "ce")
    searcher.reranker = make_reranker("cross-encoder", str(tmp_path / "ce"))
    res = searcher.search("sign", Filters(repo=repo), OPTS)
    assert res.reranker == "cross-encoder:ce"
    assert res.hits[0].qualified_name == "validate_refresh_token"      # the one whose code says "expiry"


def test_what_calls_a_placeholder_lists_the_calls_resolved_to_its_overrides(shapes, graph) -> None:
    searcher, repo = shapes
    res = searcher.search("what calls Shape.area?", Filters(repo=repo), SearchOptions(k=5, channels=("symbol",)))
    assert res.hits[0].qualified_name == "Shape.describe" and res.hits[0].channels.get("graph:caller") == 1
    (detail,) = graph.run("symbol_detail", id=f"{repo}:app/shapes.py#Shape.area")
    assert [(c["qualified_name"], c["lines"], c["via"]) for c in detail["callers"]] == [
        ("Shape.describe", [6], "Square.area")]


def test_a_small_repository_is_found_among_larger_ones(graph, git_repo, repo_name, tmp_path) -> None:
    from conftest import GitRepo
    from graphrag_code.indexer import delete_repository
    big_name = f"{repo_name}-big"
    big = GitRepo(tmp_path / "big")
    # 300 short chunks that say "relay" over and over: the index ranks all of them above the small repository's
    big.write("relays.py", "".join(f'def relay_{i}():\n    """relay relay relay relay"""\n    return "relay"\n\n\n'
                                   for i in range(300)))
    big.commit()
    git_repo.write("bus.py", "def connect(bus, timeout, retries, backoff, logger, metrics):\n"
                             "    \"\"\"Open the bus with retries and a backoff, log and count each attempt, then relay.\"\"\"\n"
                             "    return bus\n")
    git_repo.commit()
    try:
        index_repository(graph, big.root, name=big_name)
        index_repository(graph, git_repo.root, name=repo_name)
        searcher = Searcher(graph)
        opts = SearchOptions(k=5, channels=("fulltext",))
        everywhere = searcher.search("relay", Filters(), opts)
        assert {h.repo for h in everywhere.hits} == {big_name}          # the precondition: the big one wins
        fetched: list[int] = []
        with graph.trace(lambda e: fetched.append(e.params["fetch"]) if e.name == "fulltext_seeds" else None):
            hits = searcher.search("relay", Filters(repo=repo_name), opts).hits
        assert [h.qualified_name for h in hits] == ["connect"]
        assert fetched[0] < 300 < fetched[-1]                           # found by asking deeper
    finally:
        delete_repository(graph, big_name)


# -- stack traces with absolute paths; "what calls X" where X is a plain word -------------------------------------
def test_an_absolute_trace_path_names_its_longest_indexed_tail(graph, git_repo, repo_name) -> None:
    body = "def check(token):\n    if not token:\n        raise ValueError('empty')\n    return token\n"
    for path in ("pkg/auth.py", "other/pkg/auth.py"):
        git_repo.write(path, body.replace("check", path.split("/")[0] + "_check"))
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    searcher, opts = Searcher(graph), SearchOptions(k=5, channels=("location",), hops=0)
    for trace, path in [('File "/home/user/proj/pkg/auth.py", line 3, in pkg_check', "pkg/auth.py"),
                        ('File "/home/user/proj/other/pkg/auth.py", line 3, in x', "other/pkg/auth.py"),
                        ('File "C:\\proj\\other\\pkg\\auth.py", line 3, in x', "other/pkg/auth.py"),
                        ("at check (/srv/proj/other/pkg/auth.py:3:9)", "other/pkg/auth.py")]:
        res = searcher.search(trace, Filters(repo=repo_name), opts)
        assert [(h.path, h.channels) for h in res.hits] == [(path, {"location": 1})], trace
    # a path that is a tail of the indexed ones names both, as before
    res = searcher.search('File "pkg/auth.py", line 3, in x', Filters(repo=repo_name), opts)
    assert sorted(h.path for h in res.hits) == ["other/pkg/auth.py", "pkg/auth.py"]
    assert not searcher.search('File "/home/user/proj/pkg/auth.py", line 99, in x', Filters(repo=repo_name), opts).hits


def test_an_absolute_trace_path_is_found_across_repositories(indexed) -> None:
    searcher, repo = indexed
    res = searcher.search('File "/home/user/proj/app/auth.py", line 14, in check_signature', Filters(),
                          SearchOptions(k=50, channels=("location",), hops=0))
    assert (repo, "check_signature") in {(h.repo, h.qualified_name) for h in res.hits}


@pytest.mark.parametrize("question", ["what calls sign?", "who calls sign", "callers of sign"])
def test_what_calls_a_plain_word_puts_its_callers_first(indexed, question: str) -> None:
    searcher, repo = indexed
    res = searcher.search(question, Filters(repo=repo), OPTS)
    assert [h.qualified_name for h in res.hits[:2]] == ["check_signature", "sign"]
    assert "caller of sign (line 14)" in res.hits[0].via


LEDGER = '''def post(entry):
    """Write one entry."""
    check(entry)
    return store(entry)


def check(entry):
    if entry.amount < 0:
        raise ValueError("negative")


def store(entry):
    return entry


def transfer(a, b, amount):
    post(a.debit(amount))
    post(b.credit(amount))


def refund(entry):
    return post(entry.reversed())
'''


def test_what_a_plain_word_calls_and_what_calls_it(graph, git_repo, repo_name) -> None:
    git_repo.write("ledger.py", LEDGER)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    searcher = Searcher(graph)
    callees = searcher.search("what does post call?", Filters(repo=repo_name), OPTS)
    assert {h.qualified_name for h in callees.hits[:2]} == {"check", "store"}
    callers = searcher.search("who calls post", Filters(repo=repo_name), OPTS)
    assert {h.qualified_name for h in callers.hits[:2]} == {"transfer", "refund"}
    # a plain word the repository has no symbol of changes nothing: the same hits as its words alone
    unknown = searcher.search("what calls ledger?", Filters(repo=repo_name), OPTS)
    assert unknown.analysis.relation == "caller" and unknown.hits
    assert [h.id for h in unknown.hits] == [h.id for h in searcher.search("calls ledger", Filters(repo=repo_name),
                                                                          OPTS).hits]


def test_a_query_of_one_plain_word_finds_the_symbol_of_that_name_first(graph, git_repo, repo_name) -> None:
    """`search helper`: a one-word query is most often a name; the symbol of that name comes before `helper2`,
    which calls it and mentions it twice (a QA pass saw `helper2` first: plain words never reached the symbol
    channel). A word no symbol has changes nothing."""
    git_repo.write("pkg/util.py", "from pkg.core import helper\n\n\ndef helper2(x):\n    return helper(x) + helper(1)\n")
    git_repo.write("pkg/core.py", "def helper(x):\n    return x\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("helper", Filters(repo=repo_name), OPTS)
    assert res.hits[0].qualified_name == "helper" and "symbol" in res.hits[0].channels
    assert analyze("helper").names == ["helper"] and analyze("the").names == []


DETECTOR = '''def is_test_path(path):
    """Whether a file path is a test file: under tests/ or named test_*."""
    return path.startswith("tests/") or path.rsplit("/", 1)[-1].startswith("test_")
'''
DETECTOR_TESTS = '''from pkg.paths import is_test_path


def test_a_test_file_path_is_a_test():
    assert is_test_path("tests/test_file.py")


def test_a_source_path_is_not_a_test_file():
    assert not is_test_path("pkg/file.py")
'''


@pytest.mark.parametrize("question", ["which function decides if a path is a test file",
                                      "how are test files detected"])
def test_a_question_about_telling_tests_apart_finds_the_detector_not_its_tests(graph, git_repo, repo_name,
                                                                                question: str) -> None:
    """"test" in a question asks for tests ("tests for X"), except where the question is how code tells tests
    apart: there the tests of the detector, which say "test" and "path" more often than it does, came first
    (fourth QA pass: ten hits, every one a test, the detector none of them). Asking for its tests still finds
    them."""
    git_repo.write("pkg/paths.py", DETECTOR)
    git_repo.write("tests/test_paths.py", DETECTOR_TESTS)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search(question, Filters(repo=repo_name), OPTS)
    assert not res.analysis.about_tests
    assert res.hits[0].qualified_name == "is_test_path" and not res.hits[0].is_test, [h.id for h in res.hits]
    tests = Searcher(graph).search("tests for is_test_path", Filters(repo=repo_name), OPTS)
    assert tests.analysis.about_tests and any(h.is_test for h in tests.hits)


LIB = '''def render_template(name, context):
    """Render the template called name with the context."""
    return name.format(**context)
'''
EXAMPLE = '''from pkg.templating import render_template


def render_template_page(context):
    """How to render a template: render_template with a context, rendering the template page."""
    return render_template("page.html", context) + render_template("footer.html", context)
'''


def test_examples_and_benchmarks_come_after_the_code_they_use_unless_asked_for(graph, git_repo, repo_name) -> None:
    """An example that says "render template" more often than the function it shows ranked first for "how is a
    template rendered" (the fourth QA pass saw bench/ tooling above the implementation on this checkout). Asked for
    an example, it is first again. On the six golden codebases this changed no result (none expects such a file)."""
    git_repo.write("pkg/templating.py", LIB)
    git_repo.write("examples/render_demo.py", EXAMPLE)
    git_repo.write("bench/render_bench.py", EXAMPLE.replace("render_template_page", "bench_render_template"))
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    searcher = Searcher(graph)
    plain = searcher.search("how is a template rendered with a context", Filters(repo=repo_name), OPTS)
    assert plain.hits[0].path == "pkg/templating.py", [(h.path, h.score) for h in plain.hits]
    asked = searcher.search("example of rendering a template page", Filters(repo=repo_name), OPTS)
    assert asked.hits[0].path == "examples/render_demo.py", [(h.path, h.score) for h in asked.hits]


def test_an_irregular_past_form_finds_the_code_named_by_its_verb(graph, git_repo, repo_name) -> None:
    """"where is the prompt built": the English stemmer makes `built` of built, never `build`, so build_prompt
    was found only by its other word (fourth QA pass: not in the top 10 on this checkout). On the golden set
    without vectors (six codebases) the expansion gained one Hit@5 and lost none."""
    git_repo.write("pkg/answer.py", "def build_prompt(question, sources):\n    return question\n\n\n"
                                    "def prompt_tokens(prompt):\n    return len(prompt)\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("where is the prompt built", Filters(repo=repo_name), OPTS)
    assert "build" in res.analysis.terms
    assert res.hits[0].qualified_name == "build_prompt", [h.qualified_name for h in res.hits]


def test_an_error_message_of_stop_words_finds_where_it_is_raised(graph, git_repo, repo_name) -> None:
    """"Error: No such command 'deploy'.": the English analyzer drops `no` and `such`, so the phrase matched any
    `command`, and chunks saying command most often won (golden click-017 was in no top 10). The message channel
    reads the text itself."""
    noisy = "\n\n".join(f"def command_{i}(command, commands):\n    '''Run the command of the command list.'''\n"
                        f"    return [command for command in commands if command]" for i in range(6))
    git_repo.write("cli/noisy.py", noisy + "\n")
    git_repo.write("cli/resolve.py", "def resolve(ctx, name):\n    cmd = ctx.lookup(name)\n    if cmd is None:\n"
                                     "        ctx.fail(f\"No such command {name!r}.\")\n    return cmd\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("Error: No such command 'deploy'.", Filters(repo=repo_name),
                                 SearchOptions(k=3, channels=("fulltext", "symbol")))
    assert (res.hits[0].path, res.hits[0].qualified_name) == ("cli/resolve.py", "resolve")
    assert "message" in res.hits[0].channels
    question = Searcher(graph).search("how is a command resolved?", Filters(repo=repo_name),
                                      SearchOptions(k=3, channels=("fulltext", "symbol")))
    assert not any("message" in h.channels for h in question.hits)     # questions are no messages


JAVA_BOX = "package p;\n\npublic class Box {\n    private int v;\n\n" + "".join(
    f"    public int get({t} a) {{\n" + "".join(f"        v = v + {i};\n" for i in range(8)) +
    "        return v;\n    }\n\n" for t in ("int", "String", "long")) + "}\n"


def test_java_overloads_keep_their_own_lines_and_a_class_is_shown_by_its_signature(graph, git_repo,
                                                                                      repo_name) -> None:
    """Overloads were grouped as TypeScript signatures are, so a stack frame in the second `get` cited the longest
    overload; a long class's best part could be its closing `}` alone (`Gson.java:1535-1535`; fifth QA pass)."""
    from graphrag_code.config import IndexSettings

    git_repo.write("src/p/Box.java", JAVA_BOX)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name, settings=IndexSettings(chunk_tokens=60))
    lines = JAVA_BOX.split("\n")
    second = [n for n, line in enumerate(lines, 1) if "get(String a)" in line][0]
    res = Searcher(graph).search(f"Box.java:{second + 3}", Filters(repo=repo_name), SearchOptions(k=3))
    assert (res.hits[0].start_line, res.hits[0].end_line) == (second, second + 10)
    res = Searcher(graph).search("Box", Filters(repo=repo_name), SearchOptions(k=3))
    box = [h for h in res.hits if h.qualified_name == "Box"]
    assert box and box[0].start_line == 3 and box[0].text.strip() != "}"


def test_what_calls_a_qualified_name_takes_that_symbol_not_every_one_of_its_name(graph, git_repo,
                                                                                 repo_name) -> None:
    """"what calls Context.invoke?" took the callers of BaseCommand.invoke too (fifth QA pass)."""
    git_repo.write("lib/m.py", "class Alpha:\n    def invoke(self):\n        return 1\n\n    def go(self):\n"
                               "        return self.invoke()\n\n\nclass Beta:\n    def invoke(self):\n        return 2\n\n"
                               "    def go(self):\n        return self.invoke()\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("what calls Alpha.invoke?", Filters(repo=repo_name), SearchOptions(k=5))
    callers = [h.qualified_name for h in res.hits if "graph:caller" in h.channels]
    assert callers == ["Alpha.go"]


def test_filters_are_forgiving_where_they_can_be_and_strict_where_they_cannot(indexed) -> None:
    """--language PYTHON was refused (case); --path '' was silently ignored (fifth QA pass)."""
    repo, _ = indexed
    filters = Filters(repo=repo, language="PYTHON", kind="Function")
    filters.check()
    assert (filters.language, filters.kind) == ("python", "function")
    with pytest.raises(InputError, match="empty path glob"):
        Filters(repo=repo, path_glob="").check()


def test_k_above_the_seed_limit_gets_that_many_hits(graph, git_repo, repo_name) -> None:
    """-k 100 returned at most ~53: every channel stopped at 50 candidates."""
    git_repo.write("lib/many.py", "\n\n".join(f"def error_case_{i}(error):\n    return error + {i}" for i in range(90)))
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("error", Filters(repo=repo_name), SearchOptions(k=80, channels=("fulltext",)))
    assert len(res.hits) == 80


def test_expansion_names_a_redefinition_by_its_own_id(graph, git_repo, repo_name) -> None:
    """"callee of View.as_view.view (line 116)" where line 116 is in the second `view` (`~2`; fifth QA pass)."""
    git_repo.write("v.py", "def helper():\n    return 1\n\n\ndef outer(flag):\n    if flag:\n        def view():\n"
                           "            return helper()\n    else:\n        def view():\n            return helper()\n"
                           "    return view\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    res = Searcher(graph).search("view", Filters(repo=repo_name), SearchOptions(k=5, hops=1))
    via = [v for h in res.hits if h.qualified_name == "helper" for v in h.via]
    assert "callee of outer.view (line 8)" in via and "callee of outer.view~2 (line 11)" in via, via


def test_a_filter_that_drops_the_best_seeds_looks_deeper(graph, git_repo, repo_name) -> None:
    """300 files saying `token` more often than zz/target.py filled all 200 full-text seeds, so `--path 'zz/*'`
    found nothing, silently (tenth QA pass): a filtered search asks 8x deeper while it keeps fewer than k."""
    git_repo.write("lib/many.py", "\n\n".join(f"def token_case_{i}(token):\n    return token.token + {i}"
                                               for i in range(260)))
    git_repo.write("zz/target.py", "def check(value):\n    return value == 'token'\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    searcher, opts = Searcher(graph), SearchOptions(k=5, channels=("fulltext",))
    assert all(h.path == "lib/many.py" for h in searcher.search("token", Filters(repo=repo_name), opts).hits)
    for glob in ("zz/*", "./zz/*", "/zz/target.py"):    # a leading ./ or / is the repository's root
        res = searcher.search("token", Filters(repo=repo_name, path_glob=glob), opts)
        assert [(h.path, h.name) for h in res.hits] == [("zz/target.py", "check")], (glob, res.counts)
    assert searcher.search("token", Filters(repo=repo_name, language="python"), opts).hits   # unfiltered: many
    with pytest.raises(InputError, match="'../' matches nothing") as err:
        searcher.search("token", Filters(repo=repo_name, path_glob="../zz/*"), opts)
    assert err.value.field == "path"
