// core/filter/program.cpp: write_value, the bridge from filter values to the writer: view values go out from their
// source bytes (writer::value), constructed values through the writer's primitives, so both print alike in every
// mode (compact, pretty, sorted keys, colour, ASCII).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

namespace jview::filter {

void set_allocation_hook(void (*hook)() noexcept) noexcept { detail::g_allocation_hook = hook; }

void write_value(writer& w, const value& v) {
  if (v.is_view()) {
    w.value(v.doc(), v.node_index());
    return;
  }
  switch (v.type()) {
    case kind::null_: w.null_value(); return;
    case kind::false_: w.boolean(false); return;
    case kind::true_: w.boolean(true); return;
    case kind::number: {
      std::string_view lit = v.literal();
      if (!lit.empty()) {
        w.number_literal(lit);
        return;
      }
      const double d = v.number();
      // Small integers (array indices of `paths`, counts, sums) print as their digits: no shortest search.
      if (d > -1e15 && d < 1e15 && d == static_cast<double>(static_cast<std::int64_t>(d)) &&
          !(d == 0 && std::signbit(d)) && w.options().numbers == number_mode::source) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(d));
        w.number_literal(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
        return;
      }
      w.number(d);
      return;
    }
    case kind::string: {
      std::string tmp;
      w.string(v.str(tmp));
      return;
    }
    case kind::array: {
      const auto& items = v.array_items();
      if (items.empty()) {
        w.empty_container(kind::array);
        return;
      }
      w.open(kind::array);
      bool first = true;
      for (const value& e : items) {
        w.item(kind::array, first);
        first = false;
        write_value(w, e);
      }
      w.close(kind::array, false);
      return;
    }
    case kind::object: {
      const auto& entries = v.object_data_ref().entries;
      if (entries.empty()) {
        w.empty_container(kind::object);
        return;
      }
      w.open(kind::object);
      bool first = true;
      if (w.options().sort_keys) {
        std::vector<const value::object_data::entry*> order;
        order.reserve(entries.size());
        for (const auto& e : entries) order.push_back(&e);
        std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->key < b->key; });
        for (const auto* e : order) {
          w.item(kind::object, first);
          first = false;
          w.key(e->key);
          write_value(w, e->val);
        }
      } else {
        for (const auto& e : entries) {
          w.item(kind::object, first);
          first = false;
          w.key(e.key);
          write_value(w, e.val);
        }
      }
      w.close(kind::object, false);
      return;
    }
  }
}

}  // namespace jview::filter
