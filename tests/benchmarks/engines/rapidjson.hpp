// tests/benchmarks/engines/rapidjson.hpp: RapidJSON's DOM (a fresh Document per value), parsing as strictly and
// exactly as jview does: UTF-8 validated (kParseValidateEncodingFlag) and doubles correctly rounded
// (kParseFullPrecisionFlag); not in situ, so the source stays intact. NDJSON: one Parse per line. Output through
// Writer / PrettyWriter (indent 2) into a StringBuffer kept across runs; numbers are written from their values.
#pragma once
#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "engines/common.hpp"

namespace jview::bench {

class rapidjson_engine final : public engine {
 public:
  const char* name() const override { return "rapidjson"; }
  bool supports(workload) const override { return true; }

  bool run(workload w, const input& in, result& r) override {
    if (is_dump(w)) buffer_.Clear();
    bool ok;
    if (!in.multi) {
      ok = one(w, std::string_view(in.data, in.size), in, r);
    } else {
      ok = true;
      for (std::string_view line : in.lines) {
        if (!one(w, line, in, r)) {
          ok = false;
          break;
        }
        if (is_dump(w)) buffer_.Put('\n');
      }
    }
    if (is_dump(w)) r.text.append(buffer_.GetString(), buffer_.GetSize());
    return ok;
  }

 private:
  static constexpr unsigned k_flags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseFullPrecisionFlag;
  using value = rapidjson::Value;

  bool one(workload w, std::string_view text, const input& in, result& r) {
    rapidjson::Document d;
    d.Parse<k_flags>(text.data(), text.size());
    if (d.HasParseError()) return false;
    switch (w) {
      case workload::parse: ++r.counts.values; return true;
      case workload::traverse: count(d, r.counts); return true;
      case workload::select: select(d, in.path, 0, r.selected); return true;
      case workload::dump_compact:
      case workload::dump_shortest: {
        rapidjson::Writer<rapidjson::StringBuffer> wr(buffer_);
        return d.Accept(wr);
      }
      case workload::dump_pretty: {
        rapidjson::PrettyWriter<rapidjson::StringBuffer> wr(buffer_);
        wr.SetIndent(' ', 2);
        return d.Accept(wr);
      }
      case workload::stage1: return false;  // (not offered: has_stage1)
    }
    return false;
  }

  static void count(const value& v, stats& s) {
    ++s.values;
    if (v.IsObject()) {
      for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
        s.string_bytes += m->name.GetStringLength();
        count(m->value, s);
      }
    } else if (v.IsArray()) {
      for (const value& c : v.GetArray()) count(c, s);
    } else if (v.IsNumber()) {
      s.add_number(v.GetDouble());
    } else if (v.IsString()) {
      s.string_bytes += v.GetStringLength();
    }
  }

  static void select(const value& v, const std::vector<path_step>& path, std::size_t step,
                     std::vector<std::string>& out) {
    if (step == path.size()) {
      if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
      return;
    }
    const path_step& s = path[step];
    if (s.kind == path_step::key) {
      if (!v.IsObject()) return;
      const value key(rapidjson::StringRef(s.name.data(), s.name.size()));
      auto m = v.FindMember(key);
      if (m != v.MemberEnd()) select(m->value, path, step + 1, out);
    } else if (s.kind == path_step::index) {
      if (v.IsArray() && s.n < v.Size()) select(v[static_cast<rapidjson::SizeType>(s.n)], path, step + 1, out);
    } else if (v.IsArray()) {
      for (const value& c : v.GetArray()) select(c, path, step + 1, out);
    } else if (v.IsObject()) {
      for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) select(m->value, path, step + 1, out);
    }
  }

  rapidjson::StringBuffer buffer_;
};

}  // namespace jview::bench
