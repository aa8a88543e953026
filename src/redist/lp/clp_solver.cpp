// The COIN-OR CLP backend of lp::LpSolver: the model is converted to CLP's column-major arrays
// (O(variables + non-zeros)) and solved with ClpSimplex::dual() at log level 0.
#include <ClpSimplex.hpp>
#include <CoinFinite.hpp>

#include <cmath>

#include "redist/lp/lp_solver.hpp"

namespace redist::lp {

namespace {

double to_clp(double bound) {
  if (std::isinf(bound)) return bound > 0 ? COIN_DBL_MAX : -COIN_DBL_MAX;
  return bound;
}

class ClpSolver final : public LpSolver {
 public:
  std::string name() const override { return "clp"; }

  Result solve(const Model& model) override {
    const int num_cols = model.num_variables();
    const int num_rows = model.num_rows();
    // Column-major matrix by counting sort of the row terms.
    std::vector<CoinBigIndex> start(static_cast<std::size_t>(num_cols) + 1, 0);
    for (const Model::Row& row : model.rows()) {
      for (const Model::Term& t : row.terms) ++start[static_cast<std::size_t>(t.variable) + 1];
    }
    for (int j = 0; j < num_cols; ++j) start[j + 1] += start[j];
    std::vector<int> index(static_cast<std::size_t>(start[num_cols]));
    std::vector<double> value(index.size());
    std::vector<CoinBigIndex> fill(start.begin(), start.end() - 1);
    std::vector<double> row_lower(num_rows), row_upper(num_rows);
    for (int r = 0; r < num_rows; ++r) {
      const Model::Row& row = model.rows()[r];
      row_lower[r] = to_clp(row.lower);
      row_upper[r] = to_clp(row.upper);
      for (const Model::Term& t : row.terms) {
        const CoinBigIndex k = fill[t.variable]++;
        index[k] = r;
        value[k] = t.coefficient;
      }
    }
    std::vector<double> col_lower(num_cols), col_upper(num_cols);
    for (int j = 0; j < num_cols; ++j) {
      col_lower[j] = to_clp(model.variable_lower()[j]);
      col_upper[j] = to_clp(model.variable_upper()[j]);
    }

    ClpSimplex simplex;
    simplex.setLogLevel(0);
    simplex.loadProblem(num_cols, num_rows, start.data(), index.data(), value.data(),
                        col_lower.data(), col_upper.data(), model.objective().data(),
                        row_lower.data(), row_upper.data());
    simplex.setOptimizationDirection(1.0);  // minimize
    simplex.dual();

    Result result;
    if (simplex.isProvenOptimal()) {
      result.status = Status::optimal;
      result.objective = simplex.objectiveValue();
      const double* x = simplex.primalColumnSolution();
      result.values.assign(x, x + num_cols);
    } else if (simplex.isProvenPrimalInfeasible()) {
      result.status = Status::infeasible;
    } else if (simplex.isProvenDualInfeasible()) {
      result.status = Status::unbounded;
    } else {
      result.status = Status::error;
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<LpSolver> make_clp_solver() { return std::make_unique<ClpSolver>(); }

}  // namespace redist::lp
