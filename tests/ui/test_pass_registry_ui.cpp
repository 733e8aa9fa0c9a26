// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs panel's pass picker reads core's pass registry: a pass registered in one place gets
// its append button (with its description as the tooltip), is accepted by the sequence's
// validation, and the presets are core's.
#include <QComboBox>
#include <QTest>
#include <QToolButton>

#include "logic/pass_sequence.hpp"
#include "runs/pass_picker.hpp"

using namespace egtmin;
using namespace egtmin::ui;

class TestPassRegistryUi : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void registeredPassGetsAButton() {
    auto toy = logic::register_pass(
        {"toysort", "sort each output's cubes (a test pass)", [](logic::PassState& st, const logic::PassContext&) {
           for (logic::Cover& c : st.work) std::sort(c.begin(), c.end());
         }});
    QVERIFY(toy.ok());
    PassPicker p;
    auto* button = p.findChild<QToolButton*>(QStringLiteral("pass-toysort"));
    QVERIFY(button);
    QCOMPARE(button->text(), QString("toysort"));
    QVERIFY2(button->toolTip().contains("sort each output's cubes (a test pass)"), qPrintable(button->toolTip()));
    p.setPasses(QStringLiteral("canon,compact"));
    button->click();
    QCOMPARE(p.passes(), QString("canon,compact,toysort"));
    QVERIFY(p.valid());
    // One button per registered pass, no more.
    int passButtons = 0;
    for (QToolButton* b : p.findChildren<QToolButton*>()) passButtons += b->objectName().startsWith("pass-");
    QCOMPARE(passButtons, int(logic::registered_passes().size()));
  }

  void presetsAreCores() {
    PassPicker p;
    const auto presets = logic::pass_presets();
    QCOMPARE(p.presetBox()->count(), int(presets.size()) + 1);  // + "custom"
    for (int i = 0; i < int(presets.size()); ++i)
      QCOMPARE(p.presetBox()->itemData(i).toString(),
               QString::fromStdString(logic::passes_string(presets[size_t(i)].passes)));
    p.applyPreset(0);
    QCOMPARE(p.passes(), QString("canon,compact,expand,irredundant"));
  }
};

QTEST_MAIN(TestPassRegistryUi)
#include "test_pass_registry_ui.moc"
