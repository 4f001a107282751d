// core/file_check.cpp: the validation modes' loop over the files, --check's check of one file, and the findings.
#include "core/file_check.hpp"

#include "core/text_format.hpp"
#include "core/value_reader.hpp"

namespace jview {

void check_findings::problem(std::string_view file, const source_location& loc, std::string_view message) {
  problem(file, loc.line, loc.column, loc.byte_offset, message);
}

void check_findings::problem(std::string_view file, std::uint64_t line, std::uint64_t column,
                             std::uint64_t byte_offset, std::string_view message, bool unformatted) {
  jview::problem p;
  p.file = file;
  p.message = message;
  p.line = line;
  p.column = column;
  p.byte_offset = byte_offset;
  report_(p);
  ++(unformatted ? tally_.unformatted : tally_.invalid);
}

void check_findings::unreadable(std::string_view file, std::string_view why) {
  jview::problem p;
  p.file = file;
  p.message = why;
  p.has_position = false;
  report_(p);
  ++tally_.unreadable;
}

std::string check_tally::summary(check_kind kind) const {
  const bool formatted = kind == check_kind::formatted;
  std::string s = format_text("{} file{}, {} {}", files, files == 1 ? "" : "s", formatted ? unformatted : invalid,
                              formatted ? "not formatted" : "invalid");
  if (formatted && invalid > 0) s += format_text(", {} invalid", invalid);
  if (unreadable > 0) s += format_text(", {} unreadable", unreadable);
  return s;
}

std::uint64_t check_json_file(const std::string& file, const check_options& o, check_findings& found, document& doc) {
  value_reader reader(o.parse);
  reader.set_read_counter(o.progress.read_counter);
  std::string why;
  if (!reader.open(file, why)) {
    found.unreadable(file, why);
    return 0;
  }
  value_reader::status s;
  while ((s = reader.next(doc)) == value_reader::status::value)
    if (o.progress.consumed != nullptr) o.progress.consumed(reader.bytes_consumed());
  if (s == value_reader::status::error) {
    if (reader.error().code == error_code::io_error)
      found.unreadable(reader.name(), reader.io_error());
    else
      found.problem(reader.name(), reader.location(), error_message(reader.error().code));
  }
  return reader.bytes_consumed();
}

check_tally check_files(const std::vector<std::string>& files, const check_options& o, const problem_fn& report) {
  check_tally tally;
  check_findings found(report, tally);
  document doc;
  std::vector<std::string> all = files;
  if (all.empty()) all.push_back("-");
  for (const std::string& file : all) {
    ++tally.files;
    const std::uint64_t bytes = o.kind == check_kind::json   ? check_json_file(file, o, found, doc)
                                : o.kind == check_kind::utf8 ? check_utf8_file(file, o, found)
                                                             : check_formatted_file(file, o, found);
    if (o.progress.input_done != nullptr) o.progress.input_done(bytes);
  }
  return tally;
}

}  // namespace jview
