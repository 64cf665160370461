#!/usr/bin/env python3
"""Run the play-with-friends browser tests (e2e/test_netplay*.py) inside a network namespace
this run makes for itself, so that WebRTC has an interface to gather candidates on and no packet
can leave the machine (docs/netplay.md, ../shared/PLATFORM.md).

    python e2e/netns_run.py                      # the netplay browser tests
    python e2e/netns_run.py -- -k two -x         # extra pytest arguments after --

The namespace (``unshare -n``, root only) holds ``lo`` and a veth pair with the documentation
address 192.0.2.1/24 and a default route on it; the test server listens on 127.0.0.1 inside it
and Chromium's ICE host candidates are 192.0.2.1. Exit code: pytest's (2 when the namespace
cannot be made).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSIDE = "SAMBA_NETNS"
# No IPv6 addresses on the veth pair: a link-local address appears a moment after the link comes
# up, and Chromium takes it for a network change and aborts the loads under way
# (net::ERR_NETWORK_CHANGED: a page that never boots, seen in CI and here).
SETUP = ("ip link set lo up && ip link add v0 type veth peer name v1 && "
         "ip link set v0 addrgenmode none && ip link set v1 addrgenmode none && "
         "ip addr add 192.0.2.1/24 dev v0 && ip link set v1 up && ip link set v0 up && "
         "ip route add default dev v0")


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    named = any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in extra)
    targets = [] if named else sorted(str(p.relative_to(ROOT))
                                      for p in (ROOT / "e2e").glob("test_netplay*.py"))
    pytest = [sys.executable, "-m", "pytest", *targets, "-p", "no:cacheprovider",
              "-p", "no:playwright", *extra]
    if os.environ.get(INSIDE) == "1":
        return subprocess.run(pytest, cwd=ROOT).returncode
    if not shutil.which("unshare") or not shutil.which("ip"):
        print("[netns] unshare and ip (util-linux, iproute2) are needed", flush=True)
        return 2
    probe = subprocess.run(["unshare", "-n", "sh", "-c", SETUP], capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"[netns] cannot make a network namespace (root needed): {probe.stderr.strip()}",
              flush=True)
        return 2
    cmd = ["unshare", "-n", "sh", "-c", f'{SETUP} && exec "$@"', "netns", *pytest]
    print(f"[netns] $ {' '.join(pytest)}  (inside unshare -n, veth 192.0.2.1/24)", flush=True)
    return subprocess.run(cmd, cwd=ROOT, env={**os.environ, INSIDE: "1"}).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
