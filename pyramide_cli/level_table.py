"""Level thresholds per rules preset: the one place they live (see :mod:`pyramide_cli.grade`).

PLACEHOLDER until calibrated by ``python -m pyramide_cli.calibrate --write``.
"""

LEVEL_TABLE: dict[str, dict[str, int]] = {
    "N": {"games": 500, "easy": 100, "medium": 55, "hard": 20},
    "T": {"games": 1000, "easy": 25, "medium": 8, "hard": 3},
    "E": {"games": 2000, "easy": 10, "medium": 4, "hard": 2},
    "O": {"games": 3000, "easy": 10, "medium": 4, "hard": 2},
}
