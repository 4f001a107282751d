// core/filter/math_time.cpp: libm natives (one X-macro list per arity, as jq's builtin.c has) and the date
// natives (gmtime, localtime, mktime, strftime, strflocaltime, strptime, now) on jq's "broken down time" arrays
// [year, month 0-11, day, hours, minutes, seconds, weekday, yearday].
#include <sys/time.h>

#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>
#include <ctime>

#include "core/filter/builtins.hpp"
#include "core/filter/shared_libraries.hpp"

namespace jview::filter::detail {

namespace {

inline st need_number(interp& I, const value& v) { return type_error(I, v, "number required"); }

// libm is opened on the first math builtin (shared_libraries.hpp); `m` names it in the natives below.
#define JVIEW_NEED_LIBM(I, m)                                                   \
  std::string why_;                                                             \
  const libm_library* m = libm(why_);                                           \
  if (m == nullptr) return (I).fail("math functions need libm: " + why_)

#define JVIEW_X(name)                                                          \
  st m_##name(interp& I, const value& in, const value*, value& out) {          \
    if (!in.is_number()) return need_number(I, in);                            \
    JVIEW_NEED_LIBM(I, m);                                                     \
    out = value::number(m->name(in.number()));                                 \
    return st::ok;                                                             \
  }
JVIEW_LIBM_UNARY(JVIEW_X)
#undef JVIEW_X

st m_exp10(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return need_number(I, in);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->pow(10.0, in.number()));
  return st::ok;
}
st m_gamma(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return need_number(I, in);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->lgamma(in.number()));
  return st::ok;
}
st m_significand(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return need_number(I, in);
  const double d = in.number();
  if (d == 0 || !std::isfinite(d)) {
    out = value::number(d);
    return st::ok;
  }
  JVIEW_NEED_LIBM(I, m);
  int e;
  out = value::number(m->frexp(d, &e) * 2);
  return st::ok;
}
st m_frexp(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return need_number(I, in);
  JVIEW_NEED_LIBM(I, m);
  int e = 0;
  const double f = m->frexp(in.number(), &e);
  out = value::array({value::number(f), value::number(e)});
  return st::ok;
}
st m_modf(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return need_number(I, in);
  JVIEW_NEED_LIBM(I, m);
  double ip = 0;
  const double f = m->modf(in.number(), &ip);
  out = value::array({value::number(f), value::number(ip)});
  return st::ok;
}
st m_lgamma_r(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return need_number(I, in);
  JVIEW_NEED_LIBM(I, m);
  int sign = 1;
  const double r = m->lgamma_r(in.number(), &sign);
  out = value::array({value::number(r), value::number(sign)});
  return st::ok;
}

// Two numbers: both checked before libm is asked.
#define JVIEW_NEED_TWO_NUMBERS(I, a)                   \
  if (!(a)[0].is_number()) return need_number(I, (a)[0]); \
  if (!(a)[1].is_number()) return need_number(I, (a)[1])

#define JVIEW_X(name)                                                            \
  st m_##name(interp& I, const value&, const value* a, value& out) {             \
    JVIEW_NEED_TWO_NUMBERS(I, a);                                                \
    JVIEW_NEED_LIBM(I, m);                                                       \
    out = value::number(m->name(a[0].number(), a[1].number()));                  \
    return st::ok;                                                               \
  }
JVIEW_LIBM_BINARY(JVIEW_X)
#undef JVIEW_X

st m_drem(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->remainder(a[0].number(), a[1].number()));
  return st::ok;
}
st m_nexttoward(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->nexttoward(a[0].number(), static_cast<long double>(a[1].number())));
  return st::ok;
}
st m_ldexp(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->ldexp(a[0].number(), c_int_of(a[1].number())));
  return st::ok;
}
st m_scalb(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(a[0].number() * m->pow(2.0, a[1].number()));
  return st::ok;
}
st m_scalbln(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->scalbln(a[0].number(), c_long_of(a[1].number())));
  return st::ok;
}
st m_jn(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->jn(c_int_of(a[0].number()), a[1].number()));
  return st::ok;
}
st m_yn(interp& I, const value&, const value* a, value& out) {
  JVIEW_NEED_TWO_NUMBERS(I, a);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->yn(c_int_of(a[0].number()), a[1].number()));
  return st::ok;
}
st m_fma(interp& I, const value&, const value* a, value& out) {
  for (int i = 0; i < 3; ++i)
    if (!a[i].is_number()) return need_number(I, a[i]);
  JVIEW_NEED_LIBM(I, m);
  out = value::number(m->fma(a[0].number(), a[1].number(), a[2].number()));
  return st::ok;
}

st m_infinite(interp&, const value&, const value*, value& out) {
  out = value::number(HUGE_VAL);
  return st::ok;
}
st m_nan(interp&, const value&, const value*, value& out) {
  out = value::number(std::nan(""));
  return st::ok;
}
// jq 1.8 answers false for anything that is not a number.
st m_isinfinite(interp&, const value& in, const value*, value& out) {
  out = value::boolean(in.is_number() && std::isinf(in.number()));
  return st::ok;
}
st m_isnan(interp&, const value& in, const value*, value& out) {
  out = value::boolean(in.is_number() && std::isnan(in.number()));
  return st::ok;
}
st m_isnormal(interp&, const value& in, const value*, value& out) {
  out = value::boolean(in.is_number() && std::isnormal(in.number()));
  return st::ok;
}
st m_isfinite(interp&, const value& in, const value*, value& out) {
  out = value::boolean(in.is_number() && !std::isinf(in.number()));
  return st::ok;
}

// ---- dates ----

value tm_to_value(const std::tm& tm, double seconds) {
  return value::array({value::number(tm.tm_year + 1900.0), value::number(tm.tm_mon), value::number(tm.tm_mday),
                       value::number(tm.tm_hour), value::number(tm.tm_min), value::number(seconds),
                       value::number(tm.tm_wday), value::number(tm.tm_yday)});
}

bool value_to_tm(const value& v, std::tm& tm, double* seconds = nullptr) {
  if (!v.is_array()) return false;
  std::memset(&tm, 0, sizeof tm);
  int* fields[] = {&tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &tm.tm_wday, &tm.tm_yday};
  const std::uint32_t n = v.length();
  // As jq 1.8's jv2tm: missing fields stay 0 (the year then is 1900), values clamp to int, NaN is refused.
  for (std::uint32_t i = 0; i < n && i < 8; ++i) {
    const value x = v.element(i);
    if (!x.is_number() || std::isnan(x.number())) return false;
    double d = x.number();
    if (i == 5 && seconds != nullptr) *seconds = d;
    if (i == 0) d -= 1900;
    *fields[i] = d < INT_MIN ? INT_MIN : d > INT_MAX ? INT_MAX : static_cast<int>(d);
  }
  return true;
}

st d_gmtime(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return I.fail("gmtime() requires numeric inputs");
  const double d = in.number();
  const double fl = std::floor(d);
  if (!(fl > -67768040609740800.0 && fl < 67767976233316800.0))
    return I.fail("error converting number of seconds since epoch to datetime");
  // jq 1.8: the whole seconds truncated toward zero, plus the fraction above the floor (-1.5 is 23:59:59.5)
  const std::time_t t = static_cast<std::time_t>(std::trunc(d));
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return I.fail("error converting number of seconds since epoch to datetime");
  out = tm_to_value(tm, tm.tm_sec + (d - fl));
  return st::ok;
}

st d_localtime(interp& I, const value& in, const value*, value& out) {
  if (!in.is_number()) return I.fail("localtime() requires numeric inputs");
  const double d = in.number();
  const double fl = std::floor(d);
  if (!(fl > -67768040609740800.0 && fl < 67767976233316800.0))
    return I.fail("error converting number of seconds since epoch to datetime");
  // jq 1.8: the whole seconds truncated toward zero, plus the fraction above the floor (-1.5 is 23:59:59.5)
  const std::time_t t = static_cast<std::time_t>(std::trunc(d));
  std::tm tm{};
  if (localtime_r(&t, &tm) == nullptr) return I.fail("error converting number of seconds since epoch to datetime");
  out = tm_to_value(tm, tm.tm_sec + (d - fl));
  return st::ok;
}

st d_mktime(interp& I, const value& in, const value*, value& out) {
  if (!in.is_array()) return I.fail("mktime requires array inputs");
  std::tm tm{};
  if (!value_to_tm(in, tm)) return I.fail("mktime requires parsed datetime inputs");
  const std::time_t t = timegm(&tm);
  out = value::number(static_cast<double>(t));
  return st::ok;
}

st time_input(interp& I, const value& in, std::tm& tm, const char* who, bool local) {
  if (in.is_number()) {
    value bt;
    const st s = local ? d_localtime(I, in, nullptr, bt) : d_gmtime(I, in, nullptr, bt);
    if (s != st::ok) return s;
    value_to_tm(bt, tm);
    return st::ok;
  }
  if (!in.is_array() || !value_to_tm(in, tm)) return I.fail(std::string(who) + " requires parsed datetime inputs");
  return st::ok;
}

// jq 1.8 normalises the broken-down time before formatting it: timegm (strftime: day 0 is the last of the month
// before, and %Z is "GMT") or mktime in the local zone with DST found (strflocaltime: %z and %Z of that date).
void normalise_tm(std::tm& tm, bool local) {
  if (local) {
    tm.tm_isdst = -1;
    (void)std::mktime(&tm);
  } else {
    (void)timegm(&tm);
  }
}

st format_time(interp& I, const value& in, const value& fmt, value& out, bool local) {
  const char* who = local ? "strflocaltime/1" : "strftime/1";
  // jq 1.8's order of checks: an input that is neither a number nor an array (and a number gmtime rejects), then
  // the format, then the array's elements.
  if (!in.is_number() && !in.is_array()) return I.fail(std::string(who) + " requires parsed datetime inputs");
  std::tm tm{};
  if (in.is_number()) {
    const st s = time_input(I, in, tm, who, local);
    if (s != st::ok) return s;
  }
  if (!fmt.is_string()) return I.fail(std::string(who) + " requires a string format");
  if (in.is_array()) {
    const st s = time_input(I, in, tm, who, local);
    if (s != st::ok) return s;
  }
  normalise_tm(tm, local);
  const std::string f = fmt.string_copy();
  if (f.empty()) {
    out = value::string("");
    return st::ok;
  }
  std::string buf(256, '\0');
  for (;;) {
    const std::size_t n = std::strftime(buf.data(), buf.size(), f.c_str(), &tm);
    if (n > 0 || buf.size() > 65536) {
      buf.resize(n);
      break;
    }
    buf.resize(buf.size() * 4);
  }
  out = value::string(std::move(buf));
  return st::ok;
}

st d_strftime(interp& I, const value& in, const value* a, value& out) { return format_time(I, in, a[0], out, false); }
st d_strflocaltime(interp& I, const value& in, const value* a, value& out) {
  return format_time(I, in, a[0], out, true);
}

st d_strptime(interp& I, const value& in, const value* a, value& out) {
  if (!in.is_string() || !a[0].is_string()) return I.fail("strptime/1 requires string inputs and arguments");
  const std::string s = in.string_copy();
  const std::string f = a[0].string_copy();
  std::tm tm{};
  tm.tm_wday = 8;
  tm.tm_yday = 367;
  const char* end = strptime(s.c_str(), f.c_str(), &tm);
  // jq 1.8 accepts text left after the format when it begins with white space, and gives it as a 9th element.
  if (end == nullptr || (*end != '\0' && std::isspace(static_cast<unsigned char>(*end)) == 0))
    return I.fail("date \"" + s + "\" does not match format \"" + f + "\"");
  // Weekday and day of the year from the date, as jq computes them.
  if (tm.tm_mday >= 1) {
    std::tm copy = tm;
    const std::time_t t = timegm(&copy);
    std::tm norm{};
    if (gmtime_r(&t, &norm) != nullptr) {
      tm.tm_wday = norm.tm_wday;
      tm.tm_yday = norm.tm_yday;
    }
  }
  out = tm_to_value(tm, tm.tm_sec);
  if (*end != '\0') out.array_mut().push_back(value::string(std::string_view(end)));
  return st::ok;
}

st d_now(interp&, const value&, const value*, value& out) {
  timeval tv{};
  gettimeofday(&tv, nullptr);
  out = value::number(static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6);
  return st::ok;
}

constexpr auto k_math = sorted_natives(std::to_array<native_def>({
#define JVIEW_X(name) {#name, 0, m_##name, nullptr, nullptr},
    JVIEW_LIBM_UNARY(JVIEW_X)
#undef JVIEW_X
#define JVIEW_X(name) {#name, 2, m_##name, nullptr, nullptr},
    JVIEW_LIBM_BINARY(JVIEW_X)
#undef JVIEW_X
    {"exp10", 0, m_exp10, nullptr, nullptr},
    {"gamma", 0, m_gamma, nullptr, nullptr},
    {"significand", 0, m_significand, nullptr, nullptr},
    {"frexp", 0, m_frexp, nullptr, nullptr},
    {"modf", 0, m_modf, nullptr, nullptr},
    {"lgamma_r", 0, m_lgamma_r, nullptr, nullptr},
    {"drem", 2, m_drem, nullptr, nullptr},
    {"nexttoward", 2, m_nexttoward, nullptr, nullptr},
    {"ldexp", 2, m_ldexp, nullptr, nullptr},
    {"scalb", 2, m_scalb, nullptr, nullptr},
    {"scalbln", 2, m_scalbln, nullptr, nullptr},
    {"jn", 2, m_jn, nullptr, nullptr},
    {"yn", 2, m_yn, nullptr, nullptr},
    {"fma", 3, m_fma, nullptr, nullptr},
    {"infinite", 0, m_infinite, nullptr, nullptr},
    {"nan", 0, m_nan, nullptr, nullptr},
    {"isinfinite", 0, m_isinfinite, nullptr, nullptr},
    {"isnan", 0, m_isnan, nullptr, nullptr},
    {"isnormal", 0, m_isnormal, nullptr, nullptr},
    {"isfinite", 0, m_isfinite, nullptr, nullptr},
    {"gmtime", 0, d_gmtime, nullptr, nullptr},
    {"localtime", 0, d_localtime, nullptr, nullptr},
    {"mktime", 0, d_mktime, nullptr, nullptr},
    {"strftime", 1, d_strftime, nullptr, nullptr},
    {"strflocaltime", 1, d_strflocaltime, nullptr, nullptr},
    {"strptime", 1, d_strptime, nullptr, nullptr},
    {"now", 0, d_now, nullptr, nullptr},
}));

}  // namespace

native_span math_time_natives() { return {k_math.data(), k_math.size()}; }

}  // namespace jview::filter::detail
