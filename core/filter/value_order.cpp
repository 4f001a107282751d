// core/filter/value_order.cpp: jq's total order on values (compare, equals, sorted_keys): numbers as doubles, literals
// that meet in one double compared as decimals, objects by sorted key sets then values, and jq 1.8.2's depth limit
// on compared values (comparison_too_deep).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/filter/value.hpp"

namespace jview::filter {

namespace {

// A number literal as sign, significant digits (no leading/trailing zeros) and the decimal exponent of the
// first digit, for exact comparison of literals that round to the same double.
struct decimal {
  bool neg = false;
  std::string digits;
  long exp = 0;
};

bool parse_decimal(std::string_view s, decimal& d) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) d.neg = s[i++] == '-';
  long point = -1;
  long ndig = 0;
  std::string digs;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digs.push_back(c);
      ++ndig;
    } else if (c == '.') {
      point = ndig;
    } else {
      break;
    }
  }
  if (point < 0) point = ndig;
  long e = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
      if (e < 100000000) e = e * 10 + (s[i] - '0');
    if (eneg) e = -e;
  }
  std::size_t lead = 0;
  while (lead < digs.size() && digs[lead] == '0') ++lead;
  std::size_t end = digs.size();
  while (end > lead && digs[end - 1] == '0') --end;
  d.digits = digs.substr(lead, end - lead);
  d.exp = point - static_cast<long>(lead) + e;
  return true;
}

int compare_literals(std::string_view a, std::string_view b) {
  decimal x, y;
  parse_decimal(a, x);
  parse_decimal(b, y);
  const bool xz = x.digits.empty(), yz = y.digits.empty();
  if (xz && yz) return 0;
  const int sx = xz ? 0 : (x.neg ? -1 : 1);
  const int sy = yz ? 0 : (y.neg ? -1 : 1);
  if (sx != sy) return sx < sy ? -1 : 1;
  int mag;
  if (x.exp != y.exp) {
    mag = x.exp < y.exp ? -1 : 1;
  } else {
    const int c = x.digits.compare(y.digits);
    mag = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return sx < 0 ? -mag : mag;
}

int compare_numbers(const value& a, const value& b) {
  const double x = a.number(), y = b.number();
  if (x < y) return -1;
  if (x > y) return 1;
  if (x == y) {
    // Rounding is monotonic, so only literals that meet in one double need the exact decimal comparison (jq 1.8
    // compares two literals as decimals, anything else as doubles).
    std::string_view la = a.literal(), lb = b.literal();
    if (la.empty() && lb.empty()) return 0;
    std::string ta, tb;
    if (la.empty()) {
      if (!a.is_exact_literal()) return 0;
      append_double(ta, x);
      la = ta;
    }
    if (lb.empty()) {
      if (!b.is_exact_literal()) return 0;
      append_double(tb, y);
      lb = tb;
    }
    if (la != lb) return compare_literals(la, lb);
    return 0;
  }
  // NaN sorts below every number (jq: nan < anything numeric).
  const bool an = x != x, bn = y != y;
  if (an && bn) return -1;
  return an ? -1 : 1;
}

int compare_strings(std::string_view a, std::string_view b) {
  const int r = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (r != 0) return r < 0 ? -1 : 1;
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace

std::vector<std::string> sorted_keys(const value& obj) {
  std::vector<std::string> keys;
  keys.reserve(obj.length());
  obj.for_each_member([&](std::string_view k, const value&) { keys.emplace_back(k); });
  std::sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) { return compare_strings(a, b) < 0; });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

namespace {

[[noreturn]] void too_deep(const char* message) { throw comparison_too_deep{message}; }

// Whether comparing v with itself at nesting `depth` stays within jq's limit (jq's jv_cmp has no identity test,
// so two references to one deep value fail as two copies would).
bool compare_fits(const value& v, int depth) {
  if (depth > k_max_compare_depth) return false;
  bool ok = true;
  if (v.is_array()) {
    v.for_each_element([&](const value& x) {
      if (ok) ok = compare_fits(x, depth + 1);
    });
  } else if (v.is_object()) {
    if (depth + 1 > k_max_compare_depth || (v.length() > 0 && depth + 2 > k_max_compare_depth)) return false;
    v.for_each_member([&](std::string_view, const value& x) {
      if (ok) ok = compare_fits(x, depth + 1);
    });
  }
  return ok;
}

// A value compared with itself: equal, or too deep where walking it pairwise would be (the walk below would find
// the same, calling compare_fits again at every level of a deep value: quadratic).
int same_value(const value& v, int depth) {
  if (!compare_fits(v, depth)) too_deep("Comparison too deep");
  return 0;
}

void elements(const value& v, std::vector<value>& out) {
  out.reserve(v.length());
  v.for_each_element([&](const value& x) { out.push_back(x); });
}

}  // namespace

int compare(const value& a, const value& b, int depth) {
  if (depth > k_max_compare_depth) too_deep("Comparison too deep");
  const kind ka = a.type(), kb = b.type();
  if (ka != kb) return ka < kb ? -1 : 1;
  switch (ka) {
    case kind::null_:
    case kind::false_:
    case kind::true_: return 0;
    case kind::number: return compare_numbers(a, b);
    case kind::string: {
      std::string ta, tb;
      return compare_strings(a.str(ta), b.str(tb));
    }
    case kind::array: {
      if (a.same_storage(b)) return same_value(a, depth);
      const std::uint32_t na = a.length(), nb = b.length();
      const std::uint32_t n = std::min(na, nb);
      if (a.is_owned_array() && b.is_owned_array()) {
        const auto& x = a.array_items();
        const auto& y = b.array_items();
        for (std::uint32_t i = 0; i < n; ++i) {
          const int c = compare(x[i], y[i], depth + 1);
          if (c != 0) return c;
        }
      } else {
        std::vector<value> x, y;
        elements(a, x);
        elements(b, y);
        for (std::uint32_t i = 0; i < n; ++i) {
          const int c = compare(x[i], y[i], depth + 1);
          if (c != 0) return c;
        }
      }
      if (na == nb) return 0;
      return na < nb ? -1 : 1;
    }
    case kind::object: {
      if (a.same_storage(b)) return same_value(a, depth);
      // jq compares the arrays of sorted keys first, one level down (their strings two levels down).
      if (depth + 1 > k_max_compare_depth) too_deep("Comparison too deep");
      const std::vector<std::string> ka_ = sorted_keys(a), kb_ = sorted_keys(b);
      if (!ka_.empty() && !kb_.empty() && depth + 2 > k_max_compare_depth) too_deep("Comparison too deep");
      const std::size_t n = std::min(ka_.size(), kb_.size());
      for (std::size_t i = 0; i < n; ++i) {
        const int c = compare_strings(ka_[i], kb_[i]);
        if (c != 0) return c;
      }
      if (ka_.size() != kb_.size()) return ka_.size() < kb_.size() ? -1 : 1;
      for (const std::string& k : ka_) {
        const int c = compare(a.member(k), b.member(k), depth + 1);
        if (c != 0) return c;
      }
      return 0;
    }
  }
  return 0;
}

bool equals(const value& a, const value& b, int depth) {
  if (depth > k_max_compare_depth) too_deep("Equality check too deep");
  const kind ka = a.type();
  if (ka != b.type()) return false;
  switch (ka) {
    case kind::null_:
    case kind::false_:
    case kind::true_: return true;
    case kind::number: return compare_numbers(a, b) == 0;
    case kind::string: {
      if (a.same_storage(b)) return true;
      std::string ta;
      return b.string_equals(a.str(ta));
    }
    case kind::array: {
      if (a.same_storage(b)) return true;
      const std::uint32_t n = a.length();
      if (n != b.length()) return false;
      if (a.is_owned_array() && b.is_owned_array()) {
        const auto& x = a.array_items();
        const auto& y = b.array_items();
        for (std::uint32_t i = 0; i < n; ++i)
          if (!equals(x[i], y[i], depth + 1)) return false;
        return true;
      }
      std::vector<value> x, y;
      elements(a, x);
      elements(b, y);
      for (std::uint32_t i = 0; i < n; ++i)
        if (!equals(x[i], y[i], depth + 1)) return false;
      return true;
    }
    case kind::object: {
      if (a.same_storage(b)) return true;
      if (a.length() != b.length()) return false;
      bool eq = true;
      a.for_each_member([&](std::string_view k, const value& v) {
        if (!eq) return;
        bool found = false;
        value w = b.member(k, &found);
        if (!found || !equals(v, w, depth + 1)) eq = false;
      });
      // Views may hold duplicate keys (length counts them): fall back to the full order then.
      if (eq) return true;
      if (a.is_view() || b.is_view()) {
        try {
          return compare(a, b, depth) == 0;
        } catch (const comparison_too_deep&) {
          too_deep("Equality check too deep");
        }
      }
      return false;
    }
  }
  return false;
}

}  // namespace jview::filter
