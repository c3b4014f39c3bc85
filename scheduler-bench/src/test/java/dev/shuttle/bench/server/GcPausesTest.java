package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GcPausesTest {
    @Test
    void readsWhatItWritesAndCountsTheGrowthBetweenTwoReadings() {
        GcPauses before = GcPauses.parse(new GcPauses(7, 40).format());
        assertEquals(new GcPauses(7, 40), before);
        assertEquals(new GcPauses(3, 11), new GcPauses(10, 51).since(before));
    }

    @Test
    void malformedTextOrCountsThatWentDownAreRefusedSayingWhat() {
        for (String bad : new String[] {"", "7", "7 x", "7 40 1", "-1 40"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GcPauses.parse(bad));
            assertTrue(e.getMessage().contains("\"" + bad + "\""), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GcPauses(6, 40).since(new GcPauses(7, 40)));
        assertTrue(e.getMessage().contains("went down"), e.getMessage());
    }

    @Test
    void thisJvmsCollectionsGrowWithACollection() {
        GcPauses before = GcPauses.ofThisJvm();
        System.gc();
        GcPauses after = GcPauses.ofThisJvm();
        assertTrue(after.since(before).collections() >= 1, before + " then " + after);
    }
}
