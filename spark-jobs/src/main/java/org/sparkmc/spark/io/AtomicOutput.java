package org.sparkmc.spark.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * An output directory committed all at once through Hadoop's FileSystem (file://, hdfs://, s3a://): everything is
 * written under a hidden temporary directory beside the target, which is renamed into place at the end, and
 * {@code _SUCCESS} is written last. An existing target is refused unless overwriting was asked for; then it is
 * moved aside, replaced, and only then deleted, so it is never half-overwritten (and is moved back if the staged
 * output cannot be moved into place). A failed job leaves nothing at the target (call {@link #abort()}).
 */
public final class AtomicOutput {
    public static final String SUCCESS = "_SUCCESS";

    private final FileSystem fs;
    private final Path target;
    private final Path staging;
    private final boolean overwrite;

    private AtomicOutput(FileSystem fs, Path target, boolean overwrite) {
        this.fs = fs;
        this.target = target;
        this.overwrite = overwrite;
        this.staging = new Path(target.getParent(), "." + target.getName() + ".sparkmc-tmp-" + UUID.randomUUID());
    }

    /**
     * Checks the target before any work is done: it must not exist unless {@code overwrite}, and a directory must be
     * creatable beside it (the staging directory is created, with any missing parents, and removed again), so an
     * unwritable location fails now rather than after the run.
     *
     * @throws InvalidInputException if the target exists and overwriting was not asked for, or nothing can be
     *         created where it goes
     */
    public static AtomicOutput open(String location, boolean overwrite, Configuration hadoopConf) {
        try {
            Path path = new Path(location);
            FileSystem fs = path.getFileSystem(hadoopConf);
            Path target = fs.makeQualified(path);
            if (target.getParent() == null) {
                throw new InvalidInputException("output '" + location + "' cannot be the root of a file system");
            }
            if (fs.exists(target) && !overwrite) {
                throw new InvalidInputException("output '" + target + "' already exists; choose another --out or "
                        + "pass --overwrite to replace it");
            }
            AtomicOutput output = new AtomicOutput(fs, target, overwrite);
            output.probeWritable(location);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot inspect output location '" + location + "'", e);
        }
    }

    /**
     * Creates the staging directory (and the target's missing parents) and removes them again, so nothing is left
     * behind if the caller fails before its run starts; the writers and {@link #commit()} create them again.
     */
    private void probeWritable(String location) throws IOException {
        Path created = staging; // the highest directory the probe creates
        for (Path p = staging.getParent(); p != null && !fs.exists(p); p = p.getParent()) {
            created = p;
        }
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
        fs.delete(created, true);
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + name + " under " + staging, e);
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + stagedPath, e);
        }
    }

    /** Moves the staged output into place and writes {@code _SUCCESS} last. */
    public void commit() {
        try {
            fs.mkdirs(staging);
            Path aside = null;
            if (fs.exists(target)) {
                if (!overwrite) {
                    throw new InvalidInputException("output '" + target + "' appeared while the job ran; "
                            + "nothing was written there (pass --overwrite to replace it)");
                }
                aside = new Path(target.getParent(), "." + target.getName() + ".sparkmc-old-" + UUID.randomUUID());
                rename(target, aside);
            }
            try {
                rename(staging, target);
            } catch (IOException | RuntimeException e) {
                if (aside != null) {
                    putBack(aside, e);
                }
                throw e;
            }
            fs.create(new Path(target, SUCCESS), true).close();
            if (aside != null) {
                fs.delete(aside, true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot commit output to " + target, e);
        }
    }

    /** Removes whatever was staged; the target is untouched. */
    public void abort() {
        try {
            fs.delete(staging, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove staged output " + staging, e);
        }
    }

    /**
     * After the staged output could not be moved into place, moves the old output set aside back to the target; if
     * that fails too, {@code failure} says where the old output is.
     */
    private void putBack(Path aside, Exception failure) {
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
