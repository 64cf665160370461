"""Transports: how message texts travel. The classes of this package only call ``send``.

- ``Outbox``: collects the texts to send; the page (js/netplay*.js) takes them out after each
  call into the worker and carries them over WebRTC data channels.
- ``MemoryNet``: an in-memory network for tests: one host, any number of guests, a queue.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .guest import NetGuest
    from .host import NetHost


class Transport:
    """Sends one text to one peer (the host names peers by connection id; a guest has one)."""

    def send(self, peer: str, text: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class Outbox(Transport):
    def __init__(self):
        self.items: list[tuple[str, str]] = []

    def send(self, peer: str, text: str) -> None:
        self.items.append((peer, text))

    def drain(self) -> list[tuple[str, str]]:
        out, self.items = self.items, []
        return out


class MemoryNet:
    """Queues texts between a host and guests; ``pump`` delivers until nothing is left.

    ``host_side`` is the host's transport (peer = connection id); ``guest_side(conn)`` a guest's
    (its one peer is the host). ``taps`` see every text delivered: (from, to, text).
    """

    HOST = "host"

    def __init__(self):
        self.queue: deque[tuple[str, str, str]] = deque()
        self.host: NetHost | None = None  # set by the test before texts reach it
        self.guests: dict[str, NetGuest] = {}
        self.open: set[str] = set()
        self.taps: list = []
        self.host_side = _Side(self, self.HOST)

    def guest_side(self, conn: str) -> Transport:
        return _Side(self, conn)

    def connect(self, conn: str, guest) -> None:
        self.guests[conn] = guest
        self.open.add(conn)

    def close(self, conn: str) -> None:
        """The connection drops: both ends are told, queued texts to and from it are lost."""
        self.open.discard(conn)
        self.queue = deque(m for m in self.queue if conn not in (m[0], m[1]))
        if self.host is not None:
            self.host.closed(conn)

    def pump(self, limit: int = 100_000) -> int:
        n = 0
        while self.queue and n < limit:
            src, dst, text = self.queue.popleft()
            n += 1
            for tap in self.taps:
                tap(src, dst, text)
            if dst == self.HOST:
                self.host.receive(src, text)  # type: ignore[union-attr]  # attached by now
            elif dst in self.open:
                self.guests[dst].receive(text)
        return n


class _Side(Transport):
    def __init__(self, net: MemoryNet, me: str):
        self.net, self.me = net, me

    def send(self, peer: str, text: str) -> None:
        dst = peer if self.me == MemoryNet.HOST else MemoryNet.HOST
        src = self.me
        if (dst if src == MemoryNet.HOST else src) in self.net.open:
            self.net.queue.append((src, dst, text))
