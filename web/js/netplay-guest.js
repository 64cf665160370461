// Play with friends, a friend's page (docs/netplay.md): the invite link opened (a reply code, then
// the table with this seat's own hand), and the reply link opened on the host's device (it hands
// the code to the waiting game tab).

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import * as Relay from "./netplay-relay.js";
import * as RTC from "./netplay-rtc.js";
import { BC_NAME, badge, dialog, disclosure, errorOf, field, foldHead, keepNames, nt, ntHas, panel, syncFold } from "./netplay-ui.js";

const REQUEST_TIMEOUT_MS = 20000;
const SLOW_MS = 20000;
// How long a seated friend's page waits for a host that left (a reload takes seconds) before it
// says plainly that the host is gone; it keeps waiting in the room after that. Browser tests may
// shorten it with ?testhooks&host_wait=<seconds> (docs/netplay.md, "Tests").
const HOST_WAIT_MS = 60000;
// Refusals of a hello: the friend is not seated, the join dialog says why (nothing changed at the
// host's table).
const NOT_SEATED = ["seat_taken", "bad_secret", "not_a_friend_seat", "game_over"];
// States in which the panel opens by itself and the page says what went wrong.
const TROUBLE = ["lost", "reconnecting", "host_gone", "failed", "relay_down", "bad_secret", "seat_taken", "game_over"];
const FAILED = ["failed", "relay_down", "bad_secret", "seat_taken", "game_over"];

// ----------------------------------------------------------------------------------- guest

export function installGuest(ctl) {
  const eng = (req) => ctl.engine.request(req);
  // The link: one link per seat (#s=…, through the site's relays) or a private invite (#j=…).
  let inv = null;
  try {
    inv = location.hash.startsWith("#s=") ? { ...Relay.parseLink(location.hash), relay: true } : RTC.parseInvite(location.hash);
  } catch (err) { inv = null; }
  ctl.ui.noShare = true;          // the host shares the game, not a friend
  // A new invite opened in this tab only changes the #fragment: start afresh with it.
  window.addEventListener("hashchange", () => location.reload());
  const G = { channel: null, pc: null, room: null, hostPeer: null, cfg: null, view: null, names: [], pending: new Map(), results: [], friends: {}, state: "new" };
  const applyNames = keepNames(() => G.names, () => (inv ? inv.seat : null));
  const testWait = ctl.params.has("testhooks") ? Number(ctl.params.get("host_wait")) : NaN;
  const hostWaitMs = testWait > 0 ? testWait * 1000 : HOST_WAIT_MS;

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
      if (G.room && G.hostPeer) { G.room.send(G.hostPeer, text); continue; }
      if (G.channel && G.channel.readyState === "open") {
        try { G.channel.send(text); } catch (err) { /* its close event follows */ }
      }
    }
  }

  async function request(kind, fields) {
    if (G.room ? !G.hostPeer : !G.channel || G.channel.readyState !== "open") {
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
    // Not seated: the join dialog says why, and no longer that it is looking for the host.
    if (FAILED.includes(state) && G.joinOut) G.joinOut.replaceChildren();
    document.body.dataset.netConn = state;
    renderGuestPanel();
  }

  async function onText(text) {
    // Every text from the host goes to the browser tests when they listen (e2e/netplay_helpers.py
    // checks that none names a card of another hand); nothing else is done with it here.
    if (typeof window.__sambaNetLog === "function") window.__sambaNetLog(String(text));
    const res = await eng({ op: "net", action: "guest_receive", text: typeof text === "string" ? text : "" });
    if (!res.ok) return;
    sendOut(res.out);
    for (const ev of res.events || []) {
      switch (ev.type) {
        case "welcome":
          G.names = ev.names || G.names;
          /** @type {HTMLDialogElement} */ ($("net-join"))?.close();
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
          if (ev.code === "seat_taken" && G.room && G.retries++ < 10) {
            // The host has not yet seen this seat's old connection go (a reload, a dropped
            // network): say hello again once it has.
            setTimeout(() => eng({ op: "net", action: "guest_hello" }).then((r) => sendOut(r.out)), 1500);
            break;
          }
          if (G.state !== "connected" && G.joinErr && NOT_SEATED.includes(ev.code)) {
            // Not seated (the seat is someone else's now, the link is no longer valid, the game
            // is over): said in the join dialog, which stays open; nothing changed at the table.
            G.failText = ntHas(`err.${ev.code}`) ? nt(`err.${ev.code}`) : ev.message;
            G.joinErr.textContent = G.failText;
            setConn(ev.code === "seat_taken" || ev.code === "game_over" ? ev.code : "bad_secret");
            break;
          }
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
    box.append(el("p", "net-intro", nt("join.intro", { seat: inv.seat })));
    const nameLab = el("label", "field net-inline");
    const nameIn = el("input", "net-input");
    Object.assign(nameIn, { type: "text", name: "name", maxLength: 24, autocomplete: "nickname", required: true });
    try { nameIn.value = localStorage.getItem("samba.net.name") || ""; } catch (err) { /* ignore */ }
    nameLab.append(el("span", null, nt("join.name")), nameIn);
    // Who learns what when this page connects (the site's STUN/TURN servers and relays).
    const said = el("p", "net-disclose");
    said.id = "net-disclose";
    Relay.loadConfig().then((cfg) => { G.cfg = cfg; said.textContent = disclosure(cfg, inv.relay ? "relay" : "private", inv.sameNetworkOnly); });
    const err = el("p", "net-error");
    const out = el("div", "net-reply-out");
    const go = el("button", "btn btn-primary", nt("join.go"));
    go.type = "submit";
    go.id = "net-join-go";
    const buttons = el("div", "dlg-buttons");
    buttons.append(go);
    box.append(nameLab, said, err, buttons, out);
    d.append(box);
    box.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      go.disabled = true;
      const name = nameIn.value.trim().slice(0, 24);
      try { localStorage.setItem("samba.net.name", name); } catch (e) { /* ignore */ }
      const res = await eng({ op: "net", action: "guest_setup", seat: inv.seat, secret: inv.secret, name });
      if (!res.ok) { err.textContent = errorOf(res).message; go.disabled = false; return; }
      G.joinErr = err;
      G.cfg = G.cfg || await Relay.loadConfig();
      if (inv.relay) { await relayJoin(err, go, out, nameLab, buttons); return; }
      let made;
      try {
        made = await RTC.makeAnswer(inv.offer, Relay.iceFor(G.cfg, inv.sameNetworkOnly), (ch) => {
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
      buttons.hidden = true;
      setConn("waiting");
    });
    d.showModal();
  }

  /** One link per seat: meet the host in the seat's room on the site's relays. */
  async function relayJoin(err, go, out, nameLab, buttons) {
    G.retries = 0;
    G.joinErr = err;
    G.joinOut = out;
    nameLab.hidden = true;
    buttons.hidden = true;
    out.replaceChildren(el("p", "net-info", nt("join.finding")));
    setConn("waiting");
    // A host that is away, or a link whose secret is out of date, look the same from here when
    // the host's page is the one that could not read the other's connection data: say both.
    setTimeout(() => {
      if (G.hostPeer || G.state !== "waiting") return;
      const slow = el("p", "net-info", nt("join.slow"));
      slow.id = "net-slow";
      out.append(slow);
    }, SLOW_MS);
    G.room = await Relay.joinSeat({
      role: "guest", game: inv.game, seat: inv.seat, secret: inv.secret, cfg: G.cfg, sameNetworkOnly: inv.sameNetworkOnly,
      onPeer: async (peerId) => {
        if (G.hostPeer) return;
        G.hostPeer = peerId;
        clearTimeout(G.awayTimer);
        const r = await eng({ op: "net", action: "guest_hello" });
        sendOut(r.out);
      },
      onText: (peerId, text) => { if (peerId === G.hostPeer) onText(text); },
      onLeave: (peerId) => {
        if (peerId !== G.hostPeer) return;
        G.hostPeer = null;
        // The host may come back (a reload): this page stays in the room and says hello again.
        for (const done of G.pending.values()) done({ ok: false, error: { code: "connection_lost", message: nt("guest.lost") } });
        G.pending.clear();
        setConn(G.view ? "reconnecting" : "waiting");
        // A host that does not come back: after a while the page says so plainly (and what the
        // friend can do), and goes on waiting: the same link seats the friend when the host's
        // page is open again.
        clearTimeout(G.awayTimer);
        G.awayTimer = setTimeout(() => { if (!G.hostPeer) setConn("host_gone"); }, hostWaitMs);
      },
      onFail: (kind) => {
        if (G.hostPeer || G.state === "connected") return;
        const why = kind === "relay" ? nt("err.relay_down_guest") : kind === "secret" ? nt("err.bad_secret")
          : inv.sameNetworkOnly ? nt("err.connect_local_guest") : nt("err.connect_failed_guest");
        err.textContent = why;
        G.failText = why;
        setConn(kind === "relay" ? "relay_down" : kind === "secret" ? "bad_secret" : "failed");
      },
    });
  }

  function renderGuestPanel() {
    const p = panel();
    G.panelDrawnWithView = !!G.view;
    if (G.view && !G.folded) { G.folded = true; p.classList.add("net-folded"); }
    const items = [foldHead(p)];
    const lastResult = G.results[G.results.length - 1];
    const trouble = TROUBLE.includes(G.state);
    if (trouble || (lastResult && !lastResult.ok && G.shownWarning !== lastResult.deal)) {
      p.classList.remove("net-folded");
      if (lastResult && !lastResult.ok) G.shownWarning = lastResult.deal;
    }
    syncFold(p);
    badge(trouble ? "attention" : lastResult ? (lastResult.ok ? "ok" : "warn") : "");
    const conn = el("p", `net-conn net-${G.state}`);
    conn.id = "net-conn";
    conn.textContent = G.state === "lost" ? nt("guest.lost") : G.state === "reconnecting" ? nt("guest.reconnecting")
      : G.state === "host_gone" ? nt("guest.host_gone")
      : G.state === "connected" ? (G.view ? nt("guest.connected") : nt("join.lobby"))
        : FAILED.includes(G.state) ? G.failText || nt("err.connect_failed_guest")
          : G.room ? nt("join.finding") : nt("join.waiting");
    items.push(conn);
    const list = el("div", "net-seats");
    (G.names || []).forEach((name, seat) => {
      const f = G.friends[String(seat)];
      const kind = (G.kinds || [])[seat];
      const row = el("div", "net-seat");
      row.dataset.seat = String(seat);
      const label = seat === inv.seat ? `${name || nt("setup.friend")} (${nt("panel.you")})`
        : kind === "host" ? name || nt("panel.host") : f ? f.name || nt("setup.friend") : t(`level.${kind || "random"}`);
      row.append(el("span", "net-seat-name", nt("panel.seat_who", { seat, who: label })));
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
    items.push(el("p", "net-help", nt("guest.help")));
    p.replaceChildren(...items);
  }
}

function problemText(result) {
  const code = (result.codes || [])[0];
  return code && ntHas(`problem.${code}`) ? nt(`problem.${code}`) : result.problems[0] || "";
}

// ----------------------------------------------------------------------------------- reply

export function installReply(ctl) {
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
      msg.textContent = nt("reply.done", { seat: parsed.seat });
      document.body.dataset.netReply = "done";
    } else fallback();
  });
  bc.postMessage({ type: "reply", code });
}
