// tests/unit/core/input_test.cpp: the value reader over mapped files and pipes: values split across reads,
// error locations (line, column in characters, excerpt), the byte order mark, raw lines.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "core/value_reader.hpp"

using namespace jview;

namespace {

// A pipe (fds) and the thread that writes `text` into it in pieces of `piece` bytes, then closes the write end.
std::thread feed_pipe(const std::string& text, std::size_t piece, int (&fds)[2]) {
  REQUIRE(pipe(fds) == 0);
  return std::thread([&text, piece, w = fds[1]] {
    for (std::size_t i = 0; i < text.size(); i += piece) {
      const std::size_t n = std::min(piece, text.size() - i);
      if (write(w, text.data() + i, n) != static_cast<ssize_t>(n)) break;
    }
    close(w);
  });
}

// Values of `text` read through a pipe written in pieces of `piece` bytes, as compact kinds + first raw bytes.
std::vector<std::string> read_pipe(const std::string& text, std::size_t piece, std::string* error = nullptr) {
  int fds[2];
  std::thread writer = feed_pipe(text, piece, fds);
  value_reader r{parse_options{}};
  r.open_fd(fds[0], "<pipe>");
  document doc;
  std::vector<std::string> out;
  value_reader::status s;
  while ((s = r.next(doc)) == value_reader::status::value)
    out.push_back(std::to_string(doc.size()) + ":" + std::string(doc.source(), 1));
  if (s == value_reader::status::error && error != nullptr) {
    source_location loc = r.location();
    *error = std::to_string(loc.line) + ":" + std::to_string(loc.column) + " " + error_message(r.error().code);
  }
  writer.join();
  close(fds[0]);
  return out;
}

std::string temp_file(const std::string& content) {
  char name[] = "/tmp/jview_input_testXXXXXX";
  int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
  close(fd);
  return name;
}

}  // namespace

TEST_CASE("input: a pipe delivers the same values whatever the read sizes") {
  std::string text = "{\"a\":[1,2,\"x]\\\"}\"]} 12 \"s\\\"\" [] true\n{\"b\":{}} -3.5e2";
  const std::vector<std::string> want = {"6:{", "1:1", "1:\"", "1:[", "1:t", "3:{", "1:-"};
  for (std::size_t piece : {1, 2, 3, 7, 64, 100000}) {
    CAPTURE(piece);
    CHECK(read_pipe(text, piece) == want);
  }
}

TEST_CASE("input: a big value through a pipe (several buffer refills)") {
  std::string text = "[";
  for (int i = 0; i < 300000; ++i) text += "\"value number " + std::to_string(i) + "\",";
  text += "0] 7";
  CHECK(read_pipe(text, 65536) == std::vector<std::string>{"300002:[", "1:7"});
}

TEST_CASE("input: error location in lines and characters") {
  std::string err;
  read_pipe("[1,\n \"é\", x]", 2, &err);
  CHECK(err == "2:7 unexpected character");
  const std::string path = temp_file("{\"a\":\n\n  [1,,2]}");
  value_reader r{parse_options{}};
  std::string why;
  REQUIRE(r.open(path, why));
  document doc;
  CHECK(r.next(doc) == value_reader::status::error);
  source_location loc = r.location();
  CHECK(loc.line == 3);
  CHECK(loc.column == 6);
  CHECK(loc.line_text == "  [1,,2]}");
  CHECK(loc.caret == 5);
  std::remove(path.c_str());
}

TEST_CASE("input: byte order mark, empty input, missing file, directory") {
  CHECK(read_pipe("\xef\xbb\xbf[1]", 1) == std::vector<std::string>{"2:["});
  CHECK(read_pipe("\xef\xbb\xbf", 1).empty());
  CHECK(read_pipe("", 1).empty());
  value_reader r{parse_options{}};
  std::string why;
  CHECK_FALSE(r.open("/nonexistent/file.json", why));
  CHECK(why == "No such file or directory");
  value_reader d{parse_options{}};
  CHECK_FALSE(d.open("/tmp", why));
  CHECK(why == "Is a directory");
}

TEST_CASE("input: raw lines") {
  const std::string path = temp_file("a\nb c\n\nlast");
  value_reader r{parse_options{}};
  std::string why;
  REQUIRE(r.open(path, why));
  std::vector<std::string> lines;
  std::string line;
  bool nl = false;
  while (r.read_line(line, nl)) lines.push_back(line);
  CHECK(lines == std::vector<std::string>{"a", "b c", "", "last"});
  std::remove(path.c_str());
}

TEST_CASE("input: a backslash at the end of a read does not end the string early") {
  // Piece sizes put the backslash last in a read, with the escaped quote first in the next.
  const std::string text = "[\"a\\\"]\"] 5";
  for (std::size_t piece : {1, 2, 3, 4, 5}) {
    CAPTURE(piece);
    CHECK(read_pipe(text, piece) == std::vector<std::string>{"2:[", "1:5"});
  }
}

TEST_CASE("input: boundary scan over long runs (vector path) in reads of many sizes") {
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += "{\"id\": " + std::to_string(i) + ", \"a\": {\"b\": [1, 2, {\"c\": \"" + std::string(i % 97, 'x') +
            "\\\"q\"}]}, \"pad\": \"" + std::string(i % 41, 'y') + "\"}\n";
  std::vector<std::string> want(300, "");
  const std::vector<std::string> got_whole = read_pipe(text, text.size());
  REQUIRE(got_whole.size() == 300);
  for (std::size_t piece : {1, 7, 16, 17, 100, 1000, 4096, 65536}) {
    CAPTURE(piece);
    CHECK(read_pipe(text, piece) == got_whole);
  }
}

namespace {

// A value as its node array and source bytes.
std::string digest(const document& doc) {
  std::string d(reinterpret_cast<const char*>(doc.nodes()), doc.size() * sizeof(node));
  for (std::uint32_t i = 0; i < doc.size(); ++i)
    if (doc[i].k != kind::array && doc[i].k != kind::object) d += doc.raw(i);
  return d;
}

// Every value of a reader (the two-stage parser's index must not outlive the bytes it indexed: the stream buffer is
// compacted and refilled under it).
std::vector<std::string> digest_values(value_reader& r) {
  document doc;
  std::vector<std::string> out;
  value_reader::status s;
  while ((s = r.next(doc)) == value_reader::status::value) out.push_back(digest(doc));
  out.push_back(s == value_reader::status::end ? "end" : "error");
  return out;
}

std::vector<std::string> digest_pipe(const std::string& text, std::size_t piece, parse_path path) {
  int fds[2];
  std::thread writer = feed_pipe(text, piece, fds);
  parse_options opts;
  opts.path = path;
  value_reader r{opts};
  r.open_fd(fds[0], "<pipe>");
  std::vector<std::string> out = digest_values(r);
  writer.join();
  close(fds[0]);
  return out;
}

}  // namespace

TEST_CASE("input: NDJSON through pipes and files gives the same values with either parser path") {
  std::string text;
  for (int i = 0; text.size() < (3u << 20); ++i) {
    text += "{\"id\":" + std::to_string(i) + ",\"msg\":\"" + std::string(static_cast<std::size_t>(i % 700), 'x') +
            "\\\"\xc3\xa9\",\"tags\":[" + std::to_string(i % 7) + ",true,null]}\n";
    if (i % 1000 == 0) text += "[" + std::string(70000, ' ') + "1]\n";  // values longer than a batch
  }
  const auto want = digest_pipe(text, 1 << 20, parse_path::one_pass);
  REQUIRE(want.size() > 1000);
  CHECK(want.back() == "end");
  for (std::size_t piece : {std::size_t{4096}, std::size_t{65536}, std::size_t{1} << 20})
    CHECK(digest_pipe(text, piece, parse_path::automatic) == want);
  const std::string path = temp_file(text);
  std::string err;
  value_reader mapped{parse_options{}};
  REQUIRE(mapped.open(path, err));
  CHECK(digest_values(mapped) == want);
  std::remove(path.c_str());
}

TEST_CASE("input: a regular file as an open descriptor is read from its current offset (`jview . < file`)") {
  // Large enough (>= 64 KiB) to be read whole into memory rather than streamed; the first bytes are skipped as a
  // shell's `read` would have consumed them.
  std::string text = "skip me\n";
  const std::size_t skipped = text.size();
  for (int i = 0; text.size() < (std::size_t{80} << 10); ++i) text += "{\"n\":" + std::to_string(i) + "}\n";
  char path[] = "/tmp/jview-input-test-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  REQUIRE(lseek(fd, static_cast<off_t>(skipped), SEEK_SET) == static_cast<off_t>(skipped));
  value_reader r{parse_options{}};
  r.open_fd(fd, "<stdin>");
  document doc;
  std::size_t values = 0;
  value_reader::status s;
  while ((s = r.next(doc)) == value_reader::status::value) {
    CHECK(std::string(doc.source(), 5) == "{\"n\":");
    ++values;
  }
  CHECK(s == value_reader::status::end);
  CHECK(values > 6000);
  CHECK(r.lines_read() == values);
  close(fd);
  unlink(path);
}

namespace {

// The pipe's one writer is the reader's own before-block hook (as in fuzz_stream): each call writes the next piece.
struct hook_feeder {
  const std::string* text;
  std::size_t pos = 0;
  int fd;
  static void on_block(void* ctx) {
    auto* f = static_cast<hook_feeder*>(ctx);
    if (f->fd < 0) return;
    if (f->pos == f->text->size()) {
      close(f->fd);
      f->fd = -1;
      return;
    }
    const std::size_t n = std::min<std::size_t>(7, f->text->size() - f->pos);
    if (write(f->fd, f->text->data() + f->pos, n) > 0) f->pos += n;
  }
};

}  // namespace

TEST_CASE("input: a signal during the poll before a read does not skip the before-block hook") {
  // In a child, under a 20 µs interval timer whose SIGALRM interrupts system calls (no SA_RESTART): poll is then
  // often interrupted; skipping the hook would leave the read waiting for a piece nobody writes. The parent gives
  // the child 20 s (it takes well under one).
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    sigaction(SIGALRM, &sa, nullptr);
    std::string text;
    for (int i = 0; i < 3000; ++i) text += "{\"n\":" + std::to_string(i) + "}\n";
    int fds[2];
    if (pipe(fds) != 0) _exit(2);
    hook_feeder f{&text, 0, fds[1]};
    itimerval every{{0, 20}, {0, 20}};
    setitimer(ITIMER_REAL, &every, nullptr);
    int values = 0;
    {
      value_reader r{parse_options{}};
      r.open_fd(fds[0], "<pipe>");
      r.set_before_block(&hook_feeder::on_block, &f);
      document doc;
      while (r.next(doc) == value_reader::status::value) ++values;
    }
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    _exit(values == 3000 ? 0 : 1);
  }
  int status = -1;
  for (int waited_ms = 0; waited_ms < 20000; waited_ms += 10) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    usleep(10000);
  }
  if (waitpid(pid, &status, WNOHANG) == 0) {  // still running: hung
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL("the reader hung: the hook was skipped after an interrupted poll");
  }
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

namespace {

// `head`, then a hole up to 33 MiB (read as NUL bytes: an error right after head's values). Over 32 MiB, so it is
// read in chunks (the first one of 2 MiB: its end is at byte 2 MiB).
std::string chunked_file(const std::string& head) {
  const std::string path = temp_file(head);
  REQUIRE(truncate(path.c_str(), off_t{33} << 20) == 0);
  return path;
}

constexpr std::size_t k_first_chunk = std::size_t{2} << 20;

// The values of a file, each with the input line jq reports after it, then how the input ended (with the error's
// line and column).
std::vector<std::string> digest_file(const std::string& path, bool seq = false, std::size_t skip = 0) {
  value_reader r{parse_options{}};
  r.set_record_separators(seq);
  std::string err;
  int fd = -1;
  if (skip == 0) {
    REQUIRE(r.open(path, err));
  } else {  // as `jview < file` after a shell read the first bytes
    fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    REQUIRE(lseek(fd, static_cast<off_t>(skip), SEEK_SET) == static_cast<off_t>(skip));
    r.open_fd(fd, "<stdin>");
  }
  document doc;
  std::vector<std::string> out;
  value_reader::status s;
  while ((s = r.next(doc)) == value_reader::status::value)
    out.push_back(digest(doc) + " @" + std::to_string(r.lines_read()));
  if (s == value_reader::status::error) {
    const source_location loc = r.location();
    out.push_back(std::to_string(loc.line) + ":" + std::to_string(loc.column) + " " + error_message(r.error().code));
  } else {
    out.push_back("end");
  }
  if (fd >= 0) close(fd);
  return out;
}

// Lines of values of about 1 KB, then spaces, up to byte `to`.
std::string filler(std::size_t to) {
  std::string s;
  const std::string line =
      "{\"a\":[1,2,\"xyz\"],\"b\":\"\\u00e9\xc3\xa9\",\"c\":\"" + std::string(1000, 'c') + "\"}\n";
  while (s.size() + line.size() < to) s += line;
  return s + std::string(to - s.size(), ' ');
}

}  // namespace

TEST_CASE("input: a large regular file read in chunks: tokens cut by the buffer's end at every byte") {
  // Each token (valid or not) starts k bytes before the first chunk's end, for every k: the values and the error
  // must be those of the same bytes read whole.
  const std::vector<std::string> tokens = {
      "12345.678e+9", "-0.5", "true", "false", "null", "tru", "1.e5", "0123",
      "\"a\\u00e9\\ud83d\\ude00\\n\\\"\xc3\xa9\xf0\x9f\x98\x80x\"", "\"\xc3\x28\"", "\"bad \\q escape\"",
      "[1,{\"a\":[true,null]},\"x\",-2e-3]", "{\"k\":{\"k\":1},\"k\":2}", "[1,2,,3]", "{\"a\" 1}"};
  for (const std::string& t : tokens) {
    for (std::size_t k = 0; k <= t.size() + 1; ++k) {
      CAPTURE(t);
      CAPTURE(k);
      const std::string head = filler(k_first_chunk - k) + t + "\n7 [8]\n";
      const std::string whole = temp_file(head + std::string(1, '\0'));
      const std::string chunked = chunked_file(head);
      const auto want = digest_file(whole);
      CHECK(want.size() > 2000);
      CHECK(digest_file(chunked) == want);
      std::remove(whole.c_str());
      std::remove(chunked.c_str());
    }
  }
}

TEST_CASE("input: a large regular file read in chunks: values larger than the buffer, record separators, stdin") {
  std::string big_array = "[";
  while (big_array.size() < (std::size_t{5} << 20)) big_array += "1234,\"x\",";
  big_array += "0]";
  const std::string head = filler(k_first_chunk - 100) + "\"" + std::string(std::size_t{3} << 20, 's') + "\"\n" +
                           big_array + "\n{\"after\":true}\n  \n";
  const std::string whole = temp_file(head + std::string(1, '\0'));
  const std::string chunked = chunked_file(head);
  for (bool seq : {false, true}) {
    CAPTURE(seq);
    // --seq (jq 1.8): a record separator before every value (text before the first one would be abandoned).
    std::string seq_head;
    for (char c : head) seq_head += c == '\n' ? std::string("\n\x1e") : std::string(1, c);
    const std::string w = seq ? temp_file("\x1e" + seq_head + std::string(1, '\0')) : whole;
    const std::string ch = seq ? chunked_file("\x1e" + seq_head) : chunked;
    const auto want = digest_file(w, seq);
    CHECK(want.size() > 2000);
    CHECK(digest_file(ch, seq) == want);
    if (seq) {
      std::remove(w.c_str());
      std::remove(ch.c_str());
    }
  }
  // From an offset (`jview < file` after a shell read a line): lines are counted from there.
  const std::size_t skip = head.find('\n') + 1;
  const std::string rest = temp_file(head.substr(skip) + std::string(1, '\0'));
  CHECK(digest_file(chunked, false, skip) == digest_file(rest));
  std::remove(whole.c_str());
  std::remove(chunked.c_str());
  std::remove(rest.c_str());
}
