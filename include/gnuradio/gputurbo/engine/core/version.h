/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_VERSION_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_VERSION_H

namespace gputurbo::core {

//! The release of gr-gputurbo this engine belongs to, e.g. "0.1.0" (CMake's
//! PROJECT_VERSION: the apps, the JSON records and gputurbo.__version__ show it).
const char* version();

} // namespace gputurbo::core

#endif
