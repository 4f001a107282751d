// cli/options.cpp: the one table of command-line options (CLI11), with jq's names and meanings, then the
// post-processing jq does itself: the first positional is the filter (unless -f), the rest are files, or
// positional arguments after --args / --jsonargs. A plain command line (positionals and boolean short flags only)
// is read without building CLI11's parser at all (parse_plain).
#include "cli/options.hpp"

// Start-up: CLI11's headers include <iostream>, whose every includer (with GCC 12's libstdc++) constructs a static
// std::ios_base::Init, which builds the eight standard streams and their locale before main: 0.1-0.2 ms of every
// run. jview never writes through std::cout or std::cerr (CLI11 would only in App::exit and for deprecated or retired
// options, none of which jview uses), so <iostream> is kept out: its include guard is defined and the four streams
// are declared as <iostream> declares them.
#if defined(__GLIBCXX__) && !defined(_GLIBCXX_IOSTREAM)
#include <istream>
#include <ostream>
#define _GLIBCXX_IOSTREAM 1
namespace std {  // NOLINT(cert-dcl58-cpp): the declarations of libstdc++'s <iostream>, nothing new
extern istream cin;
extern ostream cout;
extern ostream cerr;
extern ostream clog;
}  // namespace std
#endif
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "cli/exit_code.hpp"
#include "cli/help.hpp"
#include "cli/sink.hpp"

namespace jview::cli {

namespace {

// The option names the arguments could refer to, over-approximated: "--NAME" and "--NAME=..." name the long option
// NAME; "-xyz" may hold the short options x, y and z (a group of flags, or -Lvalue). An option outside this set can
// match no argument, so leaving it out of the parser changes nothing -- except --help, which lists them all.
class argv_names {
 public:
  argv_names(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
        longs_.push_back(a.substr(2, a.find('=') == std::string_view::npos ? std::string_view::npos : a.find('=') - 2));
      } else if (a.size() > 1 && a[0] == '-') {
        for (const char c : a.substr(1))
          if (static_cast<unsigned char>(c) < 128) shorts_[static_cast<unsigned char>(c)] = true;
      }
    }
    all_ = shorts_[static_cast<unsigned char>('h')] || std::find(longs_.begin(), longs_.end(), "help") != longs_.end();
  }
  // names: CLI11's "-x,--long" list.
  bool may_name(std::string_view names) const {
    if (all_) return true;
    while (!names.empty()) {
      const std::size_t comma = names.find(',');
      const std::string_view n = names.substr(0, comma);
      if (n.size() > 2 && n[1] == '-') {
        if (std::find(longs_.begin(), longs_.end(), n.substr(2)) != longs_.end()) return true;
      } else if (n.size() == 2 && shorts_[static_cast<unsigned char>(n[1])]) {
        return true;
      }
      names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    }
    return false;
  }

 private:
  std::vector<std::string_view> longs_;
  bool shorts_[128] = {};
  bool all_ = false;
};

}  // namespace

namespace {

// What the arguments said, before it becomes `options` (finish): the flags and values that are not options' fields
// themselves, and the positionals in order.
struct parsed {
  // compact and tab are only where -c and --tab land; the layout comes from last_layout.
  bool version = false, compact = false, tab = false, sort_keys = false, ascii = false, color_on = false,
       color_off = false, args_mode = false, jsonargs_mode = false, progress_on = false, progress_off = false;
  std::string indent_text = "2";  // --indent's argument as given (read by jq's rule in finish)
  int indent = 2;
  // The last of -c, --tab and --indent decides the layout, as in jq (`-c --tab` is pretty with tabs).
  enum class layout { pretty, compact, tab, indent } last_layout = layout::pretty;
  std::string numbers = "source";
  std::string check_format = "plain";
  std::string decompress = "auto";
  std::vector<std::string> positionals, arg_pairs, argjson_pairs, slurpfile_pairs, rawfile_pairs;
  // From scan_order: the named-argument options in command-line order, and for each positional whether --args (1)
  // or --jsonargs (2) came last before it (0: neither). Empty when the scan and CLI11 disagree on the positionals.
  std::vector<options::named_arg::kind> named_order;
  std::vector<int> positional_modes;
};

// Whether an option of the table takes a value (CLI11 gives a flag type size 1 and 0 values expected).
bool takes_value(const CLI::Option& opt) { return opt.get_items_expected_min() != 0; }

// The names of the options that take a value, from the option table as registered in `app` ("from-file", "f", ...).
struct value_options {
  std::vector<std::string> longs;
  std::string shorts;
  explicit value_options(const CLI::App& app) {
    for (const CLI::Option* opt : app.get_options()) {
      if (!takes_value(*opt)) continue;
      for (const std::string& n : opt->get_lnames()) longs.push_back(n);
      for (const std::string& n : opt->get_snames()) shorts += n;
    }
  }
  bool has_long(std::string_view name) const { return std::find(longs.begin(), longs.end(), name) != longs.end(); }
  bool has_short(char c) const { return shorts.find(c) != std::string::npos; }
};

// CLI11 gives each option's values apart; jq reads the command line in one pass, so the order of --arg and
// --argjson (for $ARGS.named) and where --args and --jsonargs switch (for each positional) come from this scan,
// which skips the values of the options that take one (`takes`, from the table). Its positionals are checked
// against CLI11's before they are used.
void scan_order(int argc, char** argv, const value_options& takes, parsed& p, std::vector<std::string>& positionals) {
  using k = options::named_arg::kind;
  int mode = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") {
      for (++i; i < argc; ++i) {
        positionals.emplace_back(argv[i]);
        p.positional_modes.push_back(mode);
      }
      break;
    }
    if (a.size() < 2 || a[0] != '-' || !(std::isalpha(static_cast<unsigned char>(a[1])) || a[1] == '-')) {
      positionals.emplace_back(a);
      p.positional_modes.push_back(mode);
      continue;
    }
    if (a[1] == '-') {
      const std::string_view name = a.substr(2, a.find('=') == std::string_view::npos ? std::string_view::npos
                                                                                        : a.find('=') - 2);
      const bool inline_value = a.find('=') != std::string_view::npos;
      if (name == "args") mode = 1;
      else if (name == "jsonargs") mode = 2;
      else if (name == "arg" || name == "argjson" || name == "slurpfile" || name == "rawfile") {
        p.named_order.push_back(name == "arg" ? k::string : name == "argjson" ? k::json
                                : name == "slurpfile" ? k::slurpfile : k::rawfile);
        i += inline_value ? 1 : 2;
      } else if (!inline_value && takes.has_long(name)) {
        ++i;
      }
      continue;
    }
    for (std::size_t j = 1; j < a.size(); ++j) {
      if (takes.has_short(a[j])) {  // the rest of the group is the value, else the next argument
        if (j + 1 == a.size()) ++i;
        break;
      }
    }
  }
}

// The boolean short flags (those with a long name too; -V and -h are not among them). A plain command line, of
// positionals and groups of these only ("-nr"), is read without CLI11 (parse_plain); parse_with_cli11 gives CLI11
// the same flags with their long names and help texts.
bool* short_flag(char letter, parsed& p, options& o) {
  switch (letter) {
    case 'c': return &p.compact;
    case 'n': return &o.null_input;
    case 's': return &o.slurp;
    case 'R': return &o.raw_input;
    case 'r': return &o.raw_output;
    case 'j': return &o.join_output;
    case 'a': return &p.ascii;
    case 'S': return &p.sort_keys;
    case 'C': return &p.color_on;
    case 'M': return &p.color_off;
    case 'e': return &o.exit_status;
    case 'i': return &o.in_place;
    default: return nullptr;
  }
}

// Start-up: a command line with no option, or only the flags above (`jview -c '.items[]' file`), is all that
// CLI11 would hand back untouched, and building its App (the C++ locale, a dozen std::function and string objects
// per option) took about 0.2 ms of a 3 ms run on the VMs we measure. False when any argument needs CLI11: a long
// option, "--", a flag with a value, an unknown letter (CLI11 then reports it), or an argument like "-1" or "-.",
// which CLI11 and jq take as a program.
bool parse_plain(int argc, char** argv, parsed& p, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.size() < 2 || a[0] != '-') continue;
    for (const char c : a.substr(1))
      if (short_flag(c, p, o) == nullptr) return false;
  }
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.size() < 2 || a[0] != '-') {
      p.positionals.emplace_back(a);
      continue;
    }
    for (const char c : a.substr(1)) {
      *short_flag(c, p, o) = true;
      if (c == 'c') p.last_layout = parsed::layout::compact;
    }
  }
  return true;
}

// The options the last parse_with_cli11 call registered that --help and the usage messages refer to.
struct table_handles {
  CLI::Option *compact = nullptr, *tab = nullptr, *indent = nullptr, *progress = nullptr, *no_progress = nullptr;
};

// The one option table: each option's names, placeholder, group (in --help's order) and text, and where its value
// goes. --help, the man page's test and the completions (dist/completions/generate.py) all read it through --help.
// Start-up: CLI11 compares each new option with every one added before it (two thirds of the instructions of
// `jview -n 1` went there for these 38 options), so only the options the arguments can name are added
// (argv_names); all of them for --help and for a mistyped option's suggestion.
void add_options(CLI::App& app, const argv_names& named, parsed& p, options& o, table_handles& h) {
  const char* group = "";
  auto in_group = [&](CLI::Option* opt) -> CLI::Option* { return opt ? opt->group(group) : nullptr; };
  auto flag = [&](const char* names, bool& var, const char* what) -> CLI::Option* {
    return in_group(named.may_name(names) ? app.add_flag(names, var, what) : nullptr);
  };
  auto option = [&](const char* names, const char* placeholder, auto& var, const char* what) -> CLI::Option* {
    CLI::Option* opt = in_group(named.may_name(names) ? app.add_option(names, var, what) : nullptr);
    // As jq: an option given twice takes its last value (a list option, -L or a pair, takes them all).
    return opt ? opt->type_name(placeholder)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast) : nullptr;
  };
  auto pairs = [&](const char* names, const char* placeholder, std::vector<std::string>& var, const char* what) {
    if (CLI::Option* opt = option(names, placeholder, var, what))
      opt->type_size(2)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  // A short flag's variable is short_flag's, so that both readings of the command line set the same one.
  auto short_bool = [&](const char* names, const char* what) -> CLI::Option* {
    return flag(names, *short_flag(names[1], p, o), what);
  };
  auto choice = [&](const char* names, const char* placeholder, std::string& var, const char* what,
                    std::vector<std::string> choices) {
    if (CLI::Option* opt = option(names, placeholder, var, what)) opt->check(CLI::IsMember(choices));
  };
  group = "Input";
  short_bool("-n,--null-input", "use null as the single input (read the inputs with input and inputs)");
  short_bool("-R,--raw-input", "each line of input is a string (with -s: the whole input is one)");
  short_bool("-s,--slurp", "read all inputs into one array, the single input");
  flag("--stream", o.stream, "read each input as [path, leaf] and [path] events, as jq --stream");
  flag("--stream-errors", o.stream_errors, "like --stream; a parse error is the event [message, path]");
  flag("--strict", o.parse.single_value, "each input must be exactly one JSON text (RFC 8259): none, or a second, "
       "is an error");
  option("--max-depth", "N", o.parse.max_depth, "the deepest nesting of input accepted (default 10000, as jq)");
  flag("--replace-invalid-utf8", o.parse.replace_invalid_utf8,
       "replace invalid UTF-8 in strings by U+FFFD, as jq does, instead of failing");
  choice("--decompress", "auto|never", p.decompress, "auto (the default): read gzip, zstd, xz and bzip2 input "
         "(told by its first bytes) decompressed; never: as it is", {"auto", "never"});
  flag("--lenient", o.lenient,
       "read input as jq 1.8 does: NaN, Infinity, 01, .5, 1., +1 and invalid UTF-8 (NaN: null, Infinity: the "
       "largest double); not with --stream");
  group = "Output";
  h.compact = short_bool("-c,--compact-output", "compact output: each value on one line");
  h.tab = flag("--tab", p.tab, "indent with one tab per level");
  h.indent = option("--indent", "N", p.indent_text, "indent with N spaces per level (0-7, default 2; -1: a tab)");
  short_bool("-r,--raw-output", "write strings without quotes and escapes");
  short_bool("-j,--join-output", "like -r, and no newline after each output");
  flag("--raw-output0", o.raw_output0, "like -r, and a NUL after each output");
  short_bool("-a,--ascii-output", "write non-ASCII characters as \\uXXXX escapes");
  short_bool("-S,--sort-keys", "sort the keys of every object");
  short_bool("-C,--color-output", "colour the output (JQ_COLORS sets the colours)");
  short_bool("-M,--monochrome-output", "no colour (the default when stdout is not a terminal)");
  choice("--numbers", "source|shortest", p.numbers, "input numbers as written (source, the default) or as the "
         "shortest text of their double (shortest, as jq 1.6)", {"source", "shortest"});
  flag("--seq", o.seq, "write a RS (0x1e) before each output (RFC 7464)");
  flag("--unbuffered", o.unbuffered, "flush after each output");
  short_bool("-i,--in-place", "rewrite each FILE with the program's output for it (exactly one value)");
  group = "Program and variables";
  option("-f,--from-file", "FILE", o.from_file, "read FILTER from FILE; then every argument is a FILE");
  if (CLI::Option* opt = option("-L,--library-path", "DIR", o.library_paths, "search DIR for modules (import)"))
    opt->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  pairs("--arg", "NAME VALUE", p.arg_pairs, "$NAME is the string VALUE");
  pairs("--argjson", "NAME JSON", p.argjson_pairs, "$NAME is the JSON value JSON");
  pairs("--slurpfile", "NAME FILE", p.slurpfile_pairs, "$NAME is the array of the JSON values in FILE");
  pairs("--rawfile", "NAME FILE", p.rawfile_pairs, "$NAME is the text of FILE");
  flag("--args", p.args_mode, "the arguments after FILTER are strings, in $ARGS.positional");
  flag("--jsonargs", p.jsonargs_mode, "the arguments after FILTER are JSON values, in $ARGS.positional");
  short_bool("-e,--exit-status", "exit 1 if the last output is false or null, 4 if there is none");
  group = "Validation (no FILTER: every argument is a FILE)";
  flag("--check", o.check, "validate JSON files: one FILE:LINE:COLUMN: error: MESSAGE line per problem, on stdout");
  flag("--utf8", o.utf8, "validate any files as strict UTF-8");
  flag("--check-formatted", o.check_formatted,
       "list the files whose bytes differ from what `jview .` writes with these output options");
  choice("--check-format", "plain|github|json", p.check_format,
         "how the three above write problems: plain (FILE:LINE:COLUMN: error: MESSAGE, columns in characters), "
         "github (::error annotations) or json (one object a line)", {"plain", "github", "json"});
  group = "Performance";
  option("--kernels", "LEVEL", o.kernels,
         "use the kernels up to LEVEL: auto, portable, sse2, ssse3, avx2, avx512 or neon (also: JVIEW_KERNELS)");
  flag("--no-simd", o.no_simd, "the portable kernels (--kernels portable; also: JVIEW_NO_SIMD=1)");
  flag("--force-ssse3", o.force_ssse3, "the SSSE3 kernels without asking the CPU (without SSSE3: SIGILL)");
  option("--threads", "N", o.threads, "evaluate on N threads, output as with one (0, the default: JVIEW_THREADS, "
         "else the CPUs this process may use, at most 8)");
  h.progress = flag("--progress", p.progress_on, "show a progress line on stderr (default: on a terminal, when "
                    "the input is large)");
  h.no_progress = flag("--no-progress", p.progress_off, "never show the progress line");
  group = "Help";
  app.set_help_flag("-h,--help", "show this help")->group(group);
  flag("-V,--version", p.version, "print the version and the kernels chosen for this CPU");
}

// Every long option of the table (for a mistyped one's suggestion).
std::vector<std::string> long_options() {
  CLI::App app;
  char arg0[] = "jview", arg1[] = "--help";
  char* argv[] = {arg0, arg1};
  parsed p;
  options o;
  table_handles h;
  add_options(app, argv_names(2, argv), p, o, h);
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
  return names;
}

// An option's placeholder ("N", "NAME VALUE", "source|shortest"): its type name without the ":{...}" that CLI11
// appends for a check.
std::string placeholder(const CLI::Option& opt) {
  const std::string t = opt.get_type_name();
  return t.substr(0, t.find(':'));
}

// The table's entries in --help's layout (cli/help.cpp).
std::vector<help_entry> help_entries(const CLI::App& app) {
  std::vector<help_entry> entries;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_lnames().empty()) continue;
    help_entry e;
    e.group = opt->get_group();
    if (!opt->get_snames().empty()) e.short_name = "-" + opt->get_snames()[0];
    e.long_name = "--" + opt->get_lnames()[0];
    if (takes_value(*opt)) e.placeholder = placeholder(*opt);
    e.description = opt->get_description();
    entries.push_back(std::move(e));
  }
  return entries;
}

// COLUMNS when it is a number (as a terminal's shell sets it), else 80.
int help_width() {
  const char* c = std::getenv("COLUMNS");
  const int w = c != nullptr ? std::atoi(c) : 0;
  return w > 0 ? w : 80;
}

// jq's message for an unknown option, and the nearest known one on a second line when one is close.
int unknown_option(std::string_view a) {
  std::string hint;
  if (a.size() > 2 && a[1] == '-') {
    const std::string near = nearest_option(a.substr(0, a.find('=')), long_options());
    if (!near.empty()) hint = "did you mean " + near + "?\n";
  }
  eprint("jview: error: Unknown option: {}\n{}Use jview --help for help with command-line options.\n", a, hint);
  return exit_usage;
}

// A usage error's text: jq's words for an option without its value(s) ("--arg takes two parameters (e.g. --arg
// NAME VALUE)"), CLI11's for the rest ("--numbers: fast not in {source,shortest}").
std::string usage_message(const CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const std::string name = what.substr(0, what.find(':'));
    for (const CLI::Option* opt : app.get_options()) {
      if (opt->get_lnames().empty() || "--" + opt->get_lnames()[0] != name) continue;
      return opt->get_type_size() == 2
                 ? name + " takes two parameters (e.g. " + name + " " + placeholder(*opt) + ")"
                 : name + " takes one parameter (" + name + " " + placeholder(*opt) + ")";
    }
  }
  return what;
}

// CLI11 over the whole option table. -1: go on; else the exit status (help printed, or a usage error).
int parse_with_cli11(int argc, char** argv, parsed& p, options& o) {
  CLI::App app{"jview: a jq-compatible JSON processor over a zero-copy view", "jview"};
  app.set_help_flag();
  table_handles h;
  add_options(app, argv_names(argc, argv), p, o, h);
  // FILTER and FILEs are taken from CLI11's remaining arguments, untouched: a CLI11 positional option would split an
  // argument that looks like "[a,b]" at its commas, and jq filters ('[1,2] | .[]') look exactly like that.
  // allow_extra_args(false) on the options above does the same for their values (--argjson x '[1,2]').
  app.allow_extras(true);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(help_text(help_entries(app), help_width()).c_str(), stdout);
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    eprint("jview: error: {}\nUse jview --help for help with command-line options.\n", usage_message(app, e));
    return exit_usage;
  }
  std::vector<std::string> scanned;
  scan_order(argc, argv, value_options(app), p, scanned);
  bool after_dashes = false;
  for (const std::string& a : app.remaining()) {
    if (!after_dashes && a == "--") {
      after_dashes = true;
      continue;
    }
    // jq takes "-X" as an option only when X is a letter or '-': "-1", "-.", "-(1)" are programs.
    const bool optionlike = a.size() > 1 && a[0] == '-' && (std::isalpha(static_cast<unsigned char>(a[1])) || a[1] == '-');
    if (!after_dashes && optionlike) return unknown_option(a);
    p.positionals.push_back(a);
  }
  if (scanned != p.positionals) p.positional_modes.clear();  // (CLI11 read the line otherwise: final modes)
  const std::size_t pairs_given = (p.arg_pairs.size() + p.argjson_pairs.size() + p.slurpfile_pairs.size() +
                                   p.rawfile_pairs.size()) / 2;
  if (p.named_order.size() != pairs_given) p.named_order.clear();
  for (const CLI::Option* opt : app.parse_order()) {
    if (opt == h.compact)
      p.last_layout = parsed::layout::compact;
    else if (opt == h.tab)
      p.last_layout = parsed::layout::tab;
    else if (opt == h.indent)
      p.last_layout = parsed::layout::indent;
    else if (opt == h.progress || opt == h.no_progress)
      o.progress = opt == h.progress ? 1 : 0;  // the last of the two wins
  }
  return -1;
}

// The rest, as jq does it: the first positional is the filter (unless -f), the others files or $ARGS.positional.
int finish(parsed& p, options& o) {
  if (p.version) {
    o.version = true;
    return -1;
  }
  // jq 1.8's rule: an optional sign and decimal digits, nothing else, from -1 to 7 ("abc", "1.5", " 3", "" fail).
  const std::string& t = p.indent_text;
  const std::size_t digits = t.find_first_not_of("+-") == 1 ? 1 : 0;
  const bool number = t.size() > digits && t.size() <= digits + 9 &&
                      t.find_first_not_of("0123456789", digits) == std::string::npos;
  p.indent = number ? std::stoi(t) : -2;
  if (p.indent < -1 || p.indent > 7) {
    eprint("jview: error: --indent takes a number between -1 and 7\nUse jview --help for help with command-line options.\n");
    return exit_usage;
  }
  const bool compact = p.last_layout == parsed::layout::compact;
  const bool tab = p.last_layout == parsed::layout::tab ||
                   (p.last_layout == parsed::layout::indent && p.indent == -1);  // jq 1.8: --indent -1 is --tab
  o.write.pretty = !compact;
  o.write.indent = p.indent < 0 ? 1 : p.indent;  // (--indent -1: tabs)
  o.write.tab = tab;
  o.write.sort_keys = p.sort_keys;
  o.write.ascii = p.ascii;
  o.write.numbers = p.numbers == "shortest" ? number_mode::shortest : number_mode::source;
  o.color = p.color_off ? 0 : p.color_on ? 1 : -1;  // -M wins over -C in either order (jq 1.8)
  o.check_format = p.check_format == "github" ? report_format::github
                   : p.check_format == "json" ? report_format::json
                                              : report_format::plain;
  o.parse.decompress = p.decompress == "auto";
  if (o.join_output || o.raw_output0) o.raw_output = true;
  if (o.stream_errors) o.stream = true;
  // The named arguments in command-line order (scan_order), else kind by kind.
  using k = options::named_arg::kind;
  if (p.named_order.empty()) {
    for (std::size_t i = 0; i < p.arg_pairs.size() / 2; ++i) p.named_order.push_back(k::string);
    for (std::size_t i = 0; i < p.argjson_pairs.size() / 2; ++i) p.named_order.push_back(k::json);
    for (std::size_t i = 0; i < p.slurpfile_pairs.size() / 2; ++i) p.named_order.push_back(k::slurpfile);
    for (std::size_t i = 0; i < p.rawfile_pairs.size() / 2; ++i) p.named_order.push_back(k::rawfile);
  }
  std::size_t next[4] = {0, 0, 0, 0};
  for (const k kind : p.named_order) {
    const std::vector<std::string>& v = kind == k::string ? p.arg_pairs : kind == k::json ? p.argjson_pairs
                                        : kind == k::slurpfile ? p.slurpfile_pairs : p.rawfile_pairs;
    std::size_t& n = next[static_cast<int>(kind)];
    if (n + 1 < v.size()) o.named_args.push_back({kind, v[n], v[n + 1]});
    n += 2;
  }

  std::size_t first_file = 0;
  if (o.check || o.utf8 || o.check_formatted) {
    first_file = 0;
  } else if (o.from_file.empty()) {
    if (!p.positionals.empty()) {
      o.filter = p.positionals[0];
      first_file = 1;
    } else if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
      eprint("Usage: jview [OPTIONS] FILTER [FILE...]\nUse jview --help for help with command-line options.\n");
      return exit_usage;
    }  // else no filter in a pipeline: `.`, as jq
  }
  // Each positional after the filter is a file, or a positional argument when --args or --jsonargs came before it
  // (the last of them decides, as jq reads the line).
  const int fallback = p.args_mode ? 1 : p.jsonargs_mode ? 2 : 0;  // (no scan: the flags alone)
  for (std::size_t i = first_file; i < p.positionals.size(); ++i) {
    const int mode = i < p.positional_modes.size() ? p.positional_modes[i] : fallback;
    if (mode == 1)
      o.positional_args.push_back({p.positionals[i], false});
    else if (mode == 2)
      o.positional_args.push_back({p.positionals[i], true});
    else
      o.files.push_back(p.positionals[i]);
  }
  return -1;
}

}  // namespace

int parse_command_line(int argc, char** argv, options& o) {
  parsed p;
  if (!parse_plain(argc, argv, p, o)) {  // (it changes nothing when it returns false)
    const int status = parse_with_cli11(argc, argv, p, o);
    if (status >= 0) return status;
  }
  return finish(p, o);
}

}  // namespace jview::cli
