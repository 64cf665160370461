"""Drives the table like a person: reads what the page renders (data- attributes) to choose,
and acts only through clicks. Used by test_play.py (and by hand against any URL)."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

READY = 'body[data-ready="1"]'
# Resolves once no animation or transition runs (cards travelling to the hand, the log panel
# sliding away after the screen turned narrow) and a frame has been drawn: true, or false if
# one still runs after 10 s.
SETTLED_JS = """() => new Promise((resolve) => {
  const t0 = performance.now();
  const step = () => {
    const busy = document.getAnimations().some((a) => a.playState === 'running');
    if (!busy || performance.now() - t0 > 10000) requestAnimationFrame(() => resolve(!busy));
    else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})"""
MY_TURN_OR_OVER = (
    'body[data-my-turn="1"][data-busy="0"], body[data-phase="deal_over"], '
    'body[data-phase="game_over"]'
)


def body_attr(page: Page, name: str) -> str:
    return page.locator("body").get_attribute(f"data-{name}") or ""


def top_bar(page: Page, selector: str):
    """The top bar's control ``selector``, in sight: on a screen narrower than 1240 px (and a
    phone on its side) the actions fold into the Menu (table.css), which this opens first, as a
    player would."""
    control = page.locator(selector)
    if not control.is_visible() and page.locator("#btn-menu").is_visible():
        page.click("#btn-menu")
        expect(control).to_be_visible()
    return control


def choose_language(page: Page, lang: str) -> None:
    """Picks ``lang`` in the top bar's language menu and waits until the page speaks it."""
    top_bar(page, "#lang-select").select_option(lang)
    expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)


def switch_language_by_script(page: Page, lang: str) -> None:
    """Switches the language while a dialog is open (the top bar behind a modal dialog takes no
    clicks, and on a phone the picker is inside the closed Menu) and waits for it."""
    page.evaluate(
        "(l) => { const s = document.getElementById('lang-select');"
        " s.value = l; s.dispatchEvent(new Event('change')); }",
        lang,
    )
    expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)


def start_game(
    page: Page, rules: str = "samba", players: int = 4, level: str = "random", target: int = 10000
) -> None:
    """Fills the new-game dialog (it opens by itself once Python is ready) and deals."""
    dialog = page.locator("#dlg-new")
    if not dialog.is_visible():
        top_bar(page, "#btn-new").click()
    expect(dialog).to_be_visible()
    dialog.locator(f'input[name="rules"][value="{rules}"]').check()
    dialog.locator(f'input[name="players"][value="{players}"]').check()
    for sel in dialog.locator("select[data-seat]").all():
        sel.select_option(level)
    dialog.locator(f'input[name="target"][value="{target}"]').check()
    page.click("#btn-start")
    expect(page.locator("body[data-phase]")).to_have_count(1)


def click_card(card) -> None:
    """Clicks a card where it always shows: its top-left corner (hand cards overlap in fans)."""
    card.click(position={"x": 6, "y": 10})


def moves(page: Page) -> list[str]:
    text = page.locator("#actions").get_attribute("data-moves") or ""
    return [m for m in text.split("|") if m]


def wait_my_turn(page: Page, timeout: float = 60_000) -> str:
    expect(page.locator(MY_TURN_OR_OVER)).to_have_count(1, timeout=timeout)
    return body_attr(page, "phase")


def click_action(page: Page, action: str, arg: str | None = None) -> None:
    sel = f'#actions button[data-action="{action}"]'
    if arg is not None:
        sel += f'[data-arg="{arg}"]'
    page.click(sel)


def settle(page: Page) -> None:
    expect(page.locator('body[data-busy="0"]')).to_have_count(1)


def try_melds(page: Page, tries: int = 3) -> int:
    """Stages the engine's first suggested meld and confirms it; takes it back if refused."""
    laid = 0
    for _ in range(tries):
        chips = page.locator("#suggest button[data-part]")
        if chips.count() == 0:
            break
        settle(page)
        version = body_attr(page, "version")
        chips.first.click()
        confirm = page.locator('#actions button[data-action="confirm"]')
        try:
            expect(confirm).to_be_visible(timeout=8_000)
        except AssertionError:
            # The suggestion was not staged (seen once in ~10 friends' runs under load, with a
            # view arriving at the same moment): melding is optional, so go on to the discard.
            settle(page)
            if body_attr(page, "version") == version and confirm.count() == 0:
                break
            raise
        click_action(page, "confirm")
        settle(page)
        if body_attr(page, "version") == version:
            # Refused: the reason is shown; take the staged cards back and stop trying.
            click_action(page, "takeback")
            break
        laid += 1
        if body_attr(page, "phase") != "meld" or body_attr(page, "my-turn") != "1":
            break
    return laid


def discard_one(page: Page) -> None:
    # The cards just drawn travel to the hand and its cards move over: a click during that
    # could land beside the card meant (a Discard button still disabled was seen once in a
    # whole run), so the hand comes to rest first, and the card must show as selected.
    assert page.evaluate(SETTLED_JS), "animations still running after 10 s"
    cards = page.locator('#hand .card[data-legal="discard"]')
    n = cards.count()
    assert n, "no card may be discarded"
    # Keep wild cards and jokers if possible: discard the last natural that may go.
    choice = None
    for i in range(n - 1, -1, -1):
        c = cards.nth(i).get_attribute("data-card") or ""
        if c != "JK" and not c.startswith("2"):
            choice = cards.nth(i)
            break
    card = page.locator(f'#hand .card[data-id="{(choice or cards.last).get_attribute("data-id")}"]')
    click_card(card)
    expect(card).to_have_attribute("aria-pressed", "true")
    click_action(page, "discard")
    settle(page)


def draw_phase_step(page: Page, legal: list[str]) -> bool:
    """One draw-phase action by clicking: the stock, else "end", else a top-card take onto a
    meld; waits for the table to settle. Whether it drew from the stock."""
    drew = "draw" in legal
    if drew:
        page.click("#stock")
    elif "end" in legal:
        click_action(page, "move", "end")
    else:
        takes = [m for m in legal if m.startswith(("top ", "take m"))]
        assert takes, f"nothing to do in the draw phase: {legal}"
        page.click(f'#my-melds .meld[data-meld="{takes[0].split()[1][1:]}"]')
    settle(page)
    return drew


def play_deal(page: Page, budget_s: float = 240) -> dict:
    """Plays the human seat until the deal summary shows. Returns counters."""
    stats = {"turns": 0, "melds": 0, "draws": 0}
    t0 = time.monotonic()
    while time.monotonic() - t0 < budget_s:
        phase = wait_my_turn(page)
        if phase in ("deal_over", "game_over"):
            return stats
        legal = moves(page)
        if phase == "answer":
            click_action(page, "move", "answer yes")
        elif phase == "draw":
            stats["turns"] += 1
            stats["draws"] += draw_phase_step(page, legal)
        elif phase == "meld":
            stats["melds"] += try_melds(page)
            if body_attr(page, "phase") != "meld" or body_attr(page, "my-turn") != "1":
                continue
            if "pass" in moves(page):
                click_action(page, "move", "pass")
                settle(page)
            else:
                discard_one(page)
        else:
            raise AssertionError(f"unexpected phase {phase}")
    raise AssertionError(f"the deal did not finish in {budget_s} s: {stats}")
