"""Bounded load test of the REST API: concurrent POST /v1/search from this process against
`graphrag-code serve` running in another process, on loopback only.

    .venv/bin/python bench/bench_api_load.py [--repo flask] [--clients 8] [--seconds 20] [--no-vectors]

Reports throughput, p50/p95/p99 latency and errors for /v1/search, and the same for GET /healthz measured in
the same run as a baseline (the cost of the HTTP stack alone), with the ratio side by side. The repository must
be indexed (e.g. by `graphrag-code eval`, or `graphrag-code index eval/.corpus/flask --name flask`).
Target (issue 6): 0 errors, p95 <= 300 ms at 8 clients on 2 cores with the LLM off.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = [
    "where is the request context pushed?", "how are blueprints registered on the app?", "url_for",
    "send_file", "how does flask pick the error handler for an exception?", "make_response",
    'File "src/flask/app.py", line 1478, in wsgi_app', "session cookie signing", "before_request hooks",
    "Config.from_object", "jsonify", "how are templates rendered?", "test client", "teardown_appcontext",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(url: str, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server did not answer at {url}")


def _load(url: str, body_for, clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker(n: int) -> None:
        i = n
        while time.perf_counter() < stop:
            body = body_for(i)
            req = urllib.request.Request(url, data=json.dumps(body).encode() if body else None,
                                         headers={"Content-Type": "application/json"},
                                         method="POST" if body else "GET")
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    resp.read()
                    ok = resp.status == 200
            except (urllib.error.URLError, OSError) as exc:
                ok = False
                with lock:
                    errors.append(str(exc)[:120])
            elapsed = time.perf_counter() - started
            with lock:
                if ok:
                    latencies.append(elapsed)
            i += clients

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    ordered = sorted(latencies) or [0.0]

    def pct(p: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]

    return {"requests": len(latencies), "errors": len(errors), "error_samples": errors[:3],
            "rps": round(len(latencies) / wall, 1), "p50_ms": round(pct(0.5), 1), "p95_ms": round(pct(0.95), 1),
            "p99_ms": round(pct(0.99), 1), "mean_ms": round(1000 * statistics.mean(ordered), 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default="flask")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--no-vectors", action="store_true")
    args = ap.parse_args()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "GRAPHRAG_API_TOKENS")}
    log_path = ROOT / "bench" / "results" / "api-load-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = open(log_path, "w")
    server = subprocess.Popen([str(ROOT / ".venv" / "bin" / "graphrag-code"), "serve", "--port", str(port),
                               "--threads", str(max(4, args.clients))], env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/healthz")

        def search_body(i: int) -> dict:
            return {"query": QUERIES[i % len(QUERIES)], "repo": args.repo, "k": 10, "with_text": False,
                    "vectors": not args.no_vectors}

        for i in range(len(QUERIES)):    # warm-up: query plans, model
            _load(base + "/v1/search", lambda _: search_body(i), 1, 0.01)
        health = _load(base + "/healthz", lambda _: None, args.clients, min(5.0, args.seconds))
        search = _load(base + "/v1/search", search_body, args.clients, args.seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    print(f"{args.clients} clients, {args.seconds:.0f}s, repo {args.repo}, vectors {'off' if args.no_vectors else 'on'}")
    print(f"{'endpoint':14s}{'requests':>10s}{'errors':>8s}{'req/s':>9s}{'p50 ms':>9s}{'p95 ms':>9s}{'p99 ms':>9s}")
    for name, r in (("GET /healthz", health), ("POST /v1/search", search)):
        print(f"{name:14s}{r['requests']:10d}{r['errors']:8d}{r['rps']:9.1f}{r['p50_ms']:9.1f}{r['p95_ms']:9.1f}"
              f"{r['p99_ms']:9.1f}")
    ratio = search["p50_ms"] / health["p50_ms"] if health["p50_ms"] else float("nan")
    print(f"search / healthz p50 ratio: {ratio:.1f}x   target: 0 errors, search p95 <= 300 ms -> "
          f"{'met' if search['errors'] == 0 and search['p95_ms'] <= 300 else 'NOT met'}")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"api-load-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(
        json.dumps({"args": vars(args), "healthz": health, "search": search}, indent=1))
    return 0 if search["errors"] == 0 else 1


if __name__ == "__main__":
    from graphrag_code.errors import script_main
    script_main(main)
