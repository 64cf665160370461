"""`python build.py bench`: the boot benchmark in Chromium (e2e/bench_boot.py), or with
`--first-visit` a phone's first visit over Fast 4G and Slow 4G (e2e/bench_first_visit.py)."""

from __future__ import annotations

import subprocess

from sitebuild.assemble import build
from sitebuild.config import ROOT
from sitebuild.install import ensure_chromium
from sitebuild.stages import _test_tools


def bench(runs: int | None, first_visit: bool) -> int:
    python = _test_tools()
    if not ensure_chromium():
        return 2
    build(quiet=True)
    script = "bench_first_visit.py" if first_visit else "bench_boot.py"
    runs = runs if runs is not None else (1 if first_visit else 3)
    return subprocess.run(
        [str(python), str(ROOT / "e2e" / script), "--runs", str(runs), "--no-build"], cwd=ROOT
    ).returncode
