// A throwaway module worker: sw-register.js starts it once, right after the service worker took
// control of the page (a first visit, an update). Importing pyodide.asm.mjs here compiles it
// from the service worker's cache, and Chromium keeps the compiled code with that cached copy
// (the build's compile hint makes it every function, not only the top level), so the next
// visit's engine worker compiles none of its 1.2 MB: it was the largest part of a return
// visit's start (docs/build.md, "Compile hint"). Nothing runs: the module only defines the
// runtime's factory. The page ends this worker when it answers.
import "../pyodide/pyodide.asm.mjs";

postMessage("compiled");
