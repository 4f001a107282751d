// core/program_args.cpp: see program_args.hpp.
#include "core/program_args.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "core/diagnostics.hpp"
#include "core/output.hpp"
#include "core/text_format.hpp"
#include "core/value_reader.hpp"
#include "core/writer.hpp"

namespace jview {

namespace {

// The start of jq's report of a --rawfile / --slurpfile that cannot be used ("Bad JSON" even for --rawfile).
std::string bad_file_arg(const char* option, const std::string& name, const std::string& path) {
  return format_text("Bad JSON in --{} {} {}: ", option, name, path);
}

// --slurpfile: the file's values as the JSON text of one array; false with `error` set.
bool slurp_file_json(const std::string& name, const std::string& path, const parse_options& popts, std::string& json,
                     std::string& error) {
  value_reader r(popts);
  std::string why;
  if (!r.open(path, why)) {
    error = format_text("{}Could not open {}: {}", bad_file_arg("slurpfile", name, path), path, why);
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
    const source_location loc = r.location();
    error = bad_file_arg("slurpfile", name, path) + format_location_line(path, loc, error_message(r.error().code));
    return false;
  }
  return true;
}

// The real path of `path`; empty when it has none.
std::string real_path(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  std::string out = r != nullptr ? std::string(r) : std::string();
  std::free(r);
  return out;
}

}  // namespace

bool read_text_file(const std::string& path, std::string& text, std::string& why) {
  value_reader r(parse_options{});
  if (!r.open(path, why) || !r.read_all(text)) {
    if (why.empty()) why = r.io_error();
    return false;
  }
  return true;
}

bool add_named_args(const std::vector<named_arg>& args, const parse_options& popts, filter::compile_options& copts,
                    std::string& error) {
  std::vector<std::string_view> seen;
  for (const named_arg& a : args) {
    if (std::find(seen.begin(), seen.end(), std::string_view(a.name)) != seen.end()) continue;
    seen.push_back(a.name);
    using k = named_arg::kind;
    std::string text;
    if (a.k == k::rawfile) {
      std::string why;
      if (!read_text_file(a.value, text, why)) {
        error = format_text("{}Could not open {}: {}", bad_file_arg("rawfile", a.name, a.value), a.value, why);
        return false;
      }
    } else if (a.k == k::slurpfile) {
      if (!slurp_file_json(a.name, a.value, popts, text, error)) return false;
    } else {
      text = a.value;
    }
    copts.named_args.push_back({a.name, std::move(text), a.k == k::json || a.k == k::slurpfile});
  }
  return true;
}

void find_origins(const std::string& from_file, filter::compile_options& copts) {
  if (!from_file.empty()) {
    const std::size_t slash = from_file.rfind('/');
    copts.program_origin =
        real_path(slash == std::string::npos ? std::string(".") : from_file.substr(0, slash + (slash == 0)));
  } else {
    copts.program_origin = real_path(".");
  }
  if (std::string exe = real_path("/proc/self/exe"); !exe.empty())
    copts.jq_origin = exe.substr(0, std::max<std::size_t>(exe.rfind('/'), 1));
}

}  // namespace jview
