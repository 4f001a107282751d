// core/result_writer.hpp: a program's results as text, the way jq's output options lay them out: each value in the
// writer's format (or, with -r, a string's text), then a newline (nothing with -j, NUL with --raw-output0), RS before
// each value written as JSON with --seq. It also keeps what -e looks at (was there any output, was the last one
// false or null). Used by the sequential run and by every worker of a parallel one, so that both write the same
// bytes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/document.hpp"
#include "core/output.hpp"
#include "core/writer.hpp"

namespace jview {

namespace filter {
class value;
}

struct result_format {
  write_options write;      // layout, colour, numbers
  bool raw = false;         // -r (also implied by -j and --raw-output0): strings without quotes (with -a: quoted,
                            // in ASCII, as jq 1.8)
  bool join = false;        // -j: no newline after each output
  bool nul = false;         // --raw-output0: NUL after each output; a string holding NUL is an error
  bool seq = false;         // --seq: RS (0x1e) before each output
  bool unbuffered = false;  // --unbuffered: flush after each output
};

class result_writer {
 public:
  result_writer(output_buffer& out, const result_format& f);

  // A new input: --raw-output0's NUL error is per input.
  void start_input() noexcept { nul_met_ = false; }
  // One result of the program.
  void value(const filter::value& v);
  // One input written as it is (the identity program): from its view, nothing built.
  void document_value(const document& d);
  // --raw-output0 met a string holding NUL in this input: nothing more is written for it (jq 1.8: an error).
  bool nul_met() const noexcept { return nul_met_; }
  static constexpr std::string_view k_nul_error = "Cannot dump a string containing NUL with --raw-output0 option";

  bool any_output() const noexcept { return any_output_; }
  std::uint64_t outputs() const noexcept { return outputs_; }  // results written so far
  bool last_truthy() const noexcept { return last_truthy_; }
  // The `debug` builtin's line for its input, without the newline: `["DEBUG:",message]` compact, with the keys
  // sorted (-S), ASCII (-a) and colours (-C) of the output, as jq 1.8 writes it to stderr.
  std::string debug_line(const filter::value& message) const;
  output_buffer& out() noexcept { return out_; }

 private:
  void after_output();

  output_buffer& out_;
  result_format f_;
  writer w_;
  writer ascii_w_;  // -r -a: strings as ASCII JSON, as jq 1.8
  bool nul_met_ = false;
  bool any_output_ = false;
  std::uint64_t outputs_ = 0;
  bool last_truthy_ = true;
};

}  // namespace jview
