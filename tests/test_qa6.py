"""Findings of the sixth QA pass, end to end against the real Neo4j: impact verdicts on keyed values (Go struct
literals, JS objects, Python dicts), `impact --diff` of a deleted definition, and the default repository when
several were indexed from one directory."""

from __future__ import annotations

import pytest

from graphrag_code.db import Graph
from graphrag_code.errors import InputError
from graphrag_code.impact import analyze_impact
from graphrag_code.indexer import index_repository
from graphrag_code.paths import default_repository

GO_LITERAL = """package main

type Command struct {
	Use string
	Run func()
}

func noop() {}

func other() {}

var root = Command{
	Use: "x",
	Run: noop,
}

var two = Command{Use: "y", Run: other}
"""


@pytest.mark.parametrize("path,text,target", [
    ("main.go", GO_LITERAL, "noop"),                         # `Run: noop,` starting its line
    ("main.go", GO_LITERAL, "other"),                        # `, Run: other` after a comma
    ("app.js", "function onData(x) { return x; }\n\nmodule.exports = {\n  data: onData,\n};\n", "onData"),
    ("n.py", "def cb():\n    return 1\n\n\nKEY = 1\nHANDLERS = {\n    KEY: cb,\n}\n", "cb"),
])
def test_a_function_stored_under_a_key_is_a_value_reference(graph: Graph, git_repo, repo_name, path, text,
                                                             target) -> None:
    """cobra's NoFileCompletions, set as `ValidArgsFunction: NoFileCompletions,` five times, had a COMPLETE
    verdict with no callers: `key: name` was read as a type annotation (sixth QA pass)."""
    git_repo.write(path, text)
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, target, depth=1)
    assert result.completeness.verdict == "lower_bound", result.completeness.reasons
    assert any(r["kind"] == "value" for r in result.completeness.value_references), \
        result.completeness.value_references


def test_a_type_after_a_key_is_still_an_annotation(graph: Graph, git_repo, repo_name) -> None:
    """The other side: a class named in `x: Box` (a parameter's annotation) is no value reference."""
    git_repo.write("m.py", "class Box:\n    pass\n\n\ndef make() -> None:\n    return Box()\n\n\n"
                           "def use(b: Box) -> None:\n    return None\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "Box", depth=1)
    assert [r for r in result.completeness.value_references if r["line"] == 9] == []


def test_impact_diff_of_a_deleted_definition_touches_no_neighbour(graph: Graph, git_repo, repo_name) -> None:
    """Deleting an uncalled `b` between `a` and `c` made `c` and "module code" targets (exit 8 with --fail-on 0);
    a deletion inside a function still touches that function (sixth QA pass)."""
    git_repo.write("m.py", "def a():\n    x = 1\n    y = 2\n    return x + y\n\n\n"
                           "def b():\n    return 2\n\n\ndef c():\n    return 3\n\n\ndef user():\n    return c()\n")
    git_repo.commit("v1")
    git_repo.write("m.py", "def a():\n    x = 1\n    y = 2\n    return x + y\n\n\n"
                           "def c():\n    return 3\n\n\ndef user():\n    return c()\n")
    git_repo.commit("v2")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, diff="HEAD~1", depth=1)
    assert [t.node.display for t in result.targets] == [], [t.node.display for t in result.targets]
    assert [r.qualified_name for r in result.removed] == ["b"]
    git_repo.write("m.py", "def a():\n    x = 1\n    return x\n\n\n"
                           "def c():\n    return 3\n\n\ndef user():\n    return c()\n")
    git_repo.commit("v3")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, diff="HEAD~1", depth=1)
    assert [t.node.qualified_name for t in result.targets] == ["a"]


def test_several_repositories_of_one_directory_are_ambiguous(graph: Graph, git_repo, repos) -> None:
    """`path`/`impact` without --repo, run in a directory indexed under two names, used the first listed (a
    stale one) without a word (sixth QA pass)."""
    git_repo.write("m.py", "def a():\n    return 1\n")
    git_repo.commit("v1")
    old, new = repos("test-amb"), repos("test-amb")
    index_repository(graph, git_repo.root, name=old)
    assert default_repository(graph, str(git_repo.root)) == old
    index_repository(graph, git_repo.root, name=new)
    with pytest.raises(InputError, match="which repository") as err:
        default_repository(graph, str(git_repo.root))
    assert old in str(err.value) and new in str(err.value)


@pytest.mark.parametrize("path,text,target", [
    ("t.java", "class Temp {\n  public String toString() { return \"t\"; }\n}\n\nclass Main {\n"
               "  String show(Temp t) { return \"temp=\" + t; }\n}\n", "Temp.toString"),
    ("m.js", "class Money {\n  valueOf() { return 1; }\n}\n\nfunction add(m) { return m + 1; }\n"
             "module.exports = { add, Money };\n", "Money.valueOf"),
    ("c.go", "package main\n\nimport \"sort\"\n\ntype byAge []int\n\nfunc (a byAge) Len() int { return len(a) }\n"
             "func (a byAge) Less(i, j int) bool { return a[i] < a[j] }\n"
             "func (a byAge) Swap(i, j int) { a[i], a[j] = a[j], a[i] }\n\n"
             "func main() { sort.Sort(byAge{2, 1}) }\n", "byAge.Less"),
    ("c.go", "package main\n\nfunc init() {}\n\nfunc main() {}\n", "init"),
    ("p.ts", "export class Person {\n  private n = \"\";\n  set nickname(v: string) { this.n = v; }\n}\n\n"
             "export function rename(p: Person): void {\n  p.nickname = \"x\";\n}\n", "Person.nickname"),
])
def test_methods_the_language_calls_implicitly_are_lower_bounds(graph: Graph, git_repo, repo_name, path, text,
                                                                target) -> None:
    """Java's toString, JS's valueOf, Go's sort.Interface and init, a TS setter: COMPLETE with no callers, as
    Python's dunders and properties were before they had a rule (sixth QA pass)."""
    git_repo.write(path, text)
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, target, depth=1)
    assert result.completeness.verdict == "lower_bound", result.completeness.reasons
    assert any("implicitly" in r or "property access" in r for r in result.completeness.reasons), \
        result.completeness.reasons


def test_api_messages_of_the_sixth_pass(graph: Graph, client, git_repo, repo_name) -> None:
    """A blank query is refused as the schema says (pattern \\S), a glob of spaces is a glob, malformed JSON is
    named as such, and another repository's id is named as that (sixth QA pass)."""
    git_repo.write("m.py", "def main():\n    return 1\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    schema = client.get("/openapi.json").get_json()
    body = schema["paths"]["/v1/search"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["query"]["pattern"] == r"\S"
    assert "pattern" not in body["properties"]["path"] or body["properties"]["path"]["pattern"] != r"\S"
    r = client.post("/v1/search", json={"query": "   ", "repo": repo_name})
    assert r.status_code == 400 and "must not be empty" in r.get_json()["error"]["message"]
    r = client.post("/v1/search", json={"query": "main", "repo": repo_name, "path": "  "})
    assert r.status_code == 200, r.get_json()
    r = client.post("/v1/search", data='{"query": "main",}', content_type="application/json")
    assert r.status_code == 400 and "malformed JSON" in r.get_json()["error"]["message"], r.get_json()
    r = client.post("/v1/paths", json={"repo": repo_name, "source": "alpha:src/app.py#main", "target": "main"})
    assert r.status_code == 404 and "names repository 'alpha'" in r.get_json()["error"]["message"], r.get_json()


def test_sources_from_several_repositories_name_theirs(git_repo, tmp_path) -> None:
    """Across repositories, the prompt's sources and the citations gave `src/util.py:1-3 (shared)` for each
    repository alike: the model could not tell them apart, nor could the reader (sixth QA pass)."""
    from graphrag_code.answer import Source, build_prompt
    from graphrag_code.citations import RepoInfo, Verifier
    from graphrag_code.search import Hit

    git_repo.write("src/util.py", "def shared():\n    x = 1\n    return x\n")
    commit = git_repo.commit("v1")
    hits = [Hit(id=f"{r}:src/util.py#shared", repo=r, commit=commit, path="src/util.py", start_line=1, end_line=3,
                score=1.0, qualified_name="shared", kind="function", text="def shared():\n    x = 1\n    return x")
            for r in ("alpha", "beta")]
    prompt = build_prompt("what is shared?", [Source(i + 1, h, "implementation", 10) for i, h in enumerate(hits)])
    assert '<source n="1" repo="alpha" file="src/util.py"' in prompt
    assert '<source n="2" repo="beta" file="src/util.py"' in prompt
    assert "repo=" not in build_prompt("what is shared?", [Source(1, hits[0], "implementation", 10)])
    infos = {r: RepoInfo(r, str(git_repo.root), commit, None) for r in ("alpha", "beta")}
    rendered = [Verifier(infos).citation(i + 1, h).render() for i, h in enumerate(hits)]
    assert rendered[0].startswith("[1] alpha:src/util.py:1–3 (shared)")
    assert rendered[1].startswith("[2] beta:src/util.py:1–3 (shared)")
    one = Verifier({"alpha": infos["alpha"]}).citation(1, hits[0])
    assert one.render().startswith("[1] src/util.py:1–3 (shared)") and "qualified" not in one.to_dict()


def test_a_java_constructor_has_the_constructions_of_its_class_as_callers(graph: Graph, git_repo,
                                                                           repo_name) -> None:
    """`impact Foo.Foo` said COMPLETE with no callers: `new Foo(1)` is an edge to the class (sixth QA pass)."""
    git_repo.write("src/p/Foo.java", "package p;\n\npublic class Foo {\n  private final int x;\n\n"
                                     "  public Foo(int x) {\n    this.x = x;\n  }\n}\n")
    git_repo.write("src/p/Main.java", "package p;\n\npublic class Main {\n  static Foo make() {\n"
                                      "    return new Foo(1);\n  }\n}\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "Foo.Foo", depth=1)
    assert [c.node.qualified_name for c in result.callers] == ["Main.make"]


def test_source_of_a_moved_checkout_is_a_409(graph: Graph, client, git_repo, repo_name, tmp_path) -> None:
    """/v1/source of a git repository whose checkout moved answered 400 with git's 'cannot change to' (the
    request was fine; the graph and the disk disagree, as for a plain directory's changed file: 409)."""
    git_repo.write("src/app.py", "def main():\n    return 1\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    git_repo.root.rename(tmp_path / "moved")
    r = client.get("/v1/source", query_string={"repo": repo_name, "path": "src/app.py", "start": 1, "end": 2})
    assert r.status_code == 409, r.get_json()
    assert r.get_json()["error"]["code"] == "source_changed"
    assert "is not there any more" in r.get_json()["error"]["message"]


C_MACRO = """static int helper(int x) { return x + 1; }

#define HELPER_LIMIT 3
#define CALL_IT(x) \\
    helper(x)

int user(int y) {
    return CALL_IT(y);
}
"""


@pytest.mark.parametrize("used", ["function-like", "object-like", "no"])
def test_a_c_function_called_from_a_macro(graph: Graph, git_repo, repo_name, used: str) -> None:
    """`#define CALL_IT(x) helper(x)`: user() calls helper through the macro, and impact said COMPLETE with no
    callers (sixth QA pass), then a lower bound citing the macro's body. A function-like macro is a definition
    now (extractor 175): the graph has CALL_IT -> helper and user -> CALL_IT. An object-like one naming it
    (`#define HELPER_FN helper`) is still cited: a lower bound. A macro that does not name it (HELPER_LIMIT is
    another word) changes nothing."""
    source = {"function-like": C_MACRO, "no": C_MACRO.replace("    helper(x)", "    (x) + 1"),
              "object-like": C_MACRO.replace("#define CALL_IT(x) \\\n    helper(x)",
                                             "#define CALL_IT \\\n    helper")}[used]
    assert source != C_MACRO or used == "function-like"
    git_repo.write("a.c", source)
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "helper", depth=2)
    macros = [r for r in result.completeness.value_references if r["kind"] == "macro"]
    callers = {(c.node.qualified_name, c.node.kind, c.depth, tuple(c.lines)) for c in result.callers}
    if used == "object-like":
        assert result.completeness.verdict == "lower_bound" and [r["citation"] for r in macros] == ["a.c:5"]
        assert any("1 macro(s) use helper" in r for r in result.completeness.reasons), result.completeness.reasons
    else:
        assert result.completeness.verdict == "complete" and not macros, result.completeness.reasons
    assert callers == ({("CALL_IT", "macro", 1, (5,)), ("user", "function", 2, (8,))} if used == "function-like"
                       else set()), callers


JS_ALIAS = """var req = exports = module.exports = {};

req.get =
req.header = function header(name) {
  return name.toLowerCase();
};

function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, { get: getter });
}

defineGetter(req, 'host', function host() {
  return this.get('Host');
});
"""


@pytest.mark.parametrize("other_name", ["get", "fetch"])
def test_a_js_function_reached_by_another_name_counts_its_unresolved_calls(graph: Graph, git_repo, repo_name,
                                                                         other_name: str) -> None:
    """`req.get = req.header = function header()`: `this.get('Host')` in a getter (whose `this` is unknown) may
    call req.header, and impact said COMPLETE (Express's request.js; sixth QA pass). With the call named
    otherwise, it is complete."""
    git_repo.write("req.js", JS_ALIAS.replace("this.get(", f"this.{other_name}("))
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "req.header", depth=1)
    same = [u.label for u in result.completeness.unresolved_same_name]
    if other_name == "get":
        assert result.completeness.verdict == "lower_bound" and same == ["this.get"], result.completeness.reasons
    else:
        assert result.completeness.verdict == "complete" and not same, result.completeness.reasons


def test_a_caller_run_out_of_sight_is_named_with_its_own_reason(graph: Graph, git_repo, repo_name) -> None:
    """A Java toString calling the target: the lower bound names it and why (the language calls it), not a
    list of Python's categories (dunder methods, file-protocol methods) that do not apply."""
    git_repo.write("src/p/Temp.java", "package p;\n\npublic class Temp {\n  static String fmt(int c) {\n"
                                      "    return c + \"C\";\n  }\n\n  public String toString() {\n"
                                      "    return fmt(3);\n  }\n}\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    result = analyze_impact(graph, repo_name, "Temp.fmt", depth=2)
    assert [c.node.qualified_name for c in result.callers] == ["Temp.toString"]
    reason = next(r for r in result.completeness.reasons if "run where the graph does not see" in r)
    assert "(Temp.toString: called implicitly by the language or its library)" in reason and "dunder" not in reason
