"""Cited answers against the real Neo4j and the real ``anthropic`` SDK pointed at a local Messages API stub.

Every LLM test scripts the stub's replies, then checks what the application made of them: which citations
survive, what is flagged, what the SDK retried, and what reached the server.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from messages_stub import MessagesStub

from graphrag_code import citations as cit
from graphrag_code.answer import (
    SYSTEM_PROMPT,
    Answer,
    answer,
    build_prompt,
    category,
    estimate_tokens,
    order_sources,
    select_sources,
    source_block,
)
from graphrag_code.citations import REFUSAL, Citation, citation_metrics
from graphrag_code.cli import GraphragGroup
from graphrag_code.cli_answer import ask_command
from graphrag_code.indexer import index_repository
from graphrag_code.llm import LLMError, LLMSettings, LLMUnavailable
from graphrag_code.query_analysis import analyze
from graphrag_code.search import Hit, SearchOptions, SearchResult, _hit
from token_app import AUTH, ROUTES

DOC = "# Refresh tokens\nA refresh token is validated by validate_refresh_token and expires after a day.\n"
TEST = ("from app.auth import validate_refresh_token\n\n\n"
        "def test_validate_refresh_token_rejects_expired():\n    assert validate_refresh_token\n")
FILES = {"app/__init__.py": "", "app/auth.py": AUTH, "app/routes.py": ROUTES, "docs/tokens.md": DOC,
         "tests/test_auth.py": TEST}

QUESTION = "How is a refresh token validated?"
OPTS = SearchOptions(k=4, channels=("fulltext", "symbol", "location"))
GOOD = ("A refresh token is validated by `validate_refresh_token`, which rejects tokens whose expiry is in the "
        "past [1][2]. After the expiry check it returns the result of `check_signature` for the token [2]. "
        "The route handler `refresh_route` parses the token from the request and passes it on [3].")


@pytest.fixture(autouse=True)
def _no_llm_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GRAPHRAG_LLM_MODEL", "GRAPHRAG_LLM_MAX_TOKENS", "GRAPHRAG_LLM_CONTEXT_WINDOW",
                "GRAPHRAG_LLM_CONTEXT_SHARE", "GRAPHRAG_LLM_TIMEOUT", "GRAPHRAG_LLM_MAX_RETRIES",
                "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def stub():
    with MessagesStub() as s:
        yield s


@pytest.fixture
def indexed(graph, git_repo, repo_name):
    for path, text in FILES.items():
        git_repo.write(path, text)
    commit = git_repo.commit("tokens")
    git_repo.git("remote", "add", "origin", "git@github.com:acme/tokens.git")
    index_repository(graph, git_repo.root, name=repo_name)
    return git_repo, repo_name, commit


class FixedSearcher:
    """Retrieval held still: these chunks (read from the real graph), in this order, with this graph-expansion
    info. The answer tests test answering; the ranking has its own tests (test_search.py)."""

    def __init__(self, graph, repo: str, picks: list[tuple[str, list[str]]]) -> None:
        ids = [f"{repo}:{suffix}" for suffix, _ in picks]
        rows = {r["id"]: r for r in graph.run("chunks_by_id", ids=ids)}
        self.hits = [_hit(rows[i], 1.0 / (n + 1), {"fulltext": n + 1}) for n, i in enumerate(ids)]
        for h, (_, via) in zip(self.hits, picks):
            h.via = list(via)

    def search(self, query, filters=None, options=None) -> SearchResult:
        return SearchResult(query, list(self.hits), analyze(query), ["fulltext"], "off", "none", {"total": 0.0})


DOCS, VALIDATE = "docs/tokens.md::L1", "app/auth.py#validate_refresh_token::chunk"
ROUTE, IMPORTS = "app/routes.py#refresh_route::chunk", "app/routes.py::L1"
CHECK = "app/auth.py#check_signature::chunk"
PICKS = [(DOCS, []), (VALIDATE, []), (ROUTE, []), (IMPORTS, [])]


def llm(stub: MessagesStub, **kw) -> LLMSettings:
    return LLMSettings(api_key=stub.api_key, base_url=stub.url, **{"max_retries": 2, "timeout": 10.0, **kw})


def ask(graph, repo: str, settings: LLMSettings | None = None, question: str = QUESTION,
        picks: list[tuple[str, list[str]]] = PICKS, **kw) -> Answer:
    return answer(graph, question, repo=repo, searcher=FixedSearcher(graph, repo, picks),
                  llm=settings or LLMSettings(), **kw)


def gh(commit: str, path: str, lines: str) -> str:
    return f"https://github.com/acme/tokens/blob/{commit}/{path}#{lines}"


def cli():
    return GraphragGroup(name="graphrag-code", commands={"ask": ask_command})


# ---------------------------------------------------------------------------------------------------------
# LLM answers

def test_good_answer_is_validated_and_every_citation_resolved(graph, indexed, stub) -> None:
    _, repo, commit = indexed
    stub.reply(GOOD, input_tokens=812, output_tokens=64)
    a = ask(graph, repo, llm(stub))

    assert [(s.n, s.hit.location, s.category) for s in a.sources] == [
        (1, "docs/tokens.md:1-2", "docs"), (2, "app/auth.py:5-10", "implementation"),
        (3, "app/routes.py:4-6", "implementation"), (4, "app/routes.py:1-1", "implementation")]
    assert a.mode == "llm" and a.text == GOOD
    assert (a.refused, a.flagged, a.flag_reasons, a.uncited, a.prose_locations) == (False, False, [], [], [])
    assert [c.to_dict() for c in a.citations] == [
        {"n": 1, "id": f"{repo}:docs/tokens.md::L1", "repo": repo, "commit": commit, "path": "docs/tokens.md",
         "start_line": 1, "end_line": 2, "symbol": "Refresh tokens", "url": gh(commit, "docs/tokens.md", "L1-L2"),
         "status": "ok", "reason": "", "worktree_changed": False,
         "rendered": f"[1] docs/tokens.md:1–2 (Refresh tokens)  {gh(commit, 'docs/tokens.md', 'L1-L2')}"},
        {"n": 2, "id": f"{repo}:app/auth.py#validate_refresh_token::chunk", "repo": repo, "commit": commit,
         "path": "app/auth.py", "start_line": 5, "end_line": 10, "symbol": "validate_refresh_token",
         "url": gh(commit, "app/auth.py", "L5-L10"), "status": "ok", "reason": "", "worktree_changed": False,
         "rendered": f"[2] app/auth.py:5–10 (validate_refresh_token)  {gh(commit, 'app/auth.py', 'L5-L10')}"},
        {"n": 3, "id": f"{repo}:app/routes.py#refresh_route::chunk", "repo": repo, "commit": commit,
         "path": "app/routes.py", "start_line": 4, "end_line": 6, "symbol": "refresh_route",
         "url": gh(commit, "app/routes.py", "L4-L6"), "status": "ok", "reason": "", "worktree_changed": False,
         "rendered": f"[3] app/routes.py:4–6 (refresh_route)  {gh(commit, 'app/routes.py', 'L4-L6')}"}]
    assert [(c.sentence, c.cites) for c in a.claims] == [
        (GOOD.split(" After")[0], [1, 2]),
        ("After the expiry check it returns the result of `check_signature` for the token [2].", [2]),
        ("The route handler `refresh_route` parses the token from the request and passes it on [3].", [3])]
    assert [s.cited for s in a.sources] == [True, True, True, False]
    assert a.tokens["input"] == 812 and a.tokens["output"] == 64
    assert a.llm["calls"] == 1 and a.llm["retries"] == 0 and a.llm["regenerated"] is False
    assert a.llm["model"] == "stub-model" and a.llm["request_ids"] == ["req_stub_0001"]
    assert citation_metrics([a]) == {"validity": 1.0, "coverage": 1.0, "citations": 3, "ok": 3, "claims": 3,
                                     "covered": 3, "answers": 1, "refused": 0}

    (req,) = stub.requests
    assert req.path == "/v1/messages"
    assert stub.api_key in (req.headers.get("x-api-key", ""), req.headers.get("authorization", "").removeprefix("Bearer "))
    assert req.body["model"] == "claude-sonnet-5-5" and req.body["max_tokens"] == 1024
    assert req.body["system"] == SYSTEM_PROMPT and REFUSAL in SYSTEM_PROMPT
    assert req.messages == [{"role": "user", "content": build_prompt(QUESTION, a.sources)}]
    prompt = req.last_user_text
    assert ('<source n="2" file="app/auth.py" symbol="validate_refresh_token" kind="function" lines="5-10">\n'
            + "".join(AUTH.splitlines(keepends=True)[4:10]) + "</source>") in prompt
    assert prompt.index('<source n="1" file="docs/tokens.md"') < prompt.index("Question: " + QUESTION)

    rendered = a.render()
    assert rendered.startswith(GOOD + "\n\nCitations:\n  [1] docs/tokens.md:1–2 (Refresh tokens)  https://github.com/")
    assert "Flagged" not in rendered


def test_invented_citation_is_regenerated_once_with_the_error(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply("`validate_refresh_token` rejects tokens whose expiry is in the past [7].", input_tokens=800)
    stub.reply("`validate_refresh_token` rejects tokens whose expiry is in the past [2].", input_tokens=850)
    a = ask(graph, repo, llm(stub))
    assert a.text == "`validate_refresh_token` rejects tokens whose expiry is in the past [2]."
    assert [c.n for c in a.citations] == [2] and a.citations[0].status == "ok"
    assert a.flagged is False and a.llm["calls"] == 2 and a.llm["regenerated"] is True
    assert a.tokens["input"] == 1650 and a.tokens["output"] == 40
    assert any("cited [7] (no such source)" in n for n in a.notes)

    first, second = stub.requests
    assert second.messages[:2] == [first.messages[0], {"role": "assistant", "content":
                                   "`validate_refresh_token` rejects tokens whose expiry is in the past [7]."}]
    assert second.messages[2]["role"] == "user"
    assert second.last_user_text.startswith("Your answer cited [7], which is not among the sources: only [1]-[4] exist.")


@pytest.mark.parametrize("second", ["broken", "overloaded"])
def test_a_failed_regeneration_keeps_the_first_answer(graph, indexed, stub, second: str) -> None:
    """The regeneration after an unknown [N] failed (a malformed reply, 529s past the retries): the answer
    already received was thrown away, the CLI exiting 7 and the API answering 502/503 (seventh QA pass). The
    first answer stands, its unknown citation removed and flagged, and a note says why."""
    _, repo, _ = indexed
    stub.reply("`validate_refresh_token` rejects tokens whose expiry is in the past [2]. It is strict [7].")
    if second == "broken":
        stub.raw(200, b"{not json")
    else:
        for _ in range(3):
            stub.error(529, "overloaded")
    a = ask(graph, repo, llm(stub))
    assert a.text == "`validate_refresh_token` rejects tokens whose expiry is in the past [2]. It is strict."
    assert [c.n for c in a.citations] == [2]
    assert "citations of unknown sources removed: [7]" in a.flag_reasons
    assert any("regenerating it failed" in n for n in a.notes), a.notes


def test_invented_citation_still_there_after_regeneration_is_removed_and_flagged(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply("`validate_refresh_token` rejects tokens whose expiry is in the past [7].")
    stub.reply("`validate_refresh_token` rejects tokens whose expiry is in the past [2, 7]. "
               "It also writes an audit record for every refresh attempt [9].")
    a = ask(graph, repo, llm(stub))
    assert a.text == ("`validate_refresh_token` rejects tokens whose expiry is in the past [2]. "
                      "It also writes an audit record for every refresh attempt.")
    assert [c.n for c in a.citations] == [2]
    assert a.flagged and a.flag_reasons == ["citations of unknown sources removed: [7], [9]",
                                            "1 claim(s) without a citation"]
    assert a.uncited == ["It also writes an audit record for every refresh attempt."]
    assert len(stub.requests) == 2
    assert citation_metrics([a])["coverage"] == 0.5


def test_line_numbers_in_prose_are_not_trusted(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply("The expiry check is on lines 8-9 and raises `TokenExpired` when it fails [2]. "
               "The signature is compared in app/auth.py:14 by `check_signature` [2].")
    a = ask(graph, repo, llm(stub))
    assert a.prose_locations == ["lines 8-9", "app/auth.py:14"]
    assert a.flagged and a.flag_reasons == ["line references in the text are not checked: lines 8-9, app/auth.py:14"]
    assert [c.n for c in a.citations] == [2] and a.citations[0].status == "ok"   # only the resolved one has a location
    assert "not checked; trust only the citations" in a.render()


def test_answer_without_citations_lists_every_claim_as_uncited(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    text = ("## Summary\nThe function validate_refresh_token rejects expired tokens before it checks the signature. "
            "The route handler parses the bearer token from the Authorization header.\nShort sentence here.")
    stub.reply(text)
    a = ask(graph, repo, llm(stub))
    assert a.citations == [] and a.refused is False
    assert a.uncited == ["The function validate_refresh_token rejects expired tokens before it checks the signature.",
                         "The route handler parses the bearer token from the Authorization header."]
    assert a.flag_reasons == ["2 claim(s) without a citation"]
    assert citation_metrics([a]) == {"validity": 1.0, "coverage": 0.0, "citations": 0, "ok": 0, "claims": 2,
                                     "covered": 0, "answers": 1, "refused": 0}
    # the CLI's text showed no source at all (the API's JSON had them; sixth QA pass)
    assert "Sources it was given (none cited):\n  [1] docs/tokens.md:1-2" in a.render(), a.render()


def test_refusal_is_recognised_and_carries_no_citations(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply(REFUSAL + " [1]")
    a = ask(graph, repo, llm(stub), question="How are refresh tokens revoked?")
    assert a.refused is True and a.text == REFUSAL
    assert a.citations == [] and a.uncited == [] and a.flagged is False
    assert len(stub.requests) == 1
    assert citation_metrics([a])["refused"] == 1


def test_rate_limit_then_success_is_retried_by_the_sdk(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.error(429, "slow down", headers={"retry-after-ms": "20"}).reply(GOOD)
    a = ask(graph, repo, llm(stub))
    assert a.text == GOOD and not a.flagged and len(a.citations) == 3
    assert len(stub.requests) == 2 and a.llm["retries"] == 1 and a.llm["calls"] == 1
    assert stub.requests[0].body == stub.requests[1].body


def test_server_errors_until_give_up_are_a_clear_llm_error(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    for _ in range(3):
        stub.error(500, "internal", headers={"retry-after-ms": "10"})
    with pytest.raises(LLMUnavailable) as err:
        ask(graph, repo, llm(stub, max_retries=2))
    assert len(stub.requests) == 3
    assert err.value.message == "the Anthropic API failed with 500 (after 2 retries): internal"
    assert err.value.http_status == 503 and err.value.exit_code == 7


def test_timeout_is_a_clear_error(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.sleep(5)
    with pytest.raises(LLMUnavailable, match=r"did not answer within 0.3s") as err:
        ask(graph, repo, llm(stub, timeout=0.3, max_retries=0))
    assert len(stub.requests) == 1 and "GRAPHRAG_LLM_TIMEOUT" in str(err.value)


@pytest.mark.parametrize("body, content_type", [
    (b'{"id": "msg_1", "content": [{"type": "text", "te', "application/json"),
    (b'{"unexpected": true}', "application/json"),
    (b"<html>gateway</html>", "text/html"),
])
def test_malformed_response_is_a_clear_error(graph, indexed, stub, body: bytes, content_type: str) -> None:
    _, repo, _ = indexed
    stub.raw(200, body, content_type)
    with pytest.raises(LLMError, match="malformed response") as err:
        ask(graph, repo, llm(stub))
    assert not isinstance(err.value, LLMUnavailable) and err.value.http_status == 502


def test_invalid_key_is_a_clear_error_without_retries(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.error(401, "invalid x-api-key")
    with pytest.raises(LLMError, match=r"rejected the API key \(401: invalid x-api-key\)") as err:
        ask(graph, repo, llm(stub))
    assert len(stub.requests) == 1 and "ANTHROPIC_API_KEY" in str(err.value)


def test_missing_key_falls_back_to_extractive_unless_the_llm_was_required(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    a = ask(graph, repo, LLMSettings(api_key=None, base_url=stub.url))
    assert a.mode == "extractive" and a.text.startswith("Extractive answer (no LLM: ANTHROPIC_API_KEY is not set)")
    assert "ANTHROPIC_API_KEY is not set: extractive answer (set it for a generated one)" in a.notes
    assert len(a.citations) == 4 and all(c.status == "ok" for c in a.citations)
    with pytest.raises(LLMUnavailable, match="ANTHROPIC_API_KEY is not set"):
        ask(graph, repo, LLMSettings(api_key=None, base_url=stub.url), require_llm=True)
    assert stub.requests == []


def test_sources_over_the_token_budget_are_left_out(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply(REFUSAL)
    a = ask(graph, repo, llm(stub, context_window=1000, context_share=0.15))   # 150 tokens for sources
    assert a.tokens["budget"] == 150 and 0 < a.tokens["sources_estimate"] <= 150 < a.tokens["prompt_estimate"]
    # docs (~78 tokens) fits, validate_refresh_token (~140) and refresh_route (~90) do not, the import line does
    assert [s.hit.location for s in a.sources] == ["docs/tokens.md:1-2", "app/routes.py:1-1"]
    assert "2 retrieved source(s) left out: over the context budget of 150 tokens" in a.notes
    assert '<source n="2" file="app/routes.py" symbol="&lt;module&gt;" kind="module" lines="1-1">' \
        in stub.requests[0].last_user_text


# ---------------------------------------------------------------------------------------------------------
# Extractive answers

EXTRACTIVE_PICKS = [(VALIDATE, ["callee of refresh_route (line 6)", "caller of check_signature (line 10)"]),
                    (DOCS, []), (IMPORTS, []), (ROUTE, ["caller of validate_refresh_token (line 6)"]),
                    (CHECK, ["callee of validate_refresh_token (line 10)"])]
EXTRACTIVE = """\
Extractive answer (no LLM: --no-llm): the indexed code ranked for this question, best first. Nothing here is generated.

[1] app/auth.py:5–10 (validate_refresh_token) [function, implementation]
    def validate_refresh_token(token, now=None)
    found as callee of refresh_route (line 6)
    found as caller of check_signature (line 10)
[2] docs/tokens.md:1–2 (Refresh tokens) [section, docs]
    # Refresh tokens
[3] app/routes.py:1 (<module>) [module, implementation]
    from .auth import validate_refresh_token
[4] app/routes.py:4–6 (refresh_route) [function, implementation]
    def refresh_route(request)
    found as caller of validate_refresh_token (line 6)
[5] app/auth.py:13–14 (check_signature) [function, implementation]
    def check_signature(token)
    found as callee of validate_refresh_token (line 10)

Call chains between the sources (CALLS edges in the graph):
  refresh_route [4] → validate_refresh_token [1] → check_signature [5]
Calls:
  validate_refresh_token [1] calls check_signature [5] at app/auth.py:10
  refresh_route [4] calls validate_refresh_token [1] at app/routes.py:6"""


def extractive(graph, repo: str, picks=EXTRACTIVE_PICKS) -> Answer:
    return answer(graph, "validate_refresh_token", repo=repo, no_llm=True,
                  searcher=FixedSearcher(graph, repo, picks))


def test_extractive_answer_lists_sources_and_the_call_chain(graph, indexed) -> None:
    _, repo, commit = indexed
    a = extractive(graph, repo)
    assert a.mode == "extractive" and a.text == EXTRACTIVE
    assert a.call_chain == {"paths": [[4, 1, 5]], "calls": [
        {"from": 1, "to": 5, "lines": [10], "confidence": 0.95, "resolved_by": "same_file"},
        {"from": 4, "to": 1, "lines": [6], "confidence": 0.9, "resolved_by": "import"}]}
    assert [c.url for c in a.citations][:2] == [gh(commit, "app/auth.py", "L5-L10"), gh(commit, "docs/tokens.md", "L1-L2")]
    assert [c.status for c in a.citations] == ["ok"] * 5 and not a.refused
    assert a.tokens == {"input": 0, "output": 0, "budget": 0, "sources_estimate": 0, "prompt_estimate": 0}
    assert a.llm == {}
    assert not a.flagged and citation_metrics([a])["validity"] == 1.0
    assert a.render().endswith(f"Links:\n  [1] {gh(commit, 'app/auth.py', 'L5-L10')}\n"
                               f"  [2] {gh(commit, 'docs/tokens.md', 'L1-L2')}\n"
                               f"  [3] {gh(commit, 'app/routes.py', 'L1')}\n"
                               f"  [4] {gh(commit, 'app/routes.py', 'L4-L6')}\n"
                               f"  [5] {gh(commit, 'app/auth.py', 'L13-L14')}")


def test_extractive_answer_through_the_real_search(graph, indexed) -> None:
    """The whole pipeline, retrieval included; the ranking itself may move, so only its shape is asserted."""
    _, repo, _ = indexed
    a = answer(graph, "validate_refresh_token", repo=repo, no_llm=True,
               search_options=SearchOptions(k=5, channels=("fulltext", "symbol", "location")))
    assert a.text.startswith("Extractive answer (no LLM: --no-llm): the indexed code ranked for this question")
    assert "\n[1] app/auth.py:5–10 (validate_refresh_token) [function, implementation]\n" in a.text
    assert len(a.sources) == 5 and all(c.status == "ok" for c in a.citations)
    by_n = {s.n: s.hit.qualified_name for s in a.sources}
    calls = {(by_n[c["from"]], by_n[c["to"]]) for c in a.call_chain.get("calls", [])}
    if "refresh_route" in by_n.values():
        assert ("refresh_route", "validate_refresh_token") in calls


def test_no_matching_code_is_a_refusal_without_calling_the_llm(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    a = answer(graph, "zzqx wobbulator", repo=repo, llm=llm(stub), search_options=OPTS)
    assert a.refused and a.text == REFUSAL and a.sources == [] and stub.requests == []


# ---------------------------------------------------------------------------------------------------------
# Stale citations

def _citation(a: Answer, path: str) -> Citation:
    (c,) = [c for c in a.citations if c.path == path and c.symbol != "<module>"]
    return c


def test_plain_directory_file_changed_on_disk_is_stale(graph, tmp_path, repo_name) -> None:
    root = tmp_path / "plain"
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    index_repository(graph, root, name=repo_name)
    before = extractive(graph, repo_name, PICKS)
    c = _citation(before, "app/auth.py")
    assert (c.status, c.commit, c.url) == ("ok", None, (root / "app/auth.py").as_uri() + "#L5-L10")

    (root / "app/auth.py").write_text("# a new first line moves everything down\n" + AUTH)
    after = extractive(graph, repo_name, PICKS)
    c = _citation(after, "app/auth.py")
    assert (c.status, c.reason) == ("stale", "the file changed on disk since it was indexed")
    assert c.render().endswith("[STALE: the file changed on disk since it was indexed; lines not shown]")
    assert "[2] app/auth.py:5–10 (validate_refresh_token) [function, implementation]\n" \
           "    [STALE: the file changed on disk since it was indexed; lines not shown]" in after.text
    assert after.flagged and after.flag_reasons == ["stale citations: [2] the file changed on disk since it was indexed"]
    assert _citation(after, "docs/tokens.md").status == "ok"
    assert citation_metrics([after])["validity"] == pytest.approx(3 / 4)

    (root / "app/auth.py").unlink()
    gone = extractive(graph, repo_name, PICKS)
    assert (_citation(gone, "app/auth.py").status, _citation(gone, "app/auth.py").reason) == \
        ("stale", "app/auth.py no longer exists")


def test_git_new_commit_keeps_the_indexed_commit_and_flags_the_working_tree(graph, indexed, stub) -> None:
    git_repo, repo, commit = indexed
    git_repo.write("app/auth.py", "# moved down by one line\n" + AUTH)
    new_commit = git_repo.commit("shift")
    stub.reply("`validate_refresh_token` rejects tokens whose expiry is in the past [2].")
    a = ask(graph, repo, llm(stub))
    (c,) = a.citations
    assert (c.status, c.commit, c.worktree_changed) == ("ok", commit, True) and new_commit != commit
    assert c.reason == "the working-tree file differs at these lines"
    assert c.url == gh(commit, "app/auth.py", "L5-L10")
    assert c.render().endswith("[working tree differs (the working-tree file differs at these lines); "
                               "the link shows the indexed commit]")
    assert "working tree differs at [2] (the cited lines are the indexed commit's; a file:// link opens the " \
           "working tree)" in a.notes
    assert not a.flagged and citation_metrics([a])["validity"] == 1.0


def test_a_file_link_of_a_changed_working_tree_says_it_opens_the_working_tree(graph, git_repo, repo_name) -> None:
    """Without a forge remote the link is file://, the working tree: the text says so (not "the link shows the
    indexed commit") and gives the git command that shows the indexed lines; status stays ok (verified at the
    indexed commit), so the text does not call the citation stale either."""
    for path, text in FILES.items():
        git_repo.write(path, text)
    commit = git_repo.commit("tokens")
    index_repository(graph, git_repo.root, name=repo_name)
    git_repo.write("app/auth.py", "# moved down by one line\n" + AUTH)         # not committed
    c = _citation(extractive(graph, repo_name, PICKS), "app/auth.py")
    assert (c.status, c.worktree_changed) == ("ok", True) and c.url.startswith("file://")
    command = (f"git -C {git_repo.root / 'app'} show {commit[:12]}:./auth.py")
    assert c.render() == (f"[2] app/auth.py:5–10 (validate_refresh_token)  {c.url}  [working tree differs (the "
                          f"working-tree file differs at these lines); the link opens the working tree, not the "
                          f"indexed commit {commit[:12]}; `{command}` shows the indexed lines]")
    assert "stale" not in c.render().lower() and c.to_dict()["rendered"] == c.render()
    shown = subprocess.run(shlex.split(command), capture_output=True, text=True, check=True, cwd="/")
    assert shown.stdout == AUTH
    # the extractive text's Links say so too (they listed the file:// link alone while a note said "the
    # citations show the indexed commit"; eighth QA pass)
    links = extractive(graph, repo_name, PICKS).render().split("Links:", 1)[1]
    assert f"[2] {c.url}  [working tree differs; the link opens the working tree" in links and command in links


def test_git_file_rewritten_in_the_working_tree_is_flagged(graph, indexed) -> None:
    git_repo, repo, commit = indexed
    git_repo.write("app/auth.py", "def validate_refresh_token(token):\n    return True\n")   # not committed
    a = extractive(graph, repo, PICKS)
    c = _citation(a, "app/auth.py")
    assert (c.status, c.worktree_changed, c.commit) == ("ok", True, commit)
    assert "    (working tree differs: the working-tree file differs at these lines)" in a.text
    assert _citation(a, "docs/tokens.md").worktree_changed is False


def test_git_commit_gone_is_stale(graph, indexed) -> None:
    git_repo, repo, commit = indexed
    git_repo.git("checkout", "-q", "--orphan", "rewritten")
    git_repo.commit("history rewritten")
    git_repo.git("branch", "-D", "main")
    git_repo.git("reflog", "expire", "--expire=now", "--all")
    git_repo.git("gc", "-q", "--prune=now")
    a = extractive(graph, repo, PICKS)
    assert {c.status for c in a.citations} == {"stale"}
    assert _citation(a, "app/auth.py").reason == f"commit {commit[:12]} is no longer in the repository at {git_repo.root}"
    assert "lines not shown" in a.text and a.flagged


def test_redacted_lines_are_compared_as_indexed(graph, git_repo, repo_name) -> None:
    key = "sk-ant-api03-" + "Ab3dE5gH7jK9mN1pQ3sT5vX7zB9dF1hJ"
    git_repo.write("app/client.py", f'def make_client():\n    api_key = "{key}"\n    return Client(api_key)\n')
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    a = answer(graph, "make_client", repo=repo_name, no_llm=True, search_options=OPTS)
    c = _citation(a, "app/client.py")
    assert c.status == "ok" and c.worktree_changed is False
    assert key not in json.dumps(a.to_dict())


# ---------------------------------------------------------------------------------------------------------
# The CLI

def fix_retrieval(monkeypatch, repo: str, picks) -> None:
    """`ask` builds its Searcher by name: hand it the fixed one."""
    import graphrag_code.search
    monkeypatch.setattr(graphrag_code.search, "Searcher",
                        lambda graph, embedder=None, reranker=None: FixedSearcher(graph, repo, picks))


def test_cli_ask_no_llm_json(graph, indexed, monkeypatch) -> None:
    _, repo, _ = indexed
    fix_retrieval(monkeypatch, repo, EXTRACTIVE_PICKS)
    result = CliRunner().invoke(cli(), ["ask", "validate_refresh_token", "--repo", repo, "--no-llm", "--no-vectors",
                                        "-k", "5", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["mode"] == "extractive" and out["answer"] == EXTRACTIVE
    assert [c["status"] for c in out["citations"]] == ["ok"] * 5 and out["refused"] is False


def test_cli_ask_with_the_llm(graph, indexed, stub, monkeypatch) -> None:
    _, repo, commit = indexed
    monkeypatch.setenv("ANTHROPIC_API_KEY", stub.api_key)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
    stub.reply(GOOD, input_tokens=900, output_tokens=70)
    fix_retrieval(monkeypatch, repo, PICKS)
    result = CliRunner().invoke(cli(), ["ask", QUESTION, "--repo", repo, "--no-vectors", "-k", "4",
                                        "--model", "claude-haiku-4-5", "--max-tokens", "300", "--explain"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(GOOD + "\n\nCitations:\n")
    assert f"  [2] app/auth.py:5–10 (validate_refresh_token)  {gh(commit, 'app/auth.py', 'L5-L10')}\n" in result.stdout
    assert "[llm: stub-model, 1 call(s), tokens in 900 / out 70, 3 citation(s)" in result.stdout
    assert "chunks_by_id" in result.stderr and "repo_get" in result.stderr
    assert f"LLM: stub-model at {stub.url}, 1 call(s), 0 retries" in result.stderr
    assert stub.requests[0].body["model"] == "claude-haiku-4-5" and stub.requests[0].body["max_tokens"] == 300


def test_cli_ask_server_errors_exit_7_with_the_message(graph, indexed, stub, monkeypatch) -> None:
    _, repo, _ = indexed
    monkeypatch.setenv("ANTHROPIC_API_KEY", stub.api_key)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
    for _ in range(2):
        stub.error(503, "overloaded", headers={"retry-after-ms": "10"})
    result = CliRunner().invoke(cli(), ["ask", QUESTION, "--repo", repo, "--no-vectors", "--max-retries", "1"])
    assert result.exit_code == LLMUnavailable.exit_code == 7
    assert "error: the Anthropic API failed with 503 (after 1 retry): overloaded\n  hint: retry later" in result.stderr
    assert len(stub.requests) == 2


def test_cli_ask_requires_the_key_with_llm_flag(graph, indexed) -> None:
    _, repo, _ = indexed
    result = CliRunner().invoke(cli(), ["ask", QUESTION, "--repo", repo, "--no-vectors", "--llm"])
    assert result.exit_code == 7 and "ANTHROPIC_API_KEY is not set" in result.stderr
    fallback = CliRunner().invoke(cli(), ["ask", QUESTION, "--repo", repo, "--no-vectors"])
    assert fallback.exit_code == 0 and fallback.stdout.startswith("Extractive answer (no LLM: ANTHROPIC_API_KEY")
    assert "note: ANTHROPIC_API_KEY is not set" in fallback.stderr


# ---------------------------------------------------------------------------------------------------------
# Pure parts: claims, ordering, links, metrics

def test_claims_headings_code_and_citation_placement() -> None:
    text = ("# Overview\nToken validation works as follows:\n"
            "- `validate_refresh_token` rejects tokens whose expiry is past. [2]\n"
            "- Then `check_signature` compares `sig[1]` against the signed payload value [2][3].\n"
            "```python\nassert token.payload[4] is not None and all is fine\n```\n"
            "Too short [1].\n" + REFUSAL)
    checked = cit.check(text, 3)
    assert checked.cited == [2, 3, 1] and checked.unknown == [] and not checked.refused
    assert [(c.sentence, c.cites) for c in checked.claims] == [
        ("`validate_refresh_token` rejects tokens whose expiry is past. [2]", [2]),
        ("Then `check_signature` compares `sig[1]` against the signed payload value [2][3].", [2, 3])]
    assert cit.remove_citations("A [1, 7] b [7]. `x[7]`", [7]) == "A [1] b. `x[7]`"


def test_prose_locations() -> None:
    found = cit.check("See line 12, lines 3 to 5, L10-L20, src/app.ts:45-50 and #L7 but not version 1.2 "
                      "or example.com:8080 [1].", 1)
    assert found.prose_locations == ["line 12", "lines 3 to 5", "L10-L20", "src/app.ts:45-50", "#L7"]


def test_sources_order_docs_then_implementation_then_tests_at_equal_relevance() -> None:
    def hit(path: str, score: float, **kw) -> Hit:
        return Hit(id=path, repo="r", commit=None, path=path, start_line=1, end_line=2, score=score,
                   text="x = 1", **kw)
    hits = [hit("tests/test_a.py", 0.5, is_test=True), hit("a.py", 0.5, language="python"),
            hit("README.md", 0.5, language="markdown", chunk_kind="section"), hit("tests/test_b.py", 0.9, is_test=True)]
    assert [h.path for h in order_sources(hits)] == ["tests/test_b.py", "README.md", "a.py", "tests/test_a.py"]
    assert [category(h) for h in hits] == ["tests", "implementation", "docs", "tests"]
    first, second = order_sources(hits)[:2]
    budget = estimate_tokens(source_block(1, first)) + estimate_tokens(source_block(2, second))
    sources, skipped = select_sources(hits, budget=budget)
    assert [(s.n, s.hit.path) for s in sources] == [(1, "tests/test_b.py"), (2, "README.md")] and skipped == 2


@pytest.mark.parametrize("remote, url", [
    ("https://github.com/acme/app.git", "https://github.com/acme/app/blob/c0ffee/src/a%20b.py#L10-L20"),
    ("git@github.com:acme/app.git", "https://github.com/acme/app/blob/c0ffee/src/a%20b.py#L10-L20"),
    ("ssh://git@gitlab.com/group/sub/app.git", "https://gitlab.com/group/sub/app/-/blob/c0ffee/src/a%20b.py#L10-20"),
    ("https://gitlab.example.org/g/app", "https://gitlab.example.org/g/app/-/blob/c0ffee/src/a%20b.py#L10-20"),
    ("https://bitbucket.org/team/app.git", "https://bitbucket.org/team/app/src/c0ffee/src/a%20b.py#lines-10:20"),
    ("https://git.example.com/team/app.git", None),
    ("/srv/git/app.git", None),
])
def test_permalinks(remote: str, url: str | None) -> None:
    assert cit.blob_url(remote, "c0ffee", "src/a b.py", 10, 20) == url


def test_citation_metrics_pools_answers_and_dicts() -> None:
    ok = Citation(1, "i", "r", "c", "a.py", 1, 2, "f", None, "ok")
    stale = Citation(2, "j", "r", "c", "b.py", 1, 2, "g", None, "stale", "gone")
    a = Answer("q", "t", "llm", citations=[ok, stale],
               claims=[cit.Claim("s1", [1]), cit.Claim("s2", [2]), cit.Claim("s3", [])])
    refused = Answer("q", REFUSAL, "llm", refused=True)
    m = citation_metrics([a, refused.to_dict()])
    assert m == {"validity": 0.5, "coverage": pytest.approx(1 / 3), "citations": 2, "ok": 1, "claims": 3,
                 "covered": 1, "answers": 2, "refused": 1}
    assert citation_metrics([]) == {"validity": 1.0, "coverage": 1.0, "citations": 0, "ok": 0, "claims": 0,
                                    "covered": 0, "answers": 0, "refused": 0}


def test_settings_from_env(monkeypatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("GRAPHRAG_LLM_CONTEXT_WINDOW", "100000")
    monkeypatch.setenv("GRAPHRAG_LLM_MAX_RETRIES", "5")
    s = LLMSettings.from_env(model="m")
    assert (s.api_key, s.model, s.context_budget, s.max_retries) == ("sk-ant-test", "m", 35000, 5)
    assert "sk-ant-test" not in repr(s)
    monkeypatch.setenv("GRAPHRAG_LLM_TIMEOUT", "soon")
    with pytest.raises(Exception, match="GRAPHRAG_LLM_TIMEOUT='soon' is not a float"):
        LLMSettings.from_env()


def test_an_empty_base_url_means_the_default_endpoint(monkeypatch, stub) -> None:
    """docker-compose.yml passes `ANTHROPIC_BASE_URL: ${ANTHROPIC_BASE_URL:-}`: set but empty. Given no URL, the
    SDK would read that variable itself and take "" for the endpoint."""
    from graphrag_code.llm import DEFAULT_BASE_URL, LLMClient

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "")
    client = LLMClient(LLMSettings.from_env())
    assert str(client._client.base_url).rstrip("/") == DEFAULT_BASE_URL
    monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
    assert str(LLMClient(LLMSettings.from_env())._client.base_url).rstrip("/") == stub.url


def test_subdirectory_root_links_include_the_prefix(graph, git_repo, repo_name) -> None:
    git_repo.write("svc/api/handlers.py", "def handle(request):\n    return request\n")
    commit = git_repo.commit()
    git_repo.git("remote", "add", "origin", "https://github.com/acme/mono.git")
    index_repository(graph, git_repo.root / "svc", name=repo_name)
    a = answer(graph, "handle", repo=repo_name, no_llm=True, search_options=OPTS)
    c = _citation(a, "api/handlers.py")
    assert c.status == "ok" and c.url == f"https://github.com/acme/mono/blob/{commit}/svc/api/handlers.py#L1-L2"


def test_stub_answers_404_for_other_routes(stub) -> None:
    import urllib.error
    import urllib.request
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(urllib.request.Request(stub.url + "/v1/complete", data=b"{}", method="POST"))
    assert err.value.code == 404


def test_git_show_reads_the_commit_not_the_working_tree(indexed) -> None:
    git_repo, _, commit = indexed
    git_repo.write("app/auth.py", "changed\n")
    shown = subprocess.run(["git", "show", f"{commit}:./app/auth.py"], cwd=Path(git_repo.root),
                           capture_output=True, check=True)
    assert cit.indexed_lines(shown.stdout)[4] == "def validate_refresh_token(token, now=None):"


# ---------------------------------------------------------------------------------------------------------
# the LLM judge (eval --judge): one strict verdict per (claim, cited source)

def test_judge_asks_about_every_claim_and_source_and_counts_strictly(graph, indexed, stub) -> None:
    from graphrag_code.judge import RUBRIC, judge
    from graphrag_code.llm import LLMClient

    _, repo, _ = indexed
    stub.reply(GOOD)
    a = ask(graph, repo, llm(stub))
    pairs = [(c.sentence, n) for c in a.claims for n in c.cites]
    assert len(pairs) == 4
    stub.reply("SUPPORTED. The excerpt rejects expired tokens.").reply("UNSUPPORTED: not shown.")
    stub.reply("Supported").reply("I think so")   # a reply without a verdict word never counts as support
    with LLMClient(llm(stub)) as client:
        report = judge([a], client)
    assert [(v.claim, v.source) for v in report.verdicts] == pairs
    assert [v.supported for v in report.verdicts] == [True, False, True, None]
    assert report.to_dict() == {"pairs": 4, "supported": 2, "unparseable": 1, "correctness": 0.5}
    sent = stub.requests[-4:]
    assert all(r.body["system"] == RUBRIC for r in sent)
    assert "Excerpt:\ndocs/tokens.md:1-2" in sent[0].last_user_text


def test_judge_skips_extractive_and_refused_answers(graph, indexed, stub) -> None:
    from graphrag_code.judge import judge
    from graphrag_code.llm import LLMClient

    _, repo, _ = indexed
    extractive = ask(graph, repo, no_llm=True)
    with LLMClient(llm(stub)) as client:
        assert judge([extractive], client).to_dict()["pairs"] == 0
    assert stub.requests == []


# -- third QA pass: markers with more than four digits ([12345]) or a range ([1-3]) are handled as an invented
# source number is: regenerated once with the error, then removed and flagged
CLAIM = "`validate_refresh_token` rejects tokens whose expiry is in the past"


def test_long_numbers_and_ranges_are_not_valid_citations() -> None:
    checked = cit.check(f"{CLAIM} [12345]. It is called by the refresh route handler [1-3]. `x[1-3]` is code.", 4)
    assert checked.unknown == [12345] and checked.malformed == ["[1-3]"] and not checked.valid
    assert cit.remove_citations(f"{CLAIM} [2][12345]. Also [1-3]. `x[1-3]`", [12345], ["[1-3]"]) == \
        f"{CLAIM} [2]. Also. `x[1-3]`"


def test_negative_and_superscript_markers_are_no_citations_but_an_index_is_no_marker() -> None:
    """[-1] and [¹] were neither flagged nor removed (fourth QA pass); items[-1] in prose is an index, kept."""
    checked = cit.check(f"{CLAIM} [-1]. It reads the last part, parts[-1], of the header [¹].", 4)
    assert checked.malformed == ["[-1]", "[¹]"] and not checked.valid
    assert cit.remove_citations(f"{CLAIM} [-1]. It reads parts[-1] [2][¹].", [], ["[-1]", "[¹]"]) == \
        f"{CLAIM}. It reads parts[-1] [2]."


def test_a_range_marker_is_regenerated_once_with_the_error(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply(f"{CLAIM} [1-3].")
    stub.reply(f"{CLAIM} [2].")
    a = ask(graph, repo, llm(stub))
    assert a.text == f"{CLAIM} [2]." and not a.flagged and a.llm["regenerated"] is True
    assert stub.requests[1].last_user_text.startswith("Your answer cited [1-3], which is not among the sources")
    assert "a range such as [1-3] names none" in stub.requests[1].last_user_text


def test_long_numbers_and_ranges_left_after_regeneration_are_removed_and_flagged(graph, indexed, stub) -> None:
    _, repo, _ = indexed
    stub.reply(f"{CLAIM} [12345].")
    stub.reply(f"{CLAIM} [2][12345]. The route handler parses the token and passes it on [1-3].")
    a = ask(graph, repo, llm(stub))
    assert a.text == f"{CLAIM} [2]. The route handler parses the token and passes it on."
    assert "[12345]" in a.notes[-1] and len(stub.requests) == 2
    assert a.flag_reasons[0] == "citations of unknown sources removed: [12345], [1-3]"
    assert [c.n for c in a.citations] == [2]
