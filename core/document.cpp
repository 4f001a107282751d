// core/document.cpp: the node arena (an anonymous mapping reserved without backing, so only the pages the parser
// touches are resident), the compact copies of kept values, and string decoding / member lookup over the view.
#include "core/document.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "core/json_lexer.hpp"
#include "core/utf8.hpp"
#include "simd/pages.hpp"

namespace jview {

// Compact copies (copy_from) of up to k_chunk_copy bytes are cut one after the other from 2 MiB chunks on huge
// pages. From the heap, every fresh 4 KiB page they filled cost a fault (about 10 µs here): `[inputs |
// select(...)]` over 200 MB of NDJSON keeps 33,000 copies of about 700 bytes, 40 ms of faults. The last copy cut
// gives its bytes back when released (the copy of a value nobody kept is released and the next one cut in its
// place); a chunk goes back when its last copy does; the current one starts over when it is empty. One current
// chunk per thread (a parallel run's workers copy their own documents; copies never change threads).
struct copy_chunk {
  char* base;
  std::size_t used;  // bytes cut from it so far
  std::size_t live;  // copies not yet released
};

namespace {

constexpr std::size_t k_chunk = simd::k_huge_page;
constexpr std::size_t k_chunk_copy = std::size_t{64} << 10;  // larger copies come from malloc
// The chunk copies are cut from, per thread; at the thread's end it goes if no copy uses it (else with its last
// copy: release_copy frees a chunk that is no thread's current one).
struct copy_chunk_slot {
  copy_chunk* c = nullptr;
  ~copy_chunk_slot();
};
thread_local copy_chunk_slot g_copy_chunk;

// Room for n nodes (whole nodes: every cut stays aligned for the next), from the current chunk or a new one.
node* cut_copy(std::size_t n, copy_chunk*& from) noexcept {
  const std::size_t bytes = n * sizeof(node);
  copy_chunk* c = g_copy_chunk.c;
  if (c == nullptr || k_chunk - c->used < bytes) {
    if (c != nullptr && c->live == 0) {
      c->used = 0;
    } else {  // the full chunk, if any, now goes with its last copy
      void* mem = simd::map_huge_pages(k_chunk);
      if (mem == nullptr) return nullptr;
      c = new (std::nothrow) copy_chunk{static_cast<char*>(mem), 0, 0};
      if (c == nullptr) {
        simd::unmap_pages(mem, k_chunk);
        return nullptr;
      }
      g_copy_chunk.c = c;
    }
  }
  auto* p = reinterpret_cast<node*>(c->base + c->used);
  c->used += bytes;
  ++c->live;
  from = c;
  return p;
}

// The n nodes at p, cut from c, are no longer used.
void release_copy(copy_chunk* c, const node* p, std::size_t n) noexcept {
  const std::size_t bytes = n * sizeof(node);
  if (c == g_copy_chunk.c && reinterpret_cast<const char*>(p) + bytes == c->base + c->used) c->used -= bytes;
  if (--c->live != 0) return;
  if (c == g_copy_chunk.c) {
    c->used = 0;
    return;
  }
  simd::unmap_pages(c->base, k_chunk);
  delete c;
}

copy_chunk_slot::~copy_chunk_slot() {
  copy_chunk* const chunk = std::exchange(c, nullptr);
  if (chunk != nullptr && chunk->live == 0) {
    simd::unmap_pages(chunk->base, k_chunk);
    delete chunk;
  }
}

}  // namespace

document::~document() { release(); }

void document::release() noexcept {
  if (nodes_ == nullptr) return;
  if (mapped_bytes_ != 0)
    simd::unmap_pages(nodes_, mapped_bytes_);
  else if (chunk_ != nullptr)
    release_copy(chunk_, nodes_, copy_nodes_);
  else
    std::free(nodes_);
  nodes_ = nullptr;
  chunk_ = nullptr;
  capacity_ = mapped_bytes_ = copy_nodes_ = 0;
}

void document::copy_from(const document& src) {
  // The value's bytes go after its nodes, in whole nodes: a copy holds no view of the input's buffer, which the
  // reader then fills again (a large file's chunks, a stream's buffer) instead of keeping one per kept value.
  const std::size_t n = std::max<std::size_t>(src.size_, 1);
  const std::size_t text = src.facts_.text_len;
  const std::size_t total = n + (text + sizeof(node) - 1) / sizeof(node);
  // The block this copy had, when it fits and is not much larger (a kept value holds its whole block).
  if (nodes_ == nullptr || mapped_bytes_ != 0 || copy_nodes_ < total || copy_nodes_ > 2 * total + 64) {
    release();  // first: the block may be the last one cut, and the new one then takes its place
    size_ = 0;
    copy_chunk* from = nullptr;
    node* copy = total * sizeof(node) <= k_chunk_copy ? cut_copy(total, from) : nullptr;
    if (copy == nullptr) copy = static_cast<node*>(std::malloc(total * sizeof(node)));
    if (copy == nullptr) throw std::bad_alloc();
    nodes_ = copy;  // capacity_ stays 0: parsing into this document maps a new arena
    chunk_ = from;
    copy_nodes_ = total;
  }
  std::memcpy(nodes_, src.nodes_, std::size_t{src.size_} * sizeof(node));
  char* bytes = reinterpret_cast<char*>(nodes_ + n);
  if (text != 0) std::memcpy(bytes, src.base_, text);
  base_ = bytes;
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

node* document::grow(std::size_t used, std::size_t done, std::size_t total, std::size_t need) noexcept {
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
  want = std::max(want, need);
  const std::size_t fallback = std::min(most, std::max(need, used + used / 8 + 4096));
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
  lexer::decode_string(base_ + n.offset, n.len, n.flags, out);
}

void lexer::decode_string(const char* p, std::size_t n, std::uint8_t flags, std::string& out) {
  const char* end = p + n;
  if ((flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
    out.append(p, n);
    return;
  }
  // Invalid UTF-8 (only under --replace-invalid-utf8): as jq, the escapes are resolved first, then the bytes are
  // replaced by its rule (core/utf8.hpp), so a sequence cut short by an escape takes the escape's text too.
  std::string unescaped;
  std::string& to = (flags & node_flag::bad_utf8) != 0 ? unescaped : out;
  while (p < end) {
    const char* run = p;
    while (p < end && *p != '\\') ++p;
    to.append(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    // An escape; the lexer validated it.
    const char e = p[1];
    if (e == 'u') {
      utf8::append(to, utf8::decode_u_escape(p, end));
      continue;
    }
    p += 2;
    switch (e) {
      case 'b': to.push_back('\b'); break;
      case 'f': to.push_back('\f'); break;
      case 'n': to.push_back('\n'); break;
      case 'r': to.push_back('\r'); break;
      case 't': to.push_back('\t'); break;
      default: to.push_back(e); break;  // " \ /
    }
  }
  if ((flags & node_flag::bad_utf8) != 0) utf8::append_replacing(out, unescaped);
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
