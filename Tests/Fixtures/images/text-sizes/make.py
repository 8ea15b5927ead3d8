#!/usr/bin/env python3
"""Renders text-sizes.png and text-sizes.xml: a 1080 x 1800 px Android screen at density
3.0 (so 1 sp = 3 px) holding texts of known sizes either side of WCAG's large-text
thresholds (24 sp, 18.66 sp bold), in Latin (Liberation Sans, metric-compatible with Arial)
and Chinese (WenQuanYi Micro Hei), grey #8A8A8A on white (3.45:1: fails 4.5:1, passes 3:1).

Made here for the tests (no outside material); kept with the files it wrote. Needs Pillow,
fonts-liberation and fonts-wqy-microhei (Debian) to run again — the tests read the files.
"""
from PIL import Image, ImageDraw, ImageFont

LATIN = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
LATIN_BOLD = "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"
CJK = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
DENSITY = 3
ROWS = [
    # id, text, font, size in sp
    ("latin-20", "Settings", LATIN, 20),
    ("latin-26", "Settings", LATIN, 26),
    ("caps-22", "HOME", LATIN, 22),
    ("caps-26", "HOME", LATIN, 26),
    ("cjk-20", "设置中心", CJK, 20),
    ("cjk-26", "设置中心", CJK, 26),
    ("bold-17", "Account", LATIN_BOLD, 17),
    ("bold-21", "Account", LATIN_BOLD, 21),
]

image = Image.new("RGB", (1080, 1800), (255, 255, 255))
pen = ImageDraw.Draw(image)
nodes = []
y = 60
for ident, text, path, size in ROWS:
    px = size * DENSITY
    font = ImageFont.truetype(path, px)
    height = int(px * 1.5)
    pen.text((48, y + (height - px) // 2), text, fill=(0x8A, 0x8A, 0x8A), font=font)
    nodes.append(
        f'<node index="0" text="{text}" resource-id="com.example:id/{ident}" class="android.widget.TextView" '
        f'package="com.example" enabled="true" bounds="[40,{y}][1040,{y + height}]"/>')
    y += height + 30
image.save("text-sizes.png")
with open("text-sizes.xml", "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">'
              '<node index="0" text="" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,1800]" enabled="true">'
              + "".join(nodes) + "</node></hierarchy>\n")
