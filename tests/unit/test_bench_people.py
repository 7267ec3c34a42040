"""``make bench-people`` (services/bench/people.py): the median's interval and the report's rows."""

import math

from services.bench.people import rows
from services.bench.stats import median_interval


def test_the_medians_interval_is_conovers_order_statistics():
    """W. J. Conover, Practical Nonparametric Statistics (1999), 3.2: for 100 values the 95 %
    interval of the median runs from the 40th to the 61st smallest."""
    assert median_interval([float(v) for v in range(100, 0, -1)]) == (40.0, 61.0)
    assert median_interval([3.0, 1.0, 2.0]) == (1.0, 3.0)  # few values: the extremes
    low, high = median_interval([])
    assert math.isnan(low) and math.isnan(high)


def test_a_reports_rows_give_each_opponents_waits():
    report = {"waits": {"random": [0.5, 0.1, 2.0, 0.3], "search": []}, "kept": {"random": 7, "search": 2}}
    assert rows(report) == [["random", "4", "0.40 (0.10-2.00)", "2.00", "2.00", "7"],
                            ["search", "0", "", "", "", "2"]]
