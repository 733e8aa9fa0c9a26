// SPDX-License-Identifier: GPL-3.0-or-later
// Probe panel: our value and Syzygy's for the edited position, side by side, and every legal move
// with both values. Probing runs on a worker thread; the newest position always wins. From the
// covers, the cube that answered is named and drawn on the board (overlayChanged), as the cover
// viewer draws a cube.
#pragma once

#include <QWidget>
#include <vector>

#include "background_task.hpp"
#include "board/board_widget.hpp"
#include "covers/cube_overlay.hpp"
#include "probe/probe_result.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QToolButton;

namespace egtmin::ui {

class AppContext;
class BoardEditor;
class MoveListModel;

class ProbePanel : public QWidget {
  Q_OBJECT
 public:
  ProbePanel(AppContext* ctx, BoardEditor* editor, QWidget* parent = nullptr);
  ~ProbePanel() override;

  MoveListModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  bool busy() const { return watcher_.isRunning() || pending_; }
  // The last finished result (what the panel shows).
  const ProbeResult& result() const;
  // Tests and screenshots: block (processing events) until the current position is probed.
  bool waitIdle(int timeoutMs = 30000);

  // The move that led to the shown position when it was reached by playing, else nothing.
  std::optional<Move> lastMove() const {
    return historyIndex_ >= 0 ? history_[size_t(historyIndex_)].move : std::nullopt;
  }

  QLabel* oursLabel() const { return ours_; }
  QLabel* syzygyLabel() const { return syzygy_; }
  QLabel* agreeLabel() const { return agree_; }
  QPushButton* generateButton() const { return generate_; }
  QComboBox* sourceBox() const { return sourceBox_; }
  QLabel* detailLabel() const { return detail_; }
  // The answering cube on the board: its marks in the shown position's frame, and their legend.
  const CubeOverlay& cubeOverlay() const { return cubeOverlay_; }
  QLabel* cubeLegendLabel() const { return cubeLegend_; }
  // What the loaded covers take in memory, and at which level (hidden for the tables).
  QLabel* memoryLabel() const { return memory_; }

 public Q_SLOTS:
  void reprobe();
  // Plays the move in the given model row (as a double-click does).
  void playRow(int row);
  void back();
  void forward();

 Q_SIGNALS:
  // The user asked for the missing table (minimize = false) or cover (true) of this balance.
  void generateRequested(const QString& balanceName, bool minimize);
  void probed();
  // The squares the answering cube lets each piece stand on, for the board; empty to take away
  // what this panel drew (sent only then, so a cube the cover viewer drew stays until a probe
  // draws one).
  void overlayChanged(const std::vector<egtmin::ui::BoardWidget::Overlay>& overlay);

 private:
  void positionChanged();
  void start();
  void finished();
  void display(const ProbeResult& r);
  void showCube(const ProbeResult& r);
  void updateHistoryButtons();

  AppContext* ctx_;
  BoardEditor* editor_;
  MoveListModel* model_;
  QTableView* view_;
  QLabel *title_, *ours_, *syzygy_, *agree_, *message_, *detail_, *cubeLegend_, *memory_;
  CubeOverlay cubeOverlay_;
  QComboBox* sourceBox_;
  QPushButton* generate_;
  QToolButton *back_, *forward_;
  BackgroundTask<ProbeResult> watcher_;
  bool pending_ = false;
  quint64 serial_ = 0;
  // Played moves: positions and the move that led to each (none for the first).
  struct Step {
    Position pos;
    std::optional<Move> move;
  };
  std::vector<Step> history_;
  int historyIndex_ = -1;
};

}  // namespace egtmin::ui
