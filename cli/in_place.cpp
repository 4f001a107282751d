// cli/in_place.cpp: `jview -i FILTER FILE...`: each FILE is rewritten with the program's output for it, which must
// be exactly one value (the program runs on each of the file's values, or once with -s on their array, with -R on
// its lines). The output goes to a temporary file in the same directory, which is synced and renamed over the
// file only when the whole file parsed, the program ran without an error and wrote one value, and the write
// succeeded; it gets the file's mode, and its owner and group where the system allows (as root, or a group of
// one's own). Otherwise the file is left byte for byte as it was, the reason is reported and the next file goes on.
//
// A symbolic link is followed: its target is rewritten and the link stays (GNU sed's --follow-symlinks; sed -i
// without it, and jaq -i, replace the link itself by a regular file and leave the target as it was, which loses
// the edit for whatever else reads the target). A file with other hard links gets a new inode: the other names
// keep the old bytes, as with sed -i. Exit status: 0 all rewritten, 5 a file invalid or its program failed or not
// one value, 2 a file unreadable or not writable (the highest of these); halt / halt_error end the run with theirs.
#include <errno.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "cli/exit_code.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/diagnostics.hpp"
#include "core/value_reader.hpp"
#include "core/output.hpp"
#include "core/writer.hpp"
#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

namespace jview::cli {
namespace {

// A document and the bytes it points into, shared by every value that views it.
struct doc_holder {
  document doc;
  std::shared_ptr<source_bytes> keep;
};

// One file's inputs: the main loop and the program's `input` / `inputs` read the same file, and nothing else.
class file_inputs final : public filter::input_provider {
 public:
  file_inputs(value_reader& r, const options& o, const std::string& name) : r_(r), o_(o), name_(name) {}

  bool next(filter::value& out) override {
    if (done_) return false;
    if (o_.raw_input) {
      std::string line;
      bool nl = false;
      if (!r_.read_line(line, nl)) return end();
      out = filter::value::string(std::move(line));
      return true;
    }
    auto h = std::make_shared<doc_holder>();  // a document per value: a kept one (-s, `input`) keeps its bytes
    switch (r_.next(h->doc)) {
      case value_reader::status::value:
        h->keep = r_.source_keepalive();
        out = filter::value::view(std::shared_ptr<const document>(h, &h->doc), 0);
        progress_bytes(r_.bytes_consumed());
        return true;
      case value_reader::status::end:
        return end();
      case value_reader::status::error:
        break;
    }
    done_ = true;
    if (r_.error().code == error_code::io_error) {
      error_ = fmt::format("jview: error: {}: {}\n", name_, r_.io_error());
      io_failed_ = true;
    } else {
      const source_location loc = r_.location();
      const std::string line = format_location_line(name_, loc, error_message(r_.error().code));
      error_ = "jview: error: " + line + "\n" + format_excerpt(loc);
      if (in_program_) pending_ = line;  // an error of the program, which `try` can catch (jq 1.8)
    }
    return false;
  }
  std::string current_filename() const override { return name_; }
  std::uint64_t current_line() const override { return o_.raw_input ? r_.current_line() - 1 : r_.lines_read(); }
  std::string take_error() override { return std::exchange(pending_, std::string()); }

  void set_in_program(bool on) noexcept { in_program_ = on; }
  // The file's parse or read error ("jview: error: ..." and the excerpt), empty when it read to its end.
  const std::string& error() const noexcept { return error_; }
  bool io_failed() const noexcept { return io_failed_; }
  std::string where() const { return fmt::format("{}:{}", name_, current_line()); }

 private:
  bool end() {
    done_ = true;
    return false;
  }
  value_reader& r_;
  const options& o_;
  const std::string& name_;
  bool done_ = false, in_program_ = false, io_failed_ = false;
  std::string error_, pending_;
};

// The temporary file beside the target: created empty (mode 0600), removed unless committed.
class temp_file {
 public:
  // False (errno set) when it cannot be created in target's directory.
  bool create(const std::string& target) {
    const std::size_t slash = target.rfind('/');
    dir_ = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    path_ = (dir_ == "/" ? "" : dir_) + "/." + base + ".jview-XXXXXX";
    fd_ = ::mkostemp(path_.data(), O_CLOEXEC);
    return fd_ >= 0;
  }
  int fd() const noexcept { return fd_; }
  const std::string& dir() const noexcept { return dir_; }

  // Gives it the target's mode and (as far as allowed) owner and group, syncs it and renames it over the target,
  // then syncs the directory so that the rename itself is durable. "" on success, else the failed step's reason.
  std::string commit(const std::string& target, const struct stat& st) {
    // The owner first: chown clears the set-user-ID and set-group-ID bits, which fchmod then restores.
    if (::fchown(fd_, st.st_uid, st.st_gid) != 0 && ::fchown(fd_, static_cast<uid_t>(-1), st.st_gid) != 0) {
      // neither allowed: the file keeps the caller's owner and group, as a new file would
    }
    if (::fchmod(fd_, st.st_mode & 07777) != 0) return fmt::format("cannot set the mode: {}", std::strerror(errno));
    if (::fsync(fd_) != 0) return fmt::format("cannot sync {}: {}", path_, std::strerror(errno));
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) return fmt::format("cannot close {}: {}", path_, std::strerror(errno));
    if (::rename(path_.c_str(), target.c_str()) != 0)
      return fmt::format("cannot rename {}: {}", path_, std::strerror(errno));
    path_.clear();
    const int dfd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      (void)::fsync(dfd);  // (some file systems refuse a directory's fsync; the rename is done all the same)
      ::close(dfd);
    }
    return {};
  }

  ~temp_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

struct run_state {
  filter::program& prog;
  const options& o;
  write_options wo;
  int halt = -1;  // set by halt / halt_error: the run ends with this status
};

// Rewrites one file. Returns its status: exit_ok, exit_usage (unreadable, not writable) or exit_runtime; `size` is
// set to the file's size once known (for the progress line).
int rewrite(run_state& rs, const std::string& file, std::uint64_t& size) {
  const options& o = rs.o;
  auto left_unchanged = [&](int status) {
    eprint("jview: {}: left unchanged\n", file);
    return status;
  };
  // The link's target, so that the link stays a link (see the header).
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(file.c_str(), nullptr), &std::free);
  if (!real) {
    eprint("jview: error: Could not open file {}: {}\n", file, std::strerror(errno));
    return exit_usage;
  }
  const std::string target = real.get();
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    eprint("jview: error: Could not open file {}: {}\n", file, std::strerror(errno));
    return exit_usage;
  }
  if (!S_ISREG(st.st_mode)) {
    eprint("jview: error: {}: not a regular file (-i rewrites regular files only)\n", file);
    return exit_usage;
  }
  size = static_cast<std::uint64_t>(st.st_size);
  parse_options popts = o.parse;
  popts.decompress = false;  // the file is rewritten as it was read: a compressed one is not JSON to -i
  value_reader reader(popts);
  reader.set_read_counter(progress_read_counter());
  std::string why;
  if (!reader.open(target, why)) {
    eprint("jview: error: Could not open file {}: {}\n", file, why);
    return exit_usage;
  }
  temp_file tmp;
  if (!tmp.create(target)) {
    eprint("jview: error: {}: cannot create a temporary file in {}: {}\n", file, tmp.dir(), std::strerror(errno));
    return left_unchanged(exit_usage);
  }

  fd_sink sink;
  sink.fd = tmp.fd();
  output_buffer out(&fd_sink::write, &sink);
  writer w(out, rs.wo);
  file_inputs inputs(reader, o, file);
  std::uint64_t outputs = 0;
  bool nul_in_raw0 = false;
  const char* terminator = o.raw_output0 ? std::string_view("\0", 1).data() : "\n";
  const std::size_t term_len = o.join_output ? 0 : 1;
  filter::run_callbacks cb;
  cb.emit = [&](const filter::value& v) {
    if (nul_in_raw0) return;
    if (o.seq) out.put('\x1e');
    if (o.raw_output && v.is_string()) {
      std::string text_buf;
      const std::string_view text = v.str(text_buf);
      if (o.raw_output0 && text.find('\0') != std::string_view::npos) {
        nul_in_raw0 = true;
        return;
      }
      out.append(text);
    } else {
      filter::write_value(w, v);
    }
    out.append(terminator, term_len);
    out.maybe_flush();
    ++outputs;
  };
  cb.debug = [&](std::string_view msg) { eprint("{}\n", msg); };
  cb.stderr_out = [&](std::string_view text) { write_stderr(text); };

  bool failed = false;
  auto run_one = [&](const filter::value& input) {
    std::string error;
    int halt = -1;
    inputs.set_in_program(true);
    bool ok = rs.prog.run(input, &inputs, cb, error, halt);
    inputs.set_in_program(false);
    if (nul_in_raw0 && halt < 0) {
      ok = false;
      error = "Cannot dump a string containing NUL with --raw-output0 option";
    }
    if (halt >= 0) {
      if (!ok) write_stderr(error);  // halt_error: its text as jq writes it
      rs.halt = halt;
      failed = true;
      return false;
    }
    if (!ok) {
      if (!nul_in_raw0 && rs.prog.last_error_not_string())
        eprint("jview: error (at {}) (not a string): {}\n", inputs.where(), error);
      else
        eprint("jview: error (at {}): {}\n", inputs.where(), error);
      failed = true;
      return false;  // the file is left as it was: no point in running on its other values
    }
    return true;
  };

  if (o.raw_input && o.slurp) {
    std::string all;
    if (!reader.read_all(all)) {
      eprint("jview: error: {}: {}\n", file, reader.io_error());
      return left_unchanged(exit_usage);
    }
    run_one(filter::value::string(std::move(all)));
  } else if (o.slurp) {
    std::vector<filter::value> all;
    filter::value v;
    while (inputs.next(v)) all.push_back(std::move(v));
    if (inputs.error().empty()) run_one(filter::value::array(std::move(all)));
  } else {
    filter::value v;
    while (inputs.next(v)) {
      if (!run_one(v)) break;
      v = filter::value();
    }
  }
  progress_bytes(reader.bytes_consumed());
  if (rs.halt >= 0) return left_unchanged(rs.halt);
  if (!inputs.error().empty()) {
    // A parse error the program did not see, or saw through `input` and caught: the file is not what it should be.
    if (!failed || inputs.io_failed()) write_stderr(inputs.error());
    return left_unchanged(inputs.io_failed() ? exit_usage : exit_runtime);
  }
  if (failed) return left_unchanged(exit_runtime);
  if (outputs != 1) {
    eprint("jview: error: {}: the program wrote {} values for it; -i writes exactly one\n", file,
           outputs == 0 ? std::string("no") : std::to_string(outputs));
    return left_unchanged(exit_runtime);
  }
  out.flush();
  if (!sink.error.empty()) {
    eprint("jview: error: {}: writing {}: {}\n", file, tmp.dir(), sink.error);
    return left_unchanged(exit_usage);
  }
  const std::string err = tmp.commit(target, st);
  if (!err.empty()) {
    eprint("jview: error: {}: {}\n", file, err);
    return left_unchanged(exit_usage);
  }
  return exit_ok;
}

}  // namespace

int run_in_place(const options& o) {
  if (o.files.empty()) {
    eprint("jview: error: -i needs FILE arguments (standard input cannot be rewritten)\n"
           "Use jview --help for help with command-line options.\n");
    return exit_usage;
  }
  if (o.null_input || o.stream) {
    eprint("jview: error: -i cannot be used with {}\nUse jview --help for help with command-line options.\n",
           o.null_input ? "-n" : "--stream");
    return exit_usage;
  }
  int compiled = exit_ok;
  const std::unique_ptr<filter::program> prog = compile_program(o, compiled);
  if (!prog) return compiled;
  run_state rs{*prog, o, o.write};
  rs.wo.color = false;
  progress_meter meter(o, o.files, progress_unit::files);
  int status = exit_ok;
  for (const std::string& file : o.files) {
    std::uint64_t size = 0;
    const int s = rewrite(rs, file, size);
    progress_file_done(size);
    if (rs.halt >= 0) {
      status = rs.halt;
      break;
    }
    status = std::max(status, s);
  }
  meter.stop();
  std::fflush(stdout);
  return status;
}

}  // namespace jview::cli
