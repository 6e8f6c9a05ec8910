/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLOW_SIZE_CDF_H
#define MRC_FLOW_SIZE_CDF_H

#include "ns3/ptr.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * A flow-size distribution read from a piecewise-linear CDF file.
 */

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup mrc
 * A flow-size distribution given as points (size_bytes, cdf_percent) of its
 * cumulative distribution, linear between points: the format of the
 * traffic_gen/ CDF files of the HPCC and ConWeave simulators (one
 * "size_bytes cdf" pair per line, cdf in percent). The points must start at
 * cdf 0, end at cdf 100, and both columns must increase strictly from line
 * to line (the HPCC generator's own check). Blank lines and '#' lines are
 * skipped.
 *
 * Sampling is by inverse transform: u uniform in [0,1) gives y = 100 u; with
 * (x0,y0),(x1,y1) the first segment whose y1 >= y, the size is
 * x0 + (x1 - x0) (y - y0) / (y1 - y0), truncated to an integer, at least 1
 * byte (as the HPCC generator does). The mean is that of the piecewise-linear
 * distribution itself: sum over segments of (x0 + x1)/2 * (y1 - y0) / 100.
 */
class MrcFlowSizeCdf
{
  public:
    /// One point of the CDF.
    struct Point
    {
        double bytes;   ///< flow size in bytes
        double percent; ///< P(size <= bytes), in percent
    };

    MrcFlowSizeCdf() = default;

    /**
     * Read a CDF file. Throws MrcInputError on a malformed file (also when
     * the file cannot be opened: line 0, "expected a readable file").
     * \param path the file
     * \return the distribution
     */
    static MrcFlowSizeCdf LoadFile(const std::string& path);

    /**
     * Read a CDF from a stream. Throws MrcInputError.
     * \param in the stream
     * \param name the file name used in error messages
     * \return the distribution
     */
    static MrcFlowSizeCdf Parse(std::istream& in, const std::string& name);

    /**
     * Build from points (checked like a file; errors name the file "<points>"
     * and the 1-based point index as line). \param points the points
     * \return the distribution
     */
    static MrcFlowSizeCdf FromPoints(const std::vector<Point>& points);

    /** \return the points */
    const std::vector<Point>& GetPoints() const;

    /** \return the mean flow size in bytes (of the piecewise-linear distribution) */
    double GetMean() const;

    /**
     * Inverse CDF with linear interpolation, not truncated.
     * \param u a probability in [0,1]
     * \return the size in bytes
     */
    double Quantile(double u) const;

    /**
     * Draw a flow size: Quantile(u) truncated to an integer, at least 1.
     * \param u a uniform draw in [0,1)
     * \return the size in bytes
     */
    uint64_t SampleFromUniform(double u) const;

    /**
     * Draw a flow size from a uniform random variable (one draw).
     * \param rng the random variable (its stream set by the caller)
     * \return the size in bytes
     */
    uint64_t Sample(Ptr<UniformRandomVariable> rng) const;

  private:
    std::vector<Point> m_points; //!< the CDF points
    double m_mean{0};            //!< mean size
};

} // namespace ns3

#endif // MRC_FLOW_SIZE_CDF_H
