// tests/fuzz/fuzz_common.hpp: helpers shared by the libFuzzer targets and diff_simdjson: exact-size copies of
// the input (so AddressSanitizer sees any read past the end), a structural check of a parsed document, and the
// compact dump of a document into a string. Header-only; every target is one translation unit.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "core/document.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"

namespace jview::fuzz {

// Prints what went wrong and aborts: libFuzzer then saves the input as a crash.
[[noreturn]] inline void fail(const char* what, std::string_view a = {}, std::string_view b = {}) {
  std::fprintf(stderr, "FUZZ CHECK FAILED: %s\n", what);
  if (!a.empty() || !b.empty())
    std::fprintf(stderr, "  a: %.*s\n  b: %.*s\n", static_cast<int>(std::min<std::size_t>(a.size(), 2000)),
                 a.data(), static_cast<int>(std::min<std::size_t>(b.size(), 2000)), b.data());
  std::abort();
}

#define JVIEW_FUZZ_CHECK(cond, ...)              \
  do {                                           \
    if (!(cond)) ::jview::fuzz::fail(#cond __VA_OPT__(, ) __VA_ARGS__); \
  } while (0)

// A heap copy with no slack after the last byte: a read of data()[size()] is a heap-buffer-overflow under ASan.
class exact_copy {
 public:
  exact_copy(const std::uint8_t* p, std::size_t n) : n_(n), data_(new char[n == 0 ? 1 : n]) {
    if (n > 0) std::memcpy(data_.get(), p, n);
  }
  const char* data() const noexcept { return data_.get(); }
  const char* end() const noexcept { return data_.get() + n_; }
  std::size_t size() const noexcept { return n_; }

 private:
  std::size_t n_;
  std::unique_ptr<char[]> data_;
};

// Checks the invariants every consumer of a document relies on: each node's subtree end (`next`) lies after it and
// within its parent's, container counts match their children, scalar bytes lie inside [src, src_end).
inline void check_document(const document& doc, const char* src_end) {
  const std::uint32_t n = doc.size();
  JVIEW_FUZZ_CHECK(n > 0);
  JVIEW_FUZZ_CHECK(doc[0].next == n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const node& x = doc[i];
    JVIEW_FUZZ_CHECK(x.next > i && x.next <= n);
    JVIEW_FUZZ_CHECK(doc.source() + x.offset < src_end);
    if (x.k == kind::array || x.k == kind::object) {
      std::uint32_t count = 0;
      for (std::uint32_t c = i + 1; c < x.next; c = doc[c].next) {
        JVIEW_FUZZ_CHECK(doc[c].next <= x.next);
        if (x.k == kind::object) {
          JVIEW_FUZZ_CHECK(doc[c].k == kind::string);  // the key
          c = c + 1;                                    // its value
          JVIEW_FUZZ_CHECK(c < x.next);
        }
        ++count;
      }
      JVIEW_FUZZ_CHECK(count == x.len);
    } else {
      JVIEW_FUZZ_CHECK(x.next == i + 1);
      JVIEW_FUZZ_CHECK(doc.source() + x.offset + x.len <= src_end);
    }
  }
}

// The value at node 0 written with the given options into a string.
inline std::string dump(const document& doc, const write_options& wo) {
  std::string s;
  output_buffer out(&output_buffer::to_string, &s, 4096);
  writer w(out, wo);
  w.value(doc, 0);
  out.flush();
  return s;
}

inline write_options compact_options() {
  write_options wo;
  wo.pretty = false;
  return wo;
}

// Parses the one value of [p, end) and requires that only whitespace follows it (the whole-document verdict used
// by the differential test). Returns the error code (ok when accepted).
inline error_code parse_single(parser& ps, const char* p, const char* end, document& doc) {
  const char* q = p;
  if (parser::at_end(q, end)) return error_code::empty_input;
  const char* stop = nullptr;
  parse_error e = ps.parse(p, end, doc, stop);
  if (e) return e.code;
  if (!parser::at_end(stop, end)) return error_code::unexpected_char;
  return error_code::ok;
}

}  // namespace jview::fuzz
