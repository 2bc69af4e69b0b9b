"""The page's icons, drawn here (issue 49, item 7): a white card with a club
on the table's green, as src/skat/web/static/icon.svg and as PNGs of 192
and 512 pixels for the web manifest (written with zlib: no imaging library).

    .venv/bin/python scripts/icons.py          # writes the three files
    .venv/bin/python scripts/icons.py --check  # exit 1 if they differ

The same shapes make both: rounded rectangles and circles in a 0..1 square,
the club's stem a triangle. The content stays inside the middle 80 %, so
the icon is also "maskable" (a phone may cut it to a circle).
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "src" / "skat" / "web" / "static"
FELT = (0x16, 0x4A, 0x2E)
CARD = (0xFB, 0xFA, 0xF6)
INK = (0x1B, 0x1B, 0x1B)
RIM = (0xF2, 0xC1, 0x4E)

# (x0, y0, x1, y1, radius) in the unit square
CARD_BOX = (0.27, 0.17, 0.73, 0.83, 0.06)
# the club: three leaves and a stem
LEAVES = ((0.5, 0.385, 0.095), (0.405, 0.53, 0.095), (0.595, 0.53, 0.095))
HUB = (0.5, 0.5, 0.06)
STEM = ((0.5, 0.5), (0.43, 0.70), (0.57, 0.70))


def _in_round_box(x: float, y: float, box: tuple[float, float, float, float, float]) -> bool:
    x0, y0, x1, y1, r = box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _in_triangle(x: float, y: float, tri: tuple[tuple[float, float], ...]) -> bool:
    (ax, ay), (bx, by), (cx, cy) = tri

    def side(px: float, py: float, qx: float, qy: float) -> float:
        return (x - qx) * (py - qy) - (px - qx) * (y - qy)

    d1, d2, d3 = side(ax, ay, bx, by), side(bx, by, cx, cy), side(cx, cy, ax, ay)
    neg = d1 < 0 or d2 < 0 or d3 < 0
    pos = d1 > 0 or d2 > 0 or d3 > 0
    return not (neg and pos)


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    """The colour of the icon at (x, y) of the unit square."""
    if any((x - cx) ** 2 + (y - cy) ** 2 <= r * r for cx, cy, r in (*LEAVES, HUB)):
        return INK
    if _in_triangle(x, y, STEM):
        return INK
    if _in_round_box(x, y, CARD_BOX):
        return CARD
    x0, y0, x1, y1, r = CARD_BOX
    if _in_round_box(x, y, (x0 - 0.02, y0 - 0.02, x1 + 0.02, y1 + 0.02, r + 0.02)):
        return RIM
    return FELT


def png(size: int, samples: int = 3) -> bytes:
    """The icon as a PNG of ``size`` pixels, each pixel the mean of
    ``samples`` x ``samples`` points (smooth edges)."""
    rows = []
    step = 1 / (size * samples)
    for py in range(size):
        row = bytearray([0])  # filter type 0 for every row
        for px in range(size):
            acc = [0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    c = colour_at((px * samples + sx + 0.5) * step, (py * samples + sy + 0.5) * step)
                    acc[0] += c[0]
                    acc[1] += c[1]
                    acc[2] += c[2]
            n = samples * samples
            row += bytes(round(v / n) for v in acc)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    body = zlib.compress(b"".join(rows), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def svg() -> str:
    """The same icon as SVG (a 100 x 100 view)."""

    def hexc(c: tuple[int, int, int]) -> str:
        return "#%02x%02x%02x" % c

    def n(v: float) -> str:
        return f"{v * 100:g}"

    x0, y0, x1, y1, r = CARD_BOX
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
        f'<rect width="100" height="100" fill="{hexc(FELT)}"/>',
        f'<rect x="{n(x0 - 0.02)}" y="{n(y0 - 0.02)}" width="{n(x1 - x0 + 0.04)}"'
        f' height="{n(y1 - y0 + 0.04)}" rx="{n(r + 0.02)}" fill="{hexc(RIM)}"/>',
        f'<rect x="{n(x0)}" y="{n(y0)}" width="{n(x1 - x0)}" height="{n(y1 - y0)}"'
        f' rx="{n(r)}" fill="{hexc(CARD)}"/>',
        *(
            f'<circle cx="{n(cx)}" cy="{n(cy)}" r="{n(cr)}" fill="{hexc(INK)}"/>'
            for cx, cy, cr in (*LEAVES, HUB)
        ),
        '<polygon points="'
        + " ".join(f"{n(px)},{n(py)}" for px, py in STEM)
        + f'" fill="{hexc(INK)}"/>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def files() -> dict[Path, bytes]:
    return {
        STATIC / "icon.svg": svg().encode(),
        STATIC / "icon-192.png": png(192),
        STATIC / "icon-512.png": png(512),
    }


def main(argv: list[str]) -> int:
    made = files()
    if "--check" in argv:
        stale = [p.name for p, data in made.items() if not p.exists() or p.read_bytes() != data]
        if stale:
            print(f"icons differ from scripts/icons.py: {stale}", file=sys.stderr)
            return 1
        return 0
    for path, data in made.items():
        path.write_bytes(data)
        print(f"wrote {path} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
