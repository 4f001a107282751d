// cli/run.cpp: the default mode: read values from the files (or stdin) through core's input stream, run the filter
// on each, write the results. The identity filter writes each input straight from its view.
#include <fmt/core.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <csignal>

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
#include "core/parallel_run.hpp"
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

// Whether threads pay for these inputs: not when they are all regular files of less than two pieces in all, and
// not by default under an address-space limit (ulimit -v: each thread reserves stacks and arenas of its own).
bool worth_threads(const options& o, std::size_t chunk) {
  if (o.threads <= 0 && std::getenv("JVIEW_THREADS") == nullptr) {
    rlimit rl{};
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) return false;
  }
  if (o.files.empty()) {
    struct stat st;
    return !(fstat(0, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) < 2 * chunk);
  }
  std::uint64_t total = 0;
  for (const std::string& f : o.files) {
    struct stat st;
    if (stat(f.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return true;
    total += static_cast<std::uint64_t>(st.st_size);
  }
  return total >= 2 * chunk;
}

// A parallel run's messages (core/parallel_run.hpp), worded as stderr_messages and input_reporter word them.
class parallel_messages final : public parallel_reporter {
 public:
  parallel_messages(input_reporter& rep, const fd_sink& sink) : rep_(rep), sink_(sink) {}
  void debug(std::string_view line) override { eprint("{}\n", line); }
  void stderr_text(std::string_view text) override { write_stderr(text); }
  void halt_text(std::string_view text) override { write_stderr(text); }
  void runtime_error(std::string_view where, std::string_view message, bool not_string) override {
    eprint("jview: error (at {}){}: {}\n", where, not_string ? " (not a string)" : "", message);
  }
  void open_failed(const std::string& file, const std::string& why) override { rep_.open_failed(file, why); }
  void read_failed(const std::string& file, const std::string& why) override { rep_.read_failed(file, why); }
  void parse_failed(const std::string& where_and_what, const source_location& loc) override {
    rep_.parse_failed(where_and_what, loc);
  }
  bool stopped() override { return sink_.broken_pipe || !sink_.error.empty(); }

 private:
  input_reporter& rep_;
  const fd_sink& sink_;
};

// The CPUs this process may use: its affinity mask, less when a cgroup (v2) quota allows fewer.
unsigned usable_cpus() {
  unsigned n = 1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = std::max(1, CPU_COUNT(&set));
  if (std::FILE* f = std::fopen("/sys/fs/cgroup/cpu.max", "r")) {
    char quota[32] = {};
    unsigned long period = 0;
    if (std::fscanf(f, "%31s %lu", quota, &period) == 2 && std::strcmp(quota, "max") != 0 && period > 0) {
      const unsigned long q = std::strtoul(quota, nullptr, 10);
      n = std::min<unsigned>(n, static_cast<unsigned>(std::max<unsigned long>(1, (q + period - 1) / period)));
    }
    std::fclose(f);
  }
  return n;
}

// Workers of a parallel run: --threads, else JVIEW_THREADS, else the usable CPUs, at most 8 (past that, the
// writer and the producer are the limit on the machines we measure). 1: one thread, today's path.
unsigned thread_count(const options& o) {
  if (o.threads > 0) return static_cast<unsigned>(o.threads);
  if (const char* e = std::getenv("JVIEW_THREADS"); e != nullptr && *e != '\0') {
    const long n = std::strtol(e, nullptr, 10);
    if (n >= 1) return static_cast<unsigned>(std::min<long>(n, 1024));
  }
  return std::min(usable_cpus(), 8u);
}

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

// The reader closed the pipe: the run stopped at once, quietly, and ends as jq 1.8's does (SIGPIPE is ignored
// while jview runs, so that the write fails instead of killing the process before its messages; jq dies of
// SIGPIPE): `set -o pipefail` scripts see the same status, 141 in a shell.
[[noreturn]] void die_of_broken_pipe() {
  std::fflush(nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  ::raise(SIGPIPE);
  ::_exit(128 + SIGPIPE);  // (not reached)
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
  if (!e.suggestion.empty()) msg += "did you mean " + e.suggestion + "?\n";  // jview's line after jq's text
  for (const filter::compile_error& m : e.more) msg += format_compile_error(m, false);  // jq's further messages
  if (last) msg += e.more.empty() ? "jview: 1 compile error\n" : fmt::format("jview: {} compile errors\n", e.more.size() + 1);
  return msg;
}

}  // namespace

namespace {

// The program's text and compile options (files of --rawfile, --slurpfile and -f read once); false (reported, status
// set) when a file cannot be read.
struct program_text {
  filter::compile_options copts;
  std::string source;
};

bool prepare_program(const options& o, program_text& pt, int& status) {
  filter::compile_options& copts = pt.copts;
  for (const options::positional_arg& a : o.positional_args) copts.positional_args.push_back({a.text, a.json});
  copts.library_paths = o.library_paths;
  // get_prog_origin and get_jq_origin as jq 1.8 finds them: the real path of the -f file's directory (else of the
  // current directory) and the directory of the running executable.
  auto real = [](const std::string& path) {
    char* r = ::realpath(path.c_str(), nullptr);
    std::string out = r != nullptr ? std::string(r) : std::string();
    std::free(r);
    return out;
  };
  if (!o.from_file.empty()) {
    const std::size_t slash = o.from_file.rfind('/');
    copts.program_origin = real(slash == std::string::npos ? std::string(".") : o.from_file.substr(0, slash + (slash == 0)));
  } else {
    copts.program_origin = real(".");
  }
  if (std::string exe = real("/proc/self/exe"); !exe.empty()) copts.jq_origin = exe.substr(0, std::max<std::size_t>(exe.rfind('/'), 1));
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) copts.environment.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  status = exit_usage;
  // In command-line order; a name given before is skipped, its file not read (jq 1.8 keeps the first).
  std::vector<std::string_view> seen;
  for (const options::named_arg& a : o.named_args) {
    if (std::find(seen.begin(), seen.end(), std::string_view(a.name)) != seen.end()) continue;
    seen.push_back(a.name);
    using k = options::named_arg::kind;
    std::string text;
    if (a.k == k::rawfile) {
      if (!read_file_text(a.value, text, a.name)) return false;
    } else if (a.k == k::slurpfile) {
      if (!slurp_file_json(a.name, a.value, o.parse, text)) return false;
    } else {
      text = a.value;
    }
    copts.named_args.push_back({a.name, std::move(text), a.k == k::json || a.k == k::slurpfile});
  }
  pt.source = o.filter;
  if (!o.from_file.empty()) {
    pt.source.clear();
    if (!read_file_text(o.from_file, pt.source)) return false;
  }
  status = exit_ok;
  return true;
}

std::unique_ptr<filter::program> compile_text(const program_text& pt, int& status) {
  status = exit_usage;
  std::unique_ptr<filter::program> prog;
  try {
    prog = filter::program::compile(pt.source, pt.copts);
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

}  // namespace

std::unique_ptr<filter::program> compile_program(const options& o, int& status) {
  program_text pt;
  if (!prepare_program(o, pt, status)) return nullptr;
  return compile_text(pt, status);
}

// The exit status after halt / halt_error: its code; with -e, jq 1.8's exit(abs(code)) (INT_MIN, its NaN, stays
// negative: status 0), and -4, its "no output" code, exits as -e says for the inputs before the halting one
// (`last_result`: 1 the last that ended well with outputs had a truthy last output, 0 not, -1 none).
int halt_status(const options& o, int code, int raw, int last_result) {
  if (!o.exit_status) return code;
  if (raw == -4) return last_result < 0 ? exit_no_output : last_result == 0 ? exit_false : exit_ok;
  if (raw < 0) return raw == INT_MIN ? 0 : -raw;
  return code;
}

int run_jq(const options& o) {
  // Compile first: a compile error must not consume input.
  int compiled = exit_ok;
  program_text text;
  if (!prepare_program(o, text, compiled)) return compiled;
  std::unique_ptr<filter::program> prog = compile_text(text, compiled);
  if (!prog) return compiled;

  fd_sink sink;
  output_buffer out(&fd_sink::write, &sink);
  const output_guard guard(out, sink);  // out of memory or SIGBUS: the whole values buffered are still written
  write_options wo = o.write;
  const char* no_color = std::getenv("NO_COLOR");  // set and not empty (the convention, and jq 1.8)
  wo.color = o.color == 1 || (o.color == -1 && isatty(1) && (no_color == nullptr || *no_color == '\0'));
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
  io.slurp = o.null_input && o.slurp;
  io.lenient = o.lenient && !o.stream;
  progress_meter meter(o, o.files, progress_unit::bytes);  // (stopped before the end: end_process exits)
  io.progress = {progress_read_counter(), &progress_bytes, &progress_file_done};
  input_reporter reporter(out);
  const bool io_lenient = io.lenient;
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
  bool halted = false;  // halt/halt_error: their code is the status (with -e, jq 1.8's rule for it below)
  int last_result = -1;  // jq's: the last input that ended well with outputs: 1 its last one was truthy, else 0
  // jq's status is that of the last input: an error in an earlier one does not count. False: stop (halt, or the
  // output is gone).
  auto run_one = [&](const filter::value& input) -> bool {
    inputs.set_in_program(true);
    const std::uint64_t before = results.outputs();
    const program_runner::outcome r = runner.run(input, &inputs);
    inputs.set_in_program(false);
    if (r == program_runner::outcome::halted) {
      status = halt_status(o, runner.halt_code(), runner.halt_code_raw(), last_result);
      halted = true;
      return false;
    }
    status = r == program_runner::outcome::error ? exit_runtime : exit_ok;
    if (r == program_runner::outcome::ok && results.outputs() > before) last_result = results.last_truthy() ? 1 : 0;
    return !sink.broken_pipe && sink.error.empty();
  };

  const bool direct = prog->is_identity() && !o.slurp && !o.raw_input && !o.null_input && !o.stream && !io_lenient;
  // Several threads for a stream of values, when the program sees only its own input (decided here, once).
  const unsigned threads = thread_count(o);
  parallel_options po;
  // Tests only: tiny pieces, so that values cross every kind of boundary.
  if (const char* e = std::getenv("JVIEW_CHUNK_SIZE"); e != nullptr && std::strtoul(e, nullptr, 10) > 0)
    po.chunk_size = std::strtoul(e, nullptr, 10);
  bool parallel = threads > 1 && !o.null_input && !o.slurp && !o.raw_input && !o.stream && !o.stream_errors &&
                  !o.seq && !o.parse.single_value && !o.unbuffered && !io_lenient && !prog->reads_inputs() && !meter.running() &&
                  worth_threads(o, po.chunk_size);
  bool any_output = false, last_truthy = true;
  if (parallel) {
    po.files = o.files;
    po.parse = o.parse;
    po.format = rf;
    po.threads = threads;
    parallel_messages pm(reporter, sink);
    const parallel_outcome r = run_parallel(
        po,
        [&]() -> std::unique_ptr<filter::program> {
          int st = exit_ok;
          return compile_text(text, st);
        },
        out, pm);
    parallel = r.started;  // else: no threads to be had, nothing read yet
    halted = r.halted;
    status = r.halted ? halt_status(o, r.halt_code, r.halt_code_raw, r.last_result)
                      : r.ran && r.last_failed ? exit_runtime : exit_ok;
    any_output = r.any_output;
    last_truthy = r.last_truthy;
  }
  if (parallel) {
  } else if (o.null_input) {
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
  if (sink.broken_pipe) die_of_broken_pipe();
  status = std::max(status, reporter.status);
  if (!parallel) {
    any_output = results.any_output();
    last_truthy = results.last_truthy();
  }
  if (status == exit_ok && o.exit_status && !halted) {
    if (!any_output) return end_process(exit_no_output);
    if (!last_truthy) return end_process(exit_false);
  }
  return end_process(status);
}

}  // namespace jview::cli
