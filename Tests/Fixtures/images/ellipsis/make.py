#!/usr/bin/env python3
"""Renders ellipsis.png and ellipsis.xml: a 1080 x 1500 px Android screen at density 3.0 with
texts drawn ellipsized at the end of their line as Android draws them (the font's "…"), in
Latin (Liberation Sans), Chinese (WenQuanYi Micro Hei) and Thai-free Cyrillic, beside texts
shown whole, a text whose own words end in "…", a dotted leader and a version number — dark
grey on white. The dump gives each element's full text.

Made here for the tests (no outside material); kept with the files it wrote. Needs Pillow,
fonts-liberation and fonts-wqy-microhei (Debian) to run again — the tests read the files.
"""
from PIL import Image, ImageDraw, ImageFont

LATIN = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
CJK = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
ROWS = [
    # id, drawn, full text in the dump, font, size px, frame width
    # (a frame width of None hugs the drawn line, as an ellipsized line fills its frame)
    ("cut-latin", "Conversations with Alice a…", "Conversations with Alice and Bob about the trip", LATIN, 48, None),
    ("cut-cjk", "设置中心的通知与声音…", "设置中心的通知与声音和更多选项", CJK, 48, None),
    ("cut-cyrillic", "Уведомления и зв…", "Уведомления и звуки устройства", LATIN, 48, None),
    ("whole", "Conversations", "Conversations", LATIN, 48, 600),
    ("own", "Loading…", "Loading…", LATIN, 48, 220),
    ("leader", "Total.....", "Total.....", LATIN, 48, 240),
    ("version", "Version 1.2.3", "Version 1.2.3", LATIN, 48, 320),
]

image = Image.new("RGB", (1080, 1500), (255, 255, 255))
pen = ImageDraw.Draw(image)
nodes = []
y = 40
for ident, drawn, full, path, size, width in ROWS:
    font = ImageFont.truetype(path, size)
    if width is None:
        width = int(font.getlength(drawn)) + 8
    height = int(size * 1.5)
    pen.text((48, y + (height - size) // 2), drawn, fill=(0x33, 0x33, 0x33), font=font)
    nodes.append(
        f'<node index="0" text="{full}" resource-id="com.example:id/{ident}" class="android.widget.TextView" '
        f'package="com.example" enabled="true" bounds="[40,{y}][{48 + width},{y + height}]"/>')
    y += height + 40
image.save("ellipsis.png")
with open("ellipsis.xml", "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">'
              '<node index="0" text="" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,1500]" enabled="true">'
              + "".join(nodes) + "</node></hierarchy>\n")
