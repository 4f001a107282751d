# core/filter/reference.jq: the jq definitions of the builtins that jview writes natively for speed but jq 1.8
# defines in jq (its builtin.jq). These are not compiled into jview: tests/unit/filter/reference_test.cpp runs each
# definition against its native and finds the same outputs, errors and halts.
#
# Layout: a definition starts at the beginning of a line with `def` (continuation lines indented); the `#:` lines
# after it are its checks, programs that call it; each check runs on every input, with the native and with the
# definition in front of it (which shadows the native). `#<` lines are JSON inputs: those before the first definition
# are every check's inputs, those after a definition are more inputs for its checks only. Adding a native that jq
# defines in jq: its definition here and a `#:` check or two.

#<null
#<true
#<false
#<0
#<-2.5
#<1e3
#<"abc"
#<""
#<"ÀbÇ"
#<[]
#<[3,1,2]
#<[1,[2,[3,[4]]],"a",null,true]
#<[[1,2],[3],[]]
#<[{"a":1,"b":2},{"a":0,"b":3},{"a":1,"b":0}]
#<{}
#<{"a":1,"b":[2,{"c":null}],"d":"x"}
#<{"key":"k","value":1}

# ---- types and selection (builtins_types.cpp) ----

def select(f): if f then . else empty end;
#: select(. == null or . == 0)
#: [.[]? | select(type == "number")]
#: [select(.[]?)]
#: [path(.[]? | select(type == "array"))]
#: select(error("x"))

def arrays: select(type == "array");
#: arrays
#: [.[]? | arrays]
#: [path(.. | arrays)]
def objects: select(type == "object");
#: [.. | objects]
#: [path(.. | objects)]
def iterables: select(type | . == "array" or . == "object");
#: [.. | iterables]
#: [path(..|iterables)]
def booleans: select(type == "boolean");
#: [.. | booleans]
#: [path(..|booleans)]
def numbers: select(type == "number");
#: [.. | numbers]
#: [path(..|numbers)]
def strings: select(type == "string");
#: [.. | strings]
#: [path(..|strings)]
def nulls: select(. == null);
#: [.. | nulls]
#: [path(..|nulls)]
def values: select(. != null);
#: [.. | values]
#: [path(..|values)]
def scalars: select(type | . != "array" and . != "object");
#: [.. | scalars]
#: [path(..|scalars)]
def finites: select(isfinite);
#: [.[]?, infinite, -infinite, nan | numbers | finites]
#: finites
def normals: select(isnormal);
#: [.[]?, 0, 1e-310, infinite, nan | numbers | normals]
#: normals

def error(msg): msg | error;
#: error(.)
#: try error("a", "b") catch .
#: [.[]? | try error({x: .}) catch .x]
#: error(empty), 1

def recurse: recurse(.[]?);
#: [recurse]
#: [path(recurse)]
#: [recurse | numbers]

# ---- paths and entries (builtins_paths.cpp) ----

def paths: path(..) | select(length > 0);
#: [paths]
def paths(node_filter): path(.. | select(node_filter)) | select(length > 0);
#: [paths(type == "number")]
#: [paths(.. == null)]
#: [paths(true, false)]
#: [paths(error("f"))]

def del(f): delpaths([path(f)]);
#: del(.a)
#: del(.[0], .[2])
#: del(.[]?)
#: del(.. | select(. == null))
#: del(.missing)
#: [path(del(.a))]

def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
#: to_entries
#: [path(to_entries)]

def from_entries:
  reduce .[] as $x ({};
    . + { ($x | if type == "object" or . == null then [.key, .Key, .name, .Name] | map(select(.)) | first else .key end):
          ($x | if has("value") then .value else .Value end) });
#: from_entries
#: to_entries | from_entries
#: map({name: tostring, Value: .}) | from_entries
#<[{"key":"a","value":1},{"Key":"b","Value":2},{"name":"c"},{"Name":"d","value":null}]
#<[{"key":false,"name":"x","value":1}]
#<[{"key":1,"value":2}]
#<[{"key":null,"value":2}]
#<[[1]]
#<{"x":{"key":"a","value":1}}

# ---- collections (builtins_collections.cpp) ----

def add: reduce .[] as $x (null; . + $x);
#: add
#: map(tostring) | add
#: [.[]? | [.]] | add
#: map(objects) | add
#<["a",null,"b"]
#<[null,null]
#<[1,"a"]
#<{"a":"x","b":"y"}
def add(f): reduce f as $x (null; . + $x);
#: add(.[]?)
#: add(empty)
#: add(.[]? | tostring)
#: add(1, 2, error("e"))

def reverse: [.[length - 1 - range(0; length)]];
#: reverse
#: try reverse catch .

def unique_by(f): group_by(f) | map(.[0]);
#: unique_by(length)
#: unique_by(type)
#: unique_by(.a?)
#: unique_by(empty)

def sort_by(f):
  def dump: tojson | if length > 29 then .[:25] + "..." + .[-1:] end;  # jq's error-message dump (ASCII text)
  map([f]) as $keys
  | if type != "array" then error("\(type) (\(dump)) and array (\($keys | dump)) cannot be sorted, as they are not both arrays")
    else [range(length) as $i | [$keys[$i], $i, .[$i]]] | sort | map(.[2]) end;
#: sort_by(.)
#: sort_by(type)
#: sort_by(.a?, .b?)
#: sort_by(-.)
#: sort_by(empty)
#<[{"a":2,"b":1},{"a":1,"b":2},{"a":1,"b":1},{"a":2,"b":0}]
#<{"a":[1,2,3,4,5,6,7,8,9,10,11,12]}

def group_by(f):
  def dump: tojson | if length > 29 then .[:25] + "..." + .[-1:] end;
  map([f]) as $keys
  | if type != "array" then error("\(type) (\(dump)) and array (\($keys | dump)) cannot be sorted, as they are not both arrays")
    else
      [range(length) as $i | [$keys[$i], $i, .[$i]]] | sort
      | reduce .[] as $e ([]; if length > 0 and .[-1][0] == $e[0] then .[-1][1] += [$e[2]] else . + [[$e[0], [$e[2]]]] end)
      | map(.[1])
    end;
#: group_by(.)
#: group_by(type)
#: group_by(.a?)
#<[{"a":2,"b":1},{"a":1,"b":2},{"a":1,"b":1},{"a":2,"b":0}]

def min_by(f):
  def dump: tojson | if length > 29 then .[:25] + "..." + .[-1:] end;
  map([f]) as $keys
  | if type != "array" then error("\(type) (\(dump)) and array (\($keys | dump)) cannot be iterated over")
    else reduce range(length) as $i (null; if . == null or $keys[$i] < $keys[.] then $i else . end) as $best
      | if $best == null then null else .[$best] end
    end;
#: min_by(.)
#: min_by(type)
#: min_by(.a?)
#: min_by(length)
#<[{"a":2,"b":1},{"a":1,"b":2},{"a":1,"b":1},{"a":2,"b":0}]
def max_by(f):
  def dump: tojson | if length > 29 then .[:25] + "..." + .[-1:] end;
  map([f]) as $keys
  | if type != "array" then error("\(type) (\(dump)) and array (\($keys | dump)) cannot be iterated over")
    else reduce range(length) as $i (null; if . == null or $keys[$i] >= $keys[.] then $i else . end) as $best
      | if $best == null then null else .[$best] end
    end;
#: max_by(.)
#: max_by(type)
#: max_by(.a?)
#: max_by(length)
#<[{"a":2,"b":1},{"a":1,"b":2},{"a":1,"b":1},{"a":2,"b":0}]

def flatten:
  def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0 then . + ($i | _flatten($x - 1)) else . + [$i] end);
  _flatten(-1);
#: flatten
#<[[[[[1]]]],[2,[3]],{"a":[1]}]
def flatten($x):
  def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0 then . + ($i | _flatten($x - 1)) else . + [$i] end);
  if $x < 0 then error("flatten depth must not be negative") else _flatten($x) end;
#: flatten(0)
#: flatten(1)
#: flatten(2)
#: flatten(-1)
#: flatten(0.5)
#: flatten(nan)
#: flatten(null)
#: flatten(true)
#: flatten("a")
#: flatten([])
#: flatten({})
#<[[[[[1]]]],[2,[3]],{"a":[1]}]
#<[1,"x",{"a":[1]}]

def transpose: [range(0; map(length) | max // 0) as $i | [.[][$i]]];
#: transpose
#<[[1,2,3],[4],[5,6]]
#<[[],[]]

def indices($i):
  if type == "array" and ($i | type) == "array" then .[$i]
  elif type == "array" then .[[$i]]
  elif type == "string" and ($i | type) == "string" then _strindices($i)
  else .[$i] end;
#: indices(1)
#: indices([1, 2])
#: indices("a")
#: indices(", ")
#: indices([])
#<"a, b, c, d"
#<[1,2,1,2,3,1]
def index($i): indices($i) | .[0];
#: index(1)
#: index(", ")
#: index("x")
#: index("a")
#: index("d")
#<"a, b, c, d"
#<[1,2,1,2,3,1]
def rindex($i): indices($i) | .[-1:][0];
#: rindex(1)
#: rindex(", ")
#: rindex([1, 2])
#: rindex("a")
#: rindex("d")
#<"a, b, c, d"
#<[1,2,1,2,3,1]

# ---- generators (builtins_generators.cpp) ----

def range($upto): range(0; $upto);
#: [range(5)]
#: [range(-1)]
#: [range(2.5)]
#: [range("a")]
def range($from; $upto; $by):
  if $by > 0 then $from | while(. < $upto; . + $by)
  elif $by < 0 then $from | while(. > $upto; . + $by)
  else empty end;
#: [range(0; 10; 3)]
#: [range(5; 0; -2)]
#: [range(0; 1; 0)]
#: [range(1, 2; 4; 1, 2)]
#: [range({}; 10; 3)]
#: [range(0; 3; null)]
#: [range(null; 3; 1)]
#: [range("a"; "b"; 1)]

def limit($n; f):
  if $n > 0 then label $out | foreach f as $item ($n; . - 1; $item, if . <= 0 then break $out else empty end)
  elif $n == 0 then empty
  else error("limit doesn't support negative count") end;
#: [limit(3; .[]?)]
#: [limit(0; 1, 2)]
#: [limit(1; 1, error("x"))]
#: [limit(-1; 1)]
#: [limit(1.5; 1, 2, 3)]
#: [limit(0.5; 1, 2, 3)]
#: [limit(nan; 1, 2)]
#: [limit(null; 1, 2)]
#: [limit(true; 1, 2)]
#: [limit("a"; 1, 2)]
#: [limit([]; empty)]
#: [limit(.; 1, 2)]

def skip($n; f):
  if $n > 0 then foreach f as $item ($n; . - 1; if . < 0 then $item else empty end)
  elif $n == 0 then f
  else error("skip doesn't support negative count") end;
#: [skip(1; .[]?)]
#: [skip(0; 1, 2)]
#: [skip(5; 1, 2)]
#: [skip(-1; 1)]
#: [skip(1.5; 1, 2, 3)]
#: [skip(nan; 1, 2)]
#: [skip(false; 1, 2)]
#: [skip("a"; 1, 2)]
#: [skip({}; empty)]
#: [skip(.; 1, 2)]

def first(f): label $out | f | ., break $out;
#: first(.[]?)
#: [first(empty)]
#: first(1, error("x"))
#: [path(first(.[]?))]
def last(f): reduce f as $x (null; [$x]) | if . == null then empty else .[0] end;
#: last(.[]?)
#: [last(empty)]
#: last(1, null)
def isempty(g): label $go | (g | false, break $go), true;
#: isempty(.[]?)
#: isempty(empty)
#: isempty(1, error("x"))
#: isempty(error("x"))

def any: reduce .[] as $x (false; . or $x);
#: any
def all: reduce .[] as $x (true; . and $x);
#: all
def any(f): reduce (.[] | f) as $x (false; . or $x);
#: any(. == 1)
#: any(type == "string")
def all(f): reduce (.[] | f) as $x (true; . and $x);
#: all(. != null)
#: all(type == "number")
def any(g; cond): isempty(first(g | cond | select(.))) | not;
#: any(.[]?; . == 1)
#: any(1, error("x"); . == 1)
#: any(empty; .)
def all(g; cond): isempty(first(g | cond | select(. | not)));
#: all(.[]?; . != null)
#: all(1, error("x"); . == 2)
#: all(empty; .)

def repeat(f): def r: f, r; r;
#: [limit(5; repeat(1, 2))]
#  (repeat(empty) is not checked: jq 1.8 recurses forever on it, the native stops)
#: [limit(4; 1 | repeat(. * 2))]
def while(cond; update): def w: if cond then ., (update | w) else empty end; w;
#: [1 | while(. < 100; . * 2)]
#: [.[]? | numbers | while(. < 5; . + 1, . + 2)]
def until(cond; next): def u: if cond then . else next | u end; u;
#: 1 | until(. > 100; . * 2)
#: [0 | until(. >= 3; . + 1, . + 2)]

def map(f): [.[] | f];
#: map(. == 1)
#: map(empty)
#: map(., .)
#: [path(map(.)[0])]
def walk(f):
  def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f;
  w;
#: walk(.)
#: walk(if type == "number" then . + 1 else . end)
#: [walk(., [.])]
#: [walk(empty)]
#: [walk(numbers)]
#: [walk(if type == "object" then empty else . end)]
#: walk(if type == "string" then error("s") else . end)
#: [limit(2; walk(., .))]
#: walk(if type == "object" then with_entries(.key |= ascii_upcase) else . end)
#: [walk(if type == "array" then .[1:], length else . end)]
#<{"a":[{"b":1},[2,"x"]],"c":{"d":[]}}

# ---- strings (strings.cpp) ----

def ascii_downcase: explode | map(if 65 <= . and . <= 90 then . + 32 else . end) | implode;
#: ascii_downcase
#<"Hello, WORLD À"
def ascii_upcase: explode | map(if 97 <= . and . <= 122 then . - 32 else . end) | implode;
#: ascii_upcase
#<"Hello, world à"
def ltrimstr($x): if startswith($x) then .[$x | length:] end;
#: ltrimstr("a")
#: ltrimstr("")
#: ltrimstr(1)
def rtrimstr($x): if endswith($x) then .[:length - ($x | length)] end;
#: rtrimstr("c")
#: rtrimstr("")
#: rtrimstr(1)
def trimstr($x): ltrimstr($x) | rtrimstr($x);
#: trimstr("a")
#<"aba"
def join($x):
  reduce .[] as $i (null; (if . == null then "" else . + $x end) + ($i | if type == "boolean" or type == "number" then tojson else . // "" end))
  // "";
#: join(", ")
#: map(tostring) | join("-")
#: join(1)
#<["a",1,null,true,"b"]
#<[[1]]
def abs: if . < 0 then - . else . end;
#: abs
#: map(abs)
#<[-0,-1.5,2,"a"]
