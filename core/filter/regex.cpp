// core/filter/regex.cpp: regular expressions through Oniguruma, as jq does (Perl-NT syntax, UTF-8, flags
// g i x n s p l), giving jq's match objects: offsets and lengths in code points, captures with names.
// `_match_impl(re; flags; test)` is the native under match/test/capture/scan/split/splits (prelude.jq);
// sub/gsub are native here because their replacement is a filter run on each match's capture object. The flag `l`
// (longest match) is jview's own search (regex_longest.cpp), not the library's option.
#include <cstring>
#include <optional>

#include "core/filter/builtins.hpp"
#include "core/filter/regex_longest.hpp"
#include "core/filter/shared_libraries.hpp"

namespace jview::filter::detail {

namespace {

// A compiled expression and the library it came from; with the flag `l` also its form for longest matches.
struct regex_holder {
  const onig_library* lib = nullptr;
  regex_t* re = nullptr;
  regex_t* longest = nullptr;  // compile_longest's form (nullptr: no `l`, or `re` has the library's option)
  std::string pattern;  // its text
  bool not_empty = false;  // the flag `n`
  regex_holder() = default;
  regex_holder(const regex_holder&) = delete;
  regex_holder& operator=(const regex_holder&) = delete;
  ~regex_holder() {
    if (re != nullptr) lib->free(re);
    if (longest != nullptr) lib->free(longest);
  }
};

struct match_options {
  bool global = false;
  bool longest = false;
  OnigOptionType options = ONIG_OPTION_CAPTURE_GROUP;
};

st parse_flags(interp& I, const value& flags, match_options& mo) {
  if (flags.is_null()) return st::ok;
  if (!flags.is_string()) return type_error(I, flags, "is not a string");  // jq 1.8's wording
  std::string tmp;
  std::string_view f = flags.str(tmp);
  for (char c : f) {
    switch (c) {
      case 'g': mo.global = true; break;
      case 'i': mo.options |= ONIG_OPTION_IGNORECASE; break;
      case 'x': mo.options |= ONIG_OPTION_EXTEND; break;
      case 'n': mo.options |= ONIG_OPTION_FIND_NOT_EMPTY; break;
      case 's': mo.options |= ONIG_OPTION_SINGLELINE; break;
      case 'p': mo.options |= ONIG_OPTION_MULTILINE | ONIG_OPTION_SINGLELINE; break;
      case 'l': mo.longest = true; break;
      default: return I.fail(std::string(f) + " is not a valid modifier string");
    }
  }
  return st::ok;
}

st compile_with(interp& I, std::string_view pattern, OnigOptionType options, regex_holder& h) {
  OnigErrorInfo einfo;
  const auto* p = reinterpret_cast<const OnigUChar*>(pattern.data());
  int r = h.lib->compile(&h.re, p, p + pattern.size(), options, h.lib->utf8, h.lib->perl_ng, &einfo);
  if (r == ONIG_NORMAL && names_longest_callout(pattern)) {
    h.lib->free(h.re);
    r = ONIGERR_UNDEFINED_CALLOUT_NAME;
  }
  if (r != ONIG_NORMAL) {
    OnigUChar buf[ONIG_MAX_ERROR_MESSAGE_LEN];
    h.lib->error_text(buf, r, &einfo);
    h.re = nullptr;
    return I.fail(std::string("Regex failure: ") + reinterpret_cast<const char*>(buf));  // jq 1.8's wording
  }
  return st::ok;
}

st compile_regex(interp& I, std::string_view pattern, const match_options& mo, regex_holder& h) {
  std::string why;
  h.lib = onig(why);
  if (h.lib == nullptr) return I.fail("regular expressions need Oniguruma: " + why);
  h.pattern = pattern;
  h.not_empty = (mo.options & ONIG_OPTION_FIND_NOT_EMPTY) != 0;
  st s = compile_with(I, pattern, mo.options, h);
  if (s != st::ok || !mo.longest) return s;
  h.longest = compile_longest(*h.lib, pattern, mo.options, h.lib->captures(h.re));
  if (h.longest != nullptr) return st::ok;
  // A pattern that calls itself whole: the library's own option (which Oniguruma 6.9.8 ignores).
  h.lib->free(h.re);
  h.re = nullptr;
  return compile_with(I, pattern, mo.options | ONIG_OPTION_FIND_LONGEST, h);
}

struct capture_names {
  std::vector<std::string> names;  // by group number (1-based; index 0 unused)
};

int name_cb(const OnigUChar* name, const OnigUChar* name_end, int ngroups, int* groups, regex_t*, void* arg) {
  auto* cn = static_cast<capture_names*>(arg);
  for (int i = 0; i < ngroups; ++i) {
    const int g = groups[i];
    if (g >= 0 && static_cast<std::size_t>(g) < cn->names.size())
      cn->names[static_cast<std::size_t>(g)].assign(reinterpret_cast<const char*>(name),
                                                    static_cast<std::size_t>(name_end - name));
  }
  return 0;
}

// All matches of `re` in s (one unless global) as jq's match objects; `spans` (optional) gets their byte ranges.
st run_matches(interp& I, std::string_view s, const regex_holder& h, bool global, bool test_only, std::vector<value>& out,
               bool& matched, std::vector<std::pair<std::size_t, std::size_t>>* spans = nullptr) {
  matched = false;
  capture_names cn;
  const onig_library& L = *h.lib;
  regex_t* re = h.re;
  const int ngroups = L.captures(re);
  cn.names.resize(static_cast<std::size_t>(ngroups) + 1);
  L.foreach_name(re, name_cb, &cn);
  OnigRegion* region = L.region_new();
  const auto* start = reinterpret_cast<const OnigUChar*>(s.data());
  const auto* end = start + s.size();
  // Whether a longest match exists is whether any match does: `test` takes the plain search.
  std::optional<longest_search> longest;
  if (h.longest != nullptr && !test_only)
    longest.emplace(L, h.longest, s, h.pattern, h.not_empty);
  std::size_t pos = 0;
  // Code point offsets are counted incrementally from the previous match (global matching stays linear).
  std::size_t cp_base_byte = 0, cp_base = 0;
  auto cp_at = [&](std::size_t byte) -> double {
    if (byte < cp_base_byte) {
      cp_base_byte = 0;
      cp_base = 0;
    }
    cp_base += utf8_length(s.substr(cp_base_byte, byte - cp_base_byte));
    cp_base_byte = byte;
    return static_cast<double>(cp_base);
  };
  st result = st::ok;
  while (pos <= s.size()) {
    const int r = longest ? longest->search(pos, region)
                          : L.search(re, start, end, start + pos, end, region, ONIG_OPTION_NONE);
    if (r == ONIG_MISMATCH) break;
    if (r < 0) {
      OnigUChar buf[ONIG_MAX_ERROR_MESSAGE_LEN];
      L.error_text(buf, r);
      result = I.fail(std::string("Regex failure: ") + reinterpret_cast<const char*>(buf));
      break;
    }
    matched = true;
    if (test_only) break;
    const std::size_t mb = static_cast<std::size_t>(region->beg[0]);
    const std::size_t me = static_cast<std::size_t>(region->end[0]);
    if (spans != nullptr) spans->emplace_back(mb, me);
    value m = value::empty_object();
    auto& mo = m.object_mut();
    const double match_cp = cp_at(mb);
    mo.set(std::string_view("offset"), value::number(match_cp));
    mo.set(std::string_view("length"), value::number(static_cast<double>(utf8_length(s.substr(mb, me - mb)))));
    mo.set(std::string_view("string"), value::string(s.substr(mb, me - mb)));
    std::vector<value> caps;
    for (int g = 1; g <= ngroups; ++g) {
      value c = value::empty_object();
      auto& co = c.object_mut();
      const std::string& nm = cn.names[static_cast<std::size_t>(g)];
      if (region->beg[g] < 0) {
        co.set(std::string_view("offset"), value::number(-1));
        co.set(std::string_view("string"), value());
        co.set(std::string_view("length"), value::number(0));
      } else {
        const std::size_t cb = static_cast<std::size_t>(region->beg[g]);
        const std::size_t ce = static_cast<std::size_t>(region->end[g]);
        const double off = cb >= mb ? match_cp + static_cast<double>(utf8_length(s.substr(mb, cb - mb)))
                                    : static_cast<double>(utf8_length(s.substr(0, cb)));
        co.set(std::string_view("offset"), value::number(off));
        co.set(std::string_view("length"), value::number(static_cast<double>(utf8_length(s.substr(cb, ce - cb)))));
        co.set(std::string_view("string"), value::string(s.substr(cb, ce - cb)));
      }
      co.set(std::string_view("name"), nm.empty() ? value() : value::string(nm));
      caps.push_back(std::move(c));
    }
    mo.set(std::string_view("captures"), value::array(std::move(caps)));
    out.push_back(std::move(m));
    if (!global) break;
    if (me == mb) {
      // An empty match: step over one character.
      if (me >= s.size()) break;
      std::size_t next = me + 1;
      while (next < s.size() && (static_cast<unsigned char>(s[next]) & 0xc0) == 0x80) ++next;
      pos = next;
    } else {
      pos = me;
    }
  }
  L.region_free(region, 1);
  return result;
}

st prepare(interp& I, const value& in, const value& re, const value& flags, match_options& mo, regex_holder& h) {
  if (!in.is_string()) return type_error(I, in, "cannot be matched, as it is not a string");
  if (!re.is_string()) return type_error(I, re, "is not a string");
  st s = parse_flags(I, flags, mo);
  if (s != st::ok) return s;
  std::string tmp;
  return compile_regex(I, re.str(tmp), mo, h);
}

st f_match_impl(interp& I, const value& in, const value* args, value& out) {
  match_options mo;
  regex_holder h;
  st s = prepare(I, in, args[0], args[1], mo, h);
  if (s != st::ok) return s;
  const bool test = args[2].truthy();
  std::string tmp;
  std::string_view str = in.str(tmp);
  std::vector<value> ms;
  bool matched = false;
  s = run_matches(I, str, h, mo.global, test, ms, matched);
  if (s != st::ok) return s;
  if (test)
    out = value::boolean(matched);
  else
    out = value::array(std::move(ms));
  return st::ok;
}

// sub(re; str; flags): jq 1.8's rule for several outputs of `str`: the i-th result string uses the i-th output
// at every match.
st sub_impl(interp& I, const node* call, const value& in, const value& re, const value& flags, const env* e,
            sink k) {
  match_options mo;
  regex_holder h;
  st s = prepare(I, in, re, flags, mo, h);
  if (s != st::ok) return s;
  std::string tmp;
  const std::string str(in.str(tmp));
  std::vector<value> ms;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  bool matched = false;
  s = run_matches(I, str, h, mo.global, false, ms, matched, &spans);
  if (s != st::ok) return s;
  if (ms.empty()) return k(in);
  std::vector<std::string> results;
  std::size_t previous = 0;  // byte offset
  for (std::size_t mi = 0; mi < ms.size(); ++mi) {
    const value& m = ms[mi];
    const std::size_t b = spans[mi].first;
    const std::size_t be = spans[mi].second;
    value capobj = value::empty_object();
    m.member("captures").for_each_element([&](const value& c) {
      const value nm = c.member("name");
      if (nm.is_string()) {
        std::string t2;
        capobj.object_mut().set(nm.str(t2), c.member("string"));
      }
    });
    std::vector<value> inserts;
    s = collect_arg(I, call, 1, capobj, e, inserts);
    if (s != st::ok) return s;
    const std::string gap = previous <= b ? str.substr(previous, b - previous) : std::string();
    for (std::size_t ix = 0; ix < inserts.size(); ++ix) {
      if (!inserts[ix].is_string()) {
        value a = value::string(gap), r;
        return arith(I, '+', a, inserts[ix], r);
      }
      if (ix >= results.size()) results.resize(ix + 1);
      std::string t3;
      results[ix] += gap;
      results[ix] += inserts[ix].str(t3);
    }
    previous = be;
  }
  if (results.empty()) return k(in);
  for (std::string& r : results) {
    r += str.substr(std::min(previous, str.size()));
    s = k(value::string(std::move(r)));
    if (s != st::ok) return s;
  }
  return st::ok;
}

// jq 1.8 defines sub($re; s; $flags) in jq: $re is bound first, so for several regexes and flags the regexes are
// the outer loop (not the last-argument-outermost order of its C functions); gsub's `flags + "g"` is made in the
// inner loop.
st g_sub3(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto per_re = [&](const value& re) -> st {
    auto per_flags = [&](const value& flags) -> st { return sub_impl(I, call, in, re, flags, e, k); };
    return I.eval_arg(call, 2, in, e, make_sink(per_flags));
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_re));
}

st g_sub2(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto per_re = [&](const value& re) -> st { return sub_impl(I, call, in, re, value::string(""), e, k); };
  return I.eval_arg(call, 0, in, e, make_sink(per_re));
}

st g_gsub3(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto per_re = [&](const value& re) -> st {
    auto per_flags = [&](const value& flags) -> st {
      value f;
      const st s = arith(I, '+', flags, value::string("g"), f);
      if (s != st::ok) return s;
      return sub_impl(I, call, in, re, f, e, k);
    };
    return I.eval_arg(call, 2, in, e, make_sink(per_flags));
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_re));
}

st g_gsub2(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto per_re = [&](const value& re) -> st { return sub_impl(I, call, in, re, value::string("g"), e, k); };
  return I.eval_arg(call, 0, in, e, make_sink(per_re));
}

constexpr auto k_regex = sorted_natives(std::to_array<native_def>({
    {"_match_impl", 3, f_match_impl, nullptr, nullptr},
    {"sub", 3, nullptr, g_sub3, nullptr},
    {"sub", 2, nullptr, g_sub2, nullptr},
    {"gsub", 3, nullptr, g_gsub3, nullptr},
    {"gsub", 2, nullptr, g_gsub2, nullptr},
}));

}  // namespace

native_span regex_natives() { return {k_regex.data(), k_regex.size()}; }

}  // namespace jview::filter::detail
