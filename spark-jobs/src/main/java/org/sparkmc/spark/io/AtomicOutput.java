package org.sparkmc.spark.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ShutdownHookManager;
import org.sparkmc.core.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An output directory committed all at once through Hadoop's FileSystem (file://, hdfs://, s3a://): everything is
 * written under a hidden temporary directory beside the target, which is renamed into place at the end, and
 * {@code _SUCCESS} is written last, listing what the output holds. An existing target is refused unless
 * overwriting was asked for, and even then unless it is a sparkmc output holding nothing else ({@link OutputManifest}),
 * is neither the working directory nor one of its ancestors, and holds none of the run's inputs ({@link RunPaths});
 * a replaced output is moved aside, replaced, and only then deleted, so it is never half-overwritten (and is moved
 * back if the staged output cannot be moved into place). The commit checks that the rename really put the output
 * at the target (a directory that appeared there meanwhile would otherwise swallow it). Closing without a commit,
 * after any failure or on a JVM shutdown (SIGTERM), removes the staging directory, so a failed job leaves nothing.
 */
public final class AtomicOutput implements AutoCloseable {
    public static final String SUCCESS = OutputManifest.SUCCESS;
    private static final Logger LOG = LoggerFactory.getLogger(AtomicOutput.class);
    private static final String STAGING = ".sparkmc-tmp-";
    private static final String OLD = ".sparkmc-old-";

    private final FileSystem fs;
    private final Path target;
    private final Path staging;
    private final boolean overwrite;
    private final Runnable onShutdown = this::cleanUpAfterShutdown;
    /** The highest of the target's parents missing when the run began, which an uncommitted run removes if empty. */
    private Path createdParents;
    private Path aside;
    private boolean committed;
    private boolean closed;

    private AtomicOutput(FileSystem fs, Path target, boolean overwrite) {
        this.fs = fs;
        this.target = target;
        this.overwrite = overwrite;
        this.staging = sibling(STAGING);
    }

    /** {@link #open(String, boolean, Configuration, RunPaths)} for a run with no other paths to protect. */
    public static AtomicOutput open(String location, boolean overwrite, Configuration hadoopConf) {
        return open(location, overwrite, hadoopConf, RunPaths.none());
    }

    /**
     * Checks the target before any work is done: it must lie apart from the run's working directories; it must not
     * exist unless {@code overwrite}, and then it must be a replaceable sparkmc output; neither it nor a working
     * directory may lie in a directory the run reads, or hold an input ({@link RunPaths}); and a directory must be
     * creatable beside it (the staging directory is created, with any missing parents, and removed again), so an
     * unwritable location fails now rather than after the run. Staging directories that killed runs left beside the
     * target are named in a warning.
     *
     * @throws InvalidInputException if the target may not be written or replaced, saying why
     */
    public static AtomicOutput open(String location, boolean overwrite, Configuration hadoopConf, RunPaths paths) {
        try {
            Path path = UserPaths.path("--out", location);
            FileSystem fs = path.getFileSystem(hadoopConf);
            Path target = fs.makeQualified(path);
            if (target.getParent() == null) {
                throw new InvalidInputException("output '" + location + "' cannot be the root of a file system");
            }
            paths.checkApart(target, hadoopConf);
            checkNotADanglingLink(target);
            if (fs.exists(target)) {
                if (!overwrite) {
                    throw new InvalidInputException("output '" + target + "' already exists; choose another --out or "
                            + "pass --overwrite to replace it");
                }
                checkReplaceable(fs, target, paths, hadoopConf);
            }
            paths.checkClearOfInputs(target, hadoopConf);
            AtomicOutput output = new AtomicOutput(fs, target, overwrite);
            output.warnOfLeftovers();
            // Before the probe, which creates the staging directory for a moment.
            ShutdownHookManager.get().addShutdownHook(output.onShutdown, FileSystem.SHUTDOWN_HOOK_PRIORITY + 1);
            try {
                output.probeWritable(location);
            } catch (RuntimeException e) {
                output.close();
                throw e;
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot inspect output location '" + location + "'", e);
        }
    }

    /**
     * Refuses a local target that is a symbolic link to nothing: the file system calls it absent, but the run could
     * not rename its output into place there, and would fail only at the end.
     */
    private static void checkNotADanglingLink(Path target) {
        if (!"file".equals(target.toUri().getScheme())) {
            return;
        }
        java.nio.file.Path local = java.nio.file.Path.of(target.toUri());
        if (Files.isSymbolicLink(local) && !Files.exists(local)) {
            String to;
            try {
                to = Files.readSymbolicLink(local).toString();
            } catch (IOException e) {
                to = "?";
            }
            throw new InvalidInputException("output '" + target + "' is a symbolic link to '" + to + "', which does "
                    + "not exist; remove the link or choose another --out");
        }
    }

    /** Refuses to replace the working directory or an ancestor, a directory holding an input, or a foreign one. */
    private static void checkReplaceable(FileSystem fs, Path target, RunPaths paths, Configuration conf)
            throws IOException {
        if ("file".equals(target.toUri().getScheme())) {
            Path cwd = fs.makeQualified(new Path(System.getProperty("user.dir")));
            if (RunPaths.within(cwd, target)) {
                throw new InvalidInputException("--overwrite refuses to replace '" + target + "': it is the working "
                        + "directory or holds it; choose another --out");
            }
        }
        paths.checkNoInputWithin(target, conf);
        refuseUnlessReplaceable(fs, target, "; remove it yourself or choose another --out");
    }

    private static void refuseUnlessReplaceable(FileSystem fs, Path target, String advice) throws IOException {
        String why = OutputManifest.whyNotReplaceable(fs, target);
        if (why != null) {
            throw new InvalidInputException("--overwrite refuses to replace '" + target + "': " + why + advice);
        }
    }

    /**
     * Creates the staging directory (and the target's missing parents) and removes them again, so nothing is left
     * behind if the caller fails before its run starts; the writers and {@link #commit()} create them again.
     */
    private void probeWritable(String location) throws IOException {
        createdParents = CreatedDirectories.highestMissing(fs, staging.getParent());
        boolean made;
        try {
            made = fs.mkdirs(staging);
        } catch (IOException e) {
            // e.g. HDFS's AccessControlException, or (local) a file where a parent directory should be.
            String fileInTheWay = fileInTheWay(target.getParent());
            throw unwritable(location, fileInTheWay != null ? fileInTheWay : e.getMessage(), e);
        }
        if (!made) {
            String fileInTheWay = fileInTheWay(target.getParent());
            throw unwritable(location, fileInTheWay != null ? fileInTheWay : readOnly(target.getParent()), null);
        }
        // Each directory the probe made, deepest first, and only while empty: a parent another run (or the user)
        // has begun to fill meanwhile is left as it is.
        CreatedDirectories.removeEmpty(fs, staging, createdParents == null ? staging : createdParents);
    }

    private InvalidInputException unwritable(String location, String why, Throwable cause) {
        return new InvalidInputException("cannot write output '" + location + "': cannot create a directory in "
                + target.getParent() + " (" + why + "); choose another --out", cause);
    }

    /** "X is a file, not a directory" when the nearest existing ancestor of {@code dir} is a file, else null. */
    private String fileInTheWay(Path dir) throws IOException {
        Path p = nearestExisting(dir);
        return p != null && !fs.getFileStatus(p).isDirectory() ? p + " is a file, not a directory" : null;
    }

    /** Why a directory could not be created under an existing directory: it is read-only. */
    private String readOnly(Path dir) throws IOException {
        Path p = nearestExisting(dir);
        if (p == null) {
            return "no parent directory exists";
        }
        return "permission denied or read-only file system" + (p.equals(dir) ? "" : " at " + p);
    }

    private Path nearestExisting(Path dir) throws IOException {
        Path p = dir;
        while (p != null && !fs.exists(p)) {
            p = p.getParent();
        }
        return p;
    }

    /** The final location. */
    public Path target() {
        return target;
    }

    /** Where a part of the output is written before the commit (e.g. for Spark's own writers). */
    public String staged(String name) {
        return new Path(staging, name).toString();
    }

    /** Writes a small binary file (e.g. an image) into the staging directory. */
    public void writeBytes(String name, byte[] content) {
        try (OutputStream out = fs.create(new Path(staging, name), false)) {
            out.write(content);
        } catch (IOException | FSError e) {
            throw cannotWrite(new Path(staging, name).toString(), e);
        }
    }

    /** Writes a small text file into the staging directory. */
    public void writeText(String name, String content) {
        writeText(staged(name), content, fs.getConf());
    }

    /**
     * Writes a small text file at a path under the staging directory from any JVM (e.g. an executor). A file already
     * there is replaced: it can only be a failed earlier attempt of the same task, as the staging directory belongs
     * to this run.
     */
    public static void writeText(String stagedPath, String content, org.apache.hadoop.conf.Configuration conf) {
        Path path = new Path(stagedPath);
        try (OutputStream out = path.getFileSystem(conf).create(path, true)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        } catch (IOException | FSError e) {
            throw cannotWrite(stagedPath, e);
        }
    }

    /** The failure to write {@code path}, naming it (the local file system's FSError on a full disk names none). */
    private static UncheckedIOException cannotWrite(String path, Throwable e) {
        IOException cause = e instanceof IOException io ? io : e.getCause() instanceof IOException io ? io
                : new IOException(e);
        return new UncheckedIOException("cannot write " + path, cause);
    }

    /**
     * Moves the staged output into place and writes {@code _SUCCESS} last.
     *
     * @throws InvalidInputException if the target appeared while the job ran (without overwrite), is no longer
     *         replaceable, or appeared between the check and the rename; the staged output is kept for
     *         {@link #close()} to remove, and any other directory at the target is left as it is
     */
    public synchronized void commit() {
        try {
            fs.mkdirs(staging);
            List<String> entries = OutputManifest.entries(fs, staging);
            if (fs.exists(target)) {
                if (!overwrite) {
                    throw appeared();
                }
                refuseUnlessReplaceable(fs, target, " (it changed while the job ran); nothing was written there");
                aside = sibling(OLD);
                rename(target, aside);
            }
            try {
                rename(staging, target);
                Path swallowed = UserPaths.child(target, staging.getName());
                if (fs.exists(swallowed)) {
                    // Hadoop's rename moves a directory into an existing one: another run committed meanwhile.
                    rename(swallowed, staging);
                    throw appeared();
                }
                try {
                    OutputManifest.write(fs, target, entries);
                } catch (IOException | RuntimeException | Error e) {
                    rename(target, staging); // not committed after all: the old output goes back below
                    throw e;
                }
            } catch (IOException | RuntimeException | Error e) {
                if (aside != null) {
                    putBack(e);
                }
                throw e;
            }
            committed = true;
            removeShutdownHook();
            if (aside != null && !fs.delete(aside, true)) {
                LOG.warn("committed {}, but the previous output set aside at {} could not be deleted", target, aside);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot commit output to " + target, e);
        }
    }

    private InvalidInputException appeared() {
        return new InvalidInputException("output '" + target + "' appeared while the job ran; nothing was written "
                + "there" + (overwrite ? "" : " (pass --overwrite to replace it)"));
    }

    /** Removes whatever was staged, and the parents the run created if they are empty; the target is untouched. */
    private void abort() {
        try {
            fs.delete(staging, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove staged output " + staging, e);
        }
        CreatedDirectories.removeEmpty(fs, target.getParent(), createdParents);
    }

    /** Without a commit, removes the staged output (a failed run, whatever it threw, leaves nothing). */
    @Override
    public synchronized void close() {
        if (!committed && !closed) {
            closed = true;
            removeShutdownHook();
            abort();
        }
    }

    private void removeShutdownHook() {
        if (!ShutdownHookManager.get().isShutdownInProgress()) {
            ShutdownHookManager.get().removeShutdownHook(onShutdown);
        }
    }

    /**
     * On a JVM shutdown (SIGTERM) without a commit: an old output set aside goes back and the staging is removed,
     * also after {@link #close()}, as tasks still stopping may have written into it again. Holds the lock, so it
     * never runs in the middle of a commit.
     */
    private synchronized void cleanUpAfterShutdown() {
        if (committed) {
            return;
        }
        try {
            Path old = aside;
            if (old != null && fs.exists(old) && !fs.exists(target)) {
                fs.rename(old, target);
            }
            fs.delete(staging, true);
            CreatedDirectories.removeEmpty(fs, target.getParent(), createdParents);
            LOG.warn("shut down before the output was committed: removed the staged output {}", staging);
        } catch (IOException | RuntimeException e) {
            LOG.warn("shut down before the output was committed; cannot remove the staged output {}: {}", staging,
                    e.toString());
        }
    }

    /** Warns of staging or set-aside directories beside the target that runs killed outright left behind. */
    private void warnOfLeftovers() throws IOException {
        String prefix = "." + target.getName();
        if (!fs.exists(target.getParent())) {
            return;
        }
        FileStatus[] left = fs.listStatus(target.getParent(), p -> p.getName().startsWith(prefix + STAGING)
                || p.getName().startsWith(prefix + OLD));
        for (FileStatus f : left) {
            LOG.warn("{} was left by an earlier run that was killed (or is another run's, still going); "
                    + "remove it when no run writes {}", f.getPath(), target);
        }
    }

    private Path sibling(String infix) {
        return UserPaths.child(target.getParent(), "." + target.getName() + infix + UUID.randomUUID());
    }

    /**
     * After the staged output could not be moved into place, moves the old output set aside back to the target; if
     * that fails too, {@code failure} says where the old output is.
     */
    private void putBack(Throwable failure) {
        try {
            if (fs.exists(target)) {
                throw new IOException(target + " exists");
            }
            rename(aside, target);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(new IOException("the previous output could not be moved back; it is kept at "
                    + aside, e));
        }
    }

    private void rename(Path from, Path to) throws IOException {
        if (!fs.rename(from, to)) {
            throw new IOException("rename " + from + " -> " + to + " failed");
        }
    }
}
