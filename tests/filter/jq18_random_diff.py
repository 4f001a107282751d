#!/usr/bin/env python3
"""A random differential of jview against jq 1.8.2: programs drawn from a small grammar of jq (paths, pipes,
operators, assignments, reduce/foreach, if, try, bindings, string interpolation and about 250 builtin calls, some
with `?`) over random JSON inputs (a few values a run, non-ASCII strings among them), under -c, -S, -r, -s or -a.
Exit status, stdout and stderr are compared as jq18_diff_runner.py does. The seed makes a run repeatable.
Known differences it finds (README, "Where jview differs"): path expressions over builtins that jview writes
natively and jq defines in jq, `builtins`' order, and libm's last digit of `gamma`.
Usage: jq18_random_diff.py [--jview build/jview] [--jq ../shared/tools/jq-1.8] [--seed N] [--count N]"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jq18_diff_runner  # noqa: E402

_ap = argparse.ArgumentParser()
_ap.add_argument("--jview", default="build/jview")
_ap.add_argument("--jq", default="../shared/tools/jq-1.8")
_ap.add_argument("--seed", type=int, default=1)
_ap.add_argument("--count", type=int, default=1000)
_args = _ap.parse_args()
R = random.Random(_args.seed)
R0 = random.Random(_args.seed + 1000)  # which builtin calls lose their `?`


def rjson(d=0):
    t=R.randint(0,9 if d<3 else 5)
    if t==0: return None
    if t==1: return R.choice([True,False])
    if t==2: return R.choice([0,1,-1,2,3,10,100,-7,0.5,1.5,-2.25,1000000])
    if t<=5: return R.choice(["","a","b","ab","abc","A B","x,y","é","日本","a\nb","1","true","null","[1]","aXbXc","  pad "])
    if t<=7: return [rjson(d+1) for _ in range(R.randint(0,4))]
    return {R.choice(["a","b","c","d","x","y","k1","k2",""]): rjson(d+1) for _ in range(R.randint(0,4))}

S=["\"a\"","\"b\"","\"x\"","\"\"","\"ab\"","\",\"","\"X\""]
NUM=["0","1","2","-1","3","0.5","10"]
def atom(d):
    c=R.randint(0,22)
    if c==0: return "."
    if c==1: return "."+R.choice(["a","b","c","x","k1"])
    if c==2: return ".["+R.choice(NUM[:5])+"]"
    if c==3: return R.choice(NUM)
    if c==4: return R.choice(S)
    if c==5: return R.choice(["null","true","false","[]","{}","empty"])
    if c==6: return "["+expr(d+1)+"]"
    if c==7: return "{"+R.choice(["a","b","x"])+": "+atom(d+1)+"}"  # (jq's object values are terms)
    if c==8: return ".[]?"
    if c==9: return "("+expr(d+1)+")"
    if c==10: return "$x"
    if c==11: return ".."
    if c==12: return "{(" + expr(d+1) + "|tostring): 1}"
    if c==13: return "\"s\\(" + expr(d+1) + ")e\""
    if c==14: return ".["+R.choice(NUM[:4])+":"+R.choice(NUM[:4])+"]?"
    return fn(d)

F0=[x.rstrip("?") if R0.random()<0.5 else x for x in ["length","keys","keys_unsorted","values","add","any","all","flatten","sort","unique","reverse","tostring","tojson","type","not","to_entries","from_entries?","floor","sqrt","abs","toarray","ascii_downcase?","ascii_upcase?","explode?","implode?","min","max","tostream","paths","leaf_paths","infinite","nan|isnan","isinfinite","isnormal","utf8bytelength?","ltrimstr(\"a\")","rtrimstr(\"b\")","trim?","ltrim?","rtrim?","splits(\"a\")?","@base64","@base64d?","@uri","@csv?","@tsv?","@html","@sh?","@json","@text","fromjson?","tonumber?","ascii?","first","last","transpose?","input_line_number","objects","arrays","strings","numbers","booleans","nulls","iterables","scalars","halt_error?","getpath([\"a\"])?","to_entries|from_entries","combinations?","walk(.)","env|type","builtins|length>10","$__loc__","splits(\", \")?","significand?","logb?","gamma?","frexp?","ldexp(.;1)?","trunc?","round?","ceil?","fabs?","abs","pick(.a)?","have_decnum","getpath([0])?","tojson|fromjson","del(.a)?","del(.[0])?","to_entries?","with_entries(.)?","indices(1)?","index(\"a\")?","rindex(\"a\")?","inside([1])?","contains([])?","startswith(\"a\")?","endswith(\"b\")?","test(\"a\")?","ascii","@base32","@base32d?","ltrimstr(1)","splits(\"x\";null)?","error?","limit(2;.[]?)","first(.[]?)","isvalid(.a)?","getpath([\"a\",0])?","paths(type==\"number\")","any(.[]?;.)","all(.[]?;.)","min_by(.)?","max_by(.)?","group_by(.)?","unique_by(.)?","sort_by(.)?","map(.)?","map_values(.)?","to_number?","tostring|length","@json|fromjson","abs?","toarray|length","splits(\"a\")|length?","debug(\"m\")","stderr","input_filename","ltrimstr(\"\")","getpath([])","path(..)","[paths]|length","add(.[]?)","range(3)","range(1;4)","range(0;10;3)","range(5;0;-2)","repeat(.)|limit(1;.)?","recurse|numbers","env.HOME|type","$ENV|type","splits(\"\")?","ascii_downcase|ascii_upcase?","tojson|length","getpath([\"x\"])?=1","input?","@sh \"x\\(.)\"?","todate?","fromdate?","dateadd(\"seconds\";1)?","now|type","localtime|type?","gmtime|todate?","mktime?","strftime(\"%Y\")?","ltrimstr(\"a\")|rtrimstr(\"a\")?","tojson|test(\"a\")","splits(\"[ab]\")?","sub(\"a\";\"z\")?","gsub(\"a\";\"z\")?","gsub(\"\";\"-\")?","[match(\"a\";\"g\").offset]?","capture(\"(?<n>a)\")?","scan(\"a\")?","split(\"a\";null)?","test(\"A\";\"i\")?","ascii(65)?","@uri \"\\(.)\"","getpath([\"a\"]) as $v | $v","$__prog_args?","splits(\"a\") as $s | $s?","error(null)?","try error(\"x\") catch .","try error({}) catch .","try (1/0) catch .","try ([1]|implode) catch .","try ({}|keys|.[0]|ascii_downcase) catch .","abs","toarray","trim","pick(.x)?","limit(0;1,2)","skip(1;.[]?)?","have_literal_numbers","getpath([\"a\",\"b\"])?","splits(\"b\")?|ascii?","tojson|@base64|@base64d","ltrimstr(\"ab\")","tostring|ascii_downcase","@text|@json","add/2?","(.[]?|numbers)*2","..|numbers","[..]|length","[.[]?|tostring]|join(\",\")","join(\"-\")?","to_entries|map(.key)?","keys|join(\",\")?","splits(\"a\")|@json?","getpath([\"a\"])|type?","input_line_number","ltrimstr(\"é\")?","@base32|@base32d","significand","drem(.;2)?","nearbyint?","modf?","lgamma_r?","exp10?","pow(.;2)?","log?","log2?","exp?","fmin(.;1)?","atan2(.;1)?"]]
def fn(d):
    c=R.randint(0,14)
    if c<=7: return R.choice(F0)
    if c==8: return "map("+expr(d+1)+")"
    if c==9: return "select("+expr(d+1)+")"
    if c==10: return "reduce .[]? as $i (0; . + 1)"
    if c==11: return "foreach (.[]?) as $i (0; .+1; [$i, .])"
    if c==12: return "if "+expr(d+1)+" then "+expr(d+1)+" else "+expr(d+1)+" end"
    if c==13: return "try "+expr(d+1)+" catch ."
    return "(" + expr(d+1) + ") as $x | " + expr(d+1)
OPS=[" | ",", "," + "," - "," * "," / "," % "," and "," or "," // "," |= "," += "," = "]
CMP=[" == "," != "," < "," <= "," > "," >= "]  # not associative in jq: each in parentheses
def expr(d=0):
    if d>3 or R.random()<0.45: return atom(d)
    if R.random()<0.2: return "("+atom(d)+R.choice(CMP)+atom(d)+")"+R.choice(OPS)+expr(d+1)
    return atom(d)+R.choice(OPS)+expr(d+1)

cases = []
for _ in range(_args.count):
    prog = "1 as $x | " + expr()
    inp = "\n".join(json.dumps(rjson(), ensure_ascii=False) for _ in range(R.randint(1, 3))) + "\n"
    flags = R.choice([["-c"], ["-c", "-S"], ["-r"], ["-c", "-s"], ["-c", "-a"], []])
    cases.append((flags + [prog], inp, {}))
same, diffs = jq18_diff_runner.compare(cases, os.path.abspath(_args.jview), os.path.abspath(_args.jq))
print("%d of %d agree" % (same, len(cases)))
