#!/usr/bin/env python3
"""Fills in the expected outputs of a jq case file from jq 1.8.2 (../shared/tools/jq-1.8).

Usage: gen_cases.py FILE.test [--jq PATH]
Each block is `program`, `input` (one JSON text), then expected lines, then a blank line; `%%FAIL` blocks hold
`program` and the expected first error line. The file is rewritten in place with jq's outputs (compact, -c),
runtime errors as "jq: error (at <unknown>): ...". Comment lines (#) and blank-line structure are kept.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_JQ = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'shared', 'tools', 'jq-1.8'))


def run_jq(jq, program, inp):
    p = subprocess.run([jq, '-c', program], input=inp.encode(), capture_output=True, timeout=20)
    out = p.stdout.decode().splitlines()
    err = p.stderr.decode().splitlines()
    err = [re.sub(r'^jq: error \(at <stdin>:\d+\)', 'jq: error (at <unknown>)', l) for l in err]
    return p.returncode, out, err


def main():
    path = sys.argv[1]
    jq = DEFAULT_JQ
    if '--jq' in sys.argv:
        jq = sys.argv[sys.argv.index('--jq') + 1]
    lines = open(path).read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line == '' or line.startswith('#'):
            out.append(line)
            i += 1
            continue
        block = []
        while i < len(lines) and lines[i] != '':
            block.append(lines[i])
            i += 1
        if block[0].startswith('%%FAIL'):
            program = block[1]
            rc, o, e = run_jq(jq, program, 'null')
            if rc != 3:
                sys.exit(f'{path}: %%FAIL program compiled under jq: {program}')
            out += [block[0], program, e[0]]
            continue
        program, inp = block[0], block[1]
        rc, o, e = run_jq(jq, program, inp)
        if rc == 3:
            sys.exit(f'{path}: compile error under jq: {program}: {e[:1]}')
        out += [program, inp] + o + [l for l in e if l.startswith('jq: error')]
    open(path, 'w').write('\n'.join(out))


if __name__ == '__main__':
    main()
