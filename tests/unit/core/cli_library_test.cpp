// tests/unit/core/cli_library_test.cpp: the library pieces the executable is wired from (issue 18: cli/ parses,
// wires and words; core/ does the work): the validation modes over files, -i's file replacement and rewrite, the
// progress line's counters and text, the program over all inputs with its reports, the program's file arguments.
// The CLI cases check the same behaviour end to end, byte for byte.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/file_check.hpp"
#include "core/file_replace.hpp"
#include "core/filter/program.hpp"
#include "core/in_place.hpp"
#include "core/inputs_runner.hpp"
#include "core/program_args.hpp"
#include "core/progress.hpp"

using namespace jview;

namespace {

// A fresh directory under /tmp, removed with its files at the end.
class scratch_dir {
 public:
  scratch_dir() {
    char name[] = "/tmp/jview-cli-lib-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    dir_ = name;
  }
  ~scratch_dir() {
    for (const std::string& f : files_) std::remove(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    files_.push_back(path);
    return path;
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void keep(const std::string& path) { files_.push_back(path); }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every report as one line of text.
class recording_reporter final : public run_reporter {
 public:
  void open_failed(const std::string& file, const std::string& why) override { log += "open " + file + ": " + why + "\n"; }
  void file_failed(const std::string& file, const std::string& why) override { log += "file " + file + ": " + why + "\n"; }
  void parse_failed(const std::string& what, const source_location&) override { log += "parse " + what + "\n"; }
  void parse_ignored(const std::string& what) override { log += "ignored " + what + "\n"; }
  void debug(std::string_view line) override { log += "debug " + std::string(line) + "\n"; }
  void stderr_text(std::string_view text) override { log += "stderr " + std::string(text) + "\n"; }
  void runtime_error(std::string_view where, std::string_view message, bool) override {
    log += "error at " + std::string(where) + ": " + std::string(message) + "\n";
  }
  void halt_text(std::string_view text) override { log += "halt " + std::string(text) + "\n"; }
  bool stopped() override { return false; }
  std::string log;
};

}  // namespace

TEST_CASE("file_check: each mode hands the first problem of each file to the callback and counts it") {
  scratch_dir d;
  const std::string good = d.write("good.json", "{\"a\": 1}\n");
  const std::string bad = d.write("bad.json", "{\"a\": 1,}\n");
  const std::string latin1 = d.write("latin1.txt", "ok\nca\xe9\n");
  std::vector<std::string> lines;
  auto report = [&](const problem& p) { lines.push_back(format_problem(report_format::plain, p)); };
  check_options o;
  o.kind = check_kind::json;
  check_tally t = check_files({good, bad, d.path("missing.json")}, o, report);
  CHECK(t.files == 3);
  CHECK(t.invalid == 1);
  CHECK(t.unreadable == 1);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind(bad + ":1:9: error: ", 0) == 0);
  CHECK(lines[1] == d.path("missing.json") + ":1:1: error: No such file or directory\n");
  CHECK(t.summary(check_kind::json) == "3 files, 1 invalid, 1 unreadable");

  lines.clear();
  o.kind = check_kind::utf8;
  t = check_files({good, latin1}, o, report);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == latin1 + ":2:3: error: invalid UTF-8 (byte offset 5)\n");
  CHECK(t.summary(check_kind::utf8) == "2 files, 1 invalid");

  lines.clear();
  o.kind = check_kind::formatted;
  t = check_files({good, d.write("pretty.json", "{\n  \"a\": 1\n}\n")}, o, report);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == good + ":1:2: error: not formatted as jview writes it\n");
  CHECK(t.unformatted == 1);
  CHECK(t.summary(check_kind::formatted) == "2 files, 1 not formatted");
}

TEST_CASE("file_replace: the target of a link is replaced with its mode kept; an uncommitted file is removed") {
  scratch_dir d;
  const std::string target = d.write("t.json", "old\n");
  ::chmod(target.c_str(), 0640);
  const std::string link = d.path("link.json");
  REQUIRE(::symlink("t.json", link.c_str()) == 0);
  d.keep(link);
  std::string resolved;
  struct stat st {};
  REQUIRE(resolve_file(link, resolved, st));
  CHECK(S_ISREG(st.st_mode));
  {
    replacement_file abandoned;
    REQUIRE(abandoned.create(resolved));
    REQUIRE(::write(abandoned.fd(), "x", 1) == 1);
  }
  CHECK(read(target) == "old\n");
  replacement_file r;
  REQUIRE(r.create(resolved));
  REQUIRE(::write(r.fd(), "new\n", 4) == 4);
  CHECK(r.commit(resolved, st).empty());
  CHECK(read(link) == "new\n");
  struct stat after {};
  REQUIRE(::lstat(link.c_str(), &after) == 0);
  CHECK(S_ISLNK(after.st_mode));
  REQUIRE(::stat(target.c_str(), &after) == 0);
  CHECK((after.st_mode & 07777) == 0640);
}

TEST_CASE("in_place: one value replaces the file; two values or an error leave it as it was") {
  scratch_dir d;
  const std::string f = d.write("f.json", "{\"v\": 1}\n");
  in_place_options o;
  o.format.write.pretty = false;
  recording_reporter rep;
  auto prog = filter::program::compile(".v += 1", {});
  rewrite_result r = rewrite_in_place(*prog, f, o, rep);
  CHECK(r.status == rewrite_result::outcome::rewritten);
  CHECK_FALSE(r.left_unchanged);
  CHECK(read(f) == "{\"v\":2}\n");
  auto twice = filter::program::compile(".,.", {});
  r = rewrite_in_place(*twice, f, o, rep);
  CHECK(r.status == rewrite_result::outcome::failed);
  CHECK(r.left_unchanged);
  CHECK(rep.log == "file " + f + ": the program wrote 2 values for it; -i writes exactly one\n");
  auto fails = filter::program::compile("error(\"no\")", {});
  rep.log.clear();
  r = rewrite_in_place(*fails, f, o, rep);
  CHECK(r.status == rewrite_result::outcome::failed);
  CHECK(rep.log == "error at " + f + ":1: no\n");
  CHECK(read(f) == "{\"v\":2}\n");
  r = rewrite_in_place(*prog, d.path("missing.json"), o, rep);
  CHECK(r.status == rewrite_result::outcome::unusable);
  CHECK_FALSE(r.left_unchanged);
}

TEST_CASE("progress: counters add up the inputs; the line shows the fraction, the rate and the time left") {
  scratch_dir d;
  progress_totals t = measure_inputs({d.write("a", std::string(3000, 'x')), d.write("b", std::string(1000, 'y'))});
  CHECK(t.bytes == 4000);
  CHECK(t.bytes_known);
  CHECK(t.files == 2);
  progress_counters c;
  c.consumed(500);
  c.read_counter().store(1000);
  CHECK(c.bytes(t) == 1000);
  c.input_done(3000);
  CHECK(c.bytes(t) == 3000);
  CHECK(c.files() == 1);
  CHECK(progress_line(progress_unit::bytes, t, 3000, 1, 3.0) == "3.0 kB of 4.0 kB (75%), 0:03 elapsed, 0:01 left");
  CHECK(progress_line(progress_unit::files, t, 3000, 1, 3.0) ==
        "1 of 2 files (75%), 3.0 kB of 4.0 kB, 0:03 elapsed, 0:01 left");
  progress_totals stream;
  stream.bytes_known = false;
  CHECK(progress_line(progress_unit::bytes, stream, 250000000, 0, 2.0) == "250.0 MB read, 125 MB/s, 0:02 elapsed");
}

TEST_CASE("inputs_runner: results in order, the last input's error, and the reports with where they happened") {
  scratch_dir d;
  const std::string f = d.write("in.json", "1 2 \"x\" 3");  // (no newline: jq counts line 0 read)
  std::string text;
  output_buffer out(&output_buffer::to_string, &text);
  recording_reporter rep;
  run_options o;
  o.input.files = {f, d.path("missing.json")};
  o.format.write.pretty = false;
  auto prog = filter::program::compile(". + 1", {});
  inputs_runner runner(*prog, nullptr, o, out, rep);
  const run_outcome r = runner.run();
  out.flush();
  CHECK(text == "2\n3\n4\n");
  CHECK(rep.log == "error at " + f + ":0: string (\"x\") and number (1) cannot be added\n"
                   "open " + d.path("missing.json") + ": No such file or directory\n");
  CHECK_FALSE(r.last_failed);
  CHECK(r.any_output);
  CHECK_FALSE(r.halted);
}

TEST_CASE("program_args: named arguments in order, the first of a name kept, files read; jq's words on failure") {
  scratch_dir d;
  const std::string raw = d.write("raw.txt", "text\n");
  const std::string vals = d.write("vals.json", "1 [2]");
  filter::compile_options copts;
  std::string error;
  using k = named_arg::kind;
  REQUIRE(add_named_args({{k::string, "a", "x"}, {k::rawfile, "r", raw}, {k::slurpfile, "s", vals},
                          {k::json, "a", "1"}},
                         parse_options{}, copts, error));
  REQUIRE(copts.named_args.size() == 3);
  CHECK(copts.named_args[1].text == "text\n");
  CHECK(copts.named_args[2].text == "[1,[2]]");
  CHECK(copts.named_args[2].json);
  filter::compile_options again;
  CHECK_FALSE(add_named_args({{k::slurpfile, "s", d.write("bad.json", "[1,")}}, parse_options{}, again, error));
  CHECK(error.rfind("Bad JSON in --slurpfile s " + d.path("bad.json") + ": " + d.path("bad.json") + ":1:4: ", 0) == 0);
  std::string why;
  CHECK_FALSE(read_text_file(d.path("none"), error, why));
  CHECK(why == "No such file or directory");
}
