// `ggp` and `oggp`: the KPBS step algorithms of Cohen, Jeannot, Padoy and Wagner, "Messages
// scheduling for parallel data redistribution between clusters", IEEE TPDS 17(10), 2006
// (docs/exchange.md, "KPBS"). Implemented from the published description of Generic Graph Peeling
// and its optimized variant, not from the paper's text or code; the guarantee below is the one we
// prove for this implementation, not the paper's.
//
// KPBS: senders x receivers, an edge per message weighing its duration d = bytes / rate; a step is
// a matching of at most k edges (redist/exchange/steps.hpp, step_capacity: with a backbone every
// piece of a step counts against its transfers), edges may be cut across steps, and a step costs
// beta (the latency) plus its longest piece. The step lower bound is eta (steps.hpp, step_bound).
//
// GGP: (1) a unit alpha = beta (with beta = 0, or beta below tick = a power of two near
// eta_d / 2^50, alpha = tick: the exact integer decomposition of `preemptive`); each weight
// rounded up to w = ceil(d / alpha) >= 1 units. (2) A weight-regular bipartite graph: the n1
// senders and n2 receivers that have messages, n2 - k dummy senders joined only to receivers and
// n1 - k dummy receivers joined only to senders, and idle sender-receiver edges; weights chosen
// so that every vertex has weighted degree R = max(W', ceil(P' / k)) units (W', P': the rounded
// W, P). In a perfect matching the n1 - k dummy receivers take n1 - k senders, so exactly k
// sender-receiver edges (messages or idle) remain: at most k messages per step. The idle edges
// carry k R - P' >= 0 units, the dummies' edges the rest of each vertex's slack; all three sets
// are filled greedily (a transport "north-west corner"), at most 2 (n1 + n2) extra edges.
// (3) Peeling: repeatedly a perfect matching of the positive edges (one exists: the remaining
// graph stays weight-regular), lasting its smallest weight c units; its messages send
// bytes * c / w each (at most c alpha seconds), every matched weight drops by c. Consecutive
// matchings with the same messages form one step, and matchings without a message none.
// Both keep one matching from one peel to the next: the edges that leave it free their vertices,
// and only those are matched again, each by one augmenting path (kpbs_peeling.hpp): a depth-first
// search, heaviest edges first, of up to 256 edges (its longer paths move the matching to edges
// that last: fewer steps), else a breadth-first one. GGP: the edges used up leave, and the paths
// run over the positive edges. OGGP takes each time a bottleneck perfect matching (the largest
// smallest weight, so that steps are longer and fewer), kept with a threshold t, the current
// bottleneck: a perfect matching of the edges of at least t units. Weights only drop, so the
// bottleneck never increases: after a peel the matched edges fallen below t leave too, and each
// freed vertex takes a path over the edges of at least t units (the searches above), or else the
// widest augmenting path (the largest smallest weight of its unmatched edges: a search of the
// narrower edges widest first). When that path is narrower than t, there is no perfect matching of
// the edges of at least t units (one would give that vertex a path over them), and t drops to the
// path's width. The matching kept is then a bottleneck one.
//
// Guarantee (both): each step lasts at least alpha (c >= 1 unit), so there are S <= R steps and
// makespan <= beta S + alpha R <= (beta + alpha) R. Rounding adds under one unit per message:
// alpha W' <= W + alpha Delta and alpha ceil(P' / k) <= P / k + alpha (m + k - 1) / k, so
// alpha R <= eta_d + alpha (eta_s + 1 - 1/k). With alpha = beta (beta >= tick):
//   makespan <= 2 eta + 2 beta (1 - 1/k) < 2 (eta + beta) <= 4 eta,
// and makespan <= 2 eta when k does not bind (R = W': no backbone, or k >= min(n1, n2)).
// With beta = 0: makespan <= eta_d (1 + (Delta + 1) 2^-50), the preemptive optimum up to rounding.
// Optimal (Proof::lower_bound) when the makespan meets bounds(instance).lower_bound.
// Complexity: the graph has E <= m + 2 (n1 + n2) edges and V = n1 + n2 - k vertices a side; each
// matching uses up an edge, so S <= E. Nothing is done per step but for the edges that leave the
// matching or enter it (no pass over the vertices or the matching): each one leaving costs one
// search, each one entering a heap push (O(log E)). GGP: each edge is used up once, so at most E
// searches of O(E) each (256 edges, then breadth-first): O(E^2) in the worst case. OGGP: besides,
// up to V matched edges may fall below t per matching, and each search is O(E log E) (the narrower
// edges in a heap), so O((E + S V) E log E) = O(E^2 V log E) in the worst case; measured, a few
// searches per matching, each over a part of the graph (docs/exchange.md, "Limits"). Instances of
// more than kMaxGgpMessages (ggp) or kMaxOggpMessages (oggp) messages are refused before any work
// (limits.hpp; OptionError at "algorithm"). Pieces: at most k per step, counted while peeling; a
// plan is refused as soon as they pass kMaxStepPieces.
#pragma once

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Plan plan_ggp(const Instance& instance);
Plan plan_oggp(const Instance& instance);

}  // namespace redist::exchange
