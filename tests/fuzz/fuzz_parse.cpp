// tests/fuzz/fuzz_parse.cpp: libFuzzer target: the parser on arbitrary bytes, value after value as the reader does.
// The vector and portable scanners, and the two-stage path forced on every input with each stage-1 kernel this CPU
// can run (AVX-512, AVX2, SSE2, ...), must give the same verdict (error code and offset) and the same document;
// every accepted document must satisfy the node invariants, decode its strings and write itself; the replacing mode
// (--replace-invalid-utf8 style) must accept whatever the strict mode accepts.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "simd/kernels.hpp"
#include "simd/structural.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

struct outcome {
  std::string text;  // the compact dumps of the values, then "!code@offset" for an error
};

outcome parse_all(parser& ps, document& doc, const char* begin, const char* end, bool deep_checks) {
  outcome r;
  const char* p = begin;
  for (int values = 0; values < 10000; ++values) {
    const char* q = p;
    if (parser::at_end(q, end)) break;
    const char* stop = nullptr;
    parse_error e = ps.parse(p, end, doc, stop);
    if (e) {
      r.text += "!" + std::to_string(static_cast<int>(e.code)) + "@" + std::to_string(e.offset + (p - begin));
      JVIEW_FUZZ_CHECK(p + e.offset <= end);
      break;
    }
    JVIEW_FUZZ_CHECK(stop > p && stop <= end);
    fuzz::check_document(doc, end);
    if (deep_checks) {
      std::string s;
      for (std::uint32_t i = 0; i < doc.size(); ++i) {
        if (doc[i].k == kind::string) {
          s.clear();
          doc.append_string(i, s);
        }
        if (doc[i].k == kind::object && doc[i].len > 0) {
          // Looking up the first key must find a member (the last of that name).
          std::string key = doc.string_value(i + 1);
          JVIEW_FUZZ_CHECK(doc.find_member(i, key) != document::npos);
        }
        if (doc[i].k == kind::array && doc[i].len > 0)
          JVIEW_FUZZ_CHECK(doc.element(i, doc[i].len - 1) != document::npos);
      }
      write_options pretty;
      pretty.sort_keys = true;
      pretty.ascii = true;
      (void)fuzz::dump(doc, pretty);
    }
    r.text += fuzz::dump(doc, fuzz::compact_options());
    r.text += '\n';
    p = stop;
  }
  return r;
}

// The active kernels with each stage-1 kernel this CPU can run in turn.
const std::vector<simd::kernels>& stage1_variants() {
  static const std::vector<simd::kernels> v = [] {
    std::vector<simd::kernels> out;
    const simd::stage1_kernel* ks[8];
    const std::size_t n = simd::structural_kernels(ks, 8);
    for (std::size_t i = 0; i < n; ++i) {
      simd::kernels k = simd::active_kernels();
      k.structure = ks[i];
      out.push_back(k);
    }
    return out;
  }();
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::exact_copy in(data, size);
  static document doc;  // reused across inputs, as the CLI reuses it across values
  parse_options vec;
  parse_options port;
  port.kernels = &simd::portable_kernels();
  parse_options repl;
  repl.replace_invalid_utf8 = true;
  parse_options two;
  two.path = parse_path::two_stage;  // the token-index path whatever the size (automatic skips tiny inputs)
  parser pv(vec), pp(port), pr(repl);

  outcome a = parse_all(pv, doc, in.data(), in.end(), true);
  outcome b = parse_all(pp, doc, in.data(), in.end(), false);
  if (a.text != b.text) fuzz::fail("vector and portable parsers disagree", a.text, b.text);
  for (const simd::kernels& k : stage1_variants()) {  // (the active kernel among them)
    parse_options o = two;
    o.kernels = &k;
    parser pt(o);
    const outcome t = parse_all(pt, doc, in.data(), in.end(), false);
    if (t.text != b.text) {
      std::fprintf(stderr, "stage-1 kernel %s\n", k.structure->name);
      fuzz::fail("two-stage and one-pass parsers disagree", t.text, b.text);
    }
  }
  outcome c = parse_all(pr, doc, in.data(), in.end(), true);
  // Replacing invalid UTF-8 only turns errors into values: where strict mode succeeded, the output is identical.
  if (a.text.find('!') == std::string::npos && a.text != c.text)
    fuzz::fail("replace mode changed a valid input", a.text, c.text);
  return 0;
}
