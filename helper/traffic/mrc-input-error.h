/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_INPUT_ERROR_H
#define MRC_INPUT_ERROR_H

#include <cstddef>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The error thrown by the workload file readers (CDF, HPCC/ConWeave, htsim),
 * and the small field parsers they share.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The sizes the input readers accept. They bound what one file can ask for, so a
 * malformed or hostile file is rejected with FILE:LINE instead of exhausting memory.
 */
namespace MrcInputLimits
{
/// Nodes (hosts and switches) of a topology file (HPCC/ConWeave or htsim .topo).
constexpr uint64_t MAX_NODES = 1000000;
/// Links of a topology file (an htsim .topo counts every bundled link).
constexpr uint64_t MAX_LINKS = 10000000;
/// Flows of a flow file, connection matrix or --scenario=flows workload.
constexpr uint64_t MAX_FLOWS = 10000000;
/// Bytes of one message (one RDMA Write).
constexpr uint64_t MAX_MESSAGE_BYTES = 0xffffffffULL;
/// Largest start time of a flow, in seconds (about 106 days: Time's int64 picoseconds
/// hold 106 days).
constexpr double MAX_START_SECONDS = 9.2e6;
/// Characters of an offending text echoed in an error message.
constexpr std::size_t MAX_ECHO = 200;
} // namespace MrcInputLimits

/**
 * \ingroup mrc
 * A malformed input file. what() is "FILE:LINE: expected WHAT, got 'TEXT'"
 * (LINE counts from 1; "got end of file" when the file ended early). The
 * readers throw it and never abort, so a caller (or a test) can report it.
 */
class MrcInputError : public std::runtime_error
{
  public:
    /**
     * \param file the file name as given to the reader
     * \param line the 1-based line number
     * \param expected what the reader expected (without the word "expected")
     * \param got the offending text (empty with atEof)
     * \param atEof true when the file ended before the expected line
     */
    MrcInputError(const std::string& file,
                  uint32_t line,
                  const std::string& expected,
                  const std::string& got,
                  bool atEof = false);

    /** \return the file name */
    const std::string& GetFile() const;
    /** \return the 1-based line number */
    uint32_t GetLine() const;

  private:
    std::string m_file; //!< file name
    uint32_t m_line;    //!< line number
};

/**
 * \ingroup mrc
 * Reads a text file line by line, counting lines and splitting them into
 * whitespace-separated fields. Used by all workload readers.
 */
class MrcLineReader
{
  public:
    /**
     * \param in the stream to read
     * \param file the name used in error messages
     */
    MrcLineReader(std::istream& in, std::string file);

    /**
     * Read the next line that has at least one field, skipping blank lines
     * (and, when skipHash is true, lines whose first field starts with '#').
     * \param skipHash whether '#' lines are comments
     * \return false at end of file
     */
    bool Next(bool skipHash = false);

    /** \return the fields of the current line */
    const std::vector<std::string>& Fields() const;
    /** \return the current line, without its end of line */
    const std::string& Text() const;
    /** \return the 1-based number of the current line (or of the last line at EOF) */
    uint32_t Line() const;
    /** \return the file name */
    const std::string& File() const;

    /**
     * Throw MrcInputError for the current line.
     * \param expected what was expected
     * \param got the offending text (default: the whole line)
     */
    [[noreturn]] void Fail(const std::string& expected, const std::string& got) const;
    /** Throw MrcInputError for the whole current line. \param expected what was expected */
    [[noreturn]] void Fail(const std::string& expected) const;
    /** Throw MrcInputError "got end of file" after the last line. \param expected what */
    [[noreturn]] void FailEof(const std::string& expected) const;

  private:
    std::istream& m_in;                //!< input
    std::string m_file;                //!< name for messages
    uint32_t m_line{0};                //!< current line number
    std::string m_text;                //!< current line
    std::vector<std::string> m_fields; //!< its fields
};

/**
 * \ingroup mrc
 * Field parsers: each returns false unless the whole text is a valid value.
 */
namespace MrcParse
{
/**
 * Unsigned decimal integer.
 * \param s the text \param out the value \return success
 */
bool U64(const std::string& s, uint64_t& out);
/**
 * Unsigned decimal integer that fits 32 bits.
 * \param s the text \param out the value \return success
 */
bool U32(const std::string& s, uint32_t& out);
/**
 * Finite floating-point number (strtod syntax, the whole text).
 * \param s the text \param out the value \return success
 */
bool Double(const std::string& s, double& out);
/**
 * Non-negative decimal number of seconds, exactly, in picoseconds: "2.000000100"
 * gives 2000000100000 with no binary rounding (an exponent form is accepted and
 * rounded to the nearest picosecond).
 * \param s the text \param ps the value \return success
 */
bool SecondsToPs(const std::string& s, int64_t& ps);
/**
 * A data rate as ns-3 writes it: a non-negative number followed by a unit
 * bps, b/s, Kbps, kbps, Kb/s, kb/s, Mbps, Mb/s, Gbps, Gb/s, Tbps, Tb/s (bits;
 * decimal prefixes) or the same with "B" for bytes (x8). A bare number is bits/s.
 * \param s the text \param bps the rate in bit/s (rounded) \return success
 */
bool Rate(const std::string& s, uint64_t& bps);
/**
 * A time as ns-3 writes it: a non-negative number followed by s, ms, us, ns or
 * ps; a bare number is seconds (ns-3's convention).
 * \param s the text \param ps the value in picoseconds (rounded) \return success
 */
bool Delay(const std::string& s, int64_t& ps);
/**
 * Text safe to echo in an error message: bytes outside printable ASCII become \\xNN,
 * and text longer than maxChars characters is cut with "...".
 * \param s the text \param maxChars the longest echo \return the printable form
 */
std::string Printable(const std::string& s, std::size_t maxChars = MrcInputLimits::MAX_ECHO);
} // namespace MrcParse

} // namespace ns3

#endif // MRC_INPUT_ERROR_H
