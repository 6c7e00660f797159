package org.sparkmc.spark.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * Hadoop paths from the locations a user gives on the command line or in a config file, for every job. A location
 * with a scheme ({@code hdfs://…}, {@code file:/…}) is taken as a URI; any other is a path whose names may hold a
 * {@code :} ({@code out/a:b}), which Hadoop's {@code new Path(String)} would read as a scheme. A name with a
 * {@code :} found while listing a directory is beyond Hadoop's paths: {@link #unlistable} says so.
 */
public final class UserPaths {
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:/");

    private UserPaths() {
    }

    /**
     * The path {@code location} names.
     *
     * @param option the option that gave it, for the message
     * @throws InvalidInputException if Hadoop cannot hold it as a path (e.g. {@code hdfs://host:port} with a bad port)
     */
    public static Path path(String option, String location) {
        try {
            if (SCHEME.matcher(location).find()) {
                return new Path(location);
            }
            String first = location.split("/", 2)[0];
            return new Path(first.contains(":") ? "./" + location : location);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(option + " '" + location + "' is not a usable path: " + e.getMessage(), e);
        }
    }

    /**
     * Checks, before Spark starts, that {@code location} (given by {@code option}; null for none) is a directory or
     * does not exist yet, so a run does not fail on it halfway.
     *
     * @throws InvalidInputException if it is an existing file, or lies below one (it could not be made)
     * @throws UncheckedIOException if the file system fails (one for the path's scheme missing included)
     */
    public static void directoryOrAbsent(String option, String location, Configuration conf) {
        if (location == null) {
            return;
        }
        Path p = path(option, location);
        try {
            FileSystem fs = p.getFileSystem(conf);
            if (fs.exists(p) && !fs.getFileStatus(p).isDirectory()) {
                throw new InvalidInputException(option + " '" + location + "' is a file; give a directory");
            }
            Path q = p.getParent();
            while (q != null && !fs.exists(q)) {
                q = q.getParent();
            }
            if (q != null && !fs.getFileStatus(q).isDirectory()) { // Hadoop's ParentNotDirectoryException, at exit 1
                throw new InvalidInputException(option + " '" + location + "' cannot be made: " + q + " is a file, "
                        + "not a directory; give a directory");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot inspect " + option + " '" + location + "'", e);
        }
    }

    /**
     * Whether {@code p} is hidden from a directory's data files: its name starts with {@code _} or {@code .}
     * ({@code _SUCCESS}, {@code .part-0.crc}), as Hadoop's input formats and Spark leave such files out.
     */
    public static boolean hidden(Path p) {
        return p.getName().startsWith("_") || p.getName().startsWith(".");
    }

    /**
     * The refusal of the directory {@code dir}, a {@code what}, that holds the directory {@code name}: its files would
     * be left out without a word (Spark's and Hadoop's listings do not descend). {@code instead} says where they go.
     */
    public static InvalidInputException holdingADirectory(String what, Object dir, String name, String instead) {
        return new InvalidInputException(what + " " + dir + " holds a directory '" + name + "', whose files would be "
                + "left out; " + instead + " (names starting with _ or . are skipped)");
    }

    /** Whether {@code location} is a glob pattern: it holds {@code *}, {@code ?}, {@code [} or <code>{</code>. */
    public static boolean isPattern(String location) {
        return location.chars().anyMatch(c -> "*?[{".indexOf(c) >= 0);
    }

    /** The entry {@code name} of {@code dir}; the name may hold a {@code :} ({@code new Path(dir, "a:b")} fails). */
    public static Path child(Path dir, String name) {
        return new Path(dir, "./" + name);
    }

    /**
     * Bad input for Hadoop's refusal, while listing {@code location}, of a file or directory whose name holds a
     * {@code :}; null when {@code e} is not that refusal.
     */
    public static InvalidInputException unlistable(String option, String location, IllegalArgumentException e) {
        if (!(e.getCause() instanceof URISyntaxException u)) {
            return null;
        }
        return new InvalidInputException(option + " '" + location + "': Hadoop's file listing cannot hold the name '"
                + u.getInput() + "' (a ':' in a file or directory name met while listing or matching a pattern); "
                + "rename it, or name the file itself without a pattern", e);
    }
}
