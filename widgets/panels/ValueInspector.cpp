#include "panels/ValueInspector.h"

#include "Workspace.h"
#include "analysis/ValueFlow.h"
#include "drawing/LinkRestyle.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "report/ValueCard.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace bufferscope {

namespace {
constexpr std::uint32_t kMaxListed = 200; ///< positions/uses listed before "and N more"

QString row(const QString &key, const QString &value)
{
    return QStringLiteral("<tr><td style='padding-right:10px'><b>%1</b></td><td>%2</td></tr>")
        .arg(key, value);
}
} // namespace

ValueInspector::ValueInspector(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_selection(workspace->selection()),
      m_heading(new QLabel(this)), m_details(new QTextBrowser(this)),
      m_text(new QPlainTextEdit(this)),
      m_copySource(new QPushButton(tr("Copy source location"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long name must not widen the column (and make every chart jump) when a value is
    // selected: the heading takes the width it is given and elides the name in its middle
    // (the whole name is in the card below, which wraps anywhere, and in the tooltip).
    m_heading->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    top->addWidget(m_heading, 1);
    top->addWidget(m_copySource);
    layout->addLayout(top);
    auto *split = new QSplitter(Qt::Vertical, this);
    m_details->setOpenLinks(false);
    m_details->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    // Links are coloured, not underlined: an underline hides the underscores of names such as
    // fn_355 and train_step.
    m_details->document()->setDefaultStyleSheet(QStringLiteral("a { text-decoration: none; }"));
    m_details->setOpenExternalLinks(false);
    // The card read again when the colour scheme switches, for its links' colour.
    LinkRestyle::watch(m_details, [this] {
        if (!m_detailsHtml.isEmpty())
            m_details->setHtml(m_detailsHtml);
    });
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("The value's `from instruction:` text appears here."));
    split->addWidget(m_details);
    split->addWidget(m_text);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    m_copySource->setEnabled(false);
    connect(m_copySource, &QPushButton::clicked, this, [this] {
        if (!m_dump || m_value < 0)
            return;
        const Value &v = m_dump->values[static_cast<std::size_t>(m_value)];
        if (const Instruction *ins = m_dump->instructionOf(v))
            QApplication::clipboard()->setText(toQString(m_dump->sourceLocation(*ins)));
    });
    connect(m_details, &QTextBrowser::anchorClicked, this, &ValueInspector::activateLink);
    connect(m_selection, &Selection::currentValueChanged, this, &ValueInspector::showValue);
    showValue(-1);
}

void ValueInspector::setDump(std::shared_ptr<const Dump> dump)
{
    m_dump = std::move(dump);
    showValue(m_selection->currentValue());
}

void ValueInspector::setLibraryPatterns(std::vector<std::string> patterns)
{
    m_libraryPatterns = std::move(patterns);
    showValue(m_value);
}

void ValueInspector::activateLink(const QUrl &url)
{
    const QString target = url.toString();
    const auto number = [&target](QLatin1StringView prefix) {
        return target.mid(prefix.size()).toLongLong();
    };
    if (target.startsWith(QLatin1StringView("value:")))
        m_selection->setCurrentValue(static_cast<int>(number(QLatin1StringView("value:"))));
    else if (target.startsWith(QLatin1StringView("step:")))
        m_selection->setCurrentStep(number(QLatin1StringView("step:")));
    else if (target.startsWith(QLatin1StringView("frame:"))) {
        const qint64 k = number(QLatin1StringView("frame:"));
        if (k >= 0 && k < static_cast<qint64>(m_frames.size()))
            Q_EMIT frameActivated(m_frames[static_cast<std::size_t>(k)]);
    }
}

QString ValueInspector::stepLink(std::int64_t step) const
{
    const std::uint32_t ins = m_dump->instructionAtStep(step);
    const QString name = ins == kNone ? tr("end of program")
                                      : toQString(m_dump->str(m_dump->instructions[ins].name));
    return QStringLiteral("<a href='step:%1'>%1</a> (%2)").arg(step).arg(richEscaped(name));
}

QString ValueInspector::instructionLink(std::uint32_t instruction) const
{
    const Instruction &ins = m_dump->instructions[instruction];
    QString name = richEscaped(m_dump->str(ins.name));
    // The instruction's name selects the (first) value it defines, when it defines one.
    const auto [first, last] = m_dump->valuesOf(instruction);
    if (first != last)
        name = QStringLiteral("<a href='value:%1'>%2</a>").arg(QString::number(*first), name);
    if (ins.step >= 0)
        name += QStringLiteral(" · step <a href='step:%1'>%1</a>").arg(ins.step);
    else
        name += tr(" · not scheduled");
    return name;
}

QString ValueInspector::html(const ValueCard &card) const
{
    const Dump &d = *m_dump;
    QString out = QStringLiteral("<table cellspacing='2'>");
    out += row(tr("id"), QString::number(card.id));
    out += row(tr("name"), richEscaped(card.name));
    out += row(tr("key"), richEscaped(card.key));
    out += row(tr("memory space"), richEscaped(card.memorySpaceText));
    if (card.allocation) {
        const ValueCard::Placement &a = *card.allocation;
        out += row(tr("allocation"), tr("%1 · %2 · %3 (%4 bytes)")
                                         .arg(a.index)
                                         .arg(toQString(allocationKindName(a.kind)))
                                         .arg(humanBytesText(a.size))
                                         .arg(a.size));
        if (a.page >= 0)
            out += row(tr("page"), a.page == 0 ? tr("0") : toQString(pageNote(a.page)));
        out += row(tr("offset"),
                   QStringLiteral("%1 (0x%2)").arg(a.offset).arg(QString::number(a.offset, 16)));
    } else {
        out += row(tr("allocation"), tr("none (not in any allocation)"));
    }
    out += row(tr("assigned bytes"),
               tr("%1 (%2 bytes)").arg(humanBytesText(card.bytes)).arg(card.bytes));
    if (card.logicalBytes) {
        out += row(
            tr("logical bytes"),
            tr("%1 (%2 bytes)").arg(humanBytesText(*card.logicalBytes)).arg(*card.logicalBytes));
        out += row(tr("padding"), tr("%1 bytes").arg(card.bytes - *card.logicalBytes));
    } else {
        out += row(tr("logical bytes"), tr("unknown (dynamic or unreadable shape)"));
    }
    out += row(tr("shape"), QStringLiteral("<code>%1</code>").arg(richEscaped(card.shape)));
    if (!card.category.empty())
        out += row(tr("category"),
                   QStringLiteral("<b>%1</b> — %2")
                       .arg(richEscaped(card.category), richEscaped(card.categoryEvidence)));
    if (card.hasLiveRange())
        out += row(tr("live range"), tr("%1 – %2 · %3 steps")
                                         .arg(stepLink(card.start), stepLink(card.end),
                                              QString::number(card.end - card.start + 1)));
    else
        out += row(tr("live range"), tr("none printed"));

    const ValueFlow &flow = card.flow;
    const auto marks = [&](const std::vector<ValueMark> &list, bool uses) {
        QStringList items;
        for (std::size_t i = 0; i < list.size() && i < kMaxListed; ++i) {
            const ValueMark &m = list[i];
            QString text = m.instruction == kNone ? tr("?") : instructionLink(m.instruction);
            if (uses)
                text += tr(" · operand %1").arg(m.operand);
            if (m.index != kNoString)
                text += QStringLiteral(" ") + richEscaped(d.str(m.index));
            items << text;
        }
        if (list.size() > kMaxListed)
            items << tr("… and %1 more").arg(list.size() - kMaxListed);
        return items.join(QStringLiteral("<br>"));
    };
    const QString positions = marks(flow.positions, false);
    out += row(tr("positions"), positions.isEmpty() ? tr("none") : positions);
    QString usesText = marks(flow.uses, true);
    if (card.usesNotInitialized)
        usesText = tr("not initialized yet (XLA printed no uses)");
    else if (usesText.isEmpty())
        usesText = flow.usesKnown ? tr("none") : tr("not in this dump");
    out += row(tr("uses"), usesText);
    // The data flow around it: what its instruction reads, what its readers make.
    const auto links = [&](const std::vector<std::uint32_t> &values,
                           const QString &key) -> QString {
        QStringList items;
        for (std::size_t i = 0; i < values.size() && i < kMaxListed; ++i) {
            const Value &x = d.values[values[i]];
            items << QStringLiteral("<a href='value:%1'>%2</a> · %3")
                         .arg(values[i])
                         .arg(richEscaped(d.valueDisplayName(x)), humanBytesText(x.size));
        }
        if (values.size() > kMaxListed)
            items << tr("… and %1 more").arg(values.size() - kMaxListed);
        if (items.isEmpty())
            return flow.usesKnown || !values.empty() ? tr("none") : tr("unknown (no uses printed)");
        return items.join(QStringLiteral("<br>")) +
               QStringLiteral(" <span style='color:gray'>(%1: the largest)</span>").arg(key);
    };
    out += row(tr("producers"), links(flow.producers, tr("Alt+↑")));
    out += row(tr("consumers"), links(flow.consumers, tr("Alt+↓")));
    if (card.instruction != kNone) {
        out += row(tr("instruction"), instructionLink(card.instruction));
        if (!card.opcode.empty())
            out += row(tr("opcode"), richEscaped(card.opcode));
        if (!card.opType.empty())
            out += row(tr("op_type"), richEscaped(card.opType));
        if (!card.opName.empty())
            out += row(tr("op_name"), richEscaped(card.opName));
        if (!card.source.empty())
            out +=
                row(tr("source"), QStringLiteral("<code>%1</code>").arg(richEscaped(card.source)));
        // The call stack, innermost first (2026 dumps: the optimized HLO's tables; older ones:
        // the inline source as one frame). Each frame links to its source; library frames are
        // grey, so the user's own line stands out.
        QStringList frames;
        for (std::size_t k = 0; k < card.stack.size(); ++k) {
            const SourcePlace &f = card.stack[k];
            QString place = f.file.empty() ? tr("?") : toQString(f.file);
            if (f.line >= 0)
                place += QStringLiteral(":%1").arg(f.line);
            if (f.column > 0)
                place += QStringLiteral(":%1").arg(f.column);
            const bool library = isLibraryFile(f.file, m_libraryPatterns);
            frames << QStringLiteral("<a href='frame:%1'%2>%3<code>%4</code></a>")
                          .arg(k)
                          .arg(library ? QStringLiteral(" style='color:gray'") : QString())
                          .arg(f.function.empty() ? QString()
                                                  : richEscaped(f.function) + QStringLiteral(" "),
                               richEscaped(place));
        }
        if (!frames.isEmpty())
            out += row(QStringLiteral("<a name='stack'></a>") + tr("call stack"),
                       frames.join(QStringLiteral("<br>")));
    }
    out +=
        row(tr("listed at"),
            tr("%1 line %2").arg(richEscaped(card.listedFile), QString::number(card.listedLine)));
    out += QStringLiteral("</table>");
    return out;
}

void ValueInspector::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitHeading();
}

void ValueInspector::fitHeading()
{
    if (m_headingName.isEmpty())
        return;
    QFont bold = m_heading->font();
    bold.setBold(true);
    const QString size = QStringLiteral(" · ") + m_headingSize;
    const int room = std::max(40, m_heading->width() - m_heading->fontMetrics().horizontalAdvance(
                                                           size + QStringLiteral("  ")));
    const QString name = QFontMetrics(bold).elidedText(m_headingName, Qt::ElideMiddle, room);
    m_heading->setWordWrap(false);
    m_heading->setToolTip(name == m_headingName ? QString() : plainToolTip(m_headingName));
    m_heading->setText(QStringLiteral("<b>%1</b>%2").arg(richEscaped(name), richEscaped(size)));
}

void ValueInspector::showValue(int value)
{
    if (!m_dump || value < 0 || static_cast<std::size_t>(value) >= m_dump->values.size()) {
        m_value = -1;
        m_frames.clear();
        m_headingName.clear();
        m_heading->setWordWrap(true);
        m_heading->setToolTip(QString());
        m_heading->setText(tr("<i>No value selected. Click a value in any view.</i>"));
        m_details->clear();
        m_detailsHtml.clear();
        m_text->clear();
        m_copySource->setEnabled(false);
        return;
    }
    m_value = value;
    const Value &v = m_dump->values[static_cast<std::size_t>(value)];
    // The data flow the workspace keeps for the value last asked for (Go to Producer asks too).
    const std::shared_ptr<const ValueFlow> flow = m_workspace->flow(m_dump, value);
    const LoadedDump &shown = m_workspace->current();
    const ValueCard card = ValueCard::of(*m_dump, static_cast<std::uint32_t>(value), flow.get(),
                                         shown.dump == m_dump ? shown.categories.get() : nullptr);
    m_frames = card.stack;
    m_headingName = toQString(card.name);
    m_headingSize = humanBytesText(card.bytes);
    fitHeading();
    m_detailsHtml = html(card);
    m_details->setHtml(m_detailsHtml);
    const Instruction *ins = m_dump->instructionOf(v);
    m_copySource->setEnabled(ins && !m_dump->sourceLocation(*ins).empty());
    m_text->setPlainText(ins && ins->hasText
                             ? QString::fromStdString(m_dump->instructionText(v.instruction))
                             : tr("(the dump has no `from instruction:` line for "
                                  "this value)"));
}

} // namespace bufferscope
