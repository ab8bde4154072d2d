/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CUDA_CODES_CUH
#define INCLUDED_GPUTURBO_CONV_CUDA_CODES_CUH

// The codes as the CUDA kernels of the convolutional family see them (the Viterbi's and
// the BCJR's): a preset's, known when compiling, or any code's, read from the launch's
// trellis; and the choice of the kernels' code type for a trellis. Internal linkage:
// each kernel file has its own copy.

#include "../presets.h"
#include "viterbi_kernel.cuh"

#include <stdexcept>
#include <string>
#include <utility>

namespace gputurbo::conv::cuda {
namespace {

// The coded bits of register contents \p reg (current input at bit K-1) under
// generators \p g, without inversions: the kernels negate an inverted output's LLR.
__host__ __device__ constexpr unsigned
coded_bits(const unsigned* g, int outputs, unsigned reg)
{
    unsigned bits = 0;
    for (int o = 0; o < outputs; ++o) {
        unsigned x = reg & g[o], parity = 0;
        for (; x; x &= x - 1)
            parity ^= 1u;
        bits |= parity << o;
    }
    return bits;
}

// The branch p_b -> ns, p_b = ((ns << 1) & (S - 1)) | b: its register contents.
__host__ __device__ constexpr unsigned branch_register(int K, int ns, int b)
{
    const int S = 1 << (K - 1);
    return unsigned(ns >> (K - 2)) << (K - 1) | unsigned(((ns << 1) & (S - 1)) | b);
}

// A preset's code (presets.h), known when compiling: its branch metrics are registers.
// Symmetric when every generator taps the current and the oldest bit: a butterfly's
// four branches then carry beta, -beta, -beta, beta.
template <int K_, int N_, unsigned G0, unsigned G1, unsigned G2, unsigned G3>
struct fixed_trellis
{
    static constexpr int K = K_;
    static constexpr int N = N_;
    static constexpr unsigned taps = 1u | 1u << (K - 1);
    static constexpr bool symmetric = (G0 & taps) == taps && (G1 & taps) == taps &&
                                      (N < 3 || (G2 & taps) == taps) &&
                                      (N < 4 || (G3 & taps) == taps);
    template <int ns, int b>
    __device__ static constexpr unsigned branch()
    {
        constexpr unsigned g[4] = { G0, G1, G2, G3 };
        return coded_bits(g, N, branch_register(K, ns, b));
    }
    __device__ static unsigned branch(const trellis& t, int ns, int b)
    {
        return t.branch_outputs[2 * ns + b];
    }
    //! branch<ns, b>() where ns and b become constants only as loops are unrolled: in
    //! a form the compiler folds then (a population count a bit), so that arrays
    //! indexed by it stay in registers.
    __device__ static unsigned pattern(const trellis&, int ns, int b)
    {
        const unsigned reg = branch_register(K, ns, b);
        unsigned bits = 0;
#pragma unroll
        for (int o = 0; o < N; ++o) {
            const unsigned g = o == 0 ? G0 : o == 1 ? G1 : o == 2 ? G2 : G3;
            bits |= unsigned(__popc(reg & g) & 1) << o;
        }
        return bits;
    }
};

template <int P>
using preset_trellis = fixed_trellis<preset_codes[P].constraint,
                                     preset_codes[P].outputs,
                                     preset_codes[P].polynomials[0],
                                     preset_codes[P].polynomials[1],
                                     preset_codes[P].polynomials[2],
                                     preset_codes[P].polynomials[3]>;

// Any code: its branches read from the launch's table.
template <int K_, int N_>
struct any_trellis
{
    static constexpr int K = K_;
    static constexpr int N = N_;
    static constexpr bool symmetric = false;
    __device__ static unsigned branch(const trellis& t, int ns, int b)
    {
        return t.branch_outputs[2 * ns + b];
    }
    __device__ static unsigned pattern(const trellis& t, int ns, int b)
    {
        return branch(t, ns, b);
    }
};

// Whether preset P has a kernel of its own: K <= 7 (larger codes keep their metrics in
// memory, where folding the branches gains little), and no earlier preset with the same
// polynomials.
template <int P>
constexpr bool has_own_kernel()
{
    const preset_code& p = preset_codes[P];
    bool own = p.constraint <= 7;
    for (int i = 0; own && i < P; ++i) {
        bool same = preset_codes[i].constraint == p.constraint &&
                    preset_codes[i].outputs == p.outputs;
        for (int o = 0; same && o < p.outputs; ++o)
            same = preset_codes[i].polynomials[o] == p.polynomials[o];
        own = !same;
    }
    return own;
}

template <int P>
bool is_preset(const trellis& t)
{
    const preset_code& p = preset_codes[P];
    if (t.constraint != p.constraint || t.outputs != p.outputs)
        return false;
    for (int o = 0; o < p.outputs; ++o)
        if (t.polynomials[o] != p.polynomials[o])
            return false;
    return true;
}

//! The type Tr of a code, as a value.
template <class Tr>
struct code_tag
{
    using type = Tr;
};

// use(code_tag<Tr>{}) with the first preset of t's polynomials that has a kernel of its
// own, if one has.
template <class Use, int... P>
bool with_preset(const trellis& t, const Use& use, std::integer_sequence<int, P...>)
{
    bool found = false;
    ((!found && has_own_kernel<P>() && is_preset<P>(t)
          ? (use(code_tag<preset_trellis<(has_own_kernel<P>() ? P : 0)>>{}), found = true)
          : false),
     ...);
    return found;
}

template <int K, class Use>
void with_any(const trellis& t, const char* caller, const Use& use)
{
    switch (t.outputs) {
    case 2:
        return use(code_tag<any_trellis<K, 2>>{});
    case 3:
        return use(code_tag<any_trellis<K, 3>>{});
    case 4:
        return use(code_tag<any_trellis<K, 4>>{});
    }
    throw std::logic_error(std::string(caller) + ": " + std::to_string(t.outputs) +
                           " outputs");
}

// use(code_tag<Tr>{}) with the kernels' type Tr of t's code: its preset's, or any code's
// of its K and outputs. \p caller names the launcher in errors.
template <class Use>
void with_code(const trellis& t, const char* caller, const Use& use)
{
    if (with_preset(t, use, std::make_integer_sequence<int, preset_count>{}))
        return;
    switch (t.constraint) {
    case 3:
        return with_any<3>(t, caller, use);
    case 4:
        return with_any<4>(t, caller, use);
    case 5:
        return with_any<5>(t, caller, use);
    case 6:
        return with_any<6>(t, caller, use);
    case 7:
        return with_any<7>(t, caller, use);
    case 8:
        return with_any<8>(t, caller, use);
    case 9:
        return with_any<9>(t, caller, use);
    }
    throw std::logic_error(std::string(caller) + ": constraint length " +
                           std::to_string(t.constraint));
}
} // namespace
} // namespace gputurbo::conv::cuda

#endif
