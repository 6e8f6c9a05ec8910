# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Build description for legacy waf-based ns-3 trees (ns-3.35 and earlier).
# It names exactly the files CMakeLists.txt names; test/check-build-lists.py
# checks that. Modern trees (3.36+) use CMakeLists.txt.


def build(bld):
    module = bld.create_ns3_module('mrc', ['core', 'network', 'internet'])
    module.source = [
        # -- utilities: checks of attribute values given as strings, comma-separated lists
        'model/util/mrc-attribute-check.cc',
        'model/util/mrc-comma-list.cc',
        'model/util/mrc-mpi.cc',
        'model/util/mrc-canonical-scheduler.cc',
        'model/util/mrc-heap-scheduler.cc',
        # -- wire formats: headers, packet parser, SRv6 encapsulation, entropy, traffic classes
        'model/wire/mrc-aeth-header.cc',
        'model/wire/mrc-bth-header.cc',
        'model/wire/mrc-cc-state-header.cc',
        'model/wire/mrc-cnp-header.cc',
        'model/wire/mrc-eeth-header.cc',
        'model/wire/mrc-entropy.cc',
        'model/wire/mrc-erth-header.cc',
        'model/wire/mrc-icrc-trailer.cc',
        'model/wire/mrc-udp-checksum.cc',
        'model/wire/mrc-imm-dt-header.cc',
        'model/wire/mrc-meth-header.cc',
        'model/wire/mrc-neth-header.cc',
        'model/wire/mrc-packet-info.cc',
        'model/wire/mrc-peth-header.cc',
        'model/wire/mrc-pfc-frame.cc',
        'model/wire/mrc-raw-header.cc',
        'model/wire/mrc-reth-header.cc',
        'model/wire/mrc-seth-header.cc',
        'model/wire/mrc-srh-header.cc',
        'model/wire/mrc-srv6-encap.cc',
        'model/wire/mrc-traffic-class.cc',
        'model/wire/mrc-tseth-header.cc',
        'model/wire/mrc-usid.cc',
        # -- link: net device, channel, class scheduler, PFC
        'model/link/mrc-channel.cc',
        'model/link/mrc-ingress-loss-model.cc',
        'model/link/mrc-remote-port.cc',
        'model/link/mrc-class-scheduler.cc',
        'model/link/mrc-net-device.cc',
        'model/link/mrc-pfc-port.cc',
        # -- switch: node, forwarding engines, shared-buffer MMU, trimmer, ECN marker
        'model/switch/mrc-adaptive-forwarding.cc',
        'model/switch/mrc-dual-forwarding.cc',
        'model/switch/mrc-ecmp-forwarding.cc',
        'model/switch/mrc-ecn-marker.cc',
        'model/switch/mrc-forwarding.cc',
        'model/switch/mrc-raw-traffic.cc',
        'model/switch/mrc-shared-buffer-mmu.cc',
        'model/switch/mrc-srv6-forwarding.cc',
        'model/switch/mrc-switch-node.cc',
        'model/switch/mrc-trimmer.cc',
        # -- NIC: RDMA NIC, queue-pair base, memory regions, work requests
        'model/nic/mrc-endpoint-ops.cc',
        'model/nic/mrc-memory-region.cc',
        'model/nic/mrc-queue-pair.cc',
        'model/nic/mrc-rdma-nic.cc',
        # -- congestion control: the ops base, DCQCN, NSCC
        'model/cc/mrc-congestion-ops.cc',
        'model/cc/mrc-dcqcn-np.cc',
        'model/cc/mrc-dcqcn.cc',
        'model/cc/mrc-nscc.cc',
        # -- path selection: ECMP hash, UEC spraying, MRC EV profile and table
        'model/path/mrc-ev-profile.cc',
        'model/path/mrc-ev-table-health.cc',
        'model/path/mrc-ev-table.cc',
        'model/path/mrc-path-selector.cc',
        'model/path/mrc-uec-path-selector.cc',
        # -- reliability: SACK scoreboard, receive bitmap, SACK policy, backpressure
        'model/reliability/mrc-rcv-backpressure.cc',
        'model/reliability/mrc-receive-bitmap.cc',
        'model/reliability/mrc-sack-policy.cc',
        'model/reliability/mrc-sack-scoreboard.cc',
        # -- transport: common skeleton of the sprayed SACK transports (UEC, MRC)
        'model/transport/common/mrc-message-reassembly.cc',
        'model/transport/common/mrc-sprayed-queue-pair.cc',
        'model/transport/common/mrc-sprayed-responder.cc',
        # -- transport: RoCEv2 RC
        'model/transport/roce/mrc-roce-queue-pair.cc',
        # -- transport: UEC RUD
        'model/transport/uec/mrc-uec-pull-pacer.cc',
        'model/transport/uec/mrc-uec-queue-pair.cc',
        'model/transport/uec/mrc-uec-wire.cc',
        # -- transport: MRC (queue pair, controller, Port Status)
        'model/transport/mrc/mrc-controller.cc',
        'model/transport/mrc/mrc-multipath-attributes.cc',
        'model/transport/mrc/mrc-multipath-messages.cc',
        'model/transport/mrc/mrc-multipath-port-state.cc',
        'model/transport/mrc/mrc-multipath-queue-pair.cc',
        'model/transport/mrc/mrc-multipath-recovery.cc',
        'model/transport/mrc/mrc-multipath-responder.cc',
        'model/transport/mrc/mrc-multipath-sender.cc',
        'model/transport/mrc/mrc-port-status-agent.cc',
        # -- helpers: fabric (links, switches, routes, topologies)
        'helper/fabric/mrc-ecmp-route-manager.cc',
        'helper/fabric/mrc-link-helper.cc',
        'helper/fabric/mrc-switch-helper.cc',
        'helper/fabric/mrc-fabric-streams.cc',
        'helper/fabric/mrc-topology-helper.cc',
        'helper/fabric/mrc-topology.cc',
        # -- helpers: transports (installers, profiles)
        'helper/transports/mrc-multipath-helper.cc',
        'helper/transports/mrc-profiles.cc',
        'helper/transports/mrc-rdma-helper.cc',
        # -- helpers: traffic (workloads, input files, failures)
        'helper/traffic/mrc-failure-injector.cc',
        'helper/traffic/mrc-flow-size-cdf.cc',
        'helper/traffic/mrc-hpcc-input.cc',
        'helper/traffic/mrc-htsim-input.cc',
        'helper/traffic/mrc-input-error.cc',
        'helper/traffic/mrc-collective.cc',
        'helper/traffic/mrc-trace-input.cc',
        'helper/traffic/mrc-workload.cc',
        # -- helpers: results (records, writers, sampler, progress, event log)
        'helper/results/mrc-event-log.cc',
        'helper/results/mrc-progress-reporter.cc',
        'helper/results/mrc-results-writer.cc',
        'helper/results/mrc-run-results.cc',
        'helper/results/mrc-time-series-sampler.cc',
        # -- experiments: mrc-sim (options, presets, transport table, runner), command lines
        'helper/experiments/mrc-command-line.cc',
        'helper/experiments/mrc-scenario-inputs.cc',
        'helper/experiments/mrc-scenario-options.cc',
        'helper/experiments/mrc-scenario-options-checks.cc',
        'helper/experiments/mrc-failure-options.cc',
        'helper/experiments/mrc-scenario-presets.cc',
        'helper/experiments/mrc-scenario-report.cc',
        'helper/experiments/mrc-scenario-runner.cc',
        'helper/experiments/mrc-scenario-series.cc',
        'helper/experiments/mrc-collective-options.cc',
        'helper/experiments/mrc-flow-stream.cc',
        'helper/experiments/mrc-scenario-connections.cc',
        'helper/experiments/mrc-scenario-workload.cc',
        'helper/experiments/mrc-sim-main.cc',
        'helper/experiments/mrc-stall-tracker.cc',
        'helper/experiments/mrc-topology-options.cc',
        'helper/experiments/mrc-transport-table.cc',
    ]

    module_test = bld.create_ns3_module_test_library('mrc')
    module_test.source = [
        'test/mrc-traffic-class-test.cc',
        'test/mrc-attribute-check-test.cc',
        'test/mrc-test-support.cc',
        'test/mrc-test-support.h',
        # -- wire formats: InfiniBand / RoCEv2
        'test/mrc-roce-headers-test.cc',
        'test/mrc-byte-io-test.cc',
        # -- wire formats: MRC extension headers
        'test/mrc-ext-headers-test.cc',
        # -- wire formats: PFC and SRv6
        'test/mrc-pfc-frame-test.cc',
        'test/mrc-srv6-test.cc',
        # -- wire gallery
        'test/mrc-command-line-test.cc',
        'test/mrc-wire-gallery-test.cc',
        'test/mrc-dissector-test.cc',
        # -- fabric: link
        'test/mrc-class-scheduler-test.cc',
        'test/mrc-comma-list-test.cc',
        'test/mrc-link-test.cc',
        'test/mrc-pfc-port-test.cc',
        # -- fabric: switch
        'test/mrc-trim-tshark-test.cc',
        'test/mrc-fabric-incast-test.cc',
        'test/mrc-ecn-marker-test.cc',
        'test/mrc-flat-map-test.cc',
        'test/mrc-heap-scheduler-test.cc',
        'test/mrc-forwarding-test.cc',
        'test/mrc-shared-buffer-mmu-test.cc',
        'test/mrc-switch-packet-test.cc',
        'test/mrc-switch-node-test.cc',
        'test/mrc-ecmp-convergence-test.cc',
        'test/mrc-range-routes-test.cc',
        'test/mrc-fabric-memory-test.cc',
        'test/mrc-distributed-test.cc',
        # -- topology
        'test/mrc-topology-test.cc',
        # -- failures
        'test/mrc-failure-test.cc',
        'test/mrc-failure-options-test.cc',
        'test/mrc-tutorial-test.cc',
        # -- transport: core
        'test/mrc-rdma-nic-test.cc',
        # -- transport: RoCE
        'test/mrc-dcqcn-test.cc',
        'test/mrc-roce-baseline-test.cc',
        'test/mrc-roce-test.cc',
        # -- transport: shared reliability
        'test/mrc-sack-test.cc',
        'test/mrc-nscc-fairness-test.cc',
        'test/mrc-nscc-test.cc',
        # -- transport: MRC
        'test/mrc-port-status-test.cc',
        'test/mrc-receiver-test.cc',
        'test/mrc-spray-proof-test.cc',
        'test/mrc-reconvergence-test.cc',
        'test/mrc-streams-test.cc',
        'test/mrc-multipath-proof-test.cc',
        'test/mrc-multipath-test.cc',
        'test/mrc-ev-test.cc',
        # -- transport: sprayed skeleton (UEC and MRC)
        'test/mrc-sprayed-queue-pair-test.cc',
        # -- transport: UEC
        'test/mrc-uec-test.cc',
        'test/mrc-uec-path-test.cc',
        'test/mrc-path-family-test.cc',
        # -- results
        'test/mrc-results-test.cc',
        'test/mrc-outputs-test.cc',
        # -- workloads
        'test/mrc-input-runs-test.cc',
        'test/mrc-collective-test.cc',
        'test/mrc-workload-test.cc',
        'test/mrc-input-files-test.cc',
        'test/mrc-hardening-test.cc',
        'test/mrc-run-settings-check-test.cc',
        'test/mrc-exactly-once-campaign-test.cc',
        'test/mrc-fuzz-replay-test.cc',
        'test/mrc-fuzz-targets.cc',
        'test/mrc-fuzz-targets.h',
        # -- scenarios
        'test/mrc-experiments-test.cc',
        'test/mrc-scenario-test.cc',
        'test/mrc-connections-test.cc',
        'test/mrc-bench-programs-test.cc',
        'test/mrc-bench-reference-test.cc',
        # the ns-3 TestSuite 'mrc' lists the GoogleTest cases above, so it comes last
        'test/mrc-test-suite.cc',
    ]
    module_test.uselib = 'GTEST'
    module_test.env.append_value('LIB', ['gtest', 'pthread'])

    headers = bld(features='ns3header')
    headers.module = 'mrc'
    headers.source = [
        # -- utilities: small containers, reusable events, ns-3 version shims, comma lists
        'model/util/mrc-attribute-check.h',
        'model/util/mrc-comma-list.h',
        'model/util/mrc-mpi.h',
        'model/util/mrc-canonical-scheduler.h',
        'model/util/mrc-heap-scheduler.h',
        'model/util/mrc-quaternary-heap.h',
        'model/util/mrc-flat-map.h',
        'model/util/mrc-ns3-compat.h',
        'model/util/mrc-uint128.h',
        'model/util/mrc-reusable-event.h',
        'model/util/mrc-tracked-event.h',
        'model/util/mrc-tx-time-cache.h',
        # -- wire formats: headers, packet parser, SRv6 encapsulation, entropy, traffic classes
        'model/wire/mrc-aeth-header.h',
        'model/wire/mrc-bth-header.h',
        'model/wire/mrc-byte-io.h',
        'model/wire/mrc-cc-state-header.h',
        'model/wire/mrc-cnp-header.h',
        'model/wire/mrc-eeth-header.h',
        'model/wire/mrc-entropy.h',
        'model/wire/mrc-erth-header.h',
        'model/wire/mrc-ext-header-common.h',
        'model/wire/mrc-icrc-trailer.h',
        'model/wire/mrc-udp-checksum.h',
        'model/wire/mrc-imm-dt-header.h',
        'model/wire/mrc-meth-header.h',
        'model/wire/mrc-neth-header.h',
        'model/wire/mrc-opcodes.h',
        'model/wire/mrc-packet-info.h',
        'model/wire/mrc-peth-header.h',
        'model/wire/mrc-pfc-frame.h',
        'model/wire/mrc-raw-header.h',
        'model/wire/mrc-reth-header.h',
        'model/wire/mrc-seth-header.h',
        'model/wire/mrc-srh-header.h',
        'model/wire/mrc-srv6-encap.h',
        'model/wire/mrc-traffic-class.h',
        'model/wire/mrc-tseth-header.h',
        'model/wire/mrc-usid.h',
        # -- link: net device, channel, class scheduler, PFC
        'model/link/mrc-channel.h',
        'model/link/mrc-ingress-loss-model.h',
        'model/link/mrc-remote-port.h',
        'model/link/mrc-class-scheduler.h',
        'model/link/mrc-net-device.h',
        'model/link/mrc-pfc-port.h',
        'model/link/mrc-ring.h',
        # -- switch: node, forwarding engines, shared-buffer MMU, trimmer, ECN marker
        'model/switch/mrc-adaptive-forwarding.h',
        'model/switch/mrc-dual-forwarding.h',
        'model/switch/mrc-ecmp-forwarding.h',
        'model/switch/mrc-ecn-marker.h',
        'model/switch/mrc-forwarding.h',
        'model/switch/mrc-raw-traffic.h',
        'model/switch/mrc-shared-buffer-mmu.h',
        'model/switch/mrc-srv6-forwarding.h',
        'model/switch/mrc-switch-node.h',
        'model/switch/mrc-trimmer.h',
        # -- NIC: RDMA NIC, queue-pair base, memory regions, work requests
        'model/nic/mrc-endpoint-ops.h',
        'model/nic/mrc-memory-region.h',
        'model/nic/mrc-queue-pair.h',
        'model/nic/mrc-rdma-nic.h',
        'model/nic/mrc-work-request.h',
        # -- congestion control: the ops base, DCQCN, NSCC
        'model/cc/mrc-congestion-ops.h',
        'model/cc/mrc-dcqcn-np.h',
        'model/cc/mrc-dcqcn.h',
        'model/cc/mrc-nscc.h',
        # -- path selection: ECMP hash, UEC spraying, MRC EV profile and table
        'model/path/mrc-ev-profile.h',
        'model/path/mrc-ev-table.h',
        'model/path/mrc-path-selector.h',
        'model/path/mrc-uec-path-selector.h',
        # -- reliability: SACK scoreboard, receive bitmap, SACK policy, backpressure
        'model/reliability/mrc-rcv-backpressure.h',
        'model/reliability/mrc-receive-bitmap.h',
        'model/reliability/mrc-sack-policy.h',
        'model/reliability/mrc-sack-scoreboard.h',
        # -- transport: common skeleton of the sprayed SACK transports (UEC, MRC)
        'model/transport/common/mrc-message-reassembly.h',
        'model/transport/common/mrc-sprayed-queue-pair.h',
        # -- transport: RoCEv2 RC
        'model/transport/roce/mrc-roce-queue-pair.h',
        # -- transport: UEC RUD
        'model/transport/uec/mrc-uec-pull-pacer.h',
        'model/transport/uec/mrc-uec-queue-pair.h',
        'model/transport/uec/mrc-uec-wire.h',
        # -- transport: MRC (queue pair, controller, Port Status)
        'model/transport/mrc/mrc-controller.h',
        'model/transport/mrc/mrc-multipath-queue-pair.h',
        'model/transport/mrc/mrc-port-status-agent.h',
        # -- helpers: fabric (links, switches, routes, topologies)
        'helper/fabric/mrc-ecmp-route-manager.h',
        'helper/fabric/mrc-link-helper.h',
        'helper/fabric/mrc-switch-helper.h',
        'helper/fabric/mrc-fabric-streams.h',
        'helper/fabric/mrc-topology-helper.h',
        'helper/fabric/mrc-topology.h',
        # -- helpers: transports (installers, profiles)
        'helper/transports/mrc-multipath-helper.h',
        'helper/transports/mrc-profiles.h',
        'helper/transports/mrc-rdma-helper.h',
        # -- helpers: traffic (workloads, input files, failures)
        'helper/traffic/mrc-failure-injector.h',
        'helper/traffic/mrc-flow-size-cdf.h',
        'helper/traffic/mrc-hpcc-input.h',
        'helper/traffic/mrc-htsim-input.h',
        'helper/traffic/mrc-input-error.h',
        'helper/traffic/mrc-collective.h',
        'helper/traffic/mrc-trace-input.h',
        'helper/traffic/mrc-workload.h',
        # -- helpers: results (records, writers, sampler, progress, event log)
        'helper/results/mrc-event-log.h',
        'helper/results/mrc-progress-reporter.h',
        'helper/results/mrc-results-writer.h',
        'helper/results/mrc-run-results.h',
        'helper/results/mrc-time-series-sampler.h',
        # -- experiments: mrc-sim (options, presets, transport table, runner), command lines
        'helper/experiments/mrc-command-line.h',
        'helper/experiments/mrc-scenario.h',
        'helper/experiments/mrc-scenario-config.h',
        'helper/experiments/mrc-scenario-inputs.h',
        'helper/experiments/mrc-scenario-options.h',
        'helper/experiments/mrc-failure-options.h',
        'helper/experiments/mrc-scenario-presets.h',
        'helper/experiments/mrc-scenario-report.h',
        'helper/experiments/mrc-scenario-runner.h',
        'helper/experiments/mrc-scenario-series.h',
        'helper/experiments/mrc-collective-options.h',
        'helper/experiments/mrc-flow-stream.h',
        'helper/experiments/mrc-scenario-connections.h',
        'helper/experiments/mrc-scenario-streams.h',
        'helper/experiments/mrc-scenario-workload.h',
        'helper/experiments/mrc-sim-main.h',
        'helper/experiments/mrc-stall-tracker.h',
        'helper/experiments/mrc-topology-options.h',
        'helper/experiments/mrc-transport-table.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
