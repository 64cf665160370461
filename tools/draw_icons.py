#!/usr/bin/env python3
"""Redraws the app icons web/img/icon-*.png and web/img/apple-touch-icon.png (committed; the
build only copies them), from the drawing of web/img/icon.svg, with zlib and struct only.
The pages' tab icon is icon-32.png: Chromium draws an SVG icon on the page's main thread (its
text and font included), tens of milliseconds of a phone's main thread just as a returning
player's game resumes; a PNG is decoded elsewhere.

    python tools/draw_icons.py
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "web" / "img"

# The drawing of web/img/icon.svg (64-unit square): felt, two cards, a heart.
ICONS = {
    "icon-32.png": (32, False),
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}
_FELT, _CARD, _EDGE, _HEART = (
    (0x1D, 0x6B, 0x3C),
    (0xFF, 0xFD, 0xF7),
    (0xB9, 0xB2, 0xA2),
    (0xC4, 0x16, 0x1C),
)


def _in_round_rect(x: float, y: float, cx: float, cy: float, w: float, h: float, r: float) -> bool:
    dx, dy = abs(x - cx) - (w / 2 - r), abs(y - cy) - (h / 2 - r)
    if dx > r or dy > r:
        return False
    return dx <= 0 or dy <= 0 or dx * dx + dy * dy <= r * r


def _icon_colour(x: float, y: float, full_bleed: bool):
    """RGBA of the point (x, y) in the 64-unit drawing."""
    if not full_bleed and not _in_round_rect(x, y, 32, 32, 64, 64, 12):
        return None
    if full_bleed:  # maskable: the drawing shrunk into the 80 % safe zone
        x, y = 32 + (x - 32) / 0.8, 32 + (y - 32) / 0.8
    colour = _FELT
    a = math.radians(10)  # card 1: rotated -10 degrees about (29, 31)
    rx = 29 + (x - 29) * math.cos(a) - (y - 31) * math.sin(a)
    ry = 31 + (x - 29) * math.sin(a) + (y - 31) * math.cos(a)
    if _in_round_rect(rx, ry, 29, 31, 30, 42, 4):
        colour = _CARD
    if _in_round_rect(x, y, 37, 33, 30, 42, 4):
        colour = _CARD if _in_round_rect(x, y, 37, 33, 28.6, 40.6, 3.3) else _EDGE
        u, v = (x - 37) / 7.0, -(y - 34.5) / 7.0
        if (u * u + v * v - 1) ** 3 - u * u * v**3 <= 0:
            colour = _HEART
    return colour


def draw_icon(size: int, full_bleed: bool, ss: int = 3) -> bytes:
    """The app icon as an RGBA PNG of size x size pixels (ss x ss samples a pixel)."""
    rows = []
    step = 64 / size / ss
    for py in range(size):
        row = bytearray(b"\0")  # filter type 0
        for px in range(size):
            r = g = b = n = 0
            for sy in range(ss):
                for sx in range(ss):
                    c = _icon_colour(
                        (px * ss + sx + 0.5) * step, (py * ss + sy + 0.5) * step, full_bleed
                    )
                    if c:
                        r, g, b, n = r + c[0], g + c[1], b + c[2], n + 1
            k = ss * ss
            row += bytes((r // n, g // n, b // n, 255 * n // k)) if n else b"\0\0\0\0"
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def write_icons(dest: Path = IMG) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for name, (size, full_bleed) in ICONS.items():
        (dest / name).write_bytes(draw_icon(size, full_bleed))
        print(f"{dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}/{name} ({size} px)")


if __name__ == "__main__":
    write_icons(Path(sys.argv[1]) if len(sys.argv) > 1 else IMG)
