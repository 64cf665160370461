"""Lessons and the authors page in other languages: a lesson opened with ?lang=fr shows its French
texts (no English intro, no raw key), its feedback follows the language menu; the lessons list
and the authors page switch language with the same menu as the other pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from play_driver import click_card, settle
from playwright.sync_api import expect
from test_i18n import RAW_KEY, assert_no_raw_keys

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "web" / "lessons"
I18N = ROOT / "web" / "i18n"


def lesson(name: str) -> dict:
    return json.loads((LESSONS / f"{name}.json").read_text(encoding="utf-8"))


def catalogue(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def test_lesson_in_french_then_russian(page, page_log, base_url, open_app):
    data = lesson("05-take-the-pile")
    fr, ru = data["i18n"]["fr"], data["i18n"]["ru"]
    open_app(page, base_url + "index.html?lesson=05-take-the-pile&lang=fr&pace=20")
    panel = page.locator("#lesson-panel")
    expect(panel.locator(".lesson-title")).to_have_text(fr["title"])
    expect(panel.locator('.lesson-step[data-state="current"]')).to_have_text(fr["steps"][0]["goal"])
    expect(panel.locator(".lesson-intro p")).to_have_text(fr["intro"])
    text = assert_no_raw_keys(page, "lesson fr")
    assert data["intro"] not in text and data["steps"][0]["goal"] not in text
    assert page.locator("html").get_attribute("lang") == "fr"

    # A legal move that is not the goal: the French explanation.
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    page.click("#stock")
    settle(page)
    expect(page.locator('#message[data-kind="wrong"]')).to_have_text(fr["steps"][0]["wrong"])
    expect(page.locator("#lesson-feedback")).to_have_text(fr["steps"][0]["wrong"])

    # The language menu: the panel follows at once.
    page.select_option("#lang-select", "ru")
    expect(panel.locator(".lesson-title")).to_have_text(ru["title"])
    expect(page.locator("#lesson-feedback")).to_have_text(ru["steps"][0]["wrong"])
    expect(panel.locator(".lesson-step")).to_have_text(ru["steps"][0]["goal"])

    # The goal: the Russian success text, in the panel and the table's message area.
    click_card(page.locator('#hand .card[data-card="9C"]').first)
    click_card(page.locator('#hand .card[data-card="9D"]').first)
    page.click("#pile")
    settle(page)
    expect(page.locator("#lesson-done")).to_be_visible()
    expect(page.locator("#lesson-feedback")).to_have_text(ru["steps"][0]["success"])
    assert_no_raw_keys(page, "lesson ru done")
    page_log.assert_clean()


def test_lessons_list_follows_the_language_menu(page, page_log, base_url):
    index = json.loads((LESSONS / "index.json").read_text(encoding="utf-8"))["lessons"]
    first = lesson(index[0][:-5])
    page.goto(base_url + "lessons.html?lang=nb")
    expect(page.locator('body[data-ready="1"]')).to_have_count(1)
    cards = page.locator("#lesson-list .lesson-card")
    expect(cards).to_have_count(len(index))
    expect(cards.first.locator(".lesson-card-title")).to_have_text(first["i18n"]["nb"]["title"])
    expect(page.locator("h1")).to_have_text(catalogue("nb")["lesson.page_title"])
    assert_no_raw_keys(page, "lessons.html nb")
    page.select_option("#lang-select", "fr")
    expect(cards.first.locator(".lesson-card-title")).to_have_text(first["i18n"]["fr"]["title"])
    expect(cards.first.locator(".lesson-card-intro")).to_have_text(first["i18n"]["fr"]["intro"])
    assert page.locator("html").get_attribute("lang") == "fr"
    page_log.assert_clean()


# Text outside code: the snippets and code words are not prose, and "embed.html" is not a key.
PROSE_JS = """() => {
  const body = document.body.cloneNode(true);
  for (const c of body.querySelectorAll('code, pre')) c.remove();
  return [body.textContent, document.title,
          ...[...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))].join('\\n');
}"""


def test_authors_page_in_each_language(page, page_log, base_url):
    page.goto(base_url + "authors.html?lang=nb")
    expect(page.locator('body[data-ready="1"]')).to_have_count(1)
    for lang in ("nb", "ru", "fr", "en"):
        if lang != "nb":
            page.select_option("#lang-select", lang)
        cat = catalogue(lang)
        expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
        expect(page.locator("h1")).to_have_text(cat["authors.title"])
        expect(page.locator("#params h2")).to_have_text(cat["authors.params.title"])
        expect(page.locator(".snippet .copy").first).to_have_text(cat["authors.copy"])
        assert page.title() == cat["authors.page_title"]
        prose = page.evaluate(PROSE_JS)
        assert "⟦" not in prose, re.findall(r"⟦[^⟧]*⟧", prose)[:10]
        assert not RAW_KEY.findall(prose), RAW_KEY.findall(prose)[:10]
        # the marks are drawn as elements, never shown as marks
        assert "`" not in prose and "**" not in prose and "](" not in prose
    # code stays code: the snippets hold this site's address, and the note its origin
    assert base_url in page.locator("#element .snippet code").first.inner_text()
    assert page.locator(".au-note code").last.inner_text() == "frame-src " + base_url.rstrip("/")
    expect(page.locator('#lessons a[href="lessons.html"]')).to_have_count(1)
    assert not [m for m in page_log.console if "missing key" in m]
    page_log.assert_clean()
