"""A shaped link in the test server (docs/build.md, "First-visit benchmark (a phone network)"): DevTools' network
throttling misses the fetches of a worker started inside another worker and a service worker's
precache, so the link is shaped where every byte leaves, in the server.

- one link shared by every connection, at `mbit` Mbit/s: each write takes its turn on the link
  (16 kB at a time) and waits until its bytes have "crossed" it;
- `delay_s` per connection (its set-up) and per response (the request's round trip);
- counts the bytes that crossed (headers and bodies, as compressed as they were sent).

    link = Link(mbit=1.6, delay_s=0.15)
    server = build.make_server(root, precompressed=False, handler_mixin=link.mixin())
"""

from __future__ import annotations

import threading
import time

CHUNK = 16 * 1024

# The profiles of issue 35 (Chromium DevTools' "Fast 4G" and "Slow 4G" rates, 150 ms per
# connection and per response).
PROFILES = {"fast4g": (9.0, 0.150), "slow4g": (1.6, 0.150)}


class Link:
    def __init__(self, mbit: float, delay_s: float):
        self.rate = mbit * 1e6 / 8  # bytes per second
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.free_at = 0.0  # when the link has sent what it was given so far
        self.sent = 0  # bytes that crossed since the last reset()

    def reset(self) -> int:
        with self.lock:
            n, self.sent = self.sent, 0
            return n

    def total(self) -> int:
        with self.lock:
            return self.sent

    def send(self, write, data) -> None:
        view = memoryview(data)
        for i in range(0, len(view), CHUNK):
            chunk = view[i : i + CHUNK]
            with self.lock:
                start = max(time.monotonic(), self.free_at)
                self.free_at = start + len(chunk) / self.rate
                done = self.free_at
                self.sent += len(chunk)
            wait = done - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            write(chunk)

    def mixin(self):
        """A class to put before the server's handler class: the connection's delay, the
        response's delay and the shaped writes."""
        link = self

        class _Writer:
            def __init__(self, raw):
                self.raw = raw

            def write(self, data):
                link.send(self.raw.write, data)
                return len(data)

            def flush(self):
                return self.raw.flush() if hasattr(self.raw, "flush") else None

            def __getattr__(self, name):
                return getattr(self.raw, name)

        class Shaped:
            def setup(self):
                super().setup()
                time.sleep(link.delay_s)  # the connection's set-up
                self.wfile = _Writer(self.wfile)

            def parse_request(self):
                ok = super().parse_request()
                if ok:
                    time.sleep(link.delay_s)  # the request's round trip
                return ok

        return Shaped
