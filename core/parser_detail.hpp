// core/parser_detail.hpp: what the one-pass parser (core/parser.cpp) and the two-stage walk
// (core/parser_two_stage.cpp) share. Internal to those two files.
#pragma once
#include <cstdint>

#include "core/document.hpp"
#include "core/json_lexer.hpp"

namespace jview::parse_detail {

// The lexical rules both use (core/json_lexer.hpp: also the --stream producer's).
using lexer::canonical_escape;
using lexer::is_digit;

// Closing an object that the key table flagged as a candidate (parser::note_key): the exact test, now that its
// members are all there. Clears the flag when no key repeats; true when one does.
bool confirm_duplicate_keys(document& doc, const char* base, node* nodes, std::uint32_t n, std::uint32_t cur,
                            std::uint32_t count);

}  // namespace jview::parse_detail
