# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Build description for legacy waf-based ns-3 trees (ns-3.35 and earlier).
# It names exactly the files CMakeLists.txt names; test/check-build-lists.py
# checks that. Modern trees (3.36+) use CMakeLists.txt.


def build(bld):
    module = bld.create_ns3_module('mrc', ['core', 'network', 'internet'])
    module.source = [
        # -- wire formats: common
        'model/mrc-traffic-class.cc',
        # -- helpers: command line
        'helper/mrc-command-line.cc',
        # -- wire formats: InfiniBand / RoCEv2
        'model/mrc-aeth-header.cc',
        'model/mrc-bth-header.cc',
        'model/mrc-cnp-header.cc',
        'model/mrc-icrc-trailer.cc',
        'model/mrc-imm-dt-header.cc',
        'model/mrc-reth-header.cc',
        # -- wire formats: MRC extension headers
        'model/mrc-cc-state-header.cc',
        'model/mrc-eeth-header.cc',
        'model/mrc-entropy.cc',
        'model/mrc-erth-header.cc',
        'model/mrc-meth-header.cc',
        'model/mrc-neth-header.cc',
        'model/mrc-peth-header.cc',
        'model/mrc-seth-header.cc',
        'model/mrc-tseth-header.cc',
        # -- wire formats: PFC and SRv6
        'model/mrc-pfc-frame.cc',
        'model/mrc-srh-header.cc',
        'model/mrc-srv6-encap.cc',
        'model/mrc-usid.cc',
        # -- fabric: link
        'model/mrc-channel.cc',
        'model/mrc-net-device.cc',
        'helper/mrc-link-helper.cc',
        # -- fabric: switch
        'model/mrc-ecmp-forwarding.cc',
        'model/mrc-ecn-marker.cc',
        'model/mrc-forwarding.cc',
        'model/mrc-packet-info.cc',
        'model/mrc-shared-buffer-mmu.cc',
        'model/mrc-srv6-forwarding.cc',
        'model/mrc-trimmer.cc',
        'model/mrc-raw-traffic.cc',
        'model/mrc-switch-node.cc',
        'helper/mrc-switch-helper.cc',
        'helper/mrc-ecmp-route-manager.cc',
        # -- topology
        'model/mrc-dual-forwarding.cc',
        'helper/mrc-topology.cc',
        'helper/mrc-topology-helper.cc',
        # -- failures
        'helper/mrc-event-log.cc',
        'helper/mrc-failure-injector.cc',
        # -- transport: core
        'model/mrc-memory-region.cc',
        'model/mrc-path-selector.cc',
        'model/mrc-queue-pair.cc',
        'model/mrc-rdma-nic.cc',
        'helper/mrc-rdma-helper.cc',
        'model/mrc-congestion-ops.cc',
        # -- transport: RoCE
        'model/mrc-dcqcn.cc',
        'model/mrc-dcqcn-np.cc',
        'model/mrc-roce-queue-pair.cc',
        'helper/mrc-profiles.cc',
        # -- transport: shared reliability
        'model/mrc-rcv-backpressure.cc',
        'model/mrc-receive-bitmap.cc',
        'model/mrc-sack-scoreboard.cc',
        'model/mrc-sack-policy.cc',
        'model/mrc-nscc.cc',
        # -- transport: MRC
        'model/mrc-controller.cc',
        'model/mrc-multipath-queue-pair.cc',
        'helper/mrc-multipath-helper.cc',
        'model/mrc-ev-profile.cc',
        'model/mrc-ev-table.cc',
        # -- transport: UEC
        'model/mrc-uec-queue-pair.cc',
        'model/mrc-uec-wire.cc',
        'model/mrc-uec-path-selector.cc',
        # -- results
        'helper/mrc-progress-reporter.cc',
        'helper/mrc-results-writer.cc',
        'helper/mrc-run-results.cc',
        'helper/mrc-time-series-sampler.cc',
        # -- workloads
        'helper/mrc-input-error.cc',
        'helper/mrc-flow-size-cdf.cc',
        'helper/mrc-workload.cc',
        'helper/mrc-hpcc-input.cc',
        'helper/mrc-htsim-input.cc',
        # -- scenarios
        'helper/mrc-scenario.cc',
    ]

    module_test = bld.create_ns3_module_test_library('mrc')
    module_test.source = [
        'test/mrc-test-suite.cc',
        'test/mrc-traffic-class-test.cc',
        # -- wire formats: InfiniBand / RoCEv2
        'test/mrc-roce-headers-test.cc',
        # -- wire formats: MRC extension headers
        'test/mrc-ext-headers-test.cc',
        # -- wire formats: PFC and SRv6
        'test/mrc-pfc-frame-test.cc',
        'test/mrc-srv6-test.cc',
        # -- wire gallery
        'test/mrc-command-line-test.cc',
        'test/mrc-wire-gallery-test.cc',
        # -- fabric: link
        'test/mrc-link-test.cc',
        # -- fabric: switch
        'test/mrc-trim-tshark-test.cc',
        'test/mrc-fabric-incast-test.cc',
        'test/mrc-ecn-marker-test.cc',
        'test/mrc-flat-map-test.cc',
        'test/mrc-forwarding-test.cc',
        'test/mrc-shared-buffer-mmu-test.cc',
        'test/mrc-switch-packet-test.cc',
        'test/mrc-switch-node-test.cc',
        'test/mrc-ecmp-convergence-test.cc',
        # -- topology
        'test/mrc-topology-test.cc',
        # -- failures
        'test/mrc-failure-test.cc',
        # -- transport: core
        'test/mrc-rdma-nic-test.cc',
        # -- transport: RoCE
        'test/mrc-dcqcn-test.cc',
        'test/mrc-roce-test.cc',
        # -- transport: shared reliability
        'test/mrc-sack-test.cc',
        'test/mrc-nscc-test.cc',
        # -- transport: MRC
        'test/mrc-port-status-test.cc',
        'test/mrc-receiver-test.cc',
        'test/mrc-spray-proof-test.cc',
        'test/mrc-multipath-proof-test.cc',
        'test/mrc-multipath-test.cc',
        'test/mrc-ev-test.cc',
        # -- transport: UEC
        'test/mrc-uec-test.cc',
        'test/mrc-uec-path-test.cc',
        # -- results
        'test/mrc-results-test.cc',
        # -- workloads
        'test/mrc-input-runs-test.cc',
        'test/mrc-workload-test.cc',
        'test/mrc-input-files-test.cc',
        # -- scenarios
        'test/mrc-scenario-test.cc',
        'test/mrc-bench-reference-test.cc',
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
        # -- helpers: command line
        'helper/mrc-command-line.h',
        # -- wire formats: InfiniBand / RoCEv2
        'model/mrc-aeth-header.h',
        'model/mrc-bth-header.h',
        'model/mrc-cnp-header.h',
        'model/mrc-icrc-trailer.h',
        'model/mrc-imm-dt-header.h',
        'model/mrc-reth-header.h',
        # -- wire formats: MRC extension headers
        'model/mrc-cc-state-header.h',
        'model/mrc-eeth-header.h',
        'model/mrc-entropy.h',
        'model/mrc-erth-header.h',
        'model/mrc-ext-header-common.h',
        'model/mrc-flat-map.h',
        'model/mrc-reusable-event.h',
        'model/mrc-meth-header.h',
        'model/mrc-neth-header.h',
        'model/mrc-peth-header.h',
        'model/mrc-seth-header.h',
        'model/mrc-tseth-header.h',
        # -- wire formats: PFC and SRv6
        'model/mrc-pfc-frame.h',
        'model/mrc-srh-header.h',
        'model/mrc-srv6-encap.h',
        'model/mrc-usid.h',
        # -- fabric: link
        'model/mrc-channel.h',
        'model/mrc-net-device.h',
        'helper/mrc-link-helper.h',
        # -- fabric: switch
        'model/mrc-ecmp-forwarding.h',
        'model/mrc-ecn-marker.h',
        'model/mrc-forwarding.h',
        'model/mrc-packet-info.h',
        'model/mrc-shared-buffer-mmu.h',
        'model/mrc-srv6-forwarding.h',
        'model/mrc-trimmer.h',
        'model/mrc-raw-traffic.h',
        'model/mrc-switch-node.h',
        'helper/mrc-switch-helper.h',
        'helper/mrc-ecmp-route-manager.h',
        # -- topology
        'model/mrc-dual-forwarding.h',
        'helper/mrc-topology.h',
        'helper/mrc-topology-helper.h',
        # -- failures
        'helper/mrc-event-log.h',
        'helper/mrc-failure-injector.h',
        # -- transport: core
        'model/mrc-work-request.h',
        'model/mrc-memory-region.h',
        'model/mrc-path-selector.h',
        'model/mrc-queue-pair.h',
        'model/mrc-rdma-nic.h',
        'helper/mrc-rdma-helper.h',
        'model/mrc-congestion-ops.h',
        # -- transport: RoCE
        'model/mrc-dcqcn.h',
        'model/mrc-dcqcn-np.h',
        'model/mrc-roce-queue-pair.h',
        'helper/mrc-profiles.h',
        # -- transport: shared reliability
        'model/mrc-rcv-backpressure.h',
        'model/mrc-receive-bitmap.h',
        'model/mrc-sack-scoreboard.h',
        'model/mrc-sack-policy.h',
        'model/mrc-nscc.h',
        # -- transport: MRC
        'model/mrc-controller.h',
        'model/mrc-multipath-queue-pair.h',
        'helper/mrc-multipath-helper.h',
        'model/mrc-ev-profile.h',
        'model/mrc-ev-table.h',
        # -- transport: UEC
        'model/mrc-uec-queue-pair.h',
        'model/mrc-uec-wire.h',
        'model/mrc-uec-path-selector.h',
        # -- results
        'helper/mrc-progress-reporter.h',
        'helper/mrc-results-writer.h',
        'helper/mrc-run-results.h',
        'helper/mrc-time-series-sampler.h',
        # -- workloads
        'helper/mrc-input-error.h',
        'helper/mrc-flow-size-cdf.h',
        'helper/mrc-workload.h',
        'helper/mrc-hpcc-input.h',
        'helper/mrc-htsim-input.h',
        # -- scenarios
        'helper/mrc-scenario.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
