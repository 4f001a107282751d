// cli/run.cpp: the default mode: read values from the files (or stdin) through core's input stream, run the filter
// on each, write the results. The identity filter writes each input straight from its view.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "cli/exit_code.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/diagnostics.hpp"
#include "core/input_stream.hpp"
#include "core/program_runner.hpp"
#include "core/result_writer.hpp"
#include "core/value_reader.hpp"
#include "core/output.hpp"
#include "core/sanitizer.hpp"
#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

extern char** environ;

namespace jview::cli {
namespace {

// The CLI's side of the input stream: messages to stderr, and the exit status they imply.
class input_reporter final : public input_stream::reporter {
 public:
  explicit input_reporter(output_buffer& out) : out_(out) {}
  void flush() override { out_.flush(); }
  void open_failed(const std::string& file, const std::string& why) override {
    eprint("jview: error: Could not open file {}: {}\n", file, why);
    status = std::max(status, static_cast<int>(exit_usage));
  }
  void read_failed(const std::string& file, const std::string& why) override {
    eprint("jview: error: {}: {}\n", file, why);
    status = std::max(status, static_cast<int>(exit_usage));
  }
  void parse_failed(const std::string& where_and_what, const source_location& loc) override {
    write_stderr("jview: error: " + where_and_what + "\n" + format_excerpt(loc));
    status = std::max(status, static_cast<int>(exit_runtime));
  }
  void parse_ignored(const std::string& what) override {  // jq 1.8's --seq warning; the exit status stays
    write_stderr("jview: ignoring parse error: " + what + "\n");
  }
  int status = exit_ok;

 private:
  output_buffer& out_;
};

// Messages of the program's runs, to stderr at once (after the results before them), as jq words them.
class stderr_messages final : public run_messages {
 public:
  stderr_messages(output_buffer& out, const input_stream& inputs) : out_(out), inputs_(inputs) {}
  void debug(std::string_view line) override {
    out_.flush();
    eprint("{}\n", line);  // the builtin's whole line: ["DEBUG:",<value>]
  }
  void stderr_text(std::string_view text) override {
    out_.flush();
    write_stderr(text);
  }
  void runtime_error(std::string_view message, bool not_string) override {
    out_.flush();
    eprint("jview: error (at {}){}: {}\n", inputs_.where(), not_string ? " (not a string)" : "", message);
  }
  void halt_text(std::string_view text) override {
    out_.flush();
    write_stderr(text);
  }

 private:
  output_buffer& out_;
  const input_stream& inputs_;
};

// The start of jq's report of a --rawfile / --slurpfile that cannot be used ("Bad JSON" even for --rawfile).
std::string bad_file_arg(const char* option, const std::string& name, const std::string& path) {
  return fmt::format("jview: Bad JSON in --{} {} {}: ", option, name, path);
}

// The end of a successful run: what is buffered is flushed and the process exits here, instead of returning
// through the destructors of the last input's buffer, document and arenas. Unmapping those one at a time cost 0.1-0.25
// ms of a 3 ms run on the VMs we measure (each munmap flushes the TLB of the other CPU too); the exit frees the whole
// address space at once. A sanitizer build returns, so that LeakSanitizer still sees everything freed.
int end_process(int status) {
#if JVIEW_ASAN
  return status;
#else
  std::fflush(nullptr);
  ::_exit(status);
#endif
}

// Reads a whole file for --rawfile (option "rawfile", variable `name`) or -f (name empty); false (reported) when
// it cannot be read.
bool read_file_text(const std::string& path, std::string& out, const std::string& name = {}) {
  value_reader r(parse_options{});
  std::string why;
  if (!r.open(path, why) || !r.read_all(out)) {
    if (why.empty()) why = r.io_error();
    if (name.empty())
      eprint("jview: error: Could not open file {}: {}\n", path, why);
    else
      eprint("{}Could not open {}: {}\n", bad_file_arg("rawfile", name, path), path, why);
    return false;
  }
  return true;
}

// --slurpfile: the file's values as the JSON text of one array; false (reported) on an error.
bool slurp_file_json(const std::string& name, const std::string& path, const parse_options& popts,
                     std::string& json) {
  value_reader r(popts);
  std::string why;
  if (!r.open(path, why)) {
    eprint("{}Could not open {}: {}\n", bad_file_arg("slurpfile", name, path), path, why);
    return false;
  }
  output_buffer buf(&output_buffer::to_string, &json);
  write_options compact;
  compact.pretty = false;
  writer w(buf, compact);
  document doc;
  buf.put('[');
  bool first = true;
  value_reader::status s;
  while ((s = r.next(doc)) == value_reader::status::value) {
    if (!first) buf.put(',');
    first = false;
    w.value(doc, 0);
  }
  buf.put(']');
  buf.flush();
  if (s == value_reader::status::error) {
    source_location loc = r.location();
    eprint("{}{}\n", bad_file_arg("slurpfile", name, path),
           format_location_line(path, loc, error_message(r.error().code)));
    return false;
  }
  return true;
}

// jq 1.8's report of a compile error: the message, then where it is ("at <top-level>, line L, column C:" or the
// module's path), the line and carets under the offending token (columns count bytes, as jq's do).
std::string format_compile_error(const filter::compile_error& e, bool last = true) {
  std::string msg = "jview: error: " + e.message;
  if (e.length > 0 && e.line > 0) {
    msg += fmt::format(" at {}, line {}, column {}:\n    {}\n    ", e.file.empty() ? "<top-level>" : e.file, e.line,
                       e.column, e.source_line);
    msg.append(static_cast<std::size_t>(std::max(e.column - 1, 0)), ' ');
    msg.append(static_cast<std::size_t>(e.length), '^');
  } else if (e.message.rfind("module not found", 0) == 0 || e.message.rfind("Relative paths to modules", 0) == 0 ||
             e.message.rfind("Modules must be named", 0) == 0 || e.message.rfind("module names must not", 0) == 0) {
    msg += "\n";  // jq's messages for a missing or misnamed module end in a newline of their own
  }
  msg += "\n";
  for (const filter::compile_error& m : e.more) msg += format_compile_error(m, false);  // jq's further messages
  if (last) msg += e.more.empty() ? "jview: 1 compile error\n" : fmt::format("jview: {} compile errors\n", e.more.size() + 1);
  return msg;
}

}  // namespace

std::unique_ptr<filter::program> compile_program(const options& o, int& status) {
  filter::compile_options copts;
  copts.string_args = o.string_args;
  copts.json_args = o.json_args;
  copts.positional_strings = o.positional_strings;
  copts.positional_json = o.positional_json;
  copts.library_paths = o.library_paths;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) copts.environment.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  status = exit_usage;
  for (const auto& [name, path] : o.raw_files) {
    std::string text;
    if (!read_file_text(path, text, name)) return nullptr;
    copts.string_args.emplace_back(name, std::move(text));
  }
  for (const auto& [name, path] : o.slurp_files) {
    std::string json;
    if (!slurp_file_json(name, path, o.parse, json)) return nullptr;
    copts.json_args.emplace_back(name, std::move(json));
  }
  std::string source = o.filter;
  if (!o.from_file.empty()) {
    source.clear();
    if (!read_file_text(o.from_file, source)) return nullptr;
  }
  std::unique_ptr<filter::program> prog;
  try {
    prog = filter::program::compile(source, copts);
  } catch (const filter::compile_error& e) {
    // A bad --argjson / --jsonargs text is a usage error for jq (exit 2), found before the program is compiled.
    if (!e.bad_json_option.empty()) {
      eprint("jview: invalid JSON text passed to --{}\nUse jview --help for help with command-line options.\n",
             e.bad_json_option);
      return nullptr;
    }
    write_stderr(format_compile_error(e));
    status = exit_compile;
    return nullptr;
  }
  status = exit_ok;
  return prog;
}

int run_jq(const options& o) {
  // Compile first: a compile error must not consume input.
  int compiled = exit_ok;
  const std::unique_ptr<filter::program> prog = compile_program(o, compiled);
  if (!prog) return compiled;

  fd_sink sink;
  output_buffer out(&fd_sink::write, &sink);
  const output_guard guard(out, sink);  // out of memory or SIGBUS: the whole values buffered are still written
  write_options wo = o.write;
  wo.color = o.color == 1 || (o.color == -1 && isatty(1) && std::getenv("NO_COLOR") == nullptr);
  if (wo.color) {
    if (const char* jc = std::getenv("JQ_COLORS"); jc != nullptr && !wo.colors.apply(jc))
      eprint("Failed to set $JQ_COLORS\n");
  }
  input_options io;
  io.files = o.files;
  io.parse = o.parse;
  io.raw = o.raw_input;
  io.stream = o.stream;
  io.stream_errors = o.stream_errors;
  io.record_separators = o.seq;
  progress_meter meter(o, o.files, progress_unit::bytes);  // (stopped before the end: end_process exits)
  io.progress = {progress_read_counter(), &progress_bytes, &progress_file_done};
  input_reporter reporter(out);
  input_stream inputs(std::move(io), reporter);

  result_format rf;
  rf.write = wo;
  rf.raw = o.raw_output;
  rf.join = o.join_output;
  rf.nul = o.raw_output0;
  rf.seq = o.seq;
  rf.unbuffered = o.unbuffered;
  result_writer results(out, rf);
  stderr_messages messages(out, inputs);
  program_runner runner(*prog, results, messages);
  int status = exit_ok;
  bool halted = false;  // halt/halt_error: their code is the status, -e does not apply (jq 1.8)
  // jq's status is that of the last input: an error in an earlier one does not count. False: stop (halt, or the
  // output is gone).
  auto run_one = [&](const filter::value& input) -> bool {
    inputs.set_in_program(true);
    const program_runner::outcome r = runner.run(input, &inputs);
    inputs.set_in_program(false);
    if (r == program_runner::outcome::halted) {
      status = runner.halt_code();
      halted = true;
      return false;
    }
    status = r == program_runner::outcome::error ? exit_runtime : exit_ok;
    return !sink.broken_pipe && sink.error.empty();
  };

  const bool direct = prog->is_identity() && !o.slurp && !o.raw_input && !o.null_input && !o.stream;
  if (o.null_input) {
    run_one(filter::value());
  } else if (o.slurp) {
    if (o.raw_input) {
      run_one(filter::value::string(inputs.read_everything()));
    } else {
      std::vector<filter::value> all;
      filter::value v;
      while (inputs.next(v)) all.push_back(std::move(v));
      if (reporter.status != exit_runtime) run_one(filter::value::array(std::move(all)));  // jq: not after a parse error
    }
  } else if (direct) {
    // `.`: each input is written from its view, nothing is built.
    while (std::shared_ptr<doc_holder> h = inputs.next_doc()) {
      results.start_input();
      results.document_value(h->doc);
      status = exit_ok;
      if (results.nul_met()) {
        messages.runtime_error(result_writer::k_nul_error, false);
        status = exit_runtime;
      }
      if (sink.broken_pipe || !sink.error.empty()) break;
    }
  } else {
    filter::value v;
    while (inputs.next(v)) {
      if (!run_one(v)) break;
      v = filter::value();
    }
  }
  meter.stop();
  out.flush();
  if (!sink.error.empty()) {
    eprint("jview: error: writing output: {}\n", sink.error);
    return exit_usage;
  }
  if (sink.broken_pipe) return exit_ok;
  status = std::max(status, reporter.status);
  if (status == exit_ok && o.exit_status && !halted) {
    if (!results.any_output()) return end_process(exit_no_output);
    if (!results.last_truthy()) return end_process(exit_false);
  }
  return end_process(status);
}

}  // namespace jview::cli
