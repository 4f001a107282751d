// core/filter/value_json.cpp: compact JSON text of values (tojson, tostring, error-message dumps) and jq 1.8's
// number texts (decNumber's canonical form of literals, shortest doubles). The text must match core/writer's
// compact output byte for byte.
#include <string>
#include <vector>

#include "core/dtoa.hpp"
#include "core/filter/value.hpp"

namespace jview::filter {

namespace {

// True when a literal is already in canonical form: an integer without leading zeros (the common case).
bool plain_integer(std::string_view s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i >= s.size()) return false;
  if (s[i] == '0') return i + 1 == s.size();
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}


constexpr char k_hex[] = "0123456789abcdef";

void append_escaped(std::string& out, std::string_view s) {
  out.push_back('"');
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    const char* run = p;
    while (p < end) {
      const unsigned char c = static_cast<unsigned char>(*p);
      if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) break;
      ++p;
    }
    out.append(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    const unsigned char c = static_cast<unsigned char>(*p++);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default: {
        char u[6] = {'\\', 'u', '0', '0', k_hex[c >> 4], k_hex[c & 15]};
        out.append(u, 6);
      }
    }
  }
  out.push_back('"');
}

void append_view(std::string& out, const document& d, std::uint32_t i);

void append_view_string(std::string& out, const document& d, std::uint32_t i) {
  const node& n = d[i];
  if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
    out.push_back('"');
    out.append(d.source() + n.offset, n.len);
    out.push_back('"');
  } else {
    std::string tmp;
    d.append_string(i, tmp);
    append_escaped(out, tmp);
  }
}

void append_view(std::string& out, const document& d, std::uint32_t i) {
  const node& n = d[i];
  switch (n.k) {
    case kind::null_: out += "null"; break;
    case kind::false_: out += "false"; break;
    case kind::true_: out += "true"; break;
    case kind::number: {
      std::string_view raw = d.raw(i);
      if (plain_integer(raw))
        out.append(raw);
      else
        out += canonical_number(raw);
      break;
    }
    case kind::string: append_view_string(out, d, i); break;
    case kind::array: {
      out.push_back('[');
      bool first = true;
      for (std::uint32_t c = i + 1; c < n.next; c = d[c].next) {
        if (!first) out.push_back(',');
        first = false;
        append_view(out, d, c);
      }
      out.push_back(']');
      break;
    }
    case kind::object: {
      out.push_back('{');
      const auto member = [&](std::uint32_t c, bool first) {
        if (!first) out.push_back(',');
        append_view_string(out, d, c);
        out.push_back(':');
        append_view(out, d, c + 1);
      };
      if ((n.flags & node_flag::duplicate_keys) != 0) [[unlikely]] {
        std::vector<std::uint32_t> keys;
        d.unique_member_keys(i, keys);
        for (std::size_t k = 0; k < keys.size(); ++k) member(keys[k], k == 0);
      } else {
        for (std::uint32_t c = i + 1; c < n.next; c = d[c + 1].next) member(c, c == i + 1);
      }
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

std::string canonical_number(std::string_view s) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  std::string digits;
  long frac = 0;
  bool in_frac = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      if (in_frac) ++frac;
    } else if (c == '.' && !in_frac) {
      in_frac = true;
    } else {
      break;
    }
  }
  long exp = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
      if (exp < 1000000000L) exp = exp * 10 + (s[i] - '0');
    if (eneg) exp = -exp;
  }
  std::size_t lead = 0;
  while (lead + 1 < digits.size() && digits[lead] == '0') ++lead;
  if (digits.empty()) digits.push_back('0');
  const std::string coeff = digits.substr(lead);
  const long e = exp - frac;
  const long nd = static_cast<long>(coeff.size());
  const long adjusted = e + nd - 1;
  std::string out;
  if (neg) out.push_back('-');
  if (e <= 0 && adjusted >= -6) {
    if (e == 0) {
      out += coeff;
    } else {
      const long point = nd + e;
      if (point > 0) {
        out.append(coeff, 0, static_cast<std::size_t>(point));
        out.push_back('.');
        out.append(coeff, static_cast<std::size_t>(point), std::string::npos);
      } else {
        out += "0.";
        out.append(static_cast<std::size_t>(-point), '0');
        out += coeff;
      }
    }
  } else {
    out.push_back(coeff[0]);
    if (nd > 1) {
      out.push_back('.');
      out.append(coeff, 1, std::string::npos);
    }
    out.push_back('E');
    out.push_back(adjusted < 0 ? '-' : '+');
    out += std::to_string(adjusted < 0 ? -adjusted : adjusted);
  }
  return out;
}

void append_double(std::string& out, double d) {
  char buf[k_max_double_chars + 8];
  char* e = write_double_shortest(d, buf);
  out.append(buf, static_cast<std::size_t>(e - buf));
}


void append_number(std::string& out, const value& v) {
  std::string_view lit = v.literal();
  if (lit.empty()) {
    append_double(out, v.number());
  } else if (!(v.is_view() || v.literal_as_read()) || plain_integer(lit)) {
    out.append(lit);  // program literals are canonical already
  } else {
    out += canonical_number(lit);  // jq 1.8 prints input literals in decNumber's form (1e2 -> 1E+2)
  }
}

namespace {
void append_json_depth(std::string& out, const value& v, int depth);
}

void append_json(std::string& out, const value& v) { append_json_depth(out, v, 0); }

namespace {

// jq stops printing below 10000 levels of nesting.
constexpr int k_max_print_depth = 10000;

void append_json_depth(std::string& out, const value& v, int depth) {
  if (depth > k_max_print_depth) {
    out += "<skipped: too deep>";
    return;
  }
  if (v.is_view()) {
    append_view(out, v.doc(), v.node_index());
    return;
  }
  switch (v.type()) {
    case kind::null_: out += "null"; break;
    case kind::false_: out += "false"; break;
    case kind::true_: out += "true"; break;
    case kind::number: append_number(out, v); break;
    case kind::string: {
      std::string tmp;
      append_escaped(out, v.str(tmp));
      break;
    }
    case kind::array: {
      out.push_back('[');
      bool first = true;
      for (const value& e : v.array_items()) {
        if (!first) out.push_back(',');
        first = false;
        append_json_depth(out, e, depth + 1);
      }
      out.push_back(']');
      break;
    }
    case kind::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& e : v.object_data_ref().entries) {
        if (!first) out.push_back(',');
        first = false;
        append_escaped(out, e.key);
        out.push_back(':');
        append_json_depth(out, e.val, depth + 1);
      }
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

std::string to_json(const value& v) {
  std::string s;
  if (v.is_view() && (v.is_array() || v.is_object())) {
    // Reserve about the source size of the subtree (up to its last node): growing a large string step by step
    // costs more in copies and page faults than the writing itself.
    const document& d = v.doc();
    const std::uint32_t i = v.node_index();
    const jview::node& last = d[d[i].next - 1];
    if (d[i].next - 1 > i) s.reserve(static_cast<std::size_t>(last.offset) + last.len - d[i].offset + 16);
  }
  append_json(s, v);
  return s;
}

std::string to_string(const value& v) {
  if (v.is_string()) return v.string_copy();
  return to_json(v);
}

std::string dump_trunc(const value& v) {
  std::string s = to_json(v);
  constexpr std::size_t k_max = 29;
  if (s.size() <= k_max) return s;
  // jq 1.8 keeps the closing quote or bracket of strings and containers after the "...".
  const bool closer = v.is_string() || v.is_array() || v.is_object();
  std::size_t cut = closer ? 25 : 26;
  // Never split a UTF-8 sequence: back up to the start of the character at the cut.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
  const char last = s.back();
  s.resize(cut);
  s += "...";
  if (closer) s.push_back(last);
  return s;
}

}  // namespace jview::filter
