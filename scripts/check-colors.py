#!/usr/bin/env python3
"""Cross-checks AuditCore's colour maths against coloraide, an independent implementation.

Random colour pairs (seeded) go to `auditbench colors`; its WCAG contrast ratio, CIEDE2000
difference and Machado 2009 colour-vision simulations must agree with coloraide's.
(coloraide has no APCA; APCA is checked against the published reference values in
Tests/AuditCoreTests/ColorMathTests.swift.)

usage: scripts/check-colors.py [--count N] [--seed S] [--tool PATH]
Exit 0 when every pair agrees; prints the first disagreements otherwise.
"""
import argparse
import random
import subprocess
import sys

from coloraide import Color


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tool", default=".build/debug/auditbench")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    pairs = []
    # Edge colours first, then random ones.
    edges = ["#000000", "#FFFFFF", "#767676", "#777777", "#0A0A0A", "#808080", "#FF0000", "#00FF00", "#0000FF"]
    for a in edges:
        for b in edges:
            pairs.append((a, b))
    while len(pairs) < args.count:
        pairs.append(tuple("#%06X" % rng.randrange(0, 1 << 24) for _ in range(2)))

    stdin = "".join(f"{a} {b}\n" for a, b in pairs)
    result = subprocess.run([args.tool, "colors"], input=stdin, capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    if len(lines) != len(pairs):
        print(f"expected {len(pairs)} answers, got {len(lines)}")
        return 1

    failures = []
    worst = {"ratio": 0.0, "delta_e": 0.0, "cvd": 0}
    for (a, b), line in zip(pairs, lines):
        ratio, _apca, delta_e, *simulated = line.split()
        ca, cb = Color(a), Color(b)
        expected_ratio = ca.contrast(cb, method="wcag21")
        # WCAG states the luminance weights as 0.2126/0.7152/0.0722; coloraide derives
        # them from the sRGB primaries (0.21264/0.71517/0.07219), so ratios differ by up
        # to about 2e-4 relative. Verdicts must agree away from the thresholds.
        ratio_error = abs(float(ratio) - expected_ratio) / expected_ratio
        worst["ratio"] = max(worst["ratio"], ratio_error)
        if ratio_error > 5e-4:
            failures.append(f"{a} {b}: ratio {ratio} vs coloraide {expected_ratio}")
        for threshold in (3.0, 4.5, 7.0):
            if abs(expected_ratio - threshold) > 0.005 and (float(ratio) < threshold) != (expected_ratio < threshold):
                failures.append(f"{a} {b}: verdict at {threshold}:1 differs ({ratio} vs {expected_ratio})")
        expected_delta = ca.delta_e(cb, method="2000")
        delta_error = abs(float(delta_e) - expected_delta)
        worst["delta_e"] = max(worst["delta_e"], delta_error)
        if delta_error > 0.05:
            failures.append(f"{a} {b}: ΔE2000 {delta_e} vs coloraide {expected_delta}")
        for name, got in zip(["protan", "deutan", "tritan"], simulated):
            want = ca.filter(name, method="machado").convert("srgb").fit("srgb", method="clip")
            want_rgb = [round(c * 255) for c in want.coords()]
            got_rgb = [int(got[i:i + 2], 16) for i in (1, 3, 5)]
            off = max(abs(x - y) for x, y in zip(want_rgb, got_rgb))
            worst["cvd"] = max(worst["cvd"], off)
            if off > 1:
                failures.append(f"{a}: {name} {got} vs coloraide {want.to_string(hex=True)}")

    print(f"check-colors: {len(pairs)} pairs; worst relative ratio error {worst['ratio']:.2e}, "
          f"worst ΔE2000 error {worst['delta_e']:.2e}, worst CVD channel error {worst['cvd']}")
    for failure in failures[:20]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
