"""Level thresholds per rules preset: the one place they live (see :mod:`pyramide_cli.analysis.grade`).

Written by ``pyramide calibrate --write`` (``docs/levels.md`` shows it).  A deal
winning at least ``easy`` of ``games`` random games is Easy, at least ``medium`` Medium, at least
``hard`` Hard, fewer Expert.  Changing a number changes levels and daily deals: recalibrate
rather than edit.  ``CALIBRATION`` records the sample each row came from.
"""

LEVEL_TABLE: dict[str, dict[str, int]] = {
    "N": {"games": 500, "easy": 105, "medium": 63, "hard": 27},
    "T": {"games": 1000, "easy": 19, "medium": 5, "hard": 1},
    "E": {"games": 2000, "easy": 11, "medium": 3, "hard": 1},
    "O": {"games": 3000, "easy": 7, "medium": 3, "hard": 1},
}

CALIBRATION: dict[str, dict[str, object]] = {
    "N": {
        "deals": "0-3999",
        "sample": 4000,
        "winnable": 2694,
        "unwinnable": 1306,
        "unknown": 0,
        "never_won": 59,
        "shares": {"easy": 678, "medium": 663, "hard": 679, "expert": 674},
        "seconds": 177,
        "command": "pyramide calibrate --presets N --deals 0-3999 --games N=500 --write",
    },
    "T": {
        "deals": "0-3999",
        "sample": 4000,
        "winnable": 2637,
        "unwinnable": 1358,
        "unknown": 5,
        "never_won": 554,
        "shares": {"easy": 680, "medium": 732, "hard": 671, "expert": 554},
        "seconds": 306,
        "command": "pyramide calibrate --presets T --deals 0-3999 --games T=1000 --write",
    },
    "E": {
        "deals": "0-1999",
        "sample": 2000,
        "winnable": 950,
        "unwinnable": 972,
        "unknown": 78,
        "never_won": 427,
        "shares": {"easy": 173, "medium": 171, "hard": 179, "expert": 427},
        "seconds": 356,
        "command": "pyramide calibrate --presets E --deals 0-1999 --games E=2000 --write",
    },
    "O": {
        "deals": "0-3999",
        "sample": 4000,
        "winnable": 154,
        "unwinnable": 3833,
        "unknown": 13,
        "never_won": 95,
        "shares": {"easy": 18, "medium": 20, "hard": 21, "expert": 95},
        "seconds": 328,
        "command": "pyramide calibrate --presets O --deals 0-3999 --games O=3000 --write",
    },
}
