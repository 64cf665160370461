"""Play with friends: the site's configuration (ICE servers, signaling relays), checked and
written to dist/netplay.json; the relays it names (the CSP's connect-src)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from sitebuild.config import WEB

# web/netplay.json is the default configuration (docs/netplay.md): the ICE servers (STUN, and
# TURN with its credentials) and the signaling relays (Nostr, ws:// or wss://). The build writes
# it to dist/netplay.json, or the file given with `--netplay-config FILE`; a site host may edit
# dist/netplay.json (it is not precached, the page fetches it afresh).
NETPLAY_CONFIG = "netplay.json"


def check_netplay_config(cfg, where: str) -> dict:
    """The configuration's shape, or sys.exit with what is wrong."""

    def bad(why: str):
        sys.exit(f'build: {where}: {why} (docs/netplay.md, "Site configuration")')

    if not isinstance(cfg, dict):
        bad("not a JSON object")
    ice, relays = cfg.get("iceServers", []), cfg.get("relays", [])
    if not isinstance(ice, list) or not isinstance(relays, list):
        bad("'iceServers' and 'relays' are lists")
    for s in ice:
        urls = s.get("urls") if isinstance(s, dict) else None
        urls = [urls] if isinstance(urls, str) else urls
        if not urls or not all(
            isinstance(u, str) and re.match(r"^(stuns?|turns?):\S+$", u) for u in urls
        ):
            bad(f"an ICE server's 'urls' are stun:, stuns:, turn: or turns: URLs: {s!r}")
        if any(u.startswith("turn") for u in urls) and not (
            isinstance(s.get("username"), str) and isinstance(s.get("credential"), str)
        ):
            bad(f"a TURN server needs 'username' and 'credential': {s!r}")
    for r in relays:
        if not isinstance(r, str) or not re.match(r"^wss?://[^\s/]+(/\S*)?$", r):
            bad(f"a relay is a ws:// or wss:// URL: {r!r}")
    return {**cfg, "iceServers": ice, "relays": relays}


def write_netplay_config(site: Path, source: Path | None = None) -> dict:
    """dist/netplay.json from `source` (the build option) or web/netplay.json, checked."""
    src = source or WEB / NETPLAY_CONFIG
    try:
        cfg = json.loads(Path(src).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        sys.exit(f"build: cannot read the play-with-friends configuration {src}: {exc}")
    cfg = check_netplay_config(cfg, str(src))
    (site / NETPLAY_CONFIG).write_text(json.dumps(cfg, indent=1) + "\n", encoding="utf-8")
    return cfg


def netplay_relays(site: Path) -> list[str]:
    """The relays of site/netplay.json (none when it is missing or unreadable)."""
    try:
        relays = json.loads((site / NETPLAY_CONFIG).read_text(encoding="utf-8")).get("relays")
    except (OSError, ValueError, AttributeError):
        return []
    return [r for r in relays if isinstance(r, str)] if isinstance(relays, list) else []
