"""One source for the hint's words: the engine sends codes and facts (``explain.CODES``: every
code with its parameters), the page's four catalogues hold every word. Every code the engine can
emit is declared, has words in each language and only placeholders its facts fill; no catalogue
keeps words for a code the engine no longer sends. (docs/bridge.md's table of the codes and their
parameters: tests/test_bridge.py.)"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import py_engine
from py_engine.ai.explain import CODES

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "fr", "ru", "nb")
CODE = re.compile(r"^(why|warn)\.[a-z0-9_]+$")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict:
    return json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def emitted_codes() -> set[str]:
    """Every reason or warning code written anywhere in the engine's source."""
    found = set()
    for path in Path(py_engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CODE.match(node.value)
            ):
                found.add(node.value)
    return found


def test_every_code_the_engine_writes_is_declared_and_every_declared_one_is_written():
    emitted = emitted_codes()
    assert emitted, "no codes found: the scan is broken"
    assert emitted == set(CODES), (sorted(emitted - set(CODES)), sorted(set(CODES) - emitted))


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalogue_has_words_for_every_code_and_no_stale_ones(lang):
    cat = catalogue(lang)
    mine = {k for k in cat if CODE.match(k)}
    assert not set(CODES) - mine, f"{lang}.json lacks {sorted(set(CODES) - mine)}"
    assert not mine - set(CODES), f"{lang}.json keeps stale {sorted(mine - set(CODES))}"
    for key, params in CODES.items():
        # the page fills the code's facts, and {n} (the count that picks the plural form)
        allowed = set(params) | ({"n"} if {"cards", "points"} & set(params) else set())
        texts = cat[key].values() if isinstance(cat[key], dict) else [cat[key]]
        for text in texts:
            used = set(PLACEHOLDER.findall(text))
            assert used <= allowed, f"{lang}.json {key}: {sorted(used - allowed)} not sent"
