// core/decoders.hpp (internal): the four decompressors behind core/decompress_source.cpp, one small interface over
// ISA-L's igzip (gzip), libzstd, liblzma (xz) and libbz2, each looping over concatenated members, frames or streams
// (what `cat a.gz b.gz` and `zstd` / `xz` / `pbzip2` write). Which one an input needs is told by its first bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace jview::detail {

enum class codec { none, gzip, zstd, xz, bzip2 };
// "gzip", "zstd", "xz", "bzip2" (as the error messages name them).
const char* codec_name(codec c) noexcept;

// The codec whose magic bytes `p[0, n)` begin with (gzip 1f 8b, zstd 28 b5 2f fd, xz fd 37 7a 58 5a 00, bzip2
// "BZh" and a digit 1-9: no JSON text begins with any of them). `undecided`: the n bytes are a proper prefix of
// some magic, so more bytes decide (an input that ends there is not compressed).
enum class sniff_result { none, undecided, found };
sniff_result sniff(const unsigned char* p, std::size_t n, codec& found) noexcept;
// The longest magic: this many bytes always decide.
constexpr std::size_t k_longest_magic = 6;

class decoder {
 public:
  virtual ~decoder() = default;
  // ok: call again with more input (in == in_end: every byte given was consumed) or more room (out == out_end);
  // end: the input ended (`last`) right after a whole member / frame / stream; truncated: it ended inside one;
  // corrupt: the data is not valid (`in` is about where the decoder stopped); no_memory.
  enum class status { ok, end, truncated, corrupt, no_memory };
  // Decodes [in, in_end) into [out, out_end), advancing both. `last`: no input follows in_end.
  virtual status decode(const std::uint8_t*& in, const std::uint8_t* in_end, bool last, std::uint8_t*& out,
                        std::uint8_t* out_end) = 0;
};

// A decoder for `c` (not none), or nullptr when its state cannot be allocated.
std::unique_ptr<decoder> make_decoder(codec c);

}  // namespace jview::detail
