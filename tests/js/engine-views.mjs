// The views the page's logic tests run on: made by the engine itself (engine_views.py, seeded
// games of every offered rule set), so the tests check the page against what it is really sent.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./engine_views.py", import.meta.url));
const python = process.env.SAMBA_PYTHON || "python3";

export const views = JSON.parse(execFileSync(python, [script], { encoding: "utf-8", maxBuffer: 1 << 26 }));

/** A move text's verb, the tests' own reading of docs/formats.md (the page never reads it). */
export function verb(text) {
  if (/^(take|top) m\d+$/.test(text)) return "onto";
  return text.split(" ")[0];
}

export const CARD = /^(JK|[2-9TJQKA][CDHS])$/;
