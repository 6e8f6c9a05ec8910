-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark dissector for the packets of the ns3-mrc module that Wireshark's
-- own InfiniBand dissector does not know: the MRC opcodes (0xC6-0xDE, also
-- used by the module's UEC RUD transport) and the RoCEv2 CNP (0x81). It
-- decodes their BTH and every extension header after it (METH, TSETH, RETH,
-- ImmDt, AETH, SETH, CC_STATE, NETH, PETH, ERTH, EETH, the CNP body), the
-- payload and the ICRC, with filterable fields (mrc.bth.psn, mrc.seth.cack_psn,
-- mrc.neth.nack_reason, ...). Packets with the RoCE opcodes Wireshark knows
-- are handed to Wireshark's InfiniBand dissector unchanged.
--
-- Load it for one run:
--   tshark -X lua_script:wireshark/mrc.lua -r capture.pcap -V
-- or for good: copy it into Wireshark's personal Lua plugins folder
-- (Help > About Wireshark > Folders > Personal Lua Plugins, e.g.
-- ~/.local/lib/wireshark/plugins/) and restart Wireshark (or Analyze >
-- Reload Lua Plugins).
--
-- The layouts follow the header classes of model/wire (their Serialize and
-- Deserialize) and the wire-format sections of doc/mrc.rst.

local mrc = Proto("mrc", "MRC / UEC RDMA transport (ns3-mrc)")

-------------------------------------------------------------------------------
-- Preferences

local EV_SPLIT_LOW = 0
local EV_SPLIT_HIGH = 1

mrc.prefs.udp_port = Pref.uint("UDP port", 4791, "UDP destination port that carries a BTH " ..
    "(ns3::MrcRdmaNic::BthUdpPort; 4791 = RoCEv2)")
mrc.prefs.check_icrc = Pref.bool("Check the ICRC", true,
    "Compute the ICRC of every MRC packet and compare it with the one on the wire " ..
    "(a zero ICRC, written when ns3::MrcRdmaNic::ComputeIcrc is false, is reported as " ..
    "not computed)")
mrc.prefs.ev_split = Pref.enum("EV split", EV_SPLIT_LOW,
    "Which half of the 32-bit entropy value (EV) the UDP source port carries " ..
    "(ns3-mrc's MrcEvSplit; the IPv6 flow label carries the other half): SRC_PORT_LOW, " ..
    "the ns3-mrc default, = EV[15:0]; SRC_PORT_HIGH = EV[31:16]",
    { { 1, "SRC_PORT_LOW", EV_SPLIT_LOW }, { 2, "SRC_PORT_HIGH", EV_SPLIT_HIGH } }, false)
mrc.prefs.trimmed_dscp = Pref.uint("Trimmed DSCP", 11,
    "DSCP a trimming switch writes (ns3::MrcTrimmer::TrimmedDscp); such packets carry no ICRC")
mrc.prefs.trimmed_lasthop_dscp = Pref.uint("Trimmed last-hop DSCP", 21,
    "DSCP written when trimming toward a host (ns3::MrcTrimmer::TrimmedLastHopDscp)")

-------------------------------------------------------------------------------
-- Value names

local OP = {
    CNP = 0x81,
    WRITE_FIRST = 0xc6,
    WRITE_MIDDLE = 0xc7,
    WRITE_LAST = 0xc8,
    WRITE_LAST_IMM = 0xc9,
    WRITE_ONLY = 0xca,
    WRITE_ONLY_IMM = 0xcb,
    TRANSPORT_ACK = 0xd1,
    ENDPOINT_REQUEST = 0xd8,
    ENDPOINT_RESPONSE = 0xd9,
    SACK = 0xdc,
    NACK = 0xdd,
    PROBE = 0xde,
}

local opcode_names = {
    [OP.CNP] = "RoCEv2 CNP",
    [OP.WRITE_FIRST] = "MRC Write First",
    [OP.WRITE_MIDDLE] = "MRC Write Middle",
    [OP.WRITE_LAST] = "MRC Write Last",
    [OP.WRITE_LAST_IMM] = "MRC Write Last with Immediate",
    [OP.WRITE_ONLY] = "MRC Write Only",
    [OP.WRITE_ONLY_IMM] = "MRC Write Only with Immediate",
    [OP.TRANSPORT_ACK] = "MRC Transport ACK",
    [OP.ENDPOINT_REQUEST] = "MRC Endpoint Request",
    [OP.ENDPOINT_RESPONSE] = "MRC Endpoint Response",
    [OP.SACK] = "MRC SACK",
    [OP.NACK] = "MRC NACK",
    [OP.PROBE] = "MRC Reliability Probe",
}

local nack_reason_names = {
    [0x01] = "TRIMMED",
    [0x02] = "TRIMMED_LASTHOP",
    [0x06] = "NO_BITMAP",
    [0x07] = "NO_PKT_BUFFER",
    [0x0a] = "NO_RESOURCE",
    [0x0b] = "PSN_OOR_WINDOW",
    [0x19] = "UNEXP_EVENT",
}

local path_feedback_names = {
    [0] = "NONE",
    [1] = "SKIP_ONCE",
    [2] = "ALWAYS_SKIP",
    [3] = "RESERVED",
}

local endpoint_op_names = {
    [0] = "PORT_STATUS_UPDATE",
    [1] = "EV_PROBE",
    [2] = "UNKNOWN(2)",
    [3] = "UNKNOWN(3)",
}

local aeth_type_names = {
    [0] = "ACK",
    [1] = "RNR NAK",
    [2] = "Reserved",
    [3] = "NAK",
}

local icrc_status_names = {
    [0] = "Bad",
    [1] = "Good",
    [2] = "Not computed (zero)",
    [3] = "Unverified",
}
local ICRC_BAD, ICRC_GOOD, ICRC_ZERO, ICRC_UNVERIFIED = 0, 1, 2, 3

-------------------------------------------------------------------------------
-- Fields

local F = {}
local function field(key, f)
    F[key] = f
end

-- BTH (12 bytes), for the opcodes decoded here.
field("bth", ProtoField.none("mrc.bth", "Base Transport Header (BTH)"))
field("bth_opcode", ProtoField.uint8("mrc.bth.opcode", "Opcode", base.HEX, opcode_names))
field("bth_se", ProtoField.bool("mrc.bth.se", "Solicited event", 8, nil, 0x80))
field("bth_m", ProtoField.bool("mrc.bth.m", "Migration request", 8, nil, 0x40))
field("bth_padcnt", ProtoField.uint8("mrc.bth.padcnt", "Pad count", base.DEC, nil, 0x30))
field("bth_tver", ProtoField.uint8("mrc.bth.tver", "Transport header version", base.DEC, nil, 0x0f))
field("bth_pkey", ProtoField.uint16("mrc.bth.p_key", "Partition key", base.HEX))
field("bth_fecn", ProtoField.bool("mrc.bth.fecn", "FECN", 8, nil, 0x80))
field("bth_becn", ProtoField.bool("mrc.bth.becn", "BECN", 8, nil, 0x40))
field("bth_resv6", ProtoField.uint8("mrc.bth.reserved6", "Reserved", base.HEX, nil, 0x3f))
field("bth_destqp", ProtoField.uint24("mrc.bth.destqp", "Destination QP", base.HEX))
field("bth_a", ProtoField.bool("mrc.bth.a", "Acknowledge request", 8, nil, 0x80))
field("bth_resv_b8", ProtoField.uint8("mrc.bth.reserved8", "Reserved", base.HEX, nil, 0x4f))
field("bth_rtx", ProtoField.bool("mrc.bth.rtx", "Retransmission (RTX)", 8, nil, 0x20))
field("bth_ts", ProtoField.bool("mrc.bth.ts", "TSETH present (TS)", 8, nil, 0x10))
field("bth_psn", ProtoField.uint24("mrc.bth.psn", "Packet sequence number", base.DEC))

-- Entropy value of the packet itself (from the UDP source port and the flow label).
field("ev", ProtoField.uint32("mrc.ev", "Entropy value (EV)", base.HEX))
field("trimmed", ProtoField.bool("mrc.trimmed", "Trimmed (payload and ICRC cut by a switch)"))

-- METH (4 bytes)
field("meth", ProtoField.none("mrc.meth", "MRC Extended Transport Header (METH)"))
field("meth_rqmsn", ProtoField.uint16("mrc.meth.rqmsn", "RQ message sequence number (RQMSN)", base.DEC))
field("meth_msn", ProtoField.uint16("mrc.meth.msn", "Message sequence number (MSN)", base.DEC))

-- TSETH (4 bytes); the same 4-byte block ends PETH and ERTH.
field("tseth", ProtoField.none("mrc.tseth", "Timestamp Extended Header (TSETH)"))
field("tseth_ts", ProtoField.uint16("mrc.tseth.tx_timestamp", "Transmit timestamp", base.DEC))
field("tseth_tsr", ProtoField.bool("mrc.tseth.tsr", "Timestamp resolution (TSR)", 16, nil, 0x8000))
field("tseth_resv", ProtoField.uint16("mrc.tseth.reserved", "Reserved", base.HEX, nil, 0x7ff0))
field("tseth_ftype", ProtoField.uint16("mrc.tseth.ftype", "Format type", base.DEC, nil, 0x000f))

-- RETH (16 bytes)
field("reth", ProtoField.none("mrc.reth", "RDMA Extended Transport Header (RETH)"))
field("reth_va", ProtoField.uint64("mrc.reth.va", "Virtual address", base.HEX))
field("reth_rkey", ProtoField.uint32("mrc.reth.rkey", "Remote key", base.HEX))
field("reth_dmalen", ProtoField.uint32("mrc.reth.dma_length", "DMA length", base.DEC))

-- ImmDt (4 bytes)
field("immdt", ProtoField.uint32("mrc.immdt", "Immediate data (ImmDt)", base.HEX))

-- AETH (4 bytes), MRC Transport ACK
field("aeth", ProtoField.none("mrc.aeth", "ACK Extended Transport Header (AETH)"))
field("aeth_type", ProtoField.uint8("mrc.aeth.type", "Syndrome type", base.DEC, aeth_type_names, 0x60))
field("aeth_value", ProtoField.uint8("mrc.aeth.value", "Syndrome value", base.HEX, nil, 0x1f))
field("aeth_msn", ProtoField.uint24("mrc.aeth.msn", "Message sequence number", base.DEC))

-- Leading word shared by SETH, NETH, PETH, ERTH and EETH.
local function lead_fields(h)
    field(h .. "_type", ProtoField.uint16("mrc." .. h .. ".type", "Type (reserved)", base.DEC, nil, 0xf000))
    field(h .. "_nxt", ProtoField.uint16("mrc." .. h .. ".nxt", "Next header (reserved)", base.DEC, nil, 0x0f80))
end

-- SETH (28 bytes)
field("seth", ProtoField.none("mrc.seth", "Selective ACK Extended Header (SETH)"))
lead_fields("seth")
field("seth_m", ProtoField.uint16("mrc.seth.m", "Path feedback (m)", base.DEC, path_feedback_names, 0x0060))
field("seth_resv", ProtoField.uint16("mrc.seth.reserved", "Reserved", base.HEX, nil, 0x001d))
field("seth_pr", ProtoField.bool("mrc.seth.pr", "Probe response (pr)", 16, nil, 0x0002))
field("seth_ack_off", ProtoField.int16("mrc.seth.ack_psn_offset", "ACK PSN offset", base.DEC))
field("seth_probe_id", ProtoField.uint16("mrc.seth.probe_id", "Probe id (answered probe)", base.HEX))
field("seth_entropy", ProtoField.uint32("mrc.seth.entropy", "Entropy (reflected EV)", base.HEX))
field("seth_spdcid", ProtoField.uint16("mrc.seth.spdcid", "Source PDC id", base.HEX))
field("seth_dpdcid", ProtoField.uint16("mrc.seth.dpdcid", "Destination PDC id", base.HEX))
field("seth_resv2", ProtoField.uint8("mrc.seth.reserved2", "Reserved", base.HEX))
field("seth_cack", ProtoField.uint24("mrc.seth.cack_psn", "Cumulative ACK PSN", base.DEC))
field("seth_cc_type", ProtoField.uint8("mrc.seth.cc_type", "CC type", base.DEC, nil, 0xf0))
field("seth_cc_flags", ProtoField.uint8("mrc.seth.cc_flags", "CC flags", base.HEX, nil, 0x0f))
field("seth_mpr", ProtoField.uint8("mrc.seth.mpr", "Maximum PSN range (mpr, x128 PSNs)", base.DEC))
field("seth_sack_off", ProtoField.int16("mrc.seth.sack_offset", "SACK offset", base.DEC))
field("seth_bitmap", ProtoField.uint64("mrc.seth.sack_bitmap", "SACK bitmap (bit 0 = base PSN)", base.HEX))
field("seth_ack_psn", ProtoField.uint24("mrc.seth.ack_psn", "ACK PSN", base.DEC))
field("seth_sack_base", ProtoField.uint24("mrc.seth.sack_base_psn", "SACK bitmap base PSN", base.DEC))
field("seth_sacked", ProtoField.uint8("mrc.seth.sacked", "PSNs marked in the bitmap", base.DEC))

-- CC_STATE (8 bytes), after the SETH
field("cc", ProtoField.none("mrc.cc_state", "Congestion Control State (CC_STATE)"))
field("cc_ts", ProtoField.uint16("mrc.cc_state.tx_timestamp", "Transmit timestamp (reflected)", base.DEC))
field("cc_resv", ProtoField.uint16("mrc.cc_state.reserved", "Reserved", base.HEX, nil, 0x8000))
field("cc_ooo", ProtoField.uint16("mrc.cc_state.ooo_count", "Out-of-order count", base.DEC, nil, 0x7fff))
field("cc_restore", ProtoField.bool("mrc.cc_state.restore_cwnd", "Restore cwnd", 32, nil, 0x80000000))
field("cc_pen", ProtoField.uint32("mrc.cc_state.rcv_cwnd_pen", "Receiver cwnd penalty", base.DEC, nil, 0x7f000000))
field("cc_rcvd", ProtoField.uint32("mrc.cc_state.rcvd_bytes", "Received bytes (256-byte units)", base.DEC, nil, 0x00ffffff))
field("cc_rcvd_bytes", ProtoField.uint32("mrc.cc_state.rcvd_bytes_total", "Received bytes (mod 2^32)", base.DEC))

-- NETH (20 bytes)
field("neth", ProtoField.none("mrc.neth", "NACK Extended Header (NETH)"))
lead_fields("neth")
field("neth_resv", ProtoField.uint16("mrc.neth.reserved", "Reserved", base.HEX, nil, 0x007f))
field("neth_reason", ProtoField.uint8("mrc.neth.nack_reason", "NACK reason", base.HEX, nack_reason_names))
field("neth_vendor", ProtoField.uint8("mrc.neth.vendor_info", "Vendor info", base.HEX))
field("neth_entropy", ProtoField.uint32("mrc.neth.entropy", "Entropy (reflected EV)", base.HEX))
field("neth_spdcid", ProtoField.uint16("mrc.neth.spdcid", "Source PDC id", base.HEX))
field("neth_dpdcid", ProtoField.uint16("mrc.neth.dpdcid", "Destination PDC id", base.HEX))
field("neth_resv2", ProtoField.uint8("mrc.neth.reserved2", "Reserved", base.HEX))
field("neth_psn", ProtoField.uint24("mrc.neth.nack_psn", "NACK PSN", base.DEC))
field("neth_cc_type", ProtoField.uint8("mrc.neth.cc_type", "CC type", base.DEC, nil, 0xf0))
field("neth_cc_flags", ProtoField.uint8("mrc.neth.cc_flags", "CC flags", base.HEX, nil, 0x0f))
field("neth_resv3", ProtoField.uint8("mrc.neth.reserved3", "Reserved", base.HEX))
field("neth_ts", ProtoField.uint16("mrc.neth.tx_timestamp", "Transmit timestamp (reflected)", base.DEC))

-- PETH (16 bytes)
field("peth", ProtoField.none("mrc.peth", "Probe Extended Header (PETH)"))
lead_fields("peth")
field("peth_resv", ProtoField.uint16("mrc.peth.reserved", "Reserved", base.HEX, nil, 0x007f))
field("peth_resv2", ProtoField.uint8("mrc.peth.reserved2", "Reserved", base.HEX))
field("peth_vendor", ProtoField.uint8("mrc.peth.vendor_info", "Vendor info", base.HEX))
field("peth_probe_id", ProtoField.uint16("mrc.peth.probe_id", "Probe id", base.HEX))
field("peth_resv3", ProtoField.uint16("mrc.peth.reserved3", "Reserved", base.HEX))
field("peth_spdcid", ProtoField.uint16("mrc.peth.spdcid", "Source PDC id", base.HEX))
field("peth_dpdcid", ProtoField.uint16("mrc.peth.dpdcid", "Destination PDC id", base.HEX))

-- ERTH (16 bytes)
field("erth", ProtoField.none("mrc.erth", "Endpoint Request Extended Header (ERTH)"))
lead_fields("erth")
field("erth_resv", ProtoField.uint16("mrc.erth.reserved", "Reserved", base.HEX, nil, 0x007c))
field("erth_op", ProtoField.uint16("mrc.erth.op", "Endpoint operation", base.DEC, endpoint_op_names, 0x0003))
field("erth_resv2", ProtoField.uint8("mrc.erth.reserved2", "Reserved", base.HEX))
field("erth_vendor", ProtoField.uint8("mrc.erth.vendor_info", "Vendor info", base.HEX))
field("erth_mask", ProtoField.uint32("mrc.erth.port_status_mask", "Port status mask (bit N = port N up)", base.HEX))
field("erth_resv3", ProtoField.uint32("mrc.erth.reserved3", "Reserved", base.HEX))

-- EETH (36 bytes)
field("eeth", ProtoField.none("mrc.eeth", "Endpoint Response Extended Header (EETH)"))
lead_fields("eeth")
field("eeth_resv", ProtoField.uint16("mrc.eeth.reserved", "Reserved", base.HEX, nil, 0x0073))
field("eeth_op", ProtoField.uint16("mrc.eeth.op", "Endpoint operation", base.DEC, endpoint_op_names, 0x000c))
field("eeth_resv2", ProtoField.bytes("mrc.eeth.reserved2", "Reserved"))
field("eeth_ts", ProtoField.uint16("mrc.eeth.tx_timestamp", "Transmit timestamp (reflected)", base.DEC))
field("eeth_resv3", ProtoField.bytes("mrc.eeth.reserved3", "Reserved"))

-- CNP body (16 bytes)
field("cnp", ProtoField.bytes("mrc.cnp.reserved", "CNP reserved bytes"))

-- Payload and ICRC
field("payload", ProtoField.bytes("mrc.payload", "Payload"))
field("payload_len", ProtoField.uint32("mrc.payload.length", "Payload length", base.DEC))
field("icrc", ProtoField.uint32("mrc.icrc", "Invariant CRC (ICRC)", base.HEX))
field("icrc_calc", ProtoField.uint32("mrc.icrc.calculated", "Calculated ICRC", base.HEX))
field("icrc_status", ProtoField.uint8("mrc.icrc.status", "ICRC status", base.DEC, icrc_status_names))

local field_list = {}
for _, f in pairs(F) do
    field_list[#field_list + 1] = f
end
mrc.fields = field_list

local E = {
    icrc_bad = ProtoExpert.new("mrc.icrc.bad", "Bad ICRC", expert.group.CHECKSUM, expert.severity.ERROR),
    truncated = ProtoExpert.new("mrc.truncated", "Header cut short", expert.group.MALFORMED,
        expert.severity.ERROR),
    trimmed = ProtoExpert.new("mrc.trimmed.note", "Trimmed packet: no payload tail and no ICRC",
        expert.group.SEQUENCE, expert.severity.CHAT),
}
mrc.experts = { E.icrc_bad, E.truncated, E.trimmed }

-------------------------------------------------------------------------------
-- Fields of lower layers this dissector reads (the innermost IPv6 and the UDP header).

local fe_ipv6_src = Field.new("ipv6.src")
local fe_ipv6_dst = Field.new("ipv6.dst")
local fe_ipv6_plen = Field.new("ipv6.plen")
local fe_ipv6_flow = Field.new("ipv6.flow")
local fe_ipv6_dscp = Field.new("ipv6.tclass.dscp")
local fe_udp_srcport = Field.new("udp.srcport")
local fe_udp_dstport = Field.new("udp.dstport")
local fe_udp_length = Field.new("udp.length")

--- @return the last occurrence of a field (the innermost header's), or nil
local function last(extractor)
    local all = { extractor() }
    return all[#all]
end

-------------------------------------------------------------------------------
-- ICRC: CRC-32 (reflected 0x04C11DB7, preset and final complement) over eight
-- 0xFF bytes, the innermost IPv6 header with traffic class, flow label and
-- hop limit set to ones, the UDP header with its checksum set to ones, the BTH
-- with byte 4 set to ones, and everything after it up to the ICRC.

local band, bxor, rshift, bnot = bit32.band, bit32.bxor, bit32.rshift, bit32.bnot

local crc_table = {}
for n = 0, 255 do
    local c = n
    for _ = 1, 8 do
        if band(c, 1) ~= 0 then
            c = bxor(rshift(c, 1), 0xedb88320)
        else
            c = rshift(c, 1)
        end
    end
    crc_table[n] = c
end

local function crc_update(crc, s)
    for i = 1, #s do
        crc = bxor(crc_table[band(bxor(crc, s:byte(i)), 0xff)], rshift(crc, 8))
    end
    return crc
end

--- @return the ICRC of the packet whose UDP payload is tvb, with the ICRC at icrc_off; nil if
---         the lower headers are not available
local function compute_icrc(tvb, icrc_off)
    local src, dst, plen = last(fe_ipv6_src), last(fe_ipv6_dst), last(fe_ipv6_plen)
    local sport, dport, ulen = last(fe_udp_srcport), last(fe_udp_dstport), last(fe_udp_length)
    if not (src and dst and plen and sport and dport and ulen) then
        return nil
    end
    local function u16(v)
        return string.char(band(rshift(v, 8), 0xff), band(v, 0xff))
    end
    local crc = 0xffffffff
    crc = crc_update(crc, string.rep("\255", 8))
    crc = crc_update(crc, "\111\255\255\255" .. u16(plen.value) .. "\017\255")
    crc = crc_update(crc, src.range:raw() .. dst.range:raw())
    crc = crc_update(crc, u16(sport.value) .. u16(dport.value) .. u16(ulen.value) .. "\255\255")
    crc = crc_update(crc, tvb:raw(0, 4) .. "\255" .. tvb:raw(5, icrc_off - 5))
    return bnot(crc)
end

-------------------------------------------------------------------------------
-- Header parsers. Each takes (tvb, off, tree, info) and returns the new offset;
-- info collects text for the Info column.

local function need(tvb, off, len, tree, name)
    if tvb:reported_length_remaining(off) < len then
        tree:add_proto_expert_info(E.truncated, name .. " needs " .. len .. " bytes, " ..
            math.max(tvb:reported_length_remaining(off), 0) .. " left")
        return false
    end
    return true
end

local function lead(t, h, r)
    t:add(F[h .. "_type"], r)
    t:add(F[h .. "_nxt"], r)
end

local function ts_block(t, tvb, off)
    t:add(F.tseth_ts, tvb(off, 2))
    t:add(F.tseth_tsr, tvb(off + 2, 2))
    t:add(F.tseth_resv, tvb(off + 2, 2))
    t:add(F.tseth_ftype, tvb(off + 2, 2))
end

local function parse_meth(tvb, off, tree, info)
    if not need(tvb, off, 4, tree, "METH") then return nil end
    local t = tree:add(F.meth, tvb(off, 4))
    t:add(F.meth_rqmsn, tvb(off, 2))
    t:add(F.meth_msn, tvb(off + 2, 2))
    t:append_text(string.format(", MSN %d", tvb(off + 2, 2):uint()))
    info[#info + 1] = "MSN=" .. tvb(off + 2, 2):uint()
    return off + 4
end

local function parse_tseth(tvb, off, tree, info)
    if not need(tvb, off, 4, tree, "TSETH") then return nil end
    local t = tree:add(F.tseth, tvb(off, 4))
    ts_block(t, tvb, off)
    t:append_text(string.format(", tx_timestamp %d", tvb(off, 2):uint()))
    return off + 4
end

local function parse_reth(tvb, off, tree, info)
    if not need(tvb, off, 16, tree, "RETH") then return nil end
    local t = tree:add(F.reth, tvb(off, 16))
    t:add(F.reth_va, tvb(off, 8))
    t:add(F.reth_rkey, tvb(off + 8, 4))
    t:add(F.reth_dmalen, tvb(off + 12, 4))
    t:append_text(string.format(", DMA length %d", tvb(off + 12, 4):uint()))
    return off + 16
end

local function parse_immdt(tvb, off, tree, info)
    if not need(tvb, off, 4, tree, "ImmDt") then return nil end
    tree:add(F.immdt, tvb(off, 4))
    return off + 4
end

local function parse_aeth(tvb, off, tree, info)
    if not need(tvb, off, 4, tree, "AETH") then return nil end
    local t = tree:add(F.aeth, tvb(off, 4))
    t:add(F.aeth_type, tvb(off, 1))
    t:add(F.aeth_value, tvb(off, 1))
    t:add(F.aeth_msn, tvb(off + 1, 3))
    info[#info + 1] = aeth_type_names[band(rshift(tvb(off, 1):uint(), 5), 3)]
    return off + 4
end

local function parse_seth(tvb, off, tree, info)
    if not need(tvb, off, 28, tree, "SETH") then return nil end
    local t = tree:add(F.seth, tvb(off, 28))
    local r = tvb(off, 2)
    lead(t, "seth", r)
    t:add(F.seth_m, r)
    t:add(F.seth_resv, r)
    t:add(F.seth_pr, r)
    local pr = band(r:uint(), 0x0002) ~= 0
    if pr then
        t:add(F.seth_probe_id, tvb(off + 2, 2))
    else
        t:add(F.seth_ack_off, tvb(off + 2, 2))
    end
    t:add(F.seth_entropy, tvb(off + 4, 4))
    t:add(F.seth_spdcid, tvb(off + 8, 2))
    t:add(F.seth_dpdcid, tvb(off + 10, 2))
    t:add(F.seth_resv2, tvb(off + 12, 1))
    t:add(F.seth_cack, tvb(off + 13, 3))
    t:add(F.seth_cc_type, tvb(off + 16, 1))
    t:add(F.seth_cc_flags, tvb(off + 16, 1))
    t:add(F.seth_mpr, tvb(off + 17, 1))
    t:add(F.seth_sack_off, tvb(off + 18, 2))
    t:add(F.seth_bitmap, tvb(off + 20, 8))
    local cack = tvb(off + 13, 3):uint()
    if not pr then
        local ack = band(cack + tvb(off + 2, 2):int(), 0xffffff)
        t:add(F.seth_ack_psn, ack):set_generated()
    end
    local base_psn = band(cack + tvb(off + 18, 2):int(), 0xffffff)
    t:add(F.seth_sack_base, base_psn):set_generated()
    local marked = 0
    for _, w in ipairs({ tvb(off + 20, 4):uint(), tvb(off + 24, 4):uint() }) do
        while w ~= 0 do
            marked = marked + band(w, 1)
            w = rshift(w, 1)
        end
    end
    t:add(F.seth_sacked, marked):set_generated()
    t:append_text(string.format(", cack_psn %d, entropy 0x%08x", cack, tvb(off + 4, 4):uint()))
    info[#info + 1] = "cack_psn=" .. cack
    if pr then
        info[#info + 1] = string.format("probe_id=0x%04x", tvb(off + 2, 2):uint())
    end
    return off + 28
end

local function parse_cc_state(tvb, off, tree, info)
    if not need(tvb, off, 8, tree, "CC_STATE") then return nil end
    local t = tree:add(F.cc, tvb(off, 8))
    t:add(F.cc_ts, tvb(off, 2))
    t:add(F.cc_resv, tvb(off + 2, 2))
    t:add(F.cc_ooo, tvb(off + 2, 2))
    t:add(F.cc_restore, tvb(off + 4, 4))
    t:add(F.cc_pen, tvb(off + 4, 4))
    t:add(F.cc_rcvd, tvb(off + 4, 4))
    local units = band(tvb(off + 4, 4):uint(), 0x00ffffff)
    t:add(F.cc_rcvd_bytes, band(units * 256, 0xffffffff)):set_generated()
    return off + 8
end

local function parse_neth(tvb, off, tree, info)
    if not need(tvb, off, 20, tree, "NETH") then return nil end
    local t = tree:add(F.neth, tvb(off, 20))
    local r = tvb(off, 2)
    lead(t, "neth", r)
    t:add(F.neth_resv, r)
    t:add(F.neth_reason, tvb(off + 2, 1))
    t:add(F.neth_vendor, tvb(off + 3, 1))
    t:add(F.neth_entropy, tvb(off + 4, 4))
    t:add(F.neth_spdcid, tvb(off + 8, 2))
    t:add(F.neth_dpdcid, tvb(off + 10, 2))
    t:add(F.neth_resv2, tvb(off + 12, 1))
    t:add(F.neth_psn, tvb(off + 13, 3))
    t:add(F.neth_cc_type, tvb(off + 16, 1))
    t:add(F.neth_cc_flags, tvb(off + 16, 1))
    t:add(F.neth_resv3, tvb(off + 17, 1))
    t:add(F.neth_ts, tvb(off + 18, 2))
    local reason = tvb(off + 2, 1):uint()
    local name = nack_reason_names[reason] or string.format("0x%02x", reason)
    t:append_text(string.format(", %s, nack_psn %d", name, tvb(off + 13, 3):uint()))
    info[#info + 1] = name .. " nack_psn=" .. tvb(off + 13, 3):uint()
    return off + 20
end

local function parse_peth(tvb, off, tree, info)
    if not need(tvb, off, 16, tree, "PETH") then return nil end
    local t = tree:add(F.peth, tvb(off, 16))
    local r = tvb(off, 2)
    lead(t, "peth", r)
    t:add(F.peth_resv, r)
    t:add(F.peth_resv2, tvb(off + 2, 1))
    t:add(F.peth_vendor, tvb(off + 3, 1))
    t:add(F.peth_probe_id, tvb(off + 4, 2))
    t:add(F.peth_resv3, tvb(off + 6, 2))
    t:add(F.peth_spdcid, tvb(off + 8, 2))
    t:add(F.peth_dpdcid, tvb(off + 10, 2))
    ts_block(t, tvb, off + 12)
    t:append_text(string.format(", probe_id 0x%04x", tvb(off + 4, 2):uint()))
    info[#info + 1] = string.format("probe_id=0x%04x", tvb(off + 4, 2):uint())
    return off + 16
end

local function parse_erth(tvb, off, tree, info)
    if not need(tvb, off, 16, tree, "ERTH") then return nil end
    local t = tree:add(F.erth, tvb(off, 16))
    local r = tvb(off, 2)
    lead(t, "erth", r)
    t:add(F.erth_resv, r)
    t:add(F.erth_op, r)
    t:add(F.erth_resv2, tvb(off + 2, 1))
    t:add(F.erth_vendor, tvb(off + 3, 1))
    t:add(F.erth_mask, tvb(off + 4, 4))
    t:add(F.erth_resv3, tvb(off + 8, 4))
    ts_block(t, tvb, off + 12)
    local op = endpoint_op_names[band(r:uint(), 3)]
    t:append_text(string.format(", %s, port mask 0x%08x", op, tvb(off + 4, 4):uint()))
    info[#info + 1] = string.format("%s mask=0x%08x", op, tvb(off + 4, 4):uint())
    return off + 16
end

local function parse_eeth(tvb, off, tree, info)
    if not need(tvb, off, 36, tree, "EETH") then return nil end
    local t = tree:add(F.eeth, tvb(off, 36))
    local r = tvb(off, 2)
    lead(t, "eeth", r)
    t:add(F.eeth_resv, r)
    t:add(F.eeth_op, r)
    t:add(F.eeth_resv2, tvb(off + 2, 26))
    t:add(F.eeth_ts, tvb(off + 28, 2))
    t:add(F.eeth_resv3, tvb(off + 30, 6))
    local op = endpoint_op_names[band(rshift(r:uint(), 2), 3)]
    t:append_text(", " .. op)
    info[#info + 1] = op
    return off + 36
end

local function parse_cnp(tvb, off, tree, info)
    if not need(tvb, off, 16, tree, "CNP") then return nil end
    tree:add(F.cnp, tvb(off, 16))
    return off + 16
end

--- @return the list of header parsers that follow the BTH of an opcode (nil: not ours)
local function headers_of(opcode, ts)
    if opcode >= OP.WRITE_FIRST and opcode <= OP.WRITE_ONLY_IMM then
        local list = { parse_meth }
        if ts then
            list[#list + 1] = parse_tseth
        end
        list[#list + 1] = parse_reth
        if opcode == OP.WRITE_LAST_IMM or opcode == OP.WRITE_ONLY_IMM then
            list[#list + 1] = parse_immdt
        end
        return list
    end
    local fixed = {
        [OP.CNP] = { parse_cnp },
        [OP.TRANSPORT_ACK] = { parse_aeth },
        [OP.ENDPOINT_REQUEST] = { parse_erth },
        [OP.ENDPOINT_RESPONSE] = { parse_eeth },
        [OP.SACK] = { parse_seth, parse_cc_state },
        [OP.NACK] = { parse_neth },
        [OP.PROBE] = { parse_peth },
    }
    return fixed[opcode]
end

-------------------------------------------------------------------------------
-- The dissector

local infiniband = nil -- Wireshark's handle on the UDP port, for the RoCE opcodes

local function is_trimmed()
    local trimmed = false
    for _, d in ipairs({ fe_ipv6_dscp() }) do
        if d.value == mrc.prefs.trimmed_dscp or d.value == mrc.prefs.trimmed_lasthop_dscp then
            trimmed = true
        end
    end
    return trimmed
end

--- @return the EV of this packet from its UDP source port and innermost flow label
local function packet_ev()
    local sport, flow = last(fe_udp_srcport), last(fe_ipv6_flow)
    if not (sport and flow) then
        return nil
    end
    local fl = band(flow.value, 0xffff)
    if mrc.prefs.ev_split == EV_SPLIT_LOW then
        return fl * 65536 + sport.value
    end
    return sport.value * 65536 + fl
end

function mrc.dissector(tvb, pinfo, tree)
    if tvb:len() < 1 then
        return 0
    end
    local opcode = tvb(0, 1):uint()
    local ts = tvb:len() >= 9 and band(tvb(8, 1):uint(), 0x10) ~= 0
    local parsers = headers_of(opcode, ts)
    if parsers == nil then
        if infiniband then
            return infiniband:call(tvb, pinfo, tree)
        end
        return 0
    end

    local name = opcode_names[opcode]
    pinfo.cols.protocol = (opcode == OP.CNP) and "RoCEv2" or "MRC"
    local root = tree:add(mrc, tvb(), "MRC/UEC transport (ns3-mrc): " .. name)
    if not need(tvb, 0, 12, root, "BTH") then
        return tvb:len()
    end

    local bth = root:add(F.bth, tvb(0, 12))
    bth:add(F.bth_opcode, tvb(0, 1))
    bth:add(F.bth_se, tvb(1, 1))
    bth:add(F.bth_m, tvb(1, 1))
    bth:add(F.bth_padcnt, tvb(1, 1))
    bth:add(F.bth_tver, tvb(1, 1))
    bth:add(F.bth_pkey, tvb(2, 2))
    bth:add(F.bth_fecn, tvb(4, 1))
    bth:add(F.bth_becn, tvb(4, 1))
    bth:add(F.bth_resv6, tvb(4, 1))
    bth:add(F.bth_destqp, tvb(5, 3))
    bth:add(F.bth_a, tvb(8, 1))
    bth:add(F.bth_resv_b8, tvb(8, 1))
    bth:add(F.bth_rtx, tvb(8, 1))
    bth:add(F.bth_ts, tvb(8, 1))
    bth:add(F.bth_psn, tvb(9, 3))
    local destqp, psn = tvb(5, 3):uint(), tvb(9, 3):uint()
    bth:append_text(string.format(", %s, QP 0x%06x, PSN %d", name, destqp, psn))

    local info = { name, string.format("QP=0x%06x", destqp), "PSN=" .. psn }
    if band(tvb(8, 1):uint(), 0x20) ~= 0 then
        info[#info + 1] = "RTX"
    end
    if opcode ~= OP.CNP then
        local ev = packet_ev()
        if ev then
            root:add(F.ev, ev):set_generated()
        end
    end

    local off = 12
    for _, parse in ipairs(parsers) do
        off = parse(tvb, off, root, info)
        if off == nil then
            pinfo.cols.info = table.concat(info, " ")
            return tvb:len()
        end
    end

    local trimmed = is_trimmed()
    local total = tvb:reported_length_remaining(0)
    local icrc_len = (not trimmed and total - off >= 4) and 4 or 0
    local payload = total - off - icrc_len
    if payload > 0 then
        root:add(F.payload, tvb(off, payload))
    end
    root:add(F.payload_len, payload):set_generated()
    if trimmed then
        local it = root:add(F.trimmed, true)
        it:set_generated()
        it:add_proto_expert_info(E.trimmed)
        info[#info + 1] = "[trimmed]"
    end
    if icrc_len == 4 then
        local icrc_off = off + payload
        local wire = tvb(icrc_off, 4):le_uint()
        local it = root:add_le(F.icrc, tvb(icrc_off, 4))
        local status = ICRC_UNVERIFIED
        if wire == 0 then
            status = ICRC_ZERO
        elseif mrc.prefs.check_icrc then
            local calc = compute_icrc(tvb, icrc_off)
            if calc ~= nil then
                it:add(F.icrc_calc, calc):set_generated()
                status = (calc == wire) and ICRC_GOOD or ICRC_BAD
            end
        end
        it:add(F.icrc_status, status):set_generated()
        if status == ICRC_BAD then
            it:add_proto_expert_info(E.icrc_bad)
        end
    end
    pinfo.cols.info = table.concat(info, " ")
    return tvb:len()
end

-------------------------------------------------------------------------------
-- Registration: take over the UDP port, keeping Wireshark's InfiniBand
-- dissector for every opcode not decoded here.

local udp_table = DissectorTable.get("udp.port")
-- The handle Wireshark puts on UDP port 4791 (its RoCEv2 entry to the InfiniBand dissector).
infiniband = udp_table:get_dissector(4791)
local registered_port = nil

local function register_port()
    if registered_port ~= nil then
        if registered_port == 4791 and infiniband then
            udp_table:add(registered_port, infiniband)
        else
            udp_table:remove(registered_port, mrc)
        end
    end
    registered_port = mrc.prefs.udp_port
    udp_table:add(registered_port, mrc)
end

function mrc.prefs_changed()
    if registered_port ~= mrc.prefs.udp_port then
        register_port()
    end
end

register_port()
