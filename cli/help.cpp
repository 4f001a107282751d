// cli/help.cpp: the help text (usage, the option groups with their texts wrapped to the width, examples, where the
// language is documented, exit statuses) and the nearest option to a mistyped one. The entries come from the one
// option table (cli/options.cpp); this file adds only the prose around them.
#include "cli/help.hpp"

#include <algorithm>
#include <cstddef>

#include "core/edit_distance.hpp"

namespace jview::cli {

namespace {

constexpr std::size_t names_column = 28;     // where the descriptions start, as in jq's help
constexpr std::size_t examples_column = 46;  // where an example's explanation starts

// Appends text wrapped at width, each line starting at column indent (the first at the current column `at`).
void wrap(std::string& out, std::string_view text, std::size_t indent, std::size_t width, std::size_t at) {
  std::size_t col = at;
  bool first = true;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (!first && col + 1 + word.size() > width) {
      out += '\n';
      out.append(indent, ' ');
      col = indent;
    } else if (!first) {
      out += ' ';
      ++col;
    }
    out += word;
    col += word.size();
    first = false;
  }
  out += '\n';
}

constexpr std::string_view usage =
    "Usage: jview [OPTIONS] FILTER [FILE...]\n"
    "       jview [OPTIONS] --args|--jsonargs FILTER [ARG...]\n"
    "       jview --check|--utf8|--check-formatted [OPTIONS] FILE...\n"
    "\n";

constexpr std::string_view intro =
    "jview runs the jq program FILTER on each JSON value of the FILEs (or of standard input) and writes the "
    "results as JSON. FILTER is jq's language, as jq 1.8's manual describes it (https://jqlang.org/manual/, "
    "man jq); where jview differs from jq: man jview.";

struct example {
  std::string_view command, what;
};
constexpr example examples[] = {
    {"jview . data.json", "pretty-print"},
    {"jview -c '.items[] | {id, name}' data.json", "pick fields, one line per item"},
    {"jview -i '.version = \"1.2.3\"' package.json", "edit a file in place"},
    {"jview --check --check-format=github *.json", "validate files in CI"},
};

constexpr std::string_view exit_statuses =
    "Exit status: 0 success, 1 the last output false or null with -e (or a file failed a check), 2 a usage or "
    "system error, 3 FILTER does not compile, 4 no output with -e, 5 a runtime error or invalid JSON input.";

}  // namespace

std::string help_text(const std::vector<help_entry>& entries, int width_in) {
  const std::size_t width = static_cast<std::size_t>(std::max(width_in, 70));
  std::string out(usage);
  wrap(out, intro, 0, width, 0);
  std::vector<std::string> groups;
  for (const help_entry& e : entries)
    if (std::find(groups.begin(), groups.end(), e.group) == groups.end()) groups.push_back(e.group);
  for (const std::string& g : groups) {
    out += '\n';
    out += g;
    out += ":\n";
    for (const help_entry& e : entries) {
      if (e.group != g) continue;
      std::string names = e.short_name.empty() ? "      " : "  " + e.short_name + ", ";
      names += e.long_name;
      if (!e.placeholder.empty()) names += " " + e.placeholder;
      out += names;
      if (names.size() + 2 > names_column) {  // the text on the next line, at the column
        out += '\n';
        out.append(names_column, ' ');
      } else {
        out.append(names_column - names.size(), ' ');
      }
      wrap(out, e.description, names_column, width, names_column);
    }
  }
  out += "\nExamples:\n";
  for (const example& ex : examples) {
    std::string line = "  ";
    line += ex.command;
    if (std::max<std::size_t>(line.size() + 2, examples_column) + ex.what.size() <= width) {
      line.append(std::max<std::size_t>(line.size() + 2, examples_column) - line.size(), ' ');
      out += line;
      out += ex.what;
      out += '\n';
    } else {
      out += line;
      out += "\n      ";
      out += ex.what;
      out += '\n';
    }
  }
  out += '\n';
  wrap(out, exit_statuses, 0, width, 0);
  return out;
}

std::string nearest_option(std::string_view typed, const std::vector<std::string>& known) {
  if (typed.size() < 3) return {};
  // The shortest option that typed begins, if it begins all the others typed begins ("--raw-out": --raw-output,
  // not --raw-output0); none when they part ("--raw": --raw-input or --raw-output).
  std::string shortest;
  for (const std::string& k : known)
    if (k.size() > typed.size() && k.compare(0, typed.size(), typed) == 0 &&
        (shortest.empty() || k.size() < shortest.size()))
      shortest = k;
  if (!shortest.empty()) {
    for (const std::string& k : known)
      if (k.size() > typed.size() && k.compare(0, typed.size(), typed) == 0 && k.compare(0, shortest.size(), shortest))
        return {};
    return shortest;
  }
  // Then the one at the smallest edit distance, if that is small for the length and no other is as close: at most
  // 1 edit in a short name ("--tabs"), 2 from 8 characters, 3 from 14 ("--compact-ouput"); then the one whose
  // beginning is 1 edit from typed ("--compat": --compact-output).
  const std::size_t allowed = typed.size() >= 14 ? 3 : typed.size() >= 8 ? 2 : 1;
  auto unique_best = [&](auto measure, std::size_t limit) {
    std::string best;
    std::size_t best_d = limit + 1;
    bool tie = false;
    for (const std::string& k : known) {
      const std::size_t d = measure(k);
      if (d < best_d) {
        best = k;
        best_d = d;
        tie = false;
      } else if (d == best_d) {
        tie = true;
      }
    }
    return best_d <= limit && !tie ? best : std::string();
  };
  std::string best = unique_best([&](const std::string& k) { return edit_distance(typed, k); }, allowed);
  if (best.empty() && typed.size() >= 6)
    best = unique_best(
        [&](const std::string& k) {
          std::size_t d = typed.size();
          for (std::size_t len = typed.size() - 1; len <= typed.size() + 1 && len < k.size(); ++len)
            d = std::min(d, edit_distance(typed, std::string_view(k).substr(0, len)));
          return d;
        },
        1);
  return best;
}

}  // namespace jview::cli
