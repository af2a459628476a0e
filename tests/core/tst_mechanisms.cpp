// One cause per mechanism, netted (issue 58): each mechanism on a sample dump edited by hand the
// way a change of code, flag or version edits it, with every expected figure worked out in the
// comments from the dump text (allocation lines, value lines, BufferLiveRange), never from this
// code's output. On every pair the causes add up to both changes, no two causes cancel, and
// there is at most one cause of each kind.
#include "DumpText.h"
#include "EditedDumps.h"
#include "analysis/DumpDiff.h"

#include <QTest>

#include <set>
#include <vector>

using namespace bufferscope;
using namespace testutil;

namespace {

DumpDiff diffOf(const Loaded &a, const Loaded &b)
{
    return DumpDiff::compute(*a.dump, *a.timeline, *b.dump, *b.timeline);
}

/// A sample with each (from, to) replaced, every `from` required to be there.
std::string edited(const char *sample,
                   const std::vector<std::pair<std::string, std::string>> &edits)
{
    std::string t = readFile(samplePath(sample));
    for (const auto &[from, to] : edits) {
        if (t.find(from) == std::string::npos)
            qFatal("no '%s' in %s", from.c_str(), sample);
        t = replaceAll(t, from, to);
    }
    return t;
}

/// Every instruction name renumbered as an upgrade renumbers them (XLA's NameUniquer keeps a
/// name's numeric suffix and adds `.0` where it is 0): with `addZero`, `STEM.N` becomes
/// `STEM.N.0` for the stems given; without, `NAME.N.0` becomes `NAME.N` for every name.
std::string renumbered(const std::string &text, bool addZero, const std::set<std::string> &stems)
{
    const auto identChar = [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        const bool starts = ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_') &&
                            (i == 0 || (!identChar(text[i - 1]) && text[i - 1] != '.'));
        if (!starts) {
            out += c;
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && identChar(text[j]))
            ++j;
        const std::string ident = text.substr(i, j - i);
        std::vector<std::string> groups; // the numeric suffixes, each without its dot
        while (j + 1 < text.size() && text[j] == '.' && digit(text[j + 1])) {
            std::size_t k = j + 1;
            while (k < text.size() && digit(text[k]))
                ++k;
            groups.push_back(text.substr(j + 1, k - j - 1));
            j = k;
        }
        if (j < text.size() && identChar(text[j])) { // not a name after all (`a.1b`)
            out += text.substr(i, j - i);
            i = j;
            continue;
        }
        if (addZero && groups.size() == 1 && stems.count(ident))
            groups.push_back("0");
        else if (!addZero && groups.size() >= 2 && groups.back() == "0")
            groups.pop_back();
        out += ident;
        for (const std::string &g : groups)
            out += "." + g;
        i = j;
    }
    return out;
}

const Cause *causeOf(const DumpDiff &d, CauseKind kind)
{
    for (const Cause &c : d.why.causes)
        if (c.kind == kind)
            return &c;
    return nullptr;
}

std::string nameOf(const Dump &d, std::uint32_t v)
{
    return d.valueKey(d.values[v]);
}

/// What every explanation must meet: the causes add up to the change of the live peak and of
/// what the device holds (argument + output − alias + temp from the allocation headers, as
/// docs/FORMAT.md Part A defines it); each figure's causes all have its sign (none cancels
/// another); one cause per kind.
void checkExplanation(const DumpDiff &d, const Dump &a, const Dump &b, const char *what)
{
    const auto heldOf = [](const Dump &dump) {
        std::int64_t h = 0;
        for (const Allocation &x : dump.allocations) {
            if (x.color == 5)
                continue;
            const std::int64_t argument = x.isParameter ? x.size : 0;
            const std::int64_t output = x.isMaybeLiveOut ? x.size : 0;
            const std::int64_t alias = x.isParameter && x.isMaybeLiveOut ? x.size : 0;
            const std::int64_t temp = x.isPreallocatedTemp ? x.size : 0;
            h += argument + output - alias + temp;
        }
        return h;
    };
    std::int64_t peak = 0;
    std::int64_t held = 0;
    std::set<CauseKind> kinds;
    for (const Cause &c : d.why.causes) {
        peak += c.peakDelta;
        held += c.heldDelta;
        QVERIFY2(kinds.insert(c.kind).second, what);
        QVERIFY2(c.peakDelta != 0 || c.heldDelta != 0, what);
    }
    QVERIFY2(peak == d.peakDelta(), what);
    QVERIFY2(held == heldOf(b) - heldOf(a), what);
    QVERIFY2(held == d.why.heldAfter - d.why.heldBefore, what);
    for (const Cause &c : d.why.causes) {
        QVERIFY2(c.peakDelta == 0 || (c.peakDelta > 0) == (peak > 0), what);
        QVERIFY2(c.heldDelta == 0 || (c.heldDelta > 0) == (held > 0), what);
    }
    QVERIFY2(!d.why.headline.empty(), what);
}

/// tpu_random_normal with new output values, each in an output allocation of its own (7, 8, …)
/// live at steps 15-16 beside select_multiply_fusion, whose value they read, and in XLA's
/// printed peak list at step 15: name, instruction text after `= SHAPE `, shape, assigned size
/// and logical size (what XLA prints).
struct NewOutput
{
    std::string name, instruction, shape;
    std::int64_t size;
    std::int64_t logical;
};
std::string withOutputs(const std::vector<NewOutput> &outputs)
{
    std::string allocations;
    std::string blocks;
    std::string ranges;
    std::string uses;
    std::string printed;
    std::int64_t total = 92676;
    std::int64_t cumulative = 8980; // the printed list's last line

    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const NewOutput &o = outputs[k];
        const std::string id = std::to_string(401 + k);
        allocations += "allocation " + std::to_string(7 + k) + ": size " + std::to_string(o.size) +
                       ", maybe-live-out:\n value: <" + id + " " + o.name +
                       " @0> (size=" + std::to_string(o.size) + ",offset=0): " + o.shape + "\n";
        blocks += "<" + id + " " + o.name + " @0>\n positions:\n  " + o.name +
                  "\n uses:\n from instruction: %" + o.name + " = " + o.shape + " " +
                  o.instruction + "\n";
        ranges += "    " + o.name + "{}:15-16\n";
        uses += "  " + o.name + ", operand 0\n";
        total += o.size;
        cumulative += o.logical;
        printed += "    " + o.name + "{}: " + std::to_string(o.logical) +
                   " bytes (cumulative: " + std::to_string(cumulative) + " bytes)\n";
    }
    return edited(
        "tpu_random_normal",
        {{"\nTotal bytes used: 92676 (90.5KiB)",
          allocations + "\nTotal bytes used: " + std::to_string(total)},
         {"\n\nHloLiveRange (max 16):", "\n" + blocks + "\n\nHloLiveRange (max 16):"},
         {"    select_multiply_fusion{}:15-16\n", "    select_multiply_fusion{}:15-16\n" + ranges},
         {"  select_multiply_fusion\n uses:\n", "  select_multiply_fusion\n uses:\n" + uses},
         {"    xor.50{}: 4 bytes (cumulative: 8980 bytes)\n",
          "    xor.50{}: 4 bytes (cumulative: 8980 bytes)\n" + printed}});
}

} // namespace

class TestMechanisms : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A matched value grown 16× is resized, never restructured, even beside a computation that
    // was replaced. tpu_random_normal's output select_multiply_fusion f32[64,32] (16384 B,
    // alone in output allocation 1, live 15-16) becomes f32[2048,32] (262144 B, 16×), and the
    // broadcast_add_fusion it reads (u32[64], 512 B at offset 8192 of temp allocation 3, space
    // 1, live 3-15) is replaced by iota.5 (u32[256], 1024 B; allocation 3 8704 → 9216): the two
    // are unpaired and read by the same instruction, one region with unpaired instructions on
    // both sides. By hand: the live peak (space 0) is at step 15 on both sides: 17920 (16384 +
    // Arg_0.1 512 + fusion.23{0} 512 + fusion.23{1} 512) → 17920 − 16384 + 262144 = 263680,
    // +245760, all of it the resized output; held: output allocation 1 +245760 and temp
    // allocation 3 +512 (its most live bytes at steps 12-15, 512 + 512 + 512 = 1536 → 2048, the
    // heap's unused bytes 7168 both sides), the latter the restructure.
    void matchedValueGrown16x()
    {
        const Loaded a = loadText(readFile(samplePath("tpu_random_normal")));
        std::vector<std::pair<std::string, std::string>> edits = testutil::broadcastBecomesIota();
        edits.insert(
            edits.end(),
            {{"allocation 1: size 16384, output shape is |f32[64,32]|",
              "allocation 1: size 262144, output shape is |f32[2048,32]|"},
             {"<333 select_multiply_fusion @0> (size=16384,offset=0): f32[64,32]",
              "<333 select_multiply_fusion @0> (size=262144,offset=0): f32[2048,32]"},
             {"%select_multiply_fusion = f32[64,32]", "%select_multiply_fusion = f32[2048,32]"},
             {"Total bytes used: 92676", "Total bytes used: 338948"}});
        const Loaded b = loadText(edited("tpu_random_normal", edits));
        const DumpDiff d = diffOf(a, b);
        QCOMPARE(d.peakBefore, std::int64_t(17920));
        QCOMPARE(d.peakAfter, std::int64_t(263680));
        checkExplanation(d, *a.dump, *b.dump, "grown 16x");
        const Cause *r = causeOf(d, CauseKind::Resized);
        QVERIFY(r);
        QCOMPARE(r->peakDelta, std::int64_t(245760));
        QCOMPARE(r->heldDelta, std::int64_t(245760));
        QCOMPARE(nameOf(*b.dump, r->valuesAfter.front()), std::string("select_multiply_fusion{}"));
        QVERIFY2(r->text.find("16× larger") != std::string::npos, r->text.c_str());
        // What it is: its opcode and op_name.
        QVERIFY2(r->text.find("(fusion, jit(_normal)/jit(main)/jit(_normal_real)/mul)") !=
                     std::string::npos,
                 r->text.c_str());
        const Cause *s = causeOf(d, CauseKind::Restructured);
        QVERIFY(s);
        QCOMPARE(s->peakDelta, std::int64_t(0));
        QCOMPARE(s->heldDelta, std::int64_t(512));
        // The matched output is not part of the restructure.
        for (const std::uint32_t v : s->valuesAfter)
            QVERIFY(nameOf(*b.dump, v) != "select_multiply_fusion{}");
        QCOMPARE(d.why.causes.size(), std::size_t(2));
        QVERIFY2(d.why.headline.find("mostly because select_multiply_fusion{} grew 16×") !=
                     std::string::npos,
                 d.why.headline.c_str());
    }

    // Another size under the same shape text (padding the text does not show, or an edit
    // like docs/screenshots.sh's) is resized, never in place: tpu_random_normal's output
    // select_multiply_fusion, f32[64,32] 16384 → 32768 B, alone in output allocation 1 (16384
    // → 32768) and live at the peak step 15: +16384 on both figures.
    void sameShapeAnotherSize()
    {
        const Loaded a = loadText(readFile(samplePath("tpu_random_normal")));
        const Loaded b = loadText(edited(
            "tpu_random_normal",
            {{"allocation 1: size 16384, output shape", "allocation 1: size 32768, output shape"},
             {"<333 select_multiply_fusion @0> (size=16384,",
              "<333 select_multiply_fusion @0> (size=32768,"},
             {"Total bytes used: 92676", "Total bytes used: 109060"}}));
        const DumpDiff d = diffOf(a, b);
        checkExplanation(d, *a.dump, *b.dump, "same shape");
        QCOMPARE(d.why.causes.size(), std::size_t(1));
        QCOMPARE(d.why.causes.front().kind, CauseKind::Resized);
        QCOMPARE(d.why.causes.front().peakDelta, std::int64_t(16384));
        QCOMPARE(d.why.causes.front().heldDelta, std::int64_t(16384));
    }

    // An output that stops being written in place. gpu_vllm_update_slice updates one buffer in
    // place, in output allocation 0 (512 B): … loop_dynamic_update_slice_fusion (59-60) →
    // .28 (60-61) → loop_broadcast_dynamic_update_slice_fusion{1} (61-76), every one at offset
    // 0. Edited: .28 has bytes of its own in temp allocation 8, at offset 320 (296 → 832 B).
    // By hand, live bytes (space 0, per allocation the union of the live values' bytes): before,
    // the peak is at step 68, 1210 B; step 61 holds 1042 (.28 and {1} share their 512 B). After,
    // step 61 holds 1042 + 512 = 1554, the new peak: +344. Of it .28's own 512 B are the lost
    // in-place write; the moved peak is the rest, −168 (values live at step 68 and not 61), a
    // term of the other sign netted into it. Held: temp allocation 8 grows 296 → 832, +536: its
    // most live bytes go from 40 (tuple.2{} at step 68) to 528 (.28 512 + {} 16 at step 61), so
    // +512 is .28 (in place) and 16 − 40 = −24 the schedule; its unused bytes 256 → 304, +48
    // packing, into which the −24 is netted.
    void outputNoLongerWrittenInPlace()
    {
        const std::string dus = " value: <526 loop_dynamic_update_slice_fusion.28 @0> "
                                "(size=512,offset=0): bf16[16,16]{1,0}\n";
        const std::string tuple = " value: <534 tuple.2{} @0> (size=40,offset=256): "
                                  "(bf16[16,16]{1,0}, bf16[16,16]{1,0}, s32[16]{0}, s32[16]{0}, "
                                  "pred[16]{0})\n";
        const Loaded a = loadText(readFile(samplePath("gpu_vllm_update_slice")));
        const Loaded b = loadText(
            edited("gpu_vllm_update_slice",
                   {{dus, ""},
                    {"allocation 8: size 296, preallocated-temp:\n",
                     "allocation 8: size 832, preallocated-temp:\n"},
                    {tuple, tuple + replaceAll(dus, "offset=0", "offset=320")},
                    {"Total bytes used: 1522 (1.5KiB)", "Total bytes used: 2058 (2.0KiB)"}}));
        QVERIFY(b.dump->warnings.empty());
        const DumpDiff d = diffOf(a, b);
        QCOMPARE(d.peakBefore, std::int64_t(1210));
        QCOMPARE(d.peakStepBefore, std::int64_t(68));
        QCOMPARE(d.peakAfter, std::int64_t(1554));
        QCOMPARE(d.peakStepAfter, std::int64_t(61));
        QCOMPARE(d.why.heldAfter - d.why.heldBefore, std::int64_t(536));
        checkExplanation(d, *a.dump, *b.dump, "in place lost");
        const Cause *c = causeOf(d, CauseKind::InPlaceLost);
        QVERIFY(c);
        QCOMPARE(c->peakDelta, std::int64_t(344));
        QCOMPARE(c->heldDelta, std::int64_t(512));
        QCOMPARE(c->netted.size(), std::size_t(1));
        QCOMPARE(c->netted.front().kind, CauseKind::Schedule);
        QCOMPARE(c->netted.front().peakDelta, std::int64_t(-168));
        QVERIFY2(c->text.find("loop_dynamic_update_slice_fusion.28{} (bf16[16,16]{1,0}, 512B) "
                              "was written in place, in the output's buffer (allocation 0), and "
                              "now has bytes of its own in temp (allocation 8)") !=
                     std::string::npos,
                 c->text.c_str());
        const Cause *p = causeOf(d, CauseKind::Packing);
        QVERIFY(p);
        QCOMPARE(p->heldDelta, std::int64_t(48 - 24));
        QVERIFY(causeOf(d, CauseKind::Schedule) == nullptr);
        QCOMPARE(d.why.causes.size(), std::size_t(2));
        QVERIFY(d.why.peakMoved);
        // The other way round it is written in place again.
        const DumpDiff back = diffOf(b, a);
        checkExplanation(back, *b.dump, *a.dump, "in place gained");
        QVERIFY(causeOf(back, CauseKind::InPlaceGained));
        QVERIFY(causeOf(back, CauseKind::InPlaceLost) == nullptr);
    }

    // Collective buffers that vanish are collective, never restructured, even where the other
    // side has an instruction of its own at the same place. Before: tpu_random_normal with two
    // all-gathers of select_multiply_fusion, f32[64,32] 16384 B and f32[128,32] 32768 B, each
    // in an output allocation of its own (7, 8), live 15-16. After: in their place a reduce of
    // it, f32[] 512 B (allocation 7). By hand, the peak at step 15: 17920 + 49152 = 67072 →
    // 17920 + 512 = 18432, −48640, and held the same −49152 + 512. At the peak the all-gathers
    // are −49152 and the reduce, unpaired beside them (a restructure), +512, a term of the
    // other sign netted into the collectives. Held: output allocation 7 pairs with allocation 7
    // (the outputs left over, in order), 16384 → 512, put down to the all-gather that accounts
    // for it; allocation 8, −32768, is the other all-gather's.
    void vanishedAllGathers()
    {
        const Loaded a = loadText(
            withOutputs({{"all-gather.7", "all-gather(%select_multiply_fusion), dimensions={0}",
                          "f32[64,32]{0,1:T(8,128)}", 16384, 8192},
                         {"all-gather.8", "all-gather(%select_multiply_fusion), dimensions={0}",
                          "f32[128,32]{0,1:T(8,128)}", 32768, 16384}}));
        const Loaded b = loadText(withOutputs({{"reduce.99",
                                                "reduce(%select_multiply_fusion, %constant.74), "
                                                "dimensions={0,1}, to_apply=%add",
                                                "f32[]{:T(128)}", 512, 4}}));
        QVERIFY(a.dump->warnings.empty());
        QVERIFY(b.dump->warnings.empty());
        const DumpDiff d = diffOf(a, b);
        QCOMPARE(d.peakBefore, std::int64_t(67072));
        QCOMPARE(d.peakAfter, std::int64_t(18432));
        checkExplanation(d, *a.dump, *b.dump, "vanished all-gathers");
        QCOMPARE(d.why.causes.size(), std::size_t(1));
        const Cause &c = d.why.causes.front();
        QCOMPARE(c.kind, CauseKind::Collective);
        QCOMPARE(c.peakDelta, std::int64_t(-48640));
        QCOMPARE(c.heldDelta, std::int64_t(-48640));
        QCOMPARE(c.valuesBefore.size(), std::size_t(2));
        QCOMPARE(nameOf(*a.dump, c.valuesBefore[0]), std::string("all-gather.8{}"));
        QCOMPARE(nameOf(*a.dump, c.valuesBefore[1]), std::string("all-gather.7{}"));
        QVERIFY2(c.text.find("all-gather.8{} and all-gather.7{} (largest f32[128,32]") !=
                     std::string::npos,
                 c.text.c_str());
        QVERIFY2(c.text.find("are gone") != std::string::npos, c.text.c_str());
        QCOMPARE(c.netted.size(), std::size_t(1));
        QCOMPARE(c.netted.front().kind, CauseKind::Restructured);
        QCOMPARE(c.netted.front().peakDelta, std::int64_t(512));
    }

    // A reorder that frees a temp slot, the live peak unchanged. Before: tpu_random_normal
    // with copy-start{0} (512 B at offset 0 of temp allocation 3, memory space 1) live 2-12, so
    // fusion.21{0} (12-15) cannot take its bytes and sits at offset 8704 (allocation 3: 9216
    // B). After: the sample, copy-start{0} live 2-5 and fusion.21{0} at offset 0 (8704 B). By
    // hand: space 0 is untouched, the live peak 17920 at step 15 on both sides; held −512, all
    // in allocation 3: its most live bytes 2048 at step 12 (copy-start{0}, broadcast_add_fusion,
    // fusion.21{0}, {1}) → 1536 at step 12, unused 7168 on both sides, so one cause: the same
    // values at the same sizes overlapping differently, −512, and nothing at the peak.
    void reorderFreesATempSlot()
    {
        const Loaded a = loadText(
            edited("tpu_random_normal",
                   {{"allocation 3: size 8704, color 1,", "allocation 3: size 9216, color 1,"},
                    {"<321 fusion.21{0} @1> (size=512,offset=0)",
                     "<321 fusion.21{0} @1> (size=512,offset=8704)"},
                    {"    copy-start{0}:2-5", "    copy-start{0}:2-12"},
                    {"Total bytes used: 92676", "Total bytes used: 93188"}}));
        const Loaded b = loadText(readFile(samplePath("tpu_random_normal")));
        const DumpDiff d = diffOf(a, b);
        QCOMPARE(d.peakDelta(), std::int64_t(0));
        checkExplanation(d, *a.dump, *b.dump, "reorder");
        QCOMPARE(d.why.causes.size(), std::size_t(1));
        const Cause &c = d.why.causes.front();
        QCOMPARE(c.kind, CauseKind::Schedule);
        QCOMPARE(c.peakDelta, std::int64_t(0));
        QCOMPARE(c.heldDelta, std::int64_t(-512));
        QCOMPARE(nameOf(*a.dump, c.valuesBefore.front()), std::string("copy-start{0}"));
        QVERIFY(d.why.peakBarelyMoved);
        QVERIFY2(d.why.headline.starts_with("The live peak did not move (17.5KiB); what the "
                                            "device holds fell by 512B"),
                 d.why.headline.c_str());
    }

    // Terms of two mechanisms that cancel at the peak are netted: no two rows cancel. After:
    // tpu_random_normal with constant.74 (512 B, space 0) live 0-15 instead of 0-11, so it
    // joins the peak at step 15, and fusion.23{1} (offset 65536 of temp allocation 4) grown
    // u32[1] 512 B → u32[129] 1024 B and live 5-14, so it leaves the peak: by hand the peak
    // stays at step 15 (16384 + 512 + 512 + 512 = 17920; steps 5-7 and 12-14 hold 2592), ±0, of
    // it +512 schedule and −512 resized, which net to nothing. Held: allocation 4 grows 66048 →
    // 66560; its most live bytes at step 5 go 1056 → 1568, unused 64992 on both sides: +512,
    // the resized value.
    void termsThatCancelAreNetted()
    {
        const Loaded a = loadText(readFile(samplePath("tpu_random_normal")));
        const Loaded b =
            loadText(edited("tpu_random_normal",
                            {{"    constant.74{}:0-11", "    constant.74{}:0-15"},
                             {"    fusion.23{1}:5-15", "    fusion.23{1}:5-14"},
                             {"allocation 4: size 66048, preallocated-temp:",
                              "allocation 4: size 66560, preallocated-temp:"},
                             {"<329 fusion.23{1} @0> (size=512,offset=65536): u32[1]{0:T(128)}",
                              "<329 fusion.23{1} @0> (size=1024,offset=65536): u32[129]{0:T(128)}"},
                             {"Total bytes used: 92676", "Total bytes used: 93188"}}));
        const DumpDiff d = diffOf(a, b);
        QCOMPARE(d.peakBefore, std::int64_t(17920));
        QCOMPARE(d.peakAfter, std::int64_t(17920));
        checkExplanation(d, *a.dump, *b.dump, "cancelling terms");
        QCOMPARE(d.why.causes.size(), std::size_t(1));
        const Cause &c = d.why.causes.front();
        QCOMPARE(c.kind, CauseKind::Resized);
        QCOMPARE(c.peakDelta, std::int64_t(0));
        QCOMPARE(c.heldDelta, std::int64_t(512));
        QVERIFY(causeOf(d, CauseKind::Schedule) == nullptr);
        QVERIFY2(d.why.headline.find("The live peak did not move") == 0 &&
                     d.why.headline.find("fusion.23{1} grew 2×") != std::string::npos,
                 d.why.headline.c_str());
    }

    // An input's element type changes with its dimensions: dtype, never input_shape, and the
    // values that follow it are the same cause. tpu_unstack with u32 → s64 everywhere: the
    // parameter u32[4,2] 1024 B → s64[4,2] 2048 B, the four outputs slice_reduce_fusion{0..3}
    // u32[2] 512 B → s64[2] 1024 B each (allocations 2-5). By hand: the live peak (steps 1 and
    // 6: the parameter, the four outputs and a 32-byte tuple table) 3104 → 6176, +3072; held
    // the same, +1024 + 4 × 512.
    void inputDtypeChange()
    {
        std::string text = replaceAll(readFile(samplePath("tpu_unstack")), "u32", "s64");
        text = replaceAll(text, "allocation 1: size 1024, parameter 0",
                          "allocation 1: size 2048, parameter 0");
        text = replaceAll(text, "<23 Arg_0.1 @0> (size=1024,", "<23 Arg_0.1 @0> (size=2048,");
        for (int k = 0; k < 4; ++k) {
            text = replaceAll(text, "slice_reduce_fusion{" + std::to_string(k) + "} @0> (size=512,",
                              "slice_reduce_fusion{" + std::to_string(k) + "} @0> (size=1024,");
            text = replaceAll(
                text, "allocation " + std::to_string(2 + k) + ": size 512, maybe-live-out",
                "allocation " + std::to_string(2 + k) + ": size 1024, maybe-live-out");
        }
        text = replaceAll(text, "Total bytes used: 52288", "Total bytes used: 55360");
        const Loaded a = loadText(readFile(samplePath("tpu_unstack")));
        const Loaded b = loadText(text);
        const DumpDiff d = diffOf(a, b);
        QCOMPARE(d.peakBefore, std::int64_t(3104));
        QCOMPARE(d.peakAfter, std::int64_t(6176));
        checkExplanation(d, *a.dump, *b.dump, "dtype");
        QCOMPARE(d.why.causes.size(), std::size_t(1));
        const Cause &c = d.why.causes.front();
        QCOMPARE(c.kind, CauseKind::Dtype);
        QCOMPARE(c.peakDelta, std::int64_t(3072));
        QCOMPARE(c.heldDelta, std::int64_t(3072));
        QVERIFY(causeOf(d, CauseKind::InputShape) == nullptr);
        QVERIFY2(c.text.starts_with("the inputs changed element type: parameter 0 "
                                    "u32[4,2]{0,1:T(2,128)} → s64[4,2]{0,1:T(2,128)}; 4 values "
                                    "follow"),
                 c.text.c_str());
        QVERIFY2(d.why.headline.find("the inputs changed element type (u32 → s64)") !=
                     std::string::npos,
                 d.why.headline.c_str());
    }

    // A JAX or XLA upgrade renumbers instructions and drops a scope: every value is matched,
    // and nothing but the real change is a cause.
    // (a) tpu_random_normal with every `name.N` renamed `name.N.0` and `jit(main)/` dropped
    //     from every op_name: the same program, no cause at all.
    // (b) gpu_decoder_layer with every `name.N.0` renamed `name.N`, and the cuBLAS workspace of
    //     custom-call.5 grown by 128 B (s8[4194304] → s8[4194432], custom-call.5{1}): every value
    //     matched, nothing added or removed; its allocation 3 (138706944 B) does not grow, so
    //     held does not move, and no cause is larger than the 128 B.
    void upgradeRenumbersAndRescopes()
    {
        {
            const std::string text = readFile(samplePath("tpu_random_normal"));
            std::string renamed = renumbered(text, true,
                                             {"fusion", "xor", "constant", "get-tuple-element",
                                              "copy-start", "copy-done", "Arg_0", "bitcast"});
            renamed = replaceAll(renamed, "jit(main)/", "");
            QVERIFY(renamed.find("fusion.23.0{1}") != std::string::npos);
            const Loaded a = loadText(text);
            const Loaded b = loadText(renamed);
            const DumpDiff d = diffOf(a, b);
            QCOMPARE(d.matched, std::int64_t(a.dump->values.size()));
            QVERIFY(d.added.empty());
            QVERIFY(d.removed.empty());
            QVERIFY(d.changed.empty());
            QVERIFY(d.why.causes.empty());
            QCOMPARE(d.why.headline,
                     std::string("Nothing changed the live peak or what the device holds."));
        }
        {
            const std::string text = readFile(samplePath("gpu_decoder_layer"));
            std::string renamed = renumbered(text, false, {});
            QVERIFY(renamed.find("custom-call.5{1}") != std::string::npos);
            renamed = replaceAll(
                renamed, "<180 custom-call.5{1} @0> (size=4194304,offset=0): s8[4194304]{0}",
                "<180 custom-call.5{1} @0> (size=4194432,offset=0): s8[4194432]{0}");
            renamed = replaceAll(renamed, "%custom-call.5 = (bf16[128,6144]{1,0}, s8[4194304]{0})",
                                 "%custom-call.5 = (bf16[128,6144]{1,0}, s8[4194432]{0})");
            const Loaded a = loadText(text);
            const Loaded b = loadText(renamed);
            const DumpDiff d = diffOf(a, b);
            QCOMPARE(d.matched, std::int64_t(a.dump->values.size()));
            QVERIFY(d.added.empty());
            QVERIFY(d.removed.empty());
            QCOMPARE(d.changed.size(), std::size_t(1));
            QCOMPARE(d.changed.front().delta(), std::int64_t(128));
            checkExplanation(d, *a.dump, *b.dump, "upgrade");
            for (const Cause &c : d.why.causes) {
                QVERIFY2(std::llabs(c.peakDelta) <= 128, c.text.c_str());
                QVERIFY2(std::llabs(c.heldDelta) <= 128, c.text.c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMechanisms)
#include "tst_mechanisms.moc"
