/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The ns-3 face of the module's tests. Every test is a GoogleTest case; this file
// registers each of them as its own ns-3 TestCase of the TestSuite "mrc", so that an
// ns-3 source tree lists and runs them with `./test.py -s mrc` (QUICK cases; add
// `-f EXTENSIVE` for the slow ones too) or `test-runner --suite=mrc --verbose`.
// GTEST_FILTER in the environment selects a subset, as with any GoogleTest binary.
//
// Each case runs in a child process forked from the runner, so that a crash (an
// ns-3 assert, a signal) fails that case only and names it, and every case starts
// from the runner's state before any test ran. The child leaves with _exit: no
// static destructor runs there (ns-3's ~TestCase asserts that its case is not
// running). The suite object itself is never destroyed for the same reason: a
// death test's child that calls exit() would otherwise trip that assert.
//
// This file must stay the LAST of TEST_SOURCES: the suite lists the GoogleTest
// cases when it is constructed, during static initialisation, after the other
// test files of the library have registered theirs (the last-run check below
// fails if one was missed).

#include "ns3/mrc-ns3-compat.h"
#include "ns3/test.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace
{

/// Environment variable set while the adapter runs cases (inherited by their children).
const char* const ADAPTER_ENV = "MRC_GTEST_IN_NS3_RUNNER";

/**
 * GoogleTest cases that take about a second or more (standalone Release build):
 * registered with the EXTENSIVE duration, so that `./test.py -s mrc` (QUICK) stays
 * short; `./test.py -s mrc -f EXTENSIVE` runs them too. Patterns as in GTEST_FILTER.
 */
const char* const SLOW_CASES = "MrcReceiver.TransportAckPerMessage:"
                               "MrcWireGallery.*:"
                               "MrcTopology.ParallelUplinksAndFatTrees:"
                               "MrcResultsFiles.JsonParsesBackWithPython:"
                               "TrimTshark.*:"
                               "MrcUec.ObliviousSprayBalancesUplinksSinglePathDoesNot:"
                               "MrcSprayProof.FourPlanePermutationGivesEveryFlowNinetyPercent";

/**
 * \param pattern a GoogleTest filter pattern ('*' any run, '?' one character)
 * \param name a case's full name
 * \return true if the pattern matches the whole name
 */
bool
GlobMatches(const char* pattern, const char* name)
{
    if (*pattern == '\0')
    {
        return *name == '\0';
    }
    if (*pattern == '*')
    {
        return GlobMatches(pattern + 1, name) || (*name != '\0' && GlobMatches(pattern, name + 1));
    }
    return *name != '\0' && (*pattern == '?' || *pattern == *name) &&
           GlobMatches(pattern + 1, name + 1);
}

/**
 * \param patterns ':'-separated patterns
 * \param name a case's full name
 * \return true if one of the patterns matches
 */
bool
AnyMatches(const std::string& patterns, const std::string& name)
{
    std::istringstream iss(patterns);
    std::string p;
    while (std::getline(iss, p, ':'))
    {
        if (GlobMatches(p.c_str(), name.c_str()))
        {
            return true;
        }
    }
    return false;
}

/**
 * \param filter a GoogleTest filter ("POSITIVE[-NEGATIVE]", each ':'-separated)
 * \param name a case's full name
 * \return true if the filter selects the case
 */
bool
FilterSelects(const std::string& filter, const std::string& name)
{
    const std::string::size_type dash = filter.find('-');
    const std::string positive = filter.substr(0, dash);
    const std::string negative = dash == std::string::npos ? "" : filter.substr(dash + 1);
    return (positive.empty() || AnyMatches(positive, name)) && !AnyMatches(negative, name);
}

/// \return the full names ("Suite.Case") of every registered GoogleTest case
std::vector<std::string>
GoogleTestCases()
{
    std::vector<std::string> names;
    const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
    for (int i = 0; i < unit.total_test_suite_count(); ++i)
    {
        const testing::TestSuite* suite = unit.GetTestSuite(i);
        for (int j = 0; j < suite->total_test_count(); ++j)
        {
            names.push_back(std::string(suite->name()) + "." + suite->GetTestInfo(j)->name());
        }
    }
    return names;
}

/// \return this process's command line, one string per argument
std::vector<std::string>
OwnCommandLine()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    std::string a;
    while (std::getline(in, a, '\0'))
    {
        args.push_back(a);
    }
    return args;
}

/**
 * GoogleTest's "threadsafe" death tests run the test binary again with
 * --gtest_internal_run_death_test. In an ns-3 tree that binary is ns-3's
 * test-runner, which knows no GoogleTest flags: the fresh process is recognised
 * here, while the test library is being loaded, and runs the death test's child
 * as GoogleTest would, then leaves.
 */
void
RunDeathTestChildIfAsked()
{
    if (std::getenv(ADAPTER_ENV) == nullptr)
    {
        return;
    }
    std::vector<std::string> args = OwnCommandLine();
    bool child = false;
    for (const auto& a : args)
    {
        child = child || a.rfind("--gtest_internal_run_death_test", 0) == 0;
    }
    if (!child)
    {
        return;
    }
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    int argc = static_cast<int>(args.size());
    testing::InitGoogleTest(&argc, argv.data());
    const int rc = RUN_ALL_TESTS();
    std::fflush(nullptr);
    std::_Exit(rc);
}

class MrcTestSuite;

/// One GoogleTest case, run in a child process.
class MrcGoogleTestCase : public ns3::TestCase
{
  public:
    /**
     * \param name the case's full name, "Suite.Case"
     * \param suite the suite, told when this case is deleted
     */
    MrcGoogleTestCase(const std::string& name, MrcTestSuite* suite)
        : ns3::TestCase(name),
          m_name(name),
          m_suite(suite)
    {
    }

    ~MrcGoogleTestCase() override;

    /// Run the case in a child process and keep its verdict and output.
    void RunInChild();

    /// \return "" if the case passed, else what went wrong (after RunInChild)
    const std::string& GetVerdict() const
    {
        return m_verdict;
    }

    /// \return the case's full name
    const std::string& GetGoogleTestName() const
    {
        return m_name;
    }

    /// \param others the other cases that failed, for this case's report
    void SetOtherFailures(const std::string& others)
    {
        m_others = others;
    }

  private:
    void DoRun() override
    {
        if (!m_ran)
        {
            RunInChild();
        }
        NS_TEST_ASSERT_MSG_EQ(m_verdict.empty(),
                              true,
                              "GoogleTest case " << m_name << " " << m_verdict << m_others
                                                 << "; its output:\n"
                                                 << m_output);
    }

    std::string m_name;    //!< the case's full name
    MrcTestSuite* m_suite; //!< the suite
    bool m_ran{false};     //!< RunInChild was called
    std::string m_verdict; //!< "" passed, else what went wrong
    std::string m_output;  //!< the child's output
    std::string m_others;  //!< other failed cases, for the report
};

void
MrcGoogleTestCase::RunInChild()
{
    m_ran = true;
    setenv(ADAPTER_ENV, "1", 1);
    int fds[2];
    if (pipe(fds) != 0)
    {
        m_verdict = std::string("could not run: pipe: ") + std::strerror(errno);
        return;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == -1)
    {
        m_verdict = std::string("could not run: fork: ") + std::strerror(errno);
        return;
    }
    if (pid == 0)
    {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        // The real program name, so that a threadsafe death test can run it again.
        std::string self = "/proc/self/exe";
        char* argv[] = {self.data(), nullptr};
        int argc = 1;
        testing::InitGoogleTest(&argc, argv);
        ::testing::FLAGS_gtest_filter = m_name;
        const int rc = RUN_ALL_TESTS();
        const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
        std::fflush(nullptr);
        // 0 passed, 1 failed, 3 ran nothing (a skipped case counts as passed).
        std::_Exit(rc != 0 ? 1 : (unit.test_to_run_count() == 1 ? 0 : 3));
    }
    close(fds[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
    {
        if (n > 0)
        {
            m_output.append(buf, static_cast<std::size_t>(n));
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (WIFSIGNALED(status))
    {
        m_verdict = "crashed (signal " + std::to_string(WTERMSIG(status)) + ", " +
                    strsignal(WTERMSIG(status)) + ")";
    }
    else if (WEXITSTATUS(status) == 1)
    {
        m_verdict = "failed";
    }
    else if (WEXITSTATUS(status) == 3)
    {
        m_verdict = "did not run (no such GoogleTest case)";
    }
    else if (WEXITSTATUS(status) != 0)
    {
        m_verdict = "exited with code " + std::to_string(WEXITSTATUS(status));
    }
}

/// Run last: every GoogleTest case registered now was registered as an ns-3 case.
class MrcAllCasesListedCase : public ns3::TestCase
{
  public:
    /// \param listed how many cases the suite registered \param filter GTEST_FILTER
    MrcAllCasesListedCase(std::size_t listed, std::string filter)
        : ns3::TestCase("every GoogleTest case is listed"),
          m_listed(listed),
          m_filter(std::move(filter))
    {
    }

  private:
    void DoRun() override
    {
        std::size_t now = 0;
        for (const auto& name : GoogleTestCases())
        {
            now += FilterSelects(m_filter, name) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(m_listed,
                              now,
                              "cases registered after the suite was built (keep "
                              "test/mrc-test-suite.cc last in TEST_SOURCES)");
        NS_TEST_ASSERT_MSG_GT(now, 0, "no GoogleTest case selected");
    }

    std::size_t m_listed; //!< cases registered by the suite
    std::string m_filter; //!< GTEST_FILTER
};

/**
 * The single ns-3 test suite of the module: one TestCase per GoogleTest case.
 *
 * ns-3 stops a suite at its first failed case. So that one failure or crash does
 * not hide the others, the suite runs every case the runner kept (after its
 * QUICK/EXTENSIVE selection) in DoSetup, before ns-3 walks the cases; each case
 * then reports its own verdict, and the first failed one also names the others.
 */
class MrcTestSuite : public ns3::TestSuite
{
  public:
    MrcTestSuite()
        : ns3::TestSuite("mrc", ns3::MrcTestSuiteUnit())
    {
        RunDeathTestChildIfAsked();
        const char* env = std::getenv("GTEST_FILTER");
        const std::string filter = env != nullptr ? env : "";
        std::size_t listed = 0;
        for (const auto& name : GoogleTestCases())
        {
            if (!FilterSelects(filter, name))
            {
                continue;
            }
            auto c = new MrcGoogleTestCase(name, this);
            m_cases.push_back(c);
            AddTestCase(c,
                        AnyMatches(SLOW_CASES, name) ? ns3::MrcTestExtensive()
                                                     : ns3::MrcTestQuick());
            ++listed;
        }
        AddTestCase(new MrcAllCasesListedCase(listed, filter), ns3::MrcTestQuick());
    }

    /// \param c a case being deleted (the runner deletes the cases it leaves out)
    void Forget(MrcGoogleTestCase* c)
    {
        m_cases.erase(std::remove(m_cases.begin(), m_cases.end(), c), m_cases.end());
    }

  private:
    void DoSetup() override
    {
        std::vector<MrcGoogleTestCase*> failed;
        for (auto c : m_cases)
        {
            c->RunInChild();
            if (!c->GetVerdict().empty())
            {
                std::cout << "mrc: GoogleTest case " << c->GetGoogleTestName() << " "
                          << c->GetVerdict() << std::endl;
                failed.push_back(c);
            }
        }
        for (auto c : failed)
        {
            std::string others;
            for (auto o : failed)
            {
                if (o != c)
                {
                    others += (others.empty() ? "" : ", ") + o->GetGoogleTestName();
                }
            }
            if (!others.empty())
            {
                c->SetOtherFailures(" (" + std::to_string(failed.size() - 1) +
                                    " other cases failed too: " + others + ")");
            }
        }
    }

    std::vector<MrcGoogleTestCase*> m_cases; //!< the GoogleTest cases the runner kept
};

MrcGoogleTestCase::~MrcGoogleTestCase()
{
    m_suite->Forget(this);
}

/// Registers the suite with ns-3's TestRunner. Never destroyed (see the top of the file).
MrcTestSuite* g_mrcTestSuite = new MrcTestSuite;

} // namespace
