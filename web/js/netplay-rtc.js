// WebRTC for play with friends' private invite (docs/netplay.md): one data channel per friend
// seat, set up with no signalling server. The host's offer travels in the invite link, the friend's answer in
// the reply link/code; each carries only what a peer needs (ICE user name and password, the DTLS
// fingerprint, the candidates), about 100 characters, and the full description is rebuilt here.
// No DOM here.

export const CHANNEL = "samba";
const GATHER_MS = 4000;

function b64urlFromHex(hex) {
  const bytes = hex.match(/../g).map((h) => parseInt(h, 16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hexFromB64url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return [...bin].map((ch) => ch.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()).join(":");
}

const ICE_CHARS = /^[A-Za-z0-9+/]{4,256}$/;

/** The parts of a session description a peer needs: "ufrag~pwd~fingerprint~candidates". */
export function compactSdp(sdp) {
  const lines = sdp.split(/\r?\n/);
  const get = (p) => (lines.find((l) => l.startsWith(p)) || "").slice(p.length).trim();
  const ufrag = get("a=ice-ufrag:");
  const pwd = get("a=ice-pwd:");
  const fp = get("a=fingerprint:sha-256 ").replace(/:/g, "");
  const cands = [];
  for (const l of lines) {
    if (!l.startsWith("a=candidate:")) continue;
    const f = l.trim().split(/\s+/);
    if (f[2].toLowerCase() !== "udp") continue;
    // Host candidates by address or by mDNS name (`<uuid>.local`: how browsers show a device's
    // local address; the other browser resolves it on the same network), server-reflexive
    // (STUN) and relay (TURN) candidates.
    const type = { host: "h", srflx: "s", relay: "r" }[f[7]] || null;
    if (!type) continue;
    const c = `${type}${f[4]}_${f[5]}`;
    if (!cands.includes(c)) cands.push(c);
  }
  if (!ICE_CHARS.test(ufrag) || !ICE_CHARS.test(pwd) || !/^[0-9A-Fa-f]{64}$/.test(fp)) {
    throw new Error("the browser's session description lacks ICE or DTLS data");
  }
  if (!cands.length) throw new Error("no_candidates");
  return [ufrag, pwd, b64urlFromHex(fp), cands.join(",")].join("~");
}

/** Parse a compact description; throws on anything malformed. */
export function parseCompact(text) {
  const parts = String(text).split("~");
  if (parts.length !== 4) throw new Error("malformed connection data");
  const [ufrag, pwd, fp64, candText] = parts;
  if (!ICE_CHARS.test(ufrag) || !ICE_CHARS.test(pwd) || !/^[A-Za-z0-9_-]{43}$/.test(fp64)) {
    throw new Error("malformed connection data");
  }
  const cands = candText.split(",").map((c) => {
    const m = /^([hsr])([0-9a-fA-F.:]{2,45}|[0-9a-fA-F-]{36}\.local)_(\d{1,5})$/.exec(c);
    if (!m || Number(m[3]) > 65535) throw new Error("malformed candidate");
    return { type: { h: "host", s: "srflx", r: "relay" }[m[1]], ip: m[2], port: Number(m[3]) };
  });
  if (!cands.length || cands.length > 16) throw new Error("malformed candidates");
  return { ufrag, pwd, fingerprint: hexFromB64url(fp64), cands };
}

/** A full session description for a data channel from a compact one. */
export function expandSdp(text, setup) {
  const d = parseCompact(text);
  const out = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"];
  d.cands.forEach((c, i) => {
    const prio = ({ host: 2122260223, srflx: 1686052607, relay: 41885439 })[c.type] - i;
    const extra = c.type !== "host" ? " raddr 0.0.0.0 rport 0" : "";
    out.push(`a=candidate:${i + 1} 1 udp ${prio} ${c.ip} ${c.port} typ ${c.type}${extra}`);
  });
  out.push(`a=ice-ufrag:${d.ufrag}`, `a=ice-pwd:${d.pwd}`, `a=fingerprint:sha-256 ${d.fingerprint}`,
    `a=setup:${setup}`, "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144");
  return out.join("\r\n") + "\r\n";
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") { resolve(); return; }
    const done = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, GATHER_MS);
  });
}

/** The host's side of one seat: a peer connection with its channel and a compact offer. */
export async function makeOffer(iceServers) {
  const pc = new RTCPeerConnection({ iceServers });
  const channel = pc.createDataChannel(CHANNEL, { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return { pc, channel, offer: compactSdp(pc.localDescription.sdp) };
}

/** The host takes a friend's compact answer. */
export async function takeAnswer(pc, answer) {
  await pc.setRemoteDescription({ type: "answer", sdp: expandSdp(answer, "active") });
}

/** A friend's side: answer the host's compact offer; the channel comes with `onChannel`. */
export async function makeAnswer(offer, iceServers, onChannel) {
  const sdp = expandSdp(offer, "actpass");
  const pc = new RTCPeerConnection({ iceServers });
  pc.addEventListener("datachannel", (ev) => onChannel(ev.channel));
  await pc.setRemoteDescription({ type: "offer", sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return { pc, answer: compactSdp(pc.localDescription.sdp) };
}

// Invite and reply texts ---------------------------------------------------------------------
// invite (in the link's #fragment, never sent to a server): j=<seat>.<secret>.<game>.<offer>[&n]
// ("&n": the host chose "same network only": the friend uses no STUN/TURN server either)
// reply (link fragment or code to paste):                   r=<seat>.<game>.<answer>
const TOKEN = /^[A-Za-z0-9_-]{4,64}$/;

export function inviteFragment(seat, secret, game, offer, sameNetworkOnly = false) {
  return `j=${seat}.${secret}.${game}.${offer}${sameNetworkOnly ? "&n" : ""}`;
}

export function parseInvite(fragment) {
  const text = String(fragment || "").replace(/^#/, "");
  if (!text.startsWith("j=")) throw new Error("not an invite");
  const [main, flag] = text.slice(2).split("&");
  if (flag !== undefined && flag !== "n") throw new Error("malformed invite");
  const [seat, secret, game, ...rest] = main.split(".");
  const s = Number(seat);
  if (!/^\d$/.test(seat) || !TOKEN.test(secret || "") || !TOKEN.test(game || "")) throw new Error("malformed invite");
  const offer = rest.join(".");
  parseCompact(offer);
  return { seat: s, secret, game, offer, sameNetworkOnly: flag === "n" };
}

export function replyCode(seat, game, answer) {
  return `r=${seat}.${game}.${answer}`;
}

export function parseReply(code) {
  let text = String(code || "").trim();
  const hash = text.indexOf("#");
  if (hash >= 0) text = text.slice(hash + 1);
  if (!text.startsWith("r=")) throw new Error("not a reply code");
  const [seat, game, ...rest] = text.slice(2).split(".");
  if (!/^\d$/.test(seat) || !TOKEN.test(game || "")) throw new Error("malformed reply code");
  const answer = rest.join(".");
  parseCompact(answer);
  return { seat: Number(seat), game, answer };
}

export function randomToken(bytes = 9) {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return btoa(String.fromCharCode(...a)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
