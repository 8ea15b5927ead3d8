#!/usr/bin/env python3
"""Makes the test suite's images from a JSON description (stdin), so that every expected
colour is known exactly. Used by the screenshot tests; needs Pillow for text and JPEG.

Input: a list of image descriptions, each written to its "out" path:

  {"out": "/tmp/x.png", "width": 390, "height": 200, "background": "#FFFFFF",
   "shapes": [{"kind": "rect", "box": [x, y, w, h], "color": "#RRGGBB"},
              {"kind": "text", "at": [x, y], "text": "Pay", "size": 40, "color": "#767676", "weight": "bold" | "light"},
              {"kind": "gradient", "box": [x, y, w, h], "from": "#000000", "to": "#FFFFFF"},
              {"kind": "disc", "box": [x, y, w, h], "color": "#RRGGBB"}],
   "format": "png" | "jpeg" | "raw-png",
   "quality": 95, "cmyk": false, "exif_orientation": 1,
   "png": {"color_type": 0|2|3|4|6, "bit_depth": 1|2|4|8|16, "interlace": false}}

"raw-png" is written by this script's own PNG encoder (every colour type, bit depth and
Adam7 interlacing, independent of libpng). Hostile files: {"out": …, "hostile": KIND}
with KIND one of truncated, bad-crc, bomb, zero-size, one-pixel, huge-palette, gif, empty.
"""
import json
import struct
import sys
import zlib

from PIL import Image, ImageDraw, ImageFont


def rgb(text):
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def font(size, weight="bold"):
    paths = {
        "bold": ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        "light": ("/usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    }[weight]
    for path in paths:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


def draw(spec):
    image = Image.new("RGB", (spec["width"], spec["height"]), rgb(spec.get("background", "#FFFFFF")))
    pen = ImageDraw.Draw(image)
    for shape in spec.get("shapes", []):
        kind = shape["kind"]
        if kind == "rect":
            x, y, w, h = shape["box"]
            pen.rectangle([x, y, x + w - 1, y + h - 1], fill=rgb(shape["color"]))
        elif kind == "disc":
            x, y, w, h = shape["box"]
            pen.ellipse([x, y, x + w - 1, y + h - 1], fill=rgb(shape["color"]))
        elif kind == "text":
            pen.text(tuple(shape["at"]), shape["text"], fill=rgb(shape["color"]), font=font(shape.get("size", 32), shape.get("weight", "bold")))
        elif kind == "gradient":
            x, y, w, h = shape["box"]
            a, b = rgb(shape["from"]), rgb(shape["to"])
            for column in range(w):
                t = column / max(1, w - 1)
                color = tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))
                pen.line([x + column, y, x + column, y + h - 1], fill=color)
        else:
            raise SystemExit(f"unknown shape {kind}")
    return image


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def raw_png(image, color_type, bit_depth, interlace):
    """A PNG of `image` in the given colour type and depth, written without libpng."""
    width, height = image.size
    pixels = image.load()
    palette = []
    if color_type == 3:
        palette = sorted({pixels[x, y] for y in range(height) for x in range(width)})
        if len(palette) > (1 << bit_depth):
            raise SystemExit("too many colours for the palette depth")
    index = {color: i for i, color in enumerate(palette)}
    maximum = (1 << bit_depth) - 1

    def samples(x, y):
        r, g, b = pixels[x, y]
        grey = round(0.299 * r + 0.587 * g + 0.114 * b)
        scale = lambda v: round(v * maximum / 255)
        if color_type == 0:
            return [scale(grey)]
        if color_type == 2:
            return [scale(r), scale(g), scale(b)]
        if color_type == 3:
            return [index[(r, g, b)]]
        if color_type == 4:
            return [scale(grey), maximum]
        return [scale(r), scale(g), scale(b), maximum]

    def row_bytes(xs, y):
        bits = []
        for x in xs:
            for value in samples(x, y):
                bits.append(value)
        if bit_depth >= 8:
            width_bytes = bit_depth // 8
            return b"".join(v.to_bytes(width_bytes, "big") for v in bits)
        out, acc, count = bytearray(), 0, 0
        for v in bits:
            acc = (acc << bit_depth) | v
            count += bit_depth
            if count == 8:
                out.append(acc)
                acc, count = 0, 0
        if count:
            out.append(acc << (8 - count))
        return bytes(out)

    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, width, dx))
        if not xs:
            continue
        for y in range(y0, height, dy):
            raw.append(0)
            raw += row_bytes(xs, y)
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    if color_type == 3:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    out += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    return out


def hostile(kind):
    good = raw_png(Image.new("RGB", (64, 64), (200, 30, 30)), 2, 8, False)
    if kind == "truncated":
        return good[: len(good) // 2]
    if kind == "bad-crc":
        broken = bytearray(good)
        at = broken.index(b"IDAT") + 6
        broken[at] ^= 0xFF
        return bytes(broken)
    if kind == "bomb":
        # 100,000 × 100,000 claimed in 100-odd bytes.
        header = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 301)) + chunk(b"IEND", b"")
    if kind == "zero-size":
        header = struct.pack(">IIBBBBB", 0, 10, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")
    if kind == "one-pixel":
        return raw_png(Image.new("RGB", (1, 1), (1, 2, 3)), 2, 8, False)
    if kind == "huge-palette":
        header = struct.pack(">IIBBBBB", 4, 4, 8, 3, 0, 0, 0)
        palette = bytes(range(256)) * 4  # 341 entries: more than 256
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"PLTE", palette[:1023]) \
            + chunk(b"IDAT", zlib.compress(b"\0\0\0\0\0" * 4)) + chunk(b"IEND", b"")
    if kind == "gif":
        return b"GIF89a" + b"\0" * 32
    if kind == "empty":
        return b""
    raise SystemExit(f"unknown hostile kind {kind}")


ORIENTATION_TRANSPOSE = {
    # What to do to the upright image so that a viewer applying the tag sees it upright.
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def write(spec):
    out = spec["out"]
    if "hostile" in spec:
        with open(out, "wb") as file:
            file.write(hostile(spec["hostile"]))
        return
    image = draw(spec)
    kind = spec.get("format", "png")
    if kind == "png":
        image.save(out, "PNG")
    elif kind == "raw-png":
        png = spec.get("png", {})
        with open(out, "wb") as file:
            file.write(raw_png(image, png.get("color_type", 2), png.get("bit_depth", 8), png.get("interlace", False)))
    elif kind == "jpeg":
        orientation = spec.get("exif_orientation", 1)
        stored = image.transpose(ORIENTATION_TRANSPOSE[orientation]) if orientation in ORIENTATION_TRANSPOSE else image
        if spec.get("cmyk"):
            stored = stored.convert("CMYK")
        exif = Image.Exif()
        if orientation != 1:
            exif[0x0112] = orientation
        stored.save(out, "JPEG", quality=spec.get("quality", 95), exif=exif.tobytes() if orientation != 1 else b"")
    else:
        raise SystemExit(f"unknown format {kind}")


def main():
    for spec in json.load(sys.stdin):
        write(spec)


if __name__ == "__main__":
    main()
