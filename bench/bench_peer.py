"""Issue 25 benchmark: ``--optimal`` under ``T+stock-top`` side by side with a peer solver.

The peer is a separate program that finds the fewest actions to clear the pyramid under Microsoft's
rules (draw 1, two recycles, the stock's top card playable): it reads a file holding the 52 cards
of a deal in dealing order (pyramid rows top down, then the stock from its top) written as rank
and lower-case suit (``Th``, ``As``), and prints either "There are N steps in the solution" or
"There is no way to clear all the pyramid cards".  This file holds only our side: the deals
(``bench/peer_deals.txt``, one deal a line, our deal code then its cards in the peer's format)
and the run; the peer is given by path.

Both solve every deal: ours in this process through the API (``solve(deal, optimal=True)``, the
plain solve included, CPU by ``time.process_time``), the peer as a child process (its CPU from
``resource.getrusage(RUSAGE_CHILDREN)`` deltas, less its start-up: the median CPU of a run on a
file without cards, which loads its core and exits).  Deals we prove unwinnable are given to the
peer with a CPU cap (``BENCH_PEER_CAP``, default 3 s; the peer has no position budget), since
the comparison is over the winnable ones; deals we find winnable get ``BENCH_PEER_WIN_CAP``
(default 300 s).  Every verdict and every length is compared.

Environment: ``PYRAMIDE_PEER`` (the peer's executable; without it the bench says so in one line
and does nothing else),
``BENCH_PEER_SLICE`` (``first:last`` of the file's deals, default ``0:200``, to split a run over
processes), ``BENCH_PEER_CSV`` (write the rows), ``BENCH_PEER_RESULTS`` (comma-separated CSVs of
earlier runs: their peer columns are reused instead of running the peer again).
``python bench/bench_peer.py --report A.csv B.csv`` prints the report of earlier runs' rows.
Regenerate the deal file with ``python bench/bench_peer.py --write-deals``.
"""

from __future__ import annotations

import csv
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.setrecursionlimit(20_000)

from pyramide_cli.engine.deal import Deal  # noqa: E402
from pyramide_cli.engine.rules import Rules  # noqa: E402
from pyramide_cli.solver import DEFAULT_LIMITS, solve  # noqa: E402

RULES = "T+stock-top"
DEAL_FILE = Path(__file__).with_name("peer_deals.txt")
DEAL_COUNT = 200
SEED = 25
"""The deal numbers are ``random.Random(SEED)`` draws over every numbered deal, so the file can be rebuilt."""


@dataclass
class Row:
    number: int
    code: str
    ours: str = ""
    our_length: int | None = None
    our_cpu: float = 0.0
    our_states: int = 0
    peer: str = ""
    peer_length: int | None = None
    peer_cpu: float = 0.0


def peer_cards(deal: Deal) -> str:
    """The deal's 52 cards in the peer's spelling (``10C`` -> ``Tc``), dealing order."""
    names = []
    for card in deal.cards:
        name = str(card)
        rank, suit = name[:-1], name[-1].lower()
        names.append(("T" if rank == "10" else rank) + suit)
    return " ".join(names)


def chosen_numbers() -> list[int]:
    generator = random.Random(SEED)
    numbers: list[int] = []
    while len(numbers) < DEAL_COUNT:
        number = generator.randrange(32 ** 7)
        if number >= 1000 and number not in numbers:  # deals 0-999 are the other benches' own
            numbers.append(number)
    return numbers


def write_deals() -> None:
    rules = Rules.parse(RULES)
    with DEAL_FILE.open("w", encoding="utf-8") as out:
        for number in chosen_numbers():
            deal = Deal.from_number(number, rules)
            out.write(f"{deal.code} {peer_cards(deal)}\n")


def read_deals() -> list[Row]:
    rows = []
    for line in DEAL_FILE.read_text(encoding="utf-8").splitlines():
        code, _, cards = line.partition(" ")
        deal = Deal.from_code(code)
        if peer_cards(deal) != cards:
            raise SystemExit(f"{DEAL_FILE.name}: the cards of {code} differ from its code's deal")
        rows.append(Row(deal.number or 0, code))
    return rows


def read_rows(paths: list[str]) -> list[Row]:
    """The rows of CSV files this bench wrote (``BENCH_PEER_CSV``), in the order given."""
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for r in csv.DictReader(handle):
                our_length = int(r["our_length"]) if r["our_length"] else None
                peer_length = int(r["peer_length"]) if r["peer_length"] else None
                rows.append(Row(int(r["number"]), r["code"], r["ours"], our_length, float(r["our_cpu"]),
                                int(r["our_states"]), r["peer"], peer_length, float(r["peer_cpu"])))
    return rows


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_peer(peer: str, cards: str, cap: float) -> tuple[str, int | None, float]:
    """(verdict, length, CPU seconds) of one peer run; ``capped`` when its CPU cap struck."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(cards + "\n")
    def limit() -> None:
        seconds = max(1, int(cap + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    try:
        before = children_cpu()
        done = subprocess.run([peer, handle.name], capture_output=True, text=True, preexec_fn=limit, check=False)
        spent = children_cpu() - before
    finally:
        os.unlink(handle.name)
    for line in done.stdout.splitlines():
        if line.startswith("There are "):
            return "winnable", int(line.split()[2]), spent
        if line.startswith("There is no way"):
            return "unwinnable", None, spent
    return ("capped" if done.returncode < 0 or spent >= cap else "error"), None, spent


def peer_start_up(peer: str) -> float:
    """Median CPU of the peer reading a file without cards (its core loaded, nothing solved)."""
    spent = [run_peer(peer, "", 10.0)[2] for _ in range(7)]
    return statistics.median(spent)


def summary(label: str, values: list[float]) -> str:
    return (f"{label}: mean {statistics.fmean(values):.3f} s, median {statistics.median(values):.3f} s, "
            f"max {max(values):.3f} s")


def main() -> None:
    if "--write-deals" in sys.argv:
        write_deals()
        print(f"wrote {DEAL_FILE}")
        return
    if "--report" in sys.argv:  # the rows of earlier runs (CSV files), e.g. of several slices
        report(read_rows(sys.argv[sys.argv.index("--report") + 1:]))
        return
    first, _, last = os.environ.get("BENCH_PEER_SLICE", f"0:{DEAL_COUNT}").partition(":")
    rows = read_deals()[int(first):int(last)]
    peer = os.environ.get("PYRAMIDE_PEER")
    earlier = {}
    if os.environ.get("BENCH_PEER_RESULTS"):
        earlier = {row.number: row for row in read_rows(os.environ["BENCH_PEER_RESULTS"].split(","))}
    if not peer and not earlier:
        print("bench_peer: skipped, no peer given (set PYRAMIDE_PEER to its executable)", flush=True)
        return
    start_up = peer_start_up(peer) if peer else 0.0
    if peer:
        print(f"peer start-up (subtracted from each run): {1000 * start_up:.1f} ms CPU", flush=True)
    cap, win_cap = float(os.environ.get("BENCH_PEER_CAP", "3")), float(os.environ.get("BENCH_PEER_WIN_CAP", "300"))
    rules = Rules.parse(RULES)
    out = open(os.environ["BENCH_PEER_CSV"], "w", encoding="utf-8", newline="") if os.environ.get(
        "BENCH_PEER_CSV") else None
    writer = csv.writer(out) if out else None
    if writer:
        writer.writerow(["number", "code", "ours", "our_length", "our_cpu", "our_states", "peer", "peer_length",
                         "peer_cpu"])
    for row in rows:
        deal = Deal.from_number(row.number, rules)
        before = time.process_time()
        result = solve(deal, optimal=True, limits=DEFAULT_LIMITS)
        row.our_cpu = time.process_time() - before
        row.ours, row.our_states = result.verdict.value, result.states
        row.our_length = None if result.solution is None else len(result.solution)
        if row.number in earlier:
            old = earlier[row.number]
            row.peer, row.peer_length, row.peer_cpu = old.peer, old.peer_length, old.peer_cpu
        elif peer:
            row.peer, row.peer_length, spent = run_peer(peer, peer_cards(deal), win_cap if result.winnable else cap)
            row.peer_cpu = max(0.0, spent - start_up)
        if writer and out:  # row by row, so that a run stopped early keeps what it measured
            writer.writerow([row.number, row.code, row.ours, row.our_length or "", f"{row.our_cpu:.4f}",
                             row.our_states, row.peer, row.peer_length or "", f"{row.peer_cpu:.4f}"])
            out.flush()
    if out:
        out.close()
    report(rows)


def report(rows: list[Row]) -> None:
    winnable = [r for r in rows if r.ours == "winnable"]
    print(f"{RULES}, {len(rows)} random deals: ours {len(winnable)} winnable, "
          f"{sum(r.ours == 'unwinnable' for r in rows)} unwinnable, {sum(r.ours == 'unknown' for r in rows)} unknown",
          flush=True)
    print("  " + summary("ours, winnable deals (CPU)", [r.our_cpu for r in winnable]))
    print("  " + summary("ours, every deal (CPU)", [r.our_cpu for r in rows]))
    both = [r for r in winnable if r.peer == "winnable"]
    print("  " + summary("peer, winnable deals (CPU)", [r.peer_cpu for r in both]))
    ours_both = [r.our_cpu for r in both]
    peers = [r.peer_cpu for r in both]
    print(f"  peer / ours: mean {statistics.fmean(peers) / statistics.fmean(ours_both):.2f}, "
          f"median {statistics.median(peers) / statistics.median(ours_both):.2f}, "
          f"max {max(peers) / max(ours_both):.2f} (over the {len(both)} deals both find winnable)")
    equal = sum(r.our_length == r.peer_length for r in both)
    print(f"  equal lengths: {equal} of {len(both)}")
    for r in both:
        if r.our_length != r.peer_length:
            print(f"  LENGTH MISMATCH {r.code}: ours {r.our_length}, peer {r.peer_length}")
    verdicts = [r for r in rows if r.peer in ("winnable", "unwinnable")]
    disagree = [r for r in verdicts if r.peer != r.ours]
    capped = sum(r.peer == "capped" for r in rows)
    print(f"  verdicts: {len(verdicts) - len(disagree)} of {len(verdicts)} the peer decided agree; "
          f"{capped} peer runs capped (deals we prove unwinnable), "
          f"{sum(r.peer == 'error' for r in rows)} peer errors")
    for r in disagree:
        print(f"  VERDICT MISMATCH {r.code}: ours {r.ours}, peer {r.peer}")


if __name__ == "__main__":
    main()
