"""The page's message catalogues for the browser tests: plural messages (objects of CLDR forms)
read as their "other" form, or chosen by count the way Intl.PluralRules does for these four
languages."""

from __future__ import annotations

import json
from pathlib import Path

I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"


def raw(lang: str = "en") -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def messages(lang: str = "en") -> dict:
    """key -> text ("other" form for plural messages)."""
    return {k: (v["other"] if isinstance(v, dict) else v) for k, v in raw(lang).items()}


def plural_form(lang: str, n: int) -> str:
    """CLDR categories of whole numbers in en, fr, ru, nb."""
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def text(key: str, lang: str = "en", **params) -> str:
    """The message as the page makes it (numbers below 1,000, which need no grouping)."""
    v = raw(lang)[key]
    if isinstance(v, dict):
        n = params.get("n")
        v = v.get(plural_form(lang, n), v["other"]) if isinstance(n, int) else v["other"]
    for k, x in params.items():
        v = v.replace("{" + k + "}", str(x))
    return v
