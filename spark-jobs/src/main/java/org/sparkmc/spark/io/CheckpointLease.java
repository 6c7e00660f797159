package org.sparkmc.spark.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A running job's hold on its checkpoint directory, so that a second run (a scheduler's retry while the first
 * attempt still runs, say) cannot save into it at the same time. The lease is a file, {@value #NAME}, naming the
 * driver's host, process and start and a renewal count; the driver writes it anew every {@link #RENEW_SECONDS}
 * seconds and deletes it when the run ends, whatever the outcome (on SIGTERM too).
 *
 * <p>On this host a lease holds while its process runs: a run killed outright leaves a lease that the next run
 * takes over at once. A driver on another host cannot be asked after, so a new run watches its lease on its own
 * clock: written anew meanwhile, the run is alive and the new one is refused ({@link Conflict}, exit 1); unchanged for {@link #STALE_SECONDS}
 * seconds, it is taken over (a retry on another host after a crash). A run whose lease another run took over (it
 * stalled for longer than that) finds out at its next renewal and fails at its next save ({@link #checkHeld}).
 *
 * <p>File systems with an atomic rename and exclusive create (HDFS, local disks) make the hand-over exclusive;
 * object stores do not, and there the lease only narrows the window.
 */
public final class CheckpointLease implements AutoCloseable {
    /** The lease's file name in the checkpoint directory. */
    public static final String NAME = "_sparkmc-running";
    /** How often the holder writes its lease anew. */
    public static final int RENEW_SECONDS = 10;
    /** How long a lease from another host must stay unchanged before it is taken to be dead. */
    public static final int STALE_SECONDS = 60;
    /** How long a new lease is left before it is read back (two runs creating it at once: the later write wins). */
    private static final long SETTLE_MILLIS = 100;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CheckpointLease.class);
    private static final CheckpointLease NONE = new CheckpointLease(null, null, null, null);
    /** The leases this JVM holds, by qualified checkpoint directory. */
    private static final Map<Path, CheckpointLease> HELD = new ConcurrentHashMap<>();

    private final FileSystem fs;
    private final Path file;
    private final Holder holder;
    private final ScheduledExecutorService renewal;
    private final Thread onShutdown = new Thread(this::close, "sparkmc-checkpoint-lease-release");
    private long renewals;
    private boolean closed;
    private volatile String lostTo;

    private CheckpointLease(FileSystem fs, Path file, Holder holder, ScheduledExecutorService renewal) {
        this.fs = fs;
        this.file = file;
        this.holder = holder;
        this.renewal = renewal;
    }

    /** No lease: a run without a checkpoint directory. */
    public static CheckpointLease none() {
        return NONE;
    }

    /**
     * Takes the lease of the checkpoint directory {@code location} (which must exist), renewed until
     * {@link #close}; a lease from another host is watched first, up to {@link #STALE_SECONDS} seconds.
     *
     * @throws Conflict if another run holds it
     */
    public static CheckpointLease take(String location, Configuration conf) {
        return take(location, conf, RENEW_SECONDS, STALE_SECONDS);
    }

    static CheckpointLease take(String location, Configuration conf, long renewSeconds, long staleSeconds) {
        try {
            Path path = UserPaths.path("--checkpoint", location);
            FileSystem fs = path.getFileSystem(conf);
            Path dir = fs.makeQualified(path);
            Path file = new Path(dir, NAME);
            Holder self = Holder.current();
            String watched = null;
            long watchedSince = 0;
            while (true) {
                if (create(fs, file, self.line(0))) {
                    Thread.sleep(SETTLE_MILLIS);
                    if (self.line(0).equals(readOrNull(fs, file))) {
                        break;
                    }
                    throw inUse(location, file, "another run took it at the same moment");
                }
                String seen = readOrNull(fs, file);
                if (seen == null) {
                    continue; // released meanwhile
                }
                Holder other = Holder.parse(seen);
                if (other.local()) {
                    if (other.alive()) {
                        throw inUse(location, file, other.describe() + " is running");
                    }
                    LOG.info("--checkpoint '{}': taking over the lease of {}, which has ended", location,
                            other.describe());
                    takeOver(fs, file, seen, location);
                } else if (watched == null || !watched.equals(seen)) {
                    if (watched != null) {
                        throw inUse(location, file, other.describe() + " renewed it while this run watched");
                    }
                    watched = seen;
                    watchedSince = System.nanoTime();
                    LOG.warn("--checkpoint '{}' is leased to {}; watching it for up to {} s: renewed, that run is "
                            + "alive and this one stops; unchanged, it is taken over", location, other.describe(),
                            staleSeconds);
                } else if (System.nanoTime() - watchedSince >= staleSeconds * 1_000_000_000L) {
                    LOG.info("--checkpoint '{}': taking over the lease of {}, unchanged for {} s", location,
                            other.describe(), staleSeconds);
                    takeOver(fs, file, seen, location);
                } else {
                    Thread.sleep(Math.min(1000, staleSeconds * 1000));
                }
            }
            ScheduledExecutorService renewal = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sparkmc-checkpoint-lease");
                t.setDaemon(true);
                return t;
            });
            CheckpointLease lease = new CheckpointLease(fs, file, self, renewal);
            HELD.put(dir, lease);
            Runtime.getRuntime().addShutdownHook(lease.onShutdown);
            renewal.scheduleWithFixedDelay(lease::renew, renewSeconds, renewSeconds, TimeUnit.SECONDS);
            return lease;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take the lease of checkpoint directory " + location, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while taking the lease of " + location, e);
        }
    }

    /**
     * Fails if this JVM held the lease of checkpoint directory {@code dir} and another run has taken it over: a run
     * calls it before it saves, so that two runs never write one checkpoint.
     *
     * @throws Conflict naming the run that took it
     */
    public static void checkHeld(Path dir) {
        CheckpointLease lease = HELD.get(dir);
        if (lease != null && lease.lostTo != null) {
            throw new Conflict("checkpoint directory " + dir + ": another run (" + lease.lostTo
                    + ") took over this run's lease " + lease.file + " while this run stalled; stopping before the "
                    + "next save, so that the two runs do not write one checkpoint");
        }
    }

    /** Moves the lease {@code seen} aside (one taker wins the rename) and deletes it; a lease renewed just then
     *  is put back and refused. */
    private static void takeOver(FileSystem fs, Path file, String seen, String location) throws IOException {
        Path aside = new Path(file.getParent(), NAME + ".taken-" + UUID.randomUUID());
        if (!fs.rename(file, aside)) {
            return; // another run moved it first; look again
        }
        String moved = readOrNull(fs, aside);
        if (!seen.equals(moved)) {
            fs.rename(aside, file);
            throw inUse(location, file, Holder.parse(String.valueOf(moved)).describe() + " renewed it just now");
        }
        fs.delete(aside, false);
    }

    private static Conflict inUse(String location, Path file, String why) {
        return new Conflict("--checkpoint '" + location + "' is in use by another run (" + why + "; its "
                + "lease is " + file + "); wait for that run to end, or stop it");
    }

    /** Writes the lease anew, first checking that it is still this run's. */
    private synchronized void renew() {
        if (closed || lostTo != null) {
            return;
        }
        try {
            String current = readOrNull(fs, file);
            if (!holder.line(renewals).equals(current)) {
                lostTo = current == null ? "its lease was deleted" : Holder.parse(current).describe();
                LOG.error("checkpoint lease {} was taken over by another run ({}); this run fails at its next save",
                        file, lostTo);
                return;
            }
            write(fs, file, holder.line(renewals + 1), true);
            renewals++;
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not renew the checkpoint lease {}: {}", file, e.toString());
        }
    }

    /** Stops the renewal and deletes the lease if it is still this run's; a failure is only warned of. */
    @Override
    public void close() {
        if (file == null) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        renewal.shutdownNow();
        try {
            renewal.awaitTermination(5, TimeUnit.SECONDS);
            Runtime.getRuntime().removeShutdownHook(onShutdown);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
            // the JVM is shutting down: this is the hook
        }
        HELD.remove(file.getParent(), this);
        try {
            if (lostTo == null && holder.line(renewals).equals(readOrNull(fs, file))) {
                fs.delete(file, false);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete the checkpoint lease {}: {}; delete it by hand once no run uses the "
                    + "directory", file, e.toString());
        }
    }

    private static boolean create(FileSystem fs, Path file, String content) throws IOException {
        try {
            write(fs, file, content, false);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            if (fs.exists(file)) { // some file systems say "exists" with a plain IOException
                return false;
            }
            throw e;
        }
    }

    private static void write(FileSystem fs, Path file, String content, boolean overwrite) throws IOException {
        try (OutputStream out = fs.create(file, overwrite)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The file's content, or null if it is gone. */
    private static String readOrNull(FileSystem fs, Path file) throws IOException {
        try (InputStream in = fs.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /**
     * Two runs on one checkpoint directory: not bad input but a clash of the moment, which the command reports in
     * one line with exit 1, so that a scheduler retries once the other run has ended.
     */
    public static final class Conflict extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Conflict(String message) {
            super(message);
        }
    }

    /** Who holds a lease: the driver's host, process id and the process's start (epoch milliseconds, 0 unknown). */
    record Holder(String host, long pid, long started) {
        private static final String THIS_HOST = hostName();

        static Holder current() {
            ProcessHandle self = ProcessHandle.current();
            return new Holder(THIS_HOST, self.pid(), startOf(self));
        }

        /** Parses {@link #line}; an unreadable lease names no process and is watched like a remote one. */
        static Holder parse(String line) {
            String[] parts = line.trim().split(" ");
            try {
                return new Holder(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]));
            } catch (RuntimeException e) {
                return new Holder("?", -1, 0);
            }
        }

        /** The lease's content after {@code renewals} renewals. */
        String line(long renewals) {
            return host + " " + pid + " " + started + " " + renewals;
        }

        String describe() {
            return "process " + pid + " on " + (local() ? "this host, " : "") + host
                    + (started > 0 ? ", started " + Instant.ofEpochMilli(started) : "");
        }

        /** Whether the holder runs on this host, where its process can be asked after. */
        boolean local() {
            return host.equals(THIS_HOST) && pid > 0;
        }

        /** Whether the holder is a live process on this host (the same process, not a later one of its id). */
        boolean alive() {
            if (!local()) {
                return false;
            }
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            return process.isPresent() && process.get().isAlive()
                    && (started == 0 || startOf(process.get()) == 0 || startOf(process.get()) == started);
        }

        private static long startOf(ProcessHandle process) {
            return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        }

        private static String hostName() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
            }
        }
    }
}
