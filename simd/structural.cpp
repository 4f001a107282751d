// simd/structural.cpp: structural_index, the batch driver of stage 1 (kernels in structural_*.cpp,
// chosen in dispatch.cpp). It indexes k_batch bytes at a time, so a huge file or a long
// NDJSON stream is indexed just ahead of its use, and the last partial block is indexed from a padded copy so no
// load passes the end of the input.
#include "simd/structural.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "simd/pages.hpp"

namespace jview::simd {

void structural_index::arrays_deleter::operator()(std::uint32_t* p) const noexcept {
  if (mapped == k_lent) return;
  if (mapped != 0)
    unmap_pages(p, mapped);
  else
    std::free(p);
}

structural_index::structural_index() = default;
structural_index::~structural_index() = default;

namespace {
constexpr std::uint32_t k_sentinel = 0xffffffffu;
}  // namespace

void structural_index::lend_arrays(std::uint32_t* mem) noexcept {
  live_ = false;
  pos_ = std::unique_ptr<std::uint32_t[], arrays_deleter>(mem, arrays_deleter{arrays_deleter::k_lent});
  special_ = mem + k_array_entries;
  capacity_ = k_array_entries;
}

// The three functions below are called once each by a small input: aligned, as the kernels' loops are (an unrelated
// 16-byte shift of them made small/demo.json 1.17x slower).
JVIEW_HOT_ALIGN bool structural_index::start(const stage1_kernel* k,
                                             std::size_t (*validate)(const char*, std::size_t) noexcept,
                                             const char* begin, const char* end) {
  live_ = false;
  // Arrays for one batch, or for the whole input when it is smaller (fromjson of a short text allocates little).
  const auto len = static_cast<std::size_t>(end - begin);
  const std::size_t need = len < structural_index::k_batch ? (len + 63) / 64 * 64 + 128 : k_array_entries;
  if (need > capacity_) {
    // Both arrays in one block: on a huge page for a large input (its batches soon write most of both; fresh 4 KiB
    // pages cost 5-17 µs each at their first write), else from the heap (a parser per file under `--check *.json`
    // gets the pages the previous one touched).
    pos_.reset();
    special_ = nullptr;
    capacity_ = 0;
    const std::size_t bytes = 2 * need * sizeof(std::uint32_t);
    const std::size_t mapped = len >= k_large_input ? bytes : 0;
    auto* mem = static_cast<std::uint32_t*>(mapped != 0 ? map_huge_pages(mapped) : std::malloc(bytes));
    if (mem == nullptr) return false;
    pos_ = std::unique_ptr<std::uint32_t[], arrays_deleter>(mem, arrays_deleter{mapped});
    special_ = mem + need;
    capacity_ = need;
  }
  kernel_ = k;
  st_ = stage1_state{};
  st_.validate = validate;
  st_.begin = begin;
  failed_ = false;
  sampled_ = one_pass_better_ = false;
  next_ = begin;
  end_ = end;
  batch_ = k_first_batch;
  stop_ = nullptr;
  if (!next_batch()) return false;
  live_ = true;
  return true;
}

JVIEW_HOT_ALIGN bool structural_index::next_batch() {
  if (failed_ || next_ == end_) return false;
  const char* const b = next_;
  const std::size_t avail = static_cast<std::size_t>(end_ - b);
  const std::size_t len = avail < batch_ ? avail : batch_;
  if (batch_ < k_batch) batch_ *= 2;
  const std::size_t full = len / 64;
  stage1_out out{pos_.get(), special_, nullptr};
  bool ok = kernel_->index(reinterpret_cast<const unsigned char*>(b), b, full, 0, st_, out);
  if (ok && len % 64 != 0) {
    // The last partial block: indexed from a copy padded with spaces (whitespace: no tokens, no errors).
    alignas(64) unsigned char tail[64];
    std::memset(tail, ' ', sizeof tail);
    std::memcpy(tail, b + full * 64, len % 64);
    ok = kernel_->index(tail, b + full * 64, 1, static_cast<std::uint32_t>(full * 64), st_, out);
  }
  next_ = b + len;
  if (ok && next_ == end_ && len % 64 == 0 && len != 0) {
    // Input ending at a block boundary: one block of spaces after it closes the UTF-8 check (a sequence cut off
    // by the end) for kernels that check per block. No tokens come from it.
    alignas(64) unsigned char blank[64];
    std::memset(blank, ' ', sizeof blank);
    ok = kernel_->index(blank, end_, 1, static_cast<std::uint32_t>(len), st_, out);
  }
  if (ok && next_ == end_ && st_.utf8_from != nullptr) {
    // The end of the input ends the pending non-ASCII run.
    const std::size_t n = static_cast<std::size_t>(end_ - st_.utf8_from);
    const std::size_t bad = st_.validate(st_.utf8_from, n);
    if (bad != n) {
      out.fail = st_.utf8_from + bad;
      ok = false;
    }
    st_.utf8_from = nullptr;
  }
  if (!sampled_ && (indexed_bytes() >= k_sample_bytes || next_ == end_)) {
    sampled_ = true;
    one_pass_better_ = kernel_->one_pass_share != 0 && indexed_bytes() >= k_sample_bytes &&
                       st_.string_blocks * 64 * 100 >= std::size_t{kernel_->one_pass_share} * indexed_bytes();
  }
  std::uint32_t* pe = out.pos;
  if (!ok) {
    // No value may reach the failure: drop the tokens from it on (all of them when it lies in an earlier batch).
    failed_ = true;
    const std::uint32_t* first = pos_.get();
    if (out.fail < b) {
      pe = pos_.get();
    } else {
      const auto f = static_cast<std::uint32_t>(out.fail - b);
      while (pe != first && pe[-1] >= f) --pe;
    }
  }
  *out.special = k_sentinel;
  base_ = b;
  cursor_ = pos_.get();
  pos_end_ = pe;
  special_cursor_ = special_;
  return true;
}

JVIEW_HOT_ALIGN bool structural_index::validate_upto(const char* stop) noexcept {
  if (st_.utf8_from == nullptr || st_.utf8_from >= stop) return true;
  const std::size_t n = static_cast<std::size_t>(stop - st_.utf8_from);
  if (st_.validate(st_.utf8_from, n) != n) return false;
  st_.utf8_from = stop;
  return true;
}

}  // namespace jview::simd
