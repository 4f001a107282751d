// core/error.cpp: the message table of error_code.
#include "core/error.hpp"

namespace jview {

const char* error_message(error_code c) noexcept {
  static constexpr const char* k_messages[] = {
#define JVIEW_X(name, msg) msg,
      JVIEW_ERROR_CODES(JVIEW_X)
#undef JVIEW_X
  };
  return k_messages[static_cast<unsigned>(c)];
}

}  // namespace jview
