package org.sparkmc.spark.chains;

import static org.sparkmc.spark.io.CheckpointStates.doubles;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.spark.io.CheckpointStates;

/**
 * A {@code chains} run's checkpoint directory: {@code state-<round>.json} (the driver's whole state after a round:
 * every chain's position, log density, kernel tuning and counters, the acceptance counts and the round history)
 * with its SHA-256 in the file's last line, and {@code rounds/round-<r>.parquet} (each sampling round's draws).
 *
 * <p>Random generators need no saving: round r of chain c always draws from the stream keyed by (seed, c, r), so
 * the state after a round plus the seed determine everything that follows, and a resumed run is identical to an
 * uninterrupted one. State files are written atomically ({@link CheckpointStates}), the round's draws before the
 * state that refers to them; the newest state is verified on load and a corrupt one is reported, never used.
 */
final class ChainsCheckpoint {
    private final CheckpointStates files;

    /** The driver's state after a round. */
    record Saved(String fingerprint, int round, int drawsPerChain, long accepted, long proposed, boolean converged,
            List<ChainState> states, List<RoundSummary> history) {
    }

    ChainsCheckpoint(String location, Configuration conf) {
        this.files = new CheckpointStates(location, conf);
    }

    /** Where a sampling round's draws go. */
    String roundDraws(int round) {
        return new Path(files.dir(), String.format("rounds/round-%05d.parquet", round)).toString();
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
            m.put("tuning", s.tuning());
            m.put("warmup_iterations", s.warmupIterations());
            m.put("sampling_iterations", s.samplingIterations());
            states.add(m);
        }
        doc.put("states", states);
        doc.put("history", saved.history());
        files.save(saved.round(), doc);
    }

    /** The newest saved state, verified; null when the directory holds none. */
    Saved load(String expectedFingerprint) {
        JsonNode doc = files.loadNewest(expectedFingerprint);
        if (doc == null) {
            return null;
        }
        try {
            List<ChainState> states = new ArrayList<>();
            for (JsonNode s : doc.get("states")) {
                states.add(ChainState.restore(s.get("chain").asLong(), doubles(s.get("position")),
                        s.get("log_density").asDouble(), doubles(s.get("tuning")),
                        s.get("warmup_iterations").asLong(), s.get("sampling_iterations").asLong()));
            }
            List<RoundSummary> history = new ArrayList<>();
            for (JsonNode h : doc.get("history")) {
                history.add(CheckpointStates.JSON.treeToValue(h, RoundSummary.class));
            }
            return new Saved(doc.get("fingerprint").asText(), doc.get("round").asInt(),
                    doc.get("draws_per_chain").asInt(), doc.get("accepted").asLong(), doc.get("proposed").asLong(),
                    doc.get("converged").asBoolean(), states, history);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read checkpoint in " + files.dir() + ": " + e.getMessage(), e);
        }
    }
}
