#!/usr/bin/env python3
"""What reading again, as padded crops, the regions no OCR line explains would add (issue 54).

The whole-screen pass reads each screenshot once (sparse text, one engine). The question:
do small regions it leaves unread — leaf elements with no text of their own that no OCR
word touches (badges, chips, icons) — hold text that Tesseract reads in a crop of their own,
padded with their border's colour and scaled 2× when small? Prints, for each Android pair of
Tests/Fixtures/screens, the candidates and what the crops read, then the same for white
badges on light grey drawn here (the case the issue names).

Needs Pillow and the tesseract CLI; a measurement, not a test (docs/ocr.md says what it found).
usage: crop_reread.py
"""
import csv
import io
import pathlib
import re
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET

from PIL import Image, ImageDraw, ImageFont

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOLD = "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"
ENV = {"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"}


def words(path, floor=50):
    out = subprocess.run(["tesseract", str(path), "-", "--psm", "11", "tsv"], capture_output=True, text=True, env=ENV).stdout
    found = []
    for row in csv.DictReader(io.StringIO(out), delimiter="\t"):
        if row["level"] == "5" and row["text"].strip() and float(row["conf"]) >= floor:
            found.append((int(row["left"]), int(row["top"]), int(row["width"]), int(row["height"]), row["text"], float(row["conf"])))
    return found


def padded(crop):
    """The crop on a margin of its border's commonest colour, 2× when under 80 px high."""
    border = [crop.getpixel((i, 0)) for i in range(crop.width)] + [crop.getpixel((0, j)) for j in range(crop.height)]
    background = max(set(border), key=border.count)
    pad = max(8, crop.height // 2)
    canvas = Image.new("RGB", (crop.width + 2 * pad, crop.height + 2 * pad), background)
    canvas.paste(crop, (pad, pad))
    scale = 2 if crop.height < 80 else 1
    return canvas.resize((canvas.width * scale, canvas.height * scale), Image.BICUBIC)


def candidates(xml, read):
    """Leaf elements without text, badge to icon sized, that no word read touches."""
    for node in ET.parse(xml).iter("node"):
        if len(node) or node.get("text", "").strip():
            continue
        bounds = [int(v) for v in re.findall(r"-?\d+", node.get("bounds", ""))]
        if len(bounds) != 4:
            continue
        x0, y0, x1, y1 = bounds
        if not (8 < x1 - x0 <= 700 and 8 < y1 - y0 <= 220):
            continue
        if any(not (wx > x1 or wx + ww < x0 or wy > y1 or wy + wh < y0) for wx, wy, ww, wh, *_ in read):
            continue
        yield (x0, y0, x1, y1), node.get("class", "").split(".")[-1], node.get("content-desc", "")


def main():
    total = reads = 0
    seconds = 0.0
    with tempfile.TemporaryDirectory() as work:
        tile = pathlib.Path(work) / "tile.png"
        for xml in sorted((ROOT / "Tests/Fixtures/screens/android").glob("*.xml")):
            image_path = next((xml.with_suffix(s) for s in (".png", ".jpg") if xml.with_suffix(s).exists()), None)
            if image_path is None:
                continue
            image = Image.open(image_path).convert("RGB")
            try:
                regions = list(candidates(xml, words(image_path)))
            except ET.ParseError:
                continue
            for box, kind, description in regions:
                padded(image.crop(box)).save(tile)
                start = time.perf_counter()
                read = words(tile)
                seconds += time.perf_counter() - start
                total += 1
                if read:
                    reads += 1
                    text = " ".join(w[4] for w in read)
                    print(f"   {xml.stem[:44]:44} {kind:12} {description[:24]!r:26} read {text!r} ({min(w[5] for w in read):.0f})")
        print(f"   {total} regions re-read in {seconds:.1f} s; {reads} read something")
        # White badges on light grey, beside dark text the whole-screen pass reads.
        screen = Image.new("RGB", (1080, 1100), (255, 255, 255))
        pen = ImageDraw.Draw(screen)
        font = ImageFont.truetype(BOLD, 30)
        boxes = []
        for i, (text, grey) in enumerate([("NEW", 200), ("12", 190), ("SALE", 210), ("3", 180), ("BETA", 205)]):
            pen.text((60, 80 + i * 200), f"Row {i + 1}", fill=(30, 30, 30), font=font)
            width = int(font.getlength(text)) + 28
            box = (800, 78 + i * 200, 800 + width, 126 + i * 200)
            pen.rounded_rectangle(box, radius=24, fill=(grey, grey, grey))
            pen.text((814, 86 + i * 200), text, fill=(255, 255, 255), font=font)
            boxes.append((text, box))
        whole = pathlib.Path(work) / "badges.png"
        screen.save(whole)
        print(f"   badges, whole screen: {[w[4] for w in words(whole)]}")
        for text, box in boxes:
            padded(screen.crop(box)).save(tile)
            print(f"   badge {text!r} as a crop: {[(w[4], round(w[5])) for w in words(tile, floor=0)]}")


if __name__ == "__main__":
    main()
