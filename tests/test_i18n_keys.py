"""Every translation file has every key of every other one, with the same placeholders; and every
engine reason code has its message key (STYLE 14: every string through i18n keys)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from py_engine.errors import REASONS

I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
LANGS = ("en", "fr", "ru", "nb")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


CATALOGUES = {lang: load(lang) for lang in LANGS}


def test_the_four_languages_exist():
    assert sorted(p.stem for p in I18N.glob("*.json")) == sorted(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_no_key_missing_in_any_language(lang):
    mine = set(CATALOGUES[lang])
    for other, cat in CATALOGUES.items():
        missing = sorted(set(cat) - mine)
        assert not missing, f"{lang}.json lacks {len(missing)} key(s) of {other}.json: {missing}"


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_placeholders_match_english(lang):
    bad = []
    for key, text in CATALOGUES["en"].items():
        if key not in CATALOGUES[lang]:
            continue
        want = sorted(set(PLACEHOLDER.findall(text)))
        got = sorted(set(PLACEHOLDER.findall(CATALOGUES[lang][key])))
        if want != got:
            bad.append(f"{key}: en {want} vs {lang} {got}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGS)
def test_values_are_non_empty_strings(lang):
    bad = [k for k, v in CATALOGUES[lang].items() if not isinstance(v, str) or not v.strip()]
    assert not bad, bad


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_reason_has_a_message(lang):
    missing = [code for code in REASONS if f"reason.{code}" not in CATALOGUES[lang]]
    assert not missing, missing


def test_the_rules_page_has_a_label_for_every_row():
    from py_engine.rulesdoc import rules_table
    missing = [r["label"] for r in rules_table() if r["label"] not in CATALOGUES["en"]]
    assert not missing, missing


def test_translations_are_translated():
    """A catalogue that is mostly English copied over is not a translation."""
    en = CATALOGUES["en"]
    for lang in LANGS[1:]:
        same = [k for k, v in CATALOGUES[lang].items() if v == en.get(k) and len(v) > 12]
        assert len(same) < 0.05 * len(en), f"{lang}: {len(same)} untranslated strings, e.g. {same[:8]}"
