"""Trystero's ES modules (the play-with-friends signaling library) copied from node_modules into
dist/vendor/, their bare imports made relative (the page loads them as they are: no bundler)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from sitebuild.config import NODE_MODULES

VENDOR_DIR = "vendor"
# (source in node_modules, target in dist/vendor/)
TRYSTERO_FILES = (
    ("@trystero-p2p/nostr/dist", "trystero/nostr"),
    ("@trystero-p2p/core/dist", "trystero/core"),
    ("@noble/secp256k1", "noble-secp256k1"),
)
TRYSTERO_IMPORTS = {
    "@noble/secp256k1": "../../noble-secp256k1/index.js",
    "@trystero-p2p/core": "../core/index.mjs",
}


def vendor_trystero(site: Path) -> None:
    """Trystero's nostr strategy, its core and @noble/secp256k1 into site/vendor/ (with their
    licences), bare imports rewritten to relative paths; source maps left out."""
    for src, dst in TRYSTERO_FILES:
        pkg = NODE_MODULES / src
        if not pkg.is_dir():
            sys.exit(f"build: {pkg} is missing (npm ci installs trystero from package-lock.json)")
        out = site / VENDOR_DIR / dst
        out.mkdir(parents=True, exist_ok=True)
        for f in sorted(pkg.iterdir()):
            if f.suffix not in (".mjs", ".js") or f.name.endswith((".d.mts", ".d.ts")):
                continue
            text = f.read_text(encoding="utf-8")
            text = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", text)
            for bare, rel in TRYSTERO_IMPORTS.items():
                text = text.replace(f'from "{bare}"', f'from "{rel}"')
            if re.search(r'from "[^./]', text):
                sys.exit(f"build: {f} has a bare import the build does not map")
            (out / f.name).write_text(text, encoding="utf-8")
        lic = pkg.parent / "LICENSE" if pkg.name == "dist" else pkg / "LICENSE"
        if lic.exists():
            shutil.copyfile(lic, out / "LICENSE")
