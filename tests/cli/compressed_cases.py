"""CLI cases of compressed input (issue 20 item 3), in cases.py's format: gzip, xz and bzip2 made here with Python's
gzip, lzma and bz2 modules, zstd with the `zstd` command (its cases are left out, with a line saying so, when it is
not installed). For each format: a file and stdin, concatenated members / frames / streams, an empty stream, a
truncated one (every value before the cut written, then `FILE: FORMAT data is truncated`, exit 2) and a corrupt one
(`FILE: FORMAT data is corrupt at byte N`); then --decompress=never, --check and --utf8 on compressed files, and a
parse error's line and column in the decompressed text."""
import bz2
import gzip
import lzma
import shutil
import subprocess


def c(name, args, stdin="", **kw):
    d = {"name": name, "args": args, "stdin": stdin}
    d.update(kw)
    return d


def _zstd(data):
    exe = shutil.which("zstd")
    if not exe:
        return None
    return subprocess.run([exe, "-q", "-c", "--check"], input=data, capture_output=True, check=True).stdout


# name, file suffix, compress(bytes) -> bytes (None: the tool is missing)
FORMATS = [
    ("gzip", "gz", lambda d: gzip.compress(d, mtime=0)),
    ("zstd", "zst", _zstd),
    ("xz", "xz", lambda d: lzma.compress(d, format=lzma.FORMAT_XZ)),
    ("bzip2", "bz2", lambda d: bz2.compress(d, 1)),
]

SMALL = b'{"a":1}\n{"a":2}\n[1,\n2]\n'
SMALL_OUT = '{"a":1}\n{"a":2}\n[1,2]\n'
# 8000 lines, 330 KB: several zstd blocks (128 KB) and bzip2 blocks (100 KB at level 1), so that a cut at three
# quarters leaves the first values decodable.
LINES = b"".join(b'{"i":%d,"msg":"line %d of the log"}\n' % (i, i) for i in range(8000))
LINES_OUT = "".join("%d\n" % i for i in range(8000))

# Where each format's integrity check of the whole data lies, from the end: the bytes all decode, and the check
# fails (gzip: the trailer's CRC-32; zstd: the frame's content checksum; xz: the stream footer's magic "YZ";
# bzip2: the stream's combined CRC, before the last byte's padding bits).
CHECK_FROM_END = {"gzip": 8, "zstd": 1, "xz": 1, "bzip2": 2}


def _corrupt(blob, fmt):
    """blob with a byte of its final integrity check flipped."""
    b = bytearray(blob)
    b[len(b) - CHECK_FROM_END[fmt]] ^= 0x5A
    return bytes(b)


def cases(shared):
    out = []
    for fmt, ext, compress in FORMATS:
        small = compress(SMALL)
        if small is None:
            print(f"skipped: the {fmt} cases ({fmt} is not installed)")
            continue
        name = "t.json." + ext
        out += [
            c(f"{fmt}: a file is read decompressed", ["-c", ".", name], files={name: small}, stdout=SMALL_OUT),
            c(f"{fmt}: stdin is read decompressed", ["-c", "."], small, stdout=SMALL_OUT),
            c(f"{fmt}: concatenated members are read one after another", ["-c", ".a?", name],
              files={name: small + compress(b'{"a":3}')}, stdout="1\n2\n3\n"),
            c(f"{fmt}: concatenated members on stdin", ["-c", ".a?"], small + small, stdout="1\n2\n1\n2\n"),
            c(f"{fmt}: an empty stream is an empty input", [".", "e." + ext], files={"e." + ext: compress(b"")},
              stdout=""),
            c(f"{fmt}: an empty stream on stdin", ["."], compress(b""), stdout=""),
            c(f"{fmt}: -R reads its lines", ["-R", "."], compress(b"x\ny\n"), stdout='"x"\n"y"\n'),
            c(f"{fmt}: --decompress=never reads the bytes as they are", ["--decompress=never", ".", name],
              files={name: small}, stdout="", exit=5, stderr_re=r"^jview: error: t\.json\.%s:1:1: " % ext),
            c(f"{fmt}: --check reads a compressed file", ["--check", name], files={name: small}, stdout="", exit=0),
        ]
        big = compress(LINES)
        cut = big[:len(big) * 3 // 4]
        out += [
            c(f"{fmt}: a truncated file: the values before the cut, then the error", ["-c", ".i", "cut." + ext],
              files={"cut." + ext: cut}, stdout_re=r"^0\n1\n2\n(\d+\n)*$",
              stderr=f"jview: error: cut.{ext}: {fmt} data is truncated\n", exit=2),
            c(f"{fmt}: a truncated stdin", ["-c", ".i"], cut, stdout_re=r"^0\n1\n(\d+\n)*$",
              stderr=f"jview: error: <stdin>: {fmt} data is truncated\n", exit=2),
            c(f"{fmt}: a stream cut inside its magic bytes is not compressed", ["."], small[:2] if fmt != "gzip"
              else small[:1], stdout="", exit=5, stderr_re=r"^jview: error: <stdin>:1:1: "),
            c(f"{fmt}: a corrupt file: the values decoded before the fault, then the error", ["-c", ".i", "bad." + ext],
              files={"bad." + ext: _corrupt(big, fmt)},
              # (zstd checks a frame's checksum in the call that decodes its last block: that block is lost)
              **({"stdout_re": r"^0\n1\n(\d+\n)*$"} if fmt == "zstd" else {"stdout": LINES_OUT}),
              stderr_re=r"^jview: error: bad\.%s: %s data is corrupt at byte \d+\n$" % (ext, fmt), exit=2),
            c(f"{fmt}: --check on a truncated file", ["--check", "cut." + ext], files={"cut." + ext: cut},
              stdout=f"cut.{ext}:1:1: error: {fmt} data is truncated\n", exit=2),
            c(f"{fmt}: a parse error names the line and column of the decompressed text", ["-c", ".", "p." + ext],
              files={"p." + ext: compress(b'{"a":1}\n[1,\n  2,}\n')}, stdout='{"a":1}\n', exit=5,
              stderr=f"jview: error: p.{ext}:3:5: expected a value\n    2,}}\n      ^\n"),
            c(f"{fmt}: --check gives the decompressed line and column", ["--check", "p." + ext],
              files={"p." + ext: compress(b'{"a":1}\n[1,\n  2,}\n')},
              stdout=f"p.{ext}:3:5: error: expected a value\n", exit=1),
            c(f"{fmt}: --utf8 validates the decompressed bytes", ["--utf8", "u." + ext],
              files={"u." + ext: compress(b'"ok"\n"caf\xc3\xa9 \xff"\n')},
              stdout=f"u.{ext}:2:7: error: invalid UTF-8 (byte offset 12)\n", exit=1),
        ]
    gz = gzip.compress(SMALL, mtime=0)
    out += [
        c("compressed and plain files in one run", ["-c", ".a?", "a.json", "b.json.gz"],
          files={"a.json": '{"a":0}', "b.json.gz": gz}, stdout="0\n1\n2\n"),
        c("--slurpfile reads a compressed file", ["-n", "-c", "--slurpfile", "v", "s.gz", "$v"],
          files={"s.gz": gzip.compress(b"1 2", mtime=0)}, stdout="[1,2]\n"),
        c("gzip: trailing bytes after the last member are corrupt data", ["-c", "."], gz + b"xyz",
          stdout=SMALL_OUT, stderr_re=r"^jview: error: <stdin>: gzip data is corrupt at byte \d+\n$", exit=2),
        c("a stdin that begins like bzip2's magic but is not", ["."], "BZx", stdout="", exit=5,
          stderr_re=r"^jview: error: <stdin>:1:1: "),
        c("--decompress takes auto or never", ["--decompress=always", "."], "1", exit=2, stderr_re="decompress"),
        c("--decompress=auto is the default", ["--decompress=auto", "-c", "."], gz, stdout=SMALL_OUT),
        c("--utf8 --decompress=never reads the compressed bytes", ["--utf8", "--decompress=never", "g.gz"],
          files={"g.gz": gz}, stdout_re=r"^g\.gz:1:2: error: invalid UTF-8", exit=1),
        c("-i leaves a compressed file alone (it is not JSON to -i)", ["-i", ".", "g.gz"], files={"g.gz": gz},
          after={"g.gz": gz}, exit=5, stderr_re=r"g\.gz:1:1: "),
    ]
    return out
