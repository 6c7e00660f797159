package org.sparkmc.spark.lda;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.spark.io.CheckpointStates;
import org.sparkmc.spark.sync.JavaFrames;
import scala.Tuple2;

/**
 * An {@code lda} run's checkpoint directory: {@code topics-<sweep>.parquet} (every block's topic assignment, written
 * by the executors), {@code samples/counts-<sweep>.bin} (the global counts of each state averaged into the reported
 * topics so far, with {@code --topic-samples}) and {@code state-<sweep>.json} (the sweeps done, the log-likelihood
 * history, each block's SHA-256 of its topics and each sample's), whose own SHA-256 ends the file. Random streams
 * need no saving: sweep s of block b always draws from the stream keyed by (seed, s, b), and the global counts are
 * rebuilt from the topics.
 *
 * <p>The topics are written under a temporary name and renamed before the state that refers to them; the newest
 * state is verified on load, and so is every block's topics against it — a corrupt checkpoint is reported, never used.
 */
final class LdaCheckpoint {
    private static final StructType SCHEMA = new StructType().add("block", DataTypes.IntegerType, false)
            .add("topics", DataTypes.BinaryType, false).add("sha256", DataTypes.StringType, false);

    /** What Spark names the directory of one context's RDD checkpoints. */
    private static final String SPARK_CHECKPOINT_DIR = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    /** What Spark names one RDD's checkpoint in that directory. */
    private static final String SPARK_CHECKPOINT = "rdd-\\d+";
    /** Topics written under their temporary name ({@link #save}). */
    private static final String TOPICS_TMP = "\\.topics-\\d{5,}\\.parquet\\.tmp";

    private final CheckpointStates states;

    /**
     * A saved state: the sweeps done, the log-likelihood rows so far, each block's checksum, and the checksums of the
     * topic samples saved so far (sweep → SHA-256 of {@code samples/counts-<sweep>.bin}).
     */
    record Saved(int sweeps, List<LoglikRow> history, Map<Integer, String> blockChecksums,
            Map<Integer, String> sampleChecksums) {
    }

    LdaCheckpoint(String location, Configuration conf) {
        this.states = new CheckpointStates(location, conf);
    }

    /** Where the Spark RDD checkpoints of the cached blocks go (reliable ones survive a lost executor). */
    String rddDirectory() {
        return new Path(states.dir(), "rdd").toString();
    }

    /**
     * On {@code --resume}, deletes what the run being resumed left here and nothing reads once it is dead: its
     * lineage cuts, Spark's {@code rdd/<uuid>} directories (each a full copy of the blocks' topics when it holds a cut;
     * a run deletes its last cut when it ends) holding nothing but Spark's {@code rdd-N} checkpoints, and topics half
     * written under their temporary name. A checkpoint directory serves one run at a time. Call before this run's
     * Spark context makes its own directory under {@link #rddDirectory}. Returns how many it deleted.
     */
    int deleteLeftovers() {
        FileSystem fs = states.fileSystem();
        int deleted = 0;
        try {
            List<Path> leftovers = new ArrayList<>();
            Path rdd = new Path(rddDirectory());
            if (fs.exists(rdd)) {
                for (FileStatus f : fs.listStatus(rdd, p -> p.getName().matches(SPARK_CHECKPOINT_DIR))) {
                    if (f.isDirectory() && Arrays.stream(fs.listStatus(f.getPath()))
                            .allMatch(c -> c.getPath().getName().matches(SPARK_CHECKPOINT))) {
                        leftovers.add(f.getPath());
                    }
                }
            }
            for (FileStatus f : fs.listStatus(states.dir(), p -> p.getName().matches(TOPICS_TMP))) {
                leftovers.add(f.getPath());
            }
            for (Path p : leftovers) {
                if (fs.delete(p, true)) {
                    deleted++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete an earlier run's leftovers in " + states.dir(), e);
        }
        return deleted;
    }

    void save(SparkSession spark, String fingerprint, LdaRun run, List<LoglikRow> history,
            Map<Integer, String> sampleChecksums) {
        states.checkHeld(); // before Spark writes the topics there
        int sweep = run.sweepsDone();
        FileSystem fs = states.fileSystem();
        Path topics = topicsPath(sweep);
        Path tmp = new Path(states.dir(), String.format(".topics-%05d.parquet.tmp", sweep));
        try {
            fs.delete(tmp, true);
            spark.sparkContext().setJobDescription("lda: checkpoint after sweep " + sweep);
            spark.createDataFrame(run.blocks().map(b -> {
                byte[] bytes = bytes(b.topics());
                return RowFactory.create(b.id(), bytes, CheckpointStates.sha256(bytes));
            }), SCHEMA).write().parquet(tmp.toString());
            states.replace(tmp, topics);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint in " + states.dir(), e);
        }
        Map<Integer, String> sums = new TreeMap<>();
        for (Row r : spark.read().parquet(topics.toString()).select("block", "sha256").collectAsList()) {
            sums.put(r.getInt(0), r.getString(1));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("fingerprint", fingerprint);
        doc.put("sweeps", sweep);
        doc.put("topics", topics.getName());
        doc.put("block_sha256", sums);
        doc.put("history", history);
        doc.put("topic_samples", new TreeMap<>(sampleChecksums));
        states.save(sweep, doc);
        try {
            for (FileStatus old : fs.listStatus(states.dir(), f -> f.getName().matches("topics-\\d+\\.parquet"))) {
                if (!old.getPath().getName().equals(topics.getName())) {
                    fs.delete(old.getPath(), true);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete old topics in " + states.dir(), e);
        }
    }

    /**
     * Before Spark starts, on {@code --resume}: the newest state checked against the settings known before the corpus
     * is read ({@link LdaConfig#settingsFingerprint}), and its topics there and Parquet (their footers read), so that
     * other settings, too few {@code --sweeps} or a damaged checkpoint are refused in a second, before the run reads
     * the corpus or touches the directory. The corpus is checked against the state once it is read ({@link #load}).
     */
    void checkBeforeSpark(LdaConfig config) {
        JsonNode doc = states.loadNewestComparing(config.settingsFingerprint());
        if (doc == null) {
            return;
        }
        states.checkParquetData(new Path(states.dir(), doc.path("topics").asText()), "topics");
        checkSweeps(doc.path("sweeps").asInt(), config.sweeps());
    }

    /** Refuses to resume a checkpoint after {@code saved} sweeps with fewer {@code --sweeps} in all. */
    void checkSweeps(int saved, int sweeps) {
        if (saved > sweeps) {
            throw new InvalidInputException("checkpoint in " + states.dir() + " is after sweep " + saved
                    + ": --sweeps must be at least " + saved + " to resume it, is " + sweeps);
        }
    }

    /** The newest saved state, verified; null when the directory holds none. */
    Saved load(String expectedFingerprint) {
        JsonNode doc = states.loadNewest(expectedFingerprint);
        if (doc == null) {
            return null;
        }
        try {
            Map<Integer, String> sums = new TreeMap<>();
            doc.get("block_sha256").fields().forEachRemaining(e -> sums.put(Integer.parseInt(e.getKey()),
                    e.getValue().asText()));
            List<LoglikRow> history = new ArrayList<>();
            for (JsonNode h : doc.get("history")) {
                history.add(CheckpointStates.JSON.treeToValue(h, LoglikRow.class));
            }
            Map<Integer, String> samples = new TreeMap<>();
            if (doc.has("topic_samples")) {
                doc.get("topic_samples").fields().forEachRemaining(e -> samples.put(Integer.parseInt(e.getKey()),
                        e.getValue().asText()));
            }
            return new Saved(doc.get("sweeps").asInt(), history, sums, samples);
        } catch (IOException | RuntimeException e) {
            throw new InvalidInputException("checkpoint in " + states.dir() + " has an unreadable state ("
                    + e.getMessage() + "); remove the checkpoint directory to start over", e);
        }
    }

    /** The saved blocks' topics, each verified against the state's checksum. */
    JavaPairRDD<Integer, char[]> topics(SparkSession spark, Saved saved) {
        String location = topicsPath(saved.sweeps()).toString();
        JavaPairRDD<Integer, char[]> topics;
        List<Tuple2<Integer, String>> sums;
        try {
            topics = spark.read().parquet(location).javaRDD()
                    .mapToPair(r -> new Tuple2<>(r.getInt(0), chars((byte[]) r.get(1))));
            sums = spark.read().parquet(location).javaRDD()
                    .map(r -> new Tuple2<>(r.getInt(0), CheckpointStates.sha256((byte[]) r.get(1)))).collect();
        } catch (Exception e) { // SparkException is checked in Scala's sense only: it arrives undeclared
            CheckpointStates.rethrowUnlessDamaged(e);
            throw CheckpointStates.unreadable("topics", location, e);
        }
        Map<Integer, String> found = new TreeMap<>();
        sums.forEach(t -> found.put(t._1(), t._2()));
        if (!found.equals(saved.blockChecksums())) {
            throw new InvalidInputException("checkpoint " + location + " is corrupt: its blocks' topics do not match "
                    + "the SHA-256 sums in its state file; remove the checkpoint directory to start over");
        }
        return topics;
    }

    /**
     * Saves the global counts after {@code sweep} sweeps, one of the states averaged into the reported topics, as
     * {@code samples/counts-<sweep>.bin} (written under a temporary name, then renamed); returns its SHA-256 for the
     * next state file.
     */
    String saveSample(int sweep, TopicWordCounts counts) {
        byte[] bytes = JavaFrames.encode(counts);
        try {
            return states.writeFile(sampleName(sweep), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write topic sample " + sampleName(sweep) + " in " + states.dir(), e);
        }
    }

    /** The topic sample saved after {@code sweep} sweeps, verified against {@code sha256}. */
    TopicWordCounts loadSample(int sweep, String sha256) {
        Path path = new Path(states.dir(), sampleName(sweep));
        byte[] bytes;
        try {
            bytes = states.readFile(sampleName(sweep));
        } catch (IOException e) {
            throw CheckpointStates.unreadable("topic sample", path, e);
        }
        if (!CheckpointStates.sha256(bytes).equals(sha256)) {
            throw new InvalidInputException("checkpoint topic sample " + path + " is corrupt: it does not match the "
                    + "SHA-256 in its state file; remove the checkpoint directory to start over");
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            in.setObjectInputFilter(info -> info.serialClass() == null || info.serialClass() == TopicWordCounts.class
                    || info.serialClass().isArray() && info.serialClass().getComponentType().isPrimitive()
                    ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED);
            return (TopicWordCounts) in.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new InvalidInputException("checkpoint topic sample " + path + " cannot be decoded (" + e
                    + "); remove the checkpoint directory to start over", e);
        }
    }

    private static String sampleName(int sweep) {
        return String.format("samples/counts-%05d.bin", sweep);
    }

    private Path topicsPath(int sweep) {
        return new Path(states.dir(), String.format("topics-%05d.parquet", sweep));
    }

    static byte[] bytes(char[] topics) {
        byte[] out = new byte[topics.length * 2];
        for (int i = 0; i < topics.length; i++) {
            out[2 * i] = (byte) (topics[i] >>> 8);
            out[2 * i + 1] = (byte) topics[i];
        }
        return out;
    }

    static char[] chars(byte[] bytes) {
        char[] out = new char[bytes.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (char) (((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff));
        }
        return out;
    }
}
