package dev.shuttle.scheduler.install;

import dev.shuttle.scheduler.core.SchedulerAccess;
import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The agent's checks of its system properties; the end-to-end behaviour is in {@code ShuttleAgentIT}. */
class SystemSchedulerTest {
    @Test
    void parallelism() {
        assertEquals(Runtime.getRuntime().availableProcessors(), SystemScheduler.parseParallelism(null));
        assertEquals(1, SystemScheduler.parseParallelism("1"));
        assertEquals(32767, SystemScheduler.parseParallelism("32767"));
        for (String bad : new String[] {"0", "-1", "32768", "99999999999"}) {
            assertEquals("out of range; expected an integer from 1 to 32767",
                    assertThrows(IllegalArgumentException.class, () -> SystemScheduler.parseParallelism(bad))
                            .getMessage(), bad);
        }
        for (String bad : new String[] {"", " 2", "2.0", "four", "0x10", "999999999999999999999"}) {
            assertEquals("not a number; expected an integer from 1 to 32767",
                    assertThrows(IllegalArgumentException.class, () -> SystemScheduler.parseParallelism(bad))
                            .getMessage(), bad);
        }
    }

    @Test
    void implClass() {
        assertNull(SystemScheduler.checkImplClass("dev.shuttle.scheduler.ShuttleScheduler"));
        assertTrue(SystemScheduler.checkImplClass("no.Such").startsWith("no such class"));
        assertTrue(SystemScheduler.checkImplClass(" ").startsWith("empty"));
        assertTrue(SystemScheduler.checkImplClass("java.lang.Object").startsWith("not a virtual-thread scheduler"));
        assertTrue(SystemScheduler.checkImplClass("dev.shuttle.scheduler.core.CarrierPool")
                .startsWith("an Executor Shuttle's agent cannot install"));
    }

    @Test
    void agentArgumentsAreRefusedBeforeAnythingElse() {
        assertEquals("shuttle: -javaagent:<scheduler-core jar>=x: the agent takes no arguments; configure it with"
                + " -Djdk.virtualThreadScheduler.implClass and -Dshuttle.parallelism",
                SystemScheduler.install("x", null));
    }

    @Test
    void noSystemDefaultWithoutTheAgent() {
        assertTrue(ShuttleScheduler.systemDefault().isEmpty());
        try (ShuttleScheduler s = ShuttleScheduler.builder().parallelism(1).build()) {
            assertTrue(SchedulerAccess.systemDefault() != s);
        }
    }
}
