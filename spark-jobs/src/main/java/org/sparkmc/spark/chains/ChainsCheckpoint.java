package org.sparkmc.spark.chains;

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
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.ChainState;

/**
 * A {@code chains} run's checkpoint directory: {@code state-<round>.json} (the driver's whole state after a round:
 * every chain's position, log density, kernel tuning and counters, the acceptance counts and the round history)
 * with its SHA-256 in the file's last line, and {@code rounds/round-<r>.parquet} (each sampling round's draws).
 *
 * <p>Random generators need no saving: round r of chain c always draws from the stream keyed by (seed, c, r), so
 * the state after a round plus the seed determine everything that follows, and a resumed run is identical to an
 * uninterrupted one. State files are written under a temporary name and renamed, the round's draws before the state
 * that refers to them; the newest state is verified on load and a corrupt one is reported, never used.
 */
final class ChainsCheckpoint {
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    private static final String CHECKSUM = "\n#sha256:";

    private final FileSystem fs;
    private final Path dir;

    /** The driver's state after a round. */
    record Saved(String fingerprint, int round, int drawsPerChain, long accepted, long proposed, boolean converged,
            List<ChainState> states, List<RoundSummary> history) {
    }

    ChainsCheckpoint(String location, Configuration conf) {
        try {
            Path path = new Path(location);
            this.fs = path.getFileSystem(conf);
            this.dir = fs.makeQualified(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open checkpoint directory " + location, e);
        }
    }

    /** Where a sampling round's draws go. */
    String roundDraws(int round) {
        return new Path(dir, String.format("rounds/round-%05d.parquet", round)).toString();
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
        try {
            String body = JSON.writeValueAsString(doc);
            String content = body + CHECKSUM + sha256(body) + "\n";
            Path tmp = new Path(dir, ".state-" + saved.round() + ".json.tmp");
            try (OutputStream out = fs.create(tmp, true)) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
            Path target = new Path(dir, String.format("state-%05d.json", saved.round()));
            fs.delete(target, false);
            if (!fs.rename(tmp, target)) {
                throw new IOException("rename " + tmp + " -> " + target + " failed");
            }
            for (FileStatus old : fs.listStatus(dir, p -> p.getName().startsWith("state-"))) {
                if (!old.getPath().getName().equals(target.getName())) {
                    fs.delete(old.getPath(), false);
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
            if (!sum.equals(sha256(body))) {
                throw new InvalidInputException("checkpoint " + newest.getPath() + " is corrupt (its SHA-256 does not "
                        + "match its content); remove the checkpoint directory to start over");
            }
            JsonNode doc = JSON.readTree(body);
            String fingerprint = doc.get("fingerprint").asText();
            if (!fingerprint.equals(expectedFingerprint)) {
                throw new InvalidInputException("checkpoint " + dir + " was made by a run with other settings ("
                        + fingerprint + "); --resume needs the same settings (" + expectedFingerprint + ")");
            }
            List<ChainState> states = new ArrayList<>();
            for (JsonNode s : doc.get("states")) {
                states.add(ChainState.restore(s.get("chain").asLong(), doubles(s.get("position")),
                        s.get("log_density").asDouble(), doubles(s.get("tuning")),
                        s.get("warmup_iterations").asLong(), s.get("sampling_iterations").asLong()));
            }
            List<RoundSummary> history = new ArrayList<>();
            for (JsonNode h : doc.get("history")) {
                history.add(JSON.treeToValue(h, RoundSummary.class));
            }
            return new Saved(fingerprint, doc.get("round").asInt(), doc.get("draws_per_chain").asInt(),
                    doc.get("accepted").asLong(), doc.get("proposed").asLong(), doc.get("converged").asBoolean(),
                    states, history);
        } catch (org.apache.hadoop.fs.ChecksumException e) {
            throw new InvalidInputException("checkpoint in " + dir + " is corrupt (the file system's checksum does not "
                    + "match); remove the checkpoint directory to start over", e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read checkpoint in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static double[] doubles(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asDouble();
        }
        return out;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
