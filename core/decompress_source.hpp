// core/decompress_source.hpp: compressed input. A source whose first bytes are the magic of gzip, zstd, xz or bzip2
// (core/decoders.hpp) is read decompressed: a byte source over another one, decoding on its own thread into a few
// 1 MiB blocks that its reads copy out, so that decompressing and parsing overlap. Concatenated members / frames /
// streams are read one after another. A truncated or corrupt stream is a read error of the input after every byte
// decoded before it ("gzip data is truncated", "gzip data is corrupt at byte N": N counts compressed bytes from the
// input's start), so the values before it are processed and a parse error's line and column are those of the
// decompressed text. Any other source is returned as it was (a stream, whose first bytes had to be read to look at
// them, with those bytes put back in front).
#pragma once
#include <memory>

#include "core/byte_source.hpp"

namespace jview {

enum class decompress_thread { own, none };  // none: decode inside read() (tests, fuzzing)

std::unique_ptr<byte_source> decompressing(std::unique_ptr<byte_source> source,
                                           decompress_thread thread = decompress_thread::own);

}  // namespace jview
