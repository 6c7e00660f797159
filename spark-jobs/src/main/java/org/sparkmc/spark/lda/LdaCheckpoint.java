package org.sparkmc.spark.lda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import scala.Tuple2;

/**
 * An {@code lda} run's checkpoint directory: {@code topics-<sweep>.parquet} (every block's topic assignment, written
 * by the executors) and {@code state-<sweep>.json} (the sweeps done, the log-likelihood history, and each block's
 * SHA-256 of its topics), whose own SHA-256 ends the file. Random streams need no saving: sweep s of block b always
 * draws from the stream keyed by (seed, s, b), and the global counts are rebuilt from the topics.
 *
 * <p>The topics are written under a temporary name and renamed before the state that refers to them; the newest
 * state is verified on load, and so is every block's topics against it — a corrupt checkpoint is reported, never used.
 */
final class LdaCheckpoint {
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    private static final String CHECKSUM = "\n#sha256:";
    private static final StructType SCHEMA = new StructType().add("block", DataTypes.IntegerType, false)
            .add("topics", DataTypes.BinaryType, false).add("sha256", DataTypes.StringType, false);

    private final FileSystem fs;
    private final Path dir;

    /** A saved state: the sweeps done, the log-likelihood rows so far, and each block's checksum. */
    record Saved(int sweeps, List<LoglikRow> history, Map<Integer, String> blockChecksums) {
    }

    LdaCheckpoint(String location, Configuration conf) {
        try {
            Path path = new Path(location);
            this.fs = path.getFileSystem(conf);
            this.dir = fs.makeQualified(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open checkpoint directory " + location, e);
        }
    }

    /** Where the Spark RDD checkpoints of the cached blocks go (reliable ones survive a lost executor). */
    String rddDirectory() {
        return new Path(dir, "rdd").toString();
    }

    void save(SparkSession spark, String fingerprint, AdLdaSpark run, List<LoglikRow> history) {
        int sweep = run.sweepsDone();
        Path topics = new Path(dir, String.format("topics-%05d.parquet", sweep));
        Path tmp = new Path(dir, String.format(".topics-%05d.parquet.tmp", sweep));
        try {
            fs.delete(tmp, true);
            spark.sparkContext().setJobDescription("lda: checkpoint after sweep " + sweep);
            spark.createDataFrame(run.blocks().map(b -> {
                byte[] bytes = bytes(b.topics());
                return RowFactory.create(b.id(), bytes, sha256(bytes));
            }), SCHEMA).write().parquet(tmp.toString());
            fs.delete(topics, true);
            if (!fs.rename(tmp, topics)) {
                throw new IOException("rename " + tmp + " -> " + topics + " failed");
            }
            Map<Integer, String> sums = new LinkedHashMap<>();
            for (Row r : spark.read().parquet(topics.toString()).select("block", "sha256").collectAsList()) {
                sums.put(r.getInt(0), r.getString(1));
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("fingerprint", fingerprint);
            doc.put("sweeps", sweep);
            doc.put("topics", topics.getName());
            doc.put("block_sha256", new java.util.TreeMap<>(sums));
            doc.put("history", history);
            String body = JSON.writeValueAsString(doc);
            Path stateTmp = new Path(dir, ".state-" + sweep + ".json.tmp");
            try (OutputStream out = fs.create(stateTmp, true)) {
                out.write((body + CHECKSUM + sha256(body.getBytes(StandardCharsets.UTF_8)) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            Path state = new Path(dir, String.format("state-%05d.json", sweep));
            fs.delete(state, false);
            if (!fs.rename(stateTmp, state)) {
                throw new IOException("rename " + stateTmp + " -> " + state + " failed");
            }
            for (FileStatus old : fs.listStatus(dir, p -> p.getName().matches("(state|topics)-\\d+\\..*"))) {
                if (!old.getPath().getName().equals(state.getName())
                        && !old.getPath().getName().equals(topics.getName())) {
                    fs.delete(old.getPath(), true);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint in " + dir, e);
        }
    }

    /** The newest saved state, verified; null when the directory holds none. */
    Saved load(String expectedFingerprint) {
        try {
            if (!fs.exists(dir)) {
                return null;
            }
            FileStatus newest = null;
            for (FileStatus f : fs.listStatus(dir, p -> p.getName().matches("state-\\d+\\.json"))) {
                if (newest == null || f.getPath().getName().compareTo(newest.getPath().getName()) > 0) {
                    newest = f;
                }
            }
            if (newest == null) {
                return null;
            }
            String content;
            try (InputStream in = fs.open(newest.getPath())) {
                content = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            int mark = content.lastIndexOf(CHECKSUM);
            String body = mark < 0 ? content : content.substring(0, mark);
            String sum = mark < 0 ? "" : content.substring(mark + CHECKSUM.length()).trim();
            if (!sum.equals(sha256(body.getBytes(StandardCharsets.UTF_8)))) {
                throw new InvalidInputException("checkpoint " + newest.getPath() + " is corrupt (its SHA-256 does not "
                        + "match its content); remove the checkpoint directory to start over");
            }
            JsonNode doc = JSON.readTree(body);
            String fingerprint = doc.get("fingerprint").asText();
            if (!fingerprint.equals(expectedFingerprint)) {
                throw new InvalidInputException("checkpoint " + dir + " was made by a run with other settings ("
                        + fingerprint + "); --resume needs the same settings (" + expectedFingerprint + ")");
            }
            Map<Integer, String> sums = new LinkedHashMap<>();
            doc.get("block_sha256").fields().forEachRemaining(e -> sums.put(Integer.parseInt(e.getKey()),
                    e.getValue().asText()));
            List<LoglikRow> history = new ArrayList<>();
            for (JsonNode h : doc.get("history")) {
                history.add(JSON.treeToValue(h, LoglikRow.class));
            }
            return new Saved(doc.get("sweeps").asInt(), history, sums);
        } catch (org.apache.hadoop.fs.ChecksumException e) {
            throw new InvalidInputException("checkpoint in " + dir + " is corrupt (the file system's checksum does not "
                    + "match); remove the checkpoint directory to start over", e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read checkpoint in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The saved blocks' topics, each verified against the state's checksum. */
    JavaPairRDD<Integer, char[]> topics(SparkSession spark, Saved saved) {
        String location = new Path(dir, String.format("topics-%05d.parquet", saved.sweeps())).toString();
        JavaPairRDD<Integer, char[]> topics;
        List<Tuple2<Integer, String>> sums;
        try {
            topics = spark.read().parquet(location).javaRDD()
                    .mapToPair(r -> new Tuple2<>(r.getInt(0), chars((byte[]) r.get(1))));
            sums = spark.read().parquet(location).javaRDD()
                    .map(r -> new Tuple2<>(r.getInt(0), sha256((byte[]) r.get(1)))).collect();
        } catch (Exception e) { // SparkException is checked in Scala's sense only: it arrives undeclared
            throw new InvalidInputException("checkpoint " + location + " cannot be read (" + e.getMessage()
                    + "); remove the checkpoint directory to start over", e);
        }
        Map<Integer, String> found = new LinkedHashMap<>();
        sums.forEach(t -> found.put(t._1(), t._2()));
        if (!found.equals(saved.blockChecksums())) {
            throw new InvalidInputException("checkpoint " + location + " is corrupt: its blocks' topics do not match "
                    + "the SHA-256 sums in its state file; remove the checkpoint directory to start over");
        }
        return topics;
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

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
