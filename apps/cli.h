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

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <chrono>
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
    std::vector<std::string> aliases = {}; //!< earlier names, still accepted
    bool required = false; //!< --help says "required" instead of the default
};

//! A heading line in --help between groups of options.
option section(const std::string& title);

class args
{
public:
    args(std::string program, std::string summary, std::vector<option> options);

    //! Throws usage_error for unknown options, missing values and stray arguments.
    void parse(int argc, char** argv);

    //! Prints --help or --parameters-json when given; true when it did.
    bool print_info() const;

    std::string help() const;
    const std::string& program() const { return d_program; }

    //! What --help's usage line shows after the program (default "[options]").
    void set_synopsis(std::string synopsis) { d_synopsis = std::move(synopsis); }
    //! The exit statuses --help ends with (default: 0, 2 and 1 as run_main() gives).
    void set_exit_status(std::string text) { d_exit_status = std::move(text); }

    bool given(const std::string& name) const { return d_values.count(name) != 0; }
    //! The value given on the command line, or the option's default.
    const std::string& get(const std::string& name) const;
    bool flag(const std::string& name) const { return given(name); }

private:
    const option& find(const std::string& name) const;

    std::string d_program;
    std::string d_summary;
    std::vector<option> d_options;
    std::string d_synopsis = "[options]";
    std::string d_exit_status = "0 on success, 2 for a bad option or value, 1 for a "
                                "failure while running.";
    std::map<std::string, std::string> d_values;
};

// Value checks: each throws usage_error naming the flag.
std::uint64_t to_count(const std::string& flag, const std::string& text);
double to_double(const std::string& flag, const std::string& text);
std::vector<std::string> split_list(const std::string& flag, const std::string& text);
//! Calls \p decode again and again for at least \p seconds: the calls and their wall
//! time.
template <class Decode>
std::pair<std::uint64_t, double> time_calls(double seconds, const Decode& decode)
{
    std::uint64_t calls = 0;
    double elapsed = 0.0;
    const auto start = std::chrono::steady_clock::now();
    do {
        decode();
        ++calls;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                      .count();
    } while (elapsed < seconds);
    return { calls, elapsed };
}

//! "a,b,c" or "START:STOP:STEP" (STOP included).
std::vector<double> to_range(const std::string& flag, const std::string& text);

//! \p parse(a.get(flag)), its std::invalid_argument a usage error naming --\p flag.
template <class Parse>
auto parsed(const args& a, const std::string& flag, Parse parse)
{
    try {
        return parse(a.get(flag));
    } catch (const std::invalid_argument& e) {
        throw usage_error("--" + flag + ": " + e.what());
    }
}

//! --code: the code family, "turbo" (the default) or "conv", or "lte" (transport blocks)
//! and "pdcch" (the PDCCH's blind search) where \p transport, looked up before the
//! options are parsed (they depend on it); a usage_error for another.
std::string code_family(int argc, char** argv, bool transport = false);

//! The --code option of both apps.
option code_option();

//! Most codewords per decode call the apps accept.
constexpr long max_batch = 1 << 22;

//! The option of a parameter: --name with '-' for '_', its default and help followed by
//! its range; \p list: takes a comma-separated list.
option parameter_option(const core::parameter& p, bool list = false);

//! A number parameter's value on the command line, checked; a usage_error otherwise.
double number(const args& a, const core::parameter& p);
double number(const core::parameter& p, const std::string& text);

/*!
 * \brief The decoder options both apps share, from the parameter table
 * (turbo/parameters.h), and --backend.
 * \param axes true: K, iterations, algorithm, subblocks and guard take comma-separated
 * lists (decoder_axes)
 */
std::vector<option> decoder_options(bool axes);

//! The parameters that take lists with decoder_options(true).
extern const std::vector<std::string> decoder_axes;

//! The option name of a parameter ("guard_window" -> "guard-window").
std::string flag_of(const std::string& parameter);

//! Sets a decoder_config member from an option's text; a usage_error naming the option.
void set_value(decoder_config& c, const std::string& parameter, const std::string& text);

//! --input-type: true for int8, false for float; a usage_error otherwise.
bool int8_input(const args& a);

//! --output: what the decoder gives beside the bits (core::parse_output()); a
//! usage_error for another name, or for soft output from a stream decoder (\p stream).
core::soft_output soft_output_of(const args& a, bool stream = false);

//! A decoder_config from the decoder options (those not in decoder_axes when axes).
decoder_config config_from(const args& a, bool axes);

//! --code conv: --code, --backend and the conv parameter table's options
//! (conv/parameters.h).
std::vector<option> conv_decoder_options();

//! A viterbi_config from the conv options; a usage_error naming the bad one.
conv::viterbi_config conv_config_from(const args& a);

//! --frame-bits, checked against the table; a punctured stream's default rounded up to
//! whole puncturing periods.
int frame_bits(const args& a, const conv::viterbi_config& c);

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
    //! Sets a member of an object: replaces the value of a key it has, else appends.
    json& set(const std::string& key, json value);
    json& push(json value); //!< appends to an array

    void write(std::ostream& out, int indent = 0) const;
    std::string dump() const;

private:
    enum class kind { scalar, object, array };
    kind d_kind = kind::scalar;
    std::string d_text;
    std::vector<std::pair<std::string, json>> d_members;
    std::vector<json> d_items;
};

//! The decoder's parameters, added to a JSON record under the table's names: the
//! config's values, except subblocks and arithmetic, which are what the decoder runs for
//! block size K (the config's under subblocks_requested and arithmetic_requested), and
//! input_type.
void add_parameters(json& record, const decoder& d, int K, bool int8);

//! The resolved segment geometry in words: "segments f=2240 v1=70 D=70".
std::string geometry_text(const conv::viterbi_config& c);

//! The conv decoder's parameters, added to a JSON record under the table's names: code
//! ("conv"), preset, the config's values, frame_bits, code_rate (frame_bits over the
//! sent coded bits) and input_type.
void add_parameters(json& record,
                    const args& a,
                    const conv::viterbi_config& c,
                    int frame_bits,
                    bool int8);

//! The parameter table of a code family as JSON (--parameters-json): a list of {name,
//! kind, default, help, range, option, and min, max, ... as they apply}.
json parameters_json(const std::string& code = "turbo");

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

//! Calls body and turns exceptions into a message on stderr and an exit code; \p
//! out_of_memory_hint, when not empty, follows the message of std::bad_alloc ("try a
//! smaller --batch").
int run_main(const char* program,
             const std::function<int()>& body,
             const std::string& out_of_memory_hint = "");

} // namespace gputurbo::cli

#endif
