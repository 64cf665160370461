#!/usr/bin/env python3
"""The site's static server for one home of e2e/netns_run.py: build.py's make_server on
127.0.0.1 (a free port) inside the namespace this runs in; prints its URL, then serves."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from build import make_server  # noqa: E402

server = make_server(sys.argv[1], 0)
print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
server.serve_forever()
