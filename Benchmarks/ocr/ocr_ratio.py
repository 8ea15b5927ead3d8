#!/usr/bin/env python3
"""The OCR phase of an audit against Tesseract's own CLI on the same image (issue 54).

For each dump + screenshot pair of the test fixtures, the daemon's `ocr` phase (from
`auditctl audit --ocr --timing`, the best of `runs`) is set against `tesseract IMAGE - --psm 11
-l LANGS` with one OpenMP thread (the daemon's page mode and thread limit, the languages the
daemon picks for the screen's writing systems), less the CLI's own start (the same command on
a blank 64 × 64 image). The target: the whole set within 1.13× of the engine.

usage: ocr_ratio.py BIN SOCKET [--limit N] [--runs N]
"""
import argparse
import os
import pathlib
import re
import struct
import subprocess
import tempfile
import time
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def blank_png(path):
    """A white 64 × 64 grey PNG, written without a library."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xff" * 64 for _ in range(64))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def installed():
    out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True).stdout
    return set(out.split()[1:]) if out else set()


def languages(xml, have):
    """English, and the data for each writing system the dump's text holds (as the daemon)."""
    text = xml.read_text(errors="replace")
    langs = ["eng"]
    if re.search(r"[\u3040-\u30ff]", text) and "jpn" in have:
        langs.append("jpn")
    elif re.search(r"[\u4e00-\u9fff]", text):
        langs += [next((l for l in ("chi_sim", "chi_tra") if l in have), "eng")]
    if re.search(r"[\uac00-\ud7af]", text) and "kor" in have:
        langs.append("kor")
    return "+".join(dict.fromkeys(langs))


def seconds(command, env=None):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("socket")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    pairs = []
    for xml in sorted((ROOT / "Tests/Fixtures/screens").glob("*/*.xml")):
        image = next((xml.with_suffix(s) for s in (".png", ".jpg") if xml.with_suffix(s).exists()), None)
        if image:
            pairs.append((xml, image))
    if args.limit:
        pairs = pairs[: args.limit]
    have = installed()
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    with tempfile.TemporaryDirectory() as work:
        blank = pathlib.Path(work) / "blank.png"
        blank_png(blank)
        total_daemon = total_engine = 0.0
        for xml, image in pairs:
            langs = languages(xml, have)
            phases = []
            for _ in range(args.runs):
                run = subprocess.run(
                    [f"{args.bin}/auditctl", "--socket", args.socket, "audit", "--ocr", "--timing", "-q", "--fail-on", "never", str(xml)],
                    capture_output=True, text=True)
                found = re.search(r"\bocr ([0-9.]+)", run.stderr)
                if not found:
                    raise SystemExit(f"no ocr phase for {xml.name}: {run.stderr[-400:]}")
                phases.append(float(found.group(1)) / 1000)
            daemon = min(phases)
            command = ["tesseract", str(image), "-", "--psm", "11", "-l", langs]
            cli = min(seconds(command, env) for _ in range(args.runs))
            start = min(seconds(["tesseract", str(blank), "-", "--psm", "11", "-l", langs], env) for _ in range(args.runs))
            engine = max(cli - start, 0.001)
            total_daemon += daemon
            total_engine += engine
            print(f"   {xml.stem[:58]:58} {langs:12} daemon {daemon * 1000:7.0f} ms  engine {engine * 1000:7.0f} ms  {daemon / engine:5.2f}×")
        print(f"   {len(pairs)} screens: daemon {total_daemon:.2f} s, engine {total_engine:.2f} s: {total_daemon / total_engine:.2f}× (target ≤ 1.13)")


if __name__ == "__main__":
    main()
