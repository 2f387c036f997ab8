"""The table core: a frozen table state and one pure `step(state, input, context)`; the loop is its shell."""
