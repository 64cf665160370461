"""The site's Content-Security-Policy: the base policy, connect-src for the play-with-friends
relays, the sha256 of a page's inline blocks, and the directives a <meta> policy cannot carry."""

from __future__ import annotations

import re

from sitebuild.config import _sri

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self' wss:; img-src 'self' data:; style-src 'self'; object-src 'none'; "
    "base-uri 'none'"
)


def csp_connect_src(relays: list[str]) -> str:
    """connect-src of the site's CSP for play with friends' signaling relays (netplay.json):
    the site itself, any wss:// relay (a site host may change the relays in dist/netplay.json
    without a build), and each plain ws:// relay the configuration names."""
    plain = sorted({r.rstrip("/") for r in relays if isinstance(r, str) and r.startswith("ws://")})
    return " ".join(["connect-src 'self' wss:", *plain])


def csp_with_relays(policy: str, relays: list[str]) -> str:
    """`policy` (CSP or csp_for_html's) with connect-src for these relays."""
    return re.sub(r"connect-src [^;]*", csp_connect_src(relays), policy, count=1)


_INLINE_BLOCK = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1>", re.S | re.I)


def csp_for_html(html: str) -> str:
    """The site's CSP for one HTML page: CSP, with the sha256 of each inline script (not data
    blocks) and style of the page added to script-src and style-src."""
    hashes = {"script": [], "style": []}
    for tag, attrs, body in _INLINE_BLOCK.findall(html):
        if not body or (tag.lower() == "script" and re.search(r"\bsrc=", attrs)):
            continue
        kind = re.search(r'\btype="([^"]*)"', attrs)
        if tag.lower() == "script" and kind and kind.group(1) not in ("module", "text/javascript"):
            continue  # a data block (application/json) is never run
        hashes[tag.lower()].append(f"'{_sri(body.encode())}'")
    policy = CSP
    for tag, src in (
        ("script", "script-src 'self' 'wasm-unsafe-eval'"),
        ("style", "style-src 'self'"),
    ):
        if hashes[tag]:
            policy = policy.replace(src, " ".join([src, *sorted(set(hashes[tag]))]))
    return policy


# Directives a <meta> policy does not carry (CSP 3): they work in a header only.
META_IGNORED_DIRECTIVES = ("frame-ancestors", "report-uri", "report-to", "sandbox")


def meta_policy(policy: str) -> str:
    """`policy` without the directives a <meta> policy ignores."""
    parts = [d.strip() for d in policy.split(";") if d.strip()]
    return "; ".join(d for d in parts if d.split()[0].lower() not in META_IGNORED_DIRECTIVES)
