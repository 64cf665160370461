// Pyodide's runtime files, copied into dist/pyodide/ by the build (not in the source tree):
// web/js/code-cache-worker.js imports them for their side effect only (compiling them).
declare module "*/pyodide/pyodide.asm.mjs";
declare module "*/pyodide/pyodide.mjs";
