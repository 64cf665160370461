"""What the page benches (``bench_ai.py``, ``bench_coach.py``) share: the built site open in
headless Chromium, a second engine worker started from the page, percentiles, and which
``hard`` decisions search (told apart in CPython from the game records)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import _Servers as Servers
from conftest import launch_chromium

import build

# The start of a page function's body: `w`, a second engine worker (the table's worker.js), and
# `call(request)`, the worker's response to one request; the function goes on once it is ready.
WORKER = """
  const w = new Worker(new URL("./worker.js", location.href), {type: "module"});
  let next = 1; const waiting = new Map();
  const ready = new Promise((res, rej) => {
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === "ready") res();
      else if (m.type === "error") rej(new Error(m.message));
      else if (m.type === "response" && waiting.has(m.id)) { waiting.get(m.id)(m.response); waiting.delete(m.id); }
    };
  });
  const call = (request) => new Promise((res) => { const id = next++; waiting.set(id, res); w.postMessage({type: "request", id, request}); });
  await ready;
"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def hard_searches(record: dict, index: int) -> bool:
    """``hard`` searches at the record's decision ``index`` (more than one shortlisted move):
    the decisions its budget is for."""
    from py_engine.ai.hard import HardBot
    from py_engine.legal import legal_moves
    from py_engine.observation import Observation
    from py_engine.record import replay

    g = replay(record, upto=index)
    h = HardBot(seed=0, iterations=1)
    return len(h.searched(Observation.for_seat(g, g.current), legal_moves(g))) > 1


@contextlib.contextmanager
def site_page() -> Iterator:
    """(browser context, page): the built site (dist/, built first if missing) served on
    loopback as in the e2e tests, its index page open in headless Debian Chromium."""
    dist = ROOT / "dist"
    if not (dist / "worker.js").exists():
        build.build()
    from playwright.sync_api import sync_playwright

    servers = Servers()
    url = servers.start(dist)
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            ctx = browser.new_context(service_workers="block")
            page = ctx.new_page()
            page.goto(url + "index.html")
            yield ctx, page
            browser.close()
    finally:
        servers.close()
