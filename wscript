# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Build description for legacy waf-based ns-3 trees (ns-3.35 and earlier).
# It names exactly the files CMakeLists.txt names; test/check-build-lists.py
# checks that. Modern trees (3.36+) use CMakeLists.txt.


def build(bld):
    module = bld.create_ns3_module('mrc', ['core', 'network', 'internet'])
    module.source = [
        'model/mrc-traffic-class.cc',
    ]

    module_test = bld.create_ns3_module_test_library('mrc')
    module_test.source = [
        'test/mrc-test-suite.cc',
        'test/mrc-traffic-class-test.cc',
    ]
    module_test.uselib = 'GTEST'
    module_test.env.append_value('LIB', ['gtest', 'pthread'])

    headers = bld(features='ns3header')
    headers.module = 'mrc'
    headers.source = [
        'model/mrc-traffic-class.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
