#!/usr/bin/env python3
"""A differential of jview's syntax errors against jq 1.8.2: valid programs broken at random (a token deleted,
doubled or swapped for another, a stray token inserted; once or twice each), run with -n, their exit status and
every message compared (bison's error recovery goes on after the first error, so jq may report several).
Stderr is compared as jq18_diff_runner.py does. The seed makes a run repeatable.
Usage: jq18_syntax_diff.py [--jview build/jview] [--jq ../shared/tools/jq-1.8] [--seed N] [--count N] [--quiet]
(ctest's syntax-difftest: 400 cases, seed 1; exits 77 without jq 1.8.)"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import jq18_diff_runner  # noqa: E402
import shared_data  # noqa: E402

_ap = argparse.ArgumentParser()
_ap.add_argument("--jview", default="build/jview")
_ap.add_argument("--jq", default="../shared/tools/jq-1.8")
_ap.add_argument("--seed", type=int, default=1)
_ap.add_argument("--count", type=int, default=600)
_ap.add_argument("--quiet", action="store_true", help="print the count only")
_args = _ap.parse_args()
shared_data.need_or_exit(_args.jq, "syntax differential against jq 1.8.2")
R = random.Random(_args.seed)

# Valid programs, their tokens apart by spaces.
PROGRAMS = [
    '( 1 + 2 ) | . as $x | [ $x , 3 ]',
    'if . == 1 then "a" elif . == 2 then "b" else "c" end | length',
    'try error ( "x" ) catch . | length',
    '{ a : 1 , b : ( . + 1 ) , "c" : [ 1 , 2 ] , $__loc__ }',
    'reduce range ( 5 ) as $x ( 0 ; . + $x )',
    'foreach range ( 3 ) as $i ( 0 ; . + 1 ; [ $i , . ] )',
    'def f ( x ) : x | x ; def g : 1 ; f ( . + g )',
    '[ 1 , 2 , 3 ] | .[ 1 : 2 ] | .[ 0 ] ? // 3',
    '[ 1 , { b : 2 } ] as [ $a , { b : $c } ] | $a + $c',
    'label $out | range ( 5 ) | if . > 1 then . , break $out else empty end',
    '"x \\( 1 + 2 ) y" | ascii_downcase',
    '{ } | .a = 1 | .b |= . + 1 | .c += 2 | .d //= 3',
    '[ range ( 4 ) | select ( . > 1 ) ] | map ( . * 2 )',
    '1 as $x | 2 as $y | { $x , y : $y , ( "k" ) : 3 }',
    '( 1 , 2 ) as $x | [ $x ] | .[ 0 ] - 1 == 0 and true or false',
    '[ limit ( 3 ; range ( 10 ) ) ] | .[ 1 : ] | add / 2 % 3',
    '{ a : [ 1 , 2 ] } | .a [ ] | tostring | test ( "1" )',
    '. as { a : $x , $y } ?// [ $x , $y ] | [ $x , $y ]',
    'def h : if . then 1 else 2 end ; [ true , false ] | map ( h )',
    'try ( 1 / 0 ) catch "zero" | ( . | length ) < 5',
    '[ paths ] | length > 0 | not',
    '@base64 "x\\( 1 )y" | @text',
    'reduce ( [ 1 , 2 ] | .[ ] ) as [ $a ] ( { } ; .[ "k" ] = $a )',
    '.. | numbers | - . | . * 2',
    '"a\\nb \\( . ) c" | @json "x\\( . )y" | ltrimstr ( "a" )',
    '. as { "k" : $v , $w , ( "x" ) : [ $z ] } | $v',
    'def f : reduce .[] as [ $a , $b ] ( 0 ; . + $a ) ; f',
    '.a . "b" .[ 0 ] ? | .. | numbers',
    '{ ( "a" , "b" ) : 1 , @base64 "c" : 2 } | keys',
    'try ( if . then error else 1 end ) catch ( . | tostring )',
    'import "m" as m ; include "n" ; . | m::f',
]
STRAYS = [')', '(', ']', '[', '{', '}', 'catch', 'then', 'end', 'else', 'elif', '|', ',', '==', '=', '+=', ':',
          ';', 'as', '$x', '.a', '1', '"s"', 'if', 'try', 'reduce', 'def', '.', '?', '//', 'and', '-', '$__loc__',
          'break', 'label', 'foreach', 'import', '.[', '@base64', '"\\(', '|=', '<']


def broken(tokens):
    t = list(tokens)
    for _ in range(R.choice([1, 1, 2])):
        if not t:
            break
        i = R.randrange(len(t) + 1)
        m = R.randrange(4)
        if m == 0 and i < len(t):
            del t[i]
        elif m == 1 and i < len(t):
            t.insert(i, t[i])
        elif m == 2 and i < len(t):
            t[i] = R.choice(STRAYS)
        else:
            t.insert(i, R.choice(STRAYS))
    return ' '.join(t)


cases = []
seen = set()
while len(cases) < _args.count:
    prog = broken(R.choice(PROGRAMS).split(' '))
    if prog in seen:
        continue
    seen.add(prog)
    cases.append((['-n', '-c', prog], '', {}))

same, diffs = jq18_diff_runner.compare(cases, os.path.abspath(_args.jview), os.path.abspath(_args.jq),
                                       show=not _args.quiet)
print(f"syntax differential: {same} of {len(cases)} cases agree with jq 1.8.2")
sys.exit(0 if not diffs else 1)
