// tests/unit/test_data.hpp: the data files of the data-driven unit tests. The shared data (../shared: the benchmark
// corpus and JSONTestSuite; JVIEW_SHARED_DIR at build time, $JVIEW_SHARED at run time) may be missing from a
// clone: a test then prints `SKIPPED: <what>: <reason>` (collected by tests/skip_summary.py) and runs on the
// project's own data only: tests/conformance/cases/, corpus/samples/ and the generated corpus (corpus/gen_own.py,
// JVIEW_OWN_CORPUS_DIR, when the build defines it).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#ifndef JVIEW_SHARED_DIR
#define JVIEW_SHARED_DIR "../shared"
#endif

namespace jview::test {

inline std::filesystem::path shared_dir() {
  const char* env = std::getenv("JVIEW_SHARED");
  return env != nullptr && *env != '\0' ? std::filesystem::path(env) : std::filesystem::path(JVIEW_SHARED_DIR);
}

// shared_dir()/rel when it is a directory; otherwise an empty path, after a SKIPPED line naming what is skipped.
inline std::filesystem::path shared_subdir(const char* rel, const char* what) {
  const std::filesystem::path root = shared_dir();
  const std::filesystem::path dir = root / rel;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return dir;
  if (std::filesystem::is_directory(root, ec))
    std::printf("SKIPPED: %s: %s missing\n", what, dir.c_str());
  else
    std::printf("SKIPPED: %s: %s missing: no shared data at %s\n", what, dir.c_str(), root.c_str());
  std::fflush(stdout);
  return {};
}

// The .json and .ndjson files (regular, sorted) directly in dir; none when dir is empty or missing.
inline std::vector<std::filesystem::path> json_files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".json" || e.path().extension() == ".ndjson"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The project's own documents: its conformance cases (y_, n_, i_), the samples and the generated corpus.
inline std::vector<std::filesystem::path> own_json_files() {
  std::vector<std::filesystem::path> files;
#ifdef JVIEW_SOURCE_DIR
  for (const char* rel : {"tests/conformance/cases", "corpus/samples"})
    for (auto& f : json_files_in(std::filesystem::path(JVIEW_SOURCE_DIR) / rel)) files.push_back(std::move(f));
#endif
#ifdef JVIEW_OWN_CORPUS_DIR
  for (auto& f : json_files_in(JVIEW_OWN_CORPUS_DIR)) files.push_back(std::move(f));
#endif
  return files;
}

// Whether the shared data's corpus and JSONTestSuite are both present (the counts the tests expect of them).
inline bool have_shared() {
  std::error_code ec;
  return std::filesystem::is_directory(shared_dir() / "corpus", ec) &&
         std::filesystem::is_directory(shared_dir() / "conformance/JSONTestSuite/test_parsing", ec);
}

}  // namespace jview::test
