"""The LLM client against a local stub of the Messages API: retries and the deadline one answer's calls share
(the real anthropic SDK, no database)."""

from __future__ import annotations

import time

import pytest

from graphrag_code.errors import ConfigError, LLMError, LLMUnavailable
from graphrag_code.llm import LLMClient, LLMSettings
from messages_stub import MessagesStub

SYSTEM, MESSAGES = "Answer.", [{"role": "user", "content": "where is expiry checked?"}]


@pytest.fixture
def stub():
    with MessagesStub() as s:
        yield s


def client(stub: MessagesStub, **kw) -> LLMClient:
    return LLMClient(LLMSettings(api_key=stub.api_key, base_url=stub.url, **{"max_retries": 2, "timeout": 10.0,
                                                                            **kw}))


def test_retries_wait_the_servers_retry_after_and_are_counted(stub) -> None:
    stub.error(500, "internal", headers={"retry-after-ms": "20"}).error(529, "overloaded").reply("fine")
    with client(stub) as c:
        done = c.complete(SYSTEM, MESSAGES)
    assert done.text == "fine" and done.retries == 2 and len(stub.requests) == 3


def test_a_request_the_api_refused_is_not_retried(stub) -> None:
    stub.error(400, "bad request").reply("never")
    with client(stub) as c, pytest.raises(LLMError) as err:
        c.complete(SYSTEM, MESSAGES)
    assert not isinstance(err.value, LLMUnavailable) and len(stub.requests) == 1


def test_the_deadline_cuts_a_slow_attempt(stub) -> None:
    """timeout 10 s per attempt, but 0.6 s for the answer: the attempt is cut at the deadline, not at 10 s."""
    stub.sleep(5).sleep(5).sleep(5)
    started = time.monotonic()
    with client(stub, deadline=0.6) as c, pytest.raises(LLMUnavailable, match="within the deadline of 0.6s") as err:
        c.complete(SYSTEM, MESSAGES)
    assert time.monotonic() - started < 2.5 and "GRAPHRAG_LLM_DEADLINE" in (err.value.hint or "")


def test_the_deadline_cuts_a_reply_that_trickles_in(stub) -> None:
    """Every byte within the 10 s read timeout, the whole body never within the 2 s deadline: cut at 2 s (it
    took the body's ~150 bytes x 0.3 s, and then answered; sixth QA pass measured 117 s against a 15 s deadline)."""
    stub.trickle(0.3).trickle(0.3).trickle(0.3)
    started = time.monotonic()
    with client(stub, deadline=2.0) as c, pytest.raises(LLMUnavailable, match="within the deadline of 2s"):
        c.complete(SYSTEM, MESSAGES)
    assert time.monotonic() - started < 3.5


def test_a_quick_reply_after_a_cut_one_is_read_whole(stub) -> None:
    """The cut belongs to the one call: the next call, with its own deadline, reads a reply that trickles in
    quickly enough."""
    stub.trickle(0.3).trickle(0.002, "whole")
    with client(stub, deadline=1.0, max_retries=0) as c:
        with pytest.raises(LLMUnavailable, match="deadline"):
            c.complete(SYSTEM, MESSAGES)
        assert c.complete(SYSTEM, MESSAGES, time.monotonic() + 5).text == "whole"


def test_a_retry_after_beyond_the_deadline_gives_up_at_once(stub) -> None:
    """A 429 asking for 15 s with 3 s left: no wait that could only end past the deadline (it took 32 s with
    retries and per-attempt timeouts alone; third QA pass)."""
    stub.error(429, "slow down", headers={"retry-after": "15"}).reply("too late")
    started = time.monotonic()
    with client(stub, deadline=3.0) as c, pytest.raises(LLMUnavailable, match="deadline") as err:
        c.complete(SYSTEM, MESSAGES)
    assert time.monotonic() - started < 1.5 and len(stub.requests) == 1
    # the API's own words and wait are passed on (they had been replaced by "no answer within the deadline" and
    # the default Retry-After of 5; eighth QA pass)
    assert "rate-limiting this key (429" in err.value.message and "waiting 15s to retry would pass" in err.value.message
    assert err.value.retry_after == 15


def test_calls_sharing_a_passed_deadline_send_nothing(stub) -> None:
    """An answer's regeneration gets what the first call left: none left, no request."""
    stub.reply("first").reply("second")
    with client(stub) as c:
        deadline = time.monotonic() + 0.2
        assert c.complete(SYSTEM, MESSAGES, deadline).text == "first"
        time.sleep(0.3)
        with pytest.raises(LLMUnavailable, match="deadline"):
            c.complete(SYSTEM, MESSAGES, deadline)
    assert len(stub.requests) == 1


@pytest.mark.parametrize("value", ["0", "-3", "nan"])
def test_the_deadline_setting_is_checked(monkeypatch, value: str) -> None:
    """NaN too: it parses as a float and fails every comparison, so a `<= 0` check let it through and turned the
    deadline off (fourth QA pass: 5 attempts in 12.5 s where 3 s were set)."""
    monkeypatch.setenv("GRAPHRAG_LLM_DEADLINE", value)
    with pytest.raises(ConfigError, match="deadline"):
        LLMSettings.from_env()
    monkeypatch.setenv("GRAPHRAG_LLM_DEADLINE", "45")
    assert LLMSettings.from_env().deadline == 45.0


def test_a_retry_after_over_the_cap_is_reported_as_such_not_as_retries(stub) -> None:
    """A 429 asking for an hour is not retried, and the error says so, not "after 2 retries" (fourth QA pass)."""
    stub.error(429, "slow down", headers={"retry-after": "3600"}).reply("never")
    with client(stub) as c, pytest.raises(LLMUnavailable) as err:
        c.complete(SYSTEM, MESSAGES)
    assert len(stub.requests) == 1
    assert err.value.message == ("the Anthropic API is rate-limiting this key (429, not retried; it asked to wait "
                                 "3600s, over the 60s this client waits: slow down)")


def test_the_retries_an_error_reports_are_the_ones_made(stub) -> None:
    stub.error(529, "overloaded").error(529, "still overloaded")
    with client(stub, max_retries=1) as c, pytest.raises(LLMUnavailable) as err:
        c.complete(SYSTEM, MESSAGES)
    assert err.value.message == "the Anthropic API failed with 529 (after 1 retry): still overloaded"


@pytest.mark.parametrize("header", [{"retry-after-ms": "-5"}, {"retry-after-ms": "nan"}, {"retry-after": "-1"}])
def test_an_unusable_retry_after_backs_off_as_without_one(stub, header: dict) -> None:
    """A negative retry-after was taken as 0: both retries went out at once (fourth QA pass). Ignored now, the
    client backs off 0.5 s, then 1 s."""
    stub.error(429, "slow down", headers=header).error(429, "slow down", headers=header).reply("fine")
    started = time.monotonic()
    with client(stub) as c:
        assert c.complete(SYSTEM, MESSAGES).text == "fine"
    assert time.monotonic() - started >= 1.4 and len(stub.requests) == 3


def test_the_retries_setting_has_the_cli_options_bounds(monkeypatch) -> None:
    """GRAPHRAG_LLM_MAX_RETRIES=99 was taken (--max-retries stops at 10): ask retried an unreachable API until
    the deadline (eighth QA pass)."""
    monkeypatch.setenv("GRAPHRAG_LLM_MAX_RETRIES", "99")
    with pytest.raises(ConfigError, match="max_retries must be 0-10"):
        LLMSettings.from_env()
    monkeypatch.setenv("GRAPHRAG_LLM_MAX_RETRIES", "10")
    assert LLMSettings.from_env().max_retries == 10
