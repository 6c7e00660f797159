package org.sparkmc.spark.chains;

import static org.sparkmc.spark.io.CheckpointStates.doubles;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.spark.io.CheckpointStates;

/**
 * A {@code chains} run's checkpoint directory: {@code state-<round>.json} (the driver's whole state after a round:
 * every chain's position, log density, kernel state (the kernel's {@link Kernel#codec()}) and counters, the
 * acceptance counts, the round history and the SHA-256 of each sampling round's draws) with its own SHA-256 in
 * the file's last line, and {@code rounds/round-<r>.parquet} (each sampling round's draws).
 *
 * <p>Random generators need no saving: round r of chain c always draws from the stream keyed by (seed, c, r), so
 * the state after a round plus the seed determine everything that follows, and a resumed run is identical to an
 * uninterrupted one. State files are written atomically ({@link CheckpointStates}), the round's draws before the
 * state that refers to them; the newest state is verified on load, and so is each round's draws read back against
 * the SHA-256 the state recorded: a corrupt, incomplete or unverifiable checkpoint is reported, never used.
 */
final class ChainsCheckpoint {
    private final CheckpointStates files;
    /** The run's kernel: its codec writes and reads the chains' kernel states. */
    private final Kernel<?> kernel;
    /** Sampling round → SHA-256 of its draws ({@link #roundDigest}), for the rounds written or loaded so far. */
    private final TreeMap<Integer, String> roundSha256 = new TreeMap<>();
    /** The state {@link #load} returned, if any. */
    private Saved loaded;

    /**
     * The driver's state after a round. {@code acceptedByChain} and {@code proposedByChain} hold each chain's sampling
     * rounds' counts (index chain − 1); null for none yet, or when an older checkpoint did not record them.
     */
    record Saved(String fingerprint, int round, int drawsPerChain, long accepted, long proposed, boolean converged,
            List<ChainState> states, List<RoundSummary> history, long[] acceptedByChain, long[] proposedByChain) {
    }

    ChainsCheckpoint(String location, Configuration conf, Kernel<?> kernel) {
        this.files = new CheckpointStates(location, conf);
        this.kernel = kernel;
    }

    /** Where a sampling round's draws go. */
    private String roundDraws(int round) {
        return new Path(files.dir(), String.format("rounds/round-%05d.parquet", round)).toString();
    }

    /** Writes a sampling round's draws and remembers their SHA-256 for the next state. */
    void saveRound(int round, JavaRDD<RoundResult> draws, List<String> names) {
        files.checkHeld(); // before Spark writes the round's draws there
        ChainsOutput.writeRoundDraws(draws, names, roundDraws(round));
        roundSha256.put(round, roundDigest(draws));
    }

    /**
     * A sampling round's draws read back, verified against the SHA-256 the loaded state recorded, and persisted.
     *
     * @throws InvalidInputException if they are missing, unreadable, altered, or the state records no SHA-256
     */
    JavaRDD<RoundResult> loadRound(int round, int width) {
        String path = roundDraws(round);
        String expected = roundSha256.get(round);
        if (expected == null) {
            throw new InvalidInputException("checkpoint " + files.dir() + " records no SHA-256 for the draws of round "
                    + round + " (it predates their verification), so they cannot be checked; remove the checkpoint "
                    + "directory to start over");
        }
        JavaRDD<RoundResult> draws = null;
        String found;
        try {
            draws = ChainsOutput.readRoundDraws(path, round, width).persist(StorageLevel.MEMORY_AND_DISK());
            found = roundDigest(draws);
        } catch (Exception e) { // SparkException is checked in Scala's sense only: it arrives undeclared
            if (draws != null) {
                draws.unpersist(false);
            }
            CheckpointStates.rethrowUnlessDamaged(e);
            throw CheckpointStates.unreadable("draws", path, e);
        }
        if (!found.equals(expected)) {
            draws.unpersist(false);
            throw new InvalidInputException("checkpoint draws " + path + " are corrupt (their SHA-256 does not match "
                    + "the one recorded for round " + round + "); remove the checkpoint directory to start over");
        }
        return draws;
    }

    /**
     * Before Spark starts: the newest state (as {@link #load}) and, for each sampling round it covers, whether its
     * draws are there and every file of them is Parquet (its footer reads). An unreadable round is then refused
     * with one line, not after a Spark task has failed and logged its trace; the draws' SHA-256 is checked as
     * {@link #loadRound} reads them.
     *
     * @param firstSamplingRound the first round after warm-up
     */
    Saved loadForResume(String expectedFingerprint, int firstSamplingRound) {
        Saved saved = load(expectedFingerprint);
        for (int r = firstSamplingRound; saved != null && r <= saved.round(); r++) {
            files.checkParquetData(new Path(roundDraws(r)), "draws");
        }
        return saved;
    }

    /**
     * The SHA-256 of a round's draws: of every chain's {@link CheckpointStates#digest} (chain id, iterations, the
     * draws of each recorded column) in chain order, so it depends on the draws only, not on the partitioning.
     */
    static String roundDigest(JavaRDD<RoundResult> draws) {
        List<String> chains = CheckpointStates.byId(draws.map(r -> CheckpointStates.digest((int) r.chain(),
                r.draws().length == 0 ? 0 : r.draws()[0].length, r.draws())).collect());
        return CheckpointStates.sha256(String.join("\n", chains).getBytes(StandardCharsets.UTF_8));
    }

    void save(Saved saved) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("fingerprint", saved.fingerprint());
        doc.put("round", saved.round());
        doc.put("draws_per_chain", saved.drawsPerChain());
        doc.put("accepted", saved.accepted());
        doc.put("proposed", saved.proposed());
        doc.put("converged", saved.converged());
        List<Map<String, Object>> states = new ArrayList<>();
        for (ChainState s : saved.states()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("chain", s.chain());
            m.put("position", s.position());
            m.put("log_density", s.logDensity());
            m.put("kernel_state", kernel.encodeState(s));
            m.put("warmup_iterations", s.warmupIterations());
            m.put("sampling_iterations", s.samplingIterations());
            int c = (int) s.chain() - 1;
            m.put("accepted", saved.acceptedByChain() == null ? 0 : saved.acceptedByChain()[c]);
            m.put("proposed", saved.proposedByChain() == null ? 0 : saved.proposedByChain()[c]);
            states.add(m);
        }
        doc.put("states", states);
        doc.put("history", saved.history());
        doc.put("round_sha256", new TreeMap<>(roundSha256.headMap(saved.round(), true)));
        files.save(saved.round(), doc);
    }

    /**
     * The newest saved state, verified; null when the directory holds none. Read once: a command loads it before
     * Spark starts, so a foreign or corrupt state is refused before any Spark output, and the job gets the same.
     */
    Saved load(String expectedFingerprint) {
        if (loaded == null || !loaded.fingerprint().equals(expectedFingerprint)) {
            loaded = read(expectedFingerprint);
        }
        return loaded;
    }

    private Saved read(String expectedFingerprint) {
        JsonNode doc = files.loadNewest(expectedFingerprint);
        if (doc == null) {
            return null;
        }
        try {
            List<ChainState> states = new ArrayList<>();
            JsonNode stateNodes = doc.get("states");
            boolean perChain = stateNodes.size() > 0;
            long[] acceptedByChain = new long[stateNodes.size()];
            long[] proposedByChain = new long[stateNodes.size()];
            for (JsonNode s : stateNodes) {
                double[] position = doubles(s.get("position"));
                states.add(ChainState.restore(s.get("chain").asLong(), position, s.get("log_density").asDouble(),
                        kernel.codec().decode(doubles(s.get("kernel_state")), position.length),
                        s.get("warmup_iterations").asLong(), s.get("sampling_iterations").asLong()));
                int c = s.get("chain").asInt() - 1;
                if (s.has("accepted") && s.has("proposed") && c >= 0 && c < acceptedByChain.length) {
                    acceptedByChain[c] = s.get("accepted").asLong();
                    proposedByChain[c] = s.get("proposed").asLong();
                } else {
                    perChain = false;
                }
            }
            List<RoundSummary> history = new ArrayList<>();
            for (JsonNode h : doc.get("history")) {
                history.add(CheckpointStates.JSON.treeToValue(h, RoundSummary.class));
            }
            roundSha256.clear();
            doc.path("round_sha256").fields().forEachRemaining(e -> roundSha256.put(Integer.parseInt(e.getKey()),
                    e.getValue().asText()));
            return new Saved(doc.get("fingerprint").asText(), doc.get("round").asInt(),
                    doc.get("draws_per_chain").asInt(), doc.get("accepted").asLong(), doc.get("proposed").asLong(),
                    doc.get("converged").asBoolean(), states, history, perChain ? acceptedByChain : null,
                    perChain ? proposedByChain : null);
        } catch (IOException | RuntimeException e) {
            throw new InvalidInputException("cannot read checkpoint in " + files.dir() + ": " + e.getMessage(), e);
        }
    }
}
