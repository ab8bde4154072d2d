/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/version.h>

#ifndef GPUTURBO_VERSION
#error "the build passes GPUTURBO_VERSION (PROJECT_VERSION)"
#endif

namespace gputurbo::core {

const char* version() { return GPUTURBO_VERSION; }

} // namespace gputurbo::core
