// core/filter/value.hpp: the values the jq language works on. A value is 16 bytes: null/booleans/computed numbers
// inline, or a pointer to a reference-counted box: a view node (document + node index, zero-copy), a number that
// keeps its literal text, an owned string, array or object. Owned containers are copy-on-write: a mutator clones
// the box only when someone else holds it too. Objects keep insertion order (jq prints keys in that order).
// Single-threaded by design: reference counts are plain integers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/document.hpp"

namespace jview::filter {

class value;

namespace detail {

enum class box_type : std::uint8_t { doc, literal, string, array, object };

// Every few hundred boxes the process's allocation hook runs, when one is set (set_allocation_hook in program.hpp:
// the CLI's memory policy for big evaluations, cli/process_tuning.cpp).
inline void (*g_allocation_hook)() noexcept = nullptr;
inline thread_local std::uint32_t g_boxes_made = 0;

struct box {
  std::uint32_t refs = 1;
  box_type type;
  explicit box(box_type t) : type(t) {}
  static void* operator new(std::size_t n) {
    if ((++g_boxes_made & 255) == 0 && g_allocation_hook != nullptr) g_allocation_hook();
    return ::operator new(n);
  }
  static void operator delete(void* p) noexcept { ::operator delete(p); }
};

// The key index of one big view object (value.cpp), built on its second lookup.
struct member_index;
struct member_index_deleter {
  void operator()(member_index* m) const noexcept;
};

// One document shared by every view into it: the only place that touches the shared_ptr's atomic count.
struct doc_box : box {
  std::shared_ptr<const document> doc;
  // Random access into big view arrays: element node indices, built on the first far index (see value::element).
  std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> element_cache;
  // Lookups by key in big view objects: the object's node and its key index (nullptr after the first lookup, which
  // scans; see value::member), so that `. as $o | keys[] | $o[.]` stays linear.
  std::vector<std::pair<std::uint32_t, std::unique_ptr<member_index, member_index_deleter>>> member_cache;
  // An input read by `input`/`inputs`: values kept past it should not pin it (see value::detach_streamed).
  bool streamed = false;
  explicit doc_box(std::shared_ptr<const document> d) : box(box_type::doc), doc(std::move(d)) {}
};

struct lit_box : box {
  double d;
  std::string text;
  bool as_read = false;  // value::input_number
  lit_box(double v, std::string t) : box(box_type::literal), d(v), text(std::move(t)) {}
};

struct str_box : box {
  std::string s;
  explicit str_box(std::string v) : box(box_type::string), s(std::move(v)) {}
};

void release(box* b) noexcept;

}  // namespace detail

class value {
 public:
  value() noexcept : k_(kind::null_), rep_(rep_inline), idx_(0), num_(0) {}
  value(const value& o) noexcept : k_(o.k_), rep_(o.rep_), idx_(o.idx_), bits_(o.bits_) {
    if (rep_ >= rep_view) ++box_->refs;
  }
  value(value&& o) noexcept : k_(o.k_), rep_(o.rep_), idx_(o.idx_), bits_(o.bits_) {
    o.rep_ = rep_inline;
    o.k_ = kind::null_;
  }
  value& operator=(const value& o) noexcept {
    if (o.rep_ >= rep_view) ++o.box_->refs;
    drop();
    k_ = o.k_;
    rep_ = o.rep_;
    idx_ = o.idx_;
    bits_ = o.bits_;
    return *this;
  }
  value& operator=(value&& o) noexcept {
    if (this != &o) {
      drop();
      k_ = o.k_;
      rep_ = o.rep_;
      idx_ = o.idx_;
      bits_ = o.bits_;
      o.rep_ = rep_inline;
      o.k_ = kind::null_;
    }
    return *this;
  }
  ~value() { drop(); }

  // Constructors.
  static value null() noexcept { return value(); }
  static value boolean(bool b) noexcept {
    value v;
    v.k_ = b ? kind::true_ : kind::false_;
    return v;
  }
  static value number(double d) noexcept {
    value v;
    v.k_ = kind::number;
    v.num_ = d;
    return v;
  }
  // A number that prints as `text` while unchanged (program literals, tonumber).
  static value number_literal(double d, std::string text);
  // A number read from JSON input as `text` outside a document (--stream's leaves): as a view's, written as read
  // and in jq's canonical form by tojson (1e2 -> 1E+2).
  static value input_number(double d, std::string text);
  bool literal_as_read() const noexcept;
  // A number from a literal whose text is exactly its shortest form (1, 0.5): inline, but still a literal for
  // jq's literal arithmetic (negating literal 0 gives 0, not -0).
  static value number_exact(double d) noexcept {
    value v = number(d);
    v.idx_ = 1;
    return v;
  }
  bool is_exact_literal() const noexcept { return rep_ == rep_inline && k_ == kind::number && idx_ == 1; }
  static value string(std::string s);
  static value string(std::string_view s) { return string(std::string(s)); }
  static value string(const char* s) { return string(std::string(s)); }
  static value view(std::shared_ptr<const document> doc, std::uint32_t index);
  static value array(std::vector<value> items);
  static value empty_array();
  static value empty_object();

  // Type.
  kind type() const noexcept { return k_; }
  bool is_null() const noexcept { return k_ == kind::null_; }
  bool is_number() const noexcept { return k_ == kind::number; }
  bool is_string() const noexcept { return k_ == kind::string; }
  bool is_array() const noexcept { return k_ == kind::array; }
  bool is_object() const noexcept { return k_ == kind::object; }
  bool truthy() const noexcept { return k_ > kind::false_; }
  bool is_view() const noexcept { return rep_ == rep_view; }
  // jq's type name: "null", "boolean", "number", "string", "array", "object".
  const char* type_name() const noexcept;

  // Numbers.
  double number() const noexcept;
  // The literal text when the number prints as written (view number, or a literal box); empty otherwise.
  std::string_view literal() const noexcept;

  // Strings: the decoded contents. The view may point into `tmp` (escaped view strings are decoded there).
  std::string_view str(std::string& tmp) const;
  // Contents without a scratch buffer: only for owned strings and views without escapes (else copies).
  std::string string_copy() const;
  // Equality with a UTF-8 string, without decoding unescaped view strings.
  bool string_equals(std::string_view s) const;

  // Containers.
  std::uint32_t length() const noexcept;  // elements / members (0 for scalars)
  // Array element i (0 <= i < length()).
  value element(std::uint32_t i) const;
  // Object member by key; null (found=false) when absent.
  value member(std::string_view key, bool* found = nullptr) const;
  bool has_member(std::string_view key) const;

  // Iteration in order: f(value) for arrays; f(key string_view, value) for objects.
  template <class F>
  void for_each_element(F&& f) const;
  template <class F>
  void for_each_member(F&& f) const;

  // Mutation (copy-on-write; views are converted to owned containers whose children are views).
  std::vector<value>& array_mut();
  std::string& string_mut();  // a string value's bytes, uniquely owned
  struct object_data;
  object_data& object_mut();
  const object_data& object_data_ref() const noexcept;  // owned object (rep_ == rep_object) only
  const std::vector<value>& array_items() const noexcept;  // owned array only

  // For views: the document and node.
  const document& doc() const noexcept;
  std::uint32_t node_index() const noexcept { return idx_; }
  detail::doc_box* doc_box_ptr() const noexcept { return static_cast<detail::doc_box*>(box_); }
  bool is_owned_array() const noexcept { return rep_ == rep_array; }
  bool is_owned_object() const noexcept { return rep_ == rep_object; }
  // A view of another node of the same document as this view.
  // (An object that repeats a key becomes an owned object with one member per key, as jq keeps.)
  value sibling_view(std::uint32_t index) const;

  // For a value kept past the input it was read from (collected by `[inputs | ...]`): its small parts that view a
  // streamed input's document (scalars, containers of a few nodes, inside owned containers of a few members)
  // become owned, so the input's document is not kept (nor copied) for them. Prints and compares as before.
  void detach_streamed();

  // Identity of the underlying storage (same box and node): cheap "certainly equal" test.
  bool same_storage(const value& o) const noexcept {
    return rep_ == o.rep_ && k_ == o.k_ && idx_ == o.idx_ && bits_ == o.bits_;
  }

 private:
  friend struct detail::box;
  enum rep_t : std::uint8_t { rep_inline = 0, rep_view, rep_literal, rep_string, rep_array, rep_object };
  void drop() noexcept {
    if (rep_ >= rep_view && --box_->refs == 0) detail::release(box_);
  }
  value(kind k, rep_t r, std::uint32_t idx, detail::box* b) noexcept : k_(k), rep_(r), idx_(idx), box_(b) {}
  value unique_keys_object(std::uint32_t index) const;
  bool needs_detach(int depth) const noexcept;
  static value interned_string(std::string_view s);
  void detach(int depth);

  kind k_;
  rep_t rep_;
  std::uint32_t idx_;
  union {
    double num_;
    detail::box* box_;
    std::uint64_t bits_;
  };
};
static_assert(sizeof(value) == 16, "values are 16 bytes");

// An object: members in insertion order, with a hash index built once it grows past a few members.
struct value::object_data {
  struct entry {
    std::string key;
    value val;
  };
  std::vector<entry> entries;

  // Index of the member named key, or -1.
  std::int64_t find(std::string_view key) const;
  // Sets key (keeps its position when present, appends otherwise).
  void set(std::string_view key, value v);
  void set(std::string&& key, value v);
  // Value slot for key, created as null when absent.
  value& slot(std::string_view key);
  bool erase(std::string_view key);

 private:
  void rebuild() const;
  void index_insert(std::uint32_t pos) const;
  mutable std::vector<std::uint32_t> table_;  // open addressing: entry index + 1, 0 = empty
};

namespace detail {

struct arr_box : box {
  std::vector<value> items;
  arr_box() : box(box_type::array) {}
  explicit arr_box(std::vector<value> v) : box(box_type::array), items(std::move(v)) {}
};

struct obj_box : box {
  value::object_data obj;
  obj_box() : box(box_type::object) {}
};

}  // namespace detail

inline const document& value::doc() const noexcept { return *static_cast<detail::doc_box*>(box_)->doc; }

inline value value::sibling_view(std::uint32_t index) const {
  const node& n = (*static_cast<detail::doc_box*>(box_)->doc)[index];
  if ((n.flags & node_flag::duplicate_keys) != 0) [[unlikely]]
    return unique_keys_object(index);
  ++box_->refs;
  return value(n.k, rep_view, index, box_);
}

inline const value::object_data& value::object_data_ref() const noexcept {
  return static_cast<detail::obj_box*>(box_)->obj;
}
inline const std::vector<value>& value::array_items() const noexcept {
  return static_cast<detail::arr_box*>(box_)->items;
}

template <class F>
void value::for_each_element(F&& f) const {
  if (rep_ == rep_view) {
    const document& d = doc();
    const std::uint32_t end = d[idx_].next;
    for (std::uint32_t i = idx_ + 1; i < end; i = d[i].next) f(sibling_view(i));
  } else if (rep_ == rep_array) {
    for (const value& v : array_items()) f(v);
  }
}

template <class F>
void value::for_each_member(F&& f) const {
  if (rep_ == rep_view) {
    const document& d = doc();
    const std::uint32_t end = d[idx_].next;
    std::string tmp;
    for (std::uint32_t i = idx_ + 1; i < end;) {
      const std::uint32_t v = i + 1;
      const node& kn = d[i];
      if ((kn.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
        f(std::string_view(d.source() + kn.offset, kn.len), sibling_view(v));
      } else {
        tmp.clear();
        d.append_string(i, tmp);
        f(std::string_view(tmp), sibling_view(v));
      }
      i = d[v].next;
    }
  } else if (rep_ == rep_object) {
    for (const auto& e : object_data_ref().entries) f(std::string_view(e.key), e.val);
  }
}

// jq 1.8.2's limit on the nesting of compared values (MAX_CMP_DEPTH, MAX_EQUAL_DEPTH): a comparison that reaches
// deeper fails with `message` ("Comparison too deep", "Equality check too deep") instead of recursing on. Thrown
// by compare and equals; the operations that compare catch it and fail with the message.
constexpr int k_max_compare_depth = 10000;
struct comparison_too_deep {
  const char* message;
};

// jq's total order: null < false < true < numbers < strings < arrays < objects; arrays lexicographic, objects by
// sorted key sets then values in key order. Returns <0, 0, >0. `depth` is the nesting of a and b in the values
// compared (jq counts the key arrays of objects one level below them); past k_max_compare_depth it throws
// comparison_too_deep, as jq does even for the same value on both sides.
int compare(const value& a, const value& b, int depth = 0);
// jq's equality (the same as compare(a, b) == 0); throws comparison_too_deep past k_max_compare_depth, but
// identical containers are equal at once (jq's pointer test).
bool equals(const value& a, const value& b, int depth = 0);

// Compact JSON text (jq's tojson): literals as written, computed numbers shortest.
std::string to_json(const value& v);
void append_json(std::string& out, const value& v);
// jq's tostring: strings unchanged, everything else as compact JSON.
std::string to_string(const value& v);
// jq's error-message dump: compact JSON truncated to 29 bytes ("..." before the last byte).
std::string dump_trunc(const value& v);

// Sorted member keys of an object.
std::vector<std::string> sorted_keys(const value& obj);

// decNumber's canonical text for a number literal, as jq 1.8 prints literals: 1.50 -> 1.50, 1e2 -> 1E+2,
// 0.1e1 -> 1, .5 -> 0.5, 1e-7 -> 1E-7.
std::string canonical_number(std::string_view literal);

// Number text as jq prints it (literal or shortest).
void append_number(std::string& out, const value& v);
void append_double(std::string& out, double d);

}  // namespace jview::filter
