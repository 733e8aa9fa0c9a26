// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_engine.hpp"

#include <QObject>
#include <algorithm>
#include <set>

namespace egtmin::ui {

QString moveGroupName(MoveGroup g) {
  switch (g) {
    case MoveGroup::Win: return QObject::tr("win");
    case MoveGroup::CursedWin: return QObject::tr("cursed win");
    case MoveGroup::Draw: return QObject::tr("draw");
    case MoveGroup::BlessedLoss: return QObject::tr("blessed loss");
    case MoveGroup::Loss: return QObject::tr("loss");
    case MoveGroup::Unknown: break;
  }
  return QObject::tr("unknown");
}

Agreement agreement(std::optional<Wdl> ours, std::optional<SyzygyWdl> syz) {
  if (!ours || !syz || *ours == Wdl::Illegal) return Agreement::Unknown;
  return to_wdl(*syz) == *ours ? Agreement::Agree : Agreement::Disagree;
}

namespace {

MoveGroup groupOf(std::optional<Wdl> ours, std::optional<SyzygyWdl> syz) {
  const std::optional<Wdl> v = syz ? std::optional<Wdl>(to_wdl(*syz)) : ours;  // Syzygy's value when there is one
  if (!v) return MoveGroup::Unknown;
  switch (*v) {
    case Wdl::Win: return MoveGroup::Win;
    case Wdl::CursedWin: return MoveGroup::CursedWin;
    case Wdl::Draw: return MoveGroup::Draw;
    case Wdl::BlessedLoss: return MoveGroup::BlessedLoss;
    case Wdl::Loss: return MoveGroup::Loss;
    default: return MoveGroup::Unknown;
  }
}

QString square(Square s) { return QString::fromStdString(square_name(s)); }

}  // namespace

QString ProbeEngine::moveText(const Position& pos, const Move& m) {
  const Piece p = pos.at(m.from);
  QString s;
  if (p != NoPiece && type_of(p) != Pawn) s += QChar(type_char(type_of(p)));
  s += square(m.from);
  s += pos.is_capture(m) ? QChar('x') : QChar('-');
  s += square(m.to);
  if (m.promotion != NoPieceType) s += QStringLiteral("=") + QChar(type_char(m.promotion));
  if (m.en_passant) s += QStringLiteral(" e.p.");
  const Position next = pos.after(m);
  if (next.in_check(next.side_to_move())) s += legal_moves(next).empty() ? QChar('#') : QChar('+');
  return s;
}

ProbeResult ProbeEngine::compute(const Position& pos, ValueSource* source, const Syzygy* syzygy) {
  ProbeResult r;
  r.position = pos;
  r.sourceName = source ? source->name() : QString();
  if (auto why = pos.illegal_reason()) {
    r.illegal = QString::fromStdString(*why);
    if (source) r.sourceMemory = source->memory();
    return r;
  }
  r.balance = Balance::of(pos);
  r.syzygyOpen = syzygy != nullptr;

  auto probeOurs = [&](const Position& p, QString* message, ProbeDetail* detail = nullptr) -> std::optional<Wdl> {
    if (!source) {
      *message = QObject::tr("no value source");
      return std::nullopt;
    }
    auto v = source->probe(p, detail);
    if (!v) {
      *message = QString::fromStdString(v.error().message);
      return std::nullopt;
    }
    return *v;
  };

  if (source) r.ourAvailable = source->available(r.balance);
  ProbeDetail detail;
  r.ours = probeOurs(pos, &r.oursMessage, &detail);
  r.oursDetail = detail.text;
  r.oursCube = detail.cube;

  if (syzygy) {
    // Warm up every table the moves can reach before probing them (see Syzygy::warm_up).
    std::set<Balance> balances{r.balance.canonical()};
    for (const Move& m : legal_moves(pos)) balances.insert(Balance::of(pos.after(m)).canonical());
    for (const Balance& b : balances)
      if (syzygy->has_wdl(b)) syzygy->warm_up(b);
    r.syzygyHasBalance = syzygy->has_wdl(r.balance.canonical());
    r.syzygy = syzygy->wdl(pos);
    if (r.syzygy) r.dtz = syzygy->dtz(pos);
    if (!r.syzygy)
      r.syzygyMessage = r.syzygyHasBalance ? QObject::tr("Syzygy could not answer")
                                           : QObject::tr("no Syzygy file for %1 in %2")
                                                 .arg(QString::fromStdString(r.balance.canonical().name()),
                                                      QString::fromStdString(syzygy->dir().string()));
  } else {
    r.syzygyMessage = QObject::tr("Syzygy directory not set (Settings)");
  }
  r.agree = agreement(r.ours, r.syzygy);

  for (const Move& m : legal_moves(pos)) {
    ProbeMove pm;
    pm.move = m;
    pm.text = moveText(pos, m);
    const Position next = pos.after(m);
    QString msg;
    if (auto v = probeOurs(next, &msg))
      pm.ours = negate(*v);
    else
      pm.oursMessage = msg;
    if (syzygy) {
      if (auto v = syzygy->wdl(next)) {
        pm.syzygy = negate(*v);
        // The mover's DTZ through this move, in Syzygy's convention: a zeroing move (capture, pawn
        // move) or a mate counts 1 ply; otherwise one ply more than the reply's distance.
        const bool win = *pm.syzygy == SyzygyWdl::Win || *pm.syzygy == SyzygyWdl::CursedWin;
        const bool loss = *pm.syzygy == SyzygyWdl::Loss || *pm.syzygy == SyzygyWdl::BlessedLoss;
        const bool zeroing = pos.is_capture(m) || type_of(pos.at(m.from)) == Pawn;
        const bool mate = legal_moves(next).empty() && next.in_check(next.side_to_move());
        if (!win && !loss) {
          pm.dtz = 0;
        } else if (zeroing || mate) {
          pm.dtz = win ? 1 : -1;
        } else if (auto d = syzygy->dtz(next)) {
          pm.dtz = -*d + (win ? 1 : -1);
        }
      }
    }
    pm.group = groupOf(pm.ours, pm.syzygy);
    pm.agree = agreement(pm.ours, pm.syzygy);
    r.moves.push_back(std::move(pm));
  }
  // Best first: by group, then the quickest win / the longest loss by DTZ, then by name so the
  // order is stable.
  std::stable_sort(r.moves.begin(), r.moves.end(), [](const ProbeMove& a, const ProbeMove& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.dtz.has_value() != b.dtz.has_value()) return a.dtz.has_value();
    if (a.dtz && *a.dtz != *b.dtz) return *a.dtz < *b.dtz;
    return a.text < b.text;
  });
  // After the probes: the first one loads the covers, and naming cubes may load more of them.
  if (source) r.sourceMemory = source->memory();
  return r;
}

}  // namespace egtmin::ui
