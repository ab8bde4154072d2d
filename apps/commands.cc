/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "commands.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace gputurbo::cli {

option required_option(const std::string& name,
                       const std::string& metavar,
                       const std::string& help)
{
    option o{ name, metavar, "", help };
    o.required = true;
    return o;
}

void refuse_options_of(const args& a,
                       const std::vector<option>& others,
                       const std::string& command)
{
    for (const auto& o : others)
        if (!o.name.empty() && a.given(o.name))
            throw usage_error("--" + o.name + " is no option of " + command);
}

std::string required(const args& a, const std::string& name)
{
    if (!a.given(name))
        throw usage_error("--" + name + " is required");
    return a.get(name);
}

int to_int(const std::string& flag, const std::string& text)
{
    const std::uint64_t v = to_count(flag, text);
    if (v > std::uint64_t(INT_MAX))
        throw usage_error("--" + flag + ": '" + text + "' is too large");
    return int(v);
}

std::vector<char>
read_file(const std::string& flag, const std::string& path, std::size_t most)
{
    std::ifstream file(path, std::ios::binary);
    std::vector<char> bytes(most);
    if (file)
        file.read(bytes.data(), std::streamsize(most));
    if (!file && !file.eof())
        throw std::runtime_error("--" + flag + ": cannot read '" + path +
                                 "': " + std::strerror(errno));
    bytes.resize(std::size_t(file.gcount()));
    return bytes;
}

std::string file_holds(const std::string& path, std::size_t read, std::size_t expected)
{
    std::error_code ec;
    if (read > expected && std::filesystem::is_regular_file(path, ec)) {
        const std::uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec)
            return "holds " + std::to_string(size) + " bytes";
    }
    return read > expected ? "holds more than " + std::to_string(expected) + " bytes"
                           : "holds " + std::to_string(read) + " bytes";
}

std::vector<char> read_values(const std::string& flag,
                              const std::string& path,
                              std::size_t count,
                              std::size_t value_bytes,
                              const std::string& what)
{
    const std::size_t expected = count * value_bytes;
    std::vector<char> bytes = read_file(flag, path, expected + 1);
    if (bytes.size() != expected)
        throw std::invalid_argument("--" + flag + ": '" + path + "' " +
                                    file_holds(path, bytes.size(), expected) + ", but " +
                                    std::to_string(count) + " " + what + " take " +
                                    std::to_string(expected));
    return bytes;
}

std::vector<std::uint8_t> read_bits(const std::string& flag,
                                    const std::string& path,
                                    std::size_t count,
                                    const std::string& what)
{
    const std::vector<char> bytes = read_values(flag, path, count, 1, what);
    const auto bad = std::find_if(bytes.begin(), bytes.end(), [](char b) {
        return static_cast<unsigned char>(b) > 1;
    });
    if (bad != bytes.end())
        throw std::invalid_argument(
            "--" + flag + ": byte " + std::to_string(bad - bytes.begin()) + " of '" +
            path + "' is " + std::to_string(int(static_cast<unsigned char>(*bad))) +
            ": one byte per bit, 0 or 1");
    return { bytes.begin(), bytes.end() };
}

} // namespace gputurbo::cli
