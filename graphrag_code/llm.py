"""The LLM boundary: one call to the Anthropic Messages API through the ``anthropic`` SDK.

Nothing else in the package imports ``anthropic``; its errors are translated here, at the boundary, into
``LLMError`` (the API answered but the answer is unusable or the request was refused: HTTP 502) and
``LLMUnavailable`` (not configured, unreachable, timed out, rate-limited or failing after the retries: 503).

Settings (``LLMSettings.from_env``; the CLI options override them):

    ANTHROPIC_API_KEY                 the key; without it there is no LLM (see answer.py for the fallback)
    ANTHROPIC_BASE_URL                another endpoint (a proxy, a gateway, the tests' local stub); unset or
                                      empty: ``DEFAULT_BASE_URL``
    GRAPHRAG_LLM_MODEL                default ``DEFAULT_LLM_MODEL``
    GRAPHRAG_LLM_MAX_TOKENS           longest answer, in output tokens (default 1024)
    GRAPHRAG_LLM_CONTEXT_WINDOW       the model's context window in tokens (default 1000000)
    GRAPHRAG_LLM_CONTEXT_SHARE        share of the window the sources may fill (default 0.35)
    GRAPHRAG_LLM_TIMEOUT              seconds to wait for a response (default 60; connect: 10)
    GRAPHRAG_LLM_MAX_RETRIES          retries of 408/409/429/5xx, timeouts and connection errors (default 2)
    GRAPHRAG_LLM_DEADLINE             seconds one answer's calls may take together, retries included (180)

Retries are this module's (``LLMClient.complete``; the SDK's are off, they would wait past the deadline):
backoff from 0.5 s doubling (max 8 s), or what the server's ``retry-after`` / ``retry-after-ms`` header says
(none over 60 s). The deadline bounds a reply that trickles in too: each read's timeout alone would not, as every
byte restarts it. Only the key given here is used: the SDK's other credential
sources (profiles on disk, federation) are not consulted, so "no key" means exactly "ANTHROPIC_API_KEY unset".
"""

from __future__ import annotations

import functools
import math
import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import ConfigError, GraphragError, LLMError, LLMUnavailable

DEFAULT_LLM_MODEL = "claude-sonnet-5-5"
DEFAULT_LLM_MAX_TOKENS = 1024
DEFAULT_CONTEXT_WINDOW = 1_000_000
DEFAULT_CONTEXT_SHARE = 0.35
DEFAULT_LLM_TIMEOUT = 60.0
DEFAULT_LLM_CONNECT_TIMEOUT = 10.0
DEFAULT_LLM_MAX_RETRIES = 2
MAX_LLM_RETRIES = 10
# the most one answer spends waiting on the LLM, every attempt, retry wait and the regeneration included: a
# per-attempt timeout alone let one /v1/ask hold a server thread for minutes (3 attempts x 60 s, plus each 429's
# retry-after, twice when the answer is regenerated)
DEFAULT_LLM_DEADLINE = 180.0
_RETRY_AFTER_CAP = 60.0      # seconds: a longer retry-after gives up at once
# The SDK's own default endpoint. Passed explicitly because, given none, the SDK reads ANTHROPIC_BASE_URL itself
# and takes an empty value (`ANTHROPIC_BASE_URL=`, docker-compose.yml's `${ANTHROPIC_BASE_URL:-}`) as the URL.
DEFAULT_BASE_URL = "https://api.anthropic.com"


def _env_number(name: str, default: float, kind: type = float) -> Any:
    raw = os.environ.get(name)
    if not raw:
        return kind(default)
    try:
        return kind(raw)
    except ValueError as exc:
        raise ConfigError(f"{name}={raw!r} is not a {kind.__name__}") from exc


@dataclass(frozen=True)
class LLMSettings:
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    model: str = DEFAULT_LLM_MODEL
    max_tokens: int = DEFAULT_LLM_MAX_TOKENS
    context_window: int = DEFAULT_CONTEXT_WINDOW
    context_share: float = DEFAULT_CONTEXT_SHARE
    timeout: float = DEFAULT_LLM_TIMEOUT
    connect_timeout: float = DEFAULT_LLM_CONNECT_TIMEOUT
    max_retries: int = DEFAULT_LLM_MAX_RETRIES
    deadline: float = DEFAULT_LLM_DEADLINE

    @classmethod
    def from_env(cls, **overrides: Any) -> "LLMSettings":
        """Settings from the environment; keyword arguments that are not None win."""
        s = cls(api_key=os.environ.get("ANTHROPIC_API_KEY") or None,
                base_url=os.environ.get("ANTHROPIC_BASE_URL") or None,
                model=os.environ.get("GRAPHRAG_LLM_MODEL") or DEFAULT_LLM_MODEL,
                max_tokens=_env_number("GRAPHRAG_LLM_MAX_TOKENS", DEFAULT_LLM_MAX_TOKENS, int),
                context_window=_env_number("GRAPHRAG_LLM_CONTEXT_WINDOW", DEFAULT_CONTEXT_WINDOW, int),
                context_share=_env_number("GRAPHRAG_LLM_CONTEXT_SHARE", DEFAULT_CONTEXT_SHARE),
                timeout=_env_number("GRAPHRAG_LLM_TIMEOUT", DEFAULT_LLM_TIMEOUT),
                max_retries=_env_number("GRAPHRAG_LLM_MAX_RETRIES", DEFAULT_LLM_MAX_RETRIES, int),
                deadline=_env_number("GRAPHRAG_LLM_DEADLINE", DEFAULT_LLM_DEADLINE))
        s = replace(s, **{k: v for k, v in overrides.items() if v is not None})
        s.check()
        return s

    def check(self) -> None:
        if self.max_tokens < 1:
            raise ConfigError(f"max_tokens must be at least 1 (got {self.max_tokens})")
        if self.context_window < 1000:
            raise ConfigError(f"context window of {self.context_window} tokens is too small")
        if not 0 < self.context_share <= 0.9:
            raise ConfigError(f"context share must be in (0, 0.9] (got {self.context_share})")
        # `not x > 0`, not `x <= 0`: NaN (GRAPHRAG_LLM_DEADLINE=nan parses) fails every comparison
        if not (self.timeout > 0 and self.connect_timeout > 0 and self.deadline > 0):
            raise ConfigError("LLM timeouts and the deadline must be positive")
        if not 0 <= self.max_retries <= MAX_LLM_RETRIES:      # as --max-retries (GRAPHRAG_LLM_MAX_RETRIES=99 ran on)
            raise ConfigError(f"max_retries must be 0-{MAX_LLM_RETRIES} (got {self.max_retries})",
                              hint="GRAPHRAG_LLM_MAX_RETRIES / --max-retries; the deadline bounds a call anyway")

    @property
    def endpoint(self) -> str:
        """The URL requests go to: ``base_url``, else the SDK's default (named, never left to the SDK)."""
        return self.base_url or DEFAULT_BASE_URL

    @property
    def context_budget(self) -> int:
        """Tokens the prompt's sources may take."""
        return int(self.context_window * self.context_share)

    @property
    def configured(self) -> bool:
        return bool(self.api_key)


@dataclass
class Completion:
    text: str
    model: str
    stop_reason: str | None
    input_tokens: int
    output_tokens: int
    retries: int              # retries (429/5xx/connection/timeout) before this response
    request_id: str | None
    seconds: float


class LLMClient:
    """A configured Messages API client. ``complete`` sends one conversation and returns the text."""

    def __init__(self, settings: LLMSettings) -> None:
        if not settings.api_key:
            raise LLMUnavailable("no Anthropic API key: ANTHROPIC_API_KEY is not set",
                                 hint="export ANTHROPIC_API_KEY=sk-ant-... (or answer without the LLM: --no-llm)")
        self.settings = settings
        import anthropic  # imported here: ~2 s, and only answers that use the LLM need it

        self._anthropic = anthropic
        self._deadline = threading.local()     # the deadline of the call this thread is making (complete)
        # retries are ours (complete): the SDK's would wait past the deadline. The response hook caps the body's
        # read at the deadline: a timeout bounds each read, and a reply that trickles in never trips it.
        self._client = anthropic.Anthropic(
            api_key=settings.api_key, base_url=settings.endpoint, max_retries=0,
            timeout=anthropic.Timeout(settings.timeout, connect=settings.connect_timeout),
            http_client=anthropic.DefaultHttpxClient(event_hooks={"response": [self._cap_body]}))

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def deadline(self) -> float:
        """A deadline (``time.monotonic()``) for one answer's calls: now plus ``settings.deadline``."""
        return time.monotonic() + self.settings.deadline

    def complete(self, system: str, messages: list[dict[str, str]], deadline: float | None = None) -> Completion:
        """One conversation's reply. 429, 5xx, timeouts and broken connections are retried up to
        ``max_retries`` times (after the server's retry-after, else 0.5 s doubling), each attempt's timeout cut to
        what is left before ``deadline`` (default: ``settings.deadline`` from now); LLMUnavailable when it
        passes."""
        s = self.settings
        deadline = deadline if deadline is not None else self.deadline()
        started, retries = time.perf_counter(), 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._past_deadline(retries)
            self._deadline.at = deadline
            try:
                raw = self._client.messages.with_raw_response.create(
                    model=s.model, max_tokens=s.max_tokens, system=system, messages=messages,  # type: ignore[arg-type]
                    timeout=self._anthropic.Timeout(min(s.timeout, left), connect=min(s.connect_timeout, left)))
                message = raw.parse()
            except Exception as exc:
                if time.monotonic() >= deadline:
                    raise self._past_deadline(retries) from exc
                wait = self._retry_wait(exc, retries)
                if wait is None:
                    raise self._translate(exc, retries) from exc
                if wait >= deadline - time.monotonic():
                    # what the API said stands, with its Retry-After (HTTP 503's): it answered, only too slowly
                    err = self._translate(exc, retries)
                    err.message += f"; waiting {wait:g}s to retry would pass the deadline of {s.deadline:g}s"
                    raise err from exc
                time.sleep(wait)
                retries += 1
                continue
            return _completion(message, raw, s, time.perf_counter() - started, retries)

    def _cap_body(self, response: Any) -> None:
        """The response hook: the body is read through ``_deadline_stream()`` (before the SDK reads it)."""
        deadline = getattr(self._deadline, "at", None)
        if deadline is not None:
            response.stream = _deadline_stream()(response.stream, deadline, response.request)

    def _retry_wait(self, exc: Exception, retries: int) -> float | None:
        """Seconds to wait before retrying after ``exc``, or None when it is not to be retried."""
        a = self._anthropic
        if retries >= self.settings.max_retries:
            return None
        if isinstance(exc, a.APIStatusError):
            if exc.status_code not in (408, 409, 429) and exc.status_code < 500:
                return None
            after = _retry_after(exc.response.headers)
            if after is not None:
                return after if after <= _RETRY_AFTER_CAP else None
        elif not isinstance(exc, (a.APITimeoutError, a.APIConnectionError)):
            return None
        return min(0.5 * 2 ** retries, 8.0)

    def _past_deadline(self, retries: int) -> LLMUnavailable:
        return LLMUnavailable(f"no answer from the Anthropic API within the deadline of {self.settings.deadline:g}s "
                              f"({self.settings.endpoint}, {retries} retries)",
                              hint="raise GRAPHRAG_LLM_DEADLINE or retry later")

    def _translate(self, exc: Exception, retries: int) -> GraphragError:
        """``exc`` as this package's error; ``retries`` is how many times the call was retried before it."""
        a, s = self._anthropic, self.settings
        where, tried = s.endpoint, _retries_text(retries)
        if isinstance(exc, a.APITimeoutError):
            return LLMUnavailable(f"the Anthropic API did not answer within {s.timeout:g}s ({where}, {tried})",
                                  hint="raise GRAPHRAG_LLM_TIMEOUT or retry later")
        if isinstance(exc, a.APIConnectionError):
            return LLMUnavailable(f"cannot reach the Anthropic API at {where}: {exc.__cause__ or exc}",
                                  hint="check the network or ANTHROPIC_BASE_URL")
        if isinstance(exc, a.APIStatusError):
            detail = _api_message(exc)
            if isinstance(exc, (a.AuthenticationError, a.PermissionDeniedError)):
                return LLMError(f"the Anthropic API rejected the API key ({exc.status_code}: {detail})",
                                hint="check ANTHROPIC_API_KEY")
            after = _retry_after(exc.response.headers)
            if after is not None and after > _RETRY_AFTER_CAP:
                tried += f"; it asked to wait {after:g}s, over the {_RETRY_AFTER_CAP:g}s this client waits"
            err = None
            if isinstance(exc, a.RateLimitError):
                err = LLMUnavailable(f"the Anthropic API is rate-limiting this key (429, {tried}: {detail})",
                                     hint="retry later or raise GRAPHRAG_LLM_MAX_RETRIES")
            elif exc.status_code >= 500:
                err = LLMUnavailable(f"the Anthropic API failed with {exc.status_code} ({tried}): {detail}",
                                     hint="retry later")
            if err is not None:
                err.retry_after = after          # the API's Retry-After answers ours (HTTP 503)
                return err
            if exc.status_code == 404:
                return LLMError(f"the Anthropic API does not know model {s.model!r} or the endpoint "
                                f"({where}): {detail}", hint="check --model / GRAPHRAG_LLM_MODEL and ANTHROPIC_BASE_URL")
            return LLMError(f"the Anthropic API refused the request ({exc.status_code}: {detail})")
        if isinstance(exc, ValueError):   # json.JSONDecodeError: a 200 whose body is not JSON
            return LLMError(f"the Anthropic API returned a malformed response (not JSON: {exc})",
                            hint=f"is ANTHROPIC_BASE_URL ({where}) a Messages API endpoint?")
        if isinstance(exc, a.AnthropicError):
            return LLMError(f"the Anthropic SDK failed: {exc.__class__.__name__}: {exc}")
        return LLMError(f"the LLM call failed: {exc.__class__.__name__}: {exc}")


def _retries_text(retries: int) -> str:
    return "not retried" if retries == 0 else f"after {retries} retr{'y' if retries == 1 else 'ies'}"


def _api_message(exc: Any) -> str:
    msg = getattr(exc, "api_message", None)
    if not msg and isinstance(getattr(exc, "body", None), dict):
        msg = (exc.body.get("error") or {}).get("message")
    return str(msg or exc.message)[:300]


def _retry_after(headers: Any) -> float | None:
    """The server's retry-after (``retry-after-ms``, or ``retry-after`` in seconds), if it gave a usable one: a
    negative, NaN or infinite value is ignored, as an HTTP date is (we back off as without one), since taking
    -5 as 0 would send the retries at once."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            value = float(headers.get(name)) * scale
        except (TypeError, ValueError):   # absent, or an HTTP date
            continue
        if math.isfinite(value) and value >= 0:
            return value
    return None


def _completion(message: Any, raw: Any, settings: LLMSettings, seconds: float, retries: int) -> Completion:
    """Check the response's shape (the SDK does not validate it) and take out text and usage."""
    where = settings.endpoint
    content = getattr(message, "content", None)
    usage = getattr(message, "usage", None)
    if isinstance(message, str) or not isinstance(content, list) or usage is None:
        raise LLMError("the Anthropic API returned a malformed response (not a Messages API message)",
                       hint=f"is ANTHROPIC_BASE_URL ({where}) a Messages API endpoint?")
    texts: list[str] = []
    for block in content:
        if getattr(block, "type", None) == "text":
            text = getattr(block, "text", None)
            if not isinstance(text, str):
                raise LLMError("the Anthropic API returned a malformed response (a text block without text)")
            texts.append(text)
    stop = getattr(message, "stop_reason", None)
    if stop == "refusal":
        raise LLMError("the model declined to answer (stop_reason: refusal)")
    return Completion(text="".join(texts).strip(), model=str(getattr(message, "model", "") or settings.model),
                      stop_reason=stop, input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
                      output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
                      retries=retries,
                      request_id=raw.headers.get("request-id") if hasattr(raw, "headers") else None,
                      seconds=round(seconds, 4))


@functools.cache
def _deadline_stream() -> type:
    """The class of a response body that raises the HTTP client's ReadTimeout (the SDK's APITimeoutError) once
    its deadline has passed, between two of its chunks. Made on first use: httpx2 comes with anthropic, which
    only answers that use the LLM import."""
    import httpx2

    class DeadlineStream(httpx2.SyncByteStream):
        def __init__(self, inner: Any, deadline: float, request: Any) -> None:
            self._inner, self._deadline, self._request = inner, deadline, request

        def __iter__(self) -> Any:
            for chunk in self._inner:
                if time.monotonic() >= self._deadline:
                    raise httpx2.ReadTimeout("the reply was still arriving at the deadline", request=self._request)
                yield chunk

        def close(self) -> None:
            self._inner.close()

    return DeadlineStream
