#pragma once

// Hostile modules built in memory, for the tests that check what a file can make the program
// take (tst_hloproto, tst_limits).

#include "proto/hlo_min.pb.h"
#include "proto/xplane_min.pb.h"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

namespace testutil {

/// A module whose entry parameter is a tuple of `parts` f32[] parts, each its own allocation
/// (written with the generated message classes, from hlo_min.proto's field numbers), named
/// `name`; `users` custom-calls each take the tuple as every one of their `users` operands.
/// `aliased`: the module's input_output_alias names every part (output {k} is parameter 0's
/// {k}), one entry each.
inline std::string wideTupleProto(int parts, const std::string &name, int users,
                                  bool aliased = false)
{
    namespace pb = bufferscope::xlapb;
    pb::HloProto proto;
    pb::HloModuleProto &module = *proto.mutable_hlo_module();
    module.set_name("wide");
    module.set_entry_computation_name("main");
    module.set_entry_computation_id(1);
    pb::HloComputationProto &main = *module.add_computations();
    main.set_name("main");
    main.set_id(1);
    pb::HloInstructionProto &param = *main.add_instructions();
    param.set_id(1);
    param.set_name(name);
    param.set_opcode("parameter");
    param.mutable_shape()->set_element_type(13); // TUPLE
    for (int k = 0; k < parts; ++k)
        param.mutable_shape()->add_tuple_shapes()->set_element_type(11); // F32
    if (aliased)
        for (int k = 0; k < parts; ++k) {
            auto &entry = *module.mutable_input_output_alias()->add_entries();
            entry.add_output_shape_index(k);
            entry.set_parameter_number(0);
            entry.add_parameter_shape_index(k);
        }
    auto &sequence = (*module.mutable_schedule()->mutable_sequences())[1];
    sequence.add_instruction_ids(1);
    for (int u = 0; u < users; ++u) {
        pb::HloInstructionProto &call = *main.add_instructions();
        call.set_id(10 + u);
        call.set_name("u" + std::to_string(u));
        call.set_opcode("custom-call");
        call.set_custom_call_target("x");
        call.mutable_shape()->set_element_type(11);
        for (int k = 0; k < users; ++k)
            call.add_operand_ids(1);
        sequence.add_instruction_ids(10 + u);
    }
    main.set_root_id(users > 0 ? 10 + users - 1 : 1);
    pb::BufferAssignmentProto &ba = *proto.mutable_buffer_assignment();
    const auto value = [&ba](std::int64_t id, std::int64_t instruction, int index) {
        pb::LogicalBufferProto &b = *ba.add_logical_buffers();
        b.set_id(id);
        b.set_size(index < 0 ? 8 : 4);
        b.mutable_defined_at()->set_instruction_id(instruction);
        if (index >= 0)
            b.mutable_defined_at()->add_shape_index(index);
    };
    const auto allocation = [&ba](std::int64_t index, std::int64_t valueId, int part) {
        pb::BufferAllocationProto &a = *ba.add_buffer_allocations();
        a.set_index(index);
        a.set_size(part < 0 ? 8 : 4);
        if (part >= -1) {
            a.set_is_entry_computation_parameter(true);
            a.set_parameter_number(0);
            if (part >= 0)
                a.add_parameter_shape_index(part);
        } else {
            a.set_maybe_live_out(true);
        }
        pb::BufferAllocationProto::Assigned &as = *a.add_assigned();
        as.set_logical_buffer_id(valueId);
        as.set_size(a.size());
    };
    value(0, 1, -1);
    allocation(0, 0, -1);
    for (int k = 0; k < parts; ++k) {
        value(k + 1, 1, k);
        allocation(k + 1, k + 1, k);
    }
    for (int u = 0; u < users; ++u) {
        value(parts + 1 + u, 10 + u, -1);
        allocation(parts + 1 + u, parts + 1 + u, -2);
    }
    return proto.SerializeAsString();
}

/// A module of one f32[] parameter and one custom-call that takes it as each of its
/// `operands` operands (packed: a byte each, 10 MB for 10^7): what a compact proto may ask the
/// reader to expand (D17).
inline std::string manyOperandsProto(int operands)
{
    namespace pb = bufferscope::xlapb;
    pb::HloProto proto;
    pb::HloModuleProto &module = *proto.mutable_hlo_module();
    module.set_name("many");
    module.set_entry_computation_name("main");
    module.set_entry_computation_id(1);
    pb::HloComputationProto &main = *module.add_computations();
    main.set_name("main");
    main.set_id(1);
    main.set_root_id(2);
    pb::HloInstructionProto &param = *main.add_instructions();
    param.set_id(1);
    param.set_name("p");
    param.set_opcode("parameter");
    param.mutable_shape()->set_element_type(11);
    pb::HloInstructionProto &call = *main.add_instructions();
    call.set_id(2);
    call.set_name("c");
    call.set_opcode("custom-call");
    call.set_custom_call_target("x");
    call.mutable_shape()->set_element_type(11);
    for (int k = 0; k < operands; ++k)
        call.add_operand_ids(1);
    auto &sequence = (*module.mutable_schedule()->mutable_sequences())[1];
    sequence.add_instruction_ids(1);
    sequence.add_instruction_ids(2);
    pb::BufferAssignmentProto &ba = *proto.mutable_buffer_assignment();
    for (int k = 0; k < 2; ++k) {
        pb::LogicalBufferProto &b = *ba.add_logical_buffers();
        b.set_id(k);
        b.set_size(4);
        b.mutable_defined_at()->set_instruction_id(k + 1);
        pb::BufferAllocationProto &a = *ba.add_buffer_allocations();
        a.set_index(k);
        a.set_size(4);
        if (k == 0) {
            a.set_is_entry_computation_parameter(true);
            a.set_parameter_number(0);
        } else {
            a.set_maybe_live_out(true);
        }
        pb::BufferAllocationProto::Assigned &as = *a.add_assigned();
        as.set_logical_buffer_id(k);
        as.set_size(4);
    }
    return proto.SerializeAsString();
}

namespace detail {

/// An instruction of `c`: its id, name, opcode, an f32[] shape (or a tuple of `parts` of them)
/// and operands.
inline bufferscope::xlapb::HloInstructionProto &
addInstruction(bufferscope::xlapb::HloComputationProto &c, std::int64_t id, const std::string &name,
               const std::string &opcode, int parts = -1)
{
    bufferscope::xlapb::HloInstructionProto &i = *c.add_instructions();
    i.set_id(id);
    i.set_name(name);
    i.set_opcode(opcode);
    if (parts < 0) {
        i.mutable_shape()->set_element_type(11); // F32
    } else {
        i.mutable_shape()->set_element_type(13); // TUPLE
        for (int k = 0; k < parts; ++k)
            i.mutable_shape()->add_tuple_shapes()->set_element_type(11);
    }
    return i;
}

/// A value of 4 bytes defined at `instruction` (at {part} when part >= 0), in an allocation of
/// its own numbered as the value.
inline void addValue(bufferscope::xlapb::BufferAssignmentProto &ba, std::int64_t id,
                     std::int64_t instruction, int part = -1, bool parameter = false)
{
    bufferscope::xlapb::LogicalBufferProto &b = *ba.add_logical_buffers();
    b.set_id(id);
    b.set_size(4);
    b.mutable_defined_at()->set_instruction_id(instruction);
    if (part >= 0)
        b.mutable_defined_at()->add_shape_index(part);
    bufferscope::xlapb::BufferAllocationProto &a = *ba.add_buffer_allocations();
    a.set_index(id);
    a.set_size(4);
    if (parameter) {
        a.set_is_entry_computation_parameter(true);
        a.set_parameter_number(0);
        if (part >= 0)
            a.add_parameter_shape_index(part);
    }
    bufferscope::xlapb::BufferAllocationProto::Assigned &as = *a.add_assigned();
    as.set_logical_buffer_id(id);
    as.set_size(4);
}

/// A module of one entry computation `main` (id 1), scheduled as sequence 1, and its buffer
/// assignment: the parts the generators below fill.
struct EntryModule
{
    bufferscope::xlapb::HloModuleProto &module;
    bufferscope::xlapb::HloComputationProto &main;
    bufferscope::xlapb::HloScheduleProto::InstructionSequence &sequence;
    bufferscope::xlapb::BufferAssignmentProto &ba;
};

inline EntryModule entryModule(bufferscope::xlapb::HloProto &proto, const std::string &name)
{
    bufferscope::xlapb::HloModuleProto &module = *proto.mutable_hlo_module();
    module.set_name(name);
    module.set_entry_computation_name("main");
    module.set_entry_computation_id(1);
    auto &sequence = (*module.mutable_schedule()->mutable_sequences())[1];
    bufferscope::xlapb::HloComputationProto &main = *module.add_computations();
    main.set_name("main");
    main.set_id(1);
    return {module, main, sequence, *proto.mutable_buffer_assignment()};
}

} // namespace detail

/// A conditional of `branches` branches, each a computation of a parameter and a constant of
/// its own (XLA's dataflow gives the conditional every branch root's value), followed by a
/// chain of `chain` bitcasts of it, the last one the entry's root: `branches` × (`chain` + 1)
/// positions from a proto of a few bytes per branch and bitcast (D17's conditional fan-out).
inline std::string conditionalFanOutProto(int branches, int chain)
{
    namespace pb = bufferscope::xlapb;
    pb::HloProto proto;
    const auto [module, main, sequence, ba] = detail::entryModule(proto, "fanout");
    detail::addInstruction(main, 1, "p", "parameter");
    detail::addValue(ba, 0, 1, -1, true);
    sequence.add_instruction_ids(1);
    pb::HloInstructionProto &cond = detail::addInstruction(main, 2, "c", "conditional");
    for (int b = 0; b <= branches; ++b)
        cond.add_operand_ids(1);
    sequence.add_instruction_ids(2);
    for (int b = 0; b < branches; ++b) {
        const std::int64_t id = 3 + chain + 2 * static_cast<std::int64_t>(b);
        pb::HloComputationProto &branch = *module.add_computations();
        branch.set_name("b" + std::to_string(b));
        branch.set_id(id);
        detail::addInstruction(branch, id, "bp" + std::to_string(b), "parameter");
        detail::addInstruction(branch, id + 1, "k" + std::to_string(b), "constant");
        branch.set_root_id(id + 1);
        detail::addValue(ba, 1 + b, id + 1);
        cond.add_called_computation_ids(id);
        auto &steps = (*module.mutable_schedule()->mutable_sequences())[id];
        steps.add_instruction_ids(id);
        steps.add_instruction_ids(id + 1);
    }
    for (int k = 0; k < chain; ++k) {
        detail::addInstruction(main, 3 + k, "t" + std::to_string(k), "bitcast")
            .add_operand_ids(2 + k);
        sequence.add_instruction_ids(3 + k);
    }
    main.set_root_id(2 + chain);
    return proto.SerializeAsString();
}

/// One f32[] parameter forwarded by `forwards` bitcasts, all of them read by one custom-call:
/// the parameter's value has a position at each bitcast, and the custom-call `forwards`
/// operands to look through at each position.
inline std::string forwardedUsesProto(int forwards)
{
    namespace pb = bufferscope::xlapb;
    pb::HloProto proto;
    const auto [module, main, sequence, ba] = detail::entryModule(proto, "forwarded");
    detail::addInstruction(main, 1, "p", "parameter");
    detail::addValue(ba, 0, 1, -1, true);
    sequence.add_instruction_ids(1);
    for (int k = 0; k < forwards; ++k) {
        detail::addInstruction(main, 2 + k, "f" + std::to_string(k), "bitcast").add_operand_ids(1);
        sequence.add_instruction_ids(2 + k);
    }
    const std::int64_t last = 2 + static_cast<std::int64_t>(forwards);
    pb::HloInstructionProto &call = detail::addInstruction(main, last, "c", "custom-call");
    call.set_custom_call_target("x");
    for (int k = 0; k < forwards; ++k)
        call.add_operand_ids(2 + k);
    sequence.add_instruction_ids(last);
    detail::addValue(ba, 1, last);
    main.set_root_id(last);
    return proto.SerializeAsString();
}

/// A module (manyOperandsProto's, of one operand) with `empty` more buffer allocations that
/// are empty messages, two bytes each: each is a line of text and a parsed allocation.
inline std::string emptyAllocationsProto(int empty)
{
    bufferscope::xlapb::HloProto proto;
    proto.ParseFromString(manyOperandsProto(1));
    for (int k = 0; k < empty; ++k)
        proto.mutable_buffer_assignment()->add_buffer_allocations();
    return proto.SerializeAsString();
}

/// The same with `empty` more instructions in its computation that are empty messages.
inline std::string emptyInstructionsProto(int empty)
{
    bufferscope::xlapb::HloProto proto;
    proto.ParseFromString(manyOperandsProto(1));
    for (int k = 0; k < empty; ++k)
        proto.mutable_hlo_module()->mutable_computations(0)->add_instructions();
    return proto.SerializeAsString();
}

/// The tpu_unstack sample's HloProto (tests/data/binary/protos), the module the capture tests
/// put in their captures; empty when it cannot be read.
inline std::string sampleHloProto()
{
    std::ifstream in(BUFFERSCOPE_TEST_DATA
                     "/binary/protos/module_0001.tpu_unstack.after_optimizations.hlo.pb",
                     std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A profiler capture (an XSpace) of `modules` modules, each `proto`, named "jit_step_K(K)" as
/// XProf names them (`prefix` in place of "jit_step_"), in the plane "/host:metadata" with the
/// stats "Hlo Proto" and "program_id" (as tests/bench/make_capture.py writes it).
inline std::string captureOf(int modules, const std::string &proto,
                             const std::string &prefix = "jit_step_")
{
    namespace xp = bufferscope::xplanepb;
    xp::XSpace space;
    space.add_planes()->set_name("/device:TPU:0");
    xp::XPlane &plane = *space.add_planes();
    plane.set_id(2);
    plane.set_name("/host:metadata");
    (*plane.mutable_stat_metadata())[1].set_name("Hlo Proto");
    (*plane.mutable_stat_metadata())[1].set_id(1);
    (*plane.mutable_stat_metadata())[2].set_name("program_id");
    (*plane.mutable_stat_metadata())[2].set_id(2);
    for (int k = 1; k <= modules; ++k) {
        xp::XEventMetadata &event = (*plane.mutable_event_metadata())[k];
        event.set_id(k);
        event.set_name(prefix + std::to_string(k) + "(" + std::to_string(k) + ")");
        event.set_display_name(event.name());
        xp::XStat &hlo = *event.add_stats();
        hlo.set_metadata_id(1);
        hlo.set_bytes_value(proto);
        xp::XStat &id = *event.add_stats();
        id.set_metadata_id(2);
        id.set_uint64_value(static_cast<std::uint64_t>(k));
    }
    space.add_hostnames("host0");
    return space.SerializeAsString();
}

} // namespace testutil
