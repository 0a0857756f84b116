"""Draw the web app icons (static/icons/*.png) from the favicon's design with Pillow: two cards, red behind
blue, "10" on the front one. Run ``.venv/bin/python scripts/make_icons.py`` after changing the design; the PNGs
are committed (the server only serves them)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
BACKGROUND = (243, 241, 234, 255)  # the page background (--bg)
RED, BLUE, WHITE = (221, 51, 51, 255), (34, 102, 170, 255), (255, 255, 255, 255)


def draw(size: int, safe: float = 1.0, background: bool = True, mono: bool = False) -> Image.Image:
    """The icon at ``size`` px; the design fits the central ``safe`` fraction (maskable icons keep 80 %)."""
    image = Image.new("RGBA", (size, size), BACKGROUND if background else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    unit = size * safe / 32  # the favicon's 32-unit grid, centred
    off = (size - 32 * unit) / 2

    def box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        return (off + x * unit, off + y * unit, off + (x + w) * unit, off + (y + h) * unit)

    back, front = (WHITE, WHITE) if mono else (RED, BLUE)
    pen.rounded_rectangle(box(4, 2, 20, 28), radius=3 * unit, fill=back)
    pen.rounded_rectangle(box(9, 4, 20, 26), radius=3 * unit, fill=(0, 0, 0, 0) if mono else front,
                          outline=WHITE if not mono else (0, 0, 0, 0), width=max(1, round(unit)))
    font = ImageFont.load_default(size=round(12 * unit))
    pen.text((off + 19 * unit, off + 18 * unit), "10", font=font, anchor="mm",
             fill=(0, 0, 0, 0) if mono else WHITE)
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192).save(OUT / "icon-192.png", optimize=True)
    draw(512).save(OUT / "icon-512.png", optimize=True)
    draw(512, safe=0.8).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180).save(OUT / "apple-touch-icon.png", optimize=True)
    draw(96, background=False, mono=True).save(OUT / "badge-96.png", optimize=True)


if __name__ == "__main__":
    main()
