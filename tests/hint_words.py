"""Reasons and warnings (``py_engine.ai.explain``: codes and facts) in English words, from the
page's English catalogue (web/i18n/en.json), as the page's ``reasonLine`` (web/js/words.js) fills
them: a seat by its name, a rank by its plural name, the plural form by the count the text names
(``cards``, else ``points``). The engine holds no words; tests that need them read them here."""

from __future__ import annotations

import json
from pathlib import Path

EN = json.loads(
    (Path(__file__).resolve().parent.parent / "web" / "i18n" / "en.json").read_text(
        encoding="utf-8"
    )
)


def hint_text(entry: dict) -> str:
    """``entry`` ({"key": code, **facts}) in English; KeyError for a code without words."""
    text = EN[entry["key"]]
    params: dict = {}
    for k, v in entry.items():
        if k == "key":
            continue
        if k == "seat":
            params[k] = EN[f"seat.{v}"]
        elif k == "side":
            params[k] = f"side {v}"
        elif k == "rank":
            params[k] = EN.get(f"rankpl.{v}", v)
        else:
            params[k] = v
    n = entry.get("cards", entry.get("points"))
    params["n"] = n
    if isinstance(text, dict):
        text = text["one" if n == 1 else "other"]
    return text.format(**params)
