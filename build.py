#!/usr/bin/env python3
"""Build, serve, test and benchmark the Samba static site (standard library only).

    python build.py                 build dist/
    python build.py serve [--port 8000] [--prefix /sub/path/]
    python build.py test [--only STAGE ...] [-- extra pytest args]
    python build.py bench [--runs 3] [--first-visit]

The rest is done by the standard tools, which build.py sets up when they are missing: `npm ci`
(package.json, package-lock.json: the Pyodide runtime and ws, integrity-checked by npm), a
virtual environment .venv/ (the wheel's build backend, flit_core, and the test tools), the
PEP 517 build backend for the engine wheel, tools/stdlib_modules.mjs for the trimmed standard library,
tools/draw_icons.py for the icons. See docs/build.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The steps live in sitebuild/ (docs/build.md, "The build's code"); their names are re-exported
# here, so that tests and tools keep writing `import build; build.make_server(...)`.
from sitebuild.assemble import _remove_stale_scratch, build
from sitebuild.bench import bench
from sitebuild.compress import (
    _BROTLI_JS,
    PRECOMPRESS_MIN_BYTES,
    PRECOMPRESS_SUFFIXES,
    PRECOMPRESSED,
    precompress,
)
from sitebuild.config import (
    BUILD_TOOLS,
    CACHE,
    DEFAULT_SOURCE_DATE_EPOCH,
    DIST,
    ENGINE_PKG,
    MIME_TYPES,
    NODE_MODULES,
    PYODIDE_INTEGRITY,
    PYODIDE_RUNTIME_FILES,
    PYODIDE_TEST_WHEELS,
    PYODIDE_VERSION,
    ROOT,
    TEST_TOOLS,
    VENV,
    WEB,
    _digest,
    _sri,
    log,
)
from sitebuild.csp import (
    _INLINE_BLOCK,
    CSP,
    META_IGNORED_DIRECTIVES,
    csp_connect_src,
    csp_for_html,
    csp_with_relays,
    meta_policy,
)
from sitebuild.hosting import (
    HEADERS_FILE,
    HEADERS_MAX_LINE,
    HEADERS_MAX_RULES,
    HOST_TYPES,
    HOSTING_FILE,
    HOSTING_MIME_MARK,
    SITE_HEADERS,
    WORKER_START,
    fill_hosting_readme,
    headers_rules,
    worker_scripts,
    write_headers_file,
)
from sitebuild.install import (
    _apt_install,
    ensure_chromium,
    npm_packages,
    pyodide_runtime,
    pyodide_test_wheels,
    venv_python,
)
from sitebuild.netplay import (
    NETPLAY_CONFIG,
    check_netplay_config,
    netplay_relays,
    write_netplay_config,
)
from sitebuild.pages import (
    _DESCRIPTION,
    BOOT_TEXT_KEYS,
    BOOT_TEXTS_MARK,
    INLINE_MODULE,
    INLINE_PAGE,
    INLINE_STYLES,
    META_CHARSET,
    PRERENDER_TOOL,
    _i18n_catalogues,
    add_meta_csp,
    boot_texts,
    fill_descriptions,
    inline_first_frame,
    prerender_pages,
)
from sitebuild.pyodide_patch import (
    COMPILE_HINT,
    SLEEP_EAGER,
    SLEEP_LAZY,
    WRAPPER_COMPILE,
    WRAPPER_SHARED,
    compile_hint,
    lazy_sleep_memory,
    share_wrapper_modules,
)
from sitebuild.serve import (
    _ENCODED,
    COMPRESSIBLE_SUFFIXES,
    ON_THE_FLY_GZIP_LEVEL,
    _Server,
    accepted_encodings,
    encoded_file,
    make_handler,
    make_server,
    send_encoded,
    serve,
)
from sitebuild.service_worker import (
    HANDED_OFF,
    SW_EXCLUDE_NAMES,
    SW_EXCLUDE_SUFFIXES,
    SW_NAME,
    SW_TEMPLATE,
    precache_list,
    service_worker_source,
    site_version,
    write_service_worker,
)
from sitebuild.snapshot import (
    BOOT_FILES,
    SNAPSHOT_INFO,
    SNAPSHOT_TOOL,
    snapshot_key,
    write_snapshot_info,
)
from sitebuild.stages import (
    STAGES,
    Stage,
    _names_paths,
    _offline_prefix,
    _pytest,
    _run,
    _test_tools,
    stage_cpython,
    stage_e2e,
    stage_js,
    stage_lint,
    stage_netplay,
    stage_pyodide,
    stage_types,
    test,
)
from sitebuild.stdlib import (
    STDLIB_COMPILER,
    STDLIB_EXERCISE,
    STDLIB_KEEP_FILES,
    STDLIB_TOOL,
    STDLIB_ZIP,
    compile_stdlib,
    stdlib_files,
    stdlib_imports,
    trim_stdlib,
)
from sitebuild.vendor import TRYSTERO_FILES, TRYSTERO_IMPORTS, VENDOR_DIR, vendor_trystero
from sitebuild.wheel import (
    SITE_ENTRY_MODULES,
    _module_files,
    _project_meta,
    build_wheel,
    build_wheel_from,
    site_modules,
    write_app_lock,
    write_rules_data,
)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    netplay_help = (
        "play-with-friends configuration (ICE servers, relays) instead of web/netplay.json"
    )
    ap.add_argument("--netplay-config", type=Path, default=None, help=netplay_help)
    bdp = sub.add_parser("build", help="build dist/ (the default)")
    bdp.add_argument("--out", type=Path, default=DIST, help="build into this folder instead")
    sp = sub.add_parser("serve", help="build, then serve dist/")
    sp.add_argument("--port", type=int, default=8000)
    sp.add_argument("--prefix", default="", help="serve under this sub-path, e.g. /samba/")
    tp = sub.add_parser("test", help="set up what the tests need, build, run the test stages")
    tp.add_argument(
        "--only",
        action="append",
        choices=list(STAGES),
        default=[],
        help="run only this stage (repeatable)",
    )
    bp = sub.add_parser("bench", help="boot benchmark in Chromium (e2e/bench_boot.py)")
    bp.add_argument("--runs", type=int, default=None)
    bp.add_argument(
        "--first-visit",
        action="store_true",
        help="a phone on Fast 4G and Slow 4G, site vs bare page (e2e/bench_first_visit.py)",
    )
    args = ap.parse_args(argv)

    if args.cmd in (None, "build"):
        build(netplay_config_file=args.netplay_config, out=getattr(args, "out", DIST).resolve())
        return 0
    if args.cmd == "serve":
        serve(args.port, args.prefix, args.netplay_config)
        return 0
    if args.cmd == "test":
        return test(args.only, extra)
    if args.cmd == "bench":
        return bench(args.runs, args.first_visit)
    return 2


if __name__ == "__main__":
    sys.exit(main())
