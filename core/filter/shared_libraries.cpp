// core/filter/shared_libraries.cpp: dlopen by SONAME (Oniguruma's read from the library the build found,
// JVIEW_ONIG_SONAME; glibc's LIBM_SO when the executable is linked dynamically, JVIEW_LIBM_DLOPEN) and dlsym of each
// symbol used.
#include "core/filter/shared_libraries.hpp"

#include <dlfcn.h>
#include <gnu/lib-names.h>

#include <cmath>
#include <math.h>

#ifndef JVIEW_ONIG_SONAME
#define JVIEW_ONIG_SONAME "libonig.so.5"
#endif

namespace jview::filter::detail {

namespace {

// An opened library; bind() fills a pointer by name, and the first failure is kept in `why`.
class opened {
 public:
  explicit opened(const char* soname) : soname_(soname), handle_(dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) {
      const char* e = dlerror();
      why = e != nullptr ? e : std::string(soname) + ": cannot be loaded";
    }
  }
  template <typename T>
  void bind(const char* name, T& out) {
    if (handle_ == nullptr || !why.empty()) return;
    void* sym = dlsym(handle_, name);
    if (sym == nullptr) {
      why = std::string(soname_) + ": no symbol " + name;
      return;
    }
    out = reinterpret_cast<T>(sym);
  }
  bool ok() const { return why.empty(); }  // the handle stays open either way: nothing else loads the library
  std::string why;

 private:
  const char* soname_;
  void* handle_;
};

template <typename Library>
struct loaded {
  Library lib{};
  std::string why;  // empty: loaded
};

loaded<onig_library> load_onig() {
  loaded<onig_library> l;
  opened so(JVIEW_ONIG_SONAME);
  onig_library& o = l.lib;
  decltype(&onig_initialize) initialize = nullptr;
  void* utf8 = nullptr;
  void* perl_ng = nullptr;
  so.bind("onig_initialize", initialize);
  so.bind("onig_new", o.compile);
  so.bind("onig_free", o.free);
  so.bind("onig_search", o.search);
  so.bind("onig_error_code_to_str", o.error_text);
  so.bind("onig_number_of_captures", o.captures);
  so.bind("onig_foreach_name", o.foreach_name);
  so.bind("onig_region_new", o.region_new);
  so.bind("onig_region_free", o.region_free);
  so.bind("OnigEncodingUTF8", utf8);
  so.bind("OnigSyntaxPerl_NG", perl_ng);
  if (!so.ok()) {
    l.why = so.why;
    return l;
  }
  o.utf8 = static_cast<OnigEncoding>(utf8);
  o.perl_ng = static_cast<OnigSyntaxType*>(perl_ng);
  OnigEncoding encodings[1] = {o.utf8};
  initialize(encodings, 1);
  return l;
}

#ifdef JVIEW_LIBM_DLOPEN
loaded<libm_library> load_libm() {
  loaded<libm_library> l;
  opened so(LIBM_SO);
  libm_library& m = l.lib;
#define JVIEW_X(name) so.bind(#name, m.name);
  JVIEW_LIBM_UNARY(JVIEW_X)
  JVIEW_LIBM_BINARY(JVIEW_X)
  JVIEW_X(fma) JVIEW_X(frexp) JVIEW_X(ldexp) JVIEW_X(modf) JVIEW_X(lgamma_r) JVIEW_X(nexttoward) JVIEW_X(scalbln) JVIEW_X(jn) JVIEW_X(yn)
#undef JVIEW_X
  l.why = so.why;
  return l;
}
#else
// Linked in (a static executable, or a test program): the table holds the functions themselves. The assignment
// picks the double overload of each.
loaded<libm_library> load_libm() {
  loaded<libm_library> l;
  libm_library& m = l.lib;
#define JVIEW_X(name) m.name = &::name;
  JVIEW_LIBM_UNARY(JVIEW_X)
  JVIEW_LIBM_BINARY(JVIEW_X)
  JVIEW_X(fma) JVIEW_X(frexp) JVIEW_X(ldexp) JVIEW_X(modf) JVIEW_X(lgamma_r) JVIEW_X(nexttoward) JVIEW_X(scalbln) JVIEW_X(jn) JVIEW_X(yn)
#undef JVIEW_X
  return l;
}
#endif

}  // namespace

const onig_library* onig(std::string& why) {
  static const loaded<onig_library> l = load_onig();  // thread-safe static initialisation, once
  why = l.why;
  return l.why.empty() ? &l.lib : nullptr;
}

const libm_library* libm(std::string& why) {
  static const loaded<libm_library> l = load_libm();
  why = l.why;
  return l.why.empty() ? &l.lib : nullptr;
}

}  // namespace jview::filter::detail
