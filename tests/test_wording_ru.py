"""Russian keeps the opening (открытие: a side's first melds of a deal) apart from going out
(выход: ending the deal), issue 36.8: "Вышли" ("went out") labelled a side that had opened."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "web"
RU = json.loads((WEB / "i18n" / "ru.json").read_text(encoding="utf-8"))
EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
GOING_OUT = re.compile(r"выход|выйти|вышл|вышел|выйд|выйт", re.IGNORECASE)


def texts(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def test_the_opening_is_never_called_going_out():
    opening = [
        k
        for k, v in EN.items()
        if any(
            re.search(r"\bopen(ing|s|ed)?\b", x, re.IGNORECASE)
            and "go out" not in x
            and "going out" not in x
            for x in texts(v)
        )
    ]
    opening = [
        k
        for k in opening
        if k.startswith(
            ("ui.", "status.", "remind.", "reason.opening", "help.s.opening", "rules.row.opening")
        )
    ]
    assert "ui.opened" in opening and "ui.minimum" in opening and "status.opening" in opening
    bad = {k: RU[k] for k in opening if any(GOING_OUT.search(x) for x in texts(RU[k]))}
    assert not bad, bad
    assert RU["ui.opened"] == "Открылись"


def test_the_opening_lesson_says_opening():
    lesson = json.loads(
        (WEB / "lessons" / "04-the-opening-minimum.json").read_text(encoding="utf-8")
    )
    ru = lesson["i18n"]["ru"]
    words = [ru["title"], *(s[f] for s in ru["steps"] for f in ("goal", "success") if f in s)]
    assert not [w for w in words if GOING_OUT.search(w)], words
