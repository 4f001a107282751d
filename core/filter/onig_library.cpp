// core/filter/onig_library.cpp: dlopen of Oniguruma by its SONAME (JVIEW_ONIG_SONAME, read from the library the
// build found) and dlsym of the few symbols regex.cpp uses.
#include "core/filter/onig_library.hpp"

#include <dlfcn.h>

#include <mutex>

#ifndef JVIEW_ONIG_SONAME
#define JVIEW_ONIG_SONAME "libonig.so.5"
#endif

namespace jview::filter::detail {

namespace {

struct loaded {
  onig_library lib{};
  bool ok = false;
  std::string why;
};

template <typename T>
bool bind(void* handle, const char* name, T& out, std::string& why) {
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    why = std::string(JVIEW_ONIG_SONAME ": no symbol ") + name;
    return false;
  }
  out = reinterpret_cast<T>(sym);
  return true;
}

loaded load() {
  loaded l;
  void* h = dlopen(JVIEW_ONIG_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    l.why = e != nullptr ? e : JVIEW_ONIG_SONAME ": cannot be loaded";
    return l;
  }
  onig_library& o = l.lib;
  decltype(&onig_initialize) initialize = nullptr;
  void* utf8 = nullptr;
  void* perl_ng = nullptr;
  if (!bind(h, "onig_initialize", initialize, l.why) || !bind(h, "onig_new", o.compile, l.why) ||
      !bind(h, "onig_free", o.free, l.why) || !bind(h, "onig_search", o.search, l.why) ||
      !bind(h, "onig_error_code_to_str", o.error_text, l.why) ||
      !bind(h, "onig_number_of_captures", o.captures, l.why) ||
      !bind(h, "onig_foreach_name", o.foreach_name, l.why) || !bind(h, "onig_region_new", o.region_new, l.why) ||
      !bind(h, "onig_region_free", o.region_free, l.why) || !bind(h, "OnigEncodingUTF8", utf8, l.why) ||
      !bind(h, "OnigSyntaxPerl_NG", perl_ng, l.why))
    return l;  // the handle stays open: nothing else will load it
  o.utf8 = static_cast<OnigEncoding>(utf8);
  o.perl_ng = static_cast<OnigSyntaxType*>(perl_ng);
  OnigEncoding encodings[1] = {o.utf8};
  initialize(encodings, 1);
  l.ok = true;
  return l;
}

}  // namespace

const onig_library* onig(std::string& why) {
  static const loaded l = load();  // thread-safe static initialisation, once
  if (!l.ok) {
    why = l.why;
    return nullptr;
  }
  return &l.lib;
}

}  // namespace jview::filter::detail
