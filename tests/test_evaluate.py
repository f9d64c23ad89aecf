"""The evaluation's abstention threshold, fit on the training repositories' questions."""

from __future__ import annotations

from graphrag_code.evaluate import Question, Ranked, fit_threshold, refusal_rule


def _q(qid: str, negative: bool) -> Question:
    return Question(qid, "r", "?", "negative" if negative else "behaviour",
                    [] if negative else [{"path": "a.py", "start": 1, "end": 2}])


def _top(score: float) -> Ranked:
    return Ranked([{"path": "a.py", "start": 1, "end": 2, "tokens": 10, "score": score, "exact": False}])


def test_the_threshold_is_fit_by_balanced_accuracy_so_few_negatives_are_not_outvoted() -> None:
    """19 answerable questions and 2 negative ones, as express has, two of the answerable ones with weak top hits
    below the negatives': refusing nothing and refusing all four weak ones are right on 19 of 21 alike; plain
    accuracy took the first, 0.0, and the evaluation then refused no negative question of any repository."""
    questions = [_q(f"p{i}", False) for i in range(19)] + [_q("n1", True), _q("n2", True)]
    results = {f"p{i}": _top(0.03) for i in range(17)}
    results |= {"p17": _top(0.01562), "p18": _top(0.01587), "n1": _top(0.01587), "n2": _top(0.01613)}
    threshold = fit_threshold(questions, results)
    assert threshold == 0.03
    assert refusal_rule(threshold)(results["n2"]) and not refusal_rule(threshold)(results["p0"])


def test_without_negatives_nothing_is_refused() -> None:
    questions = [_q(f"p{i}", False) for i in range(3)]
    assert fit_threshold(questions, {f"p{i}": _top(0.01 * (i + 1)) for i in range(3)}) == 0.0
