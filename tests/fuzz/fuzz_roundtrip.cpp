// tests/fuzz/fuzz_roundtrip.cpp: libFuzzer target: parse -> dump -> parse gives the same value with the same number
// tokens. Every accepted value is written compact, pretty (indent from the input), with a tab, sorted, and ASCII-only;
// each of these texts must parse again, and its compact dump must equal the first compact dump (for sorted keys:
// the sorted compact dump). Node by node, the kinds, container sizes, decoded strings and number tokens must match
// (with duplicate keys, those of the first compact dump: each key is written once, the last value, as jq). A value
// whose compact dump is its minified source text must get the same bytes from the node-by-node path.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

// Same value, node by node: kinds, element counts, decoded strings, number tokens byte for byte.
void same_nodes(const document& a, const document& b) {
  JVIEW_FUZZ_CHECK(a.size() == b.size());
  std::string sa, sb;
  for (std::uint32_t i = 0; i < a.size(); ++i) {
    JVIEW_FUZZ_CHECK(a[i].k == b[i].k);
    JVIEW_FUZZ_CHECK(a[i].next == b[i].next);
    switch (a[i].k) {
      case kind::array:
      case kind::object: JVIEW_FUZZ_CHECK(a[i].len == b[i].len); break;
      case kind::number:
        if (a.raw(i) != b.raw(i)) fuzz::fail("number token changed", a.raw(i), b.raw(i));
        break;
      case kind::string:
        sa.clear();
        sb.clear();
        a.append_string(i, sa);
        b.append_string(i, sb);
        if (sa != sb) fuzz::fail("string changed", sa, sb);
        break;
      default: break;
    }
  }
}

// Parses text (which a writer produced) as exactly one value into doc; fails the run otherwise. The document views
// the returned copy: keep it alive as long as doc is used.
fuzz::exact_copy reparse(parser& ps, const std::string& text, document& doc) {
  fuzz::exact_copy c(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  error_code e = fuzz::parse_single(ps, c.data(), c.end(), doc);
  if (e != error_code::ok) fuzz::fail(error_message(e), text);
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The length picks the pretty indent (0-7, or a tab), so that JSON files are seeds as they are.
  const int style = static_cast<int>(size & 15);
  fuzz::exact_copy in(data, size);
  parser ps{parse_options{}};
  document first, again;
  if (fuzz::parse_single(ps, in.data(), in.end(), first) != error_code::ok) return 0;

  const write_options compact = fuzz::compact_options();
  const std::string c1 = fuzz::dump(first, compact);
  if (first.verbatim()) {
    // That dump was the minified source text (writer::minified): the node-by-node path must write the same.
    document nodes_only;
    nodes_only.copy_from(first);
    nodes_only.set(nodes_only.source(), nodes_only.size(), {0, first.has_duplicate_keys(), 0});
    const std::string c0 = fuzz::dump(nodes_only, compact);
    if (c0 != c1) fuzz::fail("minified text differs from the node path", c0, c1);
  }
  // Duplicate keys are written once (the last value, at the first key's place, as jq): then the dump is the
  // reference the other dumps are compared with, node by node.
  document merged;
  auto keep0 = reparse(ps, c1, merged);
  JVIEW_FUZZ_CHECK(!merged.has_duplicate_keys());
  const document& ref = first.has_duplicate_keys() ? merged : first;
  auto keep1 = reparse(ps, c1, again);
  same_nodes(ref, again);
  const std::string c2 = fuzz::dump(again, compact);
  if (c1 != c2) fuzz::fail("compact dump is not a fixed point", c1, c2);

  write_options pretty;
  pretty.indent = style & 7;
  pretty.tab = style >= 8;
  auto keep2 = reparse(ps, fuzz::dump(first, pretty), again);
  same_nodes(ref, again);

  write_options ascii = compact;
  ascii.ascii = true;
  const std::string a1 = fuzz::dump(first, ascii);
  for (unsigned char ch : a1) JVIEW_FUZZ_CHECK(ch < 0x80);
  auto keep3 = reparse(ps, a1, again);
  if (fuzz::dump(again, compact) != c1) fuzz::fail("ASCII dump changed the value", c1, fuzz::dump(again, compact));

  write_options sorted = compact;
  sorted.sort_keys = true;
  const std::string s1 = fuzz::dump(first, sorted);
  auto keep4 = reparse(ps, s1, again);
  const std::string s2 = fuzz::dump(again, sorted);
  if (s1 != s2) fuzz::fail("sorted dump is not a fixed point", s1, s2);
  write_options sorted_pretty = pretty;
  sorted_pretty.sort_keys = true;
  auto keep5 = reparse(ps, fuzz::dump(first, sorted_pretty), again);
  if (fuzz::dump(again, sorted) != s1) fuzz::fail("sorted pretty dump changed the value", s1);

  write_options shortest = compact;
  shortest.numbers = number_mode::shortest;
  auto keep6 = reparse(ps, fuzz::dump(first, shortest), again);  // shortest numbers are valid JSON too
  return 0;
}
