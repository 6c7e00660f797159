package org.sparkmc.spark.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reliable RDD checkpoints a long run writes only to cut its lineage: once a newer one is written the older one
 * can never be read again, so it is deleted, and {@link #deleteLast} removes the last when the run ends. Spark keeps
 * every checkpoint file otherwise (unless {@code spark.cleaner.referenceTracking.cleanCheckpoints} is set), and each
 * holds the whole state. A file that cannot be deleted is logged, not fatal.
 */
public final class LineageCheckpoints {
    private static final Logger LOG = LoggerFactory.getLogger(LineageCheckpoints.class);

    private final Configuration hadoop;
    private final String what;
    private String last;

    /** @param what names the run in log lines (e.g. "lda") */
    public LineageCheckpoints(Configuration hadoop, String what) {
        this.hadoop = hadoop;
        this.what = what;
    }

    /**
     * Writes the checkpoint (reliable or local) marked on {@code rdd} once its job is done, if that job has not: Spark
     * writes marked checkpoints at the end of a synchronous job only, and a relayed stage's job is asynchronous
     * ({@code countAsync}). A job over the cached partitions does it. Until then the lineage is not cut: a lost
     * executor's partitions would be recomputed through barrier stages whose relays are closed and steps whose
     * broadcasts are destroyed. For an RDD marked with {@code checkpoint()} or {@code localCheckpoint()} only: on any
     * other the job is wasted.
     */
    public static void writeMarked(JavaRDD<?> rdd) {
        if (!rdd.isCheckpointed()) {
            rdd.count();
        }
    }

    /** Records {@code rdd}'s checkpoint, once it is written, and deletes the previous one. */
    public void written(JavaRDD<?> rdd) {
        String file = rdd.getCheckpointFile().orElse(null);
        if (file == null || file.equals(last)) {
            return;
        }
        delete(last);
        last = file;
    }

    /** Deletes the newest checkpoint: the run is over and nothing will recompute from it. */
    public void deleteLast() {
        delete(last);
        last = null;
    }

    /**
     * A run's {@code --lineage-dir} (null for none), to tidy when the run ends, successfully or not: Spark's
     * {@code setCheckpointDir} makes a {@code <uuid>} directory there (and the directory itself, with its missing
     * parents), and {@link #deleteLast} deletes only the checkpoints in it. {@link #close} removes this run's
     * {@code <uuid>} directory, then the directories the run created for it, each only if empty.
     */
    public static Directory directory(String lineageDir, Configuration conf) {
        if (lineageDir == null || lineageDir.isBlank()) {
            return new Directory(null, null, null);
        }
        try {
            Path p = UserPaths.path("--lineage-dir", lineageDir);
            org.apache.hadoop.fs.FileSystem fs = p.getFileSystem(conf);
            Path dir = fs.makeQualified(p);
            return new Directory(fs, dir, CreatedDirectories.highestMissing(fs, dir));
        } catch (IOException | RuntimeException e) { // refused elsewhere with its own message
            return new Directory(null, null, null);
        }
    }

    /** See {@link #directory}; {@code createdFrom} is the highest directory missing when the run began. */
    public record Directory(org.apache.hadoop.fs.FileSystem fs, Path dir, Path createdFrom) implements AutoCloseable {
        @Override
        public void close() {
            if (dir == null) {
                return;
            }
            try {
                scala.Option<String> uuid = org.apache.spark.sql.SparkSession.getDefaultSession().isDefined()
                        ? org.apache.spark.sql.SparkSession.getDefaultSession().get().sparkContext().getCheckpointDir()
                        : scala.Option.empty();
                if (uuid.isDefined() && dir.equals(new Path(uuid.get()).getParent())) { // this run's, not another's
                    CreatedDirectories.removeEmpty(fs, new Path(uuid.get()), new Path(uuid.get()));
                }
            } catch (RuntimeException e) {
                LOG.debug("lineage directory {}: {}", dir, e.toString());
            }
            CreatedDirectories.removeEmpty(fs, dir, createdFrom);
        }
    }

    private void delete(String file) {
        if (file == null) {
            return;
        }
        try {
            Path p = new Path(file);
            p.getFileSystem(hadoop).delete(p, true);
        } catch (IOException e) {
            LOG.warn("{}: cannot delete the superseded RDD checkpoint {}: {}", what, file, e.toString());
        }
    }
}
