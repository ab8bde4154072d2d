/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_API_H
#define INCLUDED_GPUTURBO_API_H

#include <gnuradio/attributes.h>

#ifdef gnuradio_gputurbo_EXPORTS
#define GPUTURBO_API __GR_ATTR_EXPORT
#else
#define GPUTURBO_API __GR_ATTR_IMPORT
#endif

#endif /* INCLUDED_GPUTURBO_API_H */
