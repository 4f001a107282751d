// core/decoders.cpp: see decoders.hpp. Each decoder reports `truncated` only once the input has ended (`last`) and
// a call with no input left made no progress (a library may still hold output it had no room for).
#include "core/decoders.hpp"

#include <bzlib.h>
#include <isa-l/igzip_lib.h>
#include <lzma.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>

namespace jview::detail {
namespace {

constexpr std::size_t k_max_step = std::numeric_limits<std::uint32_t>::max();  // the libraries count in 32 bits

std::size_t step_size(const std::uint8_t* p, const std::uint8_t* end) {
  return std::min(static_cast<std::size_t>(end - p), k_max_step);
}

struct magic {
  codec c;
  const char* bytes;
  std::size_t size;
};
constexpr magic k_magics[] = {
    {codec::gzip, "\x1f\x8b", 2},
    {codec::zstd, "\x28\xb5\x2f\xfd", 4},
    {codec::xz, "\xfd\x37\x7a\x58\x5a\x00", 6},
    {codec::bzip2, "BZh", 3},  // and a block size digit (sniff)
};

// ---- gzip: ISA-L's igzip, members one after another (isal_inflate reads each member's header and checks its
// trailer's CRC and length; between members it is reset, and the next bytes must be another member's) ----
class gzip_decoder final : public decoder {
 public:
  gzip_decoder() { isal_inflate_init(&st_); }
  status decode(const std::uint8_t*& in, const std::uint8_t* in_end, bool last, std::uint8_t*& out,
                std::uint8_t* out_end) override {
    for (;;) {
      if (!in_member_) {
        if (in == in_end) return last ? status::end : status::ok;
        // Another member must follow (ISA-L would take other bytes for the start of a header cut short).
        if (in[0] != 0x1f || (in_end - in >= 2 && in[1] != 0x8b)) return status::corrupt;
        if (in_end - in < 2) return last ? status::truncated : status::ok;
        isal_inflate_reset(&st_);
        st_.crc_flag = ISAL_GZIP;
        in_member_ = true;
      }
      const std::uint8_t *in0 = in, *out0 = out;
      st_.next_in = const_cast<std::uint8_t*>(in);
      st_.avail_in = static_cast<std::uint32_t>(step_size(in, in_end));
      st_.next_out = out;
      st_.avail_out = static_cast<std::uint32_t>(step_size(out, out_end));
      const int r = isal_inflate(&st_);
      in = st_.next_in;
      out = st_.next_out;
      if (r < 0 || r == ISAL_NEED_DICT) return status::corrupt;
      if (st_.block_state == ISAL_BLOCK_FINISH) {
        in_member_ = false;
        continue;
      }
      if (out == out_end) return status::ok;
      if (in == in_end) {
        if (!last) return status::ok;
        if (out == out0) return status::truncated;
      } else if (in == in0 && out == out0) {
        return status::corrupt;  // room on both sides and no progress: never loop on it
      }
    }
  }

 private:
  inflate_state st_;
  bool in_member_ = false;
};

// ---- zstd: one decompression context reads frame after frame (skippable frames included) ----
class zstd_decoder final : public decoder {
 public:
  zstd_decoder() : d_(ZSTD_createDCtx()) {}
  ~zstd_decoder() override { ZSTD_freeDCtx(d_); }
  bool ok() const noexcept { return d_ != nullptr; }
  status decode(const std::uint8_t*& in, const std::uint8_t* in_end, bool last, std::uint8_t*& out,
                std::uint8_t* out_end) override {
    for (;;) {
      // At most a block's worth of input a call: on an error the library leaves the input where the call began, so
      // the error's byte is that of the piece the fault is in.
      // And at most a block's output: on an error (a frame's checksum) what earlier calls wrote stays written.
      ZSTD_inBuffer ib{in, std::min(static_cast<std::size_t>(in_end - in), step_), 0};
      ZSTD_outBuffer ob{out, std::min(static_cast<std::size_t>(out_end - out), out_step_), 0};
      const std::size_t r = ZSTD_decompressStream(d_, &ob, &ib);
      in += ib.pos;
      out += ob.pos;
      if (ZSTD_isError(r))
        return ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation ? status::no_memory : status::corrupt;
      // 0: a frame ended and all its output was written (a call that took and gave nothing changes nothing: one
      // with no input after a frame's end asks for the next frame's header).
      if (ib.pos != 0 || ob.pos != 0) boundary_ = r == 0;
      if (out == out_end) return status::ok;
      if (in == in_end) {
        if (!last) return status::ok;
        if (boundary_) return status::end;
        if (ob.pos == 0) return status::truncated;
      }
    }
  }

 private:
  ZSTD_DCtx* d_;
  bool boundary_ = false;
  std::size_t step_ = ZSTD_DStreamInSize();
  std::size_t out_step_ = ZSTD_DStreamOutSize();
};

// ---- xz: liblzma's .xz decoder with LZMA_CONCATENATED (streams and stream padding one after another) ----
class xz_decoder final : public decoder {
 public:
  xz_decoder() { ok_ = lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK; }
  ~xz_decoder() override { lzma_end(&s_); }
  bool ok() const noexcept { return ok_; }
  status decode(const std::uint8_t*& in, const std::uint8_t* in_end, bool last, std::uint8_t*& out,
                std::uint8_t* out_end) override {
    for (;;) {
      s_.next_in = in;
      s_.avail_in = static_cast<std::size_t>(in_end - in);
      s_.next_out = out;
      s_.avail_out = static_cast<std::size_t>(out_end - out);
      // LZMA_FINISH only once the rest of the input is all here: it tells the decoder there are no more streams.
      const lzma_ret r = lzma_code(&s_, last ? LZMA_FINISH : LZMA_RUN);
      in = s_.next_in;
      out = s_.next_out;
      switch (r) {
        case LZMA_STREAM_END: return status::end;
        case LZMA_OK: break;
        case LZMA_BUF_ERROR: return last ? status::truncated : status::ok;  // no progress possible
        case LZMA_MEM_ERROR: return status::no_memory;
        default: return status::corrupt;  // LZMA_DATA_ERROR, LZMA_FORMAT_ERROR, LZMA_OPTIONS_ERROR, ...
      }
      if (out == out_end) return status::ok;
      if (in == in_end && !last) return status::ok;
    }
  }

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool ok_ = false;
};

// ---- bzip2: libbz2, one stream after another (each begins with "BZh"; a new decompressor for each) ----
class bzip2_decoder final : public decoder {
 public:
  ~bzip2_decoder() override {
    if (open_) BZ2_bzDecompressEnd(&s_);
  }
  status decode(const std::uint8_t*& in, const std::uint8_t* in_end, bool last, std::uint8_t*& out,
                std::uint8_t* out_end) override {
    for (;;) {
      if (!open_) {
        if (started_ && in == in_end) return last ? status::end : status::ok;
        std::memset(&s_, 0, sizeof s_);
        const int r = BZ2_bzDecompressInit(&s_, 0, 0);
        if (r != BZ_OK) return r == BZ_MEM_ERROR ? status::no_memory : status::corrupt;
        open_ = started_ = true;
      }
      const std::uint8_t *in0 = in, *out0 = out;
      s_.next_in = reinterpret_cast<char*>(const_cast<std::uint8_t*>(in));
      s_.avail_in = static_cast<unsigned>(step_size(in, in_end));
      s_.next_out = reinterpret_cast<char*>(out);
      s_.avail_out = static_cast<unsigned>(step_size(out, out_end));
      const int r = BZ2_bzDecompress(&s_);
      in = reinterpret_cast<const std::uint8_t*>(s_.next_in);
      out = reinterpret_cast<std::uint8_t*>(s_.next_out);
      if (r == BZ_STREAM_END) {
        BZ2_bzDecompressEnd(&s_);
        open_ = false;
        continue;
      }
      if (r != BZ_OK) return r == BZ_MEM_ERROR ? status::no_memory : status::corrupt;
      if (out == out_end) return status::ok;
      if (in == in_end) {
        if (!last) return status::ok;
        if (out == out0) return status::truncated;
      } else if (in == in0 && out == out0) {
        return status::corrupt;
      }
    }
  }

 private:
  bz_stream s_{};
  bool open_ = false;
  bool started_ = false;
};

}  // namespace

const char* codec_name(codec c) noexcept {
  switch (c) {
    case codec::gzip: return "gzip";
    case codec::zstd: return "zstd";
    case codec::xz: return "xz";
    case codec::bzip2: return "bzip2";
    case codec::none: break;
  }
  return "uncompressed";
}

sniff_result sniff(const unsigned char* p, std::size_t n, codec& found) noexcept {
  found = codec::none;
  bool undecided = false;
  for (const magic& m : k_magics) {
    const std::size_t k = std::min(n, m.size);
    if (std::memcmp(p, m.bytes, k) != 0) continue;
    if (n < m.size) {
      undecided = true;
      continue;
    }
    if (m.c == codec::bzip2) {  // "BZh" then the block size, '1' to '9'
      if (n == m.size) {
        undecided = true;
        continue;
      }
      if (p[3] < '1' || p[3] > '9') continue;
    }
    found = m.c;
    return sniff_result::found;
  }
  return undecided ? sniff_result::undecided : sniff_result::none;
}

std::unique_ptr<decoder> make_decoder(codec c) {
  try {
    switch (c) {
      case codec::gzip: return std::make_unique<gzip_decoder>();
      case codec::zstd: {
        auto d = std::make_unique<zstd_decoder>();
        return d->ok() ? std::move(d) : nullptr;
      }
      case codec::xz: {
        auto d = std::make_unique<xz_decoder>();
        return d->ok() ? std::move(d) : nullptr;
      }
      case codec::bzip2: return std::make_unique<bzip2_decoder>();
      case codec::none: break;
    }
  } catch (const std::bad_alloc&) {
  }
  return nullptr;
}

}  // namespace jview::detail
