"""Generated NDJSON logs for the distributed tests: shards of access-log records, plain and gzip'd."""

import gzip
import json
import os
import random
import subprocess


def write_log_shards(directory, count, records_per_shard, seed=11):
    """Writes shard-0.ndjson ... (every third one as .ndjson.gz); returns their paths in order."""
    rng = random.Random(seed)
    paths = []
    for shard in range(count):
        lines = []
        for i in range(records_per_shard):
            record = {"id": shard * records_per_shard + i,
                      "status": rng.choice([200, 200, 200, 201, 304, 404, 500, 503]),
                      "user": {"id": rng.randrange(10000), "name": "user%d" % rng.randrange(100)},
                      "path": "/api/v1/items/%d" % rng.randrange(1 << 20),
                      "bytes": rng.randrange(1 << 16),
                      "latency": round(rng.uniform(0.001, 2.5), 6)}
            lines.append(json.dumps(record, separators=(",", ":")))
        text = ("\n".join(lines) + "\n").encode()
        if shard % 3 == 2:
            path = os.path.join(directory, "shard-%d.ndjson.gz" % shard)
            with open(path, "wb") as f:
                f.write(gzip.compress(text, 6))
        else:
            path = os.path.join(directory, "shard-%d.ndjson" % shard)
            with open(path, "wb") as f:
                f.write(text)
        paths.append(path)
    return paths


def reads_gzip(jview):
    """Whether this jview decompresses gzip input itself."""
    done = subprocess.run([jview, "-c", "."], input=gzip.compress(b"[1]\n"), capture_output=True)
    return done.returncode == 0 and done.stdout == b"[1]\n"


def concatenated(paths, target):
    """The shards' decompressed bytes in order, as one plain file."""
    with open(target, "wb") as out:
        for path in paths:
            with open(path, "rb") as f:
                data = f.read()
            out.write(gzip.decompress(data) if path.endswith(".gz") else data)
    return target
