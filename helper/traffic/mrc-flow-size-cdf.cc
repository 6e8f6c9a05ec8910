/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-flow-size-cdf.h"

#include "mrc-input-error.h"

#include "ns3/log.h"
#include "ns3/random-variable-stream.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFlowSizeCdf");

namespace
{

/// Check the points and compute the mean; line numbers come from lines[i].
double
CheckPoints(const std::vector<MrcFlowSizeCdf::Point>& p,
            const std::vector<uint32_t>& lines,
            const std::vector<std::string>& texts,
            const std::string& name,
            uint32_t eofLine)
{
    if (p.empty())
    {
        throw MrcInputError(name, eofLine, "a 'size_bytes cdf_percent' line", "", true);
    }
    if (p.front().percent != 0)
    {
        throw MrcInputError(name, lines.front(), "a first point with cdf 0", texts.front());
    }
    for (size_t i = 1; i < p.size(); ++i)
    {
        if (!(p[i].bytes > p[i - 1].bytes) || !(p[i].percent > p[i - 1].percent))
        {
            throw MrcInputError(name,
                                lines[i],
                                "size and cdf both larger than on the previous point",
                                texts[i]);
        }
    }
    if (p.back().percent != 100)
    {
        throw MrcInputError(name, lines.back(), "a last point with cdf 100", texts.back());
    }
    double sum = 0;
    for (size_t i = 1; i < p.size(); ++i)
    {
        sum += (p[i - 1].bytes + p[i].bytes) / 2 * (p[i].percent - p[i - 1].percent);
    }
    return sum / 100;
}

} // namespace

MrcFlowSizeCdf
MrcFlowSizeCdf::LoadFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw MrcInputError(path, 0, "a readable file", "cannot open");
    }
    return Parse(in, path);
}

MrcFlowSizeCdf
MrcFlowSizeCdf::Parse(std::istream& in, const std::string& name)
{
    MrcLineReader r(in, name);
    std::vector<Point> points;
    std::vector<uint32_t> lines;
    std::vector<std::string> texts;
    while (r.Next(true))
    {
        const auto& f = r.Fields();
        Point p;
        if (f.size() != 2 || !MrcParse::Double(f[0], p.bytes) ||
            !MrcParse::Double(f[1], p.percent) || p.bytes < 0 || p.percent < 0 || p.percent > 100)
        {
            r.Fail("'size_bytes cdf_percent' (size >= 0, 0 <= cdf <= 100)");
        }
        if (p.bytes > static_cast<double>(MrcInputLimits::MAX_MESSAGE_BYTES))
        {
            r.Fail("a size of at most " + std::to_string(MrcInputLimits::MAX_MESSAGE_BYTES) +
                       " bytes (one RDMA Write)",
                   f[0]);
        }
        points.push_back(p);
        lines.push_back(r.Line());
        texts.push_back(r.Text());
    }
    MrcFlowSizeCdf cdf;
    cdf.m_mean = CheckPoints(points, lines, texts, name, r.Line() + 1);
    cdf.m_points = std::move(points);
    return cdf;
}

MrcFlowSizeCdf
MrcFlowSizeCdf::FromPoints(const std::vector<Point>& points)
{
    std::vector<uint32_t> lines;
    std::vector<std::string> texts;
    for (size_t i = 0; i < points.size(); ++i)
    {
        lines.push_back(static_cast<uint32_t>(i + 1));
        std::ostringstream os;
        os << points[i].bytes << " " << points[i].percent;
        texts.push_back(os.str());
    }
    MrcFlowSizeCdf cdf;
    cdf.m_mean = CheckPoints(points, lines, texts, "<points>", 1);
    cdf.m_points = points;
    return cdf;
}

const std::vector<MrcFlowSizeCdf::Point>&
MrcFlowSizeCdf::GetPoints() const
{
    return m_points;
}

double
MrcFlowSizeCdf::GetMean() const
{
    return m_mean;
}

double
MrcFlowSizeCdf::Quantile(double u) const
{
    NS_ABORT_MSG_IF(m_points.size() < 2, "MrcFlowSizeCdf: no distribution loaded");
    NS_ABORT_MSG_IF(!(u >= 0 && u <= 1), "MrcFlowSizeCdf: probability " << u << " not in [0,1]");
    double y = 100 * u;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        if (y <= m_points[i].percent)
        {
            const Point& a = m_points[i - 1];
            const Point& b = m_points[i];
            return a.bytes + (b.bytes - a.bytes) * (y - a.percent) / (b.percent - a.percent);
        }
    }
    return m_points.back().bytes;
}

uint64_t
MrcFlowSizeCdf::SampleFromUniform(double u) const
{
    // Parse bounds sizes by MAX_MESSAGE_BYTES; FromPoints does not: clamp before the cast.
    double x = std::floor(Quantile(u));
    if (!(x < static_cast<double>(MrcInputLimits::MAX_MESSAGE_BYTES)))
    {
        return MrcInputLimits::MAX_MESSAGE_BYTES;
    }
    return x < 1 ? 1 : static_cast<uint64_t>(x);
}

uint64_t
MrcFlowSizeCdf::Sample(Ptr<UniformRandomVariable> rng) const
{
    return SampleFromUniform(rng->GetValue(0, 1));
}

} // namespace ns3
