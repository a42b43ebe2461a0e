"""Level thresholds per rules preset: the one place they live (see :mod:`pyramide_cli.grade`).

PROVISIONAL (from a 300-deal study) until ``python -m pyramide_cli.calibrate --write`` runs.
"""

LEVEL_TABLE: dict[str, dict[str, int]] = {
    "N": {"games": 500, "easy": 103, "medium": 62, "hard": 28},
    "T": {"games": 1000, "easy": 25, "medium": 7, "hard": 2},
    "E": {"games": 2000, "easy": 14, "medium": 3, "hard": 1},
    "O": {"games": 3000, "easy": 3, "medium": 2, "hard": 1},
}

CALIBRATION: dict[str, dict[str, object]] = {}
