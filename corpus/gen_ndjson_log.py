#!/usr/bin/env python3
"""corpus/gen_ndjson_log.py: writes an NDJSON service log: one compact JSON object per line (timestamp, level,
service, host, nested user and http objects, message, tags), about 300 bytes a line. Levels are mostly "info"
(5% "error", so select(.level == "error") keeps few lines); some messages hold escapes and non-ASCII text.
Deterministic: the same arguments give the same bytes on any Python 3. Written where asked (the build directory).

usage: gen_ndjson_log.py OUT [--size-mb 200] [--seed 1]      (the benchmark uses 200 MB, 1000 on request)
"""
import argparse
import random

SERVICES = ["checkout", "search", "auth", "catalog", "payments", "gateway", "inventory", "mailer"]
METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE"]
PATHS = ["/api/v1/items/%d", "/api/v1/users/%d/orders", "/api/v2/search?q=item%d", "/health", "/api/v1/cart/%d"]
MESSAGES = ["request completed", "cache miss for key item:%d", "slow query (%d ms)", "user said \\\"hi\\\" twice",
            "retrying upstream call #%d", "payload: caf\u00e9 cr\u00e8me br\u00fbl\u00e9e x%d",
            "path contained a tab:\\t%d", "\u65e5\u672c\u8a9e\u306e\u30e1\u30c3\u30bb\u30fc\u30b8 %d"]
TAGS = ['"api"', '"v1"', '"v2"', '"internal"', '"batch"', '"canary"']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size-mb", type=float, default=200.0, help="approximate size in MB (10^6 bytes)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rnd = random.Random(args.seed).random
    target = int(args.size_mb * 1e6)
    written = 0
    t = 1714560000.0  # 2024-05-01T10:40:00Z, advanced a little per line
    lines = []
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        while written < target:
            t += rnd() * 0.01
            secs = int(t)
            day_secs = secs % 86400
            x = rnd()
            level = "error" if x < 0.05 else "warn" if x < 0.15 else "debug" if x < 0.20 else "info"
            uid = int(rnd() * 100000)
            status = 500 if level == "error" else 404 if level == "warn" and rnd() < 0.5 else 200
            ntags = int(rnd() * 3)
            line = (
                '{"ts":"2024-05-%02dT%02d:%02d:%02d.%03dZ","level":"%s","service":"%s","host":"web-%02d","pid":%d,'
                '"user":{"id":%d,"login":"user%d","admin":%s},'
                '"http":{"method":"%s","path":"%s","status":%d,"bytes":%d,"latency_ms":%.3f},'
                '"msg":"%s","tags":[%s]}\n' % (
                    1 + (secs - 1714521600) // 86400 % 28, day_secs // 3600, day_secs // 60 % 60, day_secs % 60,
                    int((t - secs) * 1000), level, SERVICES[int(rnd() * len(SERVICES))], int(rnd() * 40),
                    1000 + int(rnd() * 30000), uid, uid, "true" if uid % 97 == 0 else "false",
                    METHODS[int(rnd() * len(METHODS))], PATHS[int(rnd() * len(PATHS))].replace("%d", str(uid)),
                    status, int(rnd() * 20000), rnd() * rnd() * 2000.0,
                    MESSAGES[int(rnd() * len(MESSAGES))].replace("%d", str(int(rnd() * 1000))),
                    ",".join(TAGS[int(rnd() * len(TAGS))] for _ in range(ntags))))
            lines.append(line)
            written += len(line.encode("utf-8"))
            if len(lines) >= 4096:
                f.write("".join(lines))
                lines.clear()
        f.write("".join(lines))


if __name__ == "__main__":
    main()
