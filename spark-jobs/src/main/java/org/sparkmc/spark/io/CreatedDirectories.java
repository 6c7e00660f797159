package org.sparkmc.spark.io;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The directories a run creates with their missing parents ({@code mkdirs}), to remove again when the run leaves
 * them empty: only those that were missing when it started, deepest first, each only while empty, so a directory the
 * user (or another run) has begun to fill meanwhile stays.
 */
public final class CreatedDirectories {
    private CreatedDirectories() {
    }

    /** The highest of {@code dir} and its ancestors that does not exist yet; null when {@code dir} exists. */
    public static Path highestMissing(FileSystem fs, Path dir) throws IOException {
        Path created = null;
        for (Path p = dir; p != null && !fs.exists(p); p = p.getParent()) {
            created = p;
        }
        return created;
    }

    /**
     * Deletes {@code leaf} and its ancestors up to and including {@code top} ({@link #highestMissing} when the run
     * began; null: none), deepest first, stopping at the first that is not empty (one already gone is passed).
     * {@code leaf} must be {@code top} or lie below it; any other is left alone. A failure stops it quietly: the
     * directory was filled or removed meanwhile, and is not the run's to remove.
     */
    public static void removeEmpty(FileSystem fs, Path leaf, Path top) {
        if (top == null || !below(leaf, top)) {
            return;
        }
        for (Path p = leaf; p != null; p = p.getParent()) {
            try {
                if (fs.exists(p) && (fs.listStatus(p).length > 0 || !fs.delete(p, false)) || p.equals(top)) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                return;
            }
        }
    }

    private static boolean below(Path leaf, Path top) {
        for (Path p = leaf; p != null; p = p.getParent()) {
            if (p.equals(top)) {
                return true;
            }
        }
        return false;
    }
}
