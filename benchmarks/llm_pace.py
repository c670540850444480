"""LLM seats at the provider's pace (issue 27): `parlor sim` with two LLM seats against a bare
loop of the official SDK client, both against the same fake endpoint that answers every call
after `--latency` seconds, in the same run; for each `--provider`: `openai` (an
OpenAI-compatible server, /chat/completions) and `anthropic` (/v1/messages).

The endpoint is a minimal HTTP/1.1 server on asyncio in this (the driver's) process; the bare
loop and `parlor sim` each run in a subprocess of their own, one after the other. While one runs,
the driver samples every 0.25 s the completions answered so far and the CPU time (user + system)
of the subprocess and its children (the `--workers` processes) from /proc. Rates and CPU are taken
over the steady part of each run, from the sample where 10% of its calls were answered to the one
where 90% were (start-up, imports, endpoint checks and the last games' tail left out).

Rows, per repeat:
- bare: calls/s of `--concurrency` tasks each looping the SDK's `create` (OpenAI's
  `client.chat.completions.create`, Anthropic's `client.messages.create`) on one shared client,
  with a Colonel Blotto first-turn prompt: the targets' yardstick;
- bare post: the same loop on Parlor's own call path (`client.post` of the prebuilt body on
  the SDK's aiohttp transport, the answer's JSON read with orjson): its CPU per call is the
  SDK's (with its transport's) as Parlor calls it;
- sim: `parlor sim colonel-blotto` with two seats on the endpoint (`openai-compatible:` or
  `anthropic:`),
  `--concurrency` / 2 games at once (two calls each: Blotto's moves are simultaneous), its
  decisions/s and ratio to the bare loop (target >= 0.9), and its CPU per decision beyond the
  bare post loop's per call (Parlor's own, target < 0.5 ms);
- sim x2: the same with `--workers 2` (each worker with the same --concurrency), its ratio to
  the one bare loop (target >= 1.6).

`--root DIR` runs the bare loops and the sims on another checkout's code (e.g. main's, for a
before/after comparison); this script and its endpoint stay the same.

    PYTHONPATH=. python benchmarks/llm_pace.py [--concurrency 128] [--latency 0.2]
                                               [--games 400] [--seconds 15] [--repeats 3]
                                               [--provider openai|anthropic|both] [--root DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL = "fake-blotto"
REPLY = "I spread my units. [A7 B7 C6]"
TICKS = os.sysconf("SC_CLK_TCK")
SAMPLE = 0.25  # seconds between samples


# ------------------------------------------------------------------------------- the endpoint
def _openai_body() -> bytes:
    return json.dumps({
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": MODEL,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": REPLY}}],
        "usage": {"prompt_tokens": 400, "completion_tokens": 12, "total_tokens": 412,
                  "prompt_tokens_details": {"cached_tokens": 0}}}).encode()


def _response(body: bytes) -> bytes:
    return (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body)


def _anthropic_body() -> bytes:
    return json.dumps({
        "id": "msg_fake", "type": "message", "role": "assistant", "model": MODEL,
        "content": [{"type": "text", "text": REPLY}], "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 400, "output_tokens": 12, "cache_read_input_tokens": 0,
                  "cache_creation_input_tokens": 0}}).encode()


ANSWERS = {"/chat/completions": _response(_openai_body()),  # by the end of the request's path
           "/v1/messages": _response(_anthropic_body())}
MODELS = _response(json.dumps({  # both SDKs' model lists in one
    "object": "list", "has_more": False, "first_id": MODEL, "last_id": MODEL,
    "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "fake", "type": "model",
              "display_name": MODEL, "created_at": "2026-01-01T00:00:00Z"}]}).encode())
NOT_FOUND = (b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n"
             b"content-length: 2\r\n\r\n{}")


class Endpoint(asyncio.Protocol):
    """One connection: requests read as they come (keep-alive), each answered after the
    latency; the request bodies are not even parsed."""

    latency = 0.2
    answered = 0  # completions answered, over all connections

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.buffer = b""
        self.loop = asyncio.get_running_loop()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length:]
            method, path = head.split(" ", 2)[:2]
            answer = next((a for end, a in ANSWERS.items() if path.endswith(end)), None)
            if method == "POST" and answer is not None:
                self.loop.call_later(self.latency, self._answer, answer)
            elif path.rstrip("/").endswith("/models"):
                self.transport.write(MODELS)
            else:
                self.transport.write(NOT_FOUND)

    def _answer(self, answer: bytes) -> None:
        if not self.transport.is_closing():
            Endpoint.answered += 1
            self.transport.write(answer)


# ------------------------------------------------------------------------------- the bare loop
BARE = r"""
import asyncio, sys, time
sys.path.insert(0, sys.argv[1])
import anthropic
import openai
import orjson
from bots.prompts import builder_for
from bots.llm.context import build_prompt
from engine.registry import get

url, concurrency, seconds, post, model, provider = (
    sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7])
env = get("colonel-blotto")
game = env.new_game(env.config(), 0, env.default_players())
view, legal = game.view(0), game.legal(0).to_json()
prompt = build_prompt(builder_for(env.id), view, legal, 100_000)
messages = [{"role": "system", "content": prompt.system}, {"role": "user", "content": prompt.user}]
body = {"model": model, "messages": messages, "max_tokens": 1024}
user = [{"role": "user", "content": prompt.user}]
claude_body = {"max_tokens": 1024, "messages": user, "model": model, "system": prompt.system}

async def openai_call(client):
    if post == "post":  # Parlor's own call path (bots/llm/providers.py)
        raw = await client.post("/chat/completions", body=body, cast_to=bytes,
                                options={"security": {"bearer_auth": True}})
        assert orjson.loads(raw)["choices"][0]["message"]["content"]
    else:
        r = await client.chat.completions.create(model=model, messages=messages, max_tokens=1024)
        assert r.choices[0].message.content

async def anthropic_call(client):
    if post == "post":
        raw = await client.post("/v1/messages", body=claude_body, cast_to=bytes)
        assert orjson.loads(raw)["content"][0]["text"]
    else:
        r = await client.messages.create(model=model, system=prompt.system, messages=user,
                                         max_tokens=1024)
        assert r.content[0].text

async def main():
    if provider == "anthropic":
        sdk, call = anthropic, anthropic_call
    else:
        sdk, call = openai, openai_call
    # Parlor's call path also takes the SDK's aiohttp transport; the bare `create` loop the
    # SDK's default (httpx)
    http = sdk.DefaultAioHttpClient(timeout=60) if post == "post" else None
    kind = sdk.AsyncAnthropic if provider == "anthropic" else sdk.AsyncOpenAI
    client = kind(api_key="not-needed", base_url=url, max_retries=0, timeout=60, http_client=http)
    stop = time.monotonic() + seconds
    async def one():
        while time.monotonic() < stop:
            await call(client)
    await asyncio.gather(*(one() for _ in range(concurrency)))
    await client.close()

asyncio.run(main())
"""


# ------------------------------------------------------------------------------- measuring
def _cpu(pid: int) -> float:
    """CPU seconds (user + system) of `pid` and its live descendants."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    tree, total = {pid}, 0.0
    changed = True
    while changed:
        changed = False
        for p, (ppid, _) in stats.items():
            if ppid in tree and p not in tree:
                tree.add(p)
                changed = True
    for p in tree:
        total += stats.get(p, (0, 0.0))[1]
    return total


@dataclass
class Run:
    label: str
    samples: list[tuple[float, int, float]] = field(default_factory=list)  # (t, calls, cpu)
    output: str = ""

    def steady(self) -> tuple[float, float]:
        """(calls/s, CPU seconds per call) from the 10% sample to the 90% one."""
        first, last = self.samples[0][1], self.samples[-1][1]
        total = last - first
        lo = next(s for s in self.samples if s[1] - first >= 0.1 * total)
        hi = next(s for s in self.samples if s[1] - first >= 0.9 * total)
        calls = hi[1] - lo[1]
        if calls <= 0:
            return 0.0, float("nan")
        return calls / (hi[0] - lo[0]), (hi[2] - lo[2]) / calls


async def _measure(label: str, argv: list[str], root: Path, url: str) -> Run:
    env = {**os.environ, "PYTHONPATH": str(root), "ANTHROPIC_BASE_URL": url,
           "ANTHROPIC_API_KEY": "fake"}
    process = await asyncio.create_subprocess_exec(
        *argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    run = Run(label)
    reading = asyncio.ensure_future(process.stdout.read())  # type: ignore[union-attr]
    while process.returncode is None:
        run.samples.append((time.monotonic(), Endpoint.answered, _cpu(process.pid)))
        try:
            await asyncio.wait_for(process.wait(), SAMPLE)
        except TimeoutError:
            pass
    run.output = (await reading).decode()
    if process.returncode:
        raise SystemExit(f"{label} failed ({process.returncode}):\n{run.output}")
    return run


def _sim_argv(provider: str, url: str, args: argparse.Namespace, workers: int) -> list[str]:
    limit = f"concurrency={2 * args.concurrency}"
    seat = f"anthropic:{MODEL}?{limit}" if provider == "anthropic" else \
        f"openai-compatible:{MODEL}@{url}/v1?{limit}"
    return [sys.executable, "-m", "server.cli", "sim", "colonel-blotto", "--seat", seat,
            "--seat", seat, "--games", str(args.games * workers),
            "--concurrency", str(max(args.concurrency // 2, 1)), "--workers", str(workers),
            "--quiet"]


async def main(args: argparse.Namespace) -> None:
    Endpoint.latency = args.latency
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Endpoint, "127.0.0.1", 0, backlog=1024)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    root = Path(args.root).resolve() if args.root else ROOT
    providers = ["openai", "anthropic"] if args.provider == "both" else [args.provider]
    print(f"endpoint {url}, latency {args.latency * 1000:.0f} ms, concurrency "
          f"{args.concurrency} (ideal {args.concurrency / args.latency:.0f} calls/s); code "
          f"from {root}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = {p: {"bare": [], "bare post": [], "sim": [], "sim x2": []} for p in providers}
    for repeat in range(args.repeats):
        for provider in providers:
            await _repeat(provider, repeat, url, root, args, rows[provider])
    server.close()
    print(f"\nover {args.repeats} repeats (min–max; load average now "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}):")
    for provider in providers:
        _summary(provider, rows[provider], args)


Rows = dict[str, list[tuple[float, float]]]


async def _repeat(provider: str, repeat: int, url: str, root: Path, args: argparse.Namespace,
                  rows: Rows) -> None:
    base = f"{url}/v1" if provider == "openai" else url  # Anthropic's SDK adds /v1 itself
    bare, posting = [await _measure(label, [
        sys.executable, "-c", BARE, str(root), base, str(args.concurrency), str(args.seconds),
        path, MODEL, provider], root, url)
        for label, path in (("bare", "create"), ("bare post", "post"))]
    runs = [bare, posting]
    if not args.skip_sim:
        runs.append(await _measure("sim", _sim_argv(provider, url, args, 1), root, url))
        if not args.skip_workers:
            runs.append(await _measure("sim x2", _sim_argv(provider, url, args, 2), root, url))
        if repeat == 0 and args.show_summary:
            print(runs[2].output)
    base_rate, _ = bare.steady()
    _, post_cpu = posting.steady()
    line = [f"{provider} repeat {repeat + 1}:"]
    for run in runs:
        rate, cpu = run.steady()
        rows[run.label].append((rate, cpu))
        line.append(f"{run.label} {rate:6.1f}/s {cpu * 1000:5.2f} ms CPU/call"
                    + (f" (x{rate / base_rate:.2f}, {(cpu - post_cpu) * 1000:+.2f} ms)"
                       if run in runs[2:] else ""))
    print("  ".join(line), flush=True)


def _summary(provider: str, rows: Rows, args: argparse.Namespace) -> None:
    print(f"{provider}:")
    for label, got in rows.items():
        if not got:
            continue
        rates = [r for r, _ in got]
        cpus = [c * 1000 for _, c in got]
        print(f"  {label:9} {min(rates):6.1f}–{max(rates):6.1f} calls/s (median "
              f"{statistics.median(rates):.1f}), {min(cpus):.2f}–{max(cpus):.2f} ms CPU/call "
              f"(median {statistics.median(cpus):.2f})")
    bare, posting = rows["bare"], rows["bare post"]
    for label, target in (("sim", 0.9), ("sim x2", 1.6)):
        if not rows[label]:
            continue
        ratios = [s[0] / b[0] for s, b in zip(rows[label], bare, strict=True)]
        extra = [(s[1] - b[1]) * 1000 for s, b in zip(rows[label], posting, strict=True)]
        print(f"  {label} / bare: x{min(ratios):.2f}–x{max(ratios):.2f} (target >= {target}: "
              f"{'met' if statistics.median(ratios) >= target else 'NOT met'} at the median); "
              f"Parlor's CPU beyond the SDK's: {min(extra):+.2f} to {max(extra):+.2f} ms per "
              f"decision" + (" (target < 0.5 ms: "
                             f"{'met' if statistics.median(extra) < 0.5 else 'NOT met'})"
                             if label == "sim" else " (over both workers)"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", type=int, default=128,
                        help="calls in flight (the sim plays half as many games at once)")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per answer")
    parser.add_argument("--games", type=int, default=400, help="games per sim run (x workers)")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of the bare loop")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-workers", action="store_true", help="no --workers 2 row")
    parser.add_argument("--skip-sim", action="store_true", help="the bare loops only")
    parser.add_argument("--provider", choices=["openai", "anthropic", "both"], default="both")
    parser.add_argument("--root", help="the checkout whose code runs (default: this one)")
    parser.add_argument("--show-summary", action="store_true",
                        help="print the first sim's summary (to check every move was valid)")
    asyncio.run(main(parser.parse_args()))
