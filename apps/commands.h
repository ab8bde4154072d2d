/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_APPS_COMMANDS_H
#define INCLUDED_GPUTURBO_APPS_COMMANDS_H

/*!
 * \file commands.h
 * \brief What the apps with commands and files (gputurbo-dlsch, gputurbo-dci) share:
 *        required options, options of another command refused, and input files of
 *        bits or values read only as far as a command needs (one byte more tells a
 *        file too long, so that /dev/zero is refused at once), written back as they
 *        are read.
 */

#include "cli.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gputurbo::cli {

//! An option the command cannot do without (--help says "required").
option required_option(const std::string& name,
                       const std::string& metavar,
                       const std::string& help);

//! A usage error for an option of another command given to \p command.
void refuse_options_of(const args& a,
                       const std::vector<option>& others,
                       const std::string& command);

//! The value of --\p name; a usage error where it is not given.
std::string required(const args& a, const std::string& name);

//! A count that fits an int; a usage error naming --\p flag otherwise.
int to_int(const std::string& flag, const std::string& text);

//! The first \p most bytes of a file, or all of a shorter one; std::runtime_error
//! naming --\p flag where it cannot be read.
std::vector<char>
read_file(const std::string& flag, const std::string& path, std::size_t most);

//! "holds 1001 bytes": the size of a file of which \p read bytes were read, \p
//! expected wanted (a device's or a pipe's: "holds more than").
std::string file_holds(const std::string& path, std::size_t read, std::size_t expected);

//! A file of \p count values of \p value_bytes bytes each (\p what they are, for the
//! message); std::invalid_argument (a bad input, exit status 2) for another length.
std::vector<char> read_values(const std::string& flag,
                              const std::string& path,
                              std::size_t count,
                              std::size_t value_bytes,
                              const std::string& what);

//! A file of \p count bits, one byte each, 0 or 1; std::invalid_argument otherwise.
std::vector<std::uint8_t> read_bits(const std::string& flag,
                                    const std::string& path,
                                    std::size_t count,
                                    const std::string& what);

//! Writes \p count values as their bytes in memory (native-endian).
template <class T>
void write_values(const std::string& path, const T* values, std::size_t count)
{
    write_text_file(
        path, std::string(reinterpret_cast<const char*>(values), count * sizeof(T)));
}

} // namespace gputurbo::cli

#endif
