"""Play between browsers (docs/netplay.md): the host's and the guests' protocol logic.

The host's browser runs the engine; each guest's browser gets only its own seat's view and sends
move texts. Both sides are plain classes over a transport that carries JSON texts, so the same
code runs under CPython (tests, with an in-memory transport) and in Pyodide (the page carries the
texts over WebRTC data channels).
"""

from .fair import commitment, derive_seed, new_value
from .guest import NetGuest
from .host import NetHost
from .messages import PROTOCOL, VERSION, NetError
from .transport import MemoryNet, Outbox, Transport

__all__ = [
    "NetHost",
    "NetGuest",
    "NetError",
    "PROTOCOL",
    "VERSION",
    "Transport",
    "MemoryNet",
    "Outbox",
    "commitment",
    "derive_seed",
    "new_value",
]
