package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link RankedPool} runs its waiting tasks lowest rank first and in arrival order within a rank; other executors pass
 * {@link RankedPool#rank} unchanged. Deterministic: the pool's one thread is held busy until every task waits in the
 * queue.
 */
class RankedPoolTest {

    @Test
    void runsWaitingTasksByRankThenArrival() throws InterruptedException {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        try (RankedPool pool = RankedPool.of(1, "ranked-pool-test")) {
            whileBusy(pool, () -> {
                String[][] tasks = {{"3", "c"}, {"1", "a"}, {"2", "b"}, {"1", "a2"}, {"3", "c2"}};
                for (String[] t : tasks) {
                    pool.at(Integer.parseInt(t[0])).execute(() -> order.add(t[1]));
                }
            });
        }
        assertEquals(List.of("a", "a2", "b", "c", "c2"), order);
    }

    @Test
    void aLaneMovesToAnotherRankOfItsPoolAndOtherExecutorsStayAsTheyAre() throws InterruptedException {
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        try (RankedPool pool = RankedPool.of(1, "ranked-pool-test")) {
            Executor lane = pool.at(5);
            whileBusy(pool, () -> {
                lane.execute(() -> order.add(5));
                RankedPool.rank(lane, 0).execute(() -> order.add(0));
            });
        }
        assertEquals(List.of(0, 5), order);
        Executor direct = Runnable::run;
        assertSame(direct, RankedPool.rank(direct, 0));
    }

    @Test
    void refusesAPoolWithoutThreads() {
        assertThrows(IllegalArgumentException.class, () -> RankedPool.of(0, "none"));
    }

    /**
     * Holds the one-thread pool's thread while {@code submit} queues tasks, then lets them run and waits until a last
     * task, ranked after all of them, has run.
     */
    private static void whileBusy(RankedPool pool, Runnable submit) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch drained = new CountDownLatch(1);
        pool.at(0).execute(() -> {
            running.countDown();
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        submit.run();
        pool.at(Integer.MAX_VALUE).execute(drained::countDown);
        hold.countDown();
        assertTrue(drained.await(10, TimeUnit.SECONDS));
    }
}
