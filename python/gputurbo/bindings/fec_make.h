/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BINDINGS_FEC_MAKE_H
#define INCLUDED_GPUTURBO_BINDINGS_FEC_MAKE_H

#include <memory>
#include <utility>

namespace gputurbo_bindings {

//! A FECAPI object's make() for Python: gr-fec's make functions return the generic
//! base (generic_encoder::sptr, generic_decoder::sptr); Python gets the object as
//! \p Fec, with its own methods as well. The arguments are make()'s.
template <class Fec, class Base, class... Args>
auto fec_make(std::shared_ptr<Base> (*make)(Args...))
{
    return [make](Args... args) {
        return std::dynamic_pointer_cast<Fec>(make(std::forward<Args>(args)...));
    };
}

} // namespace gputurbo_bindings

#endif
