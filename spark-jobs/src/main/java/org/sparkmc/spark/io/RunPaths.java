package org.sparkmc.spark.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobFilter;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * The paths of a run other than its output, which the output must keep clear of: the inputs it reads (an
 * {@code --overwrite} must never delete one) and its own working directories, such as the checkpoint, which must
 * lie apart from the output (neither inside the other). Neither the output nor a working directory may lie in a
 * directory the run reads, or hold an input. Each path comes with the option that named it, for the message.
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
        List<Named> dirs = new ArrayList<>(List.of(new Named("--out", target.toString())));
        dirs.addAll(apart);
        List<Path> paths = new ArrayList<>(List.of(target));
        for (Named dir : apart) {
            paths.add(qualified(dir.option(), dir.location(), conf));
        }
        // each pair: a run's own directories must not lie in one another (--lineage-dir in --checkpoint, say)
        for (int i = 0; i < dirs.size(); i++) {
            for (int j = i + 1; j < dirs.size(); j++) {
                Path a = paths.get(i);
                Path b = paths.get(j);
                if (a != null && b != null && (within(a, b) || within(b, a))) {
                    throw new InvalidInputException(dirs.get(j).option() + " '" + dirs.get(j).location() + "' and "
                            + dirs.get(i).option() + " '" + dirs.get(i).location() + "' overlap (" + (a.equals(b)
                            ? "the same directory" : within(b, a) ? "the first lies inside the second"
                            : "the second lies inside the first") + "); give them separate directories");
                }
            }
        }
    }

    /**
     * Refuses an output or working directory (--checkpoint, --lineage-dir) that is, or lies in, a directory the run
     * reads as a whole (a directory input), or that lies in the directory of a glob's match under a name the glob
     * matches ({@code --out nd/res.csv} beside {@code nd/*.csv}; {@code --out fixed} beside {@code fixed-*.csv} is
     * not read, and stays allowed), or that holds an input: the run would write into its own data (a checkpoint
     * saved among the observations, then read as one) or leave its files there. Inputs that are not there, or cannot
     * be looked at, are left to the read, which refuses them itself.
     *
     * @throws InvalidInputException naming both
     */
    void checkClearOfInputs(Path target, Configuration conf) {
        List<Named> own = new ArrayList<>(List.of(new Named("--out", target.toString())));
        List<Path> ownPaths = new ArrayList<>(List.of(target));
        for (Named dir : apart) {
            Path p = qualified(dir.option(), dir.location(), conf);
            if (p != null) {
                own.add(dir);
                ownPaths.add(p);
            }
        }
        for (Named in : inputs) {
            for (FileStatus f : statuses(in, conf)) {
                Path p = f.getPath();
                boolean pattern = UserPaths.isPattern(in.location());
                Path region = f.isDirectory() ? p : pattern ? p.getParent() : null; // what the run lists
                String shown = in.option() + " '" + in.location() + "'" + (pattern ? " (" + p + ")" : "");
                for (int i = 0; i < own.size(); i++) {
                    Path mine = ownPaths.get(i);
                    String named = own.get(i).option() + " '" + own.get(i).location() + "'";
                    if (region != null && within(mine, region)
                            && (region.equals(p) || globbed(mine, region, in.option(), in.location()))) {
                        throw new InvalidInputException(named + (real(mine).equals(real(region)) ? " is " : " lies in ")
                                + (region.equals(p) ? shown + ", a directory the run reads"
                                        : "the directory of " + shown + ", which the run reads") + "; give "
                                + own.get(i).option() + " a place outside the run's inputs");
                    }
                    if (within(p, mine)) {
                        throw new InvalidInputException(shown + ", which the run reads, lies in " + named + "; give "
                                + own.get(i).option() + " a place apart from the run's inputs");
                    }
                }
            }
        }
    }

    /**
     * Whether the entry of {@code dir} that {@code mine} lies in has a name the last part of the glob
     * {@code location} matches: a later read of the glob would take it (one that cannot be told is taken as matched).
     */
    private static boolean globbed(Path mine, Path dir, String option, String location) {
        Path d = real(dir);
        for (Path q = real(mine); q != null && q.getParent() != null; q = q.getParent()) {
            if (q.getParent().equals(d)) {
                try {
                    return new GlobFilter(UserPaths.path(option, location).getName()).accept(q);
                } catch (IOException | RuntimeException e) {
                    return true;
                }
            }
        }
        return false; // the directory itself: an input lies in it, refused as such
    }

    /** The input's existing paths (its glob's matches), qualified; none when it cannot be looked at. */
    private static List<FileStatus> statuses(Named in, Configuration conf) {
        try {
            Path path = UserPaths.path(in.option(), in.location());
            FileSystem fs = path.getFileSystem(conf);
            if (!UserPaths.isPattern(in.location())) {
                Path q = fs.makeQualified(path);
                if (!fs.exists(q)) {
                    return List.of();
                }
                FileStatus f = fs.getFileStatus(q);
                f.setPath(q);
                return List.of(f);
            }
            FileStatus[] found = fs.globStatus(path);
            List<FileStatus> out = new ArrayList<>();
            if (found != null) {
                for (FileStatus f : found) {
                    f.setPath(fs.makeQualified(f.getPath()));
                    out.add(f);
                }
            }
            return out;
        } catch (IOException | RuntimeException e) { // reading it fails later, with its own message
            return List.of();
        }
    }

    /**
     * Refuses to replace an output that holds one of the run's inputs: a glob is expanded and each match checked,
     * and an input whose location cannot be made out is refused too (it might lie there).
     *
     * @throws InvalidInputException naming the input
     */
    void checkNoInputWithin(Path target, Configuration conf) {
        for (Named in : inputs) {
            for (Path p : matches(in, conf)) {
                if (within(p, target)) {
                    throw new InvalidInputException("--overwrite would delete the run's own input: " + in.option()
                            + " '" + in.location() + "' " + (UserPaths.isPattern(in.location()) ? "(" + p + ") " : "")
                            + "lies in --out '" + target + "'; choose another --out");
                }
            }
        }
    }

    /** The input's paths, qualified (its glob's matches); none when nothing matches (reading it fails later). */
    private static List<Path> matches(Named in, Configuration conf) {
        try {
            Path path = UserPaths.path(in.option(), in.location());
            FileSystem fs = path.getFileSystem(conf);
            if (!UserPaths.isPattern(in.location())) {
                return List.of(fs.makeQualified(path)); // no glob: Hadoop's globber fails on a name with ':'
            }
            FileStatus[] found = fs.globStatus(path);
            List<Path> out = new ArrayList<>();
            if (found != null) {
                for (FileStatus f : found) {
                    out.add(fs.makeQualified(f.getPath()));
                }
            }
            return out;
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidInputException("--overwrite cannot tell whether " + in.option() + " '" + in.location()
                    + "' lies in --out (" + e.getMessage() + "); choose another --out", e);
        }
    }

    /**
     * True when {@code inner} is {@code outer} or lies below it (same file system); local paths are compared with
     * their symbolic links resolved, so a link cannot hide an input or the working directory.
     */
    static boolean within(Path inner, Path outer) {
        Path real = real(outer);
        for (Path p = real(inner); p != null; p = p.getParent()) {
            if (p.equals(real)) {
                return true;
            }
        }
        return false;
    }

    /** A local path with the links of its nearest existing ancestor resolved; any other path as it is. */
    private static Path real(Path p) {
        if (!"file".equals(p.toUri().getScheme())) {
            return p;
        }
        java.nio.file.Path local = java.nio.file.Paths.get(p.toUri().getPath());
        java.nio.file.Path rest = local.getFileSystem().getPath("");
        for (java.nio.file.Path q = local; q != null; q = q.getParent()) {
            try {
                java.nio.file.Path resolved = q.toRealPath().resolve(rest);
                return new Path("file", null, resolved.toString());
            } catch (IOException | SecurityException e) {
                rest = rest.toString().isEmpty() ? q.getFileName() : q.getFileName().resolve(rest);
            }
        }
        return p;
    }

    /** The location qualified by its own file system; null if it is not a usable path. */
    private static Path qualified(String option, String location, Configuration conf) {
        try {
            Path p = UserPaths.path(option, location);
            return p.getFileSystem(conf).makeQualified(p);
        } catch (IOException | IllegalArgumentException e) {
            return null; // not a usable path: reading it fails later with its own message
        }
    }
}
