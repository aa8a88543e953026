// A tiny linear-programming model and a swappable solver interface.
//
// The model is: minimize sum_j obj_j x_j subject to lower_j <= x_j <= upper_j and, for every
// row r, row_lower_r <= sum_j a_rj x_j <= row_upper_r (either side may be +-infinity). Solvers
// implement `LpSolver`; `make_default_lp_solver()` returns the COIN-OR CLP one (clp_solver.cpp).
//
// Guarantee: whatever the backend, `solve` reports optimal / infeasible / unbounded as proven by
// the backend, and primal values only with `optimal` (floating point, backend tolerances ~1e-7).
// Complexity: building the model is O(variables + non-zeros); solving is the backend's (simplex:
// polynomial in practice, not in the worst case).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace redist::lp {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

class Model {
 public:
  struct Term {
    int variable;
    double coefficient;
  };
  struct Row {
    double lower;
    double upper;
    std::vector<Term> terms;
  };

  // Adds a variable lower <= x <= upper with objective coefficient `objective`; returns its index.
  int add_variable(double lower, double upper, double objective = 0.0);
  // Adds lower <= sum coefficient * x_variable <= upper; returns the row index. Throws
  // std::invalid_argument for an unknown variable or lower > upper.
  int add_row(double lower, std::vector<Term> terms, double upper);

  int num_variables() const { return static_cast<int>(lower_.size()); }
  int num_rows() const { return static_cast<int>(rows_.size()); }
  const std::vector<double>& variable_lower() const { return lower_; }
  const std::vector<double>& variable_upper() const { return upper_; }
  const std::vector<double>& objective() const { return objective_; }
  const std::vector<Row>& rows() const { return rows_; }

 private:
  std::vector<double> lower_, upper_, objective_;
  std::vector<Row> rows_;
};

enum class Status { optimal, infeasible, unbounded, error };
const char* to_string(Status status);

struct Result {
  Status status = Status::error;
  double objective = 0.0;      // meaningful when optimal
  std::vector<double> values;  // one per variable when optimal, else empty
};

class LpSolver {
 public:
  virtual ~LpSolver() = default;
  virtual std::string name() const = 0;
  // Minimizes the model's objective.
  virtual Result solve(const Model& model) = 0;
};

// COIN-OR CLP (dual simplex, log level 0).
std::unique_ptr<LpSolver> make_clp_solver();
std::unique_ptr<LpSolver> make_default_lp_solver();

}  // namespace redist::lp
