/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_APPS_CLI_H
#define INCLUDED_GPUTURBO_APPS_CLI_H

/*!
 * \file cli.h
 * \brief What gputurbo-ber and gputurbo-bench share: option parsing with generated
 *        --help, value checks, a small JSON writer, tables, and the error-to-exit-code
 *        policy (2: bad usage or value, 1: failure while running).
 */

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gputurbo::cli {

using namespace gputurbo::core;
using namespace gputurbo::turbo;

//! A bad flag or value: reported with a hint to --help, exit code 2.
struct usage_error : std::invalid_argument
{
    using std::invalid_argument::invalid_argument;
};

//! One --name option. An empty metavar makes a flag that takes no value.
struct option
{
    std::string name;
    std::string metavar;
    std::string default_value;
    std::string help;
};

//! A heading line in --help between groups of options.
option section(const std::string& title);

class args
{
public:
    args(std::string program, std::string summary, std::vector<option> options);

    //! Throws usage_error for unknown options, missing values and stray arguments.
    void parse(int argc, char** argv);

    std::string help() const;
    const std::string& program() const { return d_program; }

    bool given(const std::string& name) const { return d_values.count(name) != 0; }
    //! The value given on the command line, or the option's default.
    const std::string& get(const std::string& name) const;
    bool flag(const std::string& name) const { return given(name); }

private:
    const option& find(const std::string& name) const;

    std::string d_program;
    std::string d_summary;
    std::vector<option> d_options;
    std::map<std::string, std::string> d_values;
};

// Value checks: each throws usage_error naming the flag.
long to_int(const std::string& flag, const std::string& text, long min, long max);
std::uint64_t to_count(const std::string& flag, const std::string& text);
double to_double(const std::string& flag, const std::string& text);
std::vector<std::string> split_list(const std::string& flag, const std::string& text);
//! "a,b,c" or "START:STOP:STEP" (STOP included).
std::vector<double> to_range(const std::string& flag, const std::string& text);

//! Runs one of the engine's parse_* functions, turning its error into a usage_error.
template <class Parse>
auto to_enum(const std::string& flag, const std::string& text, Parse parse)
{
    try {
        return parse(text);
    } catch (const std::invalid_argument& e) {
        throw usage_error("--" + flag + ": " + e.what());
    }
}

/*!
 * \brief The decoder options both apps share, with defaults from decoder_config{}.
 * \param axes true: K, iterations, algorithm, subblocks and guard take comma-separated
 * lists
 */
std::vector<option> decoder_options(bool axes);

//! A decoder_config from the single-valued decoder options (and K etc. when not axes).
//! --input: true for int8, false for float; a usage_error otherwise.
bool int8_input(const args& a);

decoder_config config_from(const args& a, bool axes);

//! The metric arithmetic a decoder runs: float32 on the CPU, the resolved one on CUDA.
std::string arithmetic_used(const decoder& d);

//! A JSON value, written with two-space indentation; object keys keep their order.
class json
{
public:
    json() : d_text("null") {}
    json(bool v) : d_text(v ? "true" : "false") {}
    json(int v) : d_text(std::to_string(v)) {}
    json(long v) : d_text(std::to_string(v)) {}
    json(unsigned long v) : d_text(std::to_string(v)) {}
    json(unsigned long long v) : d_text(std::to_string(v)) {}
    json(double v); //!< non-finite values become null
    json(const char* v) : json(std::string(v)) {}
    json(const std::string& v);

    static json object();
    static json array();
    json& set(const std::string& key, json value); //!< appends to an object
    json& push(json value);                        //!< appends to an array

    void write(std::ostream& out, int indent = 0) const;
    std::string dump() const;

private:
    enum class kind { scalar, object, array };
    kind d_kind = kind::scalar;
    std::string d_text;
    std::vector<std::pair<std::string, json>> d_members;
    std::vector<json> d_items;
};

//! printf into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

//! Right-aligned columns under a header.
void print_table(std::ostream& out,
                 const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows);

//! Throws std::runtime_error with the reason when the file cannot be written.
void write_text_file(const std::string& path, const std::string& text);

//! Fails early, before a long run, when a result file's folder does not exist.
void check_output_path(const std::string& flag, const std::string& path);

bool stderr_is_terminal();

//! The source tree's commit at build time ("abc1234", "abc1234-dirty" or "unknown").
const char* source_commit();

//! Now, as 2026-01-31T12:00:00Z.
std::string utc_timestamp();

//! Calls body and turns exceptions into a message on stderr and an exit code.
int run_main(const char* program, const std::function<int()>& body);

} // namespace gputurbo::cli

#endif
