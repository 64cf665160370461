// Play with friends over a signaling relay (docs/netplay.md, "One link per seat"): the site's
// configuration (netplay.json: ICE servers, Nostr relays), the one-link format, and a Trystero
// room per friend seat. The room's id comes from the game token and the seat; its password is
// the seat's secret, so the session descriptions that pass through the relays are encrypted with
// it (a relay sees hashed topics and ciphertext). Peers also tell each other their role in
// Trystero's handshake: a guest talks to the host only, never to another guest of the same link.
// No DOM here.



const APP_ID = "samba-net/1";
const CONFIG_URL = "./netplay.json";
const RELAY_WAIT_MS = 10000;
const TOKEN = /^[A-Za-z0-9_-]{4,64}$/;
let configPromise = null;

/** The site's configuration, checked; `{iceServers: [], relays: []}` when missing or broken. */
export function loadConfig() {
  configPromise = configPromise || (async () => {
    try {
      const res = await fetch(CONFIG_URL, { cache: "no-cache" });
      if (!res.ok) throw new Error(String(res.status));
      return checkConfig(await res.json());
    } catch (err) {
      return { iceServers: [], relays: [], broken: true };
    }
  })();
  return configPromise;
}

export function checkConfig(cfg) {
  const ice = Array.isArray(cfg && cfg.iceServers) ? cfg.iceServers : [];
  const servers = ice.filter((s) => s && (typeof s.urls === "string" || Array.isArray(s.urls)))
    .map((s) => ({ urls: s.urls, ...(typeof s.username === "string" ? { username: s.username, credential: String(s.credential || "") } : {}) }))
    .filter((s) => [].concat(s.urls).every((u) => typeof u === "string" && /^(stuns?|turns?):\S+$/.test(u)));
  const relays = (Array.isArray(cfg && cfg.relays) ? cfg.relays : [])
    .filter((r) => typeof r === "string" && /^wss?:\/\/[^\s/]+(\/\S*)?$/.test(r));
  return { iceServers: servers, relays };
}

/** The ICE servers for a connection: the site's, or none ("same network only"). */
export function iceFor(cfg, sameNetworkOnly) {
  return sameNetworkOnly ? [] : cfg.iceServers;
}

/** Host names of the configured STUN/TURN servers and relays, for the disclosure line. */
export function thirdParties(cfg) {
  const host = (u) => String(u).replace(/^[a-z]+:(\/\/)?/, "").replace(/[/?].*$/, "").replace(/:\d+$/, "");
  return {
    stun: [...new Set(cfg.iceServers.filter((s) => !s.username).flatMap((s) => [].concat(s.urls)).map(host))],
    turn: [...new Set(cfg.iceServers.filter((s) => s.username).flatMap((s) => [].concat(s.urls)).map(host))],
    relays: [...new Set(cfg.relays.map(host))],
  };
}

// The link (in the #fragment, never sent to a web server): s=<seat>.<secret>.<game>[.n]
// (".n": the host chose "same network only", so the friend uses no STUN/TURN either).
export function linkFragment(seat, secret, game, sameNetworkOnly) {
  return `s=${seat}.${secret}.${game}${sameNetworkOnly ? ".n" : ""}`;
}

export function parseLink(fragment) {
  const text = String(fragment || "").replace(/^#/, "");
  if (!text.startsWith("s=")) throw new Error("not a seat link");
  const parts = text.slice(2).split(".");
  const [seat, secret, game, flag] = parts;
  if (parts.length > 4 || !/^[1-9]$/.test(seat || "") || !TOKEN.test(secret || "") || !TOKEN.test(game || "")
      || (flag !== undefined && flag !== "n")) {
    throw new Error("malformed seat link");
  }
  return { seat: Number(seat), secret, game, sameNetworkOnly: flag === "n" };
}

let trystero = null;

async function lib() {
  // @ts-expect-error: the vendored Trystero (copied into dist/vendor/ by the build) has no types here
  trystero = trystero || import("../vendor/trystero/nostr/index.mjs");
  return trystero;
}

const PROBE_MIN_MS = 2000;
const PROBE_MAX_MS = 30000;
// What this page knows of the relays' sockets (shared by every room of the page).
const sockets = {
  everOpen: false,            // a relay's socket has been open once (its rooms subscribed)
  leftEarly: new Set(),       // ids of rooms left before any relay was reached (see joinSeat)
  leaving: new Map(),         // room id -> the promise of that room's leave
  health: "",                 // the host's relays: "" (not reached yet), "up", "down" (were up)
  onHealth: null,
  healthWatch: null,
};

function anyOpen(mod) {
  const open = Object.values(mod.getRelaySockets() || {}).some((s) => s && s.readyState === 1);
  if (open) sockets.everOpen = true;
  return open;
}

/**
 * The host's page reconnects the relays itself: Trystero's own reconnecting backs off and after
 * five refused attempts (a minute or two) gives a relay up for good, so the host holds it
 * (`pauseRelayReconnection`) and lets it run once per probe. The hold is taken again in the
 * microtask after the release: Trystero's sockets reconnect only once the released hold's
 * `finally` has run (later microtasks), so the attempt is made, and a refused one then waits
 * for the next probe instead of counting towards giving up.
 */
function probe(mod) {
  mod.resumeRelayReconnection();
  Promise.resolve().then(() => mod.pauseRelayReconnection());
}

/** The host's relays, "up" (one open at least) or "down" (none open, after having been up: an
 *  outage mid-game), told to `fn` when it changes. */
export function onRelayHealth(fn) {
  sockets.onHealth = fn;
}

/** The host's watch on its relays: says "up"/"down", and once they were reached probes a closed
 *  one (all down, or one of several) after 2 s, then less often (doubling to 30 s). */
function watchHealth(mod) {
  if (sockets.healthWatch) return;
  let next = 0;
  let wait = PROBE_MIN_MS;
  const say = (state) => {
    if (sockets.health === state) return;
    sockets.health = state;
    if (sockets.onHealth) sockets.onHealth(state);
  };
  sockets.healthWatch = setInterval(() => {
    if (anyOpen(mod)) say("up");
    else if (sockets.health === "up") say("down");
    mod.pauseRelayReconnection();   // (held again if something, an "online" event, released it)
    const all = Object.values(mod.getRelaySockets() || {}).filter(Boolean);
    if (all.every((s) => s.readyState === 1)) { wait = PROBE_MIN_MS; next = 0; return; }
    if (!sockets.health || !all.some((s) => s.readyState === 3)) return;
    if (!next) next = Date.now() + wait;
    else if (Date.now() >= next) {
      probe(mod);
      wait = Math.min(wait * 2, PROBE_MAX_MS);
      next = Date.now() + wait;
    }
  }, 500);
}

/**
 * Joins the room of one friend seat. `role` is "host" or "guest". Callbacks: onPeer(peerId),
 * onText(peerId, text), onLeave(peerId), onFail(kind) with kind "relay" (no relay reachable in
 * time), "connect" (the relay put the peers in touch but WebRTC could not connect) or "secret"
 * (a guest: the host's room has another password, i.e. this link's secret is wrong or old).
 * Returns {send(peerId, text), leave(), retry(), peers(), path(peerId)}.
 *
 * The same seat's room joined again (the host's "New invite": same id, a new secret) waits for
 * the room left before it: Trystero drops a room about 0.1 s after leave() (joining meanwhile
 * hands back the room being left), and a room left before any relay was reached unsubscribes
 * only once a relay's socket opens, removing the topics, which are the same for the new room:
 * the new room is then joined only after that (a relay's socket open, then one task later, by
 * when the left room's deferred unsubscribing has run).
 */
export async function joinSeat({ role, game, seat, secret, cfg, sameNetworkOnly, onPeer, onText, onLeave, onFail }) {
  if (!cfg.relays.length) { onFail("relay"); return null; }
  let mod;
  try { mod = await lib(); } catch (err) { onFail("relay"); return null; }
  const roomId = `${game}.${seat}`;
  await sockets.leaving.get(roomId);
  let room = null;
  let action = null;
  let left = false;
  const join = () => {
    if (room || left) return;
    sockets.leftEarly.delete(roomId);
    room = mod.joinRoom({
      appId: APP_ID,
      password: secret,
      relayConfig: { urls: cfg.relays, warnOnRelayFailure: false },
      rtcConfig: { iceServers: iceFor(cfg, sameNetworkOnly) },
    }, roomId, {
      onJoinError: (details) => {
        // A peer of the wrong role (another guest of this link) is refused in the handshake:
        // nothing to tell the player. A peer with another password (a link with a wrong or old
        // secret) cannot read our descriptions nor we theirs: the host ignores it, a guest is
        // told its link is no longer valid. Anything else after the relay did its part is a
        // connection that could not be made.
        const why = String((details && details.error) || "");
        if (/role/.test(why)) return;
        if (/password/i.test(why)) { if (role === "guest") onFail("secret", details); return; }
        onFail("connect", details);
      },
      onPeerHandshake: async (peerId, send, receive) => {
        await send({ role });
        const { data } = await receive();
        const other = data && data.role;
        if (!(role === "guest" ? other === "host" : other === "guest")) throw new Error("wrong role");
      },
      handshakeTimeoutMs: 15000,
    });
    action = room.makeAction("samba");
    action.onMessage = (data, meta) => {
      if (typeof data === "string") onText(meta.peerId, data);
    };
    room.onPeerJoin = (peerId) => onPeer(peerId);
    room.onPeerLeave = (peerId) => onLeave(peerId);
  };
  // A relay that is down or refuses: no socket opens in time, or every one was closed (refused).
  let watch = null;
  const watchRelays = () => {
    clearInterval(watch);
    const t0 = Date.now();
    // Sockets already closed when the watch starts (a retry: Trystero replaces each when its
    // next attempt starts) do not count as refused.
    const before = new Set(Object.values(mod.getRelaySockets() || {}));
    watch = setInterval(() => {
      const all = Object.values(mod.getRelaySockets() || {}).filter(Boolean);
      if (anyOpen(mod)) {
        clearInterval(watch);
        if (!room) setTimeout(join, 0);
        return;
      }
      const refused = all.length && all.every((s) => s.readyState === 3 && !before.has(s));
      if (refused || Date.now() - t0 > RELAY_WAIT_MS) {
        clearInterval(watch);
        if (role === "host") mod.pauseRelayReconnection();
        onFail("relay");
      }
    }, 250);
  };
  if (role === "host") {
    mod.pauseRelayReconnection();
    watchHealth(mod);
  }
  if (sockets.leftEarly.has(roomId)) {
    // (the relays' sockets exist: the left room made them; the host tries them once now)
    if (role === "host" && !anyOpen(mod)) probe(mod);
  } else {
    join();
  }
  watchRelays();
  return {
    send: (peerId, text) => (action ? action.send(text, { target: peerId }).catch(() => {}) : Promise.resolve()),
    leave: () => {
      left = true;
      clearInterval(watch);
      if (!room) return Promise.resolve();
      if (!sockets.everOpen && !anyOpen(mod)) sockets.leftEarly.add(roomId);
      const done = room.leave().catch(() => {});
      sockets.leaving.set(roomId, done);
      done.then(() => { if (sockets.leaving.get(roomId) === done) sockets.leaving.delete(roomId); });
      return done;
    },
    /** After "no relay": the relays' sockets reconnect and this room, which never reached them,
     *  subscribes when they open. (Leaving it and joining the same room again instead would
     *  not do: the left room's unsubscribing, deferred until a socket opens, would take the
     *  new room's subscription with it.) */
    retry: () => { if (role === "host") probe(mod); else mod.resumeRelayReconnection(); watchRelays(); },
    peers: () => (room ? room.getPeers() : {}),
    /** "relay" when the selected candidate pair goes through a TURN server, else "direct". */
    async path(peerId) {
      const pc = room ? room.getPeers()[peerId] : null;
      if (!pc || !pc.getStats) return "";
      const stats = await pc.getStats();
      /** @type {any} */
      let pair = null;
      stats.forEach((s) => {
        if (s.type === "transport" && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId);
      });
      if (!pair) stats.forEach((s) => { if (s.type === "candidate-pair" && s.nominated && s.state === "succeeded") pair = s; });
      if (!pair) return "";
      const local = stats.get(pair.localCandidateId);
      const remote = stats.get(pair.remoteCandidateId);
      return (local && local.candidateType === "relay") || (remote && remote.candidateType === "relay") ? "relay" : "direct";
    },
  };
}
