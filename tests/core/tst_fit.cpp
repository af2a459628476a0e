// Several modules on one device (issue 40): what the device holds while each module runs,
// against a limit, on modules written here whose every figure is worked out by hand below.
// Their temp allocations are larger than what is ever live in them (packing loss), one module
// donates a parameter to its output, one is in TPU form with two device memory spaces and S(5).
#include "CliRun.h"
#include "DumpText.h"
#include "SampleTruths.h"
#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakExplainer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace bufferscope;

namespace {

// GPU, no donation. argument 1000, output 400, temp 3000, constant 100: held 4400.
// Live: p0 (1000) over 0-6, c0 (100) 1-6; t0, t1 (1200 each) alone at steps 2 and 3; t2 (600)
// 4-5, out (400) 5-6. Peak 1000 + 100 + 1200 = 2300 at step 2, though the temp allocation is
// 3000. XLA's peak (logical bytes over [start, end + 1]): 3500 at step 3, printing t1, p0, c0.
const char *kForward = R"(BufferAssignment:
allocation 0: size 1000, parameter 0, shape |f32[250]| at ShapeIndex {}:
 value: <0 p0 @0> (size=1000,offset=0): f32[250]{0}
allocation 1: size 400, maybe-live-out:
 value: <5 out @0> (size=400,offset=0): f32[100]{0}
allocation 2: size 3000, preallocated-temp:
 value: <2 t0 @0> (size=1200,offset=0): f32[300]{0}
 value: <3 t1 @0> (size=1200,offset=1200): f32[300]{0}
 value: <4 t2 @0> (size=600,offset=2400): f32[150]{0}
allocation 3: size 100, constant:
 value: <1 c0 @0> (size=100,offset=0): f32[25]{0}

Total bytes used: 4500 (4.4KiB)

Used values:
<0 p0 @0>
 positions:
  p0
 uses:
 from instruction: %p0 = f32[250]{0} parameter(0)
<1 c0 @0>
 positions:
  c0
 uses:
 from instruction: %c0 = f32[25]{0} constant({...})
<2 t0 @0>
 positions:
  t0
 uses:
 from instruction: %t0 = f32[300]{0} fusion(f32[250]{0} %p0), kind=kLoop, calls=%f0
<3 t1 @0>
 positions:
  t1
 uses:
 from instruction: %t1 = f32[300]{0} fusion(f32[300]{0} %t0), kind=kLoop, calls=%f1
<4 t2 @0>
 positions:
  t2
 uses:
 from instruction: %t2 = f32[150]{0} fusion(f32[300]{0} %t1, f32[25]{0} %c0), kind=kLoop, calls=%f2
<5 out @0>
 positions:
  out
 uses:
 from instruction: %out = f32[100]{0} fusion(f32[150]{0} %t2), kind=kLoop, calls=%f3

HloLiveRange (max 6):
  InstructionSequence:
    0:p0
    1:c0
    2:t0
    3:t1
    4:t2
    5:out
  BufferLiveRange:
    p0{}:0-6
    c0{}:1-6
    t0{}:2-2
    t1{}:3-3
    t2{}:4-5
    out{}:5-6
  Live ranges at 3 (peak):
    t1{}: 1200 bytes (cumulative: 1200 bytes)
    p0{}: 1000 bytes (cumulative: 2200 bytes)
    c0{}: 100 bytes (cumulative: 2300 bytes)
)";

// GPU, parameter 1 donated to an output (w2 written over w in place). argument 2000 + 500 =
// 2500, output 800 + 500 = 1300, alias 500, temp 2000: held 2500 + 1300 - 500 + 2000 = 5300;
// it allocates 1300 - 500 + 2000 = 2800. Live peak 2000 + 500 + 1000 + 500 = 4000 at step 3,
// the temp never fuller than 1500 (u1 sits at offset 1500). XLA's peak: 4500 at step 4.
const char *kBackward = R"(BufferAssignment:
allocation 0: size 2000, parameter 0, shape |f32[500]| at ShapeIndex {}:
 value: <0 g0 @0> (size=2000,offset=0): f32[500]{0}
allocation 1: size 500, parameter 1, shape |f32[125]| at ShapeIndex {}, maybe-live-out:
 value: <1 w @0> (size=500,offset=0): f32[125]{0}
 value: <4 w2 @0> (size=500,offset=0): f32[125]{0}
allocation 2: size 800, maybe-live-out:
 value: <5 grad @0> (size=800,offset=0): f32[200]{0}
allocation 3: size 2000, preallocated-temp:
 value: <2 u0 @0> (size=1000,offset=0): f32[250]{0}
 value: <3 u1 @0> (size=500,offset=1500): f32[125]{0}

Total bytes used: 5300 (5.2KiB)

Used values:
<0 g0 @0>
 positions:
  g0
 uses:
 from instruction: %g0 = f32[500]{0} parameter(0)
<1 w @0>
 positions:
  w
 uses:
 from instruction: %w = f32[125]{0} parameter(1)
<2 u0 @0>
 positions:
  u0
 uses:
 from instruction: %u0 = f32[250]{0} fusion(f32[500]{0} %g0), kind=kLoop, calls=%f0
<3 u1 @0>
 positions:
  u1
 uses:
 from instruction: %u1 = f32[125]{0} fusion(f32[250]{0} %u0), kind=kLoop, calls=%f1
<4 w2 @0>
 positions:
  w2
 uses:
 from instruction: %w2 = f32[125]{0} fusion(f32[125]{0} %w, f32[125]{0} %u1), kind=kLoop, calls=%f2
<5 grad @0>
 positions:
  grad
 uses:
 from instruction: %grad = f32[200]{0} fusion(f32[500]{0} %g0), kind=kLoop, calls=%f3

HloLiveRange (max 6):
  InstructionSequence:
    0:g0
    1:w
    2:u0
    3:u1
    4:w2
    5:grad
  BufferLiveRange:
    g0{}:0-6
    w{}:1-4
    u0{}:2-3
    u1{}:3-4
    w2{}:4-6
    grad{}:5-6
  Live ranges at 4 (peak):
    g0{}: 2000 bytes (cumulative: 2000 bytes)
    w{}: 500 bytes (cumulative: 2500 bytes)
    u1{}: 500 bytes (cumulative: 3000 bytes)
    w2{}: 500 bytes (cumulative: 3500 bytes)
)";

// TPU form: memory spaces 0 and 1 share the device, S(5) is host. argument 4096, output 512,
// temp 8192 (space 0) + 2048 (space 1) = 10240: held 14848; host temp 1024 apart.
// Device live bytes by step (space 0 + space 1; h is S(5)):
//   0: a0 4096                       = 4096 + 0
//   1: a0 4096 + x0 4096             = 8192 + 0
//   2: a0 4096 + x0 4096 + y 2048    = 8192 + 2048
//   3: a0 4096 + y 2048              = 4096 + 2048
//   4, 5: a0 4096 + o 512            = 4608 + 0
// XLA's peak (logical): 7168 at step 3 (a0, y, h: S(5) counts there, as XLA sums all spaces).
const char *kTpu = R"(BufferAssignment:
allocation 0: size 4096, parameter 0, shape |f32[1024]| at ShapeIndex {}:
 value: <0 a0 @0> (size=4096,offset=0): f32[1024]{0:T(256)}
allocation 1: size 512, maybe-live-out:
 value: <4 o @0> (size=512,offset=0): f32[2]{0:T(128)}
allocation 2: size 8192, preallocated-temp:
 value: <1 x0 @0> (size=4096,offset=0): f32[1024]{0:T(256)}
allocation 3: size 2048, color 1, preallocated-temp:
 value: <2 y @1> (size=2048,offset=0): f32[512]{0:T(256)S(1)}
allocation 4: size 1024, color 5, preallocated-temp:
 value: <3 h @5> (size=1024,offset=0): f32[256]{0:T(256)S(5)}

Total bytes used: 15872 (15.5KiB)

Used values:
<0 a0 @0>
 positions:
  a0
 uses:
 from instruction: %a0 = f32[1024]{0:T(256)} parameter(0)
<1 x0 @0>
 positions:
  x0
 uses:
 from instruction: %x0 = f32[1024]{0:T(256)} fusion(f32[1024]{0:T(256)} %a0), kind=kLoop, calls=%f0
<2 y @1>
 positions:
  y
 uses:
 from instruction: %y = f32[512]{0:T(256)S(1)} fusion(f32[1024]{0:T(256)} %x0), kind=kLoop, calls=%f1
<3 h @5>
 positions:
  h
 uses:
 from instruction: %h = f32[256]{0:T(256)S(5)} fusion(f32[512]{0:T(256)S(1)} %y), kind=kLoop, calls=%f2
<4 o @0>
 positions:
  o
 uses:
 from instruction: %o = f32[2]{0:T(128)} fusion(f32[1024]{0:T(256)} %a0, f32[256]{0:T(256)S(5)} %h), kind=kLoop, calls=%f3

HloLiveRange (max 5):
  InstructionSequence:
    0:a0
    1:x0
    2:y
    3:h
    4:o
  BufferLiveRange:
    a0{}:0-5
    x0{}:1-2
    y{}:2-3
    h{}:3-3
    o{}:4-5
  Live ranges at 3 (peak):
    a0{}: 4096 bytes (cumulative: 4096 bytes)
    y{}: 2048 bytes (cumulative: 6144 bytes)
    h{}: 1024 bytes (cumulative: 7168 bytes)
)";

void write(const QString &path, const char *text)
{
    testutil::writeFile(path.toStdString(), text);
}

QString modulePath(const QTemporaryDir &dir, const char *name)
{
    return dir.filePath(QStringLiteral("%1.sm_8.0_gpu_after_optimizations-buffer-assignment.txt")
                            .arg(QLatin1String(name)));
}

struct Folder
{
    QTemporaryDir dir;
    Folder(bool withTpu = true)
    {
        write(modulePath(dir, "module_0001.jit_forward"), kForward);
        write(modulePath(dir, "module_0002.jit_backward"), kBackward);
        if (withTpu)
            write(modulePath(dir, "module_0003.jit_tpu_step"), kTpu);
    }
};

struct FitRun
{
    int code = -1;
    QJsonObject json;
    QByteArray err;
};

FitRun fit(const QStringList &args)
{
    QStringList all{QStringLiteral("fit")};
    all += args;
    all += QStringLiteral("--json");
    const testutil::CliRun r = testutil::runBufferscope(all);
    return {r.code, QJsonDocument::fromJson(r.out).object(), r.err};
}

/// module name prefix → the JSON row.
QJsonObject row(const QJsonObject &fit, const char *prefix)
{
    for (const QJsonValue &m : fit.value(QStringLiteral("modules")).toArray())
        if (m.toObject()
                .value(QStringLiteral("module"))
                .toString()
                .startsWith(QLatin1String(prefix)))
            return m.toObject();
    return {};
}

qint64 num(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toInteger(-999);
}

} // namespace

class TestFit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void devicesSayWhatTheRuntimeGets()
    {
        // One device list, with the issue's devices, each at what the runtime acts on: a GPU at
        // the share XLA's BFC allocator gets, size_t(memory × 0.75) rounded up to 2 MiB
        // (xla/pjrt/gpu/gpu_helpers.cc; JAX's default fraction), a TPU at its memory.
        for (const char *id : {"h200-141gb", "mi250-64gb", "mi300x-192gb", "l4-24gb", "tpu-v5e",
                               "tpu-v5p", "tpu-v6e", "a100-80gb"})
            QVERIFY2(DeviceFit::preset(id).has_value(), id);
        constexpr std::int64_t kGiB = std::int64_t{1} << 30;
        const auto a100 = DeviceFit::preset("a100-80gb");
        QCOMPARE(a100->bytes, 64424509440); // 80 GiB × 0.75 = 60 GiB, by hand
        QCOMPARE(a100->memory, 80 * kGiB);
        QCOMPARE(a100->fraction, 0.75);
        QVERIFY2(a100->describe().find("75 % of the 80.00GiB") != std::string::npos,
                 a100->describe().c_str());
        // 94 GiB × 0.75 = 70.5 GiB, a multiple of 2 MiB; 141 GiB × 0.75 = 105.75 GiB.
        QCOMPARE(DeviceFit::preset("h100-nvl-94gb")->bytes, 75698798592);
        QCOMPARE(DeviceFit::preset("h200-141gb")->bytes, 113548197888);
        // Another share: 85899345920 × 0.33 = 28346784153.6, cut to 28346784153, rounded up
        // to 13517 × 2097152 = 28347203584.
        QCOMPARE(DeviceFit::preset("a100-80gb", 0.33)->bytes, 28347203584);
        QCOMPARE(DeviceFit::gpuAllocatorLimit(80 * kGiB, 1.0), 80 * kGiB);
        QCOMPARE(DeviceFit::gpuAllocatorLimit(3, 0.5), std::int64_t{2} << 20);
        QCOMPARE(DeviceFit::gpuAllocatorLimit(0, 0.75), 0);
        QVERIFY(DeviceFit::gpuAllocatorLimit(std::numeric_limits<std::int64_t>::max(), 1.0) > 0);
        // A TPU is its memory, with no share.
        const auto v5e = DeviceFit::preset("tpu-v5e");
        QCOMPARE(v5e->bytes, 16 * kGiB);
        QCOMPARE(v5e->fraction, 0.0);
        QCOMPARE(DeviceFit::percent(0.75), std::string("75 %"));
        QCOMPARE(DeviceFit::percent(0.875), std::string("87.5 %"));
        QCOMPARE(DeviceFit::percent(1.0), std::string("100 %"));
        bool sawSixty = false;
        bool sawTpu = false;
        std::int64_t last = 0;
        for (const DeviceFit::DeviceSize &size : DeviceFit::deviceSizes()) {
            QVERIFY(!size.runtime.empty());
            QVERIFY(size.bytes > last); // ascending, one entry per limit
            last = size.bytes;
            if (size.bytes == 60 * kGiB) {
                sawSixty = true;
                QCOMPARE(size.devices, std::string("A100 80GB, H100 80GB (75 % of 80.00GiB)"));
                QVERIFY(size.gpu && !size.tpu);
                QVERIFY2(size.runtime.find("75 %") != std::string::npos, size.runtime.c_str());
            }
            if (size.devices.find("TPU v5e") != std::string::npos) {
                sawTpu = true;
                QCOMPARE(size.bytes, 16 * kGiB);
                QVERIFY(size.tpu && !size.gpu);
                QVERIFY(size.runtime.find("TPU") != std::string::npos);
            }
            // No GPU is offered at its maker's figure: 80 GiB is no limit of the list.
            QVERIFY(size.bytes != 80 * kGiB);
        }
        QVERIFY(sawSixty && sawTpu);
        // Another share moves every GPU and no TPU.
        for (const DeviceFit::DeviceSize &size : DeviceFit::deviceSizes(1.0))
            if (size.devices.find("A100 80GB") != std::string::npos)
                QCOMPARE(size.bytes, 80 * kGiB);
    }

    void memoryAnalysisByHand()
    {
        const auto fwd = testutil::loadText(kForward);
        QVERIFY(fwd.dump->warnings.empty());
        const MemoryAnalysis a = MemoryAnalysis::of(*fwd.dump);
        QCOMPARE(a.device.argument, std::int64_t{1000});
        QCOMPARE(a.device.output, std::int64_t{400});
        QCOMPARE(a.device.alias, std::int64_t{0});
        QCOMPARE(a.device.temp, std::int64_t{3000});
        QCOMPARE(a.device.constant, std::int64_t{100});
        QCOMPARE(a.device.held(), std::int64_t{4400});
        // More held than ever live: the temp allocation's packing loss.
        QCOMPARE(fwd.timeline->primary()->peak.bytes, std::int64_t{2300});
        QCOMPARE(fwd.timeline->primary()->peak.step, std::int64_t{2});

        const auto bwd = testutil::loadText(kBackward);
        QVERIFY(bwd.dump->warnings.empty());
        const MemoryAnalysis b = MemoryAnalysis::of(*bwd.dump);
        QCOMPARE(b.device.argument, std::int64_t{2500});
        QCOMPARE(b.device.output, std::int64_t{1300});
        QCOMPARE(b.device.alias, std::int64_t{500});
        QCOMPARE(b.device.temp, std::int64_t{2000});
        QCOMPARE(b.device.held(), std::int64_t{5300});
        QCOMPARE(bwd.timeline->primary()->peak.bytes, std::int64_t{4000});

        const auto tpu = testutil::loadText(kTpu);
        QVERIFY(tpu.dump->warnings.empty());
        const MemoryAnalysis c = MemoryAnalysis::of(*tpu.dump);
        QCOMPARE(c.device.argument, std::int64_t{4096});
        QCOMPARE(c.device.output, std::int64_t{512});
        QCOMPARE(c.device.temp, std::int64_t{10240});
        QCOMPARE(c.device.held(), std::int64_t{14848});
        QCOMPARE(c.host.temp, std::int64_t{1024});
        QCOMPARE(c.host.held(), std::int64_t{1024});
    }

    // Memory spaces that share the device add up, step by step; S(5) is not among them.
    void deviceCurveIsTheSumOfItsSpaces()
    {
        const auto tpu = testutil::loadText(kTpu);
        const std::vector<std::int64_t> device = DeviceFit::deviceLiveBytes(*tpu.timeline);
        const std::vector<std::int64_t> byHand{4096, 8192, 10240, 6144, 4608, 4608};
        QCOMPARE(device, byHand);
        const SpaceTimeline *s0 = tpu.timeline->space(0);
        const SpaceTimeline *s1 = tpu.timeline->space(1);
        QVERIFY(s0 && s1);
        for (std::size_t t = 0; t < device.size(); ++t)
            QCOMPARE(device[t], s0->liveBytes[t] + s1->liveBytes[t]);
        // Its peak: 10,240 at step 2, the earliest with the most.
        const DeviceFit::DevicePeak peak = DeviceFit::devicePeak(*tpu.timeline);
        QCOMPARE(peak.bytes, std::int64_t{10240});
        QCOMPARE(peak.step, std::int64_t{2});
        // The samples' device peaks, worked out by hand (SampleTruth::deviceBytes): two of
        // them have S(1) and S(6) values live beside S(0)'s at the peak.
        for (const testutil::SampleTruth &truth : testutil::kSampleTruths) {
            QFile file(truth.path());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const auto sample = testutil::loadText(
                file.readAll().toStdString(), std::string(truth.name) + "-buffer-assignment.txt");
            const DeviceFit::DevicePeak p = DeviceFit::devicePeak(*sample.timeline);
            QCOMPARE(p.bytes, truth.deviceBytes);
            QCOMPARE(p.step, truth.deviceStep);
        }
    }

    // The findings say what the device holds: forward holds 4400 B, its device live bytes peak
    // at 2300 (step 2): 2100 B (48 %) more, the temp allocation (allocation 2) held whole.
    // Backward: 5300 vs 4000, 1300 B (25 %). A module within 10 % gets no such finding.
    void findingSaysWhatIsHeld()
    {
        const auto fwd = testutil::loadText(kForward);
        auto findings = PeakExplainer::explain(*fwd.dump, *fwd.timeline, 2, 0);
        const auto held = std::find_if(findings.begin(), findings.end(), [](const Finding &f) {
            return f.kind == Finding::Kind::HeldWhole;
        });
        QVERIFY(held != findings.end());
        QCOMPARE(held->bytes, std::int64_t{2100});
        QCOMPARE(held->allocation, 2u);
        QVERIFY2(held->title.find("holds 4.3KiB") != std::string::npos, held->title.c_str());
        QVERIFY2(held->title.find("48%") != std::string::npos, held->title.c_str());

        const auto bwd = testutil::loadText(kBackward);
        findings = PeakExplainer::explain(*bwd.dump, *bwd.timeline, 3, 0);
        QVERIFY(std::any_of(findings.begin(), findings.end(), [](const Finding &f) {
            return f.kind == Finding::Kind::HeldWhole && f.bytes == 1300;
        }));
        // gpu_decoder_layer holds 932847556 B, its live peak is 931536164 B: 0.14 %.
        const auto dec =
            testutil::loadText(testutil::readFile(testutil::samplePath("gpu_decoder_layer")));
        findings = PeakExplainer::explain(*dec.dump, *dec.timeline, 58, 0);
        QVERIFY(std::none_of(findings.begin(), findings.end(),
                             [](const Finding &f) { return f.kind == Finding::Kind::HeldWhole; }));
    }

    // Resident = each module's arguments; constants of all three (100 B) stay loaded.
    // forward: 1000 + (400 + 3000) + 100 = 4500; backward: 2500 + (1300 - 500 + 2000) + 100 =
    // 5400; tpu: 4096 + (512 + 10240) + 100 = 14948, over a 10000 B limit by 4948.
    void folderAgainstALimit()
    {
        Folder folder;
        const FitRun r =
            fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("10000")});
        QCOMPARE(r.code, 3);
        QCOMPARE(num(r.json, "constants_loaded_bytes"), 100);
        QCOMPARE(num(row(r.json, "module_0001"), "on_device_bytes"), 4500);
        // held is XLA's argument + output - alias + temp, as `list` gives it: 1000 + 3400.
        QCOMPARE(num(row(r.json, "module_0001"), "held_bytes"), 4400);
        QCOMPARE(num(row(r.json, "module_0001"), "headroom_bytes"), 5500);
        QCOMPARE(num(row(r.json, "module_0002"), "allocated_bytes"), 2800);
        QCOMPARE(num(row(r.json, "module_0002"), "on_device_bytes"), 5400);
        QCOMPARE(num(row(r.json, "module_0002"), "held_bytes"), 5300);
        QCOMPARE(num(row(r.json, "module_0002"), "headroom_bytes"), 4600);
        QCOMPARE(num(row(r.json, "module_0003"), "on_device_bytes"), 14948);
        QCOMPARE(num(row(r.json, "module_0003"), "held_bytes"), 14848);
        QCOMPARE(num(row(r.json, "module_0003"), "headroom_bytes"), -4948);
        QCOMPARE(num(row(r.json, "module_0003"), "host_held_bytes"), 1024);
        QVERIFY(r.json.value(QStringLiteral("limiting_module"))
                    .toString()
                    .startsWith(QLatin1String("module_0003.jit_tpu_step")));
        QCOMPARE(num(r.json, "device_peak_bytes"), 14948);
        QCOMPARE(r.json.value(QStringLiteral("fits")).toBool(), false);
    }

    // A TPU module is weighed by both rules of its platform (issue 59): the compiler's check,
    // the temporaries alone against the limit (libtpu aborts the compile past it), and what the
    // device holds while it runs. kTpu by hand: temp 8192 + 2048 = 10240 on the device (the
    // S(5) 1024 is host); on the device 4096 + 512 + 10240 = 14848 (no constants). Named as
    // 2026 TPU dumps are (no platform in the name: its tiled layouts say TPU).
    void tpuModuleHasBothChecks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral(
            "module_0003.jit_tpu_step.cl_854318611.after_optimizations-buffer-assignment.txt"));
        write(path, kTpu);
        const auto check = [](const QJsonObject &module, const char *which) {
            for (const QJsonValue &c : module.value(QStringLiteral("checks")).toArray())
                if (c.toObject().value(QStringLiteral("check")).toString() == QLatin1String(which))
                    return c.toObject();
            return QJsonObject();
        };
        // 15000 B: both fit, 4760 and 152 to spare.
        FitRun r = fit({path, QStringLiteral("--limit"), QStringLiteral("15000")});
        QCOMPARE(r.code, 0);
        QJsonObject m = row(r.json, "module_0003");
        QCOMPARE(m.value(QStringLiteral("platform")).toString(), QStringLiteral("tpu"));
        QCOMPARE(m.value(QStringLiteral("checks")).toArray().size(), 2);
        QCOMPARE(check(m, "compile_time").value(QStringLiteral("figure")).toString(),
                 QStringLiteral("temp_size_in_bytes"));
        QCOMPARE(num(check(m, "compile_time"), "bytes"), 10240);
        QCOMPARE(num(check(m, "compile_time"), "headroom_bytes"), 4760);
        QCOMPARE(check(m, "run_time").value(QStringLiteral("figure")).toString(),
                 QStringLiteral("on_device_bytes"));
        QCOMPARE(num(check(m, "run_time"), "bytes"), 14848);
        QCOMPARE(num(check(m, "run_time"), "headroom_bytes"), 152);
        QVERIFY(r.json.value(QStringLiteral("compile_aborts_module")).isNull());
        // 12000 B: it compiles (1760 to spare) and does not run (2848 over).
        r = fit({path, QStringLiteral("--limit"), QStringLiteral("12000")});
        QCOMPARE(r.code, 3);
        m = row(r.json, "module_0003");
        QCOMPARE(check(m, "compile_time").value(QStringLiteral("fits")).toBool(), true);
        QCOMPARE(num(check(m, "compile_time"), "headroom_bytes"), 1760);
        QCOMPARE(check(m, "run_time").value(QStringLiteral("fits")).toBool(), false);
        QCOMPARE(num(check(m, "run_time"), "headroom_bytes"), -2848);
        QVERIFY(r.json.value(QStringLiteral("compile_aborts_module")).isNull());
        testutil::CliRun text = testutil::runBufferscope(
            {QStringLiteral("fit"), path, QStringLiteral("--limit"), QStringLiteral("12000")});
        QVERIFY2(text.out.contains("Does not fit at run time") &&
                     text.out.contains("Its temporaries alone fit"),
                 text.out.constData());
        // 10000 B: the compile aborts (240 over); the run check is over by 4848.
        r = fit({path, QStringLiteral("--limit"), QStringLiteral("10000")});
        QCOMPARE(r.code, 3);
        m = row(r.json, "module_0003");
        QCOMPARE(check(m, "compile_time").value(QStringLiteral("fits")).toBool(), false);
        QCOMPARE(num(check(m, "compile_time"), "headroom_bytes"), -240);
        QCOMPARE(num(check(m, "run_time"), "headroom_bytes"), -4848);
        QVERIFY(r.json.value(QStringLiteral("compile_aborts_module"))
                    .toString()
                    .startsWith(QLatin1String("module_0003.jit_tpu_step")));
        text = testutil::runBufferscope(
            {QStringLiteral("fit"), path, QStringLiteral("--limit"), QStringLiteral("10000")});
        QVERIFY2(text.out.contains("Does not compile") && text.out.contains("are 240B over"),
                 text.out.constData());
        // A GPU module has the allocator's rule only.
        Folder gpu(false);
        r = fit({gpu.dir.path(), QStringLiteral("--limit"), QStringLiteral("5500")});
        m = row(r.json, "module_0001");
        QCOMPARE(m.value(QStringLiteral("platform")).toString(), QStringLiteral("gpu"));
        QCOMPARE(m.value(QStringLiteral("checks")).toArray().size(), 1);
        QCOMPARE(num(check(m, "run_time"), "headroom_bytes"), 1000);
    }

    // The two GPU modules alone fit in 5500 B; backward (5400) sets the peak.
    void fitsAndNamesTheLimitingModule()
    {
        Folder folder(false);
        const FitRun r =
            fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("5500")});
        QCOMPARE(r.code, 0);
        QCOMPARE(num(r.json, "constants_loaded_bytes"), 100);
        QVERIFY(r.json.value(QStringLiteral("limiting_module"))
                    .toString()
                    .startsWith(QLatin1String("module_0002.jit_backward")));
        QCOMPARE(num(r.json, "device_peak_bytes"), 5400);
        QCOMPARE(num(row(r.json, "module_0002"), "headroom_bytes"), 100);
    }

    // A resident number holds the arguments: forward 3000 + 3400 + 100 = 6500, backward
    // 3000 + 2800 + 100 = 5900; args+1000: forward 2000 + 3400 + 100 = 5500, backward
    // 3500 + 2800 + 100 = 6400.
    void residentTypedOrOnTopOfArguments()
    {
        Folder folder(false);
        FitRun r = fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("6000"),
                        QStringLiteral("--resident"), QStringLiteral("3000")});
        QCOMPARE(r.code, 3);
        QCOMPARE(num(row(r.json, "module_0001"), "on_device_bytes"), 6500);
        QCOMPARE(num(row(r.json, "module_0002"), "on_device_bytes"), 5900);
        // What is resident changes what is on the device, not what the module holds.
        QCOMPARE(num(row(r.json, "module_0001"), "held_bytes"), 4400);
        QVERIFY(r.json.value(QStringLiteral("limiting_module"))
                    .toString()
                    .startsWith(QLatin1String("module_0001")));
        r = fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("7000"),
                 QStringLiteral("--resident"), QStringLiteral("args+1000")});
        QCOMPARE(r.code, 0);
        QCOMPARE(num(row(r.json, "module_0001"), "on_device_bytes"), 5500);
        QCOMPARE(num(row(r.json, "module_0002"), "on_device_bytes"), 6400);
    }

    // Two figures that round alike are told apart: 5400 B on the device against a 5401 B limit
    // both read 5.3KiB, so both get their byte counts.
    void figuresThatRoundAlike()
    {
        Folder folder(false);
        const testutil::CliRun r =
            testutil::runBufferscope({QStringLiteral("fit"), folder.dir.path(),
                                      QStringLiteral("--limit"), QStringLiteral("5401")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("Fits: 5.3KiB (5400 B) on the device while"), r.out.constData());
        QVERIFY2(r.out.contains("the limit of 5.3KiB (5401 B)."), r.out.constData());
    }

    // A module whose dump is cut short is never said to fit: the two GPU modules fit 5500 B,
    // but with backward cut inside its schedule the verdict is "cannot tell", exit 4 (unjudged).
    void truncatedModuleIsNoDefiniteFit()
    {
        Folder folder(false);
        const QString backward =
            QDir(folder.dir.path()).entryList({QStringLiteral("module_0002*")}).first();
        QFile f(folder.dir.filePath(backward));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        const qsizetype cut = text.indexOf("HloLiveRange");
        QVERIFY(cut > 0);
        text.truncate(cut + 40); // inside the schedule: the dump says it is cut short
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        const FitRun r =
            fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("5500")});
        QCOMPARE(r.code, 4);
        QVERIFY(r.json.value(QStringLiteral("fits")).isNull());
        QVERIFY(row(r.json, "module_0002").value(QStringLiteral("truncated")).toBool());
        QVERIFY(row(r.json, "module_0002").value(QStringLiteral("fits")).isNull());
        QVERIFY(row(r.json, "module_0001").value(QStringLiteral("fits")).toBool());
        const testutil::CliRun text2 =
            testutil::runBufferscope({QStringLiteral("fit"), folder.dir.path(),
                                      QStringLiteral("--limit"), QStringLiteral("5500")});
        QVERIFY2(text2.out.contains("Cannot tell:"), text2.out.constData());
        QVERIFY(!text2.out.contains("Fits:"));
    }

    // A named device, and the limit and InUse a log printed (tests/data/oom/gpu-bfc-decoder.log:
    // Limit 933232640, InUse 932000000).
    void limitFromDeviceOrLog()
    {
        Folder folder(false);
        FitRun r = fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("a100-80gb")});
        QCOMPARE(r.code, 0);
        // A GPU at the share XLA's allocator gets: 80 GiB × 0.75 = 60 GiB, and the JSON says so.
        QCOMPARE(num(r.json, "limit_bytes"), qint64{60} << 30);
        QCOMPARE(num(r.json, "device_memory_bytes"), qint64{80} << 30);
        QCOMPARE(r.json.value(QLatin1String("gpu_mem_fraction")).toDouble(), 0.75);
        QCOMPARE(r.json.value(QLatin1String("limit_device")).toString(),
                 QStringLiteral("a100-80gb"));
        QVERIFY(r.json.value(QLatin1String("limit_source"))
                    .toString()
                    .contains(QStringLiteral("75 % of the 80.00GiB")));
        // Another share (XLA_CLIENT_MEM_FRACTION=0.9): 72 GiB; the text says which figure.
        r = fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("a100-80gb"),
                 QStringLiteral("--mem-fraction"), QStringLiteral(".9")});
        QCOMPARE(r.code, 0);
        QCOMPARE(num(r.json, "limit_bytes"), qint64{72} << 30);
        const testutil::CliRun shareText = testutil::runBufferscope(
            {QStringLiteral("fit"), folder.dir.path(), QStringLiteral("--limit"),
             QStringLiteral("h100-80gb"), QStringLiteral("--mem-fraction"), QStringLiteral("1")});
        QCOMPARE(shareText.code, 0);
        QVERIFY2(shareText.out.contains("80.00GiB (85899345920 B, device h100-80gb: XLA's GPU "
                                        "allocator gets 100 % of the 80.00GiB"),
                 shareText.out.constData());
        // A TPU and a size are taken as they are; a share there, or out of range, is refused.
        r = fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("tpu-v5e")});
        QCOMPARE(num(r.json, "limit_bytes"), qint64{16} << 30);
        QVERIFY(r.json.value(QLatin1String("gpu_mem_fraction")).isNull());
        r = fit({folder.dir.path(), QStringLiteral("--limit"), QStringLiteral("16GiB")});
        QVERIFY(r.json.value(QLatin1String("limit_device")).isNull());
        QVERIFY(r.json.value(QLatin1String("device_memory_bytes")).isNull());
        for (const QStringList &bad :
             {QStringList{QStringLiteral("--limit"), QStringLiteral("tpu-v5e"),
                          QStringLiteral("--mem-fraction"), QStringLiteral("0.9")},
              QStringList{QStringLiteral("--limit"), QStringLiteral("16GiB"),
                          QStringLiteral("--mem-fraction"), QStringLiteral("0.9")},
              QStringList{QStringLiteral("--limit"), QStringLiteral("a100-80gb"),
                          QStringLiteral("--mem-fraction"), QStringLiteral("1.5")},
              QStringList{QStringLiteral("--limit"), QStringLiteral("a100-80gb"),
                          QStringLiteral("--mem-fraction"), QStringLiteral("0")},
              QStringList{QStringLiteral("--limit"), QStringLiteral("a100-80gb"),
                          QStringLiteral("--mem-fraction"), QStringLiteral("0,9")}}) {
            const testutil::CliRun refused = testutil::runBufferscope(
                QStringList{QStringLiteral("fit"), folder.dir.path()} + bad);
            QCOMPARE(refused.code, 1);
            QVERIFY2(refused.err.contains("--mem-fraction"), refused.err.constData());
        }
        const QString log = QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log");
        r = fit({folder.dir.path(), QStringLiteral("--log"), log, QStringLiteral("--resident"),
                 QStringLiteral("in-use")});
        QCOMPARE(num(r.json, "limit_bytes"), 933232640);
        // 932000000 + 3400 + 100 = 932003500 and 932000000 + 2800 + 100 = 932002900: both fit.
        QCOMPARE(num(row(r.json, "module_0001"), "on_device_bytes"), 932003500);
        QCOMPARE(r.code, 0);
        // Bad limits are refused, with the devices named.
        const testutil::CliRun bad =
            testutil::runBufferscope({QStringLiteral("fit"), folder.dir.path(),
                                      QStringLiteral("--limit"), QStringLiteral("huge")});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("a100-80gb"), bad.err.constData());
    }

    // The real module_0147: 29.29 GiB on the device (held, 8478720964 + 3064320000 +
    // 19907138048, and its constants), 5.29 GiB over 24 GiB, though its live bytes peak at
    // 23.90 GiB.
    void realModuleOverA24GiBDevice()
    {
        const QString path = QDir::cleanPath(QStringLiteral(
            BUFFERSCOPE_SOURCE_DIR "/../shared/real/"
                                   "module_0147.jit__kernel.sm_8.0_gpu_after_optimizations-buffer-"
                                   "assignment.txt"));
        if (!QFileInfo::exists(path))
            QSKIP("../shared/real is not beside the repository (a clone does not have it)");
        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("fit"), path, QStringLiteral("--limit"), QStringLiteral("24GiB")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.out.contains("Does not fit: 29.29GiB on the device"), r.out.constData());
        QVERIFY2(r.out.contains("5.29GiB over the limit of 24.00GiB"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestFit)
#include "tst_fit.moc"
