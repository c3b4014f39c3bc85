package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link SpinAdvice}: when a carrier stops betting on a searcher, for how long, and what does not count as waste. */
class SpinAdviceTest {
    /** A task told to spin that unmounts before it asks again: its spin ran out. */
    private static void wastedSpin(SpinAdvice advice) {
        advice.answered(true);
        advice.unmounted();
    }

    /** Bets refused in a row from now, up to {@code max}. */
    private static int refusedInARow(SpinAdvice advice, int max) {
        int n = 0;
        while (n < max && !advice.mayBet()) {
            n++;
        }
        return n;
    }

    @Test
    void spinsThatKeepRunningOutStopTheBetsForAWhile() {
        SpinAdvice advice = new SpinAdvice();
        int wasted = 0;
        while (advice.mayBet()) {
            wastedSpin(advice);
            wasted++;
            assertTrue(wasted <= 100, "a hundred wasted spins in a row never stopped the bets");
        }
        assertEquals(SpinAdvice.WASTE_LIMIT / SpinAdvice.WASTE_WEIGHT + 1, wasted);
        // The refusal that ended the loop was the first of SUPPRESSED_BETS; then it bets again.
        assertEquals(SpinAdvice.SUPPRESSED_BETS - 1, refusedInARow(advice, 2 * SpinAdvice.SUPPRESSED_BETS));
        assertTrue(advice.mayBet());
    }

    @Test
    void anOccasionalWastedSpinAmongPayingOnesNeverStopsTheBets() {
        SpinAdvice advice = new SpinAdvice();
        for (int round = 0; round < 10_000; round++) {
            wastedSpin(advice);
            for (int met = 0; met < 2 * SpinAdvice.WASTE_WEIGHT; met++) {
                advice.answered(true);     // asked again after a spin: the last one was met
            }
            assertTrue(advice.mayBet(), "bets stopped in round " + round);
        }
    }

    @Test
    void aTaskToldToParkOrNeverAskedDoesNotCountAsWaste() {
        SpinAdvice advice = new SpinAdvice();
        for (int i = 0; i < 1_000; i++) {
            advice.answered(false);
            advice.unmounted();
            advice.unmounted();
        }
        assertEquals(0, refusedInARow(advice, 1));
    }
}
