"""Serving the site as a production static host does: the site's MIME types and headers (CSP,
nosniff), compressed (precompressed siblings or gzip on the fly) with strong ETags, optionally
under a sub-path; `python build.py serve`, and the server the browser tests start."""

from __future__ import annotations

import hashlib
import http.server
import re
import sys
from pathlib import Path

from sitebuild.assemble import build
from sitebuild.config import DIST, MIME_TYPES, log
from sitebuild.csp import CSP, csp_for_html, csp_with_relays
from sitebuild.hosting import SITE_HEADERS
from sitebuild.netplay import netplay_relays

# What a production static host does that the standard library's handler does not (GitHub
# Pages, Netlify, Cloudflare Pages...): compressible types are sent with Content-Encoding (gzip
# made on the fly; a precompressed `.br` or `.gz` beside the file where the host serves those),
# and every response carries a strong ETag, so a revalidation (`If-None-Match`) is a 304.
# Content-addressed: the tag is a hash of the file's bytes and the encoding.
COMPRESSIBLE_SUFFIXES = (
    ".html",
    ".js",
    ".mjs",
    ".css",
    ".json",
    ".svg",
    ".webmanifest",
    ".wasm",
    ".txt",
    ".map",
)
ON_THE_FLY_GZIP_LEVEL = 6  # what hosts use on the fly (nginx's default is 1, Pages' is about 6)


def accepted_encodings(header: str | None) -> set[str]:
    """The content codings an Accept-Encoding header allows (q=0 refuses one)."""
    out = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        q = re.search(r"q=([0-9.]+)", params)
        if name and not (q and float(q.group(1) or 0) == 0):
            out.add(name.strip().lower())
    return out


_ENCODED: dict = {}  # (path, mtime_ns, size, coding) -> (bytes, etag); a few MB at most


def encoded_file(
    path: Path, accept: set[str], precompressed: bool = True
) -> tuple[bytes, str | None, str]:
    """(body, content coding or None, ETag) for `path` as a host sends it to a browser that
    accepts `accept`: a precompressed sibling (`.br`, then `.gz`) when `precompressed` and it is
    there, else gzip made on the fly for a compressible type, else the bytes as they are."""
    st = path.stat()
    choices = []
    if path.suffix in COMPRESSIBLE_SUFFIXES:
        if precompressed:
            choices += [
                ("br", path.with_name(path.name + ".br")),
                ("gzip", path.with_name(path.name + ".gz")),
            ]
        choices.append(("gzip", None))
    coding, source = None, None
    for name, sibling in choices:
        if name in accept and (sibling is None or sibling.is_file()):
            coding, source = name, sibling
            break
    key = (str(path), st.st_mtime_ns, st.st_size, coding, str(source))
    if key not in _ENCODED:
        import gzip

        data = path.read_bytes()
        if source is not None:
            body = source.read_bytes()
        elif coding == "gzip":
            body = gzip.compress(data, ON_THE_FLY_GZIP_LEVEL, mtime=0)
        else:
            body = data
        etag = '"' + hashlib.sha256(data).hexdigest()[:24] + ("-" + coding if coding else "") + '"'
        if len(_ENCODED) > 64:
            _ENCODED.clear()
        _ENCODED[key] = (body, etag)
    body, etag = _ENCODED[key]
    return body, coding, etag


def send_encoded(handler, path: Path, precompressed: bool = True):
    """Answers a GET/HEAD for the regular file `path` like a production host: 304 for a
    matching If-None-Match, else 200 with Content-Encoding, Vary, ETag. Returns the body as a
    file object (or None after a 304), as SimpleHTTPRequestHandler.send_head does."""
    import io

    body, coding, etag = encoded_file(
        path, accepted_encodings(handler.headers.get("Accept-Encoding")), precompressed
    )
    tags = [t.strip() for t in (handler.headers.get("If-None-Match") or "").split(",")]
    vary = path.suffix in COMPRESSIBLE_SUFFIXES
    if etag in tags or "*" in tags:
        handler.send_response(304)
        handler.send_header("ETag", etag)
        if vary:
            handler.send_header("Vary", "Accept-Encoding")
        handler.end_headers()
        return None
    handler.send_response(200)
    handler.send_header("Content-Type", handler.guess_type(str(path)))
    handler.send_header("Content-Length", str(len(body)))
    if coding:
        handler.send_header("Content-Encoding", coding)
    if vary:
        handler.send_header("Vary", "Accept-Encoding")
    handler.send_header("ETag", etag)
    handler.send_header("Last-Modified", handler.date_time_string(path.stat().st_mtime))
    handler.end_headers()
    return io.BytesIO(body)


def make_handler(
    root: Path | str, prefix: str = "", quiet: bool = False, precompressed: bool = True
):
    """A SimpleHTTPRequestHandler class serving `root` with the site's MIME types and CSP,
    compressed and validated as a production host does (send_encoded).

    `prefix` (e.g. "/some/sub/path/") serves the tree under that sub-path only; anything else
    is a 404 (the way a project page on a shared host looks). `precompressed=False` ignores the
    `.br`/`.gz` files beside the large ones (a host that only gzips on the fly: GitHub Pages).
    """
    root = str(Path(root).resolve())
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else ""

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
        protocol_version = "HTTP/1.1"

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=root, **kwargs)

        csp_cache: dict = {}
        relays = netplay_relays(Path(root))

        def send_head(self):
            # Which file answers (for the CSP of an HTML page with inline blocks).
            path = Path(self.translate_path(self.path))
            self._served = path / "index.html" if path.is_dir() else path
            url_path = self.path.split("?", 1)[0].split("#", 1)[0]
            if self._served.is_file() and (not path.is_dir() or url_path.endswith("/")):
                return send_encoded(self, self._served, precompressed)
            return super().send_head()

        def _csp(self) -> str:
            path = getattr(self, "_served", None)
            base = csp_with_relays(CSP, self.relays)
            if path is None or path.suffix != ".html":
                return base
            try:
                stat = path.stat()
            except OSError:
                return base
            key = (str(path), stat.st_mtime_ns, stat.st_size)
            if key not in self.csp_cache:
                self.csp_cache[key] = csp_with_relays(
                    csp_for_html(path.read_text(encoding="utf-8", errors="replace")), self.relays
                )
            return self.csp_cache[key]

        def end_headers(self):
            self.send_header("Content-Security-Policy", self._csp())
            for name, value in SITE_HEADERS.items():  # (also in _headers)
                self.send_header(name, value)
            self.send_header("Cache-Control", "no-cache")
            super().end_headers()

        def _route(self) -> bool:
            self._served = None
            if not prefix:
                return True
            path = self.path.split("?", 1)[0]
            if path + "/" == prefix:
                self.send_response(301)
                self.send_header("Location", prefix)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return False
            if not path.startswith(prefix):
                self.send_error(404, "outside the site's sub-path")
                return False
            self.path = "/" + self.path[len(prefix) :]
            return True

        def do_GET(self):
            if self._route():
                super().do_GET()

        def do_HEAD(self):
            if self._route():
                super().do_HEAD()

        def log_message(self, fmt, *args):
            if not quiet:
                super().log_message(fmt, *args)

    return Handler


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that goes away mid-answer (a page closed while it loads) is no error of
        the server's: no traceback for it; any other exception is reported as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(
    root: Path | str,
    port: int = 0,
    prefix: str = "",
    quiet: bool = True,
    host: str = "127.0.0.1",
    precompressed: bool = True,
    handler_mixin: type | None = None,
) -> http.server.ThreadingHTTPServer:
    """A threading server on `root` (make_handler); `handler_mixin` goes before the handler
    class (e2e/netshape.py shapes the link that way)."""
    handler = make_handler(root, prefix, quiet, precompressed)
    if handler_mixin is not None:
        handler = type("ShapedHandler", (handler_mixin, handler), {})
    server = _Server((host, port), handler)
    server.daemon_threads = True
    return server


def serve(port: int, prefix: str, netplay_config_file: Path | None = None) -> None:
    build(netplay_config_file=netplay_config_file)
    try:
        server = make_server(DIST, port, prefix, quiet=False)
    except OSError as exc:
        sys.exit(f"build: cannot listen on 127.0.0.1:{port} ({exc.strerror}); try --port N")
    sub = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    log(f"serving dist/ on http://127.0.0.1:{server.server_address[1]}{sub}  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
