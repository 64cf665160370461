"""Hit-test probe (by hand): python e2e/fit_probe.py URL [OUTDIR]: loads every position of
positions.py as a saved game at every screen size, prints the hand cards and enabled buttons
that fail the hit test, and writes screenshots."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import launch_chromium  # noqa: E402
from fit import SCREENS, hit_report, load_saved  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from positions import POSITIONS  # noqa: E402

url = sys.argv[1]
out = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/wf")
out.mkdir(parents=True, exist_ok=True)
names = sys.argv[3].split(",") if len(sys.argv) > 3 else list(POSITIONS)
with sync_playwright() as pw:
    b = launch_chromium(pw)
    for name in names:
        ctx = b.new_context(
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            service_workers="block",
        )
        ctx.set_default_timeout(30_000)
        page = ctx.new_page()
        load_saved(page, url, name)
        for screen, (w, h) in SCREENS.items():
            page.set_viewport_size({"width": w, "height": h})
            rep = hit_report(page)
            print(
                name,
                screen,
                "cards",
                rep["cards"],
                "bad cards",
                len(rep["bad_cards"]),
                "buttons",
                rep["buttons"],
                "bad buttons",
                rep["bad_buttons"][:4],
            )
            page.screenshot(path=str(out / f"{name}-{screen}.png"))
        ctx.close()
    b.close()
