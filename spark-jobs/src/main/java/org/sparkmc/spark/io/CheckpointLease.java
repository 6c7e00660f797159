package org.sparkmc.spark.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * A running job's hold on its checkpoint directory, so that a second run (a scheduler's retry while the first
 * attempt still runs, say) cannot save into it at the same time. The lease is a file, {@value #NAME}, naming the
 * driver's host, process and start; the driver renews its modification time every {@link #RENEW_SECONDS} seconds
 * and deletes it when the run ends, whatever the outcome.
 *
 * <p>On this host a lease is in force while its process runs: a run killed outright leaves a lease that the next
 * run takes over at once. A driver on another host cannot be asked after, so a new run watches its lease: renewed,
 * it is refused; not renewed for {@link #STALE_SECONDS} seconds, it has lapsed and is taken over (the case of a
 * scheduler's retry on another host after a crash).
 */
public final class CheckpointLease implements AutoCloseable {
    /** The lease's file name in the checkpoint directory. */
    public static final String NAME = "_sparkmc-running";
    /** How often the holder renews the lease. */
    public static final int RENEW_SECONDS = 10;
    /** How long after its last renewal the lease of a driver on another host lapses. */
    public static final int STALE_SECONDS = 120;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CheckpointLease.class);
    private static final CheckpointLease NONE = new CheckpointLease(null, null, null, null);

    private final FileSystem fs;
    private final Path file;
    private final String holder;
    private final ScheduledExecutorService renewal;

    private CheckpointLease(FileSystem fs, Path file, String holder, ScheduledExecutorService renewal) {
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
     * {@link #close}. A lease held on another host is watched until it lapses or its holder renews it, which shows
     * it alive.
     *
     * @throws InvalidInputException if another run holds it
     */
    public static CheckpointLease take(String location, Configuration conf) {
        return take(location, conf, RENEW_SECONDS, STALE_SECONDS);
    }

    static CheckpointLease take(String location, Configuration conf, long renewSeconds, long staleSeconds) {
        try {
            Path path = UserPaths.path("--checkpoint", location);
            FileSystem fs = path.getFileSystem(conf);
            Path file = new Path(fs.makeQualified(path), NAME);
            String holder = Holder.current().line();
            long firstSeen = -1;
            while (!create(fs, file, holder)) {
                FileStatus status;
                Holder other;
                try {
                    status = fs.getFileStatus(file);
                    other = Holder.parse(read(fs, file));
                } catch (FileNotFoundException e) {
                    continue; // released meanwhile
                }
                long idleMillis = System.currentTimeMillis() - status.getModificationTime();
                boolean renewedSince = firstSeen >= 0 && status.getModificationTime() != firstSeen;
                if (other.alive() || renewedSince) {
                    throw new InvalidInputException("--checkpoint '" + location + "' is in use by another run ("
                            + other.describe() + ", lease renewed " + Math.max(0, idleMillis / 1000) + " s ago); "
                            + "wait for it to end, or stop it");
                }
                if (other.local() || idleMillis >= staleSeconds * 1000) {
                    fs.delete(file, false); // its process has ended, or it lapsed
                    continue;
                }
                if (firstSeen < 0) {
                    firstSeen = status.getModificationTime();
                    LOG.warn("--checkpoint '{}' is leased to {}, renewed {} s ago; waiting until it lapses ({} s "
                            + "after its last renewal) or is renewed (its run is alive)", location, other.describe(),
                            idleMillis / 1000, staleSeconds);
                }
                Thread.sleep(Math.min(1000, staleSeconds * 1000 - idleMillis));
            }
            ScheduledExecutorService renewal = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sparkmc-checkpoint-lease");
                t.setDaemon(true);
                return t;
            });
            CheckpointLease lease = new CheckpointLease(fs, file, holder, renewal);
            renewal.scheduleWithFixedDelay(lease::renew, renewSeconds, renewSeconds, TimeUnit.SECONDS);
            return lease;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take the lease of checkpoint directory " + location, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the lease of " + location, e);
        }
    }

    /** Renews the lease: its modification time, or (a store that cannot set times) the file written anew. */
    private void renew() {
        try {
            try {
                fs.setTimes(file, System.currentTimeMillis(), -1);
            } catch (UnsupportedOperationException e) {
                write(fs, file, holder, true);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not renew the lease {}: {}", file, e.toString());
        }
    }

    /** Stops the renewal and deletes the lease, if it is still this run's. */
    @Override
    public void close() {
        if (file == null) {
            return;
        }
        renewal.shutdownNow();
        try {
            if (fs.exists(file) && holder.equals(read(fs, file))) {
                fs.delete(file, false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the lease " + file, e);
        }
    }

    private static boolean create(FileSystem fs, Path file, String holder) throws IOException {
        try {
            write(fs, file, holder, false);
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

    private static void write(FileSystem fs, Path file, String holder, boolean overwrite) throws IOException {
        try (OutputStream out = fs.create(file, overwrite)) {
            out.write(holder.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String read(FileSystem fs, Path file) throws IOException {
        try (InputStream in = fs.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Who holds a lease: the driver's host, process id and the process's start (epoch milliseconds, 0 unknown). */
    record Holder(String host, long pid, long started) {
        static Holder current() {
            ProcessHandle self = ProcessHandle.current();
            return new Holder(hostName(), self.pid(), startOf(self));
        }

        /** Parses {@link #line}; an unreadable lease names no process and lapses like a remote one. */
        static Holder parse(String line) {
            String[] parts = line.trim().split(" ");
            try {
                return new Holder(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]));
            } catch (RuntimeException e) {
                return new Holder("?", -1, 0);
            }
        }

        String line() {
            return host + " " + pid + " " + started;
        }

        String describe() {
            return "process " + pid + " on " + host + (started > 0 ? ", started " + Instant.ofEpochMilli(started)
                    : "");
        }

        /** Whether the holder runs on this host, where its process can be asked after. */
        boolean local() {
            return host.equals(hostName()) && pid > 0;
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
