// cli/help.hpp: `jview --help` for people, laid out from the option table's entries (cli/options.cpp hands them
// over; the group, the placeholder and the text of each option are the table's), and the nearest known option to a
// mistyped one ("did you mean --compact-output?"). Nothing here knows CLI11.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace jview::cli {

struct help_entry {
  std::string group;        // "Input", "Output", ...: groups are shown in the order of their first entry
  std::string short_name;   // "-c" or empty
  std::string long_name;    // "--compact-output"
  std::string placeholder;  // "N", "NAME VALUE", "source|shortest" or empty (a flag)
  std::string description;
};

// The whole help text, every line at most `width` columns (COLUMNS, default 80; at least 70).
std::string help_text(const std::vector<help_entry>& entries, int width);

// The known long option closest to `typed` ("--compat" -> "--compact-output"): the one it begins, else the one a
// few edits away, else the one whose beginning is one edit away; empty when none is close or two are as close.
std::string nearest_option(std::string_view typed, const std::vector<std::string>& known);

}  // namespace jview::cli
