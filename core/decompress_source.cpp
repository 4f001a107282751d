// core/decompress_source.cpp: see decompress_source.hpp. The decoder runs on its own thread (the producer) and
// fills 1 MiB blocks, eight of them in flight: while the reader parses one buffer the next megabytes are decoded (on
// two cores, a `.gz` costs about its inflate time rather than inflate plus parse). The reader's read() copies out
// of the blocks (at memory speed, a few percent of inflating them). The input is read by the producer: a file or a
// stream into a 256 KiB buffer, a whole source (a small file mapped or read whole) where it lies.
#include "core/decompress_source.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "core/decoders.hpp"
#include "core/text_format.hpp"

namespace jview {
namespace {

using detail::codec;
using detail::decoder;

constexpr std::size_t k_block = 1u << 20;  // a block of decoded bytes
constexpr std::size_t k_blocks = 8;        // blocks in flight: 8 MiB decoded ahead at most
// A waiting producer is woken once this many blocks are free, not for each: on a loaded machine every wake-up
// waits for a CPU (one per block made `jview FILE.zst` slower than decoding inside read()).
constexpr std::size_t k_wake_free = k_blocks / 2;
constexpr std::size_t k_input = 256u << 10;  // compressed bytes read at a time

struct block {
  std::unique_ptr<std::uint8_t[]> data{new std::uint8_t[k_block]};
  std::size_t len = 0;
};

// What the source and its producer thread share (the thread holds it too: a source destroyed while its producer
// waits for a slow pipe leaves the rest to the thread, which ends at its next step).
struct pipeline {
  std::unique_ptr<byte_source> in;
  std::unique_ptr<decoder> dec;
  codec kind = codec::none;
  bool stream = false;
  std::string prefix;  // bytes of a stream read to look at its magic: the input's first bytes

  // The producer's input.
  std::unique_ptr<std::uint8_t[]> ibuf;
  const std::uint8_t* in_base = nullptr;  // the current input: [in_base, in_end), decoded up to in_at
  const std::uint8_t* in_at = nullptr;
  const std::uint8_t* in_end = nullptr;
  bool in_last = false;          // no input after in_end
  bool src_ended = false;        // `in` has reported its end
  std::uint64_t in_before = 0;   // compressed bytes before in_base

  std::mutex m;
  std::condition_variable have_full, have_free;
  std::deque<block*> full;
  std::vector<block*> free;
  std::vector<std::unique_ptr<block>> blocks;
  bool done = false;   // the producer has published its last block; `final` and `error` say how it ended
  bool stop = false;   // the source is gone
  bool producer_waits = false, consumer_waits = false;  // (notified only then)
  byte_source::result final = byte_source::result::end;
  std::string error;

  // Reads more compressed input (the producer): in_last once there is no more; false on a read error (`error`).
  // `keep`: the bytes not yet decoded are kept in front of the new ones (else the decoder has taken them all).
  bool more_input(bool keep = false);
  // Decodes into b until it is full, the input ends (or fails), or (a stream) the input would wait and b has
  // something. True: more may follow; false: the end (final, error set).
  bool fill(block& b);
  void run();  // the producer thread
  block* take_free();  // waits for a free block; nullptr once stopped
  void publish(block* b, bool last);
};

bool pipeline::more_input(bool keep) {
  if (in->type() == byte_source::kind::whole) {  // (given all at once by the first call)
    const std::string_view all = in->whole();
    in_base = in_at = reinterpret_cast<const std::uint8_t*>(all.data());
    in_end = in_at + all.size();
    in_last = true;
    return true;
  }
  // Bytes the decoder left (a header cut by the buffer's end) move to the front and are read again with the next.
  const std::size_t left = keep ? static_cast<std::size_t>(in_end - in_at) : 0;
  in_before += static_cast<std::uint64_t>(in_at - in_base);
  if (!ibuf) ibuf.reset(new std::uint8_t[k_input]);
  std::size_t got = 0;
  if (left != 0) {
    std::memmove(ibuf.get(), in_at, left);
    got = left;
  }
  if (!prefix.empty()) {  // (at most k_longest_magic bytes)
    std::memcpy(ibuf.get(), prefix.data(), prefix.size());
    got = prefix.size();
    prefix.clear();
  }
  bool failed = false;
  // A stream: what has arrived (waiting only for the first byte); a file: a full buffer.
  while (!src_ended && (got == left || (!stream && got < k_input))) {
    std::size_t n = 0;
    const byte_source::result r = in->read(reinterpret_cast<char*>(ibuf.get()) + got, k_input - got, n);
    got += n;
    if (r == byte_source::result::error) {
      error = in->error_text();
      failed = true;
      break;
    }
    src_ended = r == byte_source::result::end;
  }
  in_base = in_at = ibuf.get();
  in_end = in_at + got;
  in_last = src_ended;
  return !failed;
}

bool pipeline::fill(block& b) {
  b.len = 0;
  std::uint8_t* out = b.data.get();
  std::uint8_t* const out_end = out + k_block;
  for (;;) {
    if (in_at == in_end && !in_last) {
      // A stream that would wait: what is decoded goes to the reader first (`tail -f log.gz`-like producers).
      if (stream && out != b.data.get() && in->would_block()) break;
      if (!more_input()) {
        b.len = static_cast<std::size_t>(out - b.data.get());
        final = byte_source::result::error;
        return false;
      }
    }
    const std::uint8_t* const in0 = in_at;
    const std::uint8_t* const out0 = out;
    const decoder::status s = dec->decode(in_at, in_end, in_last, out, out_end);
    if (s == decoder::status::ok) {
      if (out == out_end) break;
      // No progress with input left: the decoder needs more bytes than are here (a header cut by the buffer's end).
      if (in_at == in0 && out == out0 && in_at != in_end && !in_last && !more_input(true)) {
        b.len = static_cast<std::size_t>(out - b.data.get());
        final = byte_source::result::error;
        return false;
      }
      continue;
    }
    b.len = static_cast<std::size_t>(out - b.data.get());
    const char* what = detail::codec_name(kind);
    const std::uint64_t at = in_before + static_cast<std::uint64_t>(in_at - in_base);
    switch (s) {
      case decoder::status::end:
        final = byte_source::result::end;
        return false;
      case decoder::status::truncated: error = format_text("{} data is truncated", what); break;
      case decoder::status::corrupt: error = format_text("{} data is corrupt at byte {}", what, at); break;
      case decoder::status::no_memory: error = "out of memory"; break;
      case decoder::status::ok: break;
    }
    final = byte_source::result::error;
    return false;
  }
  b.len = static_cast<std::size_t>(out - b.data.get());
  return true;
}

block* pipeline::take_free() {
  std::unique_lock<std::mutex> lock(m);
  if (!stop && free.empty()) {
    producer_waits = true;
    have_free.wait(lock, [&] { return stop || free.size() >= k_wake_free; });
    producer_waits = false;
  }
  if (stop) return nullptr;
  block* b = free.back();
  free.pop_back();
  return b;
}

void pipeline::publish(block* b, bool last) {
  bool wake;
  {
    const std::lock_guard<std::mutex> lock(m);
    if (b->len != 0)
      full.push_back(b);
    else
      free.push_back(b);
    done = last;
    wake = consumer_waits;
  }
  if (wake) have_full.notify_one();
}

void pipeline::run() {
  for (;;) {
    block* b = take_free();
    if (b == nullptr) return;
    const bool more = fill(*b);
    publish(b, !more);
    if (!more) return;
  }
}

// The decompressed bytes as a source: a file's are read as a file (the reader fills its buffer and never waits for
// a producer), a stream's as a stream.
class decompress_source final : public byte_source {
 public:
  decompress_source(std::shared_ptr<pipeline> p, decompress_thread t)
      : byte_source(p->in->name()), p_(std::move(p)) {
    if (t == decompress_thread::own) {
      try {
        thread_ = std::thread([p = p_] { p->run(); });
      } catch (const std::system_error&) {  // no thread: decode inside read()
      }
    }
  }
  ~decompress_source() override {
    {
      const std::lock_guard<std::mutex> lock(p_->m);
      p_->stop = true;
    }
    p_->have_free.notify_all();
    if (thread_.joinable()) {
      // A producer waiting for a stream's next bytes is left to end by itself (it holds the pipeline).
      bool done;
      {
        const std::lock_guard<std::mutex> lock(p_->m);
        done = p_->done;
      }
      if (done || !p_->stream)
        thread_.join();
      else
        thread_.detach();
    }
  }
  kind type() const noexcept override { return p_->stream ? kind::stream : kind::file; }
  result read(char* dst, std::size_t cap, std::size_t& got) override {
    got = 0;
    while (got < cap) {
      if (cur_ == nullptr && !next_block(got == 0)) break;
      const std::size_t n = std::min(cap - got, cur_->len - cur_at_);
      std::memcpy(dst + got, cur_->data.get() + cur_at_, n);
      cur_at_ += n;
      got += n;
      if (cur_at_ == cur_->len) release();
    }
    if (got != 0) return result::ok;
    const std::lock_guard<std::mutex> lock(p_->m);
    error_ = p_->error;
    return p_->final;
  }
  bool would_block() const override {
    if (cur_ != nullptr) return false;
    const std::lock_guard<std::mutex> lock(p_->m);
    return p_->full.empty() && !p_->done;
  }
  // Unknown until the end (a gzip trailer's length is that of its member, modulo 4 GiB): "much more", so that a
  // large value's buffer grows geometrically (value_reader::make_room).
  std::uint64_t remaining_hint() const noexcept override { return std::uint64_t{1} << 40; }

 private:
  // The next decoded block into cur_: waiting for the producer when `wait` (without a thread: decoding it here).
  // False at the end, or when not waiting and none is ready.
  bool next_block(bool wait) {
    if (!thread_.joinable()) {
      if (p_->done) {
        const std::lock_guard<std::mutex> lock(p_->m);
        if (p_->full.empty()) return false;
      } else if (p_->full.empty() && wait) {
        block* b = p_->free.back();
        p_->free.pop_back();
        p_->publish(b, !p_->fill(*b));
      }
    }
    std::unique_lock<std::mutex> lock(p_->m);
    if (wait && p_->full.empty() && !p_->done) {
      p_->consumer_waits = true;
      p_->have_full.wait(lock, [&] { return !p_->full.empty() || p_->done; });
      p_->consumer_waits = false;
    }
    if (p_->full.empty()) return false;
    cur_ = p_->full.front();
    p_->full.pop_front();
    cur_at_ = 0;
    return true;
  }
  void release() {
    bool wake;
    {
      const std::lock_guard<std::mutex> lock(p_->m);
      p_->free.push_back(cur_);
      cur_ = nullptr;
      wake = p_->producer_waits && p_->free.size() >= k_wake_free;
    }
    if (wake) p_->have_free.notify_one();
  }

  std::shared_ptr<pipeline> p_;
  std::thread thread_;
  block* cur_ = nullptr;  // the block being read
  std::size_t cur_at_ = 0;
};

// A stream whose first bytes were read to look at them, and are not compressed: those bytes, then the rest.
class replay_source final : public byte_source {
 public:
  replay_source(std::unique_ptr<byte_source> in, std::string prefix, result after, std::string error)
      : byte_source(in->name()), in_(std::move(in)), prefix_(std::move(prefix)), after_(after) {
    after_error_ = std::move(error);
  }
  kind type() const noexcept override { return in_->type(); }
  result read(char* dst, std::size_t cap, std::size_t& got) override {
    if (at_ < prefix_.size()) {
      got = std::min(cap, prefix_.size() - at_);
      std::memcpy(dst, prefix_.data() + at_, got);
      at_ += got;
      // With what has arrived after them, when it is there: the reader sees the reads it would have seen.
      if (at_ == prefix_.size() && got < cap && after_ == result::ok && !in_->would_block()) {
        std::size_t more = 0;
        const result r = in_->read(dst + got, cap - got, more);
        got += more;
        if (r != result::ok) {
          after_ = r;
          if (r == result::error) after_error_ = in_->error_text();
        }
      }
      return result::ok;
    }
    if (after_ != result::ok) {  // the peek met the input's end or a read error
      got = 0;
      error_ = after_error_;
      return after_;
    }
    const result r = in_->read(dst, cap, got);
    if (r == result::error) error_ = in_->error_text();
    return r;
  }
  bool would_block() const override { return at_ >= prefix_.size() && after_ == result::ok && in_->would_block(); }

 private:
  std::unique_ptr<byte_source> in_;
  std::string prefix_;
  std::size_t at_ = 0;
  result after_;
  std::string after_error_;
};

// The input's first bytes, up to k_longest_magic, as far as they can decide: from memory, again from a file, or
// read from a stream (into `prefix`, with how the reading ended in `r` / `error`).
codec look(byte_source& s, std::string& prefix, byte_source::result& r, std::string& error) {
  char head[detail::k_longest_magic];
  std::size_t n = 0;
  codec c = codec::none;
  auto decide = [&] {
    return detail::sniff(reinterpret_cast<const unsigned char*>(head), n, c) != detail::sniff_result::undecided;
  };
  r = byte_source::result::ok;
  if (s.type() == byte_source::kind::whole) {
    const std::string_view all = s.whole();
    n = std::min(all.size(), sizeof head);
    std::memcpy(head, all.data(), n);
    decide();
    return c;
  }
  if (s.can_reread()) {
    s.reread(0, head, sizeof head, n);
    decide();
    return c;
  }
  // A stream: read only while the bytes so far could begin a magic (`echo 1 | jview` is not kept waiting), and
  // first one byte (most streams are not compressed: the rest is read by the reader, in its own reads).
  while (n < sizeof head && (n == 0 || !decide())) {
    std::size_t got = 0;
    r = s.read(head + n, n == 0 ? 1 : sizeof head - n, got);
    n += got;
    if (r != byte_source::result::ok) {
      if (r == byte_source::result::error) error = s.error_text();
      break;
    }
  }
  if (n != 0) decide();
  prefix.assign(head, n);
  return c;
}

}  // namespace

std::unique_ptr<byte_source> decompressing(std::unique_ptr<byte_source> source, decompress_thread thread) {
  std::string prefix, error;
  byte_source::result r;
  const codec c = look(*source, prefix, r, error);
  if (c == codec::none) {
    if (source->type() != byte_source::kind::stream) return source;
    return std::make_unique<replay_source>(std::move(source), std::move(prefix), r, std::move(error));
  }
  auto p = std::make_shared<pipeline>();
  p->kind = c;
  p->stream = source->type() == byte_source::kind::stream;
  p->dec = detail::make_decoder(c);
  try {
    for (std::size_t i = 0; i < k_blocks; ++i) {
      p->blocks.push_back(std::make_unique<block>());
      p->free.push_back(p->blocks.back().get());
    }
  } catch (const std::bad_alloc&) {
    p->dec.reset();
  }
  if (!p->dec) {  // no memory for the decoder: the input's read error
    p->done = true;
    p->final = byte_source::result::error;
    p->error = "out of memory";
    thread = decompress_thread::none;
  }
  p->prefix = std::move(prefix);
  if (r != byte_source::result::ok && p->dec) {
    // The stream ended (or failed) inside its first bytes: a magic, then nothing more.
    p->src_ended = r == byte_source::result::end;
    if (r == byte_source::result::error) {
      p->done = true;
      p->final = byte_source::result::error;
      p->error = error;
    }
  }
  p->in = std::move(source);
  return std::make_unique<decompress_source>(std::move(p), thread);
}

}  // namespace jview
