"""Games between computer players: the engine path, the numpy fast path and tournaments."""
