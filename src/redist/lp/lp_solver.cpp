#include "redist/lp/lp_solver.hpp"

#include <stdexcept>

namespace redist::lp {

int Model::add_variable(double lower, double upper, double objective) {
  if (lower > upper) throw std::invalid_argument("lp::Model: variable lower bound > upper bound");
  lower_.push_back(lower);
  upper_.push_back(upper);
  objective_.push_back(objective);
  return num_variables() - 1;
}

int Model::add_row(double lower, std::vector<Term> terms, double upper) {
  if (lower > upper) throw std::invalid_argument("lp::Model: row lower bound > upper bound");
  for (const Term& t : terms) {
    if (t.variable < 0 || t.variable >= num_variables())
      throw std::invalid_argument("lp::Model: row names an unknown variable");
  }
  rows_.push_back(Row{lower, upper, std::move(terms)});
  return num_rows() - 1;
}

const char* to_string(Status status) {
  switch (status) {
    case Status::optimal:
      return "optimal";
    case Status::infeasible:
      return "infeasible";
    case Status::unbounded:
      return "unbounded";
    case Status::error:
      return "error";
  }
  return "error";
}

std::unique_ptr<LpSolver> make_default_lp_solver() { return make_clp_solver(); }

}  // namespace redist::lp
