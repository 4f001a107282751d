// core/in_place.cpp: see in_place.hpp.
#include "core/in_place.hpp"

#include <errno.h>

#include <cstring>
#include <memory>
#include <utility>

#include "core/diagnostics.hpp"
#include "core/fd_sink.hpp"
#include "core/file_replace.hpp"
#include "core/filter/value.hpp"
#include "core/output.hpp"
#include "core/result_writer.hpp"
#include "core/text_format.hpp"
#include "core/value_reader.hpp"
#include "core/writer.hpp"

namespace jview {
namespace {

// A document and the bytes it points into, shared by every value that views it.
struct file_doc {
  document doc;
  std::shared_ptr<source_bytes> keep;
};

// One file's inputs: the main loop and the program's `input` / `inputs` read the same file, and nothing else.
class file_inputs final : public filter::input_provider {
 public:
  file_inputs(value_reader& r, const in_place_options& o, const std::string& name) : r_(r), o_(o), name_(name) {}

  bool next(filter::value& out) override {
    if (done_) return false;
    if (o_.raw_input) {
      std::string line;
      bool nl = false;
      if (!r_.read_line(line, nl)) return end();
      out = filter::value::string(std::move(line));
      return true;
    }
    auto h = std::make_shared<file_doc>();  // a document per value: a kept one (-s, `input`) keeps its bytes
    switch (r_.next(h->doc)) {
      case value_reader::status::value:
        h->keep = r_.source_keepalive();
        out = filter::value::view(std::shared_ptr<const document>(h, &h->doc), 0);
        if (o_.progress.consumed != nullptr) o_.progress.consumed(r_.bytes_consumed());
        return true;
      case value_reader::status::end:
        return end();
      case value_reader::status::error:
        break;
    }
    done_ = true;
    failed_ = true;
    if (r_.error().code == error_code::io_error) {
      io_failed_ = true;
    } else {
      loc_ = r_.location();
      line_ = format_location_line(name_, loc_, error_message(r_.error().code));
      if (in_program_) pending_ = line_;  // an error of the program, which `try` can catch (jq 1.8)
    }
    return false;
  }
  std::string current_filename() const override { return name_; }
  std::uint64_t current_line() const override { return o_.raw_input ? r_.current_line() - 1 : r_.lines_read(); }
  std::string take_error() override { return std::exchange(pending_, std::string()); }

  void set_in_program(bool on) noexcept { in_program_ = on; }
  std::string where() const { return format_text("{}:{}", name_, current_line()); }
  // The file did not read to its end: a parse or read error.
  bool failed() const noexcept { return failed_; }
  bool io_failed() const noexcept { return io_failed_; }
  void report(run_reporter& rep) const {
    if (io_failed_)
      rep.file_failed(name_, r_.io_error());
    else
      rep.parse_failed(line_, loc_);
  }

 private:
  bool end() {
    done_ = true;
    return false;
  }
  value_reader& r_;
  const in_place_options& o_;
  const std::string& name_;
  bool done_ = false, in_program_ = false, failed_ = false, io_failed_ = false;
  std::string line_, pending_;
  source_location loc_;
};

using outcome = rewrite_result::outcome;

rewrite_result given_up(outcome s) {
  rewrite_result r;
  r.status = s;
  r.left_unchanged = true;
  return r;
}

// rewrite_in_place; `size` is set to the file's size once known (for the progress line).
rewrite_result rewrite(filter::program& prog, const std::string& file, const in_place_options& o, run_reporter& rep,
                       std::uint64_t& size) {
  std::string target;  // the link's target, so that the link stays a link
  struct stat st {};
  if (!resolve_file(file, target, st)) {
    rep.open_failed(file, std::strerror(errno));
    return {outcome::unusable};
  }
  if (!S_ISREG(st.st_mode)) {
    rep.file_failed(file, "not a regular file (-i rewrites regular files only)");
    return {outcome::unusable};
  }
  size = static_cast<std::uint64_t>(st.st_size);
  parse_options popts = o.parse;
  popts.decompress = false;
  value_reader reader(popts);
  reader.set_read_counter(o.progress.read_counter);
  std::string why;
  if (!reader.open(target, why)) {
    rep.open_failed(file, why);
    return {outcome::unusable};
  }
  replacement_file tmp;
  if (!tmp.create(target)) {
    rep.file_failed(file, format_text("cannot create a temporary file in {}: {}", tmp.dir(), std::strerror(errno)));
    return given_up(outcome::unusable);
  }

  fd_sink sink;
  sink.fd = tmp.fd();
  output_buffer out(&fd_sink::write, &sink);
  result_format f = o.format;  // the output as the filter mode lays it out (result_writer), without colour
  f.write.color = false;
  result_writer results(out, f);
  file_inputs inputs(reader, o, file);
  filter::run_callbacks cb;
  cb.emit = [&](const filter::value& v) { results.value(v); };
  cb.debug = [&](const filter::value& v) { rep.debug(results.debug_line(v)); };
  cb.stderr_out = [&](std::string_view text) { rep.stderr_text(text); };

  bool failed = false;
  int halted = -1;  // halt / halt_error: the run ends with this status
  auto run_one = [&](const filter::value& input) {
    std::string error;
    int halt = -1;
    inputs.set_in_program(true);
    bool ok = prog.run(input, &inputs, cb, error, halt);
    inputs.set_in_program(false);
    const bool nul_in_raw0 = results.nul_met();
    if (nul_in_raw0 && halt < 0) {
      ok = false;
      error = result_writer::k_nul_error;
    }
    if (halt >= 0) {
      if (!ok) rep.halt_text(error);  // halt_error: its text as jq writes it
      halted = halt;
      failed = true;
      return false;
    }
    if (!ok) {
      rep.runtime_error(inputs.where(), error, !nul_in_raw0 && prog.last_error_not_string());
      failed = true;
      return false;  // the file is left as it was: no point in running on its other values
    }
    return true;
  };

  if (o.raw_input && o.slurp) {
    std::string all;
    if (!reader.read_all(all)) {
      rep.file_failed(file, reader.io_error());
      return given_up(outcome::unusable);
    }
    run_one(filter::value::string(std::move(all)));
  } else if (o.slurp) {
    std::vector<filter::value> all;
    filter::value v;
    while (inputs.next(v)) all.push_back(std::move(v));
    if (!inputs.failed()) run_one(filter::value::array(std::move(all)));
  } else {
    filter::value v;
    while (inputs.next(v)) {
      if (!run_one(v)) break;
      v = filter::value();
    }
  }
  if (o.progress.consumed != nullptr) o.progress.consumed(reader.bytes_consumed());
  if (halted >= 0) {
    rewrite_result r = given_up(outcome::halted);
    r.halt_code = halted;
    return r;
  }
  if (inputs.failed()) {
    // A parse error the program did not see, or saw through `input` and caught: the file is not what it should be.
    if (!failed || inputs.io_failed()) inputs.report(rep);
    return given_up(inputs.io_failed() ? outcome::unusable : outcome::failed);
  }
  if (failed) return given_up(outcome::failed);
  const std::uint64_t outputs = results.outputs();
  if (outputs != 1) {
    rep.file_failed(file, format_text("the program wrote {} values for it; -i writes exactly one",
                                      outputs == 0 ? std::string("no") : std::to_string(outputs)));
    return given_up(outcome::failed);
  }
  out.flush();
  if (!sink.error.empty()) {
    rep.file_failed(file, format_text("writing {}: {}", tmp.dir(), sink.error));
    return given_up(outcome::unusable);
  }
  const std::string err = tmp.commit(target, st);
  if (!err.empty()) {
    rep.file_failed(file, err);
    return given_up(outcome::unusable);
  }
  return {outcome::rewritten};
}

}  // namespace

rewrite_result rewrite_in_place(filter::program& prog, const std::string& file, const in_place_options& o,
                                run_reporter& rep) {
  std::uint64_t size = 0;
  const rewrite_result r = rewrite(prog, file, o, rep, size);
  if (o.progress.input_done != nullptr) o.progress.input_done(size);
  return r;
}

}  // namespace jview
