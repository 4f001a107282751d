// core/filter/strings.cpp: string natives (tostring, tonumber, explode/implode, trimming, split/join, case),
// JSON text (tojson, fromjson) and the @formats (text json html uri csv tsv sh base64 base64d), with jq 1.8's
// error texts.
#include <cmath>
#include <cstring>

#include "core/dtoa.hpp"
#include "core/filter/builtins.hpp"
#include "core/filter/parser.hpp"
#include "core/number.hpp"
#include "core/utf8.hpp"

namespace jview::filter::detail {

namespace {

// Invalid UTF-8 (from @base64d) replaced as jq's decoder does (core/utf8.hpp, the one replacer).
std::string sanitize_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  utf8::append_replacing(out, s);
  return out;
}

std::string tostring_of(const value& v) { return to_string(v); }

st f_tostring(interp&, const value& in, const value*, value& out) {
  if (in.is_string()) {
    out = in;
    return st::ok;
  }
  out = value::string(to_json(in));
  return st::ok;
}

st f_tojson(interp&, const value& in, const value*, value& out) {
  out = value::string(to_json(in));
  return st::ok;
}

st f_fromjson(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return type_error(I, in, "only strings can be parsed");
  std::string tmp;
  std::string_view text = in.str(tmp);
  std::string err;
  if (parse_json_text(text, out, err)) return st::ok;
  // Not strict JSON: jq's own reader accepts more (nan, 01) and words its errors its own way.
  if (parse_json_jq(text, out, err)) return st::ok;
  return I.fail(err + " (while parsing '" + std::string(text) + "')");
}

}  // namespace

// A number in jq's literal syntax (tonumber, fromjson): sign, digits, fraction, exponent, or nan/infinity.
bool parse_number_literal(std::string_view s, value& out);

namespace {

bool parse_number_text(std::string_view s, value& out) { return parse_number_literal(s, out); }

}  // namespace

bool parse_number_literal(std::string_view s, value& out) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  std::string_view rest = s.substr(i);
  auto ieq = [](std::string_view a, const char* b) {
    if (a.size() != std::strlen(b)) return false;
    for (std::size_t j = 0; j < a.size(); ++j)
      if ((a[j] | 0x20) != b[j]) return false;
    return true;
  };
  if (ieq(rest, "inf") || ieq(rest, "infinity")) {
    out = value::number(neg ? -HUGE_VAL : HUGE_VAL);
    return true;
  }
  if (ieq(rest, "nan") || ieq(rest, "snan")) {
    out = value::number(std::nan(""));
    return true;
  }
  std::size_t j = 0;
  std::size_t digits = 0;
  while (j < rest.size() && rest[j] >= '0' && rest[j] <= '9') ++j, ++digits;
  if (j < rest.size() && rest[j] == '.') {
    ++j;
    while (j < rest.size() && rest[j] >= '0' && rest[j] <= '9') ++j, ++digits;
  }
  if (digits == 0) return false;
  if (j < rest.size() && (rest[j] == 'e' || rest[j] == 'E')) {
    ++j;
    if (j < rest.size() && (rest[j] == '+' || rest[j] == '-')) ++j;
    std::size_t ed = 0;
    while (j < rest.size() && rest[j] >= '0' && rest[j] <= '9') ++j, ++ed;
    if (ed == 0) return false;
  }
  if (j != rest.size()) return false;
  std::string text = neg ? "-" + std::string(rest) : std::string(rest);
  double d = number_to_double(rest);
  if (neg) d = -d;
  std::string canon = parser::canonical_number(text);
  char buf[k_max_double_chars + 8];
  char* e = write_double_shortest(d, buf);
  if (canon == std::string_view(buf, static_cast<std::size_t>(e - buf)))
    out = value::number_exact(d);
  else
    out = value::number_literal(d, std::move(canon));
  return true;
}

namespace {

st f_tonumber(interp& I, const value& in, const value*, value& out) {
  if (in.is_number()) {
    out = in;
    return st::ok;
  }
  if (in.is_string()) {
    std::string tmp;
    if (parse_number_text(in.str(tmp), out)) return st::ok;
  }
  return type_error(I, in, "cannot be parsed as a number");
}

st f_toboolean(interp& I, const value& in, const value*, value& out) {
  if (in.type() == kind::true_ || in.type() == kind::false_) {
    out = in;
    return st::ok;
  }
  if (in.is_string()) {
    if (in.string_equals("true")) {
      out = value::boolean(true);
      return st::ok;
    }
    if (in.string_equals("false")) {
      out = value::boolean(false);
      return st::ok;
    }
  }
  return type_error(I, in, "cannot be parsed as a boolean");
}

st f_explode(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return I.fail("explode input must be a string");
  std::string tmp;
  std::string_view s = in.str(tmp);
  std::vector<value> cps;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* end = p + s.size();
  while (p < end) {
    std::uint32_t cp = *p;
    std::size_t k = 1;
    if (cp >= 0x80) {
      k = utf8::decode(p, end, cp);
      if (k == 0) {  // (strings are valid UTF-8 when they enter; this keeps explode to jq's rule regardless)
        cp = utf8::k_replacement;
        k = utf8::invalid_length(p, end);
      }
    }
    cps.push_back(value::number(cp));
    p += k;
  }
  out = value::array(std::move(cps));
  return st::ok;
}

st f_implode(interp& I, const value& in, const value*, value& out) {
  if (!in.is_array()) return I.fail("implode input must be an array");
  std::string s;
  st r = st::ok;
  in.for_each_element([&](const value& v) {
    if (r != st::ok) return;
    if (!v.is_number()) {
      r = I.fail(std::string(v.type_name()) + " (" + dump_trunc(v) +
                 ") can't be imploded, unicode codepoint needs to be numeric");
      return;
    }
    const double d = v.number();
    if (std::isnan(d)) {
      r = I.fail("number (null) can't be imploded, unicode codepoint needs to be numeric");
      return;
    }
    std::uint32_t cp;
    if (!(d >= 0 && d <= 0x10ffff))
      cp = utf8::k_replacement;
    else
      cp = static_cast<std::uint32_t>(d);
    if (cp >= 0xd800 && cp <= 0xdfff) cp = utf8::k_replacement;
    utf8::append(s, cp);
  });
  if (r != st::ok) return r;
  out = value::string(std::move(s));
  return st::ok;
}

template <bool Upper>
st f_ascii_case(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return I.fail("explode input must be a string");
  std::string s = in.string_copy();
  for (char& c : s) {
    if (Upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!Upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  out = value::string(std::move(s));
  return st::ok;
}

st f_startswith(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_string() || !args[0].is_string()) return I.fail("startswith() requires string inputs");
  std::string ta, tb;
  std::string_view s = in.str(ta), p = args[0].str(tb);
  out = value::boolean(s.substr(0, p.size()) == p);
  return st::ok;
}

st f_endswith(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_string() || !args[0].is_string()) return I.fail("endswith() requires string inputs");
  std::string ta, tb;
  std::string_view s = in.str(ta), p = args[0].str(tb);
  out = value::boolean(s.size() >= p.size() && s.substr(s.size() - p.size()) == p);
  return st::ok;
}

st f_ltrimstr(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_string() || !args[0].is_string()) return I.fail("startswith() requires string inputs");
  std::string ta, tb;
  std::string_view s = in.str(ta), p = args[0].str(tb);
  if (s.substr(0, p.size()) == p)
    out = value::string(s.substr(p.size()));
  else
    out = in;
  return st::ok;
}

st f_rtrimstr(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_string() || !args[0].is_string()) return I.fail("endswith() requires string inputs");
  std::string ta, tb;
  std::string_view s = in.str(ta), p = args[0].str(tb);
  if (s.size() >= p.size() && s.substr(s.size() - p.size()) == p)
    out = value::string(s.substr(0, s.size() - p.size()));
  else
    out = in;
  return st::ok;
}

st f_trimstr(interp& I, const value& in, const value* args, value& out) {
  value mid;
  const st s = f_ltrimstr(I, in, args, mid);
  if (s != st::ok) return s;
  return f_rtrimstr(I, mid, args, out);
}

// Unicode white space (what jq 1.8's trim removes).
bool is_space_cp(std::uint32_t c) {
  return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

template <bool Left, bool Right>
st f_trim(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return I.fail("trim input must be a string");
  std::string tmp;
  std::string_view s = in.str(tmp);
  const unsigned char* b = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* e = b + s.size();
  if (Left) {
    while (b < e) {
      std::uint32_t cp = *b;
      std::size_t k = 1;
      if (cp >= 0x80) k = utf8::decode(b, e, cp);
      if (k == 0 || !is_space_cp(cp)) break;
      b += k;
    }
  }
  if (Right) {
    while (e > b) {
      const unsigned char* q = e - 1;
      while (q > b && (*q & 0xc0) == 0x80) --q;
      std::uint32_t cp = *q;
      std::size_t k = 1;
      if (cp >= 0x80) k = utf8::decode(q, e, cp);
      if (k == 0 || !is_space_cp(cp)) break;
      e = q;
    }
  }
  if (b == reinterpret_cast<const unsigned char*>(s.data()) && e == b + s.size())
    out = in;  // nothing trimmed: the input itself, as jq returns it (`path(trim)` is then the input's path)
  else
    out = value::string(std::string_view(reinterpret_cast<const char*>(b), static_cast<std::size_t>(e - b)));
  return st::ok;
}

st f_split1(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_string() || !args[0].is_string()) return I.fail("split input and separator must be strings");
  std::string ta, tb;
  std::string_view s = in.str(ta), sep = args[0].str(tb);
  std::vector<value> parts;
  if (!s.empty()) {
    if (sep.empty()) {
      // An empty separator splits into characters (like `/ ""`).
      std::size_t i = 0;
      while (i < s.size()) {
        std::size_t j = i + 1;
        while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xc0) == 0x80) ++j;
        parts.push_back(value::string(s.substr(i, j - i)));
        i = j;
      }
    } else {
      std::size_t start = 0;
      for (;;) {
        const std::size_t p = s.find(sep, start);
        if (p == std::string_view::npos) {
          parts.push_back(value::string(s.substr(start)));
          break;
        }
        parts.push_back(value::string(s.substr(start, p - start)));
        start = p + sep.size();
      }
    }
  }
  out = value::array(std::move(parts));
  return st::ok;
}

st f_join(interp& I, const value& in, const value* args, value& out) {
  std::vector<value> xs;
  if (in.is_array()) {
    in.for_each_element([&](const value& v) { xs.push_back(v); });
  } else if (in.is_object()) {
    in.for_each_member([&](std::string_view, const value& v) { xs.push_back(v); });
  } else {
    return I.fail(std::string("Cannot iterate over ") + in.type_name() +
                  (in.is_null() ? std::string(" (null)") : " (" + dump_trunc(in) + ")"));
  }
  if (xs.empty()) {
    out = value::string("");
    return st::ok;
  }
  const value& sep = args[0];
  std::string acc;
  bool first = true;
  for (const value& x : xs) {
    if (!first) {
      // `. + $sep` on the accumulated string.
      if (sep.is_string()) {
        std::string tmp;
        acc.append(sep.str(tmp));
      } else if (!sep.is_null()) {
        value a = value::string(acc), r;
        const st s = arith(I, '+', a, sep, r);
        if (s != st::ok) return s;
      }
    }
    first = false;
    switch (x.type()) {
      case kind::null_: break;
      case kind::false_:
      case kind::true_:
      case kind::number: append_json(acc, x); break;
      case kind::string: {
        std::string tmp;
        acc.append(x.str(tmp));
        break;
      }
      default: {
        value a = value::string(acc), r;
        return arith(I, '+', a, x, r);
      }
    }
  }
  out = value::string(std::move(acc));
  return st::ok;
}

st f_format(interp& I, const value& in, const value* args, value& out) {
  if (!args[0].is_string()) return type_error(I, args[0], "is not a valid format");
  return format_value(I, args[0].string_copy(), in, out);
}

st f_abs(interp& I, const value& in, const value*, value& out) {
  if (compare(in, value::number(0)) < 0) {
    if (!in.is_number()) return type_error(I, in, "cannot be negated");
    out = negate(in);
    return st::ok;
  }
  out = in;
  return st::ok;
}

constexpr auto k_strings = sorted_natives(std::to_array<native_def>({
    {"tostring", 0, f_tostring, nullptr, nullptr},
    {"tojson", 0, f_tojson, nullptr, nullptr},
    {"fromjson", 0, f_fromjson, nullptr, nullptr},
    {"tonumber", 0, f_tonumber, nullptr, nullptr},
    {"toboolean", 0, f_toboolean, nullptr, nullptr},
    {"explode", 0, f_explode, nullptr, nullptr},
    {"implode", 0, f_implode, nullptr, nullptr},
    {"ascii_downcase", 0, f_ascii_case<false>, nullptr, nullptr},
    {"ascii_upcase", 0, f_ascii_case<true>, nullptr, nullptr},
    {"startswith", 1, f_startswith, nullptr, nullptr},
    {"endswith", 1, f_endswith, nullptr, nullptr},
    {"ltrimstr", 1, f_ltrimstr, nullptr, nullptr},
    {"rtrimstr", 1, f_rtrimstr, nullptr, nullptr},
    {"trimstr", 1, f_trimstr, nullptr, nullptr},
    {"trim", 0, f_trim<true, true>, nullptr, nullptr},
    {"ltrim", 0, f_trim<true, false>, nullptr, nullptr},
    {"rtrim", 0, f_trim<false, true>, nullptr, nullptr},
    {"split", 1, f_split1, nullptr, nullptr},
    {"join", 1, f_join, nullptr, nullptr},
    {"format", 1, f_format, nullptr, nullptr},
    {"abs", 0, f_abs, nullptr, nullptr},
}));

// ---- formats ----

constexpr char k_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_encode(std::string_view s, std::string& out) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t n = s.size(), i = 0;
  for (; i + 3 <= n; i += 3) {
    const std::uint32_t v = (p[i] << 16) | (p[i + 1] << 8) | p[i + 2];
    out.push_back(k_b64[(v >> 18) & 63]);
    out.push_back(k_b64[(v >> 12) & 63]);
    out.push_back(k_b64[(v >> 6) & 63]);
    out.push_back(k_b64[v & 63]);
  }
  if (n - i == 1) {
    const std::uint32_t v = p[i] << 16;
    out.push_back(k_b64[(v >> 18) & 63]);
    out.push_back(k_b64[(v >> 12) & 63]);
    out += "==";
  } else if (n - i == 2) {
    const std::uint32_t v = (p[i] << 16) | (p[i + 1] << 8);
    out.push_back(k_b64[(v >> 18) & 63]);
    out.push_back(k_b64[(v >> 12) & 63]);
    out.push_back(k_b64[(v >> 6) & 63]);
    out.push_back('=');
  }
}

int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

st base64_decode(interp& I, const value& v, std::string_view s, std::string& out) {
  std::string bytes;
  std::uint32_t acc = 0;
  int bits = 0, count = 0;
  for (char c : s) {
    if (c == '=') break;
    const int d = b64_value(c);
    if (d < 0) return type_error(I, v, "is not valid base64 data");
    acc = (acc << 6) | static_cast<std::uint32_t>(d);
    bits += 6;
    ++count;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  if (count % 4 == 1) return type_error(I, v, "trailing base64 byte found");
  out += sanitize_utf8(bytes);
  return st::ok;
}

// A number in @csv and @tsv: NaN is an empty field, as jq 1.8 writes it (`[nan] | @csv` is "").
void csv_or_tsv_number(std::string& out, const value& x) {
  if (x.is_number() && std::isnan(x.number())) return;
  append_number(out, x);
}

}  // namespace

st format_value(interp& I, std::string_view name, const value& v, value& out) {
  if (v.is_string() && name == "text") {
    out = v;
    return st::ok;
  }
  std::string text;
  const st s = apply_format(I, name, v, text);
  if (s != st::ok) return s;
  out = value::string(std::move(text));
  return st::ok;
}

st apply_format(interp& I, std::string_view name, const value& v, std::string& out) {
  if (name == "text") {
    out += tostring_of(v);
    return st::ok;
  }
  if (name == "json") {
    append_json(out, v);
    return st::ok;
  }
  if (name == "html") {
    const std::string s = tostring_of(v);
    for (char c : s) {
      switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '\'': out += "&apos;"; break;
        case '"': out += "&quot;"; break;
        case '\0': out += "\\0"; break;  // jq 1.8's escaping writes NUL as \0 in every format
        default: out.push_back(c);
      }
    }
    return st::ok;
  }
  if (name == "uri") {
    const std::string s = tostring_of(v);
    static const char hex[] = "0123456789ABCDEF";
    for (unsigned char c : s) {
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
          c == '.' || c == '~') {
        out.push_back(static_cast<char>(c));
      } else {
        out.push_back('%');
        out.push_back(hex[c >> 4]);
        out.push_back(hex[c & 15]);
      }
    }
    return st::ok;
  }
  if (name == "urid") {
    const std::string s = tostring_of(v);
    std::string bytes;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '%') {
        bytes.push_back(s[i]);
        continue;
      }
      const int hi = i + 1 < s.size() ? utf8::hex_value(s[i + 1]) : -1;
      const int lo = i + 2 < s.size() ? utf8::hex_value(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) return type_error(I, v, "is not a valid uri encoding");
      bytes.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    }
    const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const unsigned char* end = p + bytes.size();
    while (p < end) {
      if (*p < 0x80) {
        ++p;
        continue;
      }
      const std::size_t k = utf8::sequence_length(p, end);
      if (k == 0) return type_error(I, v, "is not a valid uri encoding");
      p += k;
    }
    out += bytes;
    return st::ok;
  }
  if (name == "csv" || name == "tsv") {
    const bool csv = name == "csv";
    if (!v.is_array())
      return type_error(I, v, csv ? "cannot be csv-formatted, only array" : "cannot be tsv-formatted, only array");
    bool first = true;
    st r = st::ok;
    v.for_each_element([&](const value& x) {
      if (r != st::ok) return;
      if (!first) out.push_back(csv ? ',' : '\t');
      first = false;
      switch (x.type()) {
        case kind::null_: break;
        case kind::false_: out += "false"; break;
        case kind::true_: out += "true"; break;
        case kind::number: csv_or_tsv_number(out, x); break;
        case kind::string: {
          std::string tmp;
          std::string_view s = x.str(tmp);
          if (csv) {
            out.push_back('"');
            for (char c : s) {
              if (c == '"') out.push_back('"');
              if (c == '\0')
                out += "\\0";
              else
                out.push_back(c);
            }
            out.push_back('"');
          } else {
            for (char c : s) {
              switch (c) {
                case '\\': out += "\\\\"; break;
                case '\t': out += "\\t"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\0': out += "\\0"; break;  // jq 1.8
                default: out.push_back(c);
              }
            }
          }
          break;
        }
        default: r = type_error(I, x, "is not valid in a csv row"); break;
      }
    });
    return r;
  }
  if (name == "sh") {
    auto one = [&](const value& x) -> st {
      switch (x.type()) {
        case kind::string: {
          std::string tmp;
          std::string_view s = x.str(tmp);
          out.push_back('\'');
          for (char c : s) {
            if (c == '\'')
              out += "'\\''";
            else if (c == '\0')
              out += "\\0";
            else
              out.push_back(c);
          }
          out.push_back('\'');
          return st::ok;
        }
        case kind::array:
        case kind::object: return type_error(I, x, "can not be escaped for shell");
        default: append_json(out, x); return st::ok;
      }
    };
    if (!v.is_array()) return one(v);
    bool first = true;
    st r = st::ok;
    v.for_each_element([&](const value& x) {
      if (r != st::ok) return;
      if (!first) out.push_back(' ');
      first = false;
      r = one(x);
    });
    return r;
  }
  if (name == "base64") {
    base64_encode(tostring_of(v), out);
    return st::ok;
  }
  if (name == "base64d") {
    const std::string s = tostring_of(v);
    return base64_decode(I, value::string(s), s, out);  // an error names the text (jq 1.8: string ("1"))
  }
  return I.fail(std::string(name) + " is not a valid format");
}

native_span string_natives() { return {k_strings.data(), k_strings.size()}; }

}  // namespace jview::filter::detail
