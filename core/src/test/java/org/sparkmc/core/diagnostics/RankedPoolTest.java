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
 * {@link RankedPool} runs its waiting tasks lowest rank first and in arrival order within a rank, from the first task
 * on; other executors pass {@link RankedPool#rank} unchanged. Deterministic: one thread, held busy until every
 * task waits in the queue.
 */
class RankedPoolTest {

    @Test
    void runsWaitingTasksByRankThenArrival() throws InterruptedException {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(6);
        try (RankedPool pool = RankedPool.of(1, "ranked-pool-test")) {
            pool.at(9).execute(() -> {
                running.countDown();
                await(hold);
                order.add("first");
                done.countDown();
            });
            assertTrue(running.await(10, TimeUnit.SECONDS)); // the one thread is busy: the rest wait in the queue
            String[][] tasks = {{"3", "c"}, {"1", "a"}, {"2", "b"}, {"1", "a2"}, {"3", "c2"}};
            for (String[] t : tasks) {
                pool.at(Integer.parseInt(t[0])).execute(() -> {
                    order.add(t[1]);
                    done.countDown();
                });
            }
            hold.countDown();
            assertTrue(done.await(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of("first", "a", "a2", "b", "c", "c2"), order);
    }

    @Test
    void aLaneMovesToAnotherRankOfItsPoolAndOtherExecutorsStayAsTheyAre() throws InterruptedException {
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(3);
        try (RankedPool pool = RankedPool.of(1, "ranked-pool-test")) {
            Executor lane = pool.at(5);
            lane.execute(() -> {
                running.countDown();
                await(hold);
                done.countDown();
            });
            assertTrue(running.await(10, TimeUnit.SECONDS));
            lane.execute(() -> {
                order.add(5);
                done.countDown();
            });
            RankedPool.rank(lane, 0).execute(() -> {
                order.add(0);
                done.countDown();
            });
            hold.countDown();
            assertTrue(done.await(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of(0, 5), order);
        Executor direct = Runnable::run;
        assertSame(direct, RankedPool.rank(direct, 0));
    }

    @Test
    void refusesAPoolWithoutThreads() {
        assertThrows(IllegalArgumentException.class, () -> RankedPool.of(0, "none"));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
