"""The runner shared by the differentials against jq 1.8.2 (jq18_details_diff.py, jq18_wider_diff.py): runs each
case under jview and jq in a scratch directory and reports the cases whose exit status, stdout or stderr differ.

A case is (args, stdin, env): env may hold the markers FILES (the scratch directory's files are used; they always
exist), LENIENT (jview gets --lenient, jq not) and STDOUT_ONLY (stderr is not compared: jview's parse errors of
bad input are its own, on purpose). Stderr is compared with `jview: ` read as `jq: `, without the `did you mean
...?` lines jview adds after an undefined function, and for usage errors without the help line and the `error: `
jview puts after its name (issue 23's wording); with stderr="compile" only for compile errors (exit 3)."""
import os
import re
import subprocess
import tempfile

MARKERS = ("FILES", "LENIENT", "STDOUT_ONLY")


def run(exe, args, stdin, env, cwd, is_jq, stderr):
    e = dict(os.environ)
    e.update({k: v for k, v in env.items() if k not in MARKERS})
    if is_jq and "LENIENT" in env:
        args = [a for a in args if a != "--lenient"]
    sin = stdin if isinstance(stdin, bytes) else stdin.encode()
    try:
        p = subprocess.run([exe] + args, input=sin, capture_output=True, env=e, cwd=cwd, timeout=10)
    except subprocess.TimeoutExpired:
        return ("timeout",)
    err = re.sub(rb"(?m)^jview: ", b"jq: ", p.stderr)
    err = re.sub(rb"(?m)^did you mean .*\?\n", b"", err)
    # Usage errors (status 2): jview words them `jview: error: ...` with its own help line (issue 23).
    err = re.sub(rb"Use (jq|jview) --help for help with command-line options[.,]\n"
                 rb"(or see the jq manpage, or online docs at https://jqlang.org\n)?", b"", err)
    if p.returncode == 2:
        err = re.sub(rb"(?m)^jq: error: ", b"jq: ", err)
    if "STDOUT_ONLY" in env or (stderr == "compile" and p.returncode != 3):
        err = b""
    return (p.returncode, p.stdout, err)


def compare(cases, jview, jq, setup=None, stderr="always", show=True):
    """Runs every case; prints each difference (unless show is false) and returns (agreeing, differing cases)."""
    with tempfile.TemporaryDirectory() as d:
        if setup is not None:
            setup(d)
        same = 0
        diffs = []
        for args, stdin, env in cases:
            a = run(jview, args, stdin, env, d, False, stderr)
            b = run(jq, args, stdin, env, d, True, stderr)
            if a == b:
                same += 1
            else:
                diffs.append((args, stdin, env, a, b))
    if show:
        for args, stdin, env, a, b in diffs:
            print("DIFF", args, repr(stdin)[:40], {k: v for k, v in env.items()})
            print("   jv", repr(a)[:300])
            print("   jq", repr(b)[:300])
    return same, diffs
