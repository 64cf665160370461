"""Each language renders the table (and the rules page) with no missing key: no ⟦key⟧ marker,
no text that looks like a raw message key, html lang set, numbers in the language's format;
the language follows the browser, and the menu switches it for good."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from messages import messages
from play_driver import click_action, discard_one, settle, start_game, wait_my_turn
from playwright.sync_api import expect

I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
KEYS = set(json.loads((I18N / "en.json").read_text(encoding="utf-8")))
KEY_PREFIXES = sorted({k.split(".")[0] for k in KEYS})
# "reason.pile_blocked", "ui.new_game", "status.your_draw": a known namespace, a dot, a name.
RAW_KEY = re.compile(
    r"\b(?:{})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*\b".format("|".join(map(re.escape, KEY_PREFIXES)))
)
TEN_THOUSAND = {"en": "10,000", "fr": "10\u202f000", "ru": "10\u00a0000", "nb": "10\u00a0000"}
BROWSER_LOCALE = {"en": "en-GB", "fr": "fr-FR", "ru": "ru-RU", "nb": "nb-NO"}

TEXTS_JS = """() => {
  const out = [document.body.innerText, document.title];
  for (const e of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    for (const a of ['aria-label', 'title', 'alt', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  }
  for (const d of document.querySelectorAll('dialog')) out.push(d.textContent);
  out.push(document.getElementById('live') ? document.getElementById('live').textContent : '');
  return out.join('\\n');
}"""


def assert_no_raw_keys(page, where: str) -> str:
    text = page.evaluate(TEXTS_JS)
    assert "⟦" not in text, f"{where}: missing keys shown: {re.findall(r'⟦[^⟧]*⟧', text)[:10]}"
    raw = RAW_KEY.findall(text)
    assert not raw, f"{where}: raw message keys visible: {raw[:10]}"
    missing = [m for m in page.log.console if "missing key" in m]
    assert not missing, f"{where}: {missing[:10]}"
    return text


@pytest.fixture
def lang_context(browser, request):
    contexts = []

    def make(locale: str):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


def new_page(ctx, page_log):
    pg = ctx.new_page()
    pg.on(
        "console",
        lambda msg: (
            page_log.console.append(f"{msg.type}: {msg.text}"),
            msg.type == "error" and page_log.console_errors.append(msg.text),
        ),
    )
    pg.on("pageerror", lambda exc: page_log.page_errors.append(str(exc)))
    pg.log = page_log
    return pg


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "nb"])
def test_the_table_in_each_language_has_no_missing_key(
    lang, lang_context, page_log, base_url, open_app
):
    page = new_page(lang_context(BROWSER_LOCALE[lang]), page_log)
    open_app(page, base_url + "?seed=11&pace=20")
    assert page.locator("html").get_attribute("lang") == lang, "the browser's language is chosen"
    expect(page.locator("#dlg-new")).to_be_visible()
    assert_no_raw_keys(page, f"{lang} settings")
    assert TEN_THOUSAND[lang] in page.locator("#opt-target").inner_text()
    start_game(page, level="random")
    assert wait_my_turn(page) == "draw"
    text = assert_no_raw_keys(page, f"{lang} draw phase")
    assert TEN_THOUSAND[lang] in text, "numbers follow the language"
    # The hint is an instruction in the language's words (not the engine's move text).
    catalogue = messages(lang)
    page.click('#actions button[data-action="hint"]')
    expect(page.locator('#message[data-kind="info"]')).to_be_visible()
    main = page.locator("#message .msg-main")  # a hint with reasons: its first line
    hint = (main if main.count() else page.locator("#message")).inner_text().strip()
    moves_in_words = "|".join(
        re.sub(r"\\\{\w+\\\}", ".+", re.escape(v))
        for k, v in catalogue.items()
        if k.startswith("hint.")
    )
    pattern = re.escape(catalogue["status.hint"]).replace(
        re.escape("{move}"), f"(?:{moves_in_words})"
    )
    assert re.fullmatch(pattern, hint), f"{lang}: hint {hint!r} is not in the language's words"
    page.click("#pile")  # nothing selected: the page's own message
    expect(page.locator("#message")).not_to_be_empty()
    assert_no_raw_keys(page, f"{lang} page message")
    page.keyboard.press("d")
    settle(page)
    wait_my_turn(page)
    # An engine refusal (two cards are no meld): its reason is a translated message.
    page.locator("#hand .card").nth(0).click(position={"x": 6, "y": 10})
    page.locator("#hand .card").nth(1).click(position={"x": 6, "y": 10})
    page.click('#actions button[data-action="new"]')
    page.click('#actions button[data-action="confirm"]')
    settle(page)
    expect(page.locator('#message[data-kind="error"]')).to_be_visible()
    code = page.locator("#message").get_attribute("data-code")
    expect(page.locator("#message")).to_have_text(catalogue[f"reason.{code}"])
    assert_no_raw_keys(page, f"{lang} meld phase")
    page.click('#actions button[data-action="takeback"]')
    chips = page.locator("#suggest button[data-part]")
    if chips.count():
        chips.first.click()
    assert_no_raw_keys(page, f"{lang} staged meld")
    page_log.assert_clean()


def test_the_language_menu_switches_and_is_remembered(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=3&pace=20")
    start_game(page, level="random")
    wait_my_turn(page)
    for lang in ("ru", "nb", "fr"):
        page.select_option("#lang-select", lang)
        expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
        assert_no_raw_keys(page, f"switched to {lang}")
    assert "Talon" in page.locator("#stock").inner_text()
    page.reload()
    expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
    expect(page.locator('html[lang="fr"]')).to_have_count(1)
    page_log.assert_clean()


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "nb"])
def test_the_rules_page_in_each_language(lang, lang_context, page_log, base_url):
    page = new_page(lang_context(BROWSER_LOCALE[lang]), page_log)
    page.goto(base_url + "rules.html")
    expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
    assert page.locator("html").get_attribute("lang") == lang
    rows = page.locator("#rules-table tbody tr")
    assert rows.count() >= 20
    assert page.locator("#rules-table tr.differs").count() >= 5, "the differing rows are marked"
    assert page.locator('#rules-table tr.differs[data-field="take_top_card"]').count() == 1
    assert page.locator('#rules-table tr.same[data-field="samba_bonus"]').count() == 1
    assert page.locator("#keys li").count() >= 10
    assert_no_raw_keys(page, f"rules.html {lang}")
    assert not page_log.page_errors


# The page's text without what is the same in every language: the language picker (each
# language's own name), card faces and ranks, numbers.
PAGE_TEXT_JS = """() => {
  const skip = (e) => e.closest('select, .card, .mcard, #lang-select');
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) { if (!skip(n.parentElement)) out.push(n.textContent); return; }
    if (n.nodeType !== 1 || n.hidden || n.tagName === 'SCRIPT' || n.tagName === 'STYLE') return;
    if (n.tagName !== 'DIALOG' && getComputedStyle(n).display === 'none') return;
    for (const c of n.childNodes) walk(c);
  };
  walk(document.body);
  for (const e of document.querySelectorAll('[aria-label], [title]')) {
    if (!skip(e)) out.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
  }
  return out.join(' ');
}"""
WORD = re.compile(r"[A-Za-z][a-z]{3,}")


def english_words(lang: str) -> set[str]:
    """Words of the English catalogue that the other language's catalogue never uses."""

    def words(cat):
        return {w.lower() for v in cat.values() for w in WORD.findall(v)}

    return words(messages("en")) - words(messages(lang))


def log_lines(page) -> list[str]:
    return [x.strip() for x in page.locator("#log-list li").all_inner_texts()]


def test_a_language_switch_keeps_and_retranslates_the_log(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=5&pace=20")
    start_game(page, level="random", players=4)
    assert wait_my_turn(page) == "draw"
    click_action(page, "move", "draw")
    settle(page)
    discard_one(page)
    assert wait_my_turn(page) == "draw"
    page.click('#actions button[data-action="hint"]')
    expect(page.locator('#message[data-kind="info"]')).to_be_visible()
    english = log_lines(page)
    assert len(english) >= 6, english
    hint_en = page.locator("#message").text_content()  # (to_have_text compares textContent)
    for lang in ("fr", "ru", "nb", "en"):
        page.select_option("#lang-select", lang)
        expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
        expect(page.locator("#log-list li")).to_have_count(len(english))
        lines = log_lines(page)
        deal = messages(lang)["log.deal"].replace("{n}", "1")
        assert lines[0] == deal, f"{lang}: the log's first line {lines[0]!r}, not {deal!r}"
        if lang == "en":
            assert lines == english, "back in English: the same log"
            expect(page.locator("#message")).to_have_text(hint_en)
            continue
        changed = sum(a != b for a, b in zip(lines, english))
        assert changed == len(english), f"{lang}: {len(english) - changed} log lines stayed English"
        assert page.locator("#message").text_content() != hint_en, (
            f"{lang}: the hint stayed English"
        )
        text = page.evaluate(PAGE_TEXT_JS)
        assert "⟦" not in text and not RAW_KEY.findall(text), (
            f"{lang}: raw keys {RAW_KEY.findall(text)[:5]}"
        )
        found = sorted({w for w in WORD.findall(text) if w.lower() in english_words(lang)})
        assert not found, f"{lang}: English words on the page: {found}"
    page_log.assert_clean()


def test_numbers_are_written_as_chromium_writes_them_in_each_language(page, page_log, base_url):
    """num() writes numbers with the catalogue's separators, without Intl (tests/js/i18n.test.mjs):
    here in Chromium, whose ICU the players have, against its own Intl.NumberFormat."""
    page.goto(base_url + "rules.html")
    expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
    wrong = page.evaluate(
        """async () => {
          const i18n = await import(new URL("js/i18n.js", document.baseURI).href);
          const values = [0, 7, 999, 1000, 1234, 10000, 123456, 1234567890, -1, -280, -1000,
            -10000, 2.5, 12.5, -3.75, 1234.5, 0.1 + 0.2, 1e21];
          const wrong = [];
          for (const lang of i18n.LANGS) {
            await i18n.loadMessages(lang);
            const intl = new Intl.NumberFormat(lang);
            for (const v of values) {
              if (i18n.num(v) !== intl.format(v)) wrong.push([lang, v, i18n.num(v), intl.format(v)]);
            }
          }
          return wrong;
        }"""
    )
    assert wrong == []
    page_log.assert_clean()
