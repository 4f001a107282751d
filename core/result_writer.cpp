// core/result_writer.cpp: see result_writer.hpp.
#include "core/result_writer.hpp"

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

namespace jview {

namespace {

// -r with -a: jq 1.8 writes a string as JSON in ASCII (quoted, escaped; no colour, no NUL check).
write_options ascii_string_options() {
  write_options o;
  o.ascii = true;
  return o;
}

}  // namespace

result_writer::result_writer(output_buffer& out, const result_format& f)
    : out_(out), f_(f), w_(out, f.write), ascii_w_(out, ascii_string_options()) {}

std::string result_writer::debug_line(const filter::value& message) const {
  std::string line;
  output_buffer buf(&output_buffer::to_string, &line, 4096);
  write_options o = f_.write;
  o.pretty = false;
  writer w(buf, o);
  filter::write_value(w, filter::value::array({filter::value::string("DEBUG:"), message}));
  buf.flush();
  return line;
}

void result_writer::after_output() {
  any_output_ = true;
  ++outputs_;
  if (f_.nul)
    out_.put('\0');
  else if (!f_.join)
    out_.put('\n');
  if (f_.unbuffered) out_.flush();
  out_.maybe_flush();
}

void result_writer::value(const filter::value& v) {
  if (nul_met_) return;
  // --seq's RS goes before values written as JSON, not before -r's strings (jq 1.8).
  if (f_.seq && !(f_.raw && v.is_string())) out_.put('\x1e');
  if (f_.raw && v.is_string()) {
    std::string tmp;
    const std::string_view text = v.str(tmp);
    if (f_.write.ascii) {
      ascii_w_.string(text);
    } else if (f_.nul && text.find('\0') != std::string_view::npos) {
      nul_met_ = true;
      return;
    } else {
      out_.append(text);
    }
  } else {
    filter::write_value(w_, v);
  }
  last_truthy_ = v.truthy();
  after_output();
}

void result_writer::document_value(const document& d) {
  if (nul_met_) return;
  if (f_.seq && !(f_.raw && d[0].k == kind::string)) out_.put('\x1e');
  if (f_.raw && d[0].k == kind::string) {
    std::string s;
    d.append_string(0, s);
    if (f_.write.ascii) {
      ascii_w_.string(s);
    } else if (f_.nul && s.find('\0') != std::string::npos) {
      nul_met_ = true;
      return;
    } else {
      out_.append(s);
    }
  } else {
    w_.value(d, 0);
  }
  last_truthy_ = d[0].k != kind::null_ && d[0].k != kind::false_;
  after_output();
}

}  // namespace jview
