// core/inputs_runner.cpp: see inputs_runner.hpp.
#include "core/inputs_runner.hpp"

#include <sched.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/filter/value.hpp"
#include "core/parallel_run.hpp"
#include "core/program_runner.hpp"

namespace jview {

namespace {

// The input stream's reports (each after the output so far is flushed, as the stream asks), to the run's reporter.
class input_reports final : public input_stream::reporter {
 public:
  input_reports(output_buffer& out, run_reporter& rep) : out_(out), rep_(rep) {}
  void flush() override { out_.flush(); }
  void open_failed(const std::string& file, const std::string& why) override { rep_.open_failed(file, why); }
  void read_failed(const std::string& file, const std::string& why) override { rep_.file_failed(file, why); }
  void parse_failed(const std::string& where_and_what, const source_location& loc) override {
    parse_failed_ = true;
    rep_.parse_failed(where_and_what, loc);
  }
  void parse_ignored(const std::string& what) override { rep_.parse_ignored(what); }
  bool any_parse_failed() const noexcept { return parse_failed_; }

 private:
  output_buffer& out_;
  run_reporter& rep_;
  bool parse_failed_ = false;
};

// The program's messages, after the results before them, with where the input is.
class program_reports final : public run_messages {
 public:
  program_reports(output_buffer& out, run_reporter& rep, const input_stream& inputs)
      : out_(out), rep_(rep), inputs_(inputs) {}
  void debug(std::string_view line) override {
    out_.flush();
    rep_.debug(line);
  }
  void stderr_text(std::string_view text) override {
    out_.flush();
    rep_.stderr_text(text);
  }
  void runtime_error(std::string_view message, bool not_string) override {
    out_.flush();
    rep_.runtime_error(inputs_.where(), message, not_string);
  }
  void halt_text(std::string_view text) override {
    out_.flush();
    rep_.halt_text(text);
  }

 private:
  output_buffer& out_;
  run_reporter& rep_;
  const input_stream& inputs_;
};

// A parallel run's messages (it flushes the output before each itself).
class parallel_reports final : public parallel_reporter {
 public:
  explicit parallel_reports(run_reporter& rep) : rep_(rep) {}
  void debug(std::string_view line) override { rep_.debug(line); }
  void stderr_text(std::string_view text) override { rep_.stderr_text(text); }
  void halt_text(std::string_view text) override { rep_.halt_text(text); }
  void runtime_error(std::string_view where, std::string_view message, bool not_string) override {
    rep_.runtime_error(where, message, not_string);
  }
  void open_failed(const std::string& file, const std::string& why) override { rep_.open_failed(file, why); }
  void read_failed(const std::string& file, const std::string& why) override { rep_.file_failed(file, why); }
  void parse_failed(const std::string& where_and_what, const source_location& loc) override {
    rep_.parse_failed(where_and_what, loc);
  }
  bool stopped() override { return rep_.stopped(); }

 private:
  run_reporter& rep_;
};

// Whether threads pay for these inputs: not when they are all regular files of less than two pieces in all.
bool worth_threads(const std::vector<std::string>& files, std::size_t chunk) {
  if (files.empty()) {
    struct stat st;
    return !(fstat(0, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) < 2 * chunk);
  }
  std::uint64_t total = 0;
  for (const std::string& f : files) {
    struct stat st;
    if (stat(f.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return true;
    total += static_cast<std::uint64_t>(st.st_size);
  }
  return total >= 2 * chunk;
}

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

}  // namespace

unsigned default_thread_count() { return std::min(usable_cpus(), 8u); }

// The sequential run's pieces, alive as long as the runner.
struct inputs_runner::sequential {
  sequential(filter::program& prog, const run_options& o, output_buffer& out, run_reporter& rep)
      : input_side(out, rep),
        inputs(o.input, input_side),
        results(out, o.format),
        program_side(out, rep, inputs),
        runner(prog, results, program_side) {}
  input_reports input_side;
  input_stream inputs;
  result_writer results;
  program_reports program_side;
  program_runner runner;
};

inputs_runner::inputs_runner(filter::program& prog, program_copies copies, run_options o, output_buffer& out,
                             run_reporter& rep)
    : prog_(prog), copies_(std::move(copies)), o_(std::move(o)), out_(out), rep_(rep) {
  o_.input.slurp = o_.null_input && o_.slurp;  // -n -s: `input` reads the array of all inputs, as jq 1.8
  o_.input.lenient = o_.input.lenient && !o_.input.stream;  // --lenient reads values whole: not with --stream
}

inputs_runner::~inputs_runner() = default;

// Several threads for a stream of values, when the program sees only its own input and nothing asks for one
// thread's order of reading (-n, -s, -R, --stream, --seq, --strict, --unbuffered, --lenient).
bool inputs_runner::use_threads() const {
  const input_options& in = o_.input;
  return o_.threads > 1 && !o_.null_input && !o_.slurp && !in.raw && !in.stream && !in.stream_errors &&
         !in.record_separators && !o_.format.seq && !in.parse.single_value && !o_.format.unbuffered && !in.lenient &&
         !prog_.reads_inputs() && worth_threads(in.files, o_.chunk_size);
}

run_outcome inputs_runner::run() {
  run_outcome r;
  if (!use_threads() || !run_parallel(r)) run_sequential(r);
  return r;
}

bool inputs_runner::run_parallel(run_outcome& r) {
  parallel_options po;
  po.files = o_.input.files;
  po.parse = o_.input.parse;
  po.format = o_.format;
  po.threads = o_.threads;
  po.chunk_size = o_.chunk_size;
  parallel_reports reports(rep_);
  const parallel_outcome p = jview::run_parallel(po, copies_, out_, reports);
  if (!p.started) return false;  // no threads to be had, nothing read yet
  r.halted = p.halted;
  r.halt_code = p.halt_code;
  r.halt_code_raw = p.halt_code_raw;
  r.last_result = p.last_result;
  r.last_failed = p.ran && p.last_failed;
  r.any_output = p.any_output;
  r.last_truthy = p.last_truthy;
  return true;
}

void inputs_runner::run_sequential(run_outcome& r) {
  seq_ = std::make_unique<sequential>(prog_, o_, out_, rep_);
  input_stream& inputs = seq_->inputs;
  result_writer& results = seq_->results;
  // jq's status is that of the last input: an error in an earlier one does not count. False: stop (halt, or the
  // output is gone).
  auto run_one = [&](const filter::value& input) -> bool {
    inputs.set_in_program(true);
    const std::uint64_t before = results.outputs();
    const program_runner::outcome x = seq_->runner.run(input, &inputs);
    inputs.set_in_program(false);
    if (x == program_runner::outcome::halted) {
      r.halted = true;
      r.halt_code = seq_->runner.halt_code();
      r.halt_code_raw = seq_->runner.halt_code_raw();
      return false;
    }
    r.last_failed = x == program_runner::outcome::error;
    if (x == program_runner::outcome::ok && results.outputs() > before) r.last_result = results.last_truthy() ? 1 : 0;
    return !rep_.stopped();
  };

  const bool direct = prog_.is_identity() && !o_.slurp && !o_.input.raw && !o_.null_input && !o_.input.stream &&
                      !o_.input.lenient;
  if (o_.null_input) {
    run_one(filter::value());
  } else if (o_.slurp) {
    if (o_.input.raw) {
      run_one(filter::value::string(inputs.read_everything()));
    } else {
      std::vector<filter::value> all;
      filter::value v;
      while (inputs.next(v)) all.push_back(std::move(v));
      if (!seq_->input_side.any_parse_failed()) run_one(filter::value::array(std::move(all)));  // jq: not after one
    }
  } else if (direct) {
    // `.`: each input is written from its view, nothing is built.
    while (std::shared_ptr<doc_holder> h = inputs.next_doc()) {
      results.start_input();
      results.document_value(h->doc);
      r.last_failed = false;
      if (results.nul_met()) {
        seq_->program_side.runtime_error(result_writer::k_nul_error, false);
        r.last_failed = true;
      }
      if (rep_.stopped()) break;
    }
  } else {
    filter::value v;
    while (inputs.next(v)) {
      if (!run_one(v)) break;
      v = filter::value();
    }
  }
  r.any_output = results.any_output();
  r.last_truthy = results.last_truthy();
}

}  // namespace jview
