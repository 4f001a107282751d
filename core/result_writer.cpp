// core/result_writer.cpp: see result_writer.hpp.
#include "core/result_writer.hpp"

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

namespace jview {

result_writer::result_writer(output_buffer& out, const result_format& f) : out_(out), f_(f), w_(out, f.write) {}

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
  if (f_.seq) out_.put('\x1e');
  if (f_.raw && v.is_string()) {
    std::string tmp;
    const std::string_view text = v.str(tmp);
    if (f_.nul && text.find('\0') != std::string_view::npos) {
      nul_met_ = true;
      return;
    }
    out_.append(text);
  } else {
    filter::write_value(w_, v);
  }
  last_truthy_ = v.truthy();
  after_output();
}

void result_writer::document_value(const document& d) {
  if (nul_met_) return;
  if (f_.seq) out_.put('\x1e');
  if (f_.raw && d[0].k == kind::string) {
    std::string s;
    d.append_string(0, s);
    if (f_.nul && s.find('\0') != std::string::npos) {
      nul_met_ = true;
      return;
    }
    out_.append(s);
  } else {
    w_.value(d, 0);
  }
  last_truthy_ = d[0].k != kind::null_ && d[0].k != kind::false_;
  after_output();
}

}  // namespace jview
