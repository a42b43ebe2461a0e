"""Features built on the engine and the solver: hints, grading and levels, the daily deal,
surveys of deal ranges and the level calibration."""
