#!/usr/bin/env python3
"""The screenshot benchmark's input: a 1170 x 2532 PNG of a settings-like screen (150 rows
of anti-aliased text in greys, each with an icon) and its uiautomator dump of 300+
elements at density 3, written to OUT.png and OUT.xml.

    make-screen.py OUT [--seed S]
"""
import random
import sys

from PIL import Image, ImageDraw, ImageFont


def main():
    out = sys.argv[1]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 7
    rng = random.Random(seed)
    width, height = 1170, 2532
    image = Image.new("RGB", (width, height), (250, 250, 252))
    pen = ImageDraw.Draw(image)
    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 30)
    except OSError:
        font = ImageFont.load_default(size=30)
    nodes = []
    rows = 150
    row_height = height // rows * 1  # 16 px rows would be too thin: two columns instead
    columns, per_column = 2, 75
    cell_w, cell_h = width // columns, height // per_column
    for index in range(rows):
        column, row = divmod(index, per_column)
        x, y = column * cell_w, row * cell_h
        grey = rng.choice([0x33, 0x66, 0x76, 0x77, 0x88, 0x99, 0xAA])
        text = f"Setting {index}"
        pen.text((x + 70, y + 2), text, fill=(grey, grey, grey), font=font)
        icon = rng.choice([(0x8E, 0x8E, 0x93), (0xC7, 0xC7, 0xCC), (0x00, 0x7A, 0xFF)])
        pen.ellipse([x + 10, y + 2, x + 10 + 28, y + 2 + 28], fill=icon)
        nodes.append(f'<node index="0" text="{text}" resource-id="row{index}:id/title" class="android.widget.TextView" package="com.example" '
                     f'clickable="false" enabled="true" bounds="[{x + 64},{y}][{x + cell_w - 8},{y + cell_h}]"/>')
        nodes.append(f'<node index="1" text="" resource-id="row{index}:id/icon" content-desc="Icon {index}" class="android.widget.ImageButton" '
                     f'package="com.example" clickable="true" enabled="true" bounds="[{x + 6},{y}][{x + 42},{y + cell_h}]"/>')
    image.save(out + ".png", "PNG")
    with open(out + ".xml", "w", encoding="utf-8") as file:
        file.write('<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">')
        file.write(f'<node index="0" text="" class="android.widget.FrameLayout" package="com.example" enabled="true" bounds="[0,0][{width},{height}]">')
        file.write("".join(nodes))
        file.write("</node></hierarchy>\n")


if __name__ == "__main__":
    main()
