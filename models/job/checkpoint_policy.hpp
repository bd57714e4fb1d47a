// Checkpoint intervals from the classical formulas, given the checkpoint cost C, the mean
// time between job interruptions M and the restart cost R (all in seconds):
//   Young (1974):      tau = sqrt(2 C M)
//   Daly (2006):       tau = sqrt(2 C M) [1 + (1/3) sqrt(C / 2M) + (1/9) (C / 2M)] - C, for C < 2M;
//   else M availability-optimal: the tau minimising Daly's expected wall time per unit of work,
//                      T(tau) = M e^(R/M) (e^((tau + C)/M) - 1) / tau  (golden-section search)
#pragma once

#include <string>

namespace goodput {

double young_interval_s(double c, double m);
double daly_interval_s(double c, double m);
double availability_optimal_interval_s(double c, double m, double r);
// Expected wall time per unit of useful work under Daly's exponential model.
double daly_expected_overhead(double tau, double c, double m, double r);

}  // namespace goodput
