"""The memory snapshot: the build ships one made from the engine being shipped; the worker
restores it (the engine imported, a Bridge ready) and plays; when the snapshot cannot be used
(missing, damaged, made by another runtime build) the worker boots Python the long way, with no
error for the player. The checks of the built files need no browser."""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re

import pytest
from playwright.sync_api import expect

import build
from conftest import READY_SELECTOR
from test_offline import _draw_from_stock

BOOTED = 'html[data-engine-boot="{}"]'
MAGIC = 1886286592  # the first uint32 of a Pyodide 314 snapshot (pyodide.asm.mjs)


def _info(dist_dir) -> dict:
    return json.loads((dist_dir / build.SNAPSHOT_INFO).read_text(encoding="utf-8"))


def _sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


# ------------------------------------------------------------------ the built files

def test_snapshot_is_built_from_the_shipped_wheel_and_runtime(dist_dir):
    info = _info(dist_dir)
    assert info["pyodide"] == build.PYODIDE_VERSION
    assert build.PYODIDE_VERSION in info["file"], "the file name carries the runtime version"
    gz = (dist_dir / info["file"]).read_bytes()
    assert len(gz) == info["bytes"] and _sri(gz) == info["integrity"]
    raw = gzip.decompress(gz)
    assert len(raw) == info["raw_bytes"]
    assert int.from_bytes(raw[:4], "little") == MAGIC
    lock = json.loads((dist_dir / "app-lock.json").read_text(encoding="utf-8"))
    (engine,) = lock["packages"].values()
    assert info["wheel"] == engine["file_name"]
    wheel = (dist_dir / info["wheel"]).read_bytes()
    assert info["wheel_integrity"] == _sri(wheel)
    assert hashlib.sha256(wheel).hexdigest() == engine["sha256"]
    assert info["site_packages"].startswith("/lib/python3.")
    # Precached, so that it works offline.
    precache = (dist_dir / "sw.js").read_text(encoding="utf-8")
    for name in (build.SNAPSHOT_INFO, info["file"]):
        assert json.dumps(name) in precache, name


def test_snapshot_name_changes_with_the_engine_and_the_runtime(dist_dir):
    """The file name carries a key over the runtime, the wheel and the tool: any change gives
    another file (and another sw.js version), so a stale snapshot is never restored."""
    info = _info(dist_dir)
    wheel = (dist_dir / info["wheel"]).read_bytes()
    key = build.snapshot_key(wheel)
    assert info["file"] == f"snapshot-{build.PYODIDE_VERSION}-{key}.bin.gz"
    assert build.snapshot_key(wheel) == key, "same inputs, same key"
    others = {build.snapshot_key(wheel + b"\0"), build.snapshot_key(wheel, pyodide="314.0.8"),
              build.snapshot_key(wheel, integrity="sha512-x"),
              build.snapshot_key(wheel, tool=build.SNAPSHOT_TOOL.read_bytes() + b"//")}
    assert key not in others and len(others) == 4


# ------------------------------------------------------------------ in the browser

def test_boots_from_the_snapshot_and_plays(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=5&pace=20")
    expect(page.locator(BOOTED.format("snapshot"))).to_have_count(1)
    marks = json.loads(page.locator("html").get_attribute("data-engine-marks"))
    assert marks["restored"] <= marks["bridge"], marks
    _draw_from_stock(page)
    info = _info_from(page, base_url)
    assert any(r.startswith(base_url + info["file"]) for r in page_log.requests)
    assert page_log.foreign_requests(base_url) == []
    page_log.assert_clean()


def _info_from(page, base_url) -> dict:
    return page.request.get(base_url + build.SNAPSHOT_INFO).json()


def _bad_build_id(dist_dir) -> tuple[bytes, dict]:
    """A well-formed snapshot (right magic, right integrity) made by 'another build' of the
    runtime: the restore itself refuses it."""
    info = _info(dist_dir)
    raw = bytearray(gzip.decompress((dist_dir / info["file"]).read_bytes()))
    raw[16:48] = bytes(32)  # the build id (8 uint32 after the header's first four)
    gz = gzip.compress(bytes(raw), 1)
    return gz, {**info, "integrity": _sri(gz), "bytes": len(gz)}


# Why the worker booted the long way (its console.info line), per kind of damage.
REASONS = {"corrupt_bytes": r"fetch|integrity|digest", "other_build": r"build id mismatch",
           "missing_file": r"HTTP 404|Failed to fetch", "other_runtime": r"Pyodide 0\.0\.1"}


@pytest.mark.parametrize("damage", list(REASONS))
def test_unusable_snapshot_falls_back_to_a_normal_boot(damage, page, page_log, context, base_url,
                                                       dist_dir):
    info = _info(dist_dir)
    if damage == "corrupt_bytes":
        data = bytearray((dist_dir / info["file"]).read_bytes())
        data[len(data) // 2] ^= 0xFF
        context.route("**/" + info["file"], lambda route: route.fulfill(
            status=200, body=bytes(data), content_type="application/gzip"))
    elif damage == "other_build":
        gz, fake = _bad_build_id(dist_dir)
        context.route("**/" + build.SNAPSHOT_INFO, lambda route: route.fulfill(
            status=200, body=json.dumps(fake), content_type="application/json"))
        context.route("**/" + info["file"], lambda route: route.fulfill(
            status=200, body=gz, content_type="application/gzip"))
    elif damage == "missing_file":
        context.route("**/" + info["file"], lambda route: route.fulfill(status=404, body="no"))
    else:
        other = {**info, "pyodide": "0.0.1"}
        context.route("**/" + build.SNAPSHOT_INFO, lambda route: route.fulfill(
            status=200, body=json.dumps(other), content_type="application/json"))
    said = []
    page.on("worker", lambda w: w.on("console", lambda m: said.append(f"{m.type}: {m.text}")))
    page.goto(base_url + "?seed=5&pace=20")
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    why = [line for line in said if "normal boot" in line]
    assert len(why) == 1 and why[0].startswith("info:"), said
    assert re.search(REASONS[damage], why[0], re.I), why
    expect(page.locator("#boot-status")).not_to_have_attribute("data-state", "error")
    if damage in ("other_build", "corrupt_bytes"):
        _draw_from_stock(page)  # the engine of the normal boot answers
    # The fallback said nothing to the player: no error on the page or in its console.
    page_log.assert_clean()
    assert not re.search(r"snapshot", page.locator("#boot-status").inner_text(), re.I)


OPFS_SIZE = """async (name) => {
  try {
    const dir = await navigator.storage.getDirectory();
    const file = await (await dir.getFileHandle(name)).getFile();
    return [file.size, new Uint32Array(await file.slice(0, 4).arrayBuffer())[0]];
  } catch (err) { return [-1, 0]; }
}"""


def _kept_in_opfs(page, name: str, size: int, timeout_s: float = 60) -> None:
    """Waits until the worker has written the raw snapshot to OPFS (after its boot)."""
    import time
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.evaluate(OPFS_SIZE, name) == [size, MAGIC]:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{name} was not written to OPFS: {page.evaluate(OPFS_SIZE, name)}")


def _marks(page) -> dict:
    return json.loads(page.locator("html").get_attribute("data-engine-marks"))


def test_raw_snapshot_is_kept_in_opfs_read_next_time_and_dropped_when_damaged(
        page, page_log, base_url, open_app, dist_dir):
    """After a boot from the gzip file the worker keeps the raw bytes in the origin private file
    system; the next visit restores from there (the fastest read); a damaged file there is
    dropped: the worker unzips the shipped file again, plays, and keeps a good copy."""
    info = _info(dist_dir)
    name = info["file"] + ".raw"
    open_app(page, base_url + "?seed=5&pace=20")
    expect(page.locator(BOOTED.format("snapshot"))).to_have_count(1)
    assert _marks(page).get("snapshot_from") != "opfs"
    _kept_in_opfs(page, name, info["raw_bytes"])

    page.reload()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("snapshot"))).to_have_count(1)
    assert _marks(page).get("snapshot_from") == "opfs", _marks(page)
    # (No move here: the game is saved, and the last visit below plays its first move.)

    # Damage the kept file (its magic number), as a failing disk or another program might.
    page.evaluate("""async (name) => {
      const dir = await navigator.storage.getDirectory();
      const w = await (await dir.getFileHandle(name)).createWritable({ keepExistingData: true });
      await w.write({ type: "write", position: 0, data: new Uint8Array(4) });
      await w.close();
    }""", name)
    assert page.evaluate(OPFS_SIZE, name) == [info["raw_bytes"], 0]
    page.reload()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("snapshot"))).to_have_count(1)
    assert _marks(page).get("snapshot_from") != "opfs", _marks(page)
    _draw_from_stock(page)
    _kept_in_opfs(page, name, info["raw_bytes"])  # a good copy again
    page_log.assert_clean()


# ------------------------------------------------------------------ the primed code cache

def _trace(cdp, page, visit) -> list:
    """Chromium's trace events (category v8) while `visit()` runs in `page`'s browser."""
    done = []
    cdp.on("Tracing.tracingComplete", lambda params: done.append(params))
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": ["v8"]},
                               "transferMode": "ReturnAsStream"})
    try:
        visit()
    finally:
        cdp.send("Tracing.end")
    for _ in range(600):  # the trace's end is an event of its own: wait for it (a minute at most)
        if done:
            break
        page.wait_for_timeout(100)
    assert done, "the trace never ended"
    chunks = []
    while True:
        part = cdp.send("IO.read", {"handle": done[0]["stream"], "size": 1 << 20})
        chunks.append(part["data"])
        if part.get("eof"):
            break
    return json.loads("".join(chunks))["traceEvents"]


def test_the_next_visit_takes_in_the_code_cache_primed_on_the_first(page, page_log, base_url,
                                                                      context):
    """The code cache of pyodide.asm.mjs that the first visit primes (sw-register.js starts
    js/code-cache-worker.js once the service worker controls the page) is the one the next
    visit's worker takes in: in a trace of that visit, its compile of pyodide.asm.mjs consumed
    a cache. (Until session 10 the priming worker was ended before Chromium wrote the cache,
    and the next visit often compiled the whole file again.)"""
    page.goto(base_url)
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator('html[data-code-cache="primed"]')).to_have_count(1, timeout=60_000)
    page.close()
    again = context.new_page()

    def visit():
        again.goto(base_url)
        expect(again.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)

    events = _trace(context.new_cdp_session(again), again, visit)
    compiles = [e["args"]["data"] for e in events if e.get("name") == "v8.compileModule"
                and e.get("args", {}).get("data", {}).get("url", "").endswith("/pyodide/pyodide.asm.mjs")]
    assert compiles, "no compile of pyodide.asm.mjs in the trace"
    assert all((c.get("consumedCacheSize") or 0) > 1_000_000 for c in compiles), compiles
    expect(again.locator(BOOTED.format("snapshot"))).to_have_count(1)
    page_log.assert_clean()
