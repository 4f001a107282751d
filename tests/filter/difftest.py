#!/usr/bin/env python3
"""Differential test of the jq language: random programs from a small grammar, run on random JSON inputs by
jview and by jq 1.8.2 (../shared/tools/jq-1.8), outputs compared byte for byte (compact), error messages compared
after the program-name prefix and the input location are stripped.

Usage: difftest.py --jview build/jview [--jq PATH] [--count N] [--seed S] [--batch K] [--verbose]
Exit status 1 when any case differs (each difference is printed with the program and the input).
With --batch K, K programs run in one process of each side (`.[i] | try ([P_i] | tojson) catch ...` over an array
of the K inputs), which cuts the process start-ups (jq 1.8's loader is slow); a batch jq rejects at compile time is
run again program by program.
The grammar sticks to constructs whose results do not depend on details jq leaves open (no `now`, `input`,
`$__loc__`, environment); inputs use canonical number literals so the printing of literals is not under test.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_JQ = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'shared', 'tools', 'jq-1.8'))

KEYS = ['a', 'b', 'c', 'id', 'name', 'x']
STRINGS = ['', 'a', 'b', 'abc', 'a,b', 'Hello World', 'é', 'x y z', '12', 'true']


class gen:
    def __init__(self, rnd):
        self.r = rnd

    # ---- JSON inputs ----
    def json(self, depth=3):
        r = self.r
        k = r.randrange(10 if depth > 0 else 6)
        if k == 0:
            return None
        if k == 1:
            return r.choice([True, False])
        if k in (2, 3):
            return r.choice([0, 1, 2, 3, -1, 10, 100, 0.5, 1.5, -2.5, 42])
        if k in (4, 5):
            return r.choice(STRINGS)
        if k in (6, 7):
            return [self.json(depth - 1) for _ in range(r.randrange(4))]
        return {r.choice(KEYS): self.json(depth - 1) for _ in range(r.randrange(4))}

    # ---- programs ----
    def path(self):
        r = self.r
        parts = []
        for _ in range(r.randrange(1, 3)):
            c = r.randrange(6)
            if c == 0:
                parts.append('.' + r.choice(KEYS))
            elif c == 1:
                parts.append('[%d]' % r.choice([0, 1, -1, 5]))
            elif c == 2:
                parts.append('[]')
            elif c == 3:
                parts.append('[%d:%d]' % (r.choice([0, 1]), r.choice([1, 2, -1])))
            elif c == 4:
                parts.append('.' + r.choice(KEYS) + '?')
            else:
                parts.append('[]?')
        s = ''.join(parts)
        return s if s.startswith('.') else '.' + s

    def literal(self):
        r = self.r
        return r.choice(['null', 'true', 'false', '0', '1', '2', '-1', '1.5', '"a"', '"b"', '""', '[]', '{}',
                         '[1,2]', '{"a":1}'])

    def term(self, d):
        r = self.r
        if d <= 0:
            return r.choice(['.', self.path(), self.literal()])
        c = r.randrange(24)
        if c < 3:
            return self.path()
        if c < 5:
            return self.literal()
        if c == 5:
            return '[%s]' % self.expr(d - 1)
        if c == 6:
            return '{%s: %s}' % (r.choice(KEYS), self.term(d - 1))
        if c == 7:
            return '{(%s|tostring): %s}' % (self.term(d - 1), self.term(d - 1))
        if c == 8:
            return '(%s)' % self.expr(d - 1)
        if c == 9:
            return 'if %s then %s else %s end' % (self.expr(d - 1), self.expr(d - 1), self.expr(d - 1))
        if c == 10:
            return 'try %s catch .' % self.term(d - 1)
        if c == 11:
            return '(%s)?' % self.expr(d - 1)
        if c == 12:
            return 'reduce %s as $v (%s; . + $v)' % (self.term(d - 1), r.choice(['0', 'null', '""', '[]']))
        if c == 13:
            return '[foreach %s as $v (0; . + 1; [$v, .])]' % self.term(d - 1)
        if c == 14:
            return '(%s as $x | %s)' % (self.term(d - 1), self.expr(d - 1).replace('.', '$x', 1))
        if c == 15:
            return '"s\\(%s)"' % self.expr(d - 1)
        if c == 16:
            return '[limit(%d; %s)]' % (r.randrange(3), self.expr(d - 1))
        if c == 17:
            return 'first(%s)' % self.expr(d - 1)
        if c == 18:
            return '[%s] | length' % self.expr(d - 1)
        if c == 19:
            return 'label $out | %s | ., break $out' % self.term(d - 1)
        return self.call(d - 1)

    def call(self, d):
        r = self.r
        zero = ['length', 'keys', 'keys_unsorted', 'type', 'tostring', 'tojson', 'add', 'sort', 'unique', 'min',
                'max', 'reverse', 'not', 'to_entries', 'paths', 'flatten', 'ascii_downcase', 'ascii_upcase',
                'floor', 'sqrt', 'abs', 'explode', 'implode', 'tonumber', 'values', 'nulls', 'numbers', 'strings',
                'arrays', 'objects', 'scalars', 'iterables', 'booleans', 'any', 'all', 'first', 'last', 'empty',
                'error', 'utf8bytelength', 'trim', 'ltrimstr("a")', 'rtrimstr("b")', 'from_entries', 'transpose',
                'tostream', '[paths]', '[..]', 'to_entries | from_entries', 'getpath(["a"])', 'splits(",")',
                'join(",")', 'split(",")', 'test("a")', 'ascii', 'isempty(.[]?)', '@base64', '@csv', '@html',
                '@sh', '@uri', '@json', '@text', 'indices(1)', 'index("a")', 'has("a")', 'has(0)',
                'contains("a")', 'inside("abc")', 'startswith("a")', 'endswith("b")', 'range(3)', 'infinite',
                'nan | isnan', 'getpath(["a",0])', 'del(.a)', 'del(.[0])', 'with_entries(.value)',
                'map_values(.)', 'tostring | fromjson']
        one = ['map(%s)', 'select(%s)', 'sort_by(%s)', 'group_by(%s)', 'unique_by(%s)', 'min_by(%s)',
               'max_by(%s)', 'map_values(%s)', 'with_entries(%s)', 'path(%s)', 'del(%s)', 'recurse(%s; . != null)',
               'any(%s)', 'all(%s)', 'add(%s)', '[paths(%s)]', 'walk(%s)', 'until(true; %s)', 'isempty(%s)']
        c = r.randrange(3)
        if c < 2:
            name = r.choice(zero)
            if name == 'ascii':
                name = 'ascii_downcase'
            return name
        f = r.choice(one)
        arg = self.path() if f in ('path(%s)', 'del(%s)', '[paths(%s)]') and r.random() < 0.7 else self.expr(d)
        if f.startswith('recurse'):
            arg = r.choice(['.[]?', '.a', '.[0]?'])
        return f % arg

    def expr(self, d):
        r = self.r
        c = r.randrange(14)
        if d <= 0 or c < 5:
            return self.term(d)
        a, b = self.term(d - 1), self.term(d - 1)
        if c == 5:
            return '%s | %s' % (a, b)
        if c == 6:
            return '%s, %s' % (a, b)
        if c == 7:
            return '%s %s %s' % (a, r.choice(['+', '-', '*', '/', '%']), b)
        if c == 8:
            return '%s %s %s' % (a, r.choice(['==', '!=', '<', '<=', '>', '>=']), b)
        if c == 9:
            return '%s %s %s' % (a, r.choice(['and', 'or']), b)
        if c == 10:
            return '%s // %s' % (a, b)
        if c == 11:
            return '%s %s %s' % (self.path(), r.choice(['=', '|=', '+=', '//=']), b)
        if c == 12:
            return '[.[]?] | %s' % b
        return '%s | %s' % (self.path(), self.call(d - 1))


def run(cmd, program, inp):
    try:
        p = subprocess.run(cmd + [program], input=inp.encode(), capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None
    err = p.stderr.decode(errors='replace')
    err = re.sub(r'^\S+: error \(at [^)]*\)', 'error', err, flags=re.M)
    err = re.sub(r'^\S+: error:', 'error:', err, flags=re.M)
    # Only the first line of a message, without its location: the excerpt, caret and position are the CLI's layout.
    err = re.sub(r' at <top-level>, line \d+, column \d+:$', '', err.split('\n')[0])
    return p.returncode, p.stdout.decode(errors='replace'), err


def wrap(program):
    return '(try ([%s] | tojson) catch ("error: " + tojson))' % program


def run_batch(args, programs, inputs):
    """Runs the programs on their inputs in one process per side; returns the list of (jq, jview) result pairs,
    or None when jq does not compile the batch (then each program is run alone)."""
    batch = '[' + ', '.join('(.[%d] | %s)' % (i, wrap(p)) for i, p in enumerate(programs)) + ']'
    inp = '[' + ','.join(inputs) + ']'
    a = run([args.jq, '-c'], batch, inp)
    if a is None or a[0] == 3:
        return None
    b = run([args.jview, '-c'], batch, inp)
    if b is None:
        return None
    if a[0] != 0 or b[0] != 0:
        return None  # not expected (every program is inside try): compare them one by one
    try:
        ra, rb = json.loads(a[1]), json.loads(b[1])
    except ValueError:
        return [(a, b)] * len(programs)
    if len(ra) != len(programs) or len(rb) != len(programs):
        return [(a, b)] * len(programs)
    return list(zip(ra, rb))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--jview', required=True)
    ap.add_argument('--jq', default=DEFAULT_JQ)
    ap.add_argument('--count', type=int, default=300)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--batch', type=int, default=1)
    ap.add_argument('--verbose', action='store_true')
    args = ap.parse_args()
    if not os.path.isfile(args.jq):  # (a clone without ../shared: ctest's skip, tests/shared_data.py's line)
        print(f"SKIPPED: jq-language difftest against jq 1.8: {args.jq} missing")
        sys.exit(77)
    g = gen(random.Random(args.seed))
    diffs = 0
    compile_errors = 0
    cases = []
    for i in range(args.count):
        program = g.expr(3)
        if program.startswith('-'):
            program = '. | ' + program  # not an option
        cases.append((i, program, json.dumps(g.json(), ensure_ascii=False, separators=(',', ':'))))

    def single(i, program, inp):
        nonlocal diffs, compile_errors
        a = run([args.jq, '-c'], program, inp)
        b = run([args.jview, '-c'], program, inp)
        if a is None or b is None:
            return  # a timeout on either side: not comparable
        if a[0] == 3:
            compile_errors += 1
        if a != b:
            diffs += 1
            print(f'DIFF {i}: {program}\n  input: {inp}\n  jq:    {a}\n  jview: {b}')
        elif args.verbose:
            print(f'ok {i}: {program}')

    for start in range(0, len(cases), max(args.batch, 1)):
        chunk = cases[start:start + max(args.batch, 1)]
        results = run_batch(args, [c[1] for c in chunk], [c[2] for c in chunk]) if args.batch > 1 else None
        if results is None:
            for c in chunk:
                single(*c)
            continue
        for (i, program, inp), (a, b) in zip(chunk, results):
            if a != b:
                diffs += 1
                print(f'DIFF {i}: {program}\n  input: {inp}\n  jq:    {a}\n  jview: {b}')
            elif args.verbose:
                print(f'ok {i}: {program}')
    print(f'{args.count - diffs}/{args.count} programs agree ({compile_errors} rejected by jq at compile time)')
    sys.exit(1 if diffs else 0)


if __name__ == '__main__':
    main()
