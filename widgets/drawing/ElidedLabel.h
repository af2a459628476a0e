#pragma once

#include <QLabel>

namespace bufferscope {

/// A one-line label that never ends mid-word at its edge: text too long for it gives way in its
/// middle ("jit__kernel (0147) · /work/…/module_0147…-buffer-assignment.txt"), whole in the
/// tooltip. For plain text in tight places (the status bar).
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    /// The text as drawn at the label's present width.
    QString shownText() const;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace bufferscope
