"""An LLM judge for cited answers: does the cited code support the claim? A strict rubric, one verdict per
(claim, cited source) pair, parsed from a fixed first word so a chatty reply cannot count as support.

Used by `graphrag-code eval --judge` when ANTHROPIC_API_KEY is set; offline, validity and coverage
(citations.citation_metrics) are what can be measured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .answer import Answer
from .llm import LLMClient

RUBRIC = """You check one claim about source code against one excerpt of that code.
Reply with exactly one word first: SUPPORTED if the excerpt alone shows the claim is true, UNSUPPORTED if the
excerpt contradicts it or does not show it (including when the claim is only partly shown or needs other code).
After that word you may add one short sentence of reason. Be strict: plausible is not shown."""


@dataclass
class Verdict:
    claim: str
    source: int
    supported: bool | None        # None: the reply did not start with a verdict word
    reply: str


@dataclass
class JudgeReport:
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def correctness(self) -> float:
        """Share of judged (claim, source) pairs the judge found supported; unparseable replies count against."""
        return sum(v.supported is True for v in self.verdicts) / len(self.verdicts) if self.verdicts else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"pairs": len(self.verdicts), "supported": sum(v.supported is True for v in self.verdicts),
                "unparseable": sum(v.supported is None for v in self.verdicts),
                "correctness": round(self.correctness, 4)}


def _verdict(reply: str) -> bool | None:
    first = reply.strip().split(maxsplit=1)[0].strip(".:,*").upper() if reply.strip() else ""
    return {"SUPPORTED": True, "UNSUPPORTED": False}.get(first)


def judge(answers: list[Answer], client: LLMClient) -> JudgeReport:
    """Ask the judge about every claim of every LLM answer and each source it cites (extractive answers make
    no claims of their own and are skipped)."""
    report = JudgeReport()
    for ans in answers:
        if ans.mode != "llm" or ans.refused:
            continue
        by_n = {s.n: s for s in ans.sources}
        for claim in ans.claims:
            for n in claim.cites:
                source = by_n.get(n)
                if source is None:
                    continue
                excerpt = f"{source.hit.path}:{source.hit.start_line}-{source.hit.end_line}\n{source.hit.text}"
                reply = client.complete(RUBRIC, [{"role": "user", "content":
                                                  f"Claim: {claim.sentence}\n\nExcerpt:\n{excerpt}"}]).text
                report.verdicts.append(Verdict(claim.sentence, n, _verdict(reply), reply[:200]))
    return report
