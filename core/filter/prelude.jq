# core/filter/prelude.jq: the builtins jview writes in jq. The build embeds this file as a string literal
# (prelude.cmake -> prelude_jq.inc, included by prelude.cpp), which indexes it at compile time; nothing is parsed
# at start-up: the compiler parses a definition the first time a program calls it (and what it calls, in turn).
# Behaviour follows jq 1.8 (checked against its output by tests/filter/*.test); the definitions are written for jview.
#
# Layout, which prelude.cpp relies on: each definition starts at the beginning of a line with `def NAME` and runs
# to the next line that starts with neither a space nor a tab (the next definition, a comment, or the end); its
# continuation lines are indented. Comments start at the beginning of a line. A builtin that is native for speed
# keeps its jq definition in reference.jq instead.

# ---- paths and entries ----

def map_values(f): .[] |= f;
def with_entries(f): to_entries | map(f) | from_entries;
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));

# ---- recursion ----

def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;

# ---- collections ----

def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations:
  if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $y | [$x] + $y end;
def combinations(n): . as $dot | [range(n) | $dot] | combinations;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("nth doesn't support negative indices") else first(skip($n; f)) end;

# ---- dates ----

def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def fromdate: fromdateiso8601;

# ---- regular expressions (on the native _match_impl, regex.cpp) ----

def match(re; mode): _match_impl(re; mode; false) | .[];
def match($val):
  ($val|type) as $vt
  | if $vt == "string" then match($val; null)
    elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1])
    elif $vt == "array" and ($val | length) > 0 then match($val[0]; null)
    else error($vt + " not a string or array") end;
def test(re; mode): _match_impl(re; mode; true);
def test($val):
  ($val|type) as $vt
  | if $vt == "string" then test($val; null)
    elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1])
    elif $vt == "array" and ($val | length) > 0 then test($val[0]; null)
    else error($vt + " not a string or array") end;
def capture(re; mods):
  match(re; mods) | reduce (.captures | .[] | select(.name != null) | { (.name): .string }) as $pair ({}; . + $pair);
def capture($val):
  ($val|type) as $vt
  | if $vt == "string" then capture($val; null)
    elif $vt == "array" and ($val | length) > 1 then capture($val[0]; $val[1])
    elif $vt == "array" and ($val | length) > 0 then capture($val[0]; null)
    else error($vt + " not a string or array") end;
def scan($re; $flags):
  match($re; "g" + $flags) | if (.captures | length > 0) then [.captures | .[] | .string] else .string end;
def scan($re): scan($re; null);
# jq 1.7's split/2 cut the list of offsets with a recursive _nwise(2) on .[$n:], a copy of the rest at every
# level, all alive at once: quadratic memory (50,000 matches took 3.6 GB). The pieces by index, cut from the code
# points (a string slice counts code points from the start: quadratic time), in linear time and memory.
# (jq 1.8 no longer defines _nwise.)
# Its flags are bound ($flags) and given `g` at their end, as in jq 1.8's splits.
def split($re; $flags):
  [0, (match($re; $flags + "g") | (.offset, .offset + .length)), length] as $cut | explode as $cp
  | [range(0; $cut | length; 2) as $i | $cp[$cut[$i]:$cut[$i + 1]] | implode];
def splits($re; $flags): split($re; $flags) | .[];
def splits($re): splits($re; null);

# ---- streams ----

def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(i):
  {x: null, e: false} as $init
  | foreach i as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream):
  . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; $input[0][$n:]) else empty end;

# ---- SQL-style operators, debug ----

def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def debug(msg): (msg | debug | empty), .;
