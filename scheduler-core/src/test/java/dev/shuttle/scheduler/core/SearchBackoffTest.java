package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SearchBackoffTest {
    private static final SpinPolicy POLICY = new SpinPolicy(3, 1);

    @Test
    void fruitlessSearchesSpendTheBudgetDownToNoPauses() {
        SearchBackoff budget = new SearchBackoff(POLICY);
        for (int expected = POLICY.spinRounds(); expected >= 0; expected--) {
            assertEquals(expected, budget.startSearch());
            budget.wasted();
        }
        assertEquals(0, budget.startSearch());
    }

    @Test
    void workStolenAfterAPauseSetsTheBudgetToThePausesItTookAndOneMore() {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.startSearch();
        budget.wasted();
        budget.startSearch();
        budget.wasted();
        assertEquals(1, budget.startSearch());
        budget.found(0, true);
        assertEquals(1, budget.startSearch(), "work found before any pause says nothing about spinning");
        budget.found(1, false);
        assertEquals(1, budget.startSearch(), "work from the global queue came from outside: spinning did not pay");
        budget.found(1, true);
        assertEquals(2, budget.startSearch(), "one pause paid: the next search may spend that and one more");
        budget.found(2, true);
        assertEquals(POLICY.spinRounds(), budget.startSearch(), "never more than the policy's rounds");
        budget.found(1, true);
        assertEquals(2, budget.startSearch(), "a full budget that paid after one pause shrinks to what paid");
    }

    @Test
    void aWakeSoonerThanAFullSearchRestoresTheBudgetAndALateOneDoesNot() {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.startSearch();
        budget.wasted();
        assertTrue(budget.parking(), "below the full budget a wake can teach something: the carrier times it");
        budget.wokenToSearch(false);              // woken later than a full search lasts
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
        budget.found(0, true);
        budget.stoppedSearching();
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
        budget.wasted();
        budget.parking();
        budget.wokenToSearch(true);               // woken sooner: a full search would have found the work
        assertEquals(POLICY.spinRounds() - 2, budget.startSearch(), "nothing is learnt before the work is found");
        budget.found(0, true);
        budget.stoppedSearching();
        assertEquals(POLICY.spinRounds(), budget.startSearch());
    }

    @Test
    void aParkAtTheFullBudgetNeedsNoTiming() {
        SearchBackoff budget = new SearchBackoff(POLICY);
        assertTrue(budget.fullBudget());
        assertFalse(budget.parking(), "a wake cannot raise a full budget: nothing to time");
        budget.startSearch();
        budget.wasted();
        assertFalse(budget.fullBudget());
    }

    /** A budget below the full one, parked after a timed search. */
    private static SearchBackoff parkedBelowTheFullBudget() {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.startSearch();
        budget.wasted();
        budget.parking();
        return budget;
    }

    @Test
    void anEarlyWakeForWorkFromOutsideTeachesNothing() {
        SearchBackoff budget = parkedBelowTheFullBudget();
        budget.wokenToSearch(true);               // woken at once, but for a task in the global queue
        budget.found(0, false);
        budget.stoppedSearching();
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
        budget.found(0, true);                    // a later steal is not this wake's work
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
    }

    @Test
    void aWakeWhoseWorkWasTakenOutsideTheSearchTeachesNothingLater() {
        SearchBackoff budget = parkedBelowTheFullBudget();
        budget.wokenToSearch(true);               // woken at once; the carrier takes the global queue's task itself
        budget.stoppedSearching();
        budget.startSearch();
        budget.found(0, true);                    // the next search's steal is not this wake's work
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
    }

    @Test
    void aParkClearsAnEarlyWakeNotYetPaidFor() {
        SearchBackoff budget = parkedBelowTheFullBudget();
        budget.wokenToSearch(true);
        budget.parking();                         // parked again without finding work
        budget.found(0, true);
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
    }

    @Test
    void anUnsuccessfulFullBudgetSearchIsTimedFromItsFirstPauseAndOthersAreNot() {
        long pauseNanos = 1_000_000L;
        PoolState state = new PoolState(2, new SpinPolicy(2, pauseNanos));
        Processor proc = state.processors[0];
        assertNull(WorkSearch.search(state, proc));
        long timed = proc.fullSearchNanos;
        assertTrue(timed >= 2 * pauseNanos, "two pauses of a full-budget search, timed " + timed + " ns");
        assertNull(WorkSearch.search(state, proc));
        assertEquals(timed, proc.fullSearchNanos, "a search below the full budget is not timed");
    }

    @Test
    void aContendedCoreSpendsNoRoundsUntilSpinningPaysAgain() {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.contended();
        assertEquals(0, budget.startSearch(), "a carrier whose core was taken spins no rounds");
        budget.wasted();
        assertEquals(0, budget.startSearch());
        budget.found(1, true);                    // the one pause every search makes found work: spinning pays
        assertEquals(2, budget.startSearch());
    }

    @Test
    void aPauseSpinsForAtLeastThePolicysTimeWhateverTheSpeedOfOnSpinWait() {
        long pauseNanos = 20_000_000L;
        SearchBackoff backoff = new SearchBackoff(new SpinPolicy(1, pauseNanos));
        backoff.startSearch();
        long start = System.nanoTime();
        backoff.pause(0);
        long spun = System.nanoTime() - start;
        assertTrue(spun >= pauseNanos, "paused " + spun + " ns of " + pauseNanos);
    }
}
