package org.sparkmc.spark.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * The paths of a run other than its output, which the output must keep clear of: the inputs it reads (an
 * {@code --overwrite} must never delete one) and its own working directories, such as the checkpoint, which must
 * lie apart from the output (neither inside the other). Each path comes with the option that named it, for the
 * message.
 */
public final class RunPaths {
    private record Named(String option, String location) {
    }

    private final List<Named> inputs = new ArrayList<>();
    private final List<Named> apart = new ArrayList<>();

    /** No other paths. */
    public static RunPaths none() {
        return new RunPaths();
    }

    /** Adds an input read by the run (a file, a directory or a glob); null or blank is ignored. */
    public RunPaths input(String option, String location) {
        if (location != null && !location.isBlank()) {
            inputs.add(new Named(option, location));
        }
        return this;
    }

    /** Adds a directory of the run's own that must lie apart from the output; null or blank is ignored. */
    public RunPaths apart(String option, String location) {
        if (location != null && !location.isBlank()) {
            apart.add(new Named(option, location));
        }
        return this;
    }

    /**
     * Refuses an output that a working directory lies in, or that lies in one.
     *
     * @throws InvalidInputException naming both
     */
    void checkApart(Path target, Configuration conf) {
        for (Named dir : apart) {
            Path p = qualified(dir.location(), conf);
            if (p != null && (within(p, target) || within(target, p))) {
                throw new InvalidInputException(dir.option() + " '" + dir.location() + "' and --out '" + target
                        + "' overlap (" + (p.equals(target) ? "the same directory" : within(p, target)
                        ? "the first lies inside the output" : "the output lies inside the first")
                        + "); give them separate directories");
            }
        }
    }

    /**
     * Refuses to replace an output that holds one of the run's inputs.
     *
     * @throws InvalidInputException naming the input
     */
    void checkNoInputWithin(Path target, Configuration conf) {
        for (Named in : inputs) {
            Path p = qualified(in.location(), conf);
            if (p != null && within(p, target)) {
                throw new InvalidInputException("--overwrite would delete the run's own input: " + in.option() + " '"
                        + in.location() + "' lies in --out '" + target + "'; choose another --out");
            }
        }
    }

    /** True when {@code inner} is {@code outer} or lies below it (same file system). */
    static boolean within(Path inner, Path outer) {
        for (Path p = inner; p != null; p = p.getParent()) {
            if (p.equals(outer)) {
                return true;
            }
        }
        return false;
    }

    /** The location qualified by its own file system, up to its first glob character; null if it names none. */
    private static Path qualified(String location, Configuration conf) {
        try {
            Path p = new Path(location);
            while (p != null && p.getName().matches(".*[*?\\[{].*")) {
                p = p.getParent();
            }
            return p == null ? null : p.getFileSystem(conf).makeQualified(p);
        } catch (IOException | IllegalArgumentException e) {
            return null; // not a usable path: reading it fails later with its own message
        }
    }
}
