package org.sparkmc.spark.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * A running job's hold on its checkpoint directory, so that a second run (a scheduler's retry while the first
 * attempt still runs, say) cannot save into it at the same time. The lease is a file, {@value #NAME}, naming the
 * driver's machine (host, boot, process namespace and user), process and start, and a renewal count; the driver writes
 * it anew every {@link #RENEW_SECONDS} seconds and deletes it when the run ends, whatever the outcome (on SIGTERM
 * too).
 *
 * <p>On the same machine a lease holds while its process runs: a run killed outright leaves a lease that the next
 * run takes over at once. Any other holder (another host, another container, a process id now held by a later
 * process) is watched on this run's own clock: written anew meanwhile, its run is alive and the new one is refused
 * ({@link Conflict}, exit 1); unchanged for {@link #STALE_SECONDS} seconds, it is taken over (a retry on another host
 * after a crash). A run whose lease was taken over (it stalled for longer than that) finds out at its next renewal,
 * or at its next save if the renewal is late, and fails before it writes ({@link #checkHeld}).
 *
 * <p>HDFS and local disks create the lease exclusively and let one taker win the rename; object stores do neither,
 * and there the lease only narrows the window.
 */
public final class CheckpointLease implements AutoCloseable {
    /** The lease's file name in the checkpoint directory. */
    public static final String NAME = "_sparkmc-running";
    /** How often the holder writes its lease anew. */
    public static final int RENEW_SECONDS = 10;
    /** How long a lease that cannot be asked after must stay unchanged before it is taken to be dead. */
    public static final int STALE_SECONDS = 60;
    /** How long a new lease is left before it is read back (a second check against a writer at the same moment). */
    private static final long SETTLE_MILLIS = 100;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CheckpointLease.class);
    private static final CheckpointLease NONE = new CheckpointLease(null, null, null, null, null, 0, 0);
    /** The leases this JVM holds, by qualified checkpoint directory. */
    private static final Map<Path, CheckpointLease> HELD = new ConcurrentHashMap<>();

    private final FileSystem fs;
    private final Path dir;
    private final Path file;
    private final LeaseHolder holder;
    private final ScheduledExecutorService renewal;
    private final long renewNanos;
    private final long staleNanos;
    private final Runnable onShutdown = () -> release(true);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Object renewing = new Object();
    private volatile long renewals;
    private volatile long confirmedAt = System.nanoTime();
    private volatile boolean lastWriteFailed;
    private volatile String lostTo;

    private CheckpointLease(FileSystem fs, Path dir, Path file, LeaseHolder holder, ScheduledExecutorService renewal,
            long renewSeconds, long staleSeconds) {
        this.fs = fs;
        this.dir = dir;
        this.file = file;
        this.holder = holder;
        this.renewal = renewal;
        this.renewNanos = TimeUnit.SECONDS.toNanos(renewSeconds);
        this.staleNanos = TimeUnit.SECONDS.toNanos(staleSeconds);
    }

    /** No lease: a run without a checkpoint directory. */
    public static CheckpointLease none() {
        return NONE;
    }

    /**
     * Takes the lease of the checkpoint directory {@code location} (which must exist), renewed until
     * {@link #close}; a lease that cannot be asked after is watched first, up to {@link #STALE_SECONDS} seconds.
     *
     * @throws Conflict if another run holds it
     */
    public static CheckpointLease take(String location, Configuration conf) {
        return take(location, conf, RENEW_SECONDS, STALE_SECONDS);
    }

    static CheckpointLease take(String location, Configuration conf, long renewSeconds, long staleSeconds) {
        try {
            Path path = UserPaths.path("--checkpoint", location);
            FileSystem given = path.getFileSystem(conf);
            Path dir = given.makeQualified(path); // as CheckpointStates names it, for checkHeld
            // Without Hadoop's checksum files: two writers could leave one's data beside the other's checksum.
            FileSystem fs = given instanceof LocalFileSystem local ? local.getRaw() : given;
            Path file = new Path(dir, NAME);
            LeaseHolder self = LeaseHolder.current();
            acquire(fs, file, self, location, staleSeconds);
            ScheduledExecutorService renewal = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sparkmc-checkpoint-lease");
                t.setDaemon(true);
                return t;
            });
            CheckpointLease lease = new CheckpointLease(fs, dir, file, self, renewal, renewSeconds, staleSeconds);
            HELD.put(dir, lease);
            try { // before Hadoop's own hook closes the file systems the release needs
                ShutdownHookManager.get().addShutdownHook(lease.onShutdown, FileSystem.SHUTDOWN_HOOK_PRIORITY + 1);
            } catch (IllegalStateException e) { // the JVM is shutting down already
                lease.release(false);
                throw e;
            }
            renewal.scheduleWithFixedDelay(lease::renew, renewSeconds, renewSeconds, TimeUnit.SECONDS);
            return lease;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take the lease of checkpoint directory " + location, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while taking the lease of " + location, e);
        }
    }

    /** Creates {@code self}'s lease, after its last holder has ended or lapsed. */
    private static void acquire(FileSystem fs, Path file, LeaseHolder self, String location, long staleSeconds)
            throws IOException, InterruptedException {
        String watched = null;
        long watchedSince = 0;
        int unreadable = 0;
        while (!createExclusive(fs, file, self.line(0))) {
            String seen = readOrNull(fs, file);
            if (seen == null) { // released meanwhile, or there and unreadable (another user's, or a directory)
                if (++unreadable >= 100 && fs.exists(file)) {
                    throw inUse(location, file, "its lease cannot be read; if no run uses the directory, delete it");
                }
                Thread.sleep(50);
                continue;
            }
            unreadable = 0;
            // A lease cut short while written parses as unknown, or is watched.
            LeaseHolder other = LeaseHolder.parse(seen);
            LeaseHolder.Liveness liveness = other.sameMachine() ? other.liveness() : LeaseHolder.Liveness.UNKNOWN;
            if (liveness == LeaseHolder.Liveness.ENDED) {
                LOG.info("--checkpoint '{}': taking over the lease of {}, which has ended", location,
                        other.describe());
                takeOver(fs, file, seen, location);
            } else if (liveness == LeaseHolder.Liveness.RUNNING) {
                throw inUse(location, file, other.describe() + " is running");
            } else if (watched == null) {
                watched = seen;
                watchedSince = System.nanoTime();
                LOG.warn("--checkpoint '{}' is leased to {}; watching it for up to {} s: renewed, that run is alive "
                        + "and this one stops; unchanged, it is taken over", location, other.describe(), staleSeconds);
            } else if (!watched.equals(seen)) {
                throw inUse(location, file, other.describe() + " renewed it while this run watched");
            } else if (System.nanoTime() - watchedSince >= TimeUnit.SECONDS.toNanos(staleSeconds)) {
                LOG.info("--checkpoint '{}': taking over the lease of {}, unchanged for {} s", location,
                        other.describe(), staleSeconds);
                takeOver(fs, file, seen, location);
                watched = null;
            } else {
                Thread.sleep(Math.min(1000, TimeUnit.SECONDS.toMillis(staleSeconds)));
            }
        }
        try {
            Thread.sleep(SETTLE_MILLIS);
            if (!self.line(0).equals(readPresent(fs, file))) {
                throw inUse(location, file, "another run took it at the same moment");
            }
        } catch (InterruptedException | IOException | RuntimeException e) {
            if (!(e instanceof Conflict) && self.line(0).equals(readOrNull(fs, file))) {
                fs.delete(file, false);
            }
            throw e;
        }
    }

    /**
     * Fails if this JVM holds the lease of checkpoint directory {@code dir} and another run has taken it over: a run
     * calls it before it writes there ({@link CheckpointStates#checkHeld}). A renewal that is late (a stalled JVM) is
     * made now, so that a save never relies on an old look at the lease.
     *
     * @throws Conflict naming the run that took it
     */
    public static void checkHeld(Path dir) {
        CheckpointLease lease = HELD.get(dir);
        if (lease == null) {
            return;
        }
        if (lease.lostTo == null && System.nanoTime() - lease.confirmedAt > 2 * lease.renewNanos) {
            lease.renew();
        }
        if (lease.lostTo != null) {
            throw new Conflict("checkpoint directory " + dir + ": " + lease.lostTo + "; this run stops before it "
                    + "writes there again, so that two runs do not write one checkpoint");
        }
    }

    /** For tests: makes {@code lease}'s last look at its file old, as after a stalled JVM. */
    static void forceLate(CheckpointLease lease) {
        lease.confirmedAt = System.nanoTime() - 3 * lease.renewNanos;
    }

    /**
     * Moves the lease {@code seen} aside (one taker wins the rename) and deletes it; a lease renewed just then is
     * put back and refused.
     */
    private static void takeOver(FileSystem fs, Path file, String seen, String location) throws IOException {
        Path aside = new Path(file.getParent(), NAME + ".taken-" + UUID.randomUUID());
        boolean moved;
        try {
            moved = fs.rename(file, aside);
        } catch (FileNotFoundException e) { // the local file system's way to lose the race
            moved = false;
        }
        if (!moved) {
            if (seen.equals(readOrNull(fs, file))) {
                throw inUse(location, file, "its lease cannot be moved aside; if no run uses the directory, delete "
                        + "the lease");
            }
            return; // another run moved it first: look again
        }
        String movedContent = readOrNull(fs, aside);
        if (!seen.equals(movedContent)) { // renewed (or replaced) just then: put it back, over nothing
            if (fs instanceof RawLocalFileSystem local) { // its rename would replace a lease created meanwhile
                try {
                    Files.createLink(local.pathToFile(file).toPath(), local.pathToFile(aside).toPath());
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    LOG.warn("--checkpoint '{}': a lease moved aside could not be put back", location);
                }
                fs.delete(aside, false);
            } else if (!fs.rename(aside, file)) {
                LOG.warn("--checkpoint '{}': a lease moved aside could not be put back", location);
                fs.delete(aside, false);
            }
            throw inUse(location, file, LeaseHolder.parse(String.valueOf(movedContent)).describe()
                    + " renewed it just now");
        }
        fs.delete(aside, false);
    }

    private static Conflict inUse(String location, Path file, String why) {
        return new Conflict("--checkpoint '" + location + "' is in use by another run (" + why + "; its lease is "
                + file + "); wait for that run to end, or stop it");
    }

    /**
     * Writes the lease anew, first checking that it is still this run's (by holder, whatever its count; after a
     * failed write, an empty or cut lease is taken as this run's own). A look that took long (a stall between the
     * read and the write, when another run may have taken the lease meanwhile) is not acted on: the next one is.
     */
    private void renew() {
        synchronized (renewing) {
            if (closed.get() || lostTo != null) {
                return;
            }
            try {
                long lookedAt = System.nanoTime();
                String current = readPresent(fs, file);
                boolean cut = current == null || !current.endsWith("\n");
                boolean ours = !cut && LeaseHolder.parse(current).sameHolder(holder);
                if (!ours && !(cut && lastWriteFailed)) {
                    lostTo = current == null ? "its lease " + file + " was deleted by another run"
                            : "another run (" + LeaseHolder.parse(current).describe() + ") took over its lease " + file;
                    LOG.error("checkpoint lease: {}; this run fails before it writes to the checkpoint again",
                            lostTo);
                    return;
                }
                if (System.nanoTime() - lookedAt > staleNanos / 2) {
                    return; // too old a look to write on
                }
                confirmedAt = lookedAt;
                if (closed.get()) {
                    return;
                }
                lastWriteFailed = true;
                write(fs, file, holder.line(renewals + 1), true);
                renewals++;
                lastWriteFailed = false;
                if (closed.get()) { // released while this write ran: do not leave it behind
                    deleteIfOurs();
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not renew the checkpoint lease {}: {}", file, e.toString());
            }
        }
    }

    /** Stops the renewal and deletes the lease if it is still this run's; a failure is only warned of. */
    @Override
    public void close() {
        release(false, null);
    }

    /**
     * As {@link #close()}, running {@code whileHeld} once the renewal has stopped and before the lease is deleted, if
     * the lease file is still this run's (read again just before): no other run can enter the directory while it
     * runs. A failure of it is warned of. Not at shutdown: a run stopped by a signal leaves the directory as it is.
     */
    public void close(Runnable whileHeld) {
        release(false, whileHeld);
    }

    private void release(boolean atShutdown) {
        release(atShutdown, null);
    }

    private void release(boolean atShutdown, Runnable whileHeld) {
        if (file == null || !closed.compareAndSet(false, true)) {
            return;
        }
        renewal.shutdown(); // not interrupted: a write cut short could leave an empty lease
        try {
            renewal.awaitTermination(1, TimeUnit.SECONDS); // a renewal under way checks `closed` around its write
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!atShutdown) {
            try {
                ShutdownHookManager.get().removeShutdownHook(onShutdown);
            } catch (IllegalStateException e) {
                // shutting down already
            }
            HELD.remove(dir, this);
        }
        if (whileHeld != null) {
            synchronized (renewing) { // a renewal that outlived the wait above has ended
                try {
                    if (lostTo == null && isOurs(readOrNull(fs, file))) {
                        whileHeld.run();
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("while releasing the checkpoint lease {}: {}", file, e.toString());
                }
            }
        }
        deleteIfOurs();
        if (atShutdown) { // the run's threads may still be writing: they stop at their next check
            lostTo = "the JVM is shutting down and released its lease " + file;
        }
    }

    /** Whether the lease read, {@code current} (null: none), is this run's, or cut short by its own failed write. */
    private boolean isOurs(String current) {
        boolean cut = current != null && !current.endsWith("\n");
        return current != null && (cut ? lastWriteFailed : LeaseHolder.parse(current).sameHolder(holder));
    }

    /** Deletes the lease if it is this run's (or cut short by this run's own failed write); a failure is warned of. */
    private void deleteIfOurs() {
        if (lostTo != null) {
            return; // another run's now
        }
        try {
            if (isOurs(readOrNull(fs, file))) {
                fs.delete(file, false);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete the checkpoint lease {}: {}; delete it by hand once no run uses the "
                    + "directory", file, e.toString());
        }
    }

    /** Creates the lease only if there is none: exclusively on a local disk and on HDFS. */
    private static boolean createExclusive(FileSystem fs, Path file, String content) throws IOException {
        if (fs instanceof RawLocalFileSystem local) { // its create checks and then opens: not exclusive
            java.nio.file.Path path = local.pathToFile(file).toPath();
            OutputStream out;
            try {
                out = Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                return false;
            }
            try (out) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
                return true;
            } catch (IOException e) { // created, not written: not left behind
                Files.deleteIfExists(path);
                throw e;
            }
        }
        try {
            write(fs, file, content, false);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            if (!fs.exists(file)) {
                throw e;
            }
            // Some file systems say "exists" with a plain IOException; or this create worked and its close failed.
            return content.equals(readOrNull(fs, file));
        }
    }

    private static void write(FileSystem fs, Path file, String content, boolean overwrite) throws IOException {
        try (OutputStream out = fs.create(file, overwrite)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * The file's content, looked at again for up to a second while it is missing: a run taking over a lease moves
     * it aside and, if it was renewed meanwhile, back.
     */
    private static String readPresent(FileSystem fs, Path file) throws IOException {
        String content = readOrNull(fs, file);
        for (int i = 0; content == null && i < 10; i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            content = readOrNull(fs, file);
        }
        return content;
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
}
