"""The running table: one writer loop, journal, card registry, inputs -> actions, outputs."""
