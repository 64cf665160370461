"""The site's copy of Pyodide's pyodide.asm.mjs, changed in three places: V8's compile hint, one
wasm wrapper module per signature instead of one per function, and the shared memory of
`syncSleep` made when first used instead of at start-up (docs/build.md)."""

from __future__ import annotations

from pathlib import Path

# V8's explicit compile hint (Chromium 136+; a comment elsewhere): compile every function of the
# file at once, so the code cache kept with the service worker's copy holds them all and a
# returning visit compiles none of pyodide.asm.mjs's 1.2 MB (docs/build.md, "Compile hint").
COMPILE_HINT = "//# allFunctionsCalledOnLoad\n"


def compile_hint(path: Path) -> None:
    """Prefixes `path` (a JavaScript file) with COMPILE_HINT."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith(COMPILE_HINT):
        path.write_text(COMPILE_HINT + text, encoding="utf-8")


# Emscripten's dynamic linker wraps each JavaScript function that goes into the wasm table in a
# tiny wasm module of its own, compiled anew for every function (259 at each start of Pyodide
# 314.0.7, on the worker's thread: docs/build.md, "The memory snapshot"). The module depends only on
# the signature: the site's copy compiles one per signature and instantiates it per function.
# The table is filled in the same order with the same kind of entries, so a memory snapshot made
# with the npm runtime restores as before. If the runtime's text differs (another Pyodide), the
# copy is left as it is.
WRAPPER_COMPILE = (
    "var convertJsFunctionToWasm=(func,sig)=>{var bytes=Uint8Array.of(0,97,115,109,1,0,0,0,1,"
    "...uleb128EncodeWithLen([1,96,...generateTypePack(sig.slice(1)),...generateTypePack("
    'sig[0]==="v"?"":sig[0])]),2,7,1,1,101,1,102,0,0,7,5,1,1,102,0,0);'
    "var module=new WebAssembly.Module(bytes);"
)
WRAPPER_SHARED = (
    "var wrapperModules=new Map;"
    "var convertJsFunctionToWasm=(func,sig)=>{var module=wrapperModules.get(sig);"
    "if(!module){var bytes=Uint8Array.of(0,97,115,109,1,0,0,0,1,"
    "...uleb128EncodeWithLen([1,96,...generateTypePack(sig.slice(1)),...generateTypePack("
    'sig[0]==="v"?"":sig[0])]),2,7,1,1,101,1,102,0,0,7,5,1,1,102,0,0);'
    "module=new WebAssembly.Module(bytes);wrapperModules.set(sig,module)}"
)


def rewrite_once(path: Path, old: str, new: str) -> bool:
    """Rewrites `old` into `new` in `path`; False where `old` is not found once (True where
    `new` is there already: the copy was rewritten before)."""
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        return new in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return True


def share_wrapper_modules(path: Path) -> bool:
    """Rewrites WRAPPER_COMPILE into WRAPPER_SHARED in `path`; False where it is not found once."""
    return rewrite_once(path, WRAPPER_COMPILE, WRAPPER_SHARED)


# Pyodide's start-up code (pyodide_js_init) makes a one-page *shared* WebAssembly.Memory for
# `syncSleep`, an Atomics.wait that only Node's stdin uses (on EAGAIN). A shared memory made on a
# page that is not cross-origin isolated (GitHub Pages sends no COOP/COEP) has Chromium note the
# script's location, and taking it means collecting the source positions of the functions on the
# stack, the 1.2 MB runtime factory included when DevTools is attached: 86-194 ms of a return
# visit's worker under the benchmark (which drives Chromium through DevTools), 4-7 ms on a return
# visit and 5-37 ms on a first visit without DevTools (docs/journal/2026-12-05-first-visit.md).
# The site's copy makes that memory the first time `syncSleep` runs, inside its own try (a
# failure there returns false, as a failed wait did; the error it was retrying is raised).
SLEEP_EAGER = (
    "var io=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,maximum:1}).buffer);"
    "function so(t){try{return Atomics.wait(io,0,0,t),!0}catch{return!1}}"
)
SLEEP_LAZY = (
    "var io=null;"
    "function so(t){try{return io??=new Int32Array(new WebAssembly.Memory("
    "{shared:!0,initial:1,maximum:1}).buffer),Atomics.wait(io,0,0,t),!0}catch{return!1}}"
)


def lazy_sleep_memory(path: Path) -> bool:
    """Rewrites SLEEP_EAGER into SLEEP_LAZY in `path`; False where it is not found once."""
    return rewrite_once(path, SLEEP_EAGER, SLEEP_LAZY)
