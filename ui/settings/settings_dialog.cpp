// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings/settings_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include "app_context.hpp"
#include "probe/probe.hpp"
#include "util/defaults.hpp"

namespace egtmin::ui {

namespace {
QWidget* withBrowse(QWidget* parent, QLineEdit* edit, const QString& title) {
  auto* w = new QWidget(parent);
  auto* l = new QHBoxLayout(w);
  l->setContentsMargins(0, 0, 0, 0);
  l->addWidget(edit, 1);
  auto* b = new QPushButton(QObject::tr("Browse…"), w);
  QObject::connect(b, &QPushButton::clicked, w, [edit, title, w] {
    const QString d = QFileDialog::getExistingDirectory(w, title, edit->text());
    if (!d.isEmpty()) edit->setText(d);
  });
  l->addWidget(b);
  return w;
}
}  // namespace

SettingsDialog::SettingsDialog(AppContext* ctx, QWidget* parent) : QDialog(parent), ctx_(ctx) {
  setWindowTitle(tr("egtmin settings"));
  data_ = new QLineEdit(ctx->dataDir(), this);
  syzygy_ = new QLineEdit(ctx->syzygyDir(), this);
  syzygy_->setPlaceholderText(tr("directory with *.rtbw / *.rtbz files"));
  dataNote_ = new QLabel(this);
  syzygyNote_ = new QLabel(this);
  probeMemoryNote_ = new QLabel(this);
  for (QLabel* l : {dataNote_, syzygyNote_, probeMemoryNote_}) {
    l->setWordWrap(true);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    l->setFont(f);
  }
  threads_ = new QSpinBox(this);
  threads_->setRange(0, egtmin::default_threads() * 2);
  threads_->setSpecialValueText(tr("all (%1)").arg(egtmin::default_threads()));
  threads_->setValue(ctx->threads());
  probeMemory_ = new QComboBox(this);
  for (const probe::ProbeMemoryLevel& l : probe::probe_memory_levels()) {
    probeMemory_->addItem(QString::fromLatin1(l.name.data(), qsizetype(l.name.size())), int(l.level));
    probeMemory_->setItemData(probeMemory_->count() - 1,
                              QString::fromLatin1(l.description.data(), qsizetype(l.description.size())),
                              Qt::ToolTipRole);
  }
  probeMemory_->setCurrentIndex(probeMemory_->findData(int(ctx->probeMemory())));

  auto* form = new QFormLayout;
  form->addRow(tr("Data directory:"), withBrowse(this, data_, tr("Data directory")));
  form->addRow(QString(), dataNote_);
  form->addRow(tr("Syzygy directory:"), withBrowse(this, syzygy_, tr("Syzygy directory")));
  form->addRow(QString(), syzygyNote_);
  form->addRow(tr("Threads for runs:"), threads_);
  form->addRow(tr("Probe memory:"), probeMemory_);
  form->addRow(QString(), probeMemoryNote_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
  connect(data_, &QLineEdit::textChanged, this, &SettingsDialog::check);
  connect(syzygy_, &QLineEdit::textChanged, this, &SettingsDialog::check);
  connect(probeMemory_, &QComboBox::currentIndexChanged, this, &SettingsDialog::check);
  check();
  resize(640, sizeHint().height());
}

void SettingsDialog::check() {
  const QDir dataDir(data_->text());
  if (data_->text().isEmpty())
    dataNote_->setText(tr("Required: where tables (tables/*.egtt) and covers (covers/*.egtc) are kept."));
  else if (!dataDir.exists())
    dataNote_->setText(tr("Does not exist yet; it is created when the first table is generated."));
  else
    dataNote_->setText(tr("%n table(s), %1 cover(s).", nullptr,
                          int(QDir(dataDir.filePath("tables")).entryList({"*.egtt"}, QDir::Files).size()))
                           .arg(QDir(dataDir.filePath("covers")).entryList({"*.egtc"}, QDir::Files).size()));
  const QDir syz(syzygy_->text());
  if (syzygy_->text().isEmpty())
    syzygyNote_->setText(tr("Optional: Syzygy tables to compare against (values and DTZ)."));
  else if (!syz.exists())
    syzygyNote_->setText(tr("<span style='color:#b01010'>No such directory.</span>"));
  else
    syzygyNote_->setText(tr("%n WDL file(s) found.", nullptr, int(syz.entryList({"*.rtbw"}, QDir::Files).size())));
  const auto& level = probe::probe_memory_level(probe::ProbeMemory(probeMemory_->currentData().toInt()));
  probeMemoryNote_->setText(
      tr("What probing the covers keeps in memory: %1. The probe panel shows what the "
         "loaded covers take.")
          .arg(QString::fromLatin1(level.description.data(), qsizetype(level.description.size()))));
}

void SettingsDialog::accept() {
  ctx_->setDataDir(data_->text().trimmed());
  ctx_->setSyzygyDir(syzygy_->text().trimmed());
  ctx_->setThreads(threads_->value());
  ctx_->setProbeMemory(probe::ProbeMemory(probeMemory_->currentData().toInt()));
  QDialog::accept();
}

}  // namespace egtmin::ui
