// `all-at-once`: what MPI_Alltoallv does on the exchange model, as a valid plan
// (docs/exchange.md, "Algorithms" and "Execution on MPI").
//
// MPI_Alltoallv posts every message at once and lets the network serve them. On one-port nodes
// (a send port and a receive port that carry one flow at a time, as SimGrid's concurrency-limited
// links do) that is a greedy list schedule: whenever a port frees, its node starts the first
// waiting message of its list whose other end is free. Under a backbone a posted crossing message
// does not wait for a transfer: the backbone is shared, so while c > transfers (k) crossing
// messages run, each progresses at k / c of its rate (the others at their full rate). This is the
// "all-port" behaviour of the call: nothing is held back, the network shares what is contended.
//
// The fluid schedule is returned as pieces that respect the model: between two instants where
// the set of running crossing messages changes, each of them gets the same service q; when
// c <= k each runs throughout, and when c > k their service (c q = k x the window) is laid end to
// end on k slots as in McNaughton's wrap-around rule, so at most k pieces cross at once and a
// message's two parts in one window never overlap (q <= the window). A message whose previous
// piece ended where the window starts is put at the start of a slot, where the two pieces merge.
// Every message keeps its ports from its start to its end (one-port), so the plan is valid, and
// its makespan is the fluid schedule's.
//
// Lists (`PostOrder`): `rank` is the order in which SimGrid's default MPI_Alltoallv posts its
// requests (node i sends to 0, 1, 2, ... and receives from 0, 1, 2, ..., skipping itself);
// `rank_offset` the order of the pairwise algorithms (node i sends to i + 1, i + 2, ... and
// receives from i - 1, i - 2, ..., modulo the nodes); `longest_first` is whole's (longest message
// first); `shuffled` a permutation of the messages drawn from `seed` (Fisher-Yates over a
// mt19937_64, the same on every machine), every list in its order: the flows of a real call reach
// the ports in an order of their own, and a few such orders often find a far better greedy
// schedule than the fixed ones.
// Without a backbone the plan is a greedy list schedule of whole messages (with `longest_first`,
// whole's own schedule).
//
// Guarantee: valid; the last message f to end waited only while one of its ports was busy or the
// backbone was saturated (then it progressed at k / c), so makespan <= 2 x ports bound + backbone
// bound <= 3 x the lower bound (2 x the ports bound without a backbone). Requires latency 0 when a
// backbone is given (a cut message would pay it once per piece): OptionError at "algorithm"
// otherwise.
// Complexity: O(m log m + m d) for the lists' scans (d the most messages of a node), plus
// O(c log c) per change of the set of running crossing messages (at most 2 m changes), and one
// piece per running crossing message and window when c > k.
#pragma once

#include <cstdint>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

enum class PostOrder { rank, rank_offset, longest_first, shuffled };

// `seed`: the permutation's, with PostOrder::shuffled only.
Plan plan_all_at_once(const Instance& instance, PostOrder order = PostOrder::rank,
                      std::uint64_t seed = 0);

}  // namespace redist::exchange
