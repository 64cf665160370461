"""Table actions clicked through in a live browser, each from a scenario that sets up the position:
take only the top card (`top m<id>`), merge two groups (`merge`), Dutch `pass` and `red3`,
asking the partner (`ask`, a computer partner answers) and answering a computer partner's
question (`answer yes` / `answer no`), Crawford's `take m<id>`, and `end` (stock empty).

One Pyodide boot for the whole module: a same-origin host page (served by a Playwright route)
frames the table in embed mode and loads each position with the `samba:v1:load_scenario`
message (docs/embedding.md), so every test reuses the same worker. Each test checks the result
through the page (melds, hand, pile, phase, log, dialogs) and that no console/page error showed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from messages import messages
from play_driver import click_card
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
MESSAGES = messages("en")
LESSONS = ROOT / "web" / "lessons"

HOST_PATH = "__actions_host.html"
HOST_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>actions host</title></head>
<body>
<iframe id="t" src="index.html?embed=1&pace=0&levels=easy" title="table"
        style="width:1240px;height:860px;border:0"></iframe>
<ol id="events"></ol>
<script>
const frame = document.getElementById("t");
window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow || ev.origin !== location.origin) return;
  const m = ev.data || {};
  const li = document.createElement("li");
  li.dataset.type = String(m.type || "");
  li.dataset.source = (m.data && m.data.source) || "";
  li.dataset.move = (m.data && m.data.move) || "";
  li.textContent = JSON.stringify(m);
  document.getElementById("events").append(li);
});
window.loadScenario = (scenario, levels) => {
  frame.contentWindow.postMessage({type: "samba:v1:load_scenario", data: {scenario, levels}},
                                  location.origin);
};
</script>
</body></html>
"""

MY_TURN = 'body[data-my-turn="1"][data-busy="0"]'


def lesson_scenario(name: str) -> dict:
    return json.loads((LESSONS / f"{name}.json").read_text(encoding="utf-8"))["scenario"]


def msg(key: str, **params) -> str:
    text = MESSAGES[key]
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


class Table:
    """The host page, the table's frame in it, and the console/page errors of both."""

    def __init__(self, page):
        self.page = page
        self.frame = page.frame_locator("#t")
        self.errors: list[str] = []
        self.loads = 0

    def body(self):
        return self.frame.locator("body")

    def attr(self, name: str) -> str:
        return self.body().get_attribute(f"data-{name}") or ""

    def load(self, scenario: dict, levels: str) -> None:
        """Loads a position in the same frame (no new boot) and waits for its ready event."""
        self.loads += 1
        self.page.evaluate("([s, l]) => window.loadScenario(s, l)", [scenario, levels])
        ready = self.page.locator(
            '#events li[data-type="samba:v1:ready"][data-source="load_scenario"]'
        )
        expect(ready).to_have_count(self.loads, timeout=30_000)
        last = json.loads(ready.last.inner_text())["data"]
        assert last["rules"] == scenario.get("rules", "samba"), last
        assert not self.page.locator('#events li[data-type="samba:v1:error"]').count()
        # The page may still be busy with a request queued behind the worker's idle-time work
        # (the memory snapshot of a first visit): a tap meanwhile does nothing, as every intent
        # while busy, so the tests begin once it is not.
        self.settle()

    def hand(self) -> list[str]:
        return [c.get_attribute("data-card") for c in self.frame.locator("#hand .card").all()]

    def meld(self, mid: int):
        return self.frame.locator(f'#my-melds .meld[data-meld="{mid}"]')

    def log(self):
        return self.frame.locator("#log-list")

    def moves_played(self) -> list[str]:
        return [
            li.get_attribute("data-move")
            for li in self.page.locator('#events li[data-type="samba:v1:move"]').all()
        ]

    def settle(self) -> None:
        expect(self.frame.locator('body[data-busy="0"]')).to_have_count(1)

    def assert_clean(self) -> None:
        errors, self.errors[:] = list(self.errors), []
        assert not errors, errors


@pytest.fixture(scope="module")
def table(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, service_workers="block")
    ctx.set_default_timeout(15_000)
    ctx.route(
        base_url + HOST_PATH,
        lambda route: route.fulfill(
            status=200, content_type="text/html; charset=utf-8", body=HOST_HTML
        ),
    )
    page = ctx.new_page()
    tbl = Table(page)
    page.on(
        "console", lambda m: tbl.errors.append(f"{m.type}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda exc: tbl.errors.append(f"pageerror: {exc}"))
    page.goto(base_url + HOST_PATH)
    expect(
        page.locator('#events li[data-type="samba:v1:ready"][data-source="params"]')
    ).to_have_count(1, timeout=60_000)
    yield tbl
    ctx.close()


@pytest.fixture
def t(table):
    yield table
    table.assert_clean()


# ---------------------------------------------------------------- positions


def samba_top() -> dict:
    return lesson_scenario("06-take-the-top-card")  # 9S on top, 6S 7S 8S as m1


def crawford_take() -> dict:
    return lesson_scenario("12-crawford-frozen-pile")  # 9H on top, 9C 9D 9S as m1


MERGE = {
    "rules": "samba",
    "players": 2,
    "seed": 3,
    "phase": "meld",
    "hands": [["4C", "5D", "9S", "JH", "KD"], ["5C", "7D", "8C", "TC", "JD"]],
    "melds": [[["KS", "KH", "KD"], ["KC", "KS", "KH"], ["6S", "7S", "8S"]], []],
    "pile": ["QH"],
}

DUTCH_PASS = {
    "rules": "dutch",
    "players": 2,
    "seed": 5,
    "phase": "meld",
    "hands": [["9D"], ["5C", "7D", "8C", "TC", "JD"]],
    "melds": [[["6S", "7S", "8S"]], []],
    "pile": ["QH"],
}

DUTCH_RED3 = {
    "rules": "dutch",
    "players": 2,
    "seed": 5,
    "phase": "meld",
    "hands": [["3H", "9D", "4C", "KS"], ["5C", "7D", "8C", "TC", "JD"]],
    "melds": [[["6S", "7S", "8S"]], []],
    "pile": ["QH"],
}

# The partner (seat 2, a `medium` computer) acts first: two canastas on the table, two cards in
# hand (KS fits the kings, 4S to discard), and we hold more than five cards: it asks.
PARTNER_ASKS = {
    "rules": "samba",
    "players": 4,
    "phase": "meld",
    "current": 2,
    "seed": 20,
    "hands": [
        ["QS", "QD", "QC", "JS", "5S", "6D", "9C"],
        ["5C", "7D", "8C"],
        ["KS", "4S"],
        ["4D", "6H", "AD"],
    ],
    "melds": [
        [["KC", "KC", "KC", "KD", "KD", "KD", "KH"], ["4H", "5H", "6H", "7H", "8H", "9H", "TH"]],
        [],
    ],
    "pile": ["4H"],
}


def stock_empty() -> dict:
    """Every card placed: the stock is empty; a black three on the pile blocks it."""
    ranks, suits = "23456789TJQKA", "CDHS"
    rest = [r + s for r in ranks for s in suits] * 3 + ["JK"] * 6
    hands = [["4C", "KS", "QD", "JH", "5D"], ["5C", "7D", "8C", "TC", "JD"]]
    melds = [[["6S", "7S", "8S"]], []]
    for c in [c for h in hands for c in h] + [c for m in melds[0] for c in m]:
        rest.remove(c)
    rest.remove("3C")
    return {
        "rules": "samba",
        "players": 2,
        "seed": 1,
        "hands": hands,
        "melds": melds,
        "pile": rest + ["3C"],
        "stock": [],
    }


# ---------------------------------------------------------------- tests


def test_top_card_onto_a_sequence_by_clicking_the_highlighted_sequence(t):
    t.load(samba_top(), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    assert "top m1" in (t.frame.locator("#actions").get_attribute("data-moves") or "").split("|")
    expect(t.frame.locator("#status")).to_contain_text(MESSAGES["status.top_hint"])
    seq = t.meld(1)
    expect(seq).to_have_attribute("data-legal", "top")
    expect(seq.locator(".card")).to_have_count(3)
    n_hand = len(t.hand())
    seq.click()
    t.settle()
    expect(t.body()).to_have_attribute("data-phase", "meld")
    expect(t.meld(1).locator(".card")).to_have_count(4)
    expect(t.meld(1).locator('.card[data-card="9S"]')).to_have_count(1)
    expect(t.frame.locator("#pile-count")).to_have_text("2")
    assert len(t.hand()) == n_hand
    expect(t.log()).to_contain_text(MESSAGES["log.you.top"].split("{")[0].strip())
    assert t.moves_played()[-1] == "top m1"


def test_top_card_by_clicking_the_pile(t):
    t.load(samba_top(), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    expect(t.frame.locator("#pile")).to_have_attribute("data-legal", "top")
    t.frame.locator("#pile").click()
    t.settle()
    expect(t.body()).to_have_attribute("data-phase", "meld")
    expect(t.meld(1).locator(".card")).to_have_count(4)
    expect(t.frame.locator("#pile-count")).to_have_text("2")
    assert t.moves_played()[-1] == "top m1"


def test_merge_two_groups_with_the_keyboard_and_clicks(t):
    t.load(MERGE, "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    expect(t.body()).to_have_attribute("data-phase", "meld")
    expect(t.frame.locator("#my-melds .meld[data-meld]")).to_have_count(3)
    # Both groups of kings are highlighted as merge candidates; the sequence is not.
    expect(t.meld(1)).to_have_attribute("data-legal", "merge")
    expect(t.meld(2)).to_have_attribute("data-legal", "merge")
    assert t.meld(3).get_attribute("data-legal") is None
    # Keyboard: Enter on the first group picks it.
    t.meld(1).focus()
    t.meld(1).press("Enter")
    picked = re.compile(r"\bmerge-from\b")
    expect(t.meld(1)).to_have_class(picked)
    expect(t.frame.locator("#status")).to_have_text(MESSAGES["status.merge_pick"])
    # Clicking the picked group again cancels; pick again and click the other group.
    t.meld(1).click()
    expect(t.meld(1)).not_to_have_class(picked)
    t.meld(1).click()
    expect(t.meld(1)).to_have_class(picked)
    t.meld(2).click()
    t.settle()
    expect(t.frame.locator("#my-melds .meld[data-meld]")).to_have_count(2)
    expect(t.meld(2)).to_have_count(0)
    expect(t.meld(1).locator(".card")).to_have_count(6)
    expect(t.body()).to_have_attribute("data-phase", "meld")
    expect(t.log()).to_contain_text(MESSAGES["log.you.merge"])
    assert t.moves_played()[-1] == "merge m1 m2"
    assert sorted(t.hand()) == sorted(MERGE["hands"][0])


def test_add_selected_cards_to_melds_by_clicking_them(t):
    """Select a card, click a highlighted meld: it is staged there; confirm lays it."""
    t.load(MERGE, "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    click_card(t.frame.locator('#hand .card[data-card="9S"]'))
    expect(t.meld(3)).to_have_attribute("data-legal", "add")
    t.meld(3).click()
    expect(t.meld(3).locator(".card.pending")).to_have_count(1)
    click_card(t.frame.locator('#hand .card[data-card="KD"]'))
    t.meld(1).click()
    expect(t.body()).to_have_attribute("data-staged", "2")
    t.frame.locator('#actions button[data-action="confirm"]').click()
    t.settle()
    expect(t.meld(3).locator(".card")).to_have_count(4)
    expect(t.meld(1).locator(".card")).to_have_count(4)
    assert "9S" not in t.hand() and "KD" not in t.hand()
    assert t.moves_played()[-1] in ("meld add m3 9S; add m1 KD", "meld add m1 KD; add m3 9S")


def test_dutch_pass_with_one_card(t):
    t.load(DUTCH_PASS, "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    assert t.hand() == ["9D"]
    expect(t.frame.locator("#status")).to_have_text(MESSAGES["status.your_meld_dutch"])
    btn = t.frame.locator('#actions button[data-action="move"][data-arg="pass"]')
    expect(btn).to_have_text(MESSAGES["action.pass"])
    btn.click()
    expect(t.log()).to_contain_text(MESSAGES["log.you.pass"])
    assert "pass" in t.moves_played()
    # The opponent plays; then it is our draw, still holding the one card.
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    expect(t.body()).to_have_attribute("data-phase", "draw")
    assert t.hand() == ["9D"]


def test_dutch_lay_a_red_three(t):
    t.load(DUTCH_RED3, "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    btn = t.frame.locator('#actions button[data-action="move"][data-arg="red3 3H"]')
    expect(btn).to_contain_text(MESSAGES["action.red3"].split("{")[0].strip())
    btn.click()
    t.settle()
    expect(t.frame.locator('#my-melds .red-threes .card[data-card="3H"]')).to_have_count(1)
    assert "3H" not in t.hand() and len(t.hand()) == 3
    expect(t.body()).to_have_attribute("data-phase", "meld")
    expect(t.log()).to_contain_text(MESSAGES["log.you.red3"].split("{")[0].strip())
    assert t.moves_played()[-1] == "red3 3H"
    # The button is gone: no red three left to lay.
    expect(t.frame.locator('#actions button[data-arg^="red3"]')).to_have_count(0)


def test_ask_partner_then_the_computer_says_yes(t):
    t.load(lesson_scenario("10-ask-your-partner"), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    ask = t.frame.locator('#actions button[data-action="ask"]')
    expect(ask).to_be_disabled()
    for c in ("QS", "QD", "QC"):
        click_card(t.frame.locator(f'#hand .card[data-card="{c}"]'))
    t.frame.locator('#actions button[data-action="new"]').click()
    expect(t.frame.locator("#my-melds .meld.staged")).to_have_count(1)
    click_card(t.frame.locator('#hand .card[data-card="JS"]'))
    expect(ask).to_be_enabled()
    ask.click()
    # The partner (an `easy` computer) answers yes: the asked action is played, the deal ends.
    expect(t.body()).to_have_attribute("data-phase", "deal_over")
    played = t.moves_played()
    assert played[-2:] == ["ask new QC QD QS; discard JS", "answer yes"], played
    expect(t.log()).to_contain_text(MESSAGES["log.you.ask"])
    expect(t.log()).to_contain_text(msg("log.answer_yes", name=MESSAGES["seat.2"]))
    expect(t.frame.locator("#dlg-deal")).to_be_visible()
    expect(t.frame.locator("#deal-out")).to_have_text(MESSAGES["deal.went_out_you"])
    t.frame.locator("#btn-deal-close").click()


WATCH_REFUSALS_JS = """() => {
  window.__refusals = [];
  const seen = () => {
    for (const n of document.querySelectorAll('#opening .check.bad, #message[data-kind="error"]')) {
      if (n.textContent) window.__refusals.push(n.textContent);
    }
  };
  new MutationObserver(seen).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def test_asking_the_partner_shows_no_refusal_while_the_answer_comes(t):
    """After "may I go out?" the asker sees no refusal (the staged melds of the proposal were
    checked again in the answer phase and showed "not possible at this point" until the answer)."""
    t.load(lesson_scenario("10-ask-your-partner"), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    frame = next(f for f in t.page.frames if "embed=1" in f.url)
    for c in ("QS", "QD", "QC"):
        click_card(t.frame.locator(f'#hand .card[data-card="{c}"]'))
    t.frame.locator('#actions button[data-action="new"]').click()
    expect(t.frame.locator("#opening .check.ok")).to_have_count(1)
    click_card(t.frame.locator('#hand .card[data-card="JS"]'))
    frame.evaluate(WATCH_REFUSALS_JS)
    t.frame.locator('#actions button[data-action="ask"]').click()
    expect(t.body()).to_have_attribute("data-phase", "deal_over")
    t.settle()
    assert frame.evaluate("window.__refusals") == []
    t.frame.locator("#btn-deal-close").click()


def _partner_asks(t):
    t.load(PARTNER_ASKS, "easy,medium,easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    expect(t.body()).to_have_attribute("data-phase", "answer")
    assert t.moves_played()[-1] == "ask add m1 KS; discard 4S"
    expect(t.frame.locator("#status")).to_contain_text(
        msg("status.answer", name=MESSAGES["seat.2"])
    )
    expect(t.log()).to_contain_text(msg("log.ask", name=MESSAGES["seat.2"]))
    yes = t.frame.locator('#actions button[data-arg="answer yes"]')
    no = t.frame.locator('#actions button[data-arg="answer no"]')
    expect(yes).to_have_text(MESSAGES["action.answer_yes"])
    expect(no).to_have_text(MESSAGES["action.answer_no"])
    return yes, no


def test_computer_partner_asks_and_we_answer_yes(t):
    yes, _ = _partner_asks(t)
    yes.click()
    expect(t.body()).to_have_attribute("data-phase", "deal_over")
    expect(t.log()).to_contain_text(MESSAGES["log.you.answer_yes"])
    expect(t.frame.locator("#dlg-deal")).to_be_visible()
    expect(t.frame.locator("#deal-out")).to_have_text(msg("deal.went_out", name=MESSAGES["seat.2"]))
    expect(t.meld(1).locator(".card")).to_have_count(8)  # KS went onto the kings
    t.frame.locator("#btn-deal-close").click()


def test_computer_partner_asks_and_we_answer_no(t):
    _, no = _partner_asks(t)
    no.click()
    expect(t.log()).to_contain_text(MESSAGES["log.you.answer_no"])
    # The partner may not go out this turn; play goes round to us again.
    expect(t.frame.locator(MY_TURN)).to_have_count(1, timeout=30_000)
    expect(t.body()).to_have_attribute("data-phase", "draw")
    assert len(t.hand()) == 7
    expect(t.frame.locator('#seats .seat[data-seat="2"]')).not_to_contain_text(
        MESSAGES["ui.cards"].replace("{n}", "0")
    )
    expect(t.frame.locator("#dlg-deal")).not_to_be_visible()


def test_crawford_take_the_pile_by_clicking_the_meld(t):
    t.load(crawford_take(), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    expect(t.meld(1)).to_have_attribute("data-legal", "top")
    t.meld(1).click()
    t.settle()
    expect(t.body()).to_have_attribute("data-phase", "meld")
    expect(t.meld(1).locator(".card")).to_have_count(4)
    expect(t.frame.locator("#pile-count")).to_have_text("0")
    assert sorted(t.hand()) == sorted(["5C", "KS", "QS", "JH", "4C", "8D"])
    expect(t.log()).to_contain_text(MESSAGES["log.you.take"].split("(")[0].strip())
    assert t.moves_played()[-1] == "take m1"


def test_crawford_take_the_pile_by_clicking_the_pile(t):
    t.load(crawford_take(), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    t.frame.locator("#pile").click()
    t.settle()
    expect(t.meld(1).locator(".card")).to_have_count(4)
    expect(t.frame.locator("#pile-count")).to_have_text("0")
    assert t.moves_played()[-1] == "take m1"


def test_end_the_deal_when_the_stock_is_empty(t):
    t.load(stock_empty(), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    expect(t.frame.locator("#stock-count")).to_have_text("0")
    assert (t.frame.locator("#actions").get_attribute("data-moves") or "") == "end"
    btn = t.frame.locator('#actions button[data-arg="end"]')
    expect(btn).to_have_text(MESSAGES["action.end"])
    btn.click()
    expect(t.body()).to_have_attribute("data-phase", "deal_over")
    expect(t.log()).to_contain_text(MESSAGES["log.you.end"])
    expect(t.frame.locator("#dlg-deal")).to_be_visible()
    expect(t.frame.locator("#deal-out")).to_have_text(MESSAGES["deal.no_out"])
    assert t.moves_played()[-1] == "end"
    t.frame.locator("#btn-deal-close").click()


def test_the_deal_review_tells_the_engines_steps(t):
    """After the deal, the review (the bridge's deal_review) names each step from the entries
    the engine gives it: ending the deal is "You end the deal", the first step the deal."""
    t.load(stock_empty(), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    t.frame.locator('#actions button[data-arg="end"]').click()
    expect(t.frame.locator("#dlg-deal")).to_be_visible()
    t.frame.locator('#dlg-deal [data-comfort="review"]').click()
    box = t.frame.locator("#dlg-review")
    expect(box).to_be_visible()
    expect(box.locator(".review-move")).to_have_text(MESSAGES["review.you.end"])
    box.locator('[data-review="first"]').click()
    expect(box.locator(".review-move")).to_have_text(MESSAGES["review.dealt"])
    box.locator(".dlg-buttons button").click()
    expect(box).to_be_hidden()
    t.frame.locator("#btn-deal-close").click()
    expect(t.frame.locator("#dlg-deal")).to_be_hidden()


REVIEW_STEPS_JS = """async () => {
  const R = await import(new URL("js/review.js", location.href).href);
  const view = {seat: 0, side_of: [0, 1], sides: [[0], [1]]};
  // Each step as deal_review gives it: the move's log entries (kind and facts) and the position
  // after it. The positions here stay those of the deal (the page tells a step by its entries,
  // not by what changed): only the entries say what happened.
  const base = {hands: [["4C", "5D", "9S"], ["5C", "7D"]], pile: ["QH", "8S"], stock: 40,
                melds: [[["6S", "7S", "8S"], ["KC", "KD", "KH"], ["KS", "KS", "KH"]], []], red_threes: [[], []]};
  const at = (seat, move, entries) => ({seat, move, entries: entries.map((e) => ({seat, text: move, ...e})), ...structuredClone(base)});
  const steps = {
    draw: at(0, "draw", [{kind: "draw", n: 2, cards: ["JH", "3D"]}, {kind: "red3", card: "3D"}]),
    discard: at(0, "discard 9S", [{kind: "discard", card: "9S"}]),
    meld: at(0, "meld add m1 9S", [{kind: "meld", laid: ["9S"], melds: [1], parts: [{cards: ["9S"], meld: 1, new: false}]}]),
    top: at(0, "top m1", [{kind: "take_top", card: "8S", meld: 1}]),
    take: at(1, "take 8C 8D", [{kind: "take_pile", pile: ["QH", "8S"], size: 2, card: "8S", with: ["8C", "8D"], group: 4}]),
    merge: at(0, "merge m2 m3", [{kind: "merge", melds: [2, 3]}]),
    red3: at(0, "red3 3H", [{kind: "red3", card: "3H"}]),
    pass: at(0, "pass", [{kind: "pass"}]),
    ask: at(0, "ask add m1 9S; discard 4C", [{kind: "ask", partner: 2}]),
    answer: at(1, "answer yes", [{kind: "answer", yes: true}]),
    answer_no: at(1, "answer no", [{kind: "answer", yes: false}]),
    ended: at(1, "discard 7D", [{kind: "discard", card: "7D"}, {kind: "deal_end", seat: null}]),
    dealt: {seat: null, move: "deal", entries: [], ...structuredClone(base)},
  };
  const out = {};
  for (const [k, st] of Object.entries(steps)) out[k] = R.describeStep(st, view);
  return out;
}"""


def test_the_deal_review_tells_each_step_from_the_log_entries(t):
    """The review's steps in words, from each move's log entries (its kind and facts, as
    deal_review gives them; never guessed from the positions or the move texts); the viewer's
    own in the second person (issue 36.8: "You discards 7♥"). A draw that lays a red three by
    itself is a draw (its own entry comes first)."""
    t.load(MERGE, "easy")
    frame = next(f for f in t.page.frames if "embed=1" in f.url)
    got = frame.evaluate(REVIEW_STEPS_JS)
    ava = MESSAGES["seat.1"]
    # The viewer's own steps in the second person ("You discard", never "You discards").
    want = {
        "draw": msg("review.you.draw"),
        "discard": msg("review.you.discard", cards="9♠"),
        "meld": msg("review.you.meld", cards="9♠"),
        "top": msg("review.you.top"),
        "take": msg("review.move.take_pile", name=ava, n=2),
        "merge": msg("review.you.merge"),
        "red3": msg("review.you.red3", cards="3♥"),
        "pass": msg("review.you.pass"),
        "ask": msg("review.you.ask"),
        "answer": msg("review.move.answer_yes", name=ava),
        "answer_no": msg("review.move.answer_no", name=ava),
        "ended": msg("review.move.discard", name=ava, cards="7♦"),
        "dealt": msg("review.dealt"),
    }
    assert got["discard"] == "You discard 9♠"
    assert got == want


LOG_TURN = {
    "rules": "samba",
    "players": 2,
    "seed": 4,
    "phase": "draw",
    "hands": [["7S", "7H", "9H", "2C", "4D", "5H", "AS", "KC"], ["5C", "7C", "8D", "TC", "JD"]],
    "melds": [[["9D", "9C", "9S"]], []],
    "pile": ["5D", "8C", "QH", "7D"],
}


def test_the_log_names_the_take_and_each_meld_of_a_turn(t):
    """Issue 36.2: taking the pile names the top card, the cards laid with it and the new group,
    and what came into the hand; a turn's melds are one line, each card with the meld it went
    to (from the log entries' facts)."""
    t.load(LOG_TURN, "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    click_card(t.frame.locator('#hand .card[data-card="7S"]'))
    click_card(t.frame.locator('#hand .card[data-card="7H"]'))
    t.frame.locator("#pile").click()
    t.settle()
    expect(t.body()).to_have_attribute("data-phase", "meld")
    take = t.log().locator('li[data-kind="take_pile"]')
    expect(take).to_have_text(
        re.compile(
            r"^You take the pile \(4 cards\): the top card 7♦ with 7(♠ 7♥|♥ 7♠), a new meld \(7s\); "
            r"the rest of the pile into the hand: 5♦ 8♣ Q♥$"
        )
    )
    sevens = t.frame.locator('#my-melds .meld:has(.card[data-card="7D"])').get_attribute(
        "data-meld"
    )
    # Two meld moves in the turn: one line.
    click_card(t.frame.locator('#hand .card[data-card="9H"]'))
    t.meld(1).click()
    t.frame.locator('#actions button[data-action="confirm"]').click()
    t.settle()
    click_card(t.frame.locator('#hand .card[data-card="2C"]'))
    t.meld(int(sevens)).click()
    t.frame.locator('#actions button[data-action="confirm"]').click()
    t.settle()
    assert t.moves_played()[-2:] == ["meld add m1 9H", f"meld add m{sevens} 2C"]
    melds = t.log().locator('li[data-kind="meld"]')
    expect(melds).to_have_count(1)
    expect(melds).to_have_text("You meld 9♥ onto 9s; 2♣ onto 7s")


TAKE_CHIPS = {
    "rules": "samba",
    "players": 2,
    "seed": 4,
    "phase": "draw",
    "hands": [["7S", "7H", "7D", "9H", "4D", "5H", "AS", "KC"], ["5C", "7C", "8D", "TC", "JD"]],
    "melds": [[["9D", "9C", "9S"]], []],
    "pile": ["5D", "8C", "QH", "7C"],
}


def test_take_chips_stage_like_meld_chips_one_per_distinct_choice(t):
    """Issue 36.6: a take suggestion picks its cards and waits for "Take the pile", as a meld
    suggestion stages and waits for "Meld"; takes that differ only in which sevens are one chip."""
    t.load(TAKE_CHIPS, "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    moves = (t.frame.locator("#actions").get_attribute("data-moves") or "").split("|")
    takes = [m for m in moves if m.startswith("take ")]
    assert len(takes) > 2, takes  # 7♠ 7♥, 7♠ 7♦, 7♥ 7♦, the three of them
    chips = t.frame.locator("#suggest button[data-take]")
    texts = chips.all_inner_texts()
    assert len(texts) == len(set(texts)), texts
    assert sorted(len(x.split()) for x in texts) == [2, 3], texts
    version = t.attr("version")
    pair = chips.filter(has_text=re.compile(r"^\S+ \S+$"))
    pair.click()
    # Nothing is played: two sevens are picked, and "Take the pile" takes them.
    expect(t.frame.locator('#hand .card[aria-pressed="true"]')).to_have_count(2)
    assert t.attr("version") == version and t.attr("phase") == "draw"
    take = t.frame.locator('#actions button[data-action="take"]')
    expect(take).to_be_enabled()
    take.click()
    t.settle()
    expect(t.body()).to_have_attribute("data-phase", "meld")
    assert t.moves_played()[-1] in takes and len(t.moves_played()[-1].split()) == 3


def _bolivia(melds: list[list[str]]) -> dict:
    return {
        "rules": "bolivia",
        "players": 2,
        "seed": 4,
        "phase": "draw",
        "hands": [["4D", "5H", "AS", "KC", "8D"], ["5C", "7C", "8D", "TC", "JD"]],
        "melds": [melds, []],
        "pile": ["5D", "8C", "QH"],
    }


@pytest.mark.parametrize(
    "melds, badge, reminder",
    [
        # three group canastas, no escalera: enough canastas, not the kind asked for
        (
            [
                ["K" + s for s in "CDHSCDH"],
                ["Q" + s for s in "CDHSCDH"],
                ["J" + s for s in "CDHSCDH"],
            ],
            "Canastas 3/2, no escalera",
            "an escalera (a finished sequence) to go out",
        ),
        (
            [["K" + s for s in "CDHSCDH"]],
            "Canastas 1/2, no escalera",
            "1 more canasta to go out: an escalera (a finished sequence)",
        ),
    ],
)
def test_bolivia_says_an_escalera_is_missing(t, melds, badge, reminder):
    """Issue 36.3: the going-out requirement says what is missing (the engine's
    requirement_missing), in the side's badge and the "You need" line."""
    t.load(_bolivia(melds), "easy")
    expect(t.frame.locator(MY_TURN)).to_have_count(1)
    mine = t.frame.locator("#my-melds .side-head .badge").first
    expect(mine).to_have_text(badge)
    expect(mine).to_have_attribute("title", reminder)
    expect(t.frame.locator("#reminder")).to_contain_text(reminder)
    expect(t.frame.locator("#reminder")).to_have_attribute("data-sequence", "1")
