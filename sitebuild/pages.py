"""The pages' HTML: index.html's first frame inlined (stylesheets, first-paint.js, the shell's
texts in every language), the pages drawn at build time (tools/prerender.mjs), each page's
description, and each page's own CSP in a <meta> (hashes of its inline blocks included)."""

from __future__ import annotations

import html as _html
import json
import re
import subprocess
import sys
from pathlib import Path

from sitebuild.config import ROOT, WEB
from sitebuild.csp import csp_for_html, csp_with_relays, meta_policy
from sitebuild.netplay import netplay_relays

# What the first frame needs comes with the HTML itself, so that the page paints after one
# request (no stylesheet or script round trip to a server or through the service worker): the
# stylesheets index.html links are copied into one <style>, the render-blocking first-paint.js
# into an inline module, and the shell's texts in every language into a JSON data block (read
# by first-paint.js). The files stay in web/ (the source; other pages and the module graph use
# them); the build copies, it never keeps a second hand-written copy. The strict CSP allows the
# inline blocks by their sha256 (csp_for_html), computed from the file as served.
INLINE_PAGE = "index.html"
INLINE_STYLES = re.compile(r'(?:<link rel="stylesheet" href="(css/[a-z0-9-]+\.css)">\n)+')
INLINE_MODULE = '<script type="module" src="js/first-paint.js" blocking="render"></script>'
BOOT_TEXTS_MARK = "<!-- boot-texts -->"
# Keys the first frame shows besides the shell's data-i18n texts (first-paint.js).
BOOT_TEXT_KEYS = ("app.title", "boot.shuffling")


def _i18n_catalogues() -> dict[str, dict]:
    """The catalogues of web/i18n/, in the order of i18n.js LANGS (the language picker's)."""
    found = {p.stem: p for p in sorted((WEB / "i18n").glob("*.json"))}
    m = re.search(
        r"export const LANGS = \[([^\]]*)\]", (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    )
    order = re.findall(r'"([a-z]+)"', m.group(1)) if m else []
    codes = [c for c in order if c in found] + [c for c in found if c not in order]
    return {c: json.loads(found[c].read_text(encoding="utf-8")) for c in codes}


def boot_texts(html: str, catalogues: dict[str, dict]) -> dict[str, dict]:
    """The texts of the shell in every language: the data-i18n/data-i18n-aria keys of `html`
    and BOOT_TEXT_KEYS, from the catalogues (a key a catalogue lacks is left out: the shell's
    English stays)."""
    keys = sorted(
        set(re.findall(r'data-i18n(?:-aria)?="([a-z0-9_.]+)"', html))
        | set(BOOT_TEXT_KEYS)
        | {f"lang.{code}" for code in catalogues}
    )  # the language picker's labels
    return {
        lang: {k: cat[k] for k in keys if isinstance(cat.get(k), str)}
        for lang, cat in catalogues.items()
    }


def inline_first_frame(site: Path) -> None:
    """Rewrites site/index.html with its stylesheets, first-paint.js and the boot texts inline."""
    page = site / INLINE_PAGE
    html = page.read_text(encoding="utf-8")
    m = INLINE_STYLES.search(html)
    if not m or html.count(INLINE_MODULE) != 1 or html.count(BOOT_TEXTS_MARK) != 1:
        sys.exit(
            f"build: {INLINE_PAGE} must link its stylesheets, load {INLINE_MODULE!r} and "
            f"hold {BOOT_TEXTS_MARK!r} once"
        )
    css = "".join(
        f"/* {rel} */\n" + (site / rel).read_text(encoding="utf-8")
        for rel in re.findall(r'href="([^"]+)"', m.group(0))
    )
    js = (site / "js" / "first-paint.js").read_text(encoding="utf-8")
    texts = json.dumps(boot_texts(html, _i18n_catalogues()), ensure_ascii=False)
    texts = texts.replace("<", "\\u003c")  # never closes the data block
    for what, text in (("css", css), ("js/first-paint.js", js)):
        if re.search(r"</(style|script)", text, re.I):
            sys.exit(f"build: {what} contains a closing </style> or </script>; cannot inline it")
    # data-sheets: the files, for js/style-fallback.js (a host's policy that refuses the copy)
    sheets = " ".join(re.findall(r'href="([^"]+)"', m.group(0)))
    html = html[: m.start()] + f'<style data-sheets="{sheets}">\n{css}</style>\n' + html[m.end() :]
    html = html.replace(INLINE_MODULE, f'<script type="module" blocking="render">\n{js}</script>')
    html = html.replace(
        BOOT_TEXTS_MARK, '<script type="application/json" id="boot-texts">' + texts + "</script>"
    )
    page.write_text(html, encoding="utf-8")


PRERENDER_TOOL = ROOT / "tools" / "prerender.mjs"


def prerender_pages(site: Path) -> list[str]:
    """Draws the text of the pages whose <html> names a drawing module (data-prerender) into
    their HTML, with that module under Node (tools/prerender.mjs): the page's own code, no copy."""
    pages = [
        p.name
        for p in sorted(site.glob("*.html"))
        if re.search(r"<html\b[^>]*\bdata-prerender=", p.read_text(encoding="utf-8"))
    ]
    if not pages:
        return []
    proc = subprocess.run(
        ["node", str(PRERENDER_TOOL), str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    if proc.returncode != 0:
        sys.exit(f"build: tools/prerender.mjs failed:\n{proc.stdout}{proc.stderr}")
    done = json.loads(proc.stdout.strip().splitlines()[-1])["pages"]
    if sorted(done) != pages:
        sys.exit(f"build: tools/prerender.mjs drew {done}, not {pages}")
    return done


_DESCRIPTION = re.compile(
    r'<meta name="description" data-i18n-content="([a-z0-9_.]+)" content="[^"]*">'
)


def fill_descriptions(site: Path, catalogue: dict) -> None:
    """Every page's <meta name="description">, from the default language's catalogue (the
    pages that switch language translate it: dom.js translateMeta). A page without one, or
    with a key the catalogue lacks, stops the build."""
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        m = _DESCRIPTION.search(html)
        if not m or not isinstance(catalogue.get(m.group(1)), str):
            sys.exit(
                f'build: {page.name} needs <meta name="description" data-i18n-content="KEY" '
                f'content=""> with a KEY of web/i18n/en.json'
            )
        text = _html.escape(catalogue[m.group(1)], quote=True)
        page.write_text(
            html[: m.start()]
            + m.group(0).replace('content=""', f'content="{text}"')
            + html[m.end() :],
            encoding="utf-8",
        )


META_CHARSET = '<meta charset="utf-8">'


def add_meta_csp(site: Path) -> dict[str, str]:
    """Puts each page's policy (csp_for_html: CSP and the page's hashes, connect-src for the
    relays of site/netplay.json) into the page, as the first thing after its charset (a <meta>
    policy governs only what comes after it); returns {page: header policy}. Run after every
    other change to the pages' HTML."""
    relays = netplay_relays(site)
    policies = {}
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        if html.count(META_CHARSET) != 1 or 'http-equiv="Content-Security-Policy"' in html:
            sys.exit(f"build: {page.name} must hold {META_CHARSET} once and no CSP of its own")
        policies[page.name] = policy = csp_with_relays(csp_for_html(html), relays)
        meta = (
            '<meta http-equiv="Content-Security-Policy" content="'
            + _html.escape(meta_policy(policy), quote=False).replace('"', "&quot;")
            + '">'
        )
        page.write_text(html.replace(META_CHARSET, f"{META_CHARSET}\n{meta}", 1), encoding="utf-8")
        if csp_with_relays(csp_for_html(page.read_text(encoding="utf-8")), relays) != policy:
            sys.exit(f"build: the meta CSP changed {page.name}'s own policy")
    return policies
