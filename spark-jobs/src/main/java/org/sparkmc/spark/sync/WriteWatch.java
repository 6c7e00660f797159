package org.sparkmc.spark.sync;

import java.net.SocketTimeoutException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A bound on a socket write, which a socket's timeout does not give (it bounds reads only): a write to a peer that
 * stops reading blocks once the sockets' buffers are full, until TCP gives up or the socket is closed. While a write
 * lasts, a watch thread runs the writer's check every {@link RoundClient#CHECK_MILLIS}, and when the check throws or
 * the timeout passes, records why and stops the write (the writer's stop closes its socket, which ends the write with
 * an {@link java.io.IOException}). The watch acts only while the write lasts (the two agree under its lock), and at
 * most once. One thread watches the writes of this JVM's relays and clients; idle writers stay off its queue.
 */
final class WriteWatch {
    private static final ScheduledThreadPoolExecutor WATCH = watch();

    private final Object lock = new Object();
    /** Whether the write lasts: the watch acts only then. */
    private boolean writing = true;
    /** Why the watch stopped the write; null while it has not. */
    private Throwable stopped;
    private final ScheduledFuture<?> watching;

    private static ScheduledThreadPoolExecutor watch() {
        ScheduledThreadPoolExecutor watch = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "sparkmc-round-write-watch");
            t.setDaemon(true);
            return t;
        });
        watch.setRemoveOnCancelPolicy(true);
        return watch;
    }

    /**
     * Watches a write that begins now and must end within {@code timeoutMillis}.
     *
     * @param check run on the watch thread (so it must be safe to run from another thread); stops the write by
     *     throwing
     * @param late what did not happen in time, for the {@link SocketTimeoutException} a timeout stops the write with
     * @param stop ends the write (closes its socket), given why
     */
    WriteWatch(int timeoutMillis, Runnable check, Supplier<String> late, Consumer<Throwable> stop) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        watching = WATCH.scheduleWithFixedDelay(() -> {
            synchronized (lock) {
                if (!writing) {
                    return;
                }
                Throwable why;
                try {
                    check.run();
                    if (System.nanoTime() - deadline <= 0) {
                        return;
                    }
                    why = new SocketTimeoutException(late.get());
                } catch (RuntimeException | Error e) { // an Error too: it would end the watch's runs, not the write
                    why = e;
                }
                writing = false;
                stopped = why;
                stop.accept(why);
            }
        }, RoundClient.CHECK_MILLIS, RoundClient.CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Ends the watch, as the write has ended; returns why the watch stopped it, or null when it did not. */
    Throwable end() {
        Throwable why;
        synchronized (lock) {
            writing = false;
            why = stopped;
        }
        watching.cancel(false);
        return why;
    }
}
