"""Precompressed files: `.gz` and `.br` beside each large compressible file of the site."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from sitebuild.config import CACHE, _digest

# Beside each large compressible file, its `.gz` (gzip -9) and `.br` (brotli, from Node's zlib):
# hosts that serve precompressed files (Netlify, Cloudflare, nginx gzip_static/brotli_static,
# `python build.py serve`) send those; GitHub Pages gzips on the fly and ignores them.
PRECOMPRESS_MIN_BYTES = 16_384
PRECOMPRESS_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".html", ".css", ".svg", ".webmanifest")
PRECOMPRESSED = (".gz", ".br")
_BROTLI_JS = (
    "const fs=require('fs'),z=require('zlib');for(const[a,b]of JSON.parse(process.argv[1]))"
    "fs.writeFileSync(b,z.brotliCompressSync(fs.readFileSync(a),{params:{"
    "[z.constants.BROTLI_PARAM_QUALITY]:11,[z.constants.BROTLI_PARAM_SIZE_HINT]:fs.statSync(a).size}}));"
)


def precompress(site: Path) -> int:
    """Writes the `.gz` and `.br` siblings (cached by content in .cache/compressed/); returns
    how many files got them. Without Node, only `.gz`."""
    import gzip

    cache = CACHE / "compressed"
    cache.mkdir(parents=True, exist_ok=True)
    todo, n = [], 0
    for path in sorted(site.rglob("*")):
        if not (
            path.is_file()
            and path.suffix in PRECOMPRESS_SUFFIXES
            and path.stat().st_size >= PRECOMPRESS_MIN_BYTES
        ):
            continue
        n += 1
        digest = _digest(path)
        gz, br = cache / f"{digest}.gz", cache / f"{digest}.br"
        if not gz.exists():
            gz.write_bytes(gzip.compress(path.read_bytes(), 9, mtime=0))
        if not br.exists():
            todo.append((str(path), str(br)))
        shutil.copyfile(gz, path.with_name(path.name + ".gz"))
    if todo and shutil.which("node"):
        subprocess.run(["node", "-e", _BROTLI_JS, json.dumps(todo)], check=True)
    for path in sorted(site.rglob("*")):
        br = (
            cache / f"{_digest(path)}.br"
            if path.is_file() and path.suffix in PRECOMPRESS_SUFFIXES
            else None
        )
        if br is not None and br.exists():
            shutil.copyfile(br, path.with_name(path.name + ".br"))
    return n
