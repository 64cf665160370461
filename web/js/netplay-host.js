// Play with friends, the host's page (docs/netplay.md): this device runs the game; the setup,
// the invites and replies, the seats' states, the host's save (resumed after a reload).

import { el } from "./dom.js";
import { num, t } from "./i18n.js";
import * as Relay from "./netplay-relay.js";
import * as RTC from "./netplay-rtc.js";
import { choices } from "./rules-data.js";
import { BC_NAME, badge, dialog, disclosure, errorOf, field, foldHead, keepNames, nt, panel, syncFold } from "./netplay-ui.js";

const HOST_KEY = "samba.net.host.v1";
// The computer levels a seat may be given: the engine's, from the rules data (rules-data.js),
// read when used (the list fills in once the data has arrived).
const botLevels = () => choices.levels.filter((l) => l !== "human");

export function installHost(ctl) {
  const eng = (req) => ctl.engine.request(req);
  const H = {
    game: null,           // this game's token (in invites and replies)
    status: null,         // the protocol's status (NetHost.status())
    peers: new Map(),     // seat -> {kind: "relay"|"private", link, state, ...}
    conns: new Map(),     // conn -> seat
    senders: new Map(),   // conn -> send(text)
    secrets: {},          // seat -> its current secret (kept with the host's save)
    mode: "relay",        // how friends join: "relay" (one link) or "private" (two links)
    modes: {},            // seat -> a seat's own mode (a private invite after a relay failure)
    local: false,         // "same network only": no STUN/TURN server
    cfg: { iceServers: [], relays: [] },
    was: {},              // seat -> its last state (for "reconnected")
    n: 0,
    version: null,
    notice: "",
    relays: "",           // the relays once reached: "up", or "down" (an outage; Relay.onRelayHealth)
    rows: new Map(),
  };
  // A relay outage after the relays were reached (mid-game, say): friends already at the table
  // play on, but one who drops cannot come back through a link until the relays are back.
  Relay.onRelayHealth((state) => { H.relays = state; renderPanel(); });
  const applyNames = keepNames(() => H.status && H.status.names, () => (ctl.ui.view ? ctl.ui.view.seat : 0));
  // Browser tests (?testhooks&scenario=<json>): once dealt, the table is set up from a scenario.
  let testScenario = ctl.params.has("testhooks") ? ctl.params.get("scenario") : null;

  function deliver(res) {
    if (!res) return;
    for (const o of res.out || []) {
      const send = H.senders.get(o.conn);
      if (send) {
        try { send(o.text); } catch (err) { /* closing: its close event follows */ }
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
      const keep = { game: H.game, snapshot: res.snapshot, mode: H.mode, modes: H.modes, local: H.local };
      try { localStorage.setItem(HOST_KEY, JSON.stringify(keep)); } catch (err) { return; /* full */ }
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
    H.cfg = await Relay.loadConfig();
    if (!H.cfg.relays.length) H.mode = "private";
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(HOST_KEY) || "null"); } catch (err) { saved = null; }
    if (saved && saved.snapshot && saved.game) {
      const res = await net("host_restore", { snapshot: saved.snapshot });
      if (res.ok) {
        H.game = saved.game;
        H.mode = saved.mode === "private" || !H.cfg.relays.length ? "private" : "relay";
        H.modes = saved.modes && typeof saved.modes === "object" ? saved.modes : {};
        H.local = saved.local === true;
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
      you.append(el("span", "net-seat-no", nt("panel.seat", { seat: 0 })), el("span", null, nt("setup.you")));
      seatsBox.append(you);
      // Who plays with whom (the rules data's sides, as in the new-game dialog): the host's
      // partners are marked.
      const rules = form.querySelector('input[name="rules"]:checked').value;
      const sides = ((ctl.choices.sides || {})[rules] || {})[n] || [];
      const mine = sides.find((side) => side.includes(0)) || [0];
      for (let i = 1; i < n; i++) {
        const row = el("label", "net-seat-row");
        if (mine.includes(i)) row.dataset.partner = "1";
        const sel = el("select", "net-select");
        sel.name = `seat${i}`;
        sel.dataset.seat = String(i);
        for (const k of ["friend", ...botLevels()]) {
          const o = el("option", null, k === "friend" ? nt("setup.friend") : t(`level.${k}`));
          o.value = k;
          sel.append(o);
        }
        sel.value = old[i - 1] || (i % 2 === 0 || n === 2 ? "friend" : "medium");
        const head = el("span");
        head.append(el("span", "net-seat-no", nt("panel.seat", { seat: i })));
        if (mine.includes(i)) head.append(" ", el("span", "seat-row-partner", t("ui.partner")));
        row.append(head, sel);
        seatsBox.append(row);
      }
    };
    form.addEventListener("change", (ev) => {
      if (ev.target.name === "rules") { fillPlayers(); fillTargets(); } else if (ev.target === playersSel) fillSeats();
    });
    const playersLab = el("label", "field net-inline");
    playersLab.append(el("span", null, t("settings.players")), playersSel);
    const targetSel = el("select", "net-select");
    targetSel.name = "target";
    // The rule set's targets (the rules data, as in the new-game dialog): the one chosen stays
    // while the rule set offers it, else the rule set's default for the player count.
    const fillTargets = () => {
      const rules = form.querySelector('input[name="rules"]:checked').value;
      const offered = ctl.choices.targets[rules];
      const keep = Number(targetSel.value);
      const start = (ctl.choices.defaultTargetFor[rules] || {})[Number(playersSel.value)];
      const pick = offered.includes(keep) ? keep : offered.includes(start) ? start : ctl.choices.defaultTarget[rules];
      targetSel.replaceChildren(...offered.map((v) => {
        const o = el("option", null, num(v));
        o.value = String(v);
        o.selected = v === pick;
        return o;
      }));
    };
    const targetLab = el("label", "field net-inline");
    targetLab.append(el("span", null, t("settings.target")), targetSel);
    const seatsField = el("fieldset", "field");
    seatsField.append(el("legend", null, t("settings.seats")), seatsBox);
    const nameLab = el("label", "field net-inline");
    const nameIn = el("input", "net-input");
    Object.assign(nameIn, { type: "text", name: "name", maxLength: 24, autocomplete: "nickname" });
    nameLab.append(el("span", null, nt("setup.name")), nameIn);
    // How friends join: one link per seat through the site's relays, or the private invite.
    const howBox = el("fieldset", "field");
    howBox.append(el("legend", null, nt("setup.how")));
    const how = el("div", "net-how");
    for (const m of ["relay", "private"]) {
      const lab = el("label", "net-check");
      const inp = el("input");
      Object.assign(inp, { type: "radio", name: "mode", value: m, checked: m === H.mode, disabled: m === "relay" && !H.cfg.relays.length });
      lab.append(inp, " ", el("span", null, nt(`setup.mode_${m}`)));
      how.append(lab);
    }
    const localLab = el("label", "field net-check");
    const localBox = el("input");
    Object.assign(localBox, { type: "checkbox", name: "same_network", checked: H.local });
    localLab.append(localBox, " ", el("span", null, nt("setup.same_network")));
    const said = el("p", "net-disclose");
    said.id = "net-disclose";
    const sayWho = () => {
      const mode = form.querySelector('input[name="mode"]:checked').value;
      said.textContent = disclosure(H.cfg, mode, localBox.checked);
    };
    howBox.append(how, localLab, said);
    const err = el("p", "net-error");
    const buttons = el("div", "dlg-buttons");
    const cancel = el("a", "btn btn-ghost", nt("setup.cancel"));
    cancel.href = "./";
    const go = el("button", "btn btn-primary", nt("setup.create"));
    go.type = "submit";
    go.id = "net-create";
    buttons.append(cancel, go);
    form.append(rulesBox, playersLab, targetLab, seatsField, nameLab, howBox, err, buttons);
    d.append(form);
    fillPlayers();
    fillTargets();
    sayWho();
    form.addEventListener("change", sayWho);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const n = Number(playersSel.value);
      const seats = ["host"];
      for (let i = 1; i < n; i++) seats.push(form.querySelector(`select[name="seat${i}"]`).value);
      if (!seats.includes("friend")) { err.textContent = nt("setup.need_friend"); return; }
      H.mode = form.querySelector('input[name="mode"]:checked').value;
      H.local = localBox.checked;
      H.modes = {};
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

  function forget(conn) {
    H.conns.delete(conn);
    H.senders.delete(conn);
  }

  function dropPeer(seat) {
    const p = H.peers.get(seat);
    if (!p) return;
    H.peers.delete(seat);
    if (p.kind === "relay") {
      for (const conn of p.conns.values()) forget(conn);
      if (p.room) p.room.leave();
      return;
    }
    forget(p.conn);
    try { p.channel.close(); } catch (err) { /* ignore */ }
    try { p.pc.close(); } catch (err) { /* ignore */ }
  }

  const seatMode = (seat) => H.modes[seat] || H.mode;

  function joinUrl(fragment) {
    const url = new URL("./", location.href);
    url.search = "?net=join";
    url.hash = fragment;
    return url.href;
  }

  async function invite(seat, secret) {
    dropPeer(seat);
    H.secrets[seat] = secret;
    if (seatMode(seat) === "relay") { await relayInvite(seat, secret); return; }
    let made;
    try { made = await RTC.makeOffer(Relay.iceFor(H.cfg, H.local)); } catch (err) {
      H.notice = err.message === "no_candidates" ? nt("err.no_candidates") : err.message;
      renderPanel();
      return;
    }
    const conn = `s${seat}-${++H.n}`;
    const p = { kind: "private", pc: made.pc, channel: made.channel, conn, state: "invited",
                link: joinUrl(RTC.inviteFragment(seat, secret, H.game, made.offer, H.local)) };
    H.peers.set(seat, p);
    H.conns.set(conn, seat);
    const ch = made.channel;
    ch.addEventListener("open", () => {
      p.state = "open";
      H.senders.set(conn, (text) => { if (ch.readyState === "open") ch.send(text); });
      renderPanel();
    });
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
      if (s === "failed" && p.state !== "open") { p.fail = "connect"; renderPanel(); }
      if (s === "failed" || s === "closed") closed();
    });
  }

  /** One link per seat: the host waits in the seat's room on the site's relays. */
  async function relayInvite(seat, secret) {
    const p = { kind: "relay", state: "invited", conns: new Map(), fail: "", path: "", room: null,
                link: joinUrl(Relay.linkFragment(seat, secret, H.game, H.local)) };
    H.peers.set(seat, p);
    renderPanel();
    const mine = () => H.peers.get(seat) === p;
    p.room = await Relay.joinSeat({
      role: "host", game: H.game, seat, secret, cfg: H.cfg, sameNetworkOnly: H.local,
      onPeer: (peerId) => {
        if (!mine()) return;
        const conn = `r${seat}-${++H.n}`;
        p.conns.set(peerId, conn);
        H.conns.set(conn, seat);
        H.senders.set(conn, (text) => p.room.send(peerId, text));
        p.fail = "";
        p.state = "open";
        renderPanel();
      },
      onText: async (peerId, text) => {
        const conn = p.conns.get(peerId);
        if (!mine() || !conn) return;
        const res = await net("host_receive", { conn, text });
        if (res.ok) showView(res);
        if (!p.path && H.status && (H.status.friends[String(seat)] || {}).state === "connected") {
          p.path = await p.room.path(peerId);
          renderPanel();
        }
      },
      onLeave: (peerId) => {
        const conn = p.conns.get(peerId);
        p.conns.delete(peerId);
        if (!conn) return;
        forget(conn);
        p.path = "";
        if (mine()) net("host_closed", { conn });
      },
      onFail: (kind) => {
        if (!mine() || (kind === "relay" && p.conns.size)) return;
        p.fail = kind;
        renderPanel();
      },
    });
    if (!mine() && p.room) p.room.leave();
  }

  async function takeReply(code) {
    let r;
    try { r = RTC.parseReply(code); } catch (err) { H.notice = nt("err.reply_bad"); renderPanel(); return false; }
    if (r.game !== H.game) { H.notice = nt("err.reply_game"); renderPanel(); return false; }
    const p = H.peers.get(r.seat);
    if (!p || p.kind !== "private") { H.notice = nt("err.reply_seat", { seat: r.seat }); renderPanel(); return false; }
    if (p.pc.signalingState !== "have-local-offer") { H.notice = nt("err.reply_used", { seat: r.seat }); renderPanel(); return false; }
    try { await RTC.takeAnswer(p.pc, r.answer); } catch (err) { H.notice = err.message; renderPanel(); return false; }
    // The data channel may already be open by now (its "open" event can come before this line
    // runs): never mark an open connection as still connecting.
    if (p.state === "invited") p.state = "connecting";
    H.notice = "";
    renderPanel();
    return true;
  }

  /** Tries the seat again with the same link (a failed connection, a relay that was down). */
  async function retry(seat, mode) {
    const p = H.peers.get(seat);
    if (!mode && p && p.kind === "relay" && p.fail === "relay" && p.room) {
      // The relays were down: the seat's room waits for them (same link, same room).
      p.fail = "";
      p.room.retry();
      renderPanel();
      return;
    }
    if (mode) H.modes[seat] = mode;
    await invite(seat, H.secrets[seat]);
    save();
    renderPanel();
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
    row.invite = field(nt("panel.invite", { seat }), "", "net-invite");
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
    row.fail = el("p", "net-error net-seat-fail");
    row.fail.setAttribute("role", "alert");
    row.retry = el("button", "btn btn-primary net-retry", nt("panel.retry"));
    row.retry.type = "button";
    row.retry.addEventListener("click", () => retry(seat));
    row.privateBtn = el("button", "btn btn-ghost net-use-private", nt("panel.use_private"));
    row.privateBtn.type = "button";
    row.privateBtn.addEventListener("click", () => retry(seat, "private"));
    row.newInvite = el("button", "btn btn-ghost net-new-invite", nt("panel.new_invite"));
    row.newInvite.type = "button";
    row.newInvite.addEventListener("click", () => newInvite(seat));
    row.choice = el("select", "net-select net-stand-in");
    row.choice.setAttribute("aria-label", nt("panel.bot"));
    const wait = el("option", null, nt("panel.wait"));
    wait.value = "";
    row.choice.append(wait, ...botLevels().map((l) => { const o = el("option", null, `${nt("panel.bot")}: ${t(`level.${l}`)}`); o.value = l; return o; }));
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
      H.relayNote = el("p", "net-relay-down", nt("panel.relay_down"));
      H.relayNote.setAttribute("role", "status");
      H.dealBtn = el("button", "btn btn-primary", nt("panel.deal"));
      H.dealBtn.type = "button";
      H.dealBtn.id = "net-deal";
      H.dealBtn.addEventListener("click", deal);
      const again = el("button", "btn btn-ghost net-again", nt("panel.new_game"));
      again.type = "button";
      again.addEventListener("click", newFriendsGame);
      const help = el("p", "net-help", nt("panel.help"));
      p.append(head, H.seatsBox, H.info, H.relayNote, H.err, H.dealBtn, help, again);
    }
    const kids = [];
    st.kinds.forEach((kind, seat) => {
      const row = seatRow(seat);
      const friend = st.friends[String(seat)];
      const name = st.names[seat];
      // (a host who gave no name is "You", not "you (you)")
      const who = kind === "host" ? (name ? `${name} (${nt("panel.you")})` : nt("panel.you_alone"))
        : !friend ? t(`level.${kind}`) : friend.name || nt("setup.friend");
      row.name.textContent = nt("panel.seat_who", { seat, who });
      const peer = H.peers.get(seat);
      let state = friend ? friend.state : "";
      if (friend && state !== "connected" && peer && peer.state === "connecting") state = "connecting";
      // A friend back after a drop: "reconnected" (until the next drop).
      if (friend) {
        if (friend.state === "dropped") H.was[seat] = "dropped";
        else if (friend.state === "connected" && H.was[seat] === "dropped") H.was[seat] = "back";
      }
      const back = state === "connected" && H.was[seat] === "back";
      row.box.dataset.state = state || kind;
      if (back) row.box.dataset.back = "1"; else delete row.box.dataset.back;
      const via = state === "connected" && peer && peer.path === "relay";
      row.box.dataset.path = state === "connected" && peer ? peer.path || "" : "";
      row.state.textContent = state ? nt(`state.${back ? "reconnected" : state}`) + (via ? ` · ${nt("state.via_relay")}` : "") : "";
      row.state.className = `net-state net-${state || "none"}`;
      const parts = [];
      if (friend && friend.state !== "connected") {
        if (peer) {
          row.invite.querySelector("input").value = peer.link;
          parts.push(row.invite);
          if (peer.kind === "private") parts.push(row.replyWrap);
          row.box.dataset.fail = peer.fail || "";
          if (peer.fail) {
            row.fail.textContent = nt(peer.fail === "relay" ? "err.relay_down" : H.local ? "err.connect_local" : "err.connect_failed", { seat });
            parts.push(row.fail, row.retry);
          }
          // A friend who cannot reach the relays (theirs may be down while this page's is not)
          // asks for the private invite: the host can make one for any waiting seat.
          if (peer.kind === "relay") parts.push(row.privateBtn);
        }
        parts.push(row.newInvite);
        if (st.stage !== "lobby" || friend.state === "dropped" || (peer && peer.fail)) {
          row.choice.value = botLevels().includes(kind) ? kind : "";
          parts.push(row.choice);
        }
      } else if (friend && botLevels().includes(kind)) {
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
    H.relayNote.hidden = H.relays !== "down";
    p.dataset.stage = st.stage;
    // While playing the panel folds away (it opens by itself when a friend needs attention).
    const attention = Object.values(st.friends).some((f) => f.state !== "connected") || !!H.notice;
    if (st.stage === "playing" && H.foldedFor !== attention) {
      H.foldedFor = attention;
      p.classList.toggle("net-folded", !attention);
      syncFold(p);
    }
    badge(attention ? "attention" : H.relays === "down" ? "warn" : "");
  }
}
