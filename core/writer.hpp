// core/writer.hpp: writes JSON text in jq's exact format: compact or pretty (indent 0-7 spaces or a tab), sorted
// keys, ASCII-only, colour (jq 1.8's default colours or JQ_COLORS), numbers as written or shortest.
// View nodes are written from their source bytes wherever the options allow; constructed values are written
// through the same primitives (open/item/key/close and the scalars), so both look the same.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.hpp"
#include "core/output.hpp"
#include "simd/kernels.hpp"

namespace jview {

enum class number_mode : std::uint8_t { source, shortest };

// Escape sequences for each kind of token, as jq's JQ_COLORS: null:false:true:numbers:strings:arrays:objects:keys.
struct color_scheme {
  std::string code[8];
  static color_scheme jq_default();
  // Applies a JQ_COLORS value over the defaults as jq 1.8 reads it; false (scheme unchanged) when it is malformed.
  bool apply(std::string_view jq_colors);
};

struct write_options {
  bool pretty = true;         // false: compact (-c)
  int indent = 2;             // spaces per level when pretty (jq: 0..7; 0 still breaks lines)
  bool tab = false;           // one tab per level
  bool sort_keys = false;     // -S
  bool ascii = false;         // -a: non-ASCII as \uXXXX
  bool color = false;         // -C
  number_mode numbers = number_mode::source;
  // Tests and benchmarks: these kernels instead of the process's choice (simd::active_kernels()); same bytes out.
  const simd::kernels* kernels = nullptr;
  color_scheme colors = color_scheme::jq_default();
};

class writer {
 public:
  writer(output_buffer& out, const write_options& opts);

  // Writes the value at node i (no trailing newline).
  void value(const document& doc, std::uint32_t i);

  // Primitives for constructed values. A container is open(k) { item(first) [key(..)] value }* close(k, empty).
  void null_value();
  void boolean(bool b);
  void number_literal(std::string_view text);  // as written (or shortest, in shortest mode)
  void number(double d);                      // computed: shortest, jq's format
  void string(std::string_view utf8);         // escaped as jq does
  void open(kind k);                          // '[' or '{'
  void item(kind k, bool first);              // separator and line break before an element/member
  void key(std::string_view utf8);            // a member's key and ':'
  void close(kind k, bool empty);             // line break and ']' or '}'
  void empty_container(kind k);               // "[]" / "{}"

  // Raw text (for -r strings, separators): written as is.
  void raw(std::string_view s) { out_.append(s); }
  output_buffer& out() noexcept { return out_; }
  const write_options& options() const noexcept { return opts_; }

 private:
  void value_plain(const document& doc, std::uint32_t root);
  void minified(std::string_view text);
  void newline_indent();
  void deep_newline_indent(std::size_t n);  // more than k_indent_copy bytes
  void string_body(const char* p, std::size_t n, bool verbatim);
  void transcode_escaped(const char* p, std::size_t n);
  void string_node(const document& doc, std::uint32_t i, bool is_key);
  void scalar_node(const document& doc, std::uint32_t i);
  void color_start(int slot);
  void color_end();
  void punct(kind k, char c);

  output_buffer& out_;
  write_options opts_;
  int depth_ = 0;
  std::string indent_unit_;
  std::string indent_line_;                      // "\n" and 64 indentation units (newline_indent)
  static constexpr std::size_t k_indent_copy = 64;  // bytes newline_indent copies at once
  std::string tmp_;                       // decoded strings
  std::vector<std::uint32_t> sorted_;     // member key nodes of open objects listed apart (-S, duplicate keys)
  struct frame {
    std::uint32_t pos, end;   // unsorted: next child node, one past the last; sorted: position and end in sorted_
    std::uint32_t begin;      // sorted: where this object's keys start in sorted_
    bool object, first, sorted;
  };
  std::vector<frame> stack_;
  std::vector<std::uint32_t> ends_;       // value_plain: open containers' end node, top bit set for objects
};

}  // namespace jview
