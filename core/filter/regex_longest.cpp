// core/filter/regex_longest.cpp: the regex flag `l` (longest match) without the library's FIND_LONGEST option;
// see regex_longest.hpp for the meaning and the method.
#include "core/filter/regex_longest.hpp"

#include <string>

#include "core/filter/shared_libraries.hpp"

namespace jview::filter::detail {

namespace {

// The callout's name: a name no pattern written for jq can use (jq has no such callout).
constexpr std::string_view k_callout = "_jview_longest_path_end";

int path_end_callout(OnigCalloutArgs* args, void* user) {
  auto* search = static_cast<longest_search*>(user);
  // Without user data the callout is in a pattern of the user's own, run by an ordinary search: for jq the name
  // does not exist.
  if (search == nullptr) return ONIGERR_UNDEFINED_CALLOUT_NAME;
  return search->on_path_end_args(args);
}

// The pattern text calls group 0, the whole pattern (`\g<0>`, `\g'0'`, `(?0)`, also with a sign or more zeros).
// Text in a class or a quote may match too: such a pattern only takes the library's option.
bool calls_itself_whole(std::string_view p) {
  auto zero_ref = [&](std::size_t j, char close) {
    if (j < p.size() && (p[j] == '+' || p[j] == '-')) ++j;
    const std::size_t digits = j;
    while (j < p.size() && p[j] == '0') ++j;
    return j > digits && j < p.size() && p[j] == close;
  };
  for (std::size_t i = 0; i + 2 < p.size(); ++i) {
    if (p[i] == '\\' && p[i + 1] == 'g' && (p[i + 2] == '<' || p[i + 2] == '\''))
      if (zero_ref(i + 3, p[i + 2] == '<' ? '>' : '\'')) return true;
    if (p[i] == '(' && p[i + 1] == '?' && zero_ref(i + 2, ')')) return true;
  }
  return false;
}

}  // namespace

int register_longest_callout(const onig_library& L) {
  std::string name(k_callout);
  auto* n = reinterpret_cast<OnigUChar*>(name.data());
  return L.set_callout_of_name(L.utf8, ONIG_CALLOUT_TYPE_SINGLE, n, n + name.size(), ONIG_CALLOUT_IN_PROGRESS,
                               path_end_callout, nullptr, 0, nullptr, 0, nullptr);
}

bool names_longest_callout(std::string_view pattern) {
  return pattern.find("(*" + std::string(k_callout)) != std::string_view::npos;
}

regex_t* compile_longest(const onig_library& L, std::string_view pattern, OnigOptionType options, int captures) {
  if (calls_itself_whole(pattern)) return nullptr;
  // The pattern may end inside a comment (flag or `(?x)`: up to a newline) or a `\Q` quote (up to `\E`); only the
  // closing that ends its text compiles, and a closing that compiles with the same groups ends it.
  for (std::string_view close : {")", "\n)", "\\E)"}) {
    const std::string text = "(?:" + std::string(pattern) + std::string(close) + "(*" + std::string(k_callout) + ")";
    const auto* t = reinterpret_cast<const OnigUChar*>(text.data());
    regex_t* re = nullptr;
    OnigErrorInfo einfo;
    if (L.compile(&re, t, t + text.size(), options, L.utf8, L.perl_ng, &einfo) != ONIG_NORMAL) continue;
    if (L.captures(re) == captures) return re;
    L.free(re);
  }
  return nullptr;
}

longest_search::longest_search(const onig_library& L, regex_t* wrapped, std::string_view subject,
                               std::string_view pattern, bool not_empty)
    : L_(L),
      re_(wrapped),
      begin_(reinterpret_cast<const OnigUChar*>(subject.data())),
      end_(begin_ + subject.size()),
      size_(subject.size()),
      not_empty_(not_empty),
      reuse_(pattern.find("\\G") == std::string_view::npos),
      param_(L.new_match_param()) {
  L_.set_callout_user_data(param_, this);
}

longest_search::~longest_search() { L_.free_match_param(param_); }

int longest_search::on_path_end_args(OnigCalloutArgs* args) {
  const OnigUChar* s = L_.callout_string(args);
  return on_path_end(static_cast<std::size_t>(L_.callout_start(args) - s),
                     static_cast<std::size_t>(L_.callout_current(args) - s));
}

// One path of the engine reached the end of the pattern: a match [start, end). Returns what the engine does next:
// ONIG_CALLOUT_FAIL tries the next path, ONIG_CALLOUT_SUCCESS takes this one, ONIG_ABORT ends the search.
int longest_search::on_path_end(std::size_t start, std::size_t end) {
  const auto length = static_cast<std::ptrdiff_t>(end - start);
  if (capturing_) return start == want_start_ && length == want_ ? ONIG_CALLOUT_SUCCESS : ONIG_CALLOUT_FAIL;
  if (!at_valid_ || start != at_) {
    finish_position();
    // No start from here on can be longer than the best before it (and an equal length loses to the earlier one).
    if (bar_ >= static_cast<std::ptrdiff_t>(size_ - start)) {
      stopped_at_ = start;
      return ONIG_ABORT;
    }
    at_ = start;
    at_valid_ = true;
    at_best_ = -1;
  }
  if (length == 0 && not_empty_) return ONIG_CALLOUT_FAIL;
  if (length > at_best_) at_best_ = length;
  if (end == size_) {
    // Nothing from this start is longer, and nothing from a later one is as long.
    finish_position();
    stopped_at_ = start + 1;
    return ONIG_ABORT;
  }
  return ONIG_CALLOUT_FAIL;
}

// The measured start position becomes a candidate.
void longest_search::finish_position() {
  if (!at_valid_) return;
  at_valid_ = false;
  if (at_best_ < 0) return;
  while (!candidates_.empty() && candidates_.back().length < at_best_) candidates_.pop_back();
  candidates_.push_back({at_, at_best_});
  if (at_best_ > bar_) bar_ = at_best_;
}

// Measures the start positions from `from` on (every path at each), given the best length `bar` known before.
int longest_search::measure(std::size_t from, std::ptrdiff_t bar) {
  capturing_ = false;
  bar_ = bar;
  at_valid_ = false;
  stopped_at_ = size_ + 1;  // all measured, unless the search stops early
  const int r = L_.search_with_param(re_, begin_, end_, begin_ + from, end_, nullptr, ONIG_OPTION_NONE, param_);
  finish_position();
  measured_to_ = stopped_at_;
  return r == ONIG_ABORT || r >= 0 ? ONIG_MISMATCH : r;  // (no path passes the callout while measuring)
}

int longest_search::search(std::size_t from, OnigRegion* region) {
  while (!candidates_.empty() && candidates_.front().start < from) candidates_.pop_front();
  if (!reuse_ || measured_to_ < from) {
    candidates_.clear();
    measured_to_ = from;
  }
  const std::ptrdiff_t bar = candidates_.empty() ? -1 : candidates_.front().length;
  if (measured_to_ <= size_ && bar < static_cast<std::ptrdiff_t>(size_ - measured_to_)) {
    const int r = measure(measured_to_, bar);
    if (r != ONIG_MISMATCH) return r;  // an error (the callout never lets a path end the search)
  }
  if (candidates_.empty()) return ONIG_MISMATCH;
  const candidate win = candidates_.front();
  capturing_ = true;
  want_start_ = win.start;
  want_ = win.length;
  // The winner's first path of its length, at its start. With \G the search starts where this one did (\G is
  // that position), and the callout lets only the winner's path through.
  const int r = reuse_ ? L_.match_with_param(re_, begin_, end_, begin_ + win.start, region, ONIG_OPTION_NONE, param_)
                       : L_.search_with_param(re_, begin_, end_, begin_ + from, end_, region, ONIG_OPTION_NONE, param_);
  capturing_ = false;
  if (r < 0) return r;
  return static_cast<int>(win.start);
}

}  // namespace jview::filter::detail
