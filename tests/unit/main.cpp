// tests/unit/main.cpp: the doctest main of the single unit_tests binary (every tests/unit/**/*.cpp links into it).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
