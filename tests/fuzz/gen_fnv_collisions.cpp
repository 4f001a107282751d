// tests/fuzz/gen_fnv_collisions.cpp: the colliding keys of the hash-flooding cases in hostile_tests.py, made
// against the key hash jview used before issue 25 (unseeded 64-bit FNV-1a; slot = (h ^ h >> 32) or (h ^ h >> 29)
// masked, linear probing). Such a slot depends only on the low 50 bits of h, and FNV-1a's steps (xor a byte,
// multiply) keep the low 50 bits a function of the low 50 bits. So two 9-character blocks that give the same low
// 50 bits from the same state can be swapped for each other in any key: 17 such pairs, one after the other, give
// 2^17 = 131,072 keys of 153 characters that all fall into one slot of any table up to 2^50 slots.
// Each pair is a collision of a 50-bit function, found by Pollard's rho (Floyd's cycle finding: about 2^26
// evaluations, no memory). Prints the pairs, one line each: "A B". About a minute on one core.
//   g++ -O2 -std=c++20 -o gen tests/fuzz/gen_fnv_collisions.cpp && ./gen > pairs.txt
#include <cstdint>
#include <cstdio>
#include <string>

namespace {

constexpr std::uint64_t k_mask = (std::uint64_t{1} << 50) - 1;
constexpr std::uint64_t k_prime = 0x100000001b3ull;
constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

void block(std::uint64_t x, char out[9]) {
  for (int j = 0; j < 9; ++j) out[j] = k_alphabet[(x >> (6 * j)) & 63];
}

std::uint64_t step(std::uint64_t state, std::uint64_t x) {
  char b[9];
  block(x, b);
  for (char c : b) state = ((state ^ static_cast<unsigned char>(c)) * k_prime) & k_mask;
  return state;
}

}  // namespace

int main() {
  std::uint64_t state = 0xcbf29ce484222325ull & k_mask;  // FNV-1a's offset basis
  std::uint64_t start = 1;
  for (int pair = 0; pair < 17;) {
    auto f = [&](std::uint64_t x) { return step(state, x); };
    std::uint64_t tortoise = f(start), hare = f(f(start));
    while (tortoise != hare) {
      tortoise = f(tortoise);
      hare = f(f(hare));
    }
    tortoise = start;
    if (tortoise == hare) {  // the start is on the cycle: no collision from it
      ++start;
      continue;
    }
    while (f(tortoise) != f(hare)) {
      tortoise = f(tortoise);
      hare = f(hare);
    }
    char a[10] = {}, b[10] = {};
    block(tortoise, a);
    block(hare, b);
    std::printf("%s %s\n", a, b);
    std::fflush(stdout);
    state = f(tortoise);
    ++pair;
    start = state + 1;
  }
  return 0;
}
