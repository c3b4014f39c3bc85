package dev.shuttle.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void aWakeSoonerThanAFullSearchRestoresTheBudgetAndALateOneDoesNot() throws InterruptedException {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.startSearch();
        budget.pause(0);
        Thread.sleep(50);
        budget.wasted();                          // a full-budget search that paused 50 ms and found nothing
        budget.parking();
        Thread.sleep(150);
        budget.wokenToSearch();                   // woken 150 ms later: spinning would not have caught that work
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
        budget.found(0, true);
        budget.stoppedSearching();
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
        budget.wasted();
        budget.parking();
        budget.wokenToSearch();                   // woken at once: a full search would have found the work
        assertEquals(POLICY.spinRounds() - 2, budget.startSearch(), "nothing is learnt before the work is found");
        budget.found(0, true);
        budget.stoppedSearching();
        assertEquals(POLICY.spinRounds(), budget.startSearch());
    }

    /** A budget whose full-budget search was timed at 50 ms and found nothing, now parked. */
    private static SearchBackoff parkedAfterATimedFullSearch() throws InterruptedException {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.startSearch();
        budget.pause(0);
        Thread.sleep(50);
        budget.wasted();
        budget.parking();
        return budget;
    }

    @Test
    void anEarlyWakeForWorkFromOutsideTeachesNothing() throws InterruptedException {
        SearchBackoff budget = parkedAfterATimedFullSearch();
        budget.wokenToSearch();                   // woken at once, but for a task in the global queue
        budget.found(0, false);
        budget.stoppedSearching();
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
        budget.found(0, true);                    // a later steal is not this wake's work
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
    }

    @Test
    void aWakeWhoseWorkWasTakenOutsideTheSearchTeachesNothingLater() throws InterruptedException {
        SearchBackoff budget = parkedAfterATimedFullSearch();
        budget.wokenToSearch();                   // woken at once; the carrier takes the global queue's task itself
        budget.stoppedSearching();
        budget.startSearch();
        budget.found(0, true);                    // the next search's steal is not this wake's work
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
    }

    @Test
    void aSearchThatNeverPausedIsNotTimed() throws InterruptedException {
        SearchBackoff budget = new SearchBackoff(POLICY);
        budget.startSearch();
        Thread.sleep(50);
        budget.wasted();                          // no pause: nothing learnt about how long spinning takes
        budget.parking();
        budget.wokenToSearch();
        assertEquals(POLICY.spinRounds() - 1, budget.startSearch());
    }

    @Test
    void aWakeTeachesNothingBeforeAFullSearchWasTimed() {
        SearchBackoff budget = new SearchBackoff(new SpinPolicy(0, 0));
        budget.parking();
        budget.wokenToSearch();
        assertEquals(0, budget.startSearch());
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
