"""Storage: save and layout files (YAML, validated strictly), atomic writes and the save lock,
and playing words on a save file (``session``).  Built on the engine only."""
