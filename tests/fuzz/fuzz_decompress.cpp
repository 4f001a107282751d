// tests/fuzz/fuzz_decompress.cpp: libFuzzer target for the decompressing byte source (core/decompress_source.hpp).
// The first byte chooses what the rest is:
// - raw (bit 7 clear): the bytes themselves, behind gzip / zstd / xz / bzip2 magic (bits 0-1) or as they are, read
//   through the source (a whole source, or a stream delivering pieces of random sizes; decoded on the source's
//   thread or inside read(): bits 2-3). Anything may come out, but reads must end (end or error, with a message
//   naming the format when the input was compressed) without a sanitizer report;
// - round trip (bit 7 set): the rest compressed with the chosen codec (once, or twice concatenated: bit 4), maybe
//   cut short (bit 5), then read back: the bytes must be the original's (a prefix of them when cut, ending in
//   "data is truncated" or, for a cut inside the first bytes, an uncompressed read of what is left).
#include <bzlib.h>
#include <isa-l/igzip_lib.h>
#include <lzma.h>
#include <zstd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_source.hpp"
#include "core/decompress_source.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

// Bytes in memory as a stream: pieces of the sizes `sizes` names, one per read; would_block() now and then.
class piece_stream final : public byte_source {
 public:
  piece_stream(std::string bytes, std::string sizes)
      : byte_source("fuzz"), bytes_(std::move(bytes)), sizes_(std::move(sizes)) {}
  kind type() const noexcept override { return kind::stream; }
  result read(char* dst, std::size_t cap, std::size_t& got) override {
    got = 0;
    if (at_ == bytes_.size()) return result::end;
    std::size_t want = sizes_.empty() ? 4096 : 1 + static_cast<unsigned char>(sizes_[k_++ % sizes_.size()]) * 37;
    got = std::min({want, cap, bytes_.size() - at_});
    std::memcpy(dst, bytes_.data() + at_, got);
    at_ += got;
    return result::ok;
  }
  bool would_block() const override { return (k_ & 3) == 1; }

 private:
  std::string bytes_, sizes_;
  std::size_t at_ = 0, k_ = 0;
};

struct outcome {
  std::string bytes;
  byte_source::result last = byte_source::result::ok;
  std::string error;
};

outcome read_all(byte_source& s, std::size_t read_size) {
  outcome o;
  std::vector<char> buf(read_size);
  for (int guard = 0; guard < 1 << 22; ++guard) {
    std::size_t got = 0;
    const byte_source::result r = s.read(buf.data(), buf.size(), got);
    JVIEW_FUZZ_CHECK(got <= buf.size());
    o.bytes.append(buf.data(), got);
    JVIEW_FUZZ_CHECK(o.bytes.size() < (std::size_t{64} << 20), "decoded more than 64 MiB");
    if (r != byte_source::result::ok) {
      JVIEW_FUZZ_CHECK(got == 0);
      o.last = r;
      o.error = s.error_text();
      return o;
    }
    JVIEW_FUZZ_CHECK(got != 0, "an ok read gave nothing");
  }
  fuzz::fail("reads never ended");
}

std::string compress(int c, const std::string& in) {
  std::string out;
  if (c == 0) {  // gzip, ISA-L level 0 (no level buffer needed)
    out.resize(in.size() * 2 + 1024);
    isal_zstream z;
    isal_deflate_stateless_init(&z);
    z.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<std::uint32_t>(in.size());
    z.next_out = reinterpret_cast<std::uint8_t*>(out.data());
    z.avail_out = static_cast<std::uint32_t>(out.size());
    z.end_of_stream = 1;
    z.gzip_flag = IGZIP_GZIP;
    z.level = 0;
    JVIEW_FUZZ_CHECK(isal_deflate_stateless(&z) == COMP_OK);
    out.resize(z.total_out);
  } else if (c == 1) {
    out.resize(ZSTD_compressBound(in.size()));
    const std::size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 1);
    JVIEW_FUZZ_CHECK(!ZSTD_isError(n));
    out.resize(n);
  } else if (c == 2) {
    out.resize(lzma_stream_buffer_bound(in.size()));
    std::size_t pos = 0;
    JVIEW_FUZZ_CHECK(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, nullptr,
                                             reinterpret_cast<const std::uint8_t*>(in.data()), in.size(),
                                             reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()) == LZMA_OK);
    out.resize(pos);
  } else {
    unsigned n = static_cast<unsigned>(in.size() + in.size() / 100 + 700);
    out.resize(n);
    JVIEW_FUZZ_CHECK(BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(in.data()),
                                              static_cast<unsigned>(in.size()), 1, 0, 0) == BZ_OK);
    out.resize(n);
  }
  return out;
}

const char* const k_names[] = {"gzip", "zstd", "xz", "bzip2"};
const char* const k_magic[] = {"\x1f\x8b", "\x28\xb5\x2f\xfd", "\xfd\x37\x7a\x58\x5a", "BZh9"};
const std::size_t k_magic_len[] = {2, 4, 6, 4};

outcome through(const std::string& bytes, unsigned mode, const std::string& sizes) {
  const decompress_thread t = (mode & 8) ? decompress_thread::own : decompress_thread::none;
  std::unique_ptr<byte_source> s = (mode & 4) ? std::unique_ptr<byte_source>(new piece_stream(bytes, sizes))
                                              : memory_source(bytes, "fuzz");
  s = decompressing(std::move(s), t);
  return read_all(*s, 1 + (sizes.empty() ? 65536 : static_cast<unsigned char>(sizes[0]) * 613));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const unsigned mode = data[0];
  const int c = mode & 3;
  const std::string sizes(reinterpret_cast<const char*>(data + 1), std::min<std::size_t>(size - 1, 8));
  std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (!(mode & 0x80)) {
    std::string bytes = (mode & 0x10) ? rest : std::string(k_magic[c], k_magic_len[c]) + rest;
    const outcome o = through(bytes, mode, sizes);
    if (o.last == byte_source::result::error && !(mode & 0x10))
      JVIEW_FUZZ_CHECK(o.error.rfind(k_names[c], 0) == 0 || o.error == "out of memory", o.error);
    return 0;
  }
  std::string packed = compress(c, rest);
  if (mode & 0x10) packed += compress(c, rest);
  const std::string want = (mode & 0x10) ? rest + rest : rest;
  std::size_t cut = packed.size();
  if (mode & 0x20) cut = (static_cast<unsigned char>(data[size - 1]) * 7919u + size) % packed.size();
  const outcome o = through(packed.substr(0, cut), mode, sizes);
  if (cut == packed.size()) {
    JVIEW_FUZZ_CHECK(o.last == byte_source::result::end, o.error);
    JVIEW_FUZZ_CHECK(o.bytes == want, "round trip differs");
    return 0;
  }
  if (cut < k_magic_len[c]) return 0;  // not compressed any more: read as it is
  JVIEW_FUZZ_CHECK(want.compare(0, o.bytes.size(), o.bytes) == 0, "a cut stream gave other bytes");
  if (o.last == byte_source::result::end) {
    // Only a cut exactly between two members leaves a whole stream.
    JVIEW_FUZZ_CHECK((mode & 0x10) && o.bytes == rest, "a cut stream ended without an error");
  } else {
    JVIEW_FUZZ_CHECK(o.error == std::string(k_names[c]) + " data is truncated", o.error);
  }
  return 0;
}
