// The page's own globals on window (type declarations for `tsc --checkJs`, tsconfig.json; never
// part of the site).
interface Window {
  /** Set by the tests: the boot's stall time in ms (bridge.js). */
  __sambaBootStallMs?: number | string;
  /** first-paint.js's state, shared with bridge.js (its early engine worker). */
  __sambaFirstPaint?: {
    claimed?: boolean;
    engine?: { worker?: Worker; [key: string]: any };
    [key: string]: any;
  };
  /** Set by the netplay tests: a sink for the friends' protocol log (netplay-guest.js). */
  __sambaNetLog?: (text: string) => void;
}
