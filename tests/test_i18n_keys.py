"""Every translation file has every key of every other one, with the same placeholders; and every
engine reason code has its message key (every string the page shows goes through an i18n key). A message
with plural forms is an object of the language's CLDR plural categories (what Intl.PluralRules
selects): the same keys are plural in every language, and no message fakes a plural ("(s)")."""

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
# The CLDR plural categories of integers in each language (Intl.PluralRules(lang).select(n));
# French "many" (1,000,000 and up) may fall back to "other".
PLURAL_FORMS = {
    "en": {"one", "other"},
    "fr": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "nb": {"one", "other"},
}
OPTIONAL_FORMS = {"fr": {"many"}}


def forms(value) -> list[str]:
    """The texts of a message: one string, or each plural form's."""
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(value) -> list[str]:
    return sorted({p for text in forms(value) for p in PLACEHOLDER.findall(text)})


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
        want = placeholders(text)
        got = placeholders(CATALOGUES[lang][key])
        if want != got:
            bad.append(f"{key}: en {want} vs {lang} {got}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGS)
def test_values_are_non_empty_strings_or_plural_forms(lang):
    bad = []
    for k, v in CATALOGUES[lang].items():
        if isinstance(v, dict):
            cats = set(v)
            if (
                not PLURAL_FORMS[lang]
                <= cats
                <= PLURAL_FORMS[lang] | OPTIONAL_FORMS.get(lang, set())
            ):
                bad.append(f"{k}: forms {sorted(cats)}, {lang} needs {sorted(PLURAL_FORMS[lang])}")
        if k.startswith("number."):
            # A separator or sign for num() (web/js/i18n.js): one character, a space may be one.
            if not (isinstance(v, str) and len(v) == 1):
                bad.append(f"{k}: not one character")
        elif not all(isinstance(x, str) and x.strip() for x in forms(v)):
            bad.append(f"{k}: empty or not text")
    assert not bad, bad


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_the_same_messages_have_plural_forms(lang):
    en, cat = CATALOGUES["en"], CATALOGUES[lang]
    bad = [k for k in en if k in cat and isinstance(en[k], dict) != isinstance(cat[k], dict)]
    assert not bad, f"plural in one language, not the other: {bad}"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_use_the_count_and_none_is_faked(lang):
    fake = re.compile(r"\((s|er|es|а|ов|и|ы)\)")
    bad = [k for k, v in CATALOGUES[lang].items() if any(fake.search(x) for x in forms(v))]
    assert not bad, f"faked plurals: {bad}"
    no_n = [
        k for k, v in CATALOGUES[lang].items() if isinstance(v, dict) and "n" not in placeholders(v)
    ]
    assert not no_n, f"plural messages without {{n}} to choose the form by: {no_n}"


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
        same = [
            k
            for k, v in CATALOGUES[lang].items()
            if isinstance(v, str) and v == en.get(k) and len(v) > 12
        ]
        assert len(same) < 0.05 * len(en), (
            f"{lang}: {len(same)} untranslated strings, e.g. {same[:8]}"
        )


# Play with friends' words are the catalogues' "net.<key>" (js/netplay-ui.js `nt(key)`), under the
# parity checks above like every other key; these tie them to the code that shows them.
ROOT = I18N.parent.parent
NET = "net."


def quoted_literals(*dirs_globs) -> set[str]:
    found = set()
    for folder, pattern in dirs_globs:
        paths = sorted(folder.glob(pattern))
        assert paths, f"no {pattern} in {folder}: the scan is broken"
        for path in paths:
            found |= set(re.findall(r'"([^"\\\n]*)"', path.read_text(encoding="utf-8")))
    return found


def test_every_friends_text_the_page_asks_for_exists_and_every_one_is_asked_for():
    from py_engine.netplay.guest import PROBLEM_CODES

    js = ROOT / "web" / "js"
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(js.glob("*.js")))
    asked = set(re.findall(r'\bnt\("([\w.]+)"', source))
    assert asked, 'no nt("...") found: the scan is broken'
    net = {k[len(NET) :] for k in CATALOGUES["en"] if k.startswith(NET)}
    assert not asked - net, f"asked for, not in the catalogues: {sorted(asked - net)}"
    # Keys made from a code: nt(`err.${code}`); the code is written in the page or the engine.
    prefixes = set(re.findall(r"\bnt\(`([\w.]+)\$\{", source))
    assert {"err.", "problem.", "state."} <= prefixes, prefixes
    import py_engine.netplay

    # The engine's sources where it is imported from (the Pyodide stage installs the wheel).
    netplay_src = Path(py_engine.netplay.__file__).parent
    literals = quoted_literals((js, "*.js"), (netplay_src, "*.py"))
    stale = sorted(
        k
        for k in net
        if k not in literals
        and not any(k.startswith(p) and k[len(p) :] in literals for p in prefixes)
    )
    assert not stale, f"net. keys no code shows: {stale}"
    problems = {k[len("problem.") :] for k in net if k.startswith("problem.")}
    assert problems == set(PROBLEM_CODES), sorted(problems ^ set(PROBLEM_CODES))
