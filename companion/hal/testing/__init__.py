"""Register-level simulations of real hardware, for tests, benchmarks and the mock backend."""
