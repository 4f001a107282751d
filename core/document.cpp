// core/document.cpp: the node arena (an anonymous mapping reserved without backing, so only the pages the parser
// touches are resident) and string decoding / member lookup over the view.
#include "core/document.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/utf8.hpp"
#include "simd/pages.hpp"

namespace jview {

document::~document() { release(); }

void document::release() noexcept {
  if (nodes_ == nullptr) return;
  if (mapped_bytes_ != 0)
    simd::unmap_pages(nodes_, mapped_bytes_);
  else
    std::free(nodes_);
  nodes_ = nullptr;
  capacity_ = mapped_bytes_ = 0;
}

void document::copy_from(const document& src) {
  auto* copy = static_cast<node*>(std::malloc(std::max<std::size_t>(src.size_, 1) * sizeof(node)));
  if (copy == nullptr) throw std::bad_alloc();
  std::memcpy(copy, src.nodes_, std::size_t{src.size_} * sizeof(node));
  release();
  nodes_ = copy;  // capacity_ stays 0: parsing into this document maps a new arena
  base_ = src.base_;
  size_ = src.size_;
  facts_ = src.facts_;
}

node* document::reserve(std::size_t count, std::size_t first) {
  first = std::min(first, count);
  if (count * sizeof(node) <= mapped_bytes_) {  // a reused arena: its mapping is there, its pages maybe not
    if (first > capacity_) populate(first);
    return nodes_;
  }
  // Untouched pages cost nothing (MAP_NORESERVE) and a reused document keeps its arena; but the reservation counts
  // against `ulimit -v`, so the parser asks for a part of the worst case and grows the arena when a value needs more.
  // From 1 MiB of nodes up the arena is on huge pages (simd/pages.hpp: fresh 4 KiB pages cost far more).
  void* mem = simd::map_pages(count * sizeof(node));
  if (mem == nullptr) throw std::bad_alloc();
  release();
  nodes_ = static_cast<node*>(mem);
  mapped_bytes_ = simd::mapped_size(count * sizeof(node));
  capacity_ = 0;
  size_ = 0;
  populate(first);
  return nodes_;
}

void document::populate(std::size_t count) noexcept {
  // Whole pages (256 nodes), within the mapping; the parser writes them next, so their page-table entries are
  // filled in one call instead of one fault per page (about 10 us each on a VM; canada.json took 415 of them).
  constexpr std::size_t k_page_nodes = 4096 / sizeof(node);
  count = std::min((count + k_page_nodes - 1) / k_page_nodes * k_page_nodes, mapped_bytes_ / sizeof(node));
  simd::prefault_write(nodes_ + capacity_, (count - capacity_) * sizeof(node));
  capacity_ = count;
}

node* document::grow(std::size_t used, std::size_t done, std::size_t total) noexcept {
  if (nodes_ == nullptr || mapped_bytes_ == 0) return nullptr;
  // A value that parses has at most total/2 + 2 nodes, but one cut short ("[[[[" to the end of the input) has one
  // per byte, and its error is only found at the end: so the bound is one node per byte.
  const std::size_t most = total + 2;
  // The projection from the bytes parsed so far (uniform data needs one step), at least half again what is used;
  // if that much address space is not there, an eighth more is tried before giving up.
  std::size_t want = used + used / 2 + 4096;
  if (done > 0) {
    // Both below 2^32 (a value spans less than 4 GiB): the product fits.
    const std::size_t projected = used * total / done;
    want = std::max(want, projected + projected / 8);
  }
  const std::size_t fallback = std::min(most, used + used / 8 + 4096);
  for (std::size_t count : {std::min(want, most), fallback}) {
    if (count <= capacity_) continue;
    const std::size_t bytes = simd::mapped_size(count * sizeof(node));
    if (bytes > mapped_bytes_) {
      void* mem = simd::remap_pages(nodes_, mapped_bytes_, bytes);
      if (mem == nullptr) continue;
      nodes_ = static_cast<node*>(mem);
      mapped_bytes_ = bytes;
    }
    populate(count);
    return nodes_;
  }
  return nullptr;
}

void document::append_string(std::uint32_t i, std::string& out) const {
  const node& n = nodes_[i];
  const char* p = base_ + n.offset;
  const char* end = p + n.len;
  if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
    out.append(p, n.len);
    return;
  }
  while (p < end) {
    const char* run = p;
    while (p < end && *p != '\\' && static_cast<unsigned char>(*p) < 0x80) ++p;
    out.append(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    if (*p != '\\') {
      std::uint32_t cp;
      std::size_t k = utf8::decode(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(end), cp);
      if (k == 0) {
        utf8::append(out, utf8::k_replacement);
        ++p;
      } else {
        out.append(p, k);
        p += k;
      }
      continue;
    }
    // An escape; the parser validated it.
    const char e = p[1];
    if (e == 'u') {
      utf8::append(out, utf8::decode_u_escape(p, end));
      continue;
    }
    p += 2;
    switch (e) {
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      default: out.push_back(e); break;  // " \ /
    }
  }
}

bool document::string_equals(std::uint32_t i, std::string_view key) const {
  const node& n = nodes_[i];
  if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0)
    return n.len == key.size() && std::memcmp(base_ + n.offset, key.data(), key.size()) == 0;
  std::string s;
  append_string(i, s);
  return s == key;
}

std::uint32_t document::find_member(std::uint32_t obj, std::string_view key) const {
  std::uint32_t found = npos;
  std::uint32_t i = obj + 1;
  const std::uint32_t end = nodes_[obj].next;
  while (i < end) {
    std::uint32_t v = i + 1;
    if (string_equals(i, key)) found = v;
    i = nodes_[v].next;
  }
  return found;
}

std::uint32_t document::element(std::uint32_t arr, std::uint32_t n) const {
  if (n >= nodes_[arr].len) return npos;
  std::uint32_t i = arr + 1;
  while (n-- > 0) i = nodes_[i].next;
  return i;
}

}  // namespace jview
