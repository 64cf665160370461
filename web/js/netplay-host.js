// Play with friends, the host's page (docs/netplay.md): this device runs the game; the setup,
// the invites and replies, the seats' states, the host's save (resumed after a reload).

import { el } from "./dom.js";
import { num, t } from "./i18n.js";
import * as RTC from "./netplay-rtc.js";
import { nt } from "./netplay-text.js";
import { BC_NAME, badge, dialog, errorOf, field, foldHead, keepNames, panel, readStun, syncFold,
         writeStun } from "./netplay-ui.js";

const HOST_KEY = "samba.net.host.v1";
const LEVELS = ["easy", "medium", "hard", "random"];

export function installHost(ctl) {
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
      you.append(el("span", "net-seat-no", nt("panel.seat", { seat: 0 })), el("span", null, nt("setup.you")));
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
        row.append(el("span", "net-seat-no", nt("panel.seat", { seat: i })), sel);
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
    fillTargets();
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
      if (s === "failed" && p.state !== "open") { H.notice = nt("err.connect_failed", { seat }); renderPanel(); }
      if (s === "failed" || s === "closed") closed();
    });
  }

  async function takeReply(code) {
    let r;
    try { r = RTC.parseReply(code); } catch (err) { H.notice = nt("err.reply_bad"); renderPanel(); return false; }
    if (r.game !== H.game) { H.notice = nt("err.reply_game"); renderPanel(); return false; }
    const p = H.peers.get(r.seat);
    if (!p) { H.notice = nt("err.reply_seat", { seat: r.seat }); renderPanel(); return false; }
    if (p.pc.signalingState !== "have-local-offer") { H.notice = nt("err.reply_used", { seat: r.seat }); renderPanel(); return false; }
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
      if (kind === "host") row.name.textContent = `${nt("panel.seat", { seat })}: ${name || nt("panel.you")} (${nt("panel.you")})`;
      else if (!friend) row.name.textContent = `${nt("panel.seat", { seat })}: ${t(`level.${kind}`)}`;
      else row.name.textContent = `${nt("panel.seat", { seat })}: ${friend.name || nt("setup.friend")}`;
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
