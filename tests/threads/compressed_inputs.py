"""tests/threads/compressed_inputs.py: the compressed inputs of the threads differential (difftest.py): each text
in each format jview reads (gzip, zstd, xz, bzip2), whole, as concatenated members (gzip members, zstd frames, xz
streams, bzip2 streams, cut at a random byte of the text so a value may span two members), truncated (in the
header, in the middle, one byte short of the end) and corrupt (a byte flipped in the middle, the magic right and
the rest garbage, a wrong trailer, garbage after the last member). gzip, xz and bzip2 come from Python's own
modules; zstd from the `zstd` command (Debian package zstd), its formats left out with a SKIPPED line when missing."""
import bz2
import gzip
import lzma
import shutil
import subprocess


def _zstd(data):
    return subprocess.run(["zstd", "-q", "-c", "-3"], input=data, capture_output=True, check=True).stdout


CODECS = {
    "gz": lambda data: gzip.compress(data, 6, mtime=0),
    "xz": lambda data: lzma.compress(data, format=lzma.FORMAT_XZ),
    "bz2": lambda data: bz2.compress(data, 9),
    "zst": _zstd,
}


def available():
    """The codecs this machine can make (zstd needs its command)."""
    have = dict(CODECS)
    if not shutil.which("zstd"):
        print("SKIPPED: threads differential over zstd input: the zstd command is not installed (Debian: zstd)")
        del have["zst"]
    return have


def variants(rnd, texts, codecs):
    """(name, bytes) inputs: every text of `texts` ((name, bytes) pairs) compressed whole by every codec, and for a
    few of them the concatenated, truncated and corrupt forms."""
    out = []
    for ext, compress in codecs.items():
        for name, data in texts:
            out.append(("%s.%s" % (name, ext), compress(data)))
        for name, data in [t for t in texts if t[0] in ("nd", "pretty", "odd", "bad0")]:
            whole = compress(data)
            cut = rnd.randrange(1, max(2, len(data)))
            third = rnd.randrange(cut, max(cut + 1, len(data)))
            out.append(("%s-members.%s" % (name, ext), compress(data[:cut]) + compress(data[cut:])))
            out.append(("%s-members3.%s" % (name, ext),
                        compress(data[:cut]) + compress(b"") + compress(data[cut:third]) + compress(data[third:])))
            out.append(("%s-trunc-header.%s" % (name, ext), whole[:5]))
            out.append(("%s-trunc-mid.%s" % (name, ext), whole[: len(whole) // 2]))
            out.append(("%s-trunc-end.%s" % (name, ext), whole[:-1]))
            out.append(("%s-members-trunc.%s" % (name, ext), compress(data[:cut]) + compress(data[cut:])[:-3]))
            mid = len(whole) // 2
            out.append(("%s-flip.%s" % (name, ext), whole[:mid] + bytes([whole[mid] ^ 0x55]) + whole[mid + 1:]))
            out.append(("%s-garbage.%s" % (name, ext), whole[:6] + bytes(rnd.randrange(256) for _ in range(200))))
            out.append(("%s-trailer.%s" % (name, ext), whole[:-2] + bytes([whole[-2] ^ 1, whole[-1]])))
            out.append(("%s-after.%s" % (name, ext), whole + b"\n{\"not\": \"compressed\"}\n"))
    return out


BROKEN = ("-trunc-", "-members-trunc.", "-flip.", "-garbage.", "-trailer.", "-after.")


def intact(name):
    """True for a variant that decodes without error (whole or concatenated members)."""
    return not any(b in name for b in BROKEN)
