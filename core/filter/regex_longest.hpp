// core/filter/regex_longest.hpp: the regex flag `l` (longest match) computed by jview itself. jq 1.8 passes
// Oniguruma's ONIG_OPTION_FIND_LONGEST, which some versions of the library ignore (Debian 12's 6.9.8 among them);
// its meaning, which jview reproduces with any version: a search from a position looks at every start position
// from there to the end of the string, takes the longest match any path of the engine gives at any of them (the
// leftmost start among equal lengths) and, at that start, the captures of the first path of that length.
//
// How: the pattern is compiled a second time as `(?:PATTERN)(*callout)`; the callout at the end sees the end of
// every path the engine tries and makes it fail, so one search walks all paths at all start positions. The lengths
// found per start position are kept for the next search of a global match (a start position is measured once per
// string, not once per match: `"ab…ab" | [match("a"; "gl")]` stays linear), and a search stops early once no later
// start can be longer than the best found. The winning path is then found again at its start for its captures.
#pragma once

#include <oniguruma.h>

#include <cstddef>
#include <deque>
#include <string_view>

namespace jview::filter::detail {

struct onig_library;

// `(?:PATTERN)(*callout)` compiled with `options`, or nullptr where that cannot stand for the pattern: a pattern
// that calls itself whole (`\g<0>`, `(?0)`) would run the callout inside its own recursion. `captures` is the
// plain pattern's group count (a check that the wrapping changed nothing). The caller frees it (onig_free).
regex_t* compile_longest(const onig_library& L, std::string_view pattern, OnigOptionType options, int captures);

// Registers the callout's name with Oniguruma (once per process, after onig_initialize; the Oniguruma table
// does it). Returns the name's id or an error code.
int register_longest_callout(const onig_library& L);

// True if the pattern text names jview's callout (a user's pattern must not call it; jq says the name is undefined).
bool names_longest_callout(std::string_view pattern);

// The longest-match searches over one string with one pattern compiled by compile_longest.
class longest_search {
 public:
  // `not_empty`: the flag `n` (an empty match never counts). `pattern` is the plain pattern text (a `\G` in it
  // makes each search start afresh: \G is the search's start, so lengths measured from another start don't carry).
  longest_search(const onig_library& L, regex_t* wrapped, std::string_view subject, std::string_view pattern,
                 bool not_empty);
  ~longest_search();
  longest_search(const longest_search&) = delete;
  longest_search& operator=(const longest_search&) = delete;

  // As onig_search from byte `from` to the end of the subject: the match's start (region filled), ONIG_MISMATCH,
  // or an Oniguruma error code.
  int search(std::size_t from, OnigRegion* region);

  // The callout's entry point (Oniguruma calls it with this object as its user data), and what it decides for a
  // path that matched [start, end).
  int on_path_end_args(OnigCalloutArgs* args);
  int on_path_end(std::size_t start, std::size_t end);

 private:
  struct candidate {
    std::size_t start;
    std::ptrdiff_t length;
  };
  int measure(std::size_t from, std::ptrdiff_t bar);
  void finish_position();

  const onig_library& L_;
  regex_t* re_;
  const OnigUChar* begin_;
  const OnigUChar* end_;
  std::size_t size_;
  bool not_empty_;
  bool reuse_;  // lengths measured by one search serve the next (no \G in the pattern)
  OnigMatchParam* param_;

  // Measured start positions that have a match, as candidates: lengths never increase from front to back, so the
  // front is the leftmost longest from the current search's start on (a sliding-window maximum).
  std::deque<candidate> candidates_;
  std::size_t measured_to_ = 0;  // start positions in [search start, measured_to_) are measured

  // The state of the running search.
  bool capturing_ = false;               // finding the winner's path again, not measuring
  std::ptrdiff_t want_ = 0;              // capturing: the winner's length
  std::size_t want_start_ = 0;           // capturing: the winner's start
  std::ptrdiff_t bar_ = -1;              // measuring: the longest length known at an earlier start (-1: none)
  std::size_t at_ = 0;                   // measuring: the start position being measured
  bool at_valid_ = false;
  std::ptrdiff_t at_best_ = -1;          // its longest length so far
  std::size_t stopped_at_ = 0;           // the first start position the search has not measured
};

}  // namespace jview::filter::detail
