/* The second opinion of gate merge --check-raw: a measurement's every count at 1, N and 2N
 * read again from the files valgrind wrote (callgrind's parts, DHAT's outputs, the native run's
 * output), so that a decision does not rest on figures written by the code under review
 * (costgate-verified.yml). */
#ifndef GATE_RAWCHECK_H
#define GATE_RAWCHECK_H

#include "error.h"
#include "measurement.h"

/* 0 when every count of `measurement` is what the raw files in `directory` hold; else -1 with
 * err naming the count and the file. */
int rawcheck_measurement(const struct measurement *measurement, const char *directory,
			 struct gate_error *err);

#endif
