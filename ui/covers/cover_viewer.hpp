// SPDX-License-Identifier: GPL-3.0-or-later
// Cover viewer: opens a balance's cover file (loaded and decompressed off the GUI thread), lists
// its cubes with decoded columns, filters by output, exports CSV, and tells the board which
// squares each piece of the selected cube may occupy. The list of covers follows the data
// directory: rescanned on Rescan and whenever AppContext says the data changed (another
// directory, or a run's finish, which the Runs panel reports).
#pragma once

#include <QWidget>
#include <optional>

#include "background_task.hpp"
#include "board/board_widget.hpp"
#include "store/cover_file.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace egtmin::ui {

class AppContext;
class CoverModel;

class CoverViewer : public QWidget {
  Q_OBJECT
 public:
  explicit CoverViewer(AppContext* ctx, QWidget* parent = nullptr);
  ~CoverViewer() override;

  CoverModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTableView* view() const { return view_; }
  QComboBox* balanceBox() const { return balances_; }
  QComboBox* outputBox() const { return output_; }
  QLabel* infoLabel() const { return info_; }
  QPushButton* rescanButton() const { return rescan_; }

  // Shows cubes directly (tests, or covers made in memory).
  void setCover(const store::CoverFile& cover);
  // Loads DATA/covers/NAME.egtc (or the capture-resolved NAME.egtcr) in the background; loaded()
  // or failed() follows.
  void load(const QString& balanceName, store::CoverKind kind = store::CoverKind::Standalone);
  bool busy() const { return watcher_.isRunning(); }
  // Writes the rows passing the filter, decoded, as CSV.
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 public Q_SLOTS:
  void rescan();                     // refresh the list of covers in the data directory
  void setOutputFilter(int output);  // 0 = all, else int(logic::Output)

 Q_SIGNALS:
  void overlayChanged(const std::vector<egtmin::ui::BoardWidget::Overlay>& overlay);
  void loaded();
  void failed(const QString& message);

 private:
  struct Loaded {
    std::optional<store::CoverFile> cover;
    QString error;
  };
  void selectionChanged();
  void finishedLoading();
  void exportDialog();

  AppContext* ctx_;
  CoverModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QComboBox *balances_, *output_;
  QPushButton* rescan_;
  QLabel* info_;
  QLabel* legend_;
  bool shown_ = false;  // a cover is shown: the info line is its summary, not the list's
  BackgroundTask<Loaded> watcher_;
};

}  // namespace egtmin::ui
