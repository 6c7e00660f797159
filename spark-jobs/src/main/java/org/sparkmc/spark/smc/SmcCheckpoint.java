package org.sparkmc.spark.smc;

import static org.sparkmc.spark.io.CheckpointStates.doubles;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.smc.StepSummary;
import org.sparkmc.spark.io.CheckpointStates;
import org.sparkmc.spark.io.PlainParquet;

/**
 * An {@code smc} run's checkpoint directory: {@code state-<step>.json} (the driver's whole state after a step: log
 * p̂ so far, the log-sum the next step's weights start from, the resampling count, the newest row segment's name and
 * SHA-256, and the SHA-256 of each particle block) with its own SHA-256 in the last line; {@code rows/rows-<step>.json}
 * (the rows of the steps since the previous checkpoint — which also record the observations consumed — and the
 * previous segment's name and SHA-256, a chain back to the first); and {@code particles/step-<n>.parquet} (every
 * block's states and log-weights: columns block, states, log_weights). Each save writes only its own steps' rows.
 *
 * <p>Random generators need no saving: step n of block b always draws from the stream keyed by (seed, n, b), and
 * the resampling draw of step n from the stream keyed by (seed, n), so the particles after a step, the driver's
 * numbers and the seed determine everything that follows, and a resumed run is bit-identical to an uninterrupted
 * one. The particles are written under a temporary name and renamed before the state that refers to them is
 * written (atomically, {@link CheckpointStates}); on load the state's checksum and fingerprint are checked, and
 * each block read back must hash to the SHA-256 the state recorded: anything else is reported, never used.
 */
final class SmcCheckpoint {
    static final StructType SCHEMA = DataTypes.createStructType(List.of(
            DataTypes.createStructField("block", DataTypes.IntegerType, false),
            DataTypes.createStructField("states", DataTypes.createArrayType(DataTypes.DoubleType, false), false),
            DataTypes.createStructField("log_weights", DataTypes.createArrayType(DataTypes.DoubleType, false),
                    false)));

    private final CheckpointStates files;
    // The newest row segment written or read: its name under the directory, its SHA-256, and the last step it holds
    // (rows of later steps go into the next segment).
    private String rowSegment;
    private String rowSegmentSha256;
    private int rowSegmentStep = Integer.MIN_VALUE;

    /**
     * The driver's state after {@code steps} time steps.
     *
     * @param previousLogSum log Σ exp(lw) of the particles the next step starts from
     */
    record Saved(String fingerprint, int steps, double logLikelihood, double previousLogSum, int resamplings,
            List<StepRow> rows) {
    }

    /** A verified checkpoint: the driver's state and the particle blocks (on the executors, persisted). */
    record Loaded(Saved saved, JavaRDD<ParticleBlock> particles, String particlesPath) {
    }

    SmcCheckpoint(String location, Configuration conf) {
        this.files = new CheckpointStates(location, conf);
    }

    String location() {
        return files.dir().toString();
    }

    private Path particlesPath(int steps) {
        return new Path(files.dir(), String.format("particles/step-%07d.parquet", steps));
    }

    /**
     * Writes the particles, then the state referring to them; then deletes older particle files except
     * {@code keep} (a file the particles' lineage may still read; null for none).
     */
    void save(Saved saved, JavaRDD<ParticleBlock> particles, String keep) {
        files.checkHeld(); // before Spark writes the particles there
        Path target = particlesPath(saved.steps());
        Path tmp = new Path(target.getParent(), "." + target.getName() + ".tmp");
        List<String> sums = CheckpointStates.byId(particles.map(SmcCheckpoint::blockDigest).collect());
        try {
            files.fileSystem().mkdirs(target.getParent());
            SparkSession spark = SparkSession.builder().getOrCreate();
            PlainParquet.writer(spark.createDataFrame(particles.map(b -> RowFactory.create(b.block(), b.states(),
                    b.logWeights())), SCHEMA)).mode(SaveMode.Overwrite).parquet(tmp.toString());
            files.replace(tmp, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint particles in " + files.dir(), e);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("fingerprint", saved.fingerprint());
        doc.put("steps", saved.steps());
        doc.put("log_likelihood", saved.logLikelihood());
        doc.put("previous_log_sum", saved.previousLogSum());
        doc.put("resamplings", saved.resamplings());
        doc.put("particles", "particles/" + target.getName());
        doc.put("block_sha256", sums);
        writeRowSegment(saved);
        doc.put("rows_segment", rowSegment);
        doc.put("rows_segment_sha256", rowSegmentSha256);
        files.save(saved.steps(), doc);
        try {
            for (FileStatus old : files.fileSystem().listStatus(target.getParent())) {
                String p = old.getPath().toString();
                if (!old.getPath().getName().equals(target.getName()) && !p.equals(keep)) {
                    files.fileSystem().delete(old.getPath(), true);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete old checkpoint particles in " + files.dir(), e);
        }
    }

    /** A verified state and where its particles are, read without Spark. */
    private record State(Saved saved, List<String> blockSha256, Path particles) {
    }

    /**
     * Before Spark starts: refuses, as {@link #load} would, a checkpoint that is foreign, corrupt, incomplete or
     * whose particle files do not read as Parquet. (Their SHA-256 is checked as {@link #load} reads them.) Returns
     * its rows, the steps it consumed (none without a checkpoint).
     */
    List<StepRow> checkBeforeSpark(String expectedFingerprint) {
        State state = state(expectedFingerprint);
        return state == null ? List.of() : state.saved().rows();
    }

    /**
     * The newest state, verified, with its particles present and every file of them Parquet; null when the
     * directory holds none.
     */
    private State state(String expectedFingerprint) {
        JsonNode doc = files.loadNewest(expectedFingerprint);
        if (doc == null) {
            return null;
        }
        List<StepRow> rows = doc.has("rows") ? rows(doc.get("rows")) : readRowSegments(doc);
        Saved saved = new Saved(doc.get("fingerprint").asText(), doc.get("steps").asInt(),
                doc.get("log_likelihood").asDouble(), doc.get("previous_log_sum").asDouble(),
                doc.get("resamplings").asInt(), rows);
        List<String> expected = new ArrayList<>();
        doc.get("block_sha256").forEach(s -> expected.add(s.asText()));
        Path path = new Path(files.dir(), doc.get("particles").asText());
        files.checkParquetData(path, "particles");
        return new State(saved, expected, path);
    }

    /**
     * The newest checkpoint, verified; null when the directory holds none.
     *
     * @throws InvalidInputException if it is corrupt, incomplete or from a run with other settings
     */
    Loaded load(String expectedFingerprint, BlockPartitioner partitioner) {
        State state = state(expectedFingerprint);
        if (state == null) {
            return null;
        }
        Path path = state.particles();
        JavaRDD<ParticleBlock> particles;
        List<String> found;
        try {
            SparkSession spark = SparkSession.builder().getOrCreate();
            particles = spark.read().schema(SCHEMA).parquet(path.toString()).javaRDD()
                    .mapToPair(row -> new scala.Tuple2<>(row.getInt(0), toBlock(row)))
                    .partitionBy(partitioner).values()
                    .persist(org.apache.spark.storage.StorageLevel.MEMORY_AND_DISK());
            found = CheckpointStates.byId(particles.map(SmcCheckpoint::blockDigest).collect());
        } catch (Exception e) { // SparkException is checked in Scala's sense only: it arrives undeclared
            CheckpointStates.rethrowUnlessDamaged(e);
            throw CheckpointStates.unreadable("particles", path, e);
        }
        if (!found.equals(state.blockSha256())) {
            particles.unpersist(false);
            throw new InvalidInputException("checkpoint particles " + path + " are corrupt (their SHA-256 does not "
                    + "match the state's); remove the checkpoint directory to start over");
        }
        return new Loaded(state.saved(), particles, path.toString());
    }

    private static ParticleBlock toBlock(Row row) {
        return new ParticleBlock(row.getInt(0), unbox(row.getList(1)), unbox(row.getList(2)), null);
    }

    private static double[] unbox(List<Double> list) {
        double[] out = new double[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    /**
     * Writes the rows of the steps since the previous segment to {@code rows/rows-<step>.json}, with the name and
     * SHA-256 of the previous segment, so every save writes only its own steps' rows (a long series does not
     * rewrite its whole history at each checkpoint) and the chain is verified link by link on load.
     */
    private void writeRowSegment(Saved saved) {
        List<Map<String, Object>> fresh = new ArrayList<>();
        int last = rowSegmentStep;
        for (StepRow r : saved.rows()) {
            if (r.step() > rowSegmentStep) {
                fresh.add(rowJson(r));
                last = Math.max(last, r.step());
            }
        }
        Map<String, Object> segment = new LinkedHashMap<>();
        segment.put("previous", rowSegment);
        segment.put("previous_sha256", rowSegmentSha256);
        segment.put("rows", fresh);
        String name = String.format("rows/rows-%07d.json", saved.steps());
        try {
            rowSegmentSha256 = files.writeFile(name, CheckpointStates.JSON.writeValueAsBytes(segment));
            rowSegment = name;
            rowSegmentStep = last;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint rows " + name + " in " + files.dir(), e);
        }
    }

    /** Every step's row, from the state's newest row segment back along the chain, each segment verified. */
    private List<StepRow> readRowSegments(JsonNode state) {
        List<List<StepRow>> segments = new ArrayList<>();
        String name = state.get("rows_segment").asText();
        String sha256 = state.get("rows_segment_sha256").asText();
        rowSegment = name;
        rowSegmentSha256 = sha256;
        int maxLinks = state.get("steps").asInt() + 1;
        for (int links = 0; name != null; links++) {
            Path path = new Path(files.dir(), name);
            byte[] bytes;
            try {
                bytes = files.readFile(name);
            } catch (IOException e) {
                throw CheckpointStates.unreadable("rows", path, e);
            }
            if (!CheckpointStates.sha256(bytes).equals(sha256) || links > maxLinks) {
                throw new InvalidInputException("checkpoint rows " + path + " are corrupt (their SHA-256 does not "
                        + "match the one recorded for them); remove the checkpoint directory to start over");
            }
            try {
                JsonNode segment = CheckpointStates.JSON.readTree(bytes);
                segments.add(rows(segment.get("rows")));
                JsonNode previous = segment.get("previous");
                name = previous == null || previous.isNull() ? null : previous.asText();
                sha256 = name == null ? null : segment.get("previous_sha256").asText();
            } catch (IOException | RuntimeException e) {
                throw CheckpointStates.unreadable("rows", path, e);
            }
        }
        List<StepRow> rows = new ArrayList<>();
        for (int i = segments.size() - 1; i >= 0; i--) {
            rows.addAll(segments.get(i));
        }
        for (StepRow r : rows) {
            rowSegmentStep = Math.max(rowSegmentStep, r.step());
        }
        return rows;
    }

    private static Map<String, Object> rowJson(StepRow r) {
        StepSummary s = r.summary();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("step", r.step());
        m.put("time", r.time());
        m.put("observation", r.observation());
        m.put("mean", s.mean());
        m.put("variance", s.variance());
        m.put("ess", s.ess());
        m.put("resampled", s.resampled());
        m.put("increment", s.logLikelihoodIncrement());
        m.put("observed", s.observed());
        return m;
    }

    private static List<StepRow> rows(JsonNode array) {
        List<StepRow> rows = new ArrayList<>();
        for (JsonNode r : array) {
            int step = r.get("step").asInt();
            rows.add(new StepRow(step, r.get("time").asDouble(), doubles(r.get("observation")),
                    new StepSummary(step, doubles(r.get("mean")), doubles(r.get("variance")), r.get("ess").asDouble(),
                            r.get("resampled").asBoolean(), r.get("increment").asDouble(),
                            r.get("observed").asBoolean())));
        }
        return rows;
    }

    /** "block:sha256" of a block's index, count, states and log-weights ({@link CheckpointStates#digest}). */
    static String blockDigest(ParticleBlock b) {
        return CheckpointStates.digest(b.block(), b.logWeights().length, b.states(), b.logWeights());
    }
}
