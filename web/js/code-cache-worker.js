// A throwaway module worker: sw-register.js starts it once, right after the service worker took
// control of the page (a first visit, an update). Importing pyodide.asm.mjs here compiles it
// from the service worker's cache, and Chromium keeps the compiled code with that cached copy
// (the build's compile hint makes it every function, not only the top level), so the next
// visit's engine worker compiles none of its 1.2 MB: it was the largest part of a return
// visit's start (docs/build.md, "Compile hint"); pyodide.mjs likewise. Nothing runs: the
// modules only define the runtime's factory and loadPyodide. The page ends this worker when it
// answers.
//
// It answers two tasks after its evaluation, not during it: Chromium writes a module's code
// cache in a task after the module graph has run, and a worker ended before that keeps none
// (traces: the next visit then compiled all of pyodide.asm.mjs again; docs/build.md).
import "../pyodide/pyodide.asm.mjs";
import "../pyodide/pyodide.mjs";

setTimeout(() => setTimeout(() => postMessage("compiled"), 0), 0);
