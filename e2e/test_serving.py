"""`python build.py serve` (and the test servers) answer as a production static host does:
compressible types gzipped on the fly (or the precompressed `.br`/`.gz` beside a large file, for
a browser that accepts it), a strong ETag on every file and a 304 for a matching If-None-Match;
a host that only gzips on the fly (GitHub Pages) is `precompressed=False`. No browser."""

from __future__ import annotations

import gzip
import http.client
import threading

import pytest

import build


@pytest.fixture(scope="module")
def servers(dist_dir):
    out = {}
    for pre in (True, False):
        server = build.make_server(dist_dir, 0, precompressed=pre)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        out[pre] = server
    yield {k: s.server_address[1] for k, s in out.items()}
    for s in out.values():
        s.shutdown()
        s.server_close()


def _get(port, path, **headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    res = conn.getresponse()
    body = res.read()
    conn.close()
    return res, body


def test_gzip_on_the_fly_for_text_and_wasm(servers, dist_dir):
    res, body = _get(servers[False], "/worker.js", **{"Accept-Encoding": "gzip, br"})
    assert res.status == 200 and res.getheader("Content-Encoding") == "gzip"
    assert res.getheader("Vary") == "Accept-Encoding"
    assert gzip.decompress(body) == (dist_dir / "worker.js").read_bytes()
    res, body = _get(servers[False], "/pyodide/pyodide.asm.wasm", **{"Accept-Encoding": "gzip"})
    assert (
        res.getheader("Content-Encoding") == "gzip"
        and res.getheader("Content-Type") == "application/wasm"
    )
    assert len(body) < (dist_dir / "pyodide" / "pyodide.asm.wasm").stat().st_size / 2
    # A zip is not compressible text: sent as it is.
    res, body = _get(servers[False], "/pyodide/python_stdlib.zip", **{"Accept-Encoding": "gzip"})
    assert res.getheader("Content-Encoding") is None
    assert body == (dist_dir / "pyodide" / "python_stdlib.zip").read_bytes()
    # No Accept-Encoding: the bytes as they are.
    res, body = _get(servers[False], "/worker.js")
    assert (
        res.getheader("Content-Encoding") is None and body == (dist_dir / "worker.js").read_bytes()
    )


def test_precompressed_files_where_the_host_serves_them(servers, dist_dir):
    wasm = dist_dir / "pyodide" / "pyodide.asm.wasm"
    res, body = _get(
        servers[True], "/pyodide/pyodide.asm.wasm", **{"Accept-Encoding": "gzip, deflate, br"}
    )
    assert res.getheader("Content-Encoding") == "br"
    assert body == wasm.with_name(wasm.name + ".br").read_bytes()
    res, body = _get(servers[True], "/pyodide/pyodide.asm.wasm", **{"Accept-Encoding": "gzip"})
    assert res.getheader("Content-Encoding") == "gzip"
    assert gzip.decompress(body) == wasm.read_bytes()
    assert len(body) == wasm.with_name(wasm.name + ".gz").stat().st_size
    # The siblings are never precached.
    assert '.wasm.br"' not in (dist_dir / "sw.js").read_text(encoding="utf-8")


def test_etags_and_304s(servers):
    res, _ = _get(servers[False], "/app-lock.json", **{"Accept-Encoding": "gzip"})
    tag = res.getheader("ETag")
    assert tag and tag.startswith('"') and "gzip" in tag
    res, body = _get(
        servers[False], "/app-lock.json", **{"Accept-Encoding": "gzip", "If-None-Match": tag}
    )
    assert res.status == 304 and body == b"" and res.getheader("ETag") == tag
    # Another encoding is another representation: another tag, a full answer.
    res, _ = _get(servers[False], "/app-lock.json", **{"If-None-Match": tag})
    assert res.status == 200 and res.getheader("ETag") != tag
    # The CSP and the other headers are still sent.
    assert "default-src 'self'" in res.getheader("Content-Security-Policy")
