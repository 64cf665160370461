"""The memory snapshot, made on the device: a first visit boots Python normally (no snapshot is
downloaded), and once the page has been idle for a moment the worker makes the snapshot and keeps
it in the origin private file system; the next visit restores it (the engine imported, a Bridge
ready) and plays. A kept snapshot that cannot be used (damaged, made by another runtime build,
cut short) is set aside and the normal boot follows, with no error for the player; where it
cannot be kept (storage full or denied) every visit boots normally. The checks of the built
files need no browser."""

from __future__ import annotations

import json
import re

import pytest
from conftest import READY_SELECTOR
from play_driver import click_card, settle, start_game, wait_my_turn
from playwright.sync_api import expect
from test_offline import _draw_from_stock

import build

BOOTED = 'html[data-engine-boot="{}"]'
KEPT = 'html[data-engine-snapshot="{}"]'
MAGIC = 1886286592  # the first uint32 of a Pyodide 314 snapshot (pyodide.asm.mjs)
MADE_TIMEOUT = 180_000  # the snapshot is made once the page is idle: a busy machine takes long


def _info(dist_dir) -> dict:
    return json.loads((dist_dir / build.SNAPSHOT_INFO).read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the built files


def test_no_snapshot_is_shipped_and_snapshot_json_names_the_one_made_on_the_device(dist_dir):
    info = _info(dist_dir)
    assert info["pyodide"] == build.PYODIDE_VERSION and info["made"] == "device"
    wheel = (dist_dir / info["wheel"]).read_bytes()
    stdlib = (dist_dir / "pyodide" / "python_stdlib.zip").read_bytes()
    assert (
        info["file"]
        == f"snapshot-{build.PYODIDE_VERSION}-{build.snapshot_key(wheel, stdlib=stdlib)}"
    )
    assert not list(dist_dir.glob("snapshot-*")), "a first visit downloads no snapshot"
    lock = json.loads((dist_dir / "app-lock.json").read_text(encoding="utf-8"))
    (engine,) = lock["packages"].values()
    assert info["wheel"] == engine["file_name"]
    assert info["wheel_integrity"] == build._sri(wheel)
    assert info["site_packages"].startswith("/lib/python3.")
    # The sizes the worker counts the boot's progress against.
    assert info["sizes"] == {
        rel: (dist_dir / rel).stat().st_size for rel in (*build.BOOT_FILES, info["wheel"])
    }
    assert json.dumps(build.SNAPSHOT_INFO) in (dist_dir / "sw.js").read_text(encoding="utf-8")


def test_snapshot_name_changes_with_the_engine_the_runtime_and_the_worker(dist_dir):
    """The name carries a key over the runtime, the wheel, the standard library and the
    worker: after any change the kept snapshot is another build's (removed, never restored)."""
    info = _info(dist_dir)
    wheel = (dist_dir / info["wheel"]).read_bytes()
    key = build.snapshot_key(wheel)
    assert build.snapshot_key(wheel) == key, "same inputs, same key"
    others = {
        build.snapshot_key(wheel + b"\0"),
        build.snapshot_key(wheel, pyodide="314.0.8"),
        build.snapshot_key(wheel, integrity="sha512-x"),
        build.snapshot_key(wheel, tool=build.SNAPSHOT_TOOL.read_bytes() + b"//"),
        build.snapshot_key(wheel, stdlib=b"PK"),
    }
    assert key not in others and len(others) == 5


# ------------------------------------------------------------------ in the browser

OPFS_FILES = """async () => {
  const out = {};
  try {
    const dir = await navigator.storage.getDirectory();
    for await (const [name, handle] of dir.entries()) {
      const file = await handle.getFile();
      out[name] = [file.size, new Uint32Array(await file.slice(0, 4).arrayBuffer())[0]];
    }
  } catch (err) { /* none */ }
  return out;
}"""


def _marks(page) -> dict:
    return json.loads(page.locator("html").get_attribute("data-engine-marks"))


def _first_visit_keeps_a_snapshot(page, open_app, url, dist_dir) -> str:
    """A first visit: a normal boot, then the snapshot made and kept in OPFS; its name."""
    name = _info(dist_dir)["file"] + ".raw"
    open_app(page, url)
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    expect(page.locator(KEPT.format("kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    files = page.evaluate(OPFS_FILES)
    assert files.get(name, [0, 0])[1] == MAGIC and files[name][0] > 20_000_000, files
    return name


def _damage(
    page, name: str, at: int, data: list[int] | None = None, size: int | None = None
) -> None:
    page.evaluate(
        """async ([name, at, data, size]) => {
      const dir = await navigator.storage.getDirectory();
      const w = await (await dir.getFileHandle(name)).createWritable({ keepExistingData: true });
      if (data) await w.write({ type: "write", position: at, data: new Uint8Array(data) });
      if (size !== null) await w.truncate(size);
      await w.close();
    }""",
        [name, at, data, size],
    )


def test_first_visit_makes_the_snapshot_the_next_restores_it_and_a_damaged_one_is_set_aside(
    page, page_log, base_url, open_app, dist_dir
):
    name = _first_visit_keeps_a_snapshot(page, open_app, base_url + "?seed=5&pace=20", dist_dir)
    page.reload()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("snapshot"))).to_have_count(1)
    marks = _marks(page)
    assert marks.get("snapshot_from") == "opfs" and marks["restored"] <= marks["bridge"], marks
    # Damage the kept file (its magic number), as a failing disk or another program might.
    _damage(page, name, 0, [0, 0, 0, 0])
    page.reload()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    _draw_from_stock(page)
    # ... and a good one is made again.
    expect(page.locator(KEPT.format("kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    assert page.evaluate(OPFS_FILES)[name][1] == MAGIC
    assert page_log.foreign_requests(base_url) == []
    page_log.assert_clean()


def test_a_first_visit_s_draw_and_tap_while_the_snapshot_is_made_count(
    page, page_log, base_url, open_app
):
    """On a first visit the worker makes its snapshot once the page is idle: a draw asked for
    meanwhile is answered and a card tapped while it is on its way is chosen (neither waits for
    the making nor is lost); the snapshot is kept all the same."""
    open_app(page, base_url + "?seed=21&pace=0")
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    start_game(page, rules="samba", players=2, level="random")
    assert wait_my_turn(page) == "draw"
    settle(page)
    expect(page.locator("html[data-engine-snapshot-making]")).to_have_count(1, timeout=MADE_TIMEOUT)
    n = page.locator("#hand .card").count()
    card = page.locator(
        f'#hand .card[data-id="{page.locator("#hand .card").last.get_attribute("data-id")}"]'
    )
    page.click("#stock")
    click_card(card)
    expect(card).to_have_attribute("aria-pressed", "true")
    settle(page)
    expect(page.locator("body")).not_to_have_attribute("data-phase", "draw")
    assert page.locator("#hand .card").count() > n
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#message[data-kind="error"]')).to_have_count(0)
    expect(page.locator(KEPT.format("kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    # Made in steps (a request waits at most the longest one, not the whole making).
    about = json.loads(page.locator("html").get_attribute("data-engine-snapshot-about"))
    assert about["steps"] > 10 and about["longest_step_ms"] < about["ms"], about
    page_log.assert_clean()


# Why the worker booted the long way (its console.info line), per kind of damage.
DAMAGE = {
    "other_build": r"build id mismatch",
    "cut_short": r"no snapshot kept",
    "another_builds_file": r"no snapshot kept",
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_an_unusable_kept_snapshot_falls_back_to_a_normal_boot(
    damage, page, page_log, base_url, open_app, dist_dir
):
    name = _first_visit_keeps_a_snapshot(page, open_app, base_url + "?seed=5&pace=20", dist_dir)
    if damage == "other_build":
        _damage(page, name, 16, [0] * 32)  # the build id (8 uint32 after the header's first four)
    elif damage == "cut_short":
        _damage(page, name, 0, size=20_000_000)  # storage that ran out while writing
    else:
        # A snapshot another build made (an update of the site): its name is not this build's.
        page.evaluate(
            """async (name) => {
          const dir = await navigator.storage.getDirectory();
          const old = await (await dir.getFileHandle(name)).getFile();
          const w = await (await dir.getFileHandle("snapshot-314.0.7-0000000000000000.raw", { create: true })).createWritable();
          await w.write(old); await w.close();
          await dir.removeEntry(name);
        }""",
            name,
        )
    said = []
    page.on("worker", lambda w: w.on("console", lambda m: said.append(f"{m.type}: {m.text}")))
    page.reload()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    why = [line for line in said if "normal boot" in line]
    assert len(why) == 1 and why[0].startswith("info:"), said
    assert re.search(DAMAGE[damage], why[0], re.I), why
    expect(page.locator("#boot-status")).not_to_have_attribute("data-state", "error")
    _draw_from_stock(page)
    # Set aside: the kept one is this build's good snapshot again, the other build's is gone.
    expect(page.locator(KEPT.format("kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    files = page.evaluate(OPFS_FILES)
    assert list(files) == [name] and files[name][1] == MAGIC, files
    page_log.assert_clean()
    assert not re.search(r"snapshot", page.locator("#boot-status").inner_text(), re.I)


def test_storage_full_keeps_nothing_and_every_visit_boots_normally(
    page, page_log, base_url, open_app, context
):
    """A device whose storage is full (the origin's quota: 1 MB here) cannot keep the 31 MB
    snapshot: nothing is kept, nothing is said to the player, the next visit boots normally."""
    cdp = context.new_cdp_session(page)
    origin = base_url.rstrip("/")
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1_000_000})
    open_app(page, base_url + "?seed=5&pace=20")
    expect(page.locator(KEPT.format("not kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    assert not [n for n in page.evaluate(OPFS_FILES) if n.startswith("snapshot-")]
    page.reload()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    _draw_from_stock(page)
    page_log.assert_clean()


DENIED = """navigator.storage.getDirectory = () => Promise.reject(new DOMException("denied", "SecurityError"));
self.caches.open = () => Promise.reject(new DOMException("denied", "SecurityError"));
"""


def test_storage_denied_keeps_nothing_and_plays(page, page_log, base_url, context):
    """Storage denied (site data blocked: OPFS and Cache Storage refuse with a SecurityError,
    put into the worker's script by the test): the boot is normal, nothing is kept, the game
    plays, no error."""

    def worker(route):
        body = route.fetch().text()
        route.fulfill(status=200, body=DENIED + body, content_type="text/javascript")

    context.route(re.compile(r".*/worker\.js$"), worker)
    page.goto(base_url + "?seed=5&pace=20")
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator(BOOTED.format("normal"))).to_have_count(1)
    expect(page.locator(KEPT.format("not kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    _draw_from_stock(page)
    page_log.assert_clean()


# ------------------------------------------------------------------ the primed code cache


def _trace(cdp, page, visit) -> list:
    """Chromium's trace events (category v8) while `visit()` runs in `page`'s browser."""
    done = []
    cdp.on("Tracing.tracingComplete", lambda params: done.append(params))
    cdp.send(
        "Tracing.start",
        {"traceConfig": {"includedCategories": ["v8"]}, "transferMode": "ReturnAsStream"},
    )
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


def test_the_next_visit_takes_in_the_code_cache_primed_on_the_first(
    page, page_log, base_url, context
):
    """The code cache of pyodide.asm.mjs that the first visit primes (sw-register.js starts
    js/code-cache-worker.js once the service worker controls the page) is the one the next
    visit's worker takes in: in a trace of that visit, its compile of pyodide.asm.mjs consumed
    a cache. (A priming worker ended before Chromium has written the cache leaves the next visit
    to compile the whole file again.)"""
    page.goto(base_url)
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator('html[data-code-cache="primed"]')).to_have_count(1, timeout=60_000)
    expect(page.locator(KEPT.format("kept"))).to_have_count(1, timeout=MADE_TIMEOUT)
    page.close()
    again = context.new_page()

    def visit():
        again.goto(base_url)
        expect(again.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)

    events = _trace(context.new_cdp_session(again), again, visit)
    compiles = [
        e["args"]["data"]
        for e in events
        if e.get("name") == "v8.compileModule"
        and e.get("args", {}).get("data", {}).get("url", "").endswith("/pyodide/pyodide.asm.mjs")
    ]
    assert compiles, "no compile of pyodide.asm.mjs in the trace"
    assert all((c.get("consumedCacheSize") or 0) > 1_000_000 for c in compiles), compiles
    expect(again.locator(BOOTED.format("snapshot"))).to_have_count(1)
    page_log.assert_clean()
