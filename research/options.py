"""The command-line options the studies share (``py_engine.cli.spread_options``: where they
play their deals)."""

from __future__ import annotations

import argparse
from typing import Any


def study_commands(doc: str | None) -> tuple[argparse.ArgumentParser, Any, argparse.ArgumentParser]:
    """A study's command line of sub-commands (its help: the module's ``doc``): the parser, its
    sub-commands, and the first, ``collect``, with the table's ``--rules`` and ``--players``."""
    p = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--rules", default="samba")
    c.add_argument("--players", type=int, default=4)
    return p, sub, c
