package org.sparkmc.spark.io;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Instant;
import java.util.Optional;

/**
 * Who holds a {@link CheckpointLease}, as its file names it: the driver's host, the machine's boot, the process
 * namespace and the user ("-" where unknown: then the holder is never taken for this machine's), the process id and
 * its start (epoch milliseconds, 0 unknown); and what this machine can tell of that process.
 */
record LeaseHolder(String host, String boot, String pidSpace, long pid, long started, String user) {
    /** What this machine can tell of a lease holder's process. */
    enum Liveness { ENDED, RUNNING, UNKNOWN }

    private static final LeaseHolder SELF = current(ProcessHandle.current());

    static LeaseHolder current() {
        return SELF;
    }

    private static LeaseHolder current(ProcessHandle self) {
        return new LeaseHolder(hostName(), linuxId("/proc/sys/kernel/random/boot_id", false),
                linuxId("/proc/self/ns/pid", true), self.pid(), startOf(self), userId());
    }

    /** Parses {@link #line}; anything else names no process and is watched like a remote holder. */
    static LeaseHolder parse(String line) {
        String[] parts = line.trim().split(" ");
        try {
            return new LeaseHolder(parts[0], parts[1], parts[2], Long.parseLong(parts[3]), Long.parseLong(parts[4]),
                    parts[6]);
        } catch (RuntimeException e) {
            return new LeaseHolder("?", "-", "-", -1, 0, "-");
        }
    }

    /** The lease's content after {@code renewals} renewals; the newline marks it whole. */
    String line(long renewals) {
        return host + " " + boot + " " + pidSpace + " " + pid + " " + started + " " + renewals + " " + user
                + "\n";
    }

    String describe() {
        return "process " + pid + " on " + host + (sameMachine() ? " (this machine)" : "")
                + (started > 0 ? ", started " + Instant.ofEpochMilli(started) : "");
    }

    /**
     * Whether the holder's process can be asked after here: the same host, boot, process namespace and user (a
     * {@code /proc} that hides other users' processes would show another's live run as ended).
     */
    boolean sameMachine() {
        return host.equals(SELF.host) && boot.equals(SELF.boot) && pidSpace.equals(SELF.pidSpace)
                && user.equals(SELF.user) && !boot.equals("-") && !pidSpace.equals("-") && !user.equals("-")
                && pid > 0;
    }

    /** The same holder, whatever its renewal count. */
    boolean sameHolder(LeaseHolder other) {
        return host.equals(other.host) && boot.equals(other.boot) && pidSpace.equals(other.pidSpace)
                && pid == other.pid && started == other.started && user.equals(other.user);
    }

    /**
     * On this machine: whether the process has ended or runs with the recorded start; UNKNOWN if its id is held
     * by a process whose start differs (a later process, or a clock step between the two reads), and then the
     * lease is watched, not taken over at once.
     */
    Liveness liveness() {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return Liveness.ENDED;
        }
        long start = startOf(process.get());
        return started == 0 || start == 0 || start == started ? Liveness.RUNNING : Liveness.UNKNOWN;
    }

    private static long startOf(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    /** A Linux identifier without spaces (a file's first line, or a link's target's digits), or "-". */
    private static String linuxId(String path, boolean link) {
        try {
            java.nio.file.Path p = java.nio.file.Path.of(path);
            String id = link ? Files.readSymbolicLink(p).toString().replaceAll("\\D", "")
                    : Files.readAllLines(p).get(0).trim();
            return id.isEmpty() || id.contains(" ") ? "-" : id;
        } catch (IOException | RuntimeException e) {
            return "-";
        }
    }

    /** The process's Unix user id, or "-". */
    private static String userId() {
        try {
            return String.valueOf(Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return "-";
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName().replace(' ', '_');
        } catch (IOException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
    }
}
