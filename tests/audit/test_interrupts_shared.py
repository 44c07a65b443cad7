"""audit.interrupts.Shared: the pools of `generate` and `verify --workers N`, shared by the command and
its worker processes (here a thread pool stands for them: the handing out is the same)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from audit.interrupts import Shared


def _run(order: list[int], work, mine) -> tuple[Shared[int, int], dict[int, int], list[int]]:
    """This process takes jobs with `mine(job)` while one worker runs `work(job)`; every result."""
    results: dict[int, int] = {}
    taken: list[int] = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        shared: Shared[int, int] = Shared(order, lambda job: pool.submit(work, job))
        shared.start(1)
        while (job := shared.take()) is not None:
            taken.append(job)
            results[job] = mine(job)
            results.update((j, f.result()) for j, f in shared.finished())
        while shared.busy():
            results.update((j, f.result()) for j, f in shared.finished(timeout=0.05))
    return shared, results, taken


def test_a_worker_is_handed_its_next_job_while_this_process_is_busy_with_its_own():
    """The worker finishes job 5 (the largest, handed out first) while this process is still on job 4:
    it gets 3, then 2, then 1 from the thread, without waiting for this process to come back for them."""
    by_worker: list[int] = []
    four_done, mine_started = threading.Event(), threading.Event()

    def work(job: int) -> int:
        assert mine_started.wait(30)  # the first job lasts until this process has taken its own
        by_worker.append(job)
        if len(by_worker) == 4:
            four_done.set()
        return job * 10

    def mine(job: int) -> int:
        mine_started.set()
        assert four_done.wait(30), f"the worker was not handed its jobs: it did {by_worker}"
        return job * 10

    _, results, taken = _run([5, 4, 3, 2, 1], work, mine)
    assert taken == [4]
    assert by_worker == [5, 3, 2, 1]
    assert results == {5: 50, 4: 40, 3: 30, 2: 20, 1: 10}


def test_this_process_and_the_worker_both_take_the_largest_job_left():
    """Each side takes the front of the one list: the worker 5 (handed out as the workers start), this
    process 4, then 3 while the worker is still busy."""
    gate = threading.Event()
    by_worker: list[int] = []

    def work(job: int) -> int:
        by_worker.append(job)
        gate.wait(30)  # held until this process has taken its second job
        return job

    def mine(job: int) -> int:
        if job != 4:
            gate.set()
        return job

    _, results, taken = _run([5, 4, 3, 2, 1], work, mine)
    assert taken[:2] == [4, 3]
    assert by_worker[0] == 5
    assert sorted(taken + by_worker) == [1, 2, 3, 4, 5]
    assert results == {j: j for j in range(1, 6)}


def test_a_failed_job_stops_the_handing_out_and_is_raised_where_it_is_collected():
    """Job 5 fails in the worker: the worker is handed nothing more, and collecting job 5 raises."""
    by_worker: list[int] = []
    failed = threading.Event()

    def work(job: int) -> int:
        by_worker.append(job)
        failed.set()
        raise ValueError(f"job {job} refused")

    def mine(job: int) -> int:
        assert failed.wait(30)
        return job

    with pytest.raises(ValueError, match=r"^job 5 refused$"):
        _run([5, 4, 3, 2, 1], work, mine)
    assert by_worker == [5]


def test_stop_hands_out_nothing_more():
    shared: Shared[int, int] = Shared([3, 2, 1], lambda job: pytest.fail(f"job {job} was handed out"))
    shared.stop()
    assert shared.take() is None
    assert not shared.busy()
