// Play with friends (docs/netplay.md): the page side. The protocol itself runs in Python
// (py_engine/netplay, through the bridge's `net` op); this module carries its texts over WebRTC
// data channels and draws the friends' panel. Three roles, chosen by ?net=:
//   host   this device runs the game: setup, invites, replies, the seats' states
//   join   a friend's device (the invite link): reply code, then the table with its own hand
//   reply  the reply link opened on the host's device: hands the code to the waiting game tab
// The table itself is drawn by the same renderer as any game (js/app.js, js/render.js).

// The roles' pages: js/netplay-host.js, js/netplay-guest.js (join and reply); what they share:
// js/netplay-ui.js.

import { loadStyles } from "./dom.js";
import { installGuest, installReply } from "./netplay-guest.js";
import { installHost } from "./netplay-host.js";

export async function install(ctl) {
  loadStyles("../css/netplay.css");
  const role = ctl.params.get("net");
  document.body.dataset.netRole = role === "join" ? "guest" : role || "";
  if (role === "host") return installHost(ctl);
  if (role === "join") return installGuest(ctl);
  if (role === "reply") return installReply(ctl);
  throw new Error(`unknown ?net= role ${role}`);
}
