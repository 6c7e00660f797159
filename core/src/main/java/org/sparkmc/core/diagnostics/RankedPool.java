package org.sparkmc.core.diagnostics;

import java.util.concurrent.Executor;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixed pool of daemon threads that takes its waiting tasks lowest rank first, and in the order they came within a
 * rank. {@link SummaryTasks} ranks a summary's parts by how much work still depends on them: the pooled sort first,
 * then what needs the sort, the parts that need nothing last, as filler. On a plain FIFO pool the parts of the last
 * parameter submitted wait behind every earlier one's filler, and the round ends on one thread's long tail.
 * Ranks change only the order of the parts, never a result (each part runs whole on one thread).
 */
public final class RankedPool implements AutoCloseable {
    private final ThreadPoolExecutor threads;
    private final AtomicLong arrivals = new AtomicLong();

    private RankedPool(int size, String name) {
        AtomicInteger count = new AtomicInteger();
        threads = new ThreadPoolExecutor(size, size, 0, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        // Started now, so that every task goes through the queue in rank order (a pool below its size would hand
        // each new task to a new thread at once, whatever its rank).
        threads.prestartAllCoreThreads();
    }

    /** A pool of {@code size} threads named {@code name-1}, {@code name-2}, …. */
    public static RankedPool of(int size, String name) {
        if (size < 1) {
            throw new IllegalArgumentException("a pool needs at least one thread, not " + size);
        }
        return new RankedPool(size, name);
    }

    /** An executor whose tasks wait at rank {@code rank} (lower runs first). */
    public Executor at(int rank) {
        return new Lane(this, rank);
    }

    /** {@code executor} moved to rank {@code rank} if it is a lane of a ranked pool; any other executor as it is. */
    static Executor rank(Executor executor, int rank) {
        return executor instanceof Lane lane ? lane.pool.at(rank) : executor;
    }

    /** Stops the threads; waiting tasks are dropped. */
    @Override
    public void close() {
        threads.shutdownNow();
    }

    private record Lane(RankedPool pool, int rank) implements Executor {
        @Override
        public void execute(Runnable task) {
            pool.threads.execute(new Ranked(rank, pool.arrivals.getAndIncrement(), task));
        }
    }

    private record Ranked(int rank, long arrival, Runnable task) implements Runnable, Comparable<Ranked> {
        @Override
        public void run() {
            task.run();
        }

        @Override
        public int compareTo(Ranked o) {
            return rank != o.rank ? Integer.compare(rank, o.rank) : Long.compare(arrival, o.arrival);
        }
    }
}
