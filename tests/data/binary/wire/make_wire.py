#!/usr/bin/env python3
"""Writes module_0007.jit_add.after_optimizations.hlo.pb byte by byte: an xla.HloProto encoded
with protobuf's wire format by hand, without BufferScope's core/proto/hlo_min.proto or any
other .proto. Every field number below was read in XLA's own protos, openxla/xla as tracked by
ROCm/xla at 183fa00cb5 (2026-08-22): xla/service/hlo.proto (HloProto, HloModuleProto,
HloComputationProto, HloInstructionProto, HloScheduleProto, BufferAssignmentProto,
LogicalBufferProto, BufferAllocationProto) and xla/xla_data.proto (ShapeProto, LayoutProto,
PrimitiveType F32 = 11). A reader whose own .proto numbers a field wrongly reads this file
wrongly; tests/core/tst_hloproto.cpp checks the figures worked out by hand in its comment.

The module, as its HLO text would read:

    ENTRY main {
      p0 = f32[256]{0} parameter(0)        id 1
      p1 = f32[256]{0} parameter(1)        id 2
      add = f32[256]{0} add(p0, p1)        id 3
      ROOT mul = f32[256]{0} multiply(add, p0)   id 4
    }

scheduled p0, p1, add, mul; one logical buffer per instruction (1024 bytes each); allocation 0
and 1 the parameters, 2 the output (mul), 3 a temp (add).

Usage: python3 make_wire.py   (writes the file beside this script)
"""
import os

# xla/service/hlo.proto
HLO_PROTO_MODULE, HLO_PROTO_BUFFER_ASSIGNMENT = 1, 3
MODULE_NAME, MODULE_ENTRY_NAME, MODULE_COMPUTATIONS, MODULE_ID = 1, 2, 3, 5
MODULE_ENTRY_ID, MODULE_SCHEDULE = 6, 7
COMP_NAME, COMP_INSTRUCTIONS, COMP_ID, COMP_ROOT_ID = 1, 2, 5, 6
INS_NAME, INS_OPCODE, INS_SHAPE, INS_PARAMETER_NUMBER, INS_ID, INS_OPERAND_IDS = 1, 2, 3, 9, 35, 36
SCHEDULE_SEQUENCES = 1          # map<int64, InstructionSequence>: key 1, value 2
SEQUENCE_INSTRUCTION_IDS = 1
BA_LOGICAL_BUFFERS, BA_ALLOCATIONS = 1, 3
LB_ID, LB_SIZE, LB_DEFINED_AT, LB_COLOR = 1, 2, 3, 4
LOCATION_INSTRUCTION_ID = 4     # shape_index = 3, empty for an array
ALLOC_INDEX, ALLOC_SIZE, ALLOC_IS_ENTRY_PARAMETER, ALLOC_PARAMETER_NUMBER = 1, 2, 5, 6
ALLOC_MAYBE_LIVE_OUT, ALLOC_COLOR, ALLOC_ASSIGNED = 7, 8, 9
ASSIGNED_LOGICAL_BUFFER_ID, ASSIGNED_OFFSET, ASSIGNED_SIZE = 1, 2, 3
# xla/xla_data.proto
SHAPE_ELEMENT_TYPE, SHAPE_DIMENSIONS, SHAPE_LAYOUT = 2, 3, 5
LAYOUT_MINOR_TO_MAJOR = 1
F32 = 11


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def tag(field, wire):
    return varint(field << 3 | wire)


def num(field, n):                      # wire type 0: int64, int32, bool, enum
    return tag(field, 0) + varint(n)


def blob(field, data):                  # wire type 2: string, bytes, message, packed
    if isinstance(data, str):
        data = data.encode()
    return tag(field, 2) + varint(len(data)) + data


def packed(field, numbers):             # proto3 packs repeated scalars
    return blob(field, b"".join(varint(n) for n in numbers))


def shape_f32(n):
    layout = packed(LAYOUT_MINOR_TO_MAJOR, [0])
    return num(SHAPE_ELEMENT_TYPE, F32) + packed(SHAPE_DIMENSIONS, [n]) + blob(SHAPE_LAYOUT, layout)


def instruction(name, opcode, ident, operands=(), parameter=None):
    out = blob(INS_NAME, name) + blob(INS_OPCODE, opcode) + blob(INS_SHAPE, shape_f32(256))
    if parameter is not None:
        out += num(INS_PARAMETER_NUMBER, parameter)
    out += num(INS_ID, ident)
    if operands:
        out += packed(INS_OPERAND_IDS, list(operands))
    return out


def module():
    instructions = [
        instruction("p0", "parameter", 1, parameter=0),
        instruction("p1", "parameter", 2, parameter=1),
        instruction("add", "add", 3, operands=(1, 2)),
        instruction("mul", "multiply", 4, operands=(3, 1)),
    ]
    comp = blob(COMP_NAME, "main")
    for ins in instructions:
        comp += blob(COMP_INSTRUCTIONS, ins)
    comp += num(COMP_ID, 1) + num(COMP_ROOT_ID, 4)
    sequence = packed(SEQUENCE_INSTRUCTION_IDS, [1, 2, 3, 4])
    schedule = blob(SCHEDULE_SEQUENCES, num(1, 1) + blob(2, sequence))
    return (blob(MODULE_NAME, "jit_add") + blob(MODULE_ENTRY_NAME, "main") +
            blob(MODULE_COMPUTATIONS, comp) + num(MODULE_ID, 7) + num(MODULE_ENTRY_ID, 1) +
            blob(MODULE_SCHEDULE, schedule))


def buffer_assignment():
    out = b""
    for buffer, instruction_id in enumerate([1, 2, 3, 4]):
        location = num(LOCATION_INSTRUCTION_ID, instruction_id)
        out += blob(BA_LOGICAL_BUFFERS, num(LB_ID, buffer) + num(LB_SIZE, 1024) +
                    blob(LB_DEFINED_AT, location) + num(LB_COLOR, 0))
    # (index, logical buffer, parameter number or None, live out)
    for index, buffer, parameter, live_out in [(0, 0, 0, False), (1, 1, 1, False),
                                               (2, 3, None, True), (3, 2, None, False)]:
        alloc = num(ALLOC_INDEX, index) + num(ALLOC_SIZE, 1024)
        if parameter is not None:
            alloc += num(ALLOC_IS_ENTRY_PARAMETER, 1) + num(ALLOC_PARAMETER_NUMBER, parameter)
        if live_out:
            alloc += num(ALLOC_MAYBE_LIVE_OUT, 1)
        alloc += num(ALLOC_COLOR, 0)
        alloc += blob(ALLOC_ASSIGNED, num(ASSIGNED_LOGICAL_BUFFER_ID, buffer) +
                      num(ASSIGNED_OFFSET, 0) + num(ASSIGNED_SIZE, 1024))
        out += blob(BA_ALLOCATIONS, alloc)
    return out


def main():
    data = blob(HLO_PROTO_MODULE, module()) + blob(HLO_PROTO_BUFFER_ASSIGNMENT, buffer_assignment())
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "module_0007.jit_add.after_optimizations.hlo.pb"), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
