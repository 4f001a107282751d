// cli/check.cpp: `jview --check FILE...`: parse every value of each file; print nothing for a valid file and one
// problem line (cli/check_report.hpp: plain, github or json) for an invalid or unreadable one. An empty or
// whitespace-only file is valid, as for `jq empty`, unless --strict (one JSON text per file). Exit 0 all valid,
// 1 some invalid, 2 some unreadable.
#include "cli/check_report.hpp"
#include "cli/exit_code.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "core/value_reader.hpp"

namespace jview::cli {

int run_check(const options& o) {
  std::vector<std::string> files = o.files;
  if (files.empty()) files.push_back("-");
  check_report report(o, "invalid");
  progress_meter meter(o, o.files, progress_unit::files);
  document doc;
  for (const std::string& file : files) {
    report.file_done();
    value_reader reader(o.parse);
    reader.set_read_counter(progress_read_counter());
    std::string why;
    if (!reader.open(file, why)) {
      report.unreadable(file, why);
      progress_file_done(0);
      continue;
    }
    value_reader::status s;
    while ((s = reader.next(doc)) == value_reader::status::value) progress_bytes(reader.bytes_consumed());
    if (s == value_reader::status::error) {
      if (reader.error().code == error_code::io_error)
        report.unreadable(reader.name(), reader.io_error());
      else
        report.problem(reader.name(), reader.location(), error_message(reader.error().code));
    }
    progress_file_done(reader.bytes_consumed());
  }
  meter.stop();
  return report.finish();
}

}  // namespace jview::cli
