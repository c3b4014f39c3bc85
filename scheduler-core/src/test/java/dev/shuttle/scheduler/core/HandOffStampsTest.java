package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HandOffStampsTest {
    private final Runnable a = () -> { };
    private final Runnable b = () -> { };

    /** A fixed period would sample only one of two threads handed back and forth; the random gap samples both. */
    @Test
    void twoThreadsHandedBackAndForthAreBothSampled() {
        HandOffStamps stamps = new HandOffStamps();
        int sampledA = 0;
        int sampledB = 0;
        int handOffs = 80_000;
        for (int i = 0; i < handOffs; i++) {
            Runnable task = (i & 1) == 0 ? a : b;
            Runnable queued = stamps.stamp(task, HandOffStamps.WAKE);
            if (queued != task) {
                HandOffStamps.Stamp s = (HandOffStamps.Stamp) queued;
                assertSame(task, s.task());
                assertEquals(HandOffStamps.WAKE, HandOffStamps.kind(s.take()));
                if (task == a) {
                    sampledA++;
                } else {
                    sampledB++;
                }
            }
        }
        // Each expects 5,000 (one in eight of 40,000); a binomial's standard deviation here is about 70.
        assertTrue(sampledA > 4_500 && sampledA < 5_500, sampledA + " of " + handOffs / 2 + " hand-offs of a");
        assertTrue(sampledB > 4_500 && sampledB < 5_500, sampledB + " of " + handOffs / 2 + " hand-offs of b");
    }

    /** A stamp still in a queue is never reused: the sample is lost instead, and the task travels as itself. */
    @Test
    void aStampInUseCostsASampleNotATask() {
        HandOffStamps stamps = new HandOffStamps(1, 2);
        Runnable c = () -> { };
        Runnable d = () -> { };
        HandOffStamps.Stamp first = (HandOffStamps.Stamp) stamps.stamp(a, HandOffStamps.START);
        HandOffStamps.Stamp second = (HandOffStamps.Stamp) stamps.stamp(b, HandOffStamps.YIELD);
        assertNotSame(first, second);
        assertSame(c, stamps.stamp(c, HandOffStamps.WAKE), "both stamps are queued: c goes unsampled");
        assertSame(a, first.task());
        assertEquals(HandOffStamps.START, HandOffStamps.kind(first.take()));
        assertSame(first, stamps.stamp(d, HandOffStamps.TIMER), "the taken stamp is reused");
        assertSame(d, first.task());
        assertEquals(HandOffStamps.TIMER, HandOffStamps.kind(first.take()));
        assertSame(b, second.task());
        assertEquals(HandOffStamps.YIELD, HandOffStamps.kind(second.take()));
    }

    @Test
    void waitsAreRightAcrossTheClocksWrap() {
        long before = (1L << 48) - 10;
        long word = HandOffStamps.word(HandOffStamps.TIMER, before);
        assertEquals(HandOffStamps.TIMER, HandOffStamps.kind(word));
        assertEquals(25, HandOffStamps.waited(word, before + 25));
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HandOffStamps(0, 8));
        assertThrows(IllegalArgumentException.class, () -> new HandOffStamps(8, 6));
    }
}
