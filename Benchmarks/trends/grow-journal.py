#!/usr/bin/env python3
"""Grows a journal N-fold for the trend benchmark (docs/PERFORMANCE.md, scripts/bench §8).

usage: grow-journal.py JOURNAL COPIES OUT [--same-app]

OUT gets JOURNAL's records, then COPIES copies of them as other apps' builds ("fleet-K",
builds "COPY-B"), each record with the next seq, as the daemon would have written them:
the trend of JOURNAL's own apps is the same in OUT, and the journal is COPIES + 1 times
as long. With --same-app the copies are later builds of the same apps ("COPY-B"): the
app's history is COPIES + 1 times as long, and the trend of each of JOURNAL's builds is
the same in OUT (a build is compared with the builds before it).
"""
import re
import sys

source, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
same_app = "--same-app" in sys.argv[4:]
lines = [line for line in open(source, encoding="utf-8").read().split("\n") if line]
seq = 0
with open(out, "w", encoding="utf-8") as sink:
    for copy in range(-1, copies):
        for line in lines:
            seq += 1
            if copy >= 0:
                if not same_app:
                    line = re.sub(r'"app":"[^"]*"', f'"app":"fleet-{copy % 7}"', line, count=1)
                line = line.replace('"build":"', f'"build":"{copy}-', 1)
            sink.write(re.sub(r'^\{"seq":[0-9]+,', '{"seq":%d,' % seq, line) + "\n")
