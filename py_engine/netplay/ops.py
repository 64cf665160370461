"""The bridge's ``net`` op (docs/netplay.md): the page drives a NetHost or a NetGuest held by
the worker's Bridge, and carries the texts they send (``out``) over its data channels."""

from __future__ import annotations

from .guest import NetGuest
from .host import NetHost
from .messages import NetError
from .transport import Outbox

REQUEST_FIELDS = ("move", "version", "level")


def net_op(bridge, req: dict) -> dict:
    action = req.get("action")
    fn = _ACTIONS.get(action) if isinstance(action, str) else None
    net = getattr(bridge, "net", None)
    try:
        if fn is None:
            raise NetError("unknown_action", f"unknown net action {str(action)[:40]!r}")
        out = fn(bridge, net, req) or {}
    except NetError as e:
        out = {"ok": False, "error": {"code": e.code, "message": e.message, "detail": e.detail}}
    else:
        out = {"ok": True, **out}
    net = getattr(bridge, "net", None)
    if isinstance(net, NetHost):
        out["out"] = [{"conn": c, "text": t} for c, t in net.transport.drain()]
        out["status"] = net.status()
    elif isinstance(net, NetGuest):
        out["out"] = [t for _, t in net.transport.drain()]
    return out


def _host(net) -> NetHost:
    if not isinstance(net, NetHost):
        raise NetError("no_game", "no friends' game is hosted here")
    return net


def _guest(net) -> NetGuest:
    if not isinstance(net, NetGuest):
        raise NetError("no_game", "this page has not joined a friends' game")
    return net


def _host_view(bridge, host: NetHost) -> dict:
    return (
        {"view": bridge._table().view(), "version": bridge.game.version}
        if host.stage == "playing"
        else {}
    )


def host_setup(bridge, net, req):
    host = NetHost(bridge, Outbox())
    invites = host.configure(
        req.get("rules", "samba"),
        req.get("players"),
        req.get("target"),
        req.get("seats"),
        req.get("name", ""),
    )
    bridge.net = host
    return {"invites": invites}


def host_restore(bridge, net, req):
    host = NetHost(bridge, Outbox())
    invites = host.restore(req.get("snapshot"))
    bridge.net = host
    return {"invites": invites, **_host_view(bridge, host)}


def host_invite(bridge, net, req):
    return {"seat": req.get("seat"), "secret": _host(net).invite(req.get("seat"))}


def host_start(bridge, net, req):
    host = _host(net)
    host.start()
    return _host_view(bridge, host)


def host_receive(bridge, net, req):
    host = _host(net)
    conn = req.get("conn")
    if not isinstance(conn, str):
        raise NetError("bad_message", "'conn' names the connection")
    stage = host.stage
    changed = host.receive(conn, req.get("text"))
    return {
        "changed": changed,
        **(_host_view(bridge, host) if changed or stage != host.stage else {}),
    }


def host_closed(bridge, net, req):
    _host(net).closed(str(req.get("conn")))
    return {}


def host_local(bridge, net, req):
    host = _host(net)
    return {"response": host.local(req.get("request"))}


def host_substitute(bridge, net, req):
    host = _host(net)
    host.substitute(req.get("seat"), req.get("level"))
    return _host_view(bridge, host)


def host_status(bridge, net, req):
    _host(net)
    return {}


def host_test_scenario(bridge, net, req):
    host = _host(net)
    host.use_scenario(req.get("scenario"))
    return _host_view(bridge, host)


def host_snapshot(bridge, net, req):
    return {"snapshot": _host(net).snapshot()}


def guest_setup(bridge, net, req):
    seat, secret = req.get("seat"), req.get("secret")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(secret, str):
        raise NetError("bad_invite", "the invite has no seat or secret")
    bridge.net = NetGuest(Outbox(), seat, secret, str(req.get("name", ""))[:24])
    return {}


def guest_hello(bridge, net, req):
    _guest(net).hello()
    return {}


def guest_receive(bridge, net, req):
    return {"events": _guest(net).receive(req.get("text"))}


def guest_request(bridge, net, req):
    given = req.get("fields")
    fields = {k: given[k] for k in REQUEST_FIELDS if isinstance(given, dict) and k in given}
    return {"id": _guest(net).request(req.get("kind"), **fields)}


_ACTIONS = {
    name: fn
    for name, fn in globals().items()
    if name.startswith(("host_", "guest_")) and callable(fn) and name != "host_view"
}
