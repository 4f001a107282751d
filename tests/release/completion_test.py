#!/usr/bin/env python3
"""The shell completions (dist/completions/): the files in the tree are what generate.py writes from `jview --help`
now (so they cannot drift), and each loads in its shell and completes `--nu` to `--numbers`: bash (the completion
function run on COMP_WORDS, and `complete -p jview`), zsh (compinit in a clean ZDOTDIR registers _jview, whose
option list has --numbers), fish (`complete -C 'jview --nu'`). A shell that is not installed is skipped with a
line saying so; with none installed the test exits 77 (skipped)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--dir", required=True)
    args = ap.parse_args()
    failed = []
    ran = 0

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failed.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(args.dir, "generate.py"), args.jview, tmp], check=True)
        for name in ("jview.bash", "_jview", "jview.fish"):
            same = open(os.path.join(tmp, name)).read() == open(os.path.join(args.dir, name)).read()
            check(same, f"{name} is what generate.py writes from --help (else: rerun dist/completions/generate.py)")
    bash_file = os.path.join(args.dir, "jview.bash")
    if shutil.which("bash"):
        ran += 1
        script = f'source "{bash_file}" || exit 3; complete -p jview >/dev/null || exit 4; ' \
                 'COMP_WORDS=(jview --nu); COMP_CWORD=1; _jview; printf "%s\\n" "${COMPREPLY[@]}"; ' \
                 'COMP_WORDS=(jview --numbers ""); COMP_CWORD=2; _jview; printf "=%s\\n" "${COMPREPLY[@]}"'
        r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True)
        words = r.stdout.split()
        check(r.returncode == 0 and r.stderr == "", f"bash loads it (exit {r.returncode}, stderr {r.stderr!r})")
        check("--numbers" in words and "--null-input" in words and all(w.startswith(("--nu", "=")) for w in words),
              f"bash completes --nu: {[w for w in words if not w.startswith('=')]}")
        check("=source" in words and "=shortest" in words, "bash completes --numbers' argument: source shortest")
    else:
        print("skip bash: not installed")
    if shutil.which("zsh"):
        ran += 1
        with tempfile.TemporaryDirectory() as zdot:
            script = f'fpath=("{args.dir}" $fpath); autoload -Uz compinit; compinit -u -d "{zdot}/.zcompdump"; ' \
                     'print -r -- "registered=${_comps[jview]}"; autoload -Uz +X _jview && print loaded'
            r = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True,
                               env=dict(os.environ, ZDOTDIR=zdot, HOME=zdot))
            check(r.returncode == 0 and "registered=_jview" in r.stdout and "loaded" in r.stdout and r.stderr == "",
                  f"zsh compinit registers and loads _jview ({r.stdout.strip()!r}, {r.stderr.strip()!r})")
        check("'--numbers[" in open(os.path.join(args.dir, "_jview")).read(), "zsh's _jview offers --numbers")
    else:
        print("skip zsh: not installed")
    if shutil.which("fish"):
        ran += 1
        with tempfile.TemporaryDirectory() as home:
            r = subprocess.run(["fish", "--no-config", "-c",
                                f'source "{os.path.join(args.dir, "jview.fish")}"; complete -C "jview --nu"'],
                               capture_output=True, text=True, env=dict(os.environ, HOME=home,
                                                                        XDG_CONFIG_HOME=home, XDG_DATA_HOME=home))
            first = [line.split("\t")[0] for line in r.stdout.splitlines()]
            check(r.returncode == 0 and "--numbers" in first and r.stderr == "",
                  f"fish completes --nu: {first} {r.stderr.strip()!r}")
    else:
        print("skip fish: not installed")
    if failed:
        return 1
    return 0 if ran else 77


if __name__ == "__main__":
    sys.exit(main())
