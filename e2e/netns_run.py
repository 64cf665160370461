#!/usr/bin/env python3
"""Run the play-with-friends browser tests (e2e/test_netplay*.py) on networks this run builds
for itself out of network namespaces (root), with real servers, so that no packet can leave the
machine (docs/netplay.md, "Tests"; ../shared/PLATFORM.md):

    python e2e/netns_run.py                      # the netplay browser tests
    python e2e/netns_run.py -- -k homes -x       # extra pytest arguments after --

The network (namespace names carry this run's pid; all removed at the end, also on failure):

    home1 (192.0.2.10)      -- router1 (NAT) 203.0.113.2  --+
                                                            +-- public 203.0.113.1 / .17
    home2 (198.51.100.10)   -- router2 (NAT) 203.0.113.18 --+   coturn (STUN+TURN, :3478)
                                                                nostr-relay (ws://203.0.113.1:7447)

Each router masquerades its home (nftables); "public" forwards between the routers, holds coturn
(a static TURN user) and a Nostr relay (PyPI's nostr-relay). Each home runs the site's static
server (build.py's make_server) on 127.0.0.1 inside the home, and Chromium runs inside a home
(a launcher around `ip netns exec`); pytest and Playwright stay outside. A test chooses what the
site offers by writing the served copy's netplay.json, and may cut paths with nftables in the
public namespace (`NetnsNet.block_udp_between_homes`). Missing tools (nftables, coturn) are
installed with apt, nostr-relay with pip into this Python's environment. Exit code: pytest's
(2 when the network cannot be built).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSIDE = "SAMBA_NETNS"  # "1" for the tests: SAMBA_NETNS_INFO names the network's file
INFO = "SAMBA_NETNS_INFO"
NOSTR_RELAY = "nostr-relay==1.14"
RELAY_PORT = 7447
TURN_PORT = 3478
TURN_USER, TURN_PASSWORD = "samba", "samba-turn-test"
PUBLIC = "203.0.113.1"
HOMES = {  # name: (lan prefix, device address, router lan address, router wan, public side)
    "home1": ("24", "192.0.2.10", "192.0.2.1", "203.0.113.2", "203.0.113.1"),
    "home2": ("24", "198.51.100.10", "198.51.100.1", "203.0.113.18", "203.0.113.17"),
}


def sh(*cmd: str, check: bool = True, ns: str | None = None, **kw) -> subprocess.CompletedProcess:
    full = (["ip", "netns", "exec", ns] if ns else []) + list(cmd)
    return subprocess.run(full, check=check, capture_output=True, text=True, **kw)


def _apt(package: str, probe: str) -> None:
    if shutil.which(probe):
        return
    print(f"[netns] apt-get install -y {package}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for _ in range(30):  # dpkg may be locked by another install for a while
        r = subprocess.run(
            ["apt-get", "install", "-y", "-q", package], env=env, capture_output=True, text=True
        )
        if r.returncode == 0:
            return
        if "lock" not in r.stderr:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        time.sleep(5)
    raise RuntimeError(f"cannot install {package}")


def ensure_tools() -> Path:
    """nft, turnserver and nostr-relay (the last in this Python's environment)."""
    _apt("nftables", "nft")
    _apt("coturn", "turnserver")
    relay = Path(sys.executable).parent / "nostr-relay"
    if not relay.exists():
        print(f"[netns] pip install {NOSTR_RELAY}", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                NOSTR_RELAY,
            ],
            check=True,
        )
    return relay


class Network:
    """The namespaces, links, NAT rules and servers of one run; `down()` removes everything."""

    def __init__(self, site: Path, work: Path):
        tag = f"s{os.getpid()}"
        self.ns = {n: f"{tag}-{n}" for n in ("public", "router1", "router2", "home1", "home2")}
        self.site, self.work = site, work
        self.procs: list[subprocess.Popen] = []
        self.urls: dict[str, str] = {}
        self.tag = tag

    def up(self, relay_bin: Path) -> None:
        for name in self.ns.values():
            sh("ip", "netns", "add", name)
        for name in self.ns.values():
            sh("ip", "link", "set", "lo", "up", ns=name)
        pub = self.ns["public"]
        sh("sysctl", "-qw", "net.ipv4.ip_forward=1", ns=pub)
        for i, (home, (plen, dev, rlan, rwan, pside)) in enumerate(HOMES.items(), 1):
            router, h = self.ns[f"router{i}"], self.ns[home]
            wan_p, wan_r = f"{self.tag}p{i}", f"{self.tag}w{i}"
            lan_r, lan_h = f"{self.tag}l{i}", f"{self.tag}h{i}"
            sh(
                "ip",
                "link",
                "add",
                wan_p,
                "netns",
                pub,
                "type",
                "veth",
                "peer",
                "name",
                wan_r,
                "netns",
                router,
            )
            sh(
                "ip",
                "link",
                "add",
                lan_r,
                "netns",
                router,
                "type",
                "veth",
                "peer",
                "name",
                lan_h,
                "netns",
                h,
            )
            # No IPv6 link-local addresses: one appearing after the link is up makes Chromium
            # abort loads under way (net::ERR_NETWORK_CHANGED).
            for ns, link in ((pub, wan_p), (router, wan_r), (router, lan_r), (h, lan_h)):
                sh("ip", "link", "set", link, "addrgenmode", "none", ns=ns)
            sh("ip", "addr", "add", f"{pside}/28", "dev", wan_p, ns=pub)
            sh("ip", "addr", "add", f"{rwan}/28", "dev", wan_r, ns=router)
            sh("ip", "addr", "add", f"{rlan}/{plen}", "dev", lan_r, ns=router)
            sh("ip", "addr", "add", f"{dev}/{plen}", "dev", lan_h, ns=h)
            for ns, link in ((pub, wan_p), (router, wan_r), (router, lan_r), (h, lan_h)):
                sh("ip", "link", "set", link, "up", ns=ns)
            sh("ip", "route", "add", "default", "via", pside, ns=router)
            sh("ip", "route", "add", "default", "via", rlan, ns=h)
            sh("sysctl", "-qw", "net.ipv4.ip_forward=1", ns=router)
            # A home router: masquerade, and unsolicited packets from outside dropped (as home
            # routers' firewalls do; a packet the router took for itself would otherwise hold
            # the port pair a later outgoing flow needs, and that flow would leave on another
            # port: a symmetric NAT, which needs TURN).
            nat = (
                f"table ip nat {{\n chain post {{\n type nat hook postrouting priority 100;\n"
                f' oifname "{wan_r}" masquerade\n }}\n}}\n'
                f"table inet fw {{\n chain input {{\n type filter hook input priority 0;\n"
                f' iifname "{wan_r}" ct state new drop\n }}\n}}\n'
            )
            sh("nft", "-f", "-", ns=router, input=nat)
        pub_lo = PUBLIC
        # coturn: STUN and TURN (a static long-term user), on the public segment.
        conf = self.work / "turnserver.conf"
        conf.write_text(
            "\n".join(
                [
                    f"listening-ip={pub_lo}",
                    f"relay-ip={pub_lo}",
                    f"listening-port={TURN_PORT}",
                    "lt-cred-mech",
                    f"user={TURN_USER}:{TURN_PASSWORD}",
                    "realm=samba.test",
                    "no-tls",
                    "no-dtls",
                    "no-cli",
                    "fingerprint",
                    "min-port=49160",
                    "max-port=49400",
                    f"pidfile={self.work / 'turnserver.pid'}",
                    "log-file=stdout",
                    "simple-log",
                    "no-software-attribute",
                ]
            )
            + "\n"
        )
        self._start("coturn", ["turnserver", "-c", str(conf)], pub)
        # A Nostr relay (NIP-01 tag filters; ephemeral kinds are passed on, not kept).
        rconf = self.work / "nostr-relay.yaml"
        rconf.write_text(
            json.dumps(
                {
                    "DEBUG": False,
                    "relay_name": "samba test relay",
                    "storage": {
                        "sqlalchemy.url": f"sqlite+aiosqlite:///{self.work / 'nostr.sqlite3'}",
                        "num_concurrent_reqs": 10,
                        "num_concurrent_adds": 2,
                        "validators": [
                            "nostr_relay.validators.is_signed",
                            "nostr_relay.validators.is_recent",
                        ],
                    },
                    "verification": {"nip05_verification": "disabled"},
                    "gunicorn": {
                        "bind": f"{pub_lo}:{RELAY_PORT}",
                        "workers": 1,
                        "loglevel": "warning",
                        "reload": False,
                    },
                    "authentication": {"enabled": False},
                    "message_timeout": 1800,
                    "subscription_limit": 32,
                    "max_limit": 6000,
                }
            )
        )
        self._start("nostr-relay", [str(relay_bin), "-c", str(rconf), "serve"], pub, cwd=self.work)
        self._wait_port(pub, pub_lo, RELAY_PORT, "nostr-relay")
        # The site in each home, on 127.0.0.1 inside it (a secure context, as https is).
        for home in HOMES:
            p = self._start(
                f"server-{home}",
                [sys.executable, str(Path(__file__).with_name("netns_serve.py")), str(self.site)],
                self.ns[home],
                stdout=subprocess.PIPE,
            )
            line = p.stdout.readline().strip()
            if not line.startswith("http://"):
                raise RuntimeError(f"the site server in {home} did not start: {line!r}")
            self.urls[home] = line

    def _start(self, name: str, cmd: list[str], ns: str, **kw) -> subprocess.Popen:
        log = kw.pop("stdout", None) or open(self.work / f"{name}.log", "w")
        p = subprocess.Popen(
            ["ip", "netns", "exec", ns, *cmd],
            stdout=log,
            stderr=subprocess.STDOUT
            if log is not subprocess.PIPE
            else open(self.work / f"{name}.log", "w"),
            text=True,
            start_new_session=True,
            **kw,
        )
        self.procs.append(p)
        return p

    def _wait_port(self, ns: str, host: str, port: int, what: str, timeout: float = 60) -> None:
        t0 = time.monotonic()
        probe = (
            f"import socket;s=socket.socket();s.settimeout(1);"
            f"s.connect(({host!r},{port}));s.close()"
        )
        while time.monotonic() - t0 < timeout:
            if sh(sys.executable, "-c", probe, ns=ns, check=False).returncode == 0:
                return
            time.sleep(0.2)
        raise RuntimeError(
            f"{what} did not listen on {host}:{port} in {timeout:.0f} s "
            f"(see {self.work}/{what}.log)"
        )

    def info(self) -> dict:
        return {
            "ns": self.ns,
            "urls": self.urls,
            "site": str(self.site),
            "relay": f"ws://{PUBLIC}:{RELAY_PORT}",
            "stun": f"stun:{PUBLIC}:{TURN_PORT}",
            "turn": {
                "urls": f"turn:{PUBLIC}:{TURN_PORT}?transport=udp",
                "username": TURN_USER,
                "credential": TURN_PASSWORD,
            },
            "homes": {
                h: {"address": v[1], "link": f"{self.tag}h{i}", "public": v[3]}
                for i, (h, v) in enumerate(HOMES.items(), 1)
            },
            "work": str(self.work),
        }

    def down(self) -> None:
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for name in self.ns.values():
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


def site_copy(work: Path) -> Path:
    """The served site: built for this run with a netplay.json of its own (build.py's
    `--netplay-config`, as a site host would build it for a ws:// relay: each page's CSP then
    allows that relay). The tests rewrite the served netplay.json per case (its ICE servers)."""
    cfg = work / "netplay.json"
    cfg.write_text(
        json.dumps(
            {
                "iceServers": [{"urls": f"stun:{PUBLIC}:{TURN_PORT}"}],
                "relays": [f"ws://{PUBLIC}:{RELAY_PORT}"],
            }
        )
    )
    site = work / "site"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "build.py"),
            "--netplay-config",
            str(cfg),
            "build",
            "--out",
            str(site),
        ],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return site


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    named = any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in extra)
    targets = (
        []
        if named
        else sorted(str(p.relative_to(ROOT)) for p in (ROOT / "e2e").glob("test_netplay*.py"))
    )
    pytest = [
        sys.executable,
        "-m",
        "pytest",
        *targets,
        "-p",
        "no:cacheprovider",
        "-p",
        "no:playwright",
        *extra,
    ]
    if not (hasattr(os, "geteuid") and os.geteuid() == 0) or not shutil.which("ip"):
        print("[netns] root and iproute2 are needed to build the test networks", flush=True)
        return 2
    try:
        relay_bin = ensure_tools()
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"[netns] cannot install what the test networks need: {exc}", flush=True)
        return 2
    work = Path(tempfile.mkdtemp(prefix="samba-netns-"))
    net = Network(site_copy(work), work)
    try:
        try:
            net.up(relay_bin)
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            err = getattr(exc, "stderr", "") or ""
            print(f"[netns] cannot build the test network: {exc} {err.strip()}", flush=True)
            return 2
        (work / "network.json").write_text(json.dumps(net.info(), indent=1))
        print(f"[netns] network {net.tag}: homes {net.urls}; relay, coturn on {PUBLIC}", flush=True)
        print(f"[netns] $ {' '.join(pytest)}", flush=True)
        env = {**os.environ, INSIDE: "1", INFO: str(work / "network.json")}
        return subprocess.run(pytest, cwd=ROOT, env=env).returncode
    finally:
        net.down()
        if os.environ.get("SAMBA_NETNS_KEEP") != "1":
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
