"""The Hint button: the hinted move in words, its reasons and warnings in the player's language
(py_engine/ai/explain.py keys; params named by the page), the hinted cards, meld, pile or stock
ringed through the view's targets, and no forced level in the request.

The engine's reply is given reasons here by a wrapper around the page's Worker (an init
script), so the page's side is tested whatever the engine's hint returns today; the plain reply
(no reasons) is the i18n tests' hint.
"""

from __future__ import annotations

import os
import re

from messages import messages
from play_driver import click_action, settle, start_game, wait_my_turn
from playwright.sync_api import expect

REASONS = [{"key": "why.blocks_pile", "seat": 1, "cards": 9}, {"key": "why.keeps_pair"}]
WARNINGS = [{"key": "warn.feeds_known_pair", "seat": 1, "rank": "J", "cards": 9}]

WRAP_WORKER_JS = """(([reasons, warnings]) => {
  const W = window.Worker;
  window.__hintRequests = [];
  window.Worker = class extends W {
    constructor(...a) { super(...a); this.hints = new Set(); }
    postMessage(msg, ...rest) {
      if (msg && msg.type === "request" && msg.request && msg.request.op === "hint") {
        this.hints.add(msg.id);
        window.__hintRequests.push(msg.request);
      }
      return super.postMessage(msg, ...rest);
    }
    addEventListener(type, fn, ...rest) {
      if (type !== "message") return super.addEventListener(type, fn, ...rest);
      return super.addEventListener(type, (ev) => {
        const d = ev.data;
        if (d && d.type === "response" && this.hints.has(d.id)) {
          const r = typeof d.response === "string" ? JSON.parse(d.response) : d.response;
          if (r && r.ok) { fn({ data: { ...d, response: { ...r, reasons, warnings } } }); return; }
        }
        fn(ev);
      }, ...rest);
    }
  };
})(%s)"""


def fill(text: str, **params) -> str:
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


def form(catalogue: dict, key: str, n: int) -> str:
    v = catalogue[key]
    return v if isinstance(v, str) else v.get("other")


def test_hint_shows_the_move_its_reasons_and_its_cards(page, base_url, open_app):
    import json

    page.add_init_script(WRAP_WORKER_JS % json.dumps([REASONS, WARNINGS]))
    page.set_viewport_size({"width": 1440, "height": 900})
    open_app(page, base_url + "?seed=21&pace=20")
    start_game(page, level="random", players=4)
    assert wait_my_turn(page) == "draw"
    click_action(page, "move", "draw")
    settle(page)
    assert wait_my_turn(page) == "meld"
    page.click('#actions button[data-action="hint"]')
    msg = page.locator('#message[data-kind="info"][data-code="hint"]')
    expect(msg).to_be_visible()
    # The request leaves the level to the engine.
    reqs = page.evaluate("window.__hintRequests")
    assert reqs and all(r.get("level") in (None, "hard") for r in reqs), reqs
    en = messages("en")
    main = msg.locator(".msg-main").inner_text().strip()
    assert main.startswith(en["status.hint"].split("{")[0]), main
    assert "⟦" not in main and not re.search(
        r"\b(discard|meld|take|add) [2-9TJQKA][CDHS]\b", main
    ), main
    why = msg.locator(".hint-why li")
    expect(why).to_have_count(2)
    expect(why.nth(0)).to_have_text(fill(form(en, "why.blocks_pile", 9), n=9, seat=en["seat.1"]))
    expect(why.nth(1)).to_have_text(en["why.keeps_pair"])
    expect(msg.locator(".hint-careful li")).to_have_text(
        fill(form(en, "warn.feeds_known_pair", 9), seat=en["seat.1"], rank=en["rankpl.J"], n=9)
    )
    # The hinted move's cards (or meld, pile, stock) are ringed on the table.
    hinted = page.locator("#hand .card.hint, #my-melds .meld.hinted, .deck.hinted")
    assert hinted.count() >= 1, page.locator("body").get_attribute("data-hint")
    shots = os.environ.get("SAMBA_SHOTS")
    if shots:
        page.screenshot(path=f"{shots}/hint-1440x900.png")
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{shots}/hint-390x844.png")
        page.set_viewport_size({"width": 1440, "height": 900})
    # Another language: the move, the reasons and the warnings in its words.
    fr = messages("fr")
    page.select_option("#lang-select", "fr")
    expect(page.locator('html[lang="fr"]')).to_have_count(1)
    expect(msg.locator(".hint-why li").nth(0)).to_have_text(
        fill(form(fr, "why.blocks_pile", 9), n=9, seat=fr["seat.1"])
    )
    expect(msg.locator(".hint-careful li")).to_have_text(
        fill(form(fr, "warn.feeds_known_pair", 9), seat=fr["seat.1"], rank=fr["rankpl.J"], n=9)
    )
    assert msg.locator(".msg-main").inner_text().startswith(fr["status.hint"].split("{")[0])
    # Playing a move ends the hint: no ring is left on the next table.
    page.select_option("#lang-select", "en")
    card = page.locator('#hand .card[data-legal="discard"]').last
    card.click(position={"x": 6, "y": 10})
    click_action(page, "discard")
    expect(page.locator("#hand .card.hint, #my-melds .meld.hinted, .deck.hinted")).to_have_count(0)
    expect(page.locator('#message[data-code="hint"]')).to_have_count(0)
