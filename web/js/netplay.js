// Play with friends (docs/netplay.md): the page side. The protocol itself runs in Python
// (py_engine/netplay, through the bridge's `net` op); this module carries its texts over WebRTC
// data channels and draws the friends' panel. Three roles, chosen by ?net=:
//   host   this device runs the game: setup, invites, replies, the seats' states
//   join   a friend's device (the invite link): reply code, then the table with its own hand
//   reply  the reply link opened on the host's device: hands the code to the waiting game tab
// The table itself is drawn by the same renderer as any game (js/app.js, js/render.js).

import { $, el, loadStyles } from "./dom.js";
import { num, t } from "./i18n.js";
import * as RTC from "./netplay-rtc.js";
import { nt, ntHas } from "./netplay-text.js";

const HOST_KEY = "samba.net.host.v1";
const STUN_KEY = "samba.net.stun";
const BC_NAME = "samba-net";
const LEVELS = ["easy", "medium", "hard", "random"];
const REQUEST_TIMEOUT_MS = 20000;

export async function install(ctl) {
  loadStyles("../css/netplay.css");
  const role = ctl.params.get("net");
  document.body.dataset.netRole = role === "join" ? "guest" : role || "";
  if (role === "host") return installHost(ctl);
  if (role === "join") return installGuest(ctl);
  if (role === "reply") return installReply(ctl);
  throw new Error(`unknown ?net= role ${role}`);
}

// ------------------------------------------------------------------------------- shared bits

function readStun() {
  try { return localStorage.getItem(STUN_KEY) || ""; } catch (err) { return ""; }
}

function writeStun(url) {
  try {
    if (url) localStorage.setItem(STUN_KEY, url); else localStorage.removeItem(STUN_KEY);
  } catch (err) { /* private mode */ }
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    if (button) { button.textContent = nt("panel.copied"); setTimeout(() => { button.textContent = nt("panel.copy"); }, 1500); }
  } catch (err) { /* the text stays selectable in its field */ }
}

function field(labelText, value, cls) {
  const wrap = el("label", `net-field ${cls || ""}`);
  wrap.append(el("span", "net-label", labelText));
  const input = el("input", "net-input");
  input.type = "text";
  input.readOnly = true;
  input.value = value;
  input.addEventListener("focus", () => input.select());
  const btn = el("button", "btn btn-ghost net-copy", nt("panel.copy"));
  btn.type = "button";
  btn.addEventListener("click", () => copy(input.value, btn));
  const row = el("div", "net-row");
  row.append(input, btn);
  wrap.append(row);
  return wrap;
}

function dialog(id) {
  let d = $(id);
  if (!d) {
    d = el("dialog", "dlg net-dlg");
    d.id = id;
    document.body.append(d);
  }
  d.replaceChildren();
  return d;
}

function panel() {
  let p = $("net-panel");
  if (!p) {
    p = el("aside", "net-panel");
    p.id = "net-panel";
    p.setAttribute("aria-label", nt("panel.title"));
    document.body.append(p);
  }
  return p;
}

/** The panel's title bar with its hide button; a "Friends" button in the top bar shows it. */
function foldHead(p) {
  const head = el("div", "net-head");
  const btn = el("button", "btn btn-ghost net-toggle", nt("panel.hide"));
  btn.type = "button";
  btn.addEventListener("click", () => { p.classList.add("net-folded"); syncFold(p); });
  head.append(el("h2", null, nt("panel.title")), btn);
  topButton(p);
  return head;
}

function topButton(p) {
  let b = $("btn-net-panel");
  if (b) return b;
  b = el("button", "btn btn-ghost net-top", nt("panel.title"));
  b.type = "button";
  b.id = "btn-net-panel";
  b.setAttribute("aria-controls", "net-panel");
  b.addEventListener("click", () => { p.classList.toggle("net-folded"); syncFold(p); });
  const bar = document.querySelector(".topbar-actions");
  if (bar) bar.prepend(b); else document.body.append(b);
  syncFold(p);
  return b;
}

function syncFold(p) {
  const b = $("btn-net-panel");
  if (b) b.setAttribute("aria-expanded", p.classList.contains("net-folded") ? "false" : "true");
}

/** A mark on the top bar's Friends button: "ok", "warn", "attention" or "". */
function badge(kind) {
  const b = $("btn-net-panel");
  if (b) { if (kind) b.dataset.badge = kind; else delete b.dataset.badge; }
}

/**
 * The players' names instead of the renderer's seat names ("Ava", "Ben", …) in what the table
 * shows: seat chips, status, sides, log, deal summary. Text nodes are rewritten once each.
 */
function keepNames(getNames, getViewer) {
  const done = new WeakMap();
  let busy = false;
  const skip = (node) => node.parentElement && node.parentElement.closest("#net-panel, .net-dlg, script, style, option");
  const apply = () => {
    if (busy) return;
    const names = getNames() || [];
    const viewer = getViewer();
    const map = new Map();
    names.forEach((n, seat) => {
      if (!n || seat === viewer) return;
      const d = seat === 0 && viewer !== 0 ? t("seat.name.0") : t(`seat.${seat}`);
      if (d && d !== n && !d.startsWith("\u27e6")) map.set(d, n);
    });
    if (!map.size) return;
    const esc = [...map.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(${esc.join("|")})(?![\\p{L}\\p{N}])`, "gu");
    busy = true;
    try {
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        const text = node.nodeValue;
        if (!text || done.get(node) === text || skip(node)) continue;
        const out = text.replace(re, (m) => map.get(m));
        if (out !== text) node.nodeValue = out;
        done.set(node, out);
      }
    } finally { busy = false; }
  };
  new MutationObserver(apply).observe(document.body, { childList: true, subtree: true, characterData: true });
  return apply;
}

function errorOf(res, fallback) {
  const e = (res && res.error) || { code: "internal", message: fallback || "" };
  // The protocol's refusals in the player's language (the engine's reasons are the app's).
  return e.code && ntHas(`err.${e.code}`) ? { ...e, message: nt(`err.${e.code}`) } : e;
}

// ------------------------------------------------------------------------------------ host

function installHost(ctl) {
  const eng = (req) => ctl.engine.request(req);
  const H = {
    game: null,           // this game's token (in invites and replies)
    status: null,         // the protocol's status (NetHost.status())
    peers: new Map(),     // seat -> {pc, channel, conn, link, state}
    conns: new Map(),     // conn -> seat
    n: 0,
    stun: readStun(),
    version: null,
    notice: "",
    rows: new Map(),
  };
  const applyNames = keepNames(() => H.status && H.status.names, () => (ctl.ui.view ? ctl.ui.view.seat : 0));
  // Browser tests (?testhooks&scenario=<json>): once dealt, the table is set up from a scenario.
  let testScenario = ctl.params.has("testhooks") ? ctl.params.get("scenario") : null;

  function deliver(res) {
    if (!res) return;
    for (const o of res.out || []) {
      const seat = H.conns.get(o.conn);
      const p = seat === undefined ? null : H.peers.get(seat);
      if (p && p.conn === o.conn && p.channel.readyState === "open") {
        try { p.channel.send(o.text); } catch (err) { /* closing: its close event follows */ }
      }
    }
    if (res.status) {
      H.status = res.status;
      if (testScenario && res.status.stage === "playing") {
        const sc = testScenario;
        testScenario = null;
        net("host_test_scenario", { scenario: JSON.parse(sc) }).then((r) => showView(r, true));
      }
      if (res.status.version !== H.version) { H.version = res.status.version; save(); }
      renderPanel();
    }
  }

  function showView(res, force = false) {
    if (!res || !res.view) return;
    const cur = ctl.ui.view;
    if (force || !cur || res.view.version >= cur.version || res.view.deal !== cur.deal) ctl.applyView(res.view);
    applyNames();
  }

  async function net(action, fields = {}) {
    let res;
    try { res = await eng({ op: "net", action, ...fields }); } catch (err) {
      res = { ok: false, error: { code: "internal", message: err.message } };
    }
    deliver(res);
    return res;
  }

  /** Saves the host's game; body[data-net-saved] then names the version kept (docs/netplay.md). */
  async function save() {
    const version = H.version;
    const res = await eng({ op: "net", action: "host_snapshot" }).catch(() => null);
    if (res && res.ok) {
      try { localStorage.setItem(HOST_KEY, JSON.stringify({ game: H.game, snapshot: res.snapshot })); } catch (err) { return; /* full */ }
      document.body.dataset.netSaved = String(version);
    }
  }

  // The app's requests: moves and computer turns go through the protocol (views to the friends).
  ctl.modeHooks.send = (request) => {
    if (!request || !["move", "bot", "new_game", "load", "scenario"].includes(request.op)) return null;
    if (request.op !== "move" && request.op !== "bot") {
      return Promise.resolve({ ok: false, error: { code: "friends_game", message: nt("err.friends_game") } });
    }
    return eng({ op: "net", action: "host_local", request }).then((res) => {
      deliver(res);
      applyNames();
      return res.ok ? res.response : { ok: false, error: errorOf(res) };
    });
  };
  ctl.modeHooks.start = () => hostStart();

  // Replies opened on this device reach this tab through a BroadcastChannel.
  let bc = null;
  try {
    bc = new BroadcastChannel(BC_NAME);
    bc.addEventListener("message", async (ev) => {
      const d = ev.data;
      if (!d || d.type !== "reply" || typeof d.code !== "string") return;
      let parsed;
      try { parsed = RTC.parseReply(d.code); } catch (err) { return; }
      if (parsed.game !== H.game) return;
      const ok = await takeReply(d.code);
      bc.postMessage({ type: "reply-ack", game: parsed.game, seat: parsed.seat, ok });
    });
  } catch (err) { bc = null; }

  async function hostStart() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(HOST_KEY) || "null"); } catch (err) { saved = null; }
    if (saved && saved.snapshot && saved.game) {
      const res = await net("host_restore", { snapshot: saved.snapshot });
      if (res.ok) {
        H.game = saved.game;
        await makeInvites(res.invites);
        showView(res);
        return;
      }
      try { localStorage.removeItem(HOST_KEY); } catch (err) { /* ignore */ }
      H.notice = res.error ? res.error.message : "";
    }
    setupDialog();
  }

  function setupDialog() {
    const d = dialog("net-setup");
    const form = el("form", "dlg-form net-form");
    form.method = "dialog";
    form.append(el("h2", null, nt("title")), el("p", "net-intro", nt("setup.intro")));
    if (H.notice) form.append(el("p", "net-error", H.notice));
    const choices = ctl.choices.players;
    const rulesBox = el("fieldset", "field");
    rulesBox.append(el("legend", null, t("settings.rules")));
    const seg = el("div", "segmented");
    for (const r of Object.keys(choices)) {
      const lab = el("label");
      const inp = el("input");
      Object.assign(inp, { type: "radio", name: "rules", value: r, checked: r === "samba" });
      lab.append(inp, " ", el("span", null, t(`rules.${r}`)));
      seg.append(lab);
    }
    rulesBox.append(seg);
    const playersSel = el("select", "net-select");
    playersSel.name = "players";
    const seatsBox = el("div", "net-seats");
    const fillPlayers = () => {
      const rules = form.querySelector('input[name="rules"]:checked').value;
      const keep = Number(playersSel.value) || ctl.choices.defaultPlayers[rules];
      playersSel.replaceChildren(...choices[rules].map((n) => {
        const o = el("option", null, String(n));
        o.value = String(n);
        o.selected = n === (choices[rules].includes(keep) ? keep : ctl.choices.defaultPlayers[rules]);
        return o;
      }));
      fillSeats();
    };
    const fillSeats = () => {
      const n = Number(playersSel.value);
      const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
      seatsBox.replaceChildren();
      const you = el("div", "net-seat-row");
      you.append(el("span", "net-seat-no", nt("panel.seat", { n: 0 })), el("span", null, nt("setup.you")));
      seatsBox.append(you);
      for (let i = 1; i < n; i++) {
        const row = el("label", "net-seat-row");
        const sel = el("select", "net-select");
        sel.name = `seat${i}`;
        sel.dataset.seat = String(i);
        for (const k of ["friend", ...LEVELS]) {
          const o = el("option", null, k === "friend" ? nt("setup.friend") : t(`level.${k}`));
          o.value = k;
          sel.append(o);
        }
        sel.value = old[i - 1] || (i % 2 === 0 || n === 2 ? "friend" : "medium");
        row.append(el("span", "net-seat-no", nt("panel.seat", { n: i })), sel);
        seatsBox.append(row);
      }
    };
    form.addEventListener("change", (ev) => { if (ev.target.name === "rules") fillPlayers(); else if (ev.target === playersSel) fillSeats(); });
    const playersLab = el("label", "field net-inline");
    playersLab.append(el("span", null, t("settings.players")), playersSel);
    const targetSel = el("select", "net-select");
    targetSel.name = "target";
    for (const v of [2500, 5000, 7500, 10000]) {
      const o = el("option", null, num(v));
      o.value = String(v);
      o.selected = v === 5000;
      targetSel.append(o);
    }
    const targetLab = el("label", "field net-inline");
    targetLab.append(el("span", null, t("settings.target")), targetSel);
    const seatsField = el("fieldset", "field");
    seatsField.append(el("legend", null, t("settings.seats")), seatsBox);
    const nameLab = el("label", "field net-inline");
    const nameIn = el("input", "net-input");
    Object.assign(nameIn, { type: "text", name: "name", maxLength: 24, autocomplete: "nickname" });
    nameLab.append(el("span", null, nt("setup.name")), nameIn);
    const stunLab = el("label", "field net-check");
    const stunBox = el("input");
    Object.assign(stunBox, { type: "checkbox", name: "stun_on", checked: !!H.stun });
    stunLab.append(stunBox, " ", el("span", null, nt("setup.stun")));
    const stunIn = el("input", "net-input");
    Object.assign(stunIn, { type: "text", name: "stun", value: H.stun, placeholder: "stun:stun.example.org:3478" });
    stunIn.setAttribute("aria-label", nt("setup.stun_url"));
    const err = el("p", "net-error");
    const buttons = el("div", "dlg-buttons");
    const cancel = el("a", "btn btn-ghost", nt("setup.cancel"));
    cancel.href = "./";
    const go = el("button", "btn btn-primary", nt("setup.create"));
    go.type = "submit";
    go.id = "net-create";
    buttons.append(cancel, go);
    form.append(rulesBox, playersLab, targetLab, seatsField, nameLab, stunLab, stunIn, err, buttons);
    d.append(form);
    fillPlayers();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const n = Number(playersSel.value);
      const seats = ["host"];
      for (let i = 1; i < n; i++) seats.push(form.querySelector(`select[name="seat${i}"]`).value);
      if (!seats.includes("friend")) { err.textContent = nt("setup.need_friend"); return; }
      H.stun = stunBox.checked ? stunIn.value.trim() : "";
      writeStun(H.stun);
      const res = await net("host_setup", {
        rules: form.querySelector('input[name="rules"]:checked').value, players: n,
        target: Number(targetSel.value), seats, name: nameIn.value,
      });
      if (!res.ok) { err.textContent = errorOf(res).message; return; }
      H.game = RTC.randomToken();
      d.close();
      await makeInvites(res.invites);
    });
    if (!d.open) d.showModal();
  }

  async function makeInvites(invites) {
    for (const [seat, secret] of Object.entries(invites || {})) await invite(Number(seat), secret);
    renderPanel();
  }

  function dropPeer(seat) {
    const p = H.peers.get(seat);
    if (!p) return;
    H.peers.delete(seat);
    H.conns.delete(p.conn);
    try { p.channel.close(); } catch (err) { /* ignore */ }
    try { p.pc.close(); } catch (err) { /* ignore */ }
  }

  async function invite(seat, secret) {
    dropPeer(seat);
    let made;
    try { made = await RTC.makeOffer(H.stun); } catch (err) {
      H.notice = err.message === "no_candidates" ? nt("err.no_candidates") : err.message;
      renderPanel();
      return;
    }
    const conn = `s${seat}-${++H.n}`;
    const url = new URL("./", location.href);
    url.search = "?net=join";
    url.hash = RTC.inviteFragment(seat, secret, H.game, made.offer, H.stun);
    const p = { pc: made.pc, channel: made.channel, conn, link: url.href, state: "invited" };
    H.peers.set(seat, p);
    H.conns.set(conn, seat);
    const ch = made.channel;
    ch.addEventListener("open", () => { p.state = "open"; renderPanel(); });
    ch.addEventListener("message", async (ev) => {
      if (H.peers.get(seat) !== p) return;
      const res = await net("host_receive", { conn, text: typeof ev.data === "string" ? ev.data : "" });
      if (res.ok) showView(res);
    });
    const closed = () => {
      if (p.closed) return;
      p.closed = true;
      if (H.peers.get(seat) === p) net("host_closed", { conn });
    };
    ch.addEventListener("close", closed);
    made.pc.addEventListener("connectionstatechange", () => {
      const s = made.pc.connectionState;
      if (s === "failed" && p.state !== "open") { H.notice = nt("err.connect_failed", { n: seat }); renderPanel(); }
      if (s === "failed" || s === "closed") closed();
    });
  }

  async function takeReply(code) {
    let r;
    try { r = RTC.parseReply(code); } catch (err) { H.notice = nt("err.reply_bad"); renderPanel(); return false; }
    if (r.game !== H.game) { H.notice = nt("err.reply_game"); renderPanel(); return false; }
    const p = H.peers.get(r.seat);
    if (!p) { H.notice = nt("err.reply_seat", { n: r.seat }); renderPanel(); return false; }
    if (p.pc.signalingState !== "have-local-offer") { H.notice = nt("err.reply_used", { n: r.seat }); renderPanel(); return false; }
    try { await RTC.takeAnswer(p.pc, r.answer); } catch (err) { H.notice = err.message; renderPanel(); return false; }
    // The data channel may already be open by now (its "open" event can come before this line
    // runs): never mark an open connection as still connecting.
    if (p.state === "invited") p.state = "connecting";
    H.notice = "";
    renderPanel();
    return true;
  }

  async function newInvite(seat) {
    const res = await net("host_invite", { seat });
    if (res.ok) await invite(seat, res.secret); else { H.notice = errorOf(res).message; }
    renderPanel();
  }

  async function substitute(seat, level) {
    const res = await net("host_substitute", { seat, level });
    if (!res.ok) H.notice = errorOf(res).message;
    showView(res);
    renderPanel();
  }

  async function deal() {
    const res = await net("host_start");
    if (!res.ok) { H.notice = errorOf(res).message; renderPanel(); return; }
    H.notice = "";
    showView(res);
  }

  async function newFriendsGame() {
    for (const seat of [...H.peers.keys()]) dropPeer(seat);
    try { localStorage.removeItem(HOST_KEY); } catch (err) { /* ignore */ }
    H.status = null;
    H.notice = "";
    H.rows.clear();
    panel().replaceChildren();
    setupDialog();
  }

  function seatRow(seat) {
    let row = H.rows.get(seat);
    if (row) return row;
    row = { box: el("div", "net-seat") };
    row.box.dataset.seat = String(seat);
    row.head = el("div", "net-seat-head");
    row.name = el("span", "net-seat-name");
    row.state = el("span", "net-state");
    row.head.append(row.name, row.state);
    row.body = el("div", "net-seat-body");
    row.box.append(row.head, row.body);
    // The invite and the reply field stay put while the panel updates around them.
    row.invite = field(nt("panel.invite", { n: seat }), "", "net-invite");
    row.replyWrap = el("label", "net-field net-reply");
    row.replyWrap.append(el("span", "net-label", nt("panel.reply")));
    const rrow = el("div", "net-row");
    row.reply = el("input", "net-input");
    row.reply.type = "text";
    row.reply.dataset.seat = String(seat);
    const connect = el("button", "btn btn-primary net-connect", nt("panel.connect"));
    connect.type = "button";
    connect.addEventListener("click", async () => {
      if (await takeReply(row.reply.value)) row.reply.value = "";
    });
    rrow.append(row.reply, connect);
    row.replyWrap.append(rrow);
    row.newInvite = el("button", "btn btn-ghost net-new-invite", nt("panel.new_invite"));
    row.newInvite.type = "button";
    row.newInvite.addEventListener("click", () => newInvite(seat));
    row.choice = el("select", "net-select net-stand-in");
    row.choice.setAttribute("aria-label", nt("panel.bot"));
    const wait = el("option", null, nt("panel.wait"));
    wait.value = "";
    row.choice.append(wait, ...LEVELS.map((l) => { const o = el("option", null, `${nt("panel.bot")}: ${t(`level.${l}`)}`); o.value = l; return o; }));
    row.choice.addEventListener("change", () => substitute(seat, row.choice.value || null));
    H.rows.set(seat, row);
    return row;
  }

  function renderPanel() {
    const st = H.status;
    const p = panel();
    if (!st) return;
    document.body.dataset.netStage = st.stage;
    if (!p.dataset.built) {
      p.dataset.built = "1";
      const head = foldHead(p);
      H.seatsBox = el("div", "net-seats");
      H.info = el("p", "net-info");
      H.err = el("p", "net-error");
      H.err.setAttribute("role", "alert");
      H.dealBtn = el("button", "btn btn-primary", nt("panel.deal"));
      H.dealBtn.type = "button";
      H.dealBtn.id = "net-deal";
      H.dealBtn.addEventListener("click", deal);
      const again = el("button", "btn btn-ghost net-again", nt("panel.new_game"));
      again.type = "button";
      again.addEventListener("click", newFriendsGame);
      const help = el("p", "net-help", nt("panel.help"));
      p.append(head, H.seatsBox, H.info, H.err, H.dealBtn, help, again);
    }
    const kids = [];
    st.kinds.forEach((kind, seat) => {
      const row = seatRow(seat);
      const friend = st.friends[String(seat)];
      const name = st.names[seat];
      if (kind === "host") row.name.textContent = `${nt("panel.seat", { n: seat })}: ${name || nt("panel.you")} (${nt("panel.you")})`;
      else if (!friend) row.name.textContent = `${nt("panel.seat", { n: seat })}: ${t(`level.${kind}`)}`;
      else row.name.textContent = `${nt("panel.seat", { n: seat })}: ${friend.name || nt("setup.friend")}`;
      const peer = H.peers.get(seat);
      let state = friend ? friend.state : "";
      if (friend && state !== "connected" && peer && peer.state === "connecting") state = "connecting";
      row.box.dataset.state = state || kind;
      row.state.textContent = state ? nt(`state.${state}`) : "";
      row.state.className = `net-state net-${state || "none"}`;
      const parts = [];
      if (friend && friend.state !== "connected") {
        if (peer) {
          row.invite.querySelector("input").value = peer.link;
          parts.push(row.invite, row.replyWrap);
        }
        parts.push(row.newInvite);
        if (st.stage !== "lobby" || friend.state === "dropped") {
          row.choice.value = LEVELS.includes(kind) ? kind : "";
          parts.push(row.choice);
        }
      } else if (friend && LEVELS.includes(kind)) {
        parts.push(row.choice);
      }
      const have = [...row.body.children];
      if (have.length !== parts.length || have.some((c, i) => c !== parts[i])) row.body.replaceChildren(...parts);
      kids.push(row.box);
    });
    const have = [...H.seatsBox.children];
    if (have.length !== kids.length || have.some((c, i) => c !== kids[i])) H.seatsBox.replaceChildren(...kids);
    const missing = Object.values(st.friends).some((f) => f.state !== "connected" && st.kinds[f.seat] === "friend");
    H.dealBtn.hidden = st.stage !== "lobby";
    H.dealBtn.disabled = missing;
    let info = "";
    if (st.stage === "lobby") info = missing ? nt("panel.waiting_friends") : nt("panel.all_in");
    else if (st.round) info = nt("panel.round", { deal: st.round.deal });
    H.info.textContent = info;
    H.err.textContent = H.notice || "";
    p.dataset.stage = st.stage;
    // While playing the panel folds away (it opens by itself when a friend needs attention).
    const attention = Object.values(st.friends).some((f) => f.state !== "connected") || !!H.notice;
    if (st.stage === "playing" && H.foldedFor !== attention) {
      H.foldedFor = attention;
      p.classList.toggle("net-folded", !attention);
      syncFold(p);
    }
    badge(attention ? "attention" : "");
  }
}

// ----------------------------------------------------------------------------------- guest

function installGuest(ctl) {
  const eng = (req) => ctl.engine.request(req);
  let inv = null;
  let invError = null;
  try { inv = RTC.parseInvite(location.hash); } catch (err) { invError = err; }
  // A new invite opened in this tab only changes the #fragment: start afresh with it.
  window.addEventListener("hashchange", () => location.reload());
  const G = { channel: null, pc: null, view: null, names: [], pending: new Map(), results: [], friends: {}, state: "new" };
  const applyNames = keepNames(() => G.names, () => (inv ? inv.seat : null));

  function localView(view) {
    // This page asks nobody to move for other seats: the host runs them all.
    const v = { ...view, kinds: view.seats, seats: (view.seats || []).map((k, i) => (i === view.seat ? "human" : "remote")) };
    if (G.view && G.view.deal !== view.deal) $("net-verified-deal")?.remove();
    G.view = v;
    if (view.names) G.names = view.names;
    return v;
  }

  function sendOut(texts) {
    for (const text of texts || []) {
      if (G.channel && G.channel.readyState === "open") {
        try { G.channel.send(text); } catch (err) { /* its close event follows */ }
      }
    }
  }

  async function request(kind, fields) {
    if (!G.channel || G.channel.readyState !== "open") {
      return { ok: false, error: { code: "connection_lost", message: nt("guest.lost") } };
    }
    const res = await eng({ op: "net", action: "guest_request", kind, fields });
    if (!res.ok) return { ok: false, error: errorOf(res) };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        G.pending.delete(res.id);
        resolve({ ok: false, error: { code: "timeout", message: nt("guest.timeout") } });
      }, REQUEST_TIMEOUT_MS);
      G.pending.set(res.id, (response) => { clearTimeout(timer); resolve(response); });
      sendOut(res.out);
    });
  }

  ctl.modeHooks.send = (req) => {
    if (!req || req.op === "net") return null;
    switch (req.op) {
      case "move": return request("move", { move: req.move, version: req.version });
      case "check": return request("check", { move: req.move });
      case "hint": return request("hint", { level: req.level });
      case "deal_review": return request("review", {});
      case "view":
        return Promise.resolve(G.view ? { ok: true, version: G.view.version, view: G.view }
          : { ok: false, error: { code: "no_game", message: nt("join.waiting") } });
      default:
        return Promise.resolve({ ok: false, error: { code: "not_here", message: nt("guest.not_here") } });
    }
  };
  ctl.modeHooks.start = () => joinDialog();

  function setConn(state) {
    G.state = state;
    document.body.dataset.netConn = state;
    renderGuestPanel();
  }

  async function onText(text) {
    const res = await eng({ op: "net", action: "guest_receive", text: typeof text === "string" ? text : "" });
    if (!res.ok) return;
    sendOut(res.out);
    for (const ev of res.events || []) {
      switch (ev.type) {
        case "welcome":
          G.names = ev.names || G.names;
          $("net-join")?.close();
          setConn("connected");
          if (ev.view) ctl.applyView(localView(ev.view));
          applyNames();
          renderGuestPanel();
          break;
        case "view":
          ctl.applyView(localView(ev.view));
          applyNames();
          if (!G.panelDrawnWithView) renderGuestPanel();
          break;
        case "reply": {
          const done = G.pending.get(ev.id);
          if (!done) break;
          G.pending.delete(ev.id);
          const r = ev.response;
          if (r.view) r.view = localView(r.view);
          if (r.error) r.error = errorOf(r);
          done(r);
          break;
        }
        case "seats":
          G.names = ev.names || G.names;
          G.friends = ev.friends || {};
          G.kinds = ev.kinds;
          applyNames();
          renderGuestPanel();
          break;
        case "error":
          ctl.say(ntHas(`err.${ev.code}`) ? nt(`err.${ev.code}`) : ev.message, "error", ev.code);
          ctl.draw();
          break;
        case "verified":
          G.results.push(ev);
          document.body.dataset.netVerified = ev.ok ? "ok" : "warn";
          renderGuestPanel();
          break;
        default:
          break;
      }
    }
  }

  function lost() {
    for (const done of G.pending.values()) done({ ok: false, error: { code: "connection_lost", message: nt("guest.lost") } });
    G.pending.clear();
    setConn("lost");
    // Given up: close this connection too, so that the host sees the seat dropped (its checks of
    // the connection then fail) rather than a link that came back to a page no longer listening.
    if (G.pc) { try { G.pc.close(); } catch (err) { /* already closed */ } }
  }

  function joinDialog() {
    const d = dialog("net-join");
    const box = el("form", "dlg-form net-form");
    box.method = "dialog";
    box.append(el("h2", null, nt("join.title")));
    if (!inv) {
      box.append(el("p", "net-error", nt("join.bad")));
      d.append(box);
      d.showModal();
      document.body.dataset.netConn = "bad_invite";
      return;
    }
    box.append(el("p", "net-intro", nt("join.intro", { n: inv.seat })));
    const nameLab = el("label", "field net-inline");
    const nameIn = el("input", "net-input");
    Object.assign(nameIn, { type: "text", name: "name", maxLength: 24, autocomplete: "nickname", required: true });
    try { nameIn.value = localStorage.getItem("samba.net.name") || ""; } catch (err) { /* ignore */ }
    nameLab.append(el("span", null, nt("join.name")), nameIn);
    // The host chose a STUN server: the friend may use it too (or not).
    const stunLab = el("label", "field net-check");
    const stunBox = el("input");
    Object.assign(stunBox, { type: "checkbox", name: "stun_on", checked: true });
    stunLab.append(stunBox, " ", el("span", null, nt("join.stun", { url: inv.stun })));
    stunLab.hidden = !inv.stun;
    const err = el("p", "net-error");
    const out = el("div", "net-reply-out");
    const go = el("button", "btn btn-primary", nt("join.go"));
    go.type = "submit";
    go.id = "net-join-go";
    const buttons = el("div", "dlg-buttons");
    buttons.append(go);
    box.append(nameLab, stunLab, err, buttons, out);
    d.append(box);
    box.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      go.disabled = true;
      const name = nameIn.value.trim().slice(0, 24);
      try { localStorage.setItem("samba.net.name", name); } catch (e) { /* ignore */ }
      const res = await eng({ op: "net", action: "guest_setup", seat: inv.seat, secret: inv.secret, name });
      if (!res.ok) { err.textContent = errorOf(res).message; go.disabled = false; return; }
      let made;
      try {
        made = await RTC.makeAnswer(inv.offer, inv.stun && stunBox.checked ? inv.stun : "", (ch) => {
          G.channel = ch;
          ch.addEventListener("open", async () => {
            const r = await eng({ op: "net", action: "guest_hello" });
            sendOut(r.out);
          });
          ch.addEventListener("message", (m) => onText(m.data));
          ch.addEventListener("close", lost);
        });
      } catch (e) {
        err.textContent = e.message === "no_candidates" ? nt("err.no_candidates") : e.message;
        go.disabled = false;
        return;
      }
      G.pc = made.pc;
      made.pc.addEventListener("connectionstatechange", () => {
        const s = made.pc.connectionState;
        if (s === "disconnected") setConn("reconnecting");
        else if (s === "connected" && G.state === "reconnecting") setConn("connected");
        else if (s === "failed" && G.state === "waiting") {
          err.textContent = nt("err.connect_failed_guest");
          setConn("failed");
        } else if (s === "failed" || s === "closed") lost();
      });
      const code = RTC.replyCode(inv.seat, inv.game, made.answer);
      const link = new URL("./", location.href);
      link.search = "?net=reply";
      link.hash = code;
      out.replaceChildren(el("p", null, nt("join.reply")), field(nt("join.reply_link"), link.href, "net-reply-link"),
        field(nt("join.reply_code"), code, "net-reply-code"), el("p", "net-info", nt("join.waiting")));
      nameLab.hidden = true;
      stunLab.hidden = true;
      buttons.hidden = true;
      setConn("waiting");
    });
    d.showModal();
  }

  function renderGuestPanel() {
    const p = panel();
    G.panelDrawnWithView = !!G.view;
    if (G.view && !G.folded) { G.folded = true; p.classList.add("net-folded"); }
    const items = [foldHead(p)];
    const lastResult = G.results[G.results.length - 1];
    const trouble = G.state === "lost" || G.state === "reconnecting" || G.state === "failed";
    if (trouble || (lastResult && !lastResult.ok && G.shownWarning !== lastResult.deal)) {
      p.classList.remove("net-folded");
      if (lastResult && !lastResult.ok) G.shownWarning = lastResult.deal;
    }
    syncFold(p);
    badge(trouble ? "attention" : lastResult ? (lastResult.ok ? "ok" : "warn") : "");
    const conn = el("p", `net-conn net-${G.state}`);
    conn.id = "net-conn";
    conn.textContent = G.state === "lost" ? nt("guest.lost") : G.state === "reconnecting" ? nt("guest.reconnecting")
      : G.state === "connected" ? (G.view ? nt("guest.connected") : nt("join.lobby"))
        : G.state === "failed" ? nt("err.connect_failed_guest") : nt("join.waiting");
    items.push(conn);
    const list = el("div", "net-seats");
    (G.names || []).forEach((name, seat) => {
      const f = G.friends[String(seat)];
      const kind = (G.kinds || [])[seat];
      const row = el("div", "net-seat");
      row.dataset.seat = String(seat);
      const label = seat === inv.seat ? `${name || nt("setup.friend")} (${nt("panel.you")})`
        : kind === "host" ? name || "Host" : f ? f.name || nt("setup.friend") : t(`level.${kind || "random"}`);
      row.append(el("span", "net-seat-name", `${nt("panel.seat", { n: seat })}: ${label}`));
      if (f && seat !== inv.seat) row.append(el("span", `net-state net-${f.state}`, nt(`state.${f.state}`)));
      list.append(row);
    });
    items.push(list);
    const last = G.results[G.results.length - 1];
    if (last) {
      const v = el("p", `net-verified ${last.ok ? "net-ok" : "net-warn"}`);
      v.id = "net-verified";
      v.setAttribute("role", "status");
      v.textContent = last.ok ? nt(last.partial ? "guest.verified_partial" : "guest.verified", { deal: last.deal })
        : nt("guest.warning", { deal: last.deal, problem: problemText(last) });
      items.push(v);
      // Also in the deal's summary, where the player looks at the end of the deal.
      const out = $("deal-out");
      if (out && out.parentElement) {
        let line = $("net-verified-deal");
        if (!line) {
          line = el("p", "net-verified-deal");
          line.id = "net-verified-deal";
          out.after(line);
        }
        line.className = `net-verified-deal ${last.ok ? "net-ok" : "net-warn"}`;
        line.textContent = v.textContent;
      }
    }
    items.push(el("p", "net-help", nt("panel.help")));
    p.replaceChildren(...items);
  }
}

function problemText(result) {
  const code = (result.codes || [])[0];
  return code && ntHas(`problem.${code}`) ? nt(`problem.${code}`) : result.problems[0] || "";
}

// ----------------------------------------------------------------------------------- reply

function installReply(ctl) {
  ctl.modeHooks.start = () => {};
  ctl.modeHooks.send = (req) => (req && req.op !== "net" ? Promise.resolve({ ok: false, error: { code: "not_here", message: "" } }) : null);
  const code = location.hash.replace(/^#/, "");
  const d = dialog("net-reply");
  const box = el("div", "dlg-form net-form");
  box.append(el("h2", null, nt("reply.title")));
  const msg = el("p", "net-info", nt("reply.sending"));
  msg.id = "net-reply-msg";
  box.append(msg);
  d.append(box);
  d.showModal();
  let parsed;
  try { parsed = RTC.parseReply(code); } catch (err) {
    msg.textContent = nt("err.reply_bad");
    document.body.dataset.netReply = "bad";
    return;
  }
  const fallback = () => {
    msg.textContent = nt("reply.none");
    box.append(field(nt("join.reply_code"), code, "net-reply-code"));
    document.body.dataset.netReply = "none";
  };
  let bc;
  try { bc = new BroadcastChannel(BC_NAME); } catch (err) { fallback(); return; }
  const timer = setTimeout(fallback, 3000);
  bc.addEventListener("message", (ev) => {
    const a = ev.data;
    if (!a || a.type !== "reply-ack" || a.game !== parsed.game || a.seat !== parsed.seat) return;
    clearTimeout(timer);
    if (a.ok) {
      msg.textContent = nt("reply.done", { n: parsed.seat });
      document.body.dataset.netReply = "done";
    } else fallback();
  });
  bc.postMessage({ type: "reply", code });
}
