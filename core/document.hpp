// core/document.hpp: the zero-copy view of one parsed JSON value: a flat index of 16-byte nodes over source bytes.
// Nodes are in document order; every node knows the index one past its subtree (`next`), so skipping is O(1).
// Objects hold their members as (key string node, value subtree) pairs. Numbers and strings are not converted:
// they point at their source bytes and are decoded on demand.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jview {

enum class kind : std::uint8_t { null_ = 0, false_ = 1, true_ = 2, number = 3, string = 4, array = 5, object = 6 };

// Bits of node::flags.
namespace node_flag {
inline constexpr std::uint8_t escapes = 1;     // string: holds escapes or DEL (not written verbatim; decode it)
inline constexpr std::uint8_t bad_utf8 = 2;    // string: holds invalid UTF-8 (only under --replace-invalid-utf8)
inline constexpr std::uint8_t integer = 4;     // number: no fraction, no exponent
inline constexpr std::uint8_t negative = 8;    // number: starts with '-'
inline constexpr std::uint8_t duplicate_keys = 16;  // object: some key occurs more than once (jq keeps the last)
inline constexpr std::uint8_t recoded = 32;    // string: jq writes it otherwise than its source bytes (an escape
                                               // it writes another way, e.g. \/ or \u00e9, or DEL); with escapes
}  // namespace node_flag

struct node {
  kind k;
  std::uint8_t flags;
  std::uint16_t extra;    // reserved
  std::uint32_t offset;   // string: first byte after the opening quote; number: first byte; container: its bracket
  std::uint32_t len;      // string: raw bytes between the quotes; number: token bytes; container: element count
  std::uint32_t next;     // index one past this node's subtree
};
static_assert(sizeof(node) == 16, "nodes are 16 bytes");

// What the parser learns of a value as a whole, besides its nodes (document::set).
struct value_facts {
  std::uint32_t text_len = 0;     // bytes from the value's first byte to one past its last
  bool duplicate_keys = false;    // some object repeats a key
  std::uint8_t string_flags = 0;  // the node_flag bits of all its strings (keys too), or-ed
};

struct copy_chunk;  // where compact copies come from (document.cpp)

// A parsed value. Owned by the caller and reused across values: its node arena only grows.
class document {
 public:
  document() = default;
  ~document();
  document(const document&) = delete;
  document& operator=(const document&) = delete;

  // Source bytes: node offsets are relative to source().
  const char* source() const noexcept { return base_; }
  std::uint32_t size() const noexcept { return size_; }
  const node& operator[](std::uint32_t i) const noexcept { return nodes_[i]; }
  const node* nodes() const noexcept { return nodes_; }

  // Raw source bytes of a scalar: string content (escapes not decoded), number token, or literal text.
  std::string_view raw(std::uint32_t i) const noexcept {
    const node& n = nodes_[i];
    return {base_ + n.offset, n.len};
  }

  // The decoded text of a string node (escapes resolved; invalid UTF-8 replaced by U+FFFD), appended to out.
  void append_string(std::uint32_t i, std::string& out) const;
  std::string string_value(std::uint32_t i) const {
    std::string s;
    append_string(i, s);
    return s;
  }
  // True when string node i decodes to exactly key.
  bool string_equals(std::uint32_t i, std::string_view key) const;

  // Object member lookup: index of the value of the last member named key (jq: last wins), or npos.
  static constexpr std::uint32_t npos = 0xffffffffu;
  std::uint32_t find_member(std::uint32_t obj, std::string_view key) const;
  // Array element n (0-based), or npos.
  std::uint32_t element(std::uint32_t arr, std::uint32_t n) const;

  // Duplicate keys (core/object_keys.cpp). True when some object of this value repeats a key: then the objects
  // flagged node_flag::duplicate_keys must be read through unique_member_keys, as jq keeps one member per key.
  bool has_duplicate_keys() const noexcept { return facts_.duplicate_keys; }
  // Exact test of object obj (its subtree complete). Used by the parser on the objects its key hash flags.
  bool object_has_duplicate_keys(std::uint32_t obj) const;
  // The members of object obj as jq sees them, appended to out: one key node per distinct key, in the order of
  // the key's first occurrence, each the key's last occurrence (so its value, the next node, is the one kept).
  void unique_member_keys(std::uint32_t obj, std::vector<std::uint32_t>& out) const;

  // The arena: room mapped for at least `count` nodes, the first `first` of them writable now (capacity(); contents
  // unspecified), the rest made writable by grow(). Used by the parser, which sizes `first` from the input: the
  // first write to each fresh page costs a fault or a populate step, and a value rarely needs its worst case.
  node* reserve(std::size_t count, std::size_t first = SIZE_MAX);
  // Grows the arena, keeping its nodes (mremap: nothing is copied), when a value has used all `capacity()` nodes
  // with `done` of its `total` bytes parsed: to about the projected need, and to `need` nodes at least (at most
  // total + 2 nodes). nullptr when the address space is exhausted (the arena is then unchanged). Used by the parser.
  node* grow(std::size_t used, std::size_t done, std::size_t total, std::size_t need = 0) noexcept;
  std::size_t capacity() const noexcept { return capacity_; }  // nodes writable now (mapped and populated)
  // Becomes a compact copy of src's value, its nodes and its text (text()) in one block of about their size: for
  // values kept while the next ones are parsed (`[inputs]`), which would otherwise each hold a fresh arena and the
  // input's buffer. A copy that nobody holds any more takes the next one in its own block when that fits.
  void copy_from(const document& src);
  void set(const char* base, std::uint32_t size, value_facts facts = {}) noexcept {
    base_ = base;
    size_ = size;
    facts_ = facts;
  }
  // The value's source text, first byte to last (empty for a document not set by the parser).
  std::string_view text() const noexcept { return {base_, facts_.text_len}; }
  // True when writing the value compact (numbers as written) gives its text without the whitespace outside its
  // strings: every string is written as its source bytes (escapes only of the forms jq writes: \" \\ \n ...
  // \u001f; no DEL, no invalid UTF-8), and no object repeats a key (jq keeps one member).
  bool verbatim() const noexcept {
    return facts_.text_len != 0 && !facts_.duplicate_keys &&
           (facts_.string_flags & (node_flag::recoded | node_flag::bad_utf8)) == 0;
  }

 private:
  const char* base_ = nullptr;
  node* nodes_ = nullptr;
  std::uint32_t size_ = 0;
  value_facts facts_;
  std::size_t capacity_ = 0;     // nodes of the arena populated so far (page-table entries filled)
  std::size_t mapped_bytes_ = 0; // bytes of the anonymous mapping behind nodes_; 0: a copy (copy_from)
  copy_chunk* chunk_ = nullptr;  // a copy's chunk (document.cpp); nullptr: a heap block
  std::size_t copy_nodes_ = 0;   // nodes a copy's block holds
  void release() noexcept;
  void populate(std::size_t count) noexcept;  // capacity_ to count nodes (whole pages, within the mapping)
};

}  // namespace jview
