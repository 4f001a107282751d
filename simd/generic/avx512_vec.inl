// simd/generic/avx512_vec.inl: the v_* vector primitives of simd/generic/utf8_lookup.inl for AVX-512 (64-byte
// vectors), shared by the UTF-8 kernel (avx512.cpp) and the stage-1 kernel (structural_avx512.cpp). Included inside
// an anonymous namespace after JVIEW_KERNEL_INLINE is defined with the including file's target attribute.
using vec = __m512i;
inline constexpr std::size_t k_vec_bytes = 64;

JVIEW_KERNEL_INLINE vec v_load(const unsigned char* p) { return _mm512_loadu_si512(p); }
JVIEW_KERNEL_INLINE vec v_splat(unsigned char c) { return _mm512_set1_epi8(static_cast<char>(c)); }
// VPSHUFB looks up within each 128-bit lane, so the 16-entry table goes in all four lanes. (The maskz forms with an
// all-ones mask compile to the same instructions and avoid GCC 12's false -Wmaybe-uninitialized on the plain ones.)
JVIEW_KERNEL_INLINE vec v_table(const unsigned char (&t)[16]) {
  return _mm512_maskz_broadcast_i32x4(0xffff, _mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}
JVIEW_KERNEL_INLINE vec v_or(vec a, vec b) { return _mm512_or_si512(a, b); }
JVIEW_KERNEL_INLINE vec v_and(vec a, vec b) { return _mm512_and_si512(a, b); }
JVIEW_KERNEL_INLINE vec v_xor(vec a, vec b) { return _mm512_xor_si512(a, b); }
JVIEW_KERNEL_INLINE vec v_subs(vec a, vec b) { return _mm512_subs_epu8(a, b); }
// No byte shift on x86: shift 16-bit lanes and mask off the bits that crossed from the neighbour byte.
JVIEW_KERNEL_INLINE vec v_high_nibble(vec v, vec nibble) { return _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble); }
JVIEW_KERNEL_INLINE vec v_lookup(vec table, vec idx) { return _mm512_shuffle_epi8(table, idx); }
// VPALIGNR works per 128-bit lane: VALIGND first builds [prev lane 3, cur lanes 0..2], then each lane is aligned
// against its left neighbour.
template <int N>
JVIEW_KERNEL_INLINE vec v_prev(vec cur, vec prev) {
  return _mm512_alignr_epi8(cur, _mm512_maskz_alignr_epi32(0xffff, cur, prev, 12), 16 - N);
}
JVIEW_KERNEL_INLINE bool v_any(vec v) { return _mm512_test_epi8_mask(v, v) != 0; }
JVIEW_KERNEL_INLINE bool v_ascii(vec v) { return _mm512_movepi8_mask(v) == 0; }
