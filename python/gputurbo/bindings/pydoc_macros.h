/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_PYDOC_MACROS_H
#define INCLUDED_GPUTURBO_PYDOC_MACROS_H

// DOC(gr, gputurbo, cls) and DOC(gr, gputurbo, cls, member) name the docstrings
// __doc_gr_gputurbo_cls and __doc_gr_gputurbo_cls_member of the generated *_pydoc.h
// headers, as in GNU Radio's own bindings.
#define GPUTURBO_PYDOC_EXPAND(x) x
#define GPUTURBO_PYDOC_COUNT(_1, _2, _3, _4, N, ...) N
#define GPUTURBO_PYDOC_SIZE(...)                                                         \
    GPUTURBO_PYDOC_EXPAND(GPUTURBO_PYDOC_COUNT(__VA_ARGS__, 4, 3, 2, 1))
#define GPUTURBO_PYDOC_CAT(a, b) a##b
#define GPUTURBO_PYDOC_CAT2(a, b) GPUTURBO_PYDOC_CAT(a, b)
#define GPUTURBO_PYDOC_NAME3(a, b, c) __doc_##a##_##b##_##c
#define GPUTURBO_PYDOC_NAME4(a, b, c, d) __doc_##a##_##b##_##c##_##d
#define DOC(...)                                                                         \
    GPUTURBO_PYDOC_EXPAND(GPUTURBO_PYDOC_CAT2(                                           \
        GPUTURBO_PYDOC_NAME, GPUTURBO_PYDOC_SIZE(__VA_ARGS__))(__VA_ARGS__))

#endif /* INCLUDED_GPUTURBO_PYDOC_MACROS_H */
