#!/usr/bin/env python3
"""The man page dist/jview.1 against the executable: every long option `jview --help` lists is in the page, and
every option the page's OPTIONS section describes is in --help (the one option table), so the two cannot drift
apart; and `man --warnings -l` renders it (MANWIDTH=80) with nothing on stderr."""
import argparse
import os
import re
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--page", required=True)
    args = ap.parse_args()
    help_text = subprocess.run([args.jview, "--help"], check=True, capture_output=True, text=True).stdout
    options = sorted(set(re.findall(r"(?:^|[\s,])(--[a-z0-9][a-z0-9-]*)", help_text)))
    page = open(args.page, encoding="utf-8").read()
    # In roff a hyphen is written \- ; the page's text with those undone.
    plain = page.replace("\\-", "-")
    missing = [o for o in options if not re.search(re.escape(o) + r"(?![a-z0-9-])", plain)]
    print(f"{len(options)} long options in --help; missing from the man page: {missing or 'none'}")
    section = plain.split("\n.SH OPTIONS", 1)[-1].split("\n.SH ", 1)[0].split("\n")
    described = {o for i, line in enumerate(section) if i > 0 and section[i - 1] == ".TP"
                 for o in re.findall(r"--[a-z0-9][a-z0-9-]*", line)}
    not_in_help = sorted(described - set(options))
    print(f"{len(described)} options described in the page's OPTIONS; missing from --help: {not_in_help or 'none'}")
    failed = bool(missing) or bool(not_in_help) or len(described) < 30
    if len(options) < 30:
        print("FAIL: fewer long options than expected parsed from --help")
        failed = True
    if shutil.which("man") is None:
        print("SKIP (part): man is not installed (man-db); the rendering was not checked")
        return 1 if failed else 77
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8")
    r = subprocess.run(["man", "--warnings", "-l", args.page], capture_output=True, text=True, env=env)
    if r.returncode != 0 or r.stderr.strip():
        print(f"FAIL: man --warnings -l exit {r.returncode}, stderr:\n{r.stderr}")
        failed = True
    elif "EXIT STATUS" not in r.stdout or "ENVIRONMENT" not in r.stdout:
        print("FAIL: rendered page lacks its sections")
        failed = True
    else:
        print(f"man --warnings -l: no warnings ({len(r.stdout.splitlines())} lines)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
