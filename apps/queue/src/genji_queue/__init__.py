"""Typed entry points to the queue's SQL functions (sql/), one module per sql/ file.

Nothing else in the project writes SQL text that calls these functions: the API, the workers,
the benchmarks and the test harness all go through the wrappers here.
"""
