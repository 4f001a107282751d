// core/output.hpp: the output buffer. Bytes collect in one growing buffer that is handed to a flush callback in
// large pieces (64 KiB by default); the buffer is never zero-filled. The caller supplies the callback: a descriptor's
// write(2) (core/fd_sink.hpp; cli/ adds the progress line's pause for standard output), a string (to_string), a
// comparison with a file (--check-formatted).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace jview {

// Copies [s, s + n) to o. The short strings, keys and numbers of typical JSON are copied inline with overlapping
// loads and stores that stay within both ranges (a call to memcpy cost more than the copy); longer ones by memcpy.
[[gnu::always_inline]] inline void copy_bytes(char* o, const char* s, std::size_t n) noexcept {
  if (n <= 16) {
    if (n >= 8) {
      std::uint64_t a, b;
      std::memcpy(&a, s, 8);
      std::memcpy(&b, s + n - 8, 8);
      std::memcpy(o, &a, 8);
      std::memcpy(o + n - 8, &b, 8);
    } else if (n >= 4) {
      std::uint32_t a, b;
      std::memcpy(&a, s, 4);
      std::memcpy(&b, s + n - 4, 4);
      std::memcpy(o, &a, 4);
      std::memcpy(o + n - 4, &b, 4);
    } else if (n > 0) {
      const char a = s[0], b = s[n / 2], c = s[n - 1];
      o[0] = a;
      o[n / 2] = b;
      o[n - 1] = c;
    }
  } else if (n <= 32) {
    unsigned char a[16], b[16];
    std::memcpy(a, s, 16);
    std::memcpy(b, s + n - 16, 16);
    std::memcpy(o, a, 16);
    std::memcpy(o + n - 16, b, 16);
  } else {
    std::memcpy(o, s, n);
  }
}

class output_buffer {
 public:
  // Returns false when the bytes could not be written; the buffer then drops further output.
  using flush_fn = bool (*)(void* ctx, const char* data, std::size_t len);

  // Output goes out in chunks of 32 KiB, then of 64 KiB once 4 MiB have gone out. Each fresh 4 KiB page of the
  // buffer costs a fault at its first write (9-14 µs on the VMs we measure) and most outputs are short (`jview .
  // twitter.json`: 0.12 ms less than in 64 KiB chunks); a long one gains from half the writes (and wake-ups of the
  // reader of a pipe: 200 MB of NDJSON in 32 KiB chunks took 8% longer).
  static constexpr std::size_t k_first_chunk = std::size_t{1} << 15;
  static constexpr std::size_t k_steady_chunk = std::size_t{1} << 16;
  static constexpr std::size_t k_steady_after = std::size_t{4} << 20;

  explicit output_buffer(flush_fn fn, void* ctx, std::size_t chunk = k_first_chunk)
      : fn_(fn), ctx_(ctx), chunk_(chunk), cap_(chunk), data_(new char[chunk]) {}
  output_buffer(const output_buffer&) = delete;
  output_buffer& operator=(const output_buffer&) = delete;
  ~output_buffer() = default;

  // A pointer with room for n bytes; write, then commit(end).
  [[gnu::always_inline]] char* reserve(std::size_t n) {
    if (cap_ - len_ < n) [[unlikely]]
      make_room(n);
    return data_.get() + len_;
  }
  [[gnu::always_inline]] void commit(char* end) noexcept { len_ = static_cast<std::size_t>(end - data_.get()); }

  [[gnu::always_inline]] void put(char c) {
    if (len_ == cap_) [[unlikely]]
      make_room(1);
    data_[len_++] = c;
  }
  [[gnu::always_inline]] void append(const char* p, std::size_t n) {
    if (cap_ - len_ < n) [[unlikely]] {
      make_room(n);
    }
    copy_bytes(data_.get() + len_, p, n);
    len_ += n;
  }
  void append(std::string_view s) { append(s.data(), s.size()); }

  // Hands everything buffered to the callback. False once any write failed.
  bool flush();
  // Flushes when at least one chunk is buffered (call between values: it also marks the end of a whole value).
  void maybe_flush() {
    if (len_ >= chunk_) flush();
    whole_ = len_;
  }
  // Writes whole values' bytes held elsewhere (a parallel run's log) after those buffered, without copying them
  // into the buffer. False once any write failed.
  bool write_through(const char* p, std::size_t n) {
    flush();
    if (n > 0) {
      if (!failed_ && !fn_(ctx_, p, n)) failed_ = true;
      flushed_ += n;
    }
    return !failed_;
  }
  bool failed() const noexcept { return failed_; }
  std::size_t buffered() const noexcept { return len_; }  // bytes not yet handed to the callback

  // The buffered bytes up to the last maybe_flush(): whole values only. Read by a fault handler (the bytes
  // [data(), data() + whole()) are always written: the buffer only ever appends behind them).
  const char* data() const noexcept { return data_.get(); }
  std::size_t whole() const noexcept { return whole_; }
  // Hands the whole values buffered to the callback and drops the rest (a value cut short by an exception).
  // Never throws: for unwinding.
  void flush_whole() noexcept;

  // A flush_fn that appends to the std::string given as ctx (tests, in-memory use).
  static bool to_string(void* ctx, const char* data, std::size_t len);

 private:
  void make_room(std::size_t n);

  flush_fn fn_;
  void* ctx_;
  std::size_t chunk_;
  std::size_t cap_;
  std::size_t len_ = 0;
  std::size_t whole_ = 0;  // bytes of whole values (see maybe_flush)
  std::size_t flushed_ = 0;  // bytes handed to the callback so far
  std::unique_ptr<char[]> data_;
  bool failed_ = false;
};

}  // namespace jview
