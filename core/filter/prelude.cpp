// core/filter/prelude.cpp: the builtins written in jq, one definition per entry. Nothing here is parsed at
// start-up: compile.cpp parses an entry the first time a program calls it (and what it calls, in turn).
// Behaviour follows jq 1.8 (checked against its output); the definitions are written for jview.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/filter/eval.hpp"

namespace jview::filter::detail {

namespace {

struct prelude_def {
  const char* name;
  int arity;
  const char* source;
};

const prelude_def k_prelude[] = {
    {"map_values", 1, "def map_values(f): .[] |= f;"},
    {"recurse", 1, "def recurse(f): def r: ., (f | r); r;"},
    {"recurse", 2, "def recurse(f; cond): def r: ., (f | select(cond) | r); r;"},
    {"with_entries", 1, "def with_entries(f): to_entries | map(f) | from_entries;"},
    {"in", 1, "def in(xs): . as $x | xs | has($x);"},
    {"inside", 1, "def inside(xs): . as $x | xs | contains($x);"},
    {"combinations", 0,
     "def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $y | [$x] + $y end;"},
    {"combinations", 1, "def combinations(n): . as $dot | [range(n) | $dot] | combinations;"},
    {"walk", 1,
     "def walk(f): def w: if type == \"object\" then map_values(w) elif type == \"array\" then map(w) else . end "
     "| f; w;"},
    {"first", 0, "def first: .[0];"},
    {"last", 0, "def last: .[-1];"},
    {"nth", 1, "def nth($n): .[$n];"},
    {"nth", 2,
     "def nth($n; f): if $n < 0 then error(\"nth doesn't support negative indices\") "
     "else first(skip($n; f)) end;"},
    {"todate", 0, "def todate: strftime(\"%Y-%m-%dT%H:%M:%SZ\");"},
    {"todateiso8601", 0, "def todateiso8601: strftime(\"%Y-%m-%dT%H:%M:%SZ\");"},
    {"fromdateiso8601", 0, "def fromdateiso8601: strptime(\"%Y-%m-%dT%H:%M:%SZ\") | mktime;"},
    {"fromdate", 0, "def fromdate: fromdateiso8601;"},
    {"match", 2, "def match(re; mode): _match_impl(re; mode; false) | .[];"},
    {"match", 1,
     "def match($val): ($val|type) as $vt | if $vt == \"string\" then match($val; null) "
     "elif $vt == \"array\" and ($val | length) > 1 then match($val[0]; $val[1]) "
     "elif $vt == \"array\" and ($val | length) > 0 then match($val[0]; null) "
     "else error($vt + \" not a string or array\") end;"},
    {"test", 2, "def test(re; mode): _match_impl(re; mode; true);"},
    {"test", 1,
     "def test($val): ($val|type) as $vt | if $vt == \"string\" then test($val; null) "
     "elif $vt == \"array\" and ($val | length) > 1 then test($val[0]; $val[1]) "
     "elif $vt == \"array\" and ($val | length) > 0 then test($val[0]; null) "
     "else error($vt + \" not a string or array\") end;"},
    {"capture", 2,
     "def capture(re; mods): match(re; mods) | reduce (.captures | .[] | select(.name != null) "
     "| { (.name): .string }) as $pair ({}; . + $pair);"},
    {"capture", 1,
     "def capture($val): ($val|type) as $vt | if $vt == \"string\" then capture($val; null) "
     "elif $vt == \"array\" and ($val | length) > 1 then capture($val[0]; $val[1]) "
     "elif $vt == \"array\" and ($val | length) > 0 then capture($val[0]; null) "
     "else error($vt + \" not a string or array\") end;"},
    {"scan", 2,
     "def scan($re; $flags): match($re; \"g\" + $flags) "
     "| if (.captures | length > 0) then [.captures | .[] | .string] else .string end;"},
    {"scan", 1, "def scan($re): scan($re; null);"},
    {"_nwise", 1, "def _nwise($n): def n: if length <= $n then . else .[0:$n], (.[$n:] | n) end; n;"},
    {"split", 2,
     "def split($re; flags): . as $s | [match($re; \"g\" + flags) | (.offset, .offset + .length)] "
     "| [0] + . + [$s | length] | [_nwise(2) | $s[.[0]:.[1]]];"},
    {"splits", 2, "def splits($re; flags): split($re; flags) | .[];"},
    {"splits", 1, "def splits($re): splits($re; null);"},
    {"tostream", 0,
     "def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) "
     "| reduce path(.[]?) as $q ([$p, .]; [$p + $q]);"},
    {"fromstream", 1,
     "def fromstream(i): {x: null, e: false} as $init | foreach i as $i ($init; "
     "if .e then $init else . end "
     "| if $i | length == 2 then setpath([\"e\"]; $i[0] | length == 0) | setpath([\"x\"] + $i[0]; $i[1]) "
     "else setpath([\"e\"]; $i[0] | length == 1) end; "
     "if .e then .x else empty end);"},
    {"truncate_stream", 1,
     "def truncate_stream(stream): . as $n | null | stream | . as $input "
     "| if (.[0] | length) > $n then setpath([0]; $input[0][$n:]) else empty end;"},
    {"pick", 1,
     "def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));"},
    {"debug", 1, "def debug(msg): (msg | debug | empty), .;"},
    {"INDEX", 2, "def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);"},
    {"INDEX", 1, "def INDEX(idx_expr): INDEX(.[]; idx_expr);"},
    {"JOIN", 2, "def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];"},
    {"JOIN", 3, "def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];"},
    {"JOIN", 4, "def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;"},
    {"IN", 1, "def IN(s): any(s == .; .);"},
    {"IN", 2, "def IN(src; s): any(src == s; .);"},
};

}  // namespace

const char* find_prelude(std::string_view name, int arity) {
  for (const prelude_def& d : k_prelude)
    if (d.arity == arity && name == d.name) return d.source;
  return nullptr;
}

std::vector<std::string> prelude_names() {
  std::vector<std::string> out;
  for (const prelude_def& d : k_prelude) out.push_back(std::string(d.name) + "/" + std::to_string(d.arity));
  return out;
}

}  // namespace jview::filter::detail
