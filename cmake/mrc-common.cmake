# Settings shared by the standalone and the in-tree build of the mrc module.

# The ns-3 version as numbers, for the few places where APIs drift between
# releases (see model/util/mrc-ns3-compat.h). Standalone, ns3-standalone.cmake sets
# MRC_NS3_VERSION from the installed package; in an ns-3 tree, ns-3's top-level
# CMakeLists.txt has read its VERSION file into NS3_VER ("3.37", or "3-dev" in
# a development checkout).
if(NOT MRC_NS3_VERSION)
  if(NS3_VER)
    set(MRC_NS3_VERSION ${NS3_VER})
  elseif(EXISTS ${PROJECT_SOURCE_DIR}/VERSION)
    file(STRINGS ${PROJECT_SOURCE_DIR}/VERSION MRC_NS3_VERSION LIMIT_COUNT 1)
  else()
    set(MRC_NS3_VERSION 3.37)
  endif()
endif()
string(REGEX MATCH "^3\\.([0-9]+)" _mrc_ver "${MRC_NS3_VERSION}")
if(CMAKE_MATCH_1)
  set(MRC_NS3_MINOR ${CMAKE_MATCH_1})
else()
  set(MRC_NS3_MINOR 99) # a development tree ("3-dev")
endif()
message(STATUS "mrc: ns-3 version ${MRC_NS3_VERSION} (MRC_NS3_VERSION_MINOR=${MRC_NS3_MINOR})")
# The module's targets. ${libmrc} holds the library's target name in every home:
# "libmrc" standalone and in ns-3 trees up to 3.42, "mrc" from ns-3.43 on (where
# the test library is "mrc-test" and there is no object library). Never spell
# the names out here: derive them.
set(MRC_LIB_TARGET ${libmrc})
if(NOT MRC_LIB_TARGET)
  set(MRC_LIB_TARGET libmrc)
endif()
set(MRC_TEST_TARGET ${MRC_LIB_TARGET}-test)
# Up to ns-3.42 an ns-3 tree compiles the sources in the object library
# <lib>-obj, which the library only packs: the definition must be on both.
target_compile_definitions(${MRC_LIB_TARGET} PUBLIC MRC_NS3_VERSION_MINOR=${MRC_NS3_MINOR})
if(TARGET ${MRC_LIB_TARGET}-obj)
  target_compile_definitions(${MRC_LIB_TARGET}-obj PUBLIC MRC_NS3_VERSION_MINOR=${MRC_NS3_MINOR})
endif()
# The scenario layer looks for data/ (the HPCC, htsim and CDF inputs) from the working folder
# and the program's folder upwards, then in the module's source folder: the one file that does
# so gets that folder (a property of that file only, so no other file is recompiled for it).
set_source_files_properties(
  helper/experiments/mrc-scenario-inputs.cc
  PROPERTIES COMPILE_DEFINITIONS MRC_MODULE_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
)

# Tests are written with GoogleTest; the test library links it in both homes.
# ns-3's build_lib links the test library with the plain target_link_libraries()
# signature, and CMake forbids mixing plain and keyword signatures on one target.
if(TARGET ${MRC_TEST_TARGET})
  find_package(GTest REQUIRED)
  if(MRC_STANDALONE)
    target_link_libraries(${MRC_TEST_TARGET} PUBLIC GTest::gtest)
  else()
    target_link_libraries(${MRC_TEST_TARGET} GTest::gtest)
  endif()
  target_compile_definitions(${MRC_TEST_TARGET} PRIVATE MRC_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
endif()

# Standalone only: CTest runs every GoogleTest case as its own test, plus the
# repository checks. (In an ns-3 tree, ./test.py -s mrc runs the adapter suite.)
if(MRC_STANDALONE AND TARGET ${MRC_TEST_TARGET})
  include(GoogleTest)
  add_executable(mrc-gtest ${CMAKE_CURRENT_SOURCE_DIR}/test/mrc-gtest-main.cc)
  target_link_libraries(mrc-gtest PRIVATE -Wl,--no-as-needed ${MRC_TEST_TARGET} -Wl,--as-needed ${MRC_LIB_TARGET} GTest::gtest)
  gtest_discover_tests(
    mrc-gtest
    DISCOVERY_TIMEOUT 60
    # One variable only: gtest_discover_tests splits a list of them.
    PROPERTIES ENVIRONMENT "MRC_EXAMPLES_DIR=${CMAKE_BINARY_DIR}/examples" TIMEOUT 600
  )

  # Many cases in one process, as a developer runs the binary: each case must leave no
  # ns-3 state (names, defaults, the simulator) behind for the next (test/mrc-gtest-main.cc).
  add_test(NAME one-process COMMAND mrc-gtest
           --gtest_filter=MrcDistributed.*:MrcTopology*:MrcScenario*)
  set_tests_properties(one-process PROPERTIES ENVIRONMENT "MRC_EXAMPLES_DIR=${CMAKE_BINARY_DIR}/examples" TIMEOUT 300)

  # The ns-3 TestSuite adapter, run through ns-3's own TestRunner on a cheap subset.
  add_test(NAME mrc-testsuite-adapter COMMAND test-runner --test-name=mrc --stop-on-failure)
  set_tests_properties(mrc-testsuite-adapter PROPERTIES ENVIRONMENT "GTEST_FILTER=TrafficClass*" TIMEOUT 120)

  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_test(NAME build-lists COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-build-lists.py
                                    ${CMAKE_CURRENT_SOURCE_DIR})
  add_test(NAME clang-format COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test/check-format.sh ${CMAKE_CURRENT_SOURCE_DIR})
  # ./ns3-mrc refuses options that do not exist or cannot go together (exit 2, naming them).
  add_test(NAME cli-options COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test/check-cli-options.sh ${CMAKE_CURRENT_SOURCE_DIR})
  # The folders of model/ and helper/ are layers: includes only point down (no NIC, link
  # or switch code names a transport header).
  add_test(NAME layers COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-layers.py
                               ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(build-lists clang-format layers PROPERTIES TIMEOUT 120)

  # scripts/ (validate.py, plot.py, sweep.py) and the case files of validation/, on
  # synthetic result folders with a fake mrc-sim: needs no simulation. Debian's python3
  # (the one with python3-matplotlib), whichever python3 comes first in PATH.
  find_program(MRC_DEBIAN_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(NOT MRC_DEBIAN_PYTHON3)
    set(MRC_DEBIAN_PYTHON3 ${Python3_EXECUTABLE})
  endif()
  add_test(NAME check-scripts COMMAND ${MRC_DEBIAN_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-scripts.py
                                      ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(check-scripts PROPERTIES TIMEOUT 300)

  # The bad-input corpus (issue 20): each case of test/data/bad-inputs/ ends mrc-sim with
  # exit code 2 and a message naming the option or FILE:LINE, never a crash or a hang.
  add_test(NAME bad-inputs COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-bad-inputs.py
                                   $<TARGET_FILE:mrc-sim> ${CMAKE_CURRENT_SOURCE_DIR}/test/data/bad-inputs)
  set_tests_properties(bad-inputs PROPERTIES TIMEOUT 600)

  # doc/mrc.rst parses without docutils errors or warnings (python3-docutils).
  add_test(NAME check-doc COMMAND ${MRC_DEBIAN_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-doc.py
                                  ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(check-doc PROPERTIES TIMEOUT 60)

  # doc/mrc-tutorial.rst: every shell command of the tutorial runs (small sizes) in a
  # scratch folder, the outputs it shows appear, its C++ excerpts are lines of the example.
  add_test(NAME tutorial COMMAND ${MRC_DEBIAN_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-tutorial.py
                                 ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(tutorial PROPERTIES TIMEOUT 600)

  # The in-tree build check is slow (it compiles part of ns-3). It runs only when
  # MRC_NS3_SOURCE names an ns-3 source tree (./ns3-mrc test --in-tree sets it),
  # and otherwise reports itself as skipped.
  add_test(NAME in-tree-build COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test/in-tree-build.sh
                                      ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(in-tree-build PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 5400 LABELS in-tree)
endif()
