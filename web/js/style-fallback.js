// The table's stylesheets, when the page's inline copy of them was refused. The build copies
// index.html's stylesheets into one <style data-sheets="css/table.css ..."> allowed by its sha256
// (the page's CSP, in its <meta> and in _headers). A host that sends a policy of its own without
// that hash (a hand-written _headers) makes the browser refuse the copy (no `sheet`): the files
// are then linked instead, so the table is styled once this module has run (the first frame,
// whose script is refused too, is unstyled).

import { loadStyles } from "./dom.js";

const copy = /** @type {HTMLStyleElement | null} */ (document.querySelector("style[data-sheets]"));
if (copy && !copy.sheet) {
  document.documentElement.dataset.styleFallback = "1";
  for (const href of copy.dataset.sheets.split(/\s+/).filter(Boolean)) loadStyles(`../${href}`);
}
