# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Build description for legacy waf-based ns-3 trees (ns-3.35 and earlier).
# It names exactly the files CMakeLists.txt names; test/check-build-lists.py
# checks that. Modern trees (3.36+) use CMakeLists.txt.


def build(bld):
    module = bld.create_ns3_module('mrc', ['core', 'network', 'internet'])
    module.source = [
        # -- wire formats: common
        'model/mrc-traffic-class.cc',
        # -- wire formats: InfiniBand / RoCEv2
        # -- wire formats: MRC extension headers
        # -- wire formats: PFC and SRv6
        # -- fabric: link
        # -- fabric: switch
    ]

    module_test = bld.create_ns3_module_test_library('mrc')
    module_test.source = [
        'test/mrc-test-suite.cc',
        'test/mrc-traffic-class-test.cc',
        # -- wire formats: InfiniBand / RoCEv2
        # -- wire formats: MRC extension headers
        # -- wire formats: PFC and SRv6
        # -- wire gallery
        # -- fabric: link
        # -- fabric: switch
    ]
    module_test.uselib = 'GTEST'
    module_test.env.append_value('LIB', ['gtest', 'pthread'])

    headers = bld(features='ns3header')
    headers.module = 'mrc'
    headers.source = [
        'model/mrc-ns3-compat.h',
        # -- wire formats: common
        'model/mrc-opcodes.h',
        'model/mrc-traffic-class.h',
        # -- wire formats: InfiniBand / RoCEv2
        # -- wire formats: MRC extension headers
        # -- wire formats: PFC and SRv6
        # -- fabric: link
        # -- fabric: switch
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
