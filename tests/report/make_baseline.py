#!/usr/bin/env python3
"""Writes a baseline document (results schema 3 with gate's costgate block) whose figures are
the given per-message and cold counts, with counts at 1, N and 2N that give exactly those
figures, so gate's strict reader accepts it.

Usage: make_baseline.py OUT SPEC... [--compiler C] [--valgrind V]
SPEC is NAME=INSTRUCTIONS/ALLOCATIONS/COLD_INSTRUCTIONS/COLD_ALLOCATIONS[/BYTES[/CYCLES/COLD_CYCLES]]
(whole numbers): bytes per message default to 100 (cold 1000); estimated cycles are left out
unless given, as a gate without --all-metrics leaves them out for a scenario that does not opt in."""
import argparse
import json

N = 1000


def counts(per_message, cold):
    return [cold, cold + (N - 1) * per_message, cold + (2 * N - 1) * per_message]


def entry(name, instructions, allocations, cold_instructions, cold_allocations, bytes_=100,
          cycles=None, cold_cycles=None):
    document = {
        "name": name,
        "messages": N,
        "framework": {"instructions": instructions, "allocations": allocations},
        "cold": {"instructions": cold_instructions, "allocations": cold_allocations},
        "gated": True,
        "title": "fixture scenario " + name,
        "bytes": {"per_message": bytes_, "cold": 1000},
        "floors": {"steady_allocations": allocations, "cold_allocations": cold_allocations},
        "counts": {
            "instructions": counts(instructions, cold_instructions),
            "allocations": counts(allocations, cold_allocations),
            "bytes": counts(bytes_, 1000),
        },
    }
    if cycles is not None:
        document["counts"]["cycles"] = counts(cycles, cold_cycles)
    return document


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--compiler", default="GNU 12.2.0")
    parser.add_argument("--valgrind", default="3.19.0")
    arguments = parser.parse_args()
    code = []
    for spec in arguments.specs:
        name, figures = spec.split("=")
        code.append(entry(name, *(int(part) for part in figures.split("/"))))
    document = {
        "schema": 3,
        "environment": {"compiler": arguments.compiler, "valgrind": arguments.valgrind},
        "code": code,
        "costgate": {
            "schema": 1,
            "fingerprint": {
                "schema": 1,
                "valgrind": arguments.valgrind,
                "compiler": arguments.compiler,
                "flags": "-O2 -g",
                "glibc": "2.36",
                "cjson": "1.7.15",
                "dispatch_pin": "glibc.cpu.hwcaps=-AVX2",
            },
            "messages": N,
            "failures": [],
        },
    }
    with open(arguments.out, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=1)
        out.write("\n")


main()
