// tests/unit/filter/value_test.cpp: filter values: views stay views, copy-on-write containers, object order and
// lookup, jq's total order, exact comparison of number literals, JSON text and error-message dumps.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "core/filter/value.hpp"
#include "core/parser.hpp"
#include "../thread_stack.hpp"

using jview::document;
using jview::kind;
using jview::filter::value;

namespace {

struct held {
  std::string text;
  document doc;
};

value parse(const std::string& text) {
  auto h = std::make_shared<held>();
  h->text = text;
  const char* p = h->text.data();
  const char* stop = nullptr;
  jview::parser ps;
  REQUIRE(!ps.parse(p, p + h->text.size(), h->doc, stop));
  return value::view(std::shared_ptr<const document>(h, &h->doc), 0);
}

}  // namespace

TEST_CASE("filter value: 16 bytes, inline scalars") {
  CHECK(sizeof(value) == 16);
  CHECK(value().is_null());
  CHECK(value::boolean(true).truthy());
  CHECK(!value::boolean(false).truthy());
  CHECK(value::number(2.5).number() == 2.5);
  CHECK(std::string(value::number(1).type_name()) == "number");
}

TEST_CASE("filter value: views into a document stay views") {
  value v = parse(R"({"a":[1,"x\u0041"],"b":1.50})");
  CHECK(v.is_view());
  value a = v.member("a");
  CHECK(a.is_view());
  CHECK(a.length() == 2);
  value s = a.element(1);
  CHECK(s.is_view());
  std::string tmp;
  CHECK(s.str(tmp) == "xA");
  CHECK(v.member("b").literal() == "1.50");
  bool found = true;
  v.member("zz", &found);
  CHECK(!found);
}

TEST_CASE("filter value: copy on write") {
  value a = value::array({value::number(1), value::number(2)});
  value b = a;
  b.array_mut().push_back(value::number(3));
  CHECK(a.length() == 2);
  CHECK(b.length() == 3);
  value v = parse("[1,2]");
  value w = v;
  w.array_mut()[0] = value::string("z");
  CHECK(v.is_view());
  CHECK(jview::filter::to_json(v) == "[1,2]");
  CHECK(jview::filter::to_json(w) == "[\"z\",2]");
}

namespace {

// Builds a value nested 10^6 deep (arrays and objects in turn) and drops it, keeping a reference to a middle level
// that outlives the first drop.
void* build_and_drop_deep(void* ok) {
  value v = value::number(0);
  value middle;
  for (int i = 0; i < 1000000; ++i) {
    if (i % 2 == 0) {
      v = value::array({std::move(v)});
    } else {
      value o = value::empty_object();
      o.object_mut().set(std::string_view("a"), std::move(v));
      v = std::move(o);
    }
    if (i == 500001) middle = v;  // an object
  }
  const bool shapes = v.length() == 1 && middle.member("a").is_array();
  v = value();
  const bool middle_kept = middle.length() == 1 && middle.member("a").length() == 1;
  middle = value();
  *static_cast<bool*>(ok) = shapes && middle_kept;
  return nullptr;
}

}  // namespace

TEST_CASE("filter value: a value nested 10^6 deep is freed without deep recursion") {
  // On a thread with a 1 MiB stack (the tests' own thread has 512 MiB): freeing one level per call would need far
  // more. Such a value is built by `reduce range(1e6) as $i (0; [.])` and can be dropped outside the evaluation's
  // large stack (an error value: `error`).
  bool ok = false;
  REQUIRE(jview::test::run_with_stack(std::size_t{1} << 20, &build_and_drop_deep, &ok));
  CHECK(ok);
}

TEST_CASE("filter value: objects keep insertion order and find keys past the linear threshold") {
  value o = value::empty_object();
  for (int i = 0; i < 40; ++i) o.object_mut().set(std::to_string(39 - i), value::number(i));
  CHECK(o.length() == 40);
  CHECK(o.member("0").number() == 39);
  CHECK(o.member("39").number() == 0);
  CHECK(o.object_data_ref().entries.front().key == "39");
  o.object_mut().set(std::string_view("20"), value::string("x"));  // existing key keeps its place
  CHECK(o.object_data_ref().entries[19].key == "20");
  o.object_mut().erase("20");
  CHECK(!o.has_member("20"));
  CHECK(o.has_member("21"));
}

TEST_CASE("filter value: jq's total order") {
  using jview::filter::compare;
  CHECK(compare(value(), value::boolean(false)) < 0);
  CHECK(compare(value::boolean(false), value::boolean(true)) < 0);
  CHECK(compare(value::boolean(true), value::number(0)) < 0);
  CHECK(compare(value::number(1e9), value::string("")) < 0);
  CHECK(compare(value::string("a"), value::empty_array()) < 0);
  CHECK(compare(value::empty_array(), value::empty_object()) < 0);
  CHECK(compare(value::string("ab"), value::string("b")) < 0);
  CHECK(compare(parse(R"({"a":2})"), parse(R"({"b":1})")) < 0);  // key sets first
  CHECK(compare(parse(R"({"a":1,"b":2})"), parse(R"({"b":2,"a":1})")) == 0);
  CHECK(jview::filter::equals(parse("[1,{\"a\":null}]"), value::array({value::number(1), parse("{\"a\":null}")})));
}

TEST_CASE("filter value: literals that meet in one double compare as decimals") {
  using jview::filter::compare;
  CHECK(compare(parse("100000000000000000001"), parse("100000000000000000000")) > 0);
  CHECK(compare(parse("1.0"), parse("1")) == 0);
  CHECK(compare(parse("1.000"), parse("1e0")) == 0);
  CHECK(compare(parse("100000000000000000001"), value::number(1e20)) == 0);  // computed: compared as doubles
}

TEST_CASE("filter value: canonical number text (jq 1.8 prints literals in decNumber's form)") {
  using jview::filter::canonical_number;
  CHECK(canonical_number("1.50") == "1.50");
  CHECK(canonical_number("1e2") == "1E+2");
  CHECK(canonical_number("0.1e1") == "1");
  CHECK(canonical_number(".5") == "0.5");
  CHECK(canonical_number("1e-5") == "0.00001");
  CHECK(canonical_number("1e-7") == "1E-7");
  CHECK(canonical_number("-0") == "-0");
  CHECK(canonical_number("00012") == "12");
  CHECK(canonical_number("123456789012345678901234567890e-10") == "12345678901234567890.1234567890");
}

TEST_CASE("filter value: error-message dumps are truncated as jq does") {
  using jview::filter::dump_trunc;
  CHECK(dump_trunc(value::string(std::string(27, 'a'))) == "\"" + std::string(27, 'a') + "\"");
  CHECK(dump_trunc(value::string(std::string(28, 'a'))) == "\"" + std::string(24, 'a') + "...\"");
  CHECK(dump_trunc(parse("123456789012345678901234567890")) == "12345678901234567890123456...");
  CHECK(dump_trunc(parse("[1,2,3,4,5,6,7,8,9,10,11,12,13]")) == "[1,2,3,4,5,6,7,8,9,10,11,...]");
}

TEST_CASE("filter value: small parts of a streamed input are copied out of its document") {
  auto h = std::make_shared<held>();
  h->text = R"({"s":"abc","e":"a\u00e9","n":12,"f":1.50,"t":true,"o":{"x":1},"big":[1,2,3,4,5,6,7,8,9,10,11,12]})";
  const char* p = h->text.data();
  const char* stop = nullptr;
  jview::parser ps;
  REQUIRE(!ps.parse(p, p + h->text.size(), h->doc, stop));
  std::weak_ptr<held> watch = h;
  const document* d = &h->doc;
  value doc = value::view(std::shared_ptr<const document>(std::move(h), d), 0);
  doc.doc_box_ptr()->streamed = true;

  value obj = value::empty_object();
  for (const char* k : {"s", "e", "n", "t", "o"}) obj.object_mut().set(std::string_view(k), doc.member(k));
  value f = doc.member("f");  // 1.50 does not print as its double: stays a view
  value big = doc.member("big");  // 13 nodes: stays a view
  const std::string before = jview::filter::to_json(obj);
  obj.detach_streamed();
  f.detach_streamed();
  big.detach_streamed();
  CHECK(jview::filter::to_json(obj) == before);
  CHECK(!obj.member("s").is_view());
  CHECK(!obj.member("e").is_view());
  CHECK(!obj.member("o").is_view());
  CHECK(f.is_view());
  CHECK(big.is_view());
  doc = value();
  f = value();
  big = value();
  CHECK(watch.expired());  // the detached object no longer holds the document
  CHECK(jview::filter::to_json(obj) == before);
  CHECK(jview::filter::to_json(obj) == R"({"s":"abc","e":"aé","n":12,"t":true,"o":{"x":1}})");
}
