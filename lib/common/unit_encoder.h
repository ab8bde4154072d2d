/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_UNIT_ENCODER_H
#define INCLUDED_GPUTURBO_COMMON_UNIT_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief What the encoder blocks (turbo_encoder, conv_encoder) share: they encode whole
 * units only, d_in input bits to d_out output bits, an exact ratio for the scheduler and
 * the tag propagation (general_work() hands the family's encode_units() every whole unit
 * that fits); what is left of a unit when the block stops is counted
 * (partial_items()) and logged. Block is the block's interface.
 */
template <class Block>
class unit_encoder : public Block
{
protected:
    const int d_in;  // input bits a unit
    const int d_out; // output bits a unit

    unit_encoder(int in, int out) : d_in(in), d_out(out)
    {
        this->set_output_multiple(d_out);
        this->set_relative_rate(std::uint64_t(d_out), std::uint64_t(d_in));
        this->set_fixed_rate(true);
    }

    //! What the warning says after "N input bit(s) left unencoded when the block
    //! stopped" of \p partial bits.
    virtual std::string partial_unit_text(std::uint64_t partial) const = 0;

    //! Encodes \p units whole units of \p in (d_in bits each) into \p out (d_out each).
    virtual void encode_units(const std::uint8_t* in, int units, std::uint8_t* out) = 0;

public:
    std::uint64_t partial_items() const override { return d_partial_items; }

    bool start() override
    {
        d_partial_items = 0;
        return gr::block::start();
    }

    bool stop() override
    {
        // What the scheduler left in the input buffer: at the end of a stream, less than
        // a unit.
        if (this->detail() && this->detail()->ninputs() > 0) {
            d_partial_items = this->detail()->input(0)->items_available();
            if (d_partial_items > 0)
                this->d_logger->warn("{:d} input bit(s) left unencoded when the block "
                                     "stopped{:s}",
                                     d_partial_items,
                                     partial_unit_text(d_partial_items));
        }
        return gr::block::stop();
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        ninput_items_required[0] = fixed_rate_noutput_to_ninput(noutput_items);
    }

    int fixed_rate_ninput_to_noutput(int ninput) override
    {
        return ninput / d_in * d_out;
    }

    int fixed_rate_noutput_to_ninput(int noutput) override
    {
        return std::max(1, noutput / d_out) * d_in;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const int units = std::min(ninput_items[0] / d_in, noutput_items / d_out);
        if (units == 0)
            return 0;
        encode_units(static_cast<const std::uint8_t*>(input_items[0]),
                     units,
                     static_cast<std::uint8_t*>(output_items[0]));
        this->consume_each(units * d_in);
        return units * d_out;
    }

private:
    std::uint64_t d_partial_items = 0;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
