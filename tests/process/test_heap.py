"""The garbage collector's settings the bot runs with after start-up (issue 27: the CPU a move costs)."""

import gc

from process import heap


def test_after_start_up_what_exists_is_frozen_and_young_objects_are_collected_rarely() -> None:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's defaults: a bench run in-process earlier may have settled the heap
    try:
        heap.settle()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (heap.YOUNGEST, *heap.OLDER)
        assert heap.YOUNGEST > 700
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
