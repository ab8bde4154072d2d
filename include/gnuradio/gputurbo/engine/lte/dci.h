/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_DCI_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_DCI_H

/*!
 * \file dci.h
 * \brief The downlink control information of the PDCCH (3GPP TS 36.212 v10 §5.3.3.1):
 *        the formats, their payload sizes in bits, and their fields, on unpacked bits
 *        (one bit a byte, the first field's MSB first).
 *
 * Sizes and fields follow Release 10 (36.212 v10.x) for a cell whose uplink has as many
 * resource blocks as its downlink, with these configured off: the carrier indicator
 * (no cross-carrier scheduling), the SRS request (formats 0, 1A, 2B, 2C) and the 2-bit
 * CSI request (format 0 has the 1-bit one); formats 3/3A (sized as 0) and those of
 * later releases (2D, 4) are not here. Under them the Release 10 resource allocation
 * type bit of format 0 changes no size against Release 8: it takes the padding bit
 * that made format 0 as long as 1A. The sizes follow §5.3.3.1's padding rules:
 * - 0 and 1A are padded with zeros to the longer of the two (the same size);
 * - 1A, 1B, 1D, 2, 2A, 2B and 2C get one zero bit where their size is one of
 *   {12, 14, 16, 20, 24, 26, 32, 40, 44, 56} (Table 5.3.3.1.2-1);
 * - 1 gets zero bits until its size is none of those and differs from 0/1A's;
 * - 1C is never padded.
 */

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gputurbo::lte {

//! A DCI format of 36.212 §5.3.3.1.
enum class dci_format { f0, f1, f1a, f1b, f1c, f1d, f2, f2a, f2b, f2c };

//! Every format, in the enum's order.
constexpr dci_format dci_formats[] = {
    dci_format::f0,  dci_format::f1, dci_format::f1a, dci_format::f1b, dci_format::f1c,
    dci_format::f1d, dci_format::f2, dci_format::f2a, dci_format::f2b, dci_format::f2c,
};

const char* to_string(dci_format f); //!< "0", "1", "1A", "1B", "1C", "1D", "2", "2A", …
//! A format's name as to_string() gives it; std::invalid_argument naming them else.
dci_format parse_dci_format(std::string_view name);

enum class duplex_mode { fdd, tdd };
const char* to_string(duplex_mode d); //!< "fdd", "tdd"
//! "fdd" | "tdd"; std::invalid_argument else.
duplex_mode parse_duplex_mode(std::string_view name);

//! The smallest and largest cell bandwidth N_RB^DL, in resource blocks (36.211 §6.2.1).
constexpr int min_cell_prb = 6;
constexpr int max_cell_prb = 110;

//! What the sizes and fields of the DCI formats depend on.
struct dci_config
{
    int n_prb = 100;                       //!< N_RB^DL = N_RB^UL, 6 … 110
    duplex_mode duplex = duplex_mode::fdd; //!< TDD: 4 HARQ bits, DAI / UL index fields
    int antenna_ports = 2; //!< the cell's: 1, 2 or 4 (1B, 1D, 2 and 2A need 2 or 4)
};

/*!
 * \brief The payload size in bits (without the CRC) of \p format in a cell of \p
 * config, padding included. Throws std::invalid_argument naming a bandwidth outside
 * 6 … 110 PRB, antenna ports other than 1, 2, 4, and formats 1B, 1D, 2, 2A (whose
 * precoding needs them) with 1 port.
 */
int dci_size(dci_format format, const dci_config& config);

//! One field of a DCI payload.
struct dci_field
{
    std::string_view name; //!< fixed text, one of the names below
    int bits;              //!< its width, at least 1
    std::uint32_t value;   //!< its bits, the first sent as the MSB
};

//! A type 2 resource allocation (36.213 §7.1.6.3, §8.1.1): RB_start and L_CRBs.
struct rb_allocation
{
    int start;  //!< the first resource block (virtual for a distributed one)
    int length; //!< L_CRBs, at least 1
    bool operator==(const rb_allocation& o) const
    {
        return start == o.start && length == o.length;
    }
};

/*!
 * \brief A DCI payload as its fields, in the order they are sent; padding is left out.
 *
 * The fields of each format (no field of 0 bits is listed):
 * - 0: format_flag (0), hopping, rb_assignment, mcs (MCS and RV), ndi, tpc,
 *   dmrs_cyclic_shift, ul_index_or_dai (TDD), csi_request, ra_type
 * - 1A: format_flag (1), distributed_vrb, rb_assignment, mcs, harq_process, ndi, rv, tpc,
 *   dai (TDD)
 * - 1B: distributed_vrb, rb_assignment, mcs, harq_process, ndi, rv, tpc, dai (TDD), tpmi,
 *   pmi_confirmation
 * - 1C: gap (50 PRB or more), rb_assignment, tbs_index
 * - 1D: as 1B with power_offset in place of pmi_confirmation
 * - 1: ra_type (over 10 PRB), rb_assignment, mcs, harq_process, ndi, rv, tpc, dai (TDD)
 * - 2, 2A: ra_type (over 10 PRB), rb_assignment, tpc, dai (TDD), harq_process, tb_swap,
 *   mcs1, ndi1, rv1, mcs2, ndi2, rv2, precoding (2: 3 or 6 bits, 2A: 4 ports, 2 bits)
 * - 2B: as 2A with scrambling_identity in place of tb_swap and no precoding
 * - 2C: as 2B with ports_scrambling_layers (3 bits) in place of scrambling_identity
 *
 * rb_assignment holds the raw bits: the RIV of a type 2 allocation (0, 1A, 1B, 1D; 1C's
 * counts steps of N_RB^step), the RBG bitmap of type 0 or the subset, shift and bitmap
 * of type 1 (1, 2, 2A, 2B, 2C; ra_type tells which). Meanings that depend on the RNTI
 * (a PDCCH order in 1A, the fields that SI-, P- and RA-RNTI reserve) are the caller's.
 */
struct dci_message
{
    dci_format format = dci_format::f1a;
    std::vector<dci_field> fields;
    //! The type 2 allocation, decoded by parse_dci() where the whole of rb_assignment is
    //! the RIV (decode_riv() over N_RB^DL): format 0 without hopping and with ra_type 0;
    //! 1A, 1B and 1D localized, or distributed below 50 PRB (from 50 on, its MSB can be
    //! the gap). None where the RIV names no allocation within the blocks (N_VRB^DL
    //! virtual ones for a distributed one), as in a PDCCH order's.
    std::optional<rb_allocation> allocation;

    bool has(std::string_view name) const;
    //! The value of field \p name; std::invalid_argument naming a field the format lacks.
    std::uint32_t value(std::string_view name) const;
    //! Sets field \p name; std::invalid_argument naming a field the format lacks or a
    //! value wider than the field.
    void set(std::string_view name, std::uint32_t value);
};

//! The fields of \p format in a cell of \p config, all 0 but format 0/1A's flag.
//! Throws as dci_size() does.
dci_message dci_fields(dci_format format, const dci_config& config);

/*!
 * \brief The dci_size() payload bits of \p message, one a byte, its fields' bits in
 * order and zero padding after them. Throws std::invalid_argument where the message's
 * fields are not its format's in \p config (names, widths, format 0/1A's flag).
 */
std::vector<std::uint8_t> pack_dci(const dci_message& message, const dci_config& config);

/*!
 * \brief The fields of a payload of format \p format: \p n bits at \p bits (bit 0 of
 * each byte read), n = dci_size(format, config), padding ignored; the allocation
 * decoded where dci_message says. Formats 0 and 1A share their size: payload bit 0 (the
 * format flag) tells them apart, and a payload whose flag names the other format is
 * refused. Throws std::invalid_argument naming a wrong n or flag, and as dci_size().
 */
dci_message parse_dci(dci_format format,
                      const dci_config& config,
                      const std::uint8_t* bits,
                      std::size_t n);

/*!
 * \brief The resource indication value of a type 2 allocation over \p n_rb resource
 * blocks (36.213 §7.1.6.3): N (L - 1) + start where L - 1 <= floor(N / 2), else
 * N (N - L + 1) + (N - 1 - start); one value of 0 … N (N + 1) / 2 - 1 for each
 * allocation. Throws std::invalid_argument naming n_rb outside 6 … 110 or an
 * allocation outside the n_rb blocks.
 */
std::uint32_t encode_riv(rb_allocation allocation, int n_rb);

//! The allocation of \p riv over \p n_rb blocks (encode_riv() undone); none for a value
//! of N (N + 1) / 2 or more. Throws std::invalid_argument naming n_rb outside 6 … 110.
std::optional<rb_allocation> decode_riv(std::uint32_t riv, int n_rb);

} // namespace gputurbo::lte

#endif
