"""The multi-trade benchmark's data (benchmarks/trades): each trade's texts, gold SQL and expected state agree."""

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
trades = pytest.importorskip("trades")


@pytest.mark.parametrize("name", trades.TRADES)
def test_a_trade_passes_its_self_check(name):
    from trades.base import self_check

    trade = trades.build(name)
    assert self_check(trade) == []


@pytest.mark.parametrize("name", trades.TRADES)
def test_a_trade_is_the_same_for_the_same_seed_and_another_for_another(name):
    assert trades.build(name, 0) == trades.build(name, 0)
    assert [r.text for r in trades.build(name, 0).records] != [r.text for r in trades.build(name, 1).records]


def test_tune_and_report_trades_do_not_overlap():
    assert not set(trades.TUNE) & set(trades.REPORT) and len(trades.REPORT) >= 2
