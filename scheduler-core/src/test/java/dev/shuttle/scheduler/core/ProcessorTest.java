package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessorTest {
    @Test
    void aProcessorStoodStillOnlyWhileItsTickIsTheOneRecorded() {
        Processor[] all = new PoolState(3, SpinPolicy.DEFAULT).processors;
        int[] seen = {7, 8, 9};
        assertTrue(all[1].stoodStill(8, seen));
        assertFalse(all[1].stoodStill(9, seen), "a tick that moved: the owner runs its runNext next");
        int[] beforeAGrow = {7, 8};
        assertFalse(all[2].stoodStill(0, beforeAGrow), "a record made before a grow says nothing of a new processor");
    }
}
