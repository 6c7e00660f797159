package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;

/** The verified state files of job checkpoints: exact doubles, one state kept, corrupt and foreign states refused. */
class CheckpointStatesTest {
    @TempDir
    Path tmp;

    @Test
    void doublesComeBackBitForBitAndOnlyTheNewestStateIsKept() throws Exception {
        CheckpointStates states = new CheckpointStates(tmp.resolve("ck").toString(), new Configuration());
        assertNull(states.loadNewest("f"));
        double[] values = {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE,
            Math.PI, -1.0 / 3, 1e300};
        for (int n = 1; n <= 3; n++) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("fingerprint", "f");
            doc.put("n", n);
            doc.put("values", values);
            states.save(n, doc);
        }
        try (Stream<Path> files = Files.list(tmp.resolve("ck"))) {
            assertEquals(List.of("_sparkmc-checkpoint", "state-00003.json"), files.map(p -> p.getFileName()
                    .toString()).filter(f -> !f.startsWith(".")).sorted().toList());
        }
        JsonNode doc = states.loadNewest("f");
        assertEquals(3, doc.get("n").asInt());
        double[] back = CheckpointStates.doubles(doc.get("values"));
        for (int i = 0; i < values.length; i++) {
            assertEquals(Double.doubleToRawLongBits(values[i]), Double.doubleToRawLongBits(back[i]), "value " + i);
        }
        assertArrayEquals(values, back);
    }

    /** Saving a state deletes only older states it wrote, never another file whose name begins with state-. */
    @Test
    void savingDeletesOnlyItsOwnStates() throws Exception {
        Path dir = tmp.resolve("ck");
        CheckpointStates.claim(dir.toString(), new Configuration());
        Files.writeString(dir.resolve("state-of-the-art.txt"), "mine");
        Files.writeString(dir.resolve("state-1.json"), "{}");
        CheckpointStates states = new CheckpointStates(dir.toString(), new Configuration());
        for (int n = 1; n <= 2; n++) {
            states.save(n, Map.of("fingerprint", "f"));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("_sparkmc-checkpoint", "state-00002.json", "state-1.json", "state-of-the-art.txt"),
                    files.map(p -> p.getFileName().toString()).filter(f -> !f.startsWith(".")).sorted().toList());
        }
    }

    /** A claimed directory is claimed again as it is; a file, or a foreign non-empty directory, is refused. */
    @Test
    void claimTakesNewEmptyOrOwnDirectoriesOnly() throws Exception {
        Configuration conf = new Configuration();
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CheckpointStates.claim(empty.toString(), conf);
        Files.writeString(empty.resolve("state-00001.json"), "{}");
        CheckpointStates.claim(empty.toString(), conf);
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertTrue(assertThrows(InvalidInputException.class, () -> CheckpointStates.claim(file.toString(), conf))
                .getMessage().contains("is a file"));
        Path foreign = Files.createDirectories(tmp.resolve("foreign"));
        Files.writeString(foreign.resolve("notes.txt"), "x");
        assertTrue(assertThrows(InvalidInputException.class, () -> CheckpointStates.claim(foreign.toString(), conf))
                .getMessage().contains("holds files sparkmc did not write (notes.txt)"));
    }

    /**
     * A fresh run (no --resume) is refused where an earlier run saved, marked or from before the marker, naming the
     * newest state and writing nothing; with --resume the same directories are claimed, and a fresh run takes a
     * marked directory that holds no state.
     */
    @Test
    void aFreshRunIsRefusedWhereAnEarlierRunSaved() throws Exception {
        Configuration conf = new Configuration();
        Path marked = tmp.resolve("marked");
        CheckpointStates.claim(marked.toString(), conf);
        assertEquals(CheckpointStates.Claimed.NOTHING, CheckpointStates.claim(marked.toString(), conf, false));
        Files.writeString(marked.resolve("state-00002.json"), "{}");
        Files.writeString(marked.resolve("state-00010.json"), "{}");
        Path unmarked = Files.createDirectories(tmp.resolve("unmarked"));
        Files.createDirectories(unmarked.resolve("rounds"));
        Files.writeString(unmarked.resolve("state-00007.json"), "{}");
        for (Path dir : List.of(marked, unmarked)) {
            List<String> before = names(dir);
            String newest = before.stream().filter(n -> n.startsWith("state-")).max(String::compareTo).orElseThrow();
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> CheckpointStates.claim(dir.toString(), conf, false));
            assertTrue(e.getMessage().contains("holds an earlier run's checkpoint (" + newest + "); pass --resume"),
                    e.getMessage());
            assertEquals(before, names(dir), "a refused claim writes nothing");
            CheckpointStates.claim(dir.toString(), conf, true);
        }
        assertEquals(List.of("_sparkmc-checkpoint", "rounds", "state-00007.json"), names(unmarked));
    }

    /**
     * A run that saved nothing undoes its claim: the directory it created goes (once empty), the marker it wrote in an
     * empty directory the user made goes (the directory stays), and a directory that was sparkmc's already, or that
     * holds a save, stays as it is.
     */
    @Test
    void anUnusedClaimIsUndoneAndAUsedOneKept() throws Exception {
        Configuration conf = new Configuration();
        Path created = tmp.resolve("created");
        assertEquals(CheckpointStates.Claimed.DIRECTORY, CheckpointStates.claim(created.toString(), conf));
        CheckpointStates.releaseUnused(created.toString(), conf, CheckpointStates.Claimed.DIRECTORY);
        CheckpointStates.removeIfEmpty(created.toString(), conf, CheckpointStates.Claimed.DIRECTORY);
        assertFalse(Files.exists(created));

        Path users = Files.createDirectories(tmp.resolve("users"));
        assertEquals(CheckpointStates.Claimed.MARKER, CheckpointStates.claim(users.toString(), conf));
        CheckpointStates.releaseUnused(users.toString(), conf, CheckpointStates.Claimed.MARKER);
        CheckpointStates.removeIfEmpty(users.toString(), conf, CheckpointStates.Claimed.MARKER);
        assertTrue(Files.isDirectory(users));
        assertEquals(List.of(), names(users));

        Path ours = tmp.resolve("ours");
        CheckpointStates.claim(ours.toString(), conf);
        CheckpointStates.Claimed again = CheckpointStates.claim(ours.toString(), conf);
        assertEquals(CheckpointStates.Claimed.NOTHING, again);
        CheckpointStates.releaseUnused(ours.toString(), conf, again);
        assertEquals(List.of("_sparkmc-checkpoint"), names(ours));

        // Undone while the run still holds its lease (CheckpointLease.close(Runnable)): the marker goes, the lease
        // stays for its holder to delete; the directory goes once it is empty, but not while another run's lease is in.
        Path leased = tmp.resolve("leased");
        CheckpointStates.Claimed fresh = CheckpointStates.claim(leased.toString(), conf);
        Path lease = Files.writeString(leased.resolve(CheckpointLease.NAME), "a run's lease\n");
        CheckpointStates.releaseUnused(leased.toString(), conf, fresh);
        assertEquals(List.of(CheckpointLease.NAME), names(leased));
        CheckpointStates.removeIfEmpty(leased.toString(), conf, fresh);
        assertEquals(List.of(CheckpointLease.NAME), names(leased), "another run's lease keeps the directory");
        Files.delete(lease);
        CheckpointStates.removeIfEmpty(leased.toString(), conf, fresh);
        assertFalse(Files.exists(leased));
        // A directory holding only another run's lease (it is entering) is claimed, not refused as foreign.
        Path entering = Files.createDirectories(tmp.resolve("entering"));
        Files.writeString(entering.resolve(CheckpointLease.NAME), "another run's lease\n");
        assertEquals(CheckpointStates.Claimed.MARKER, CheckpointStates.claim(entering.toString(), conf));

        Path saved = tmp.resolve("saved");
        CheckpointStates.Claimed claimed = CheckpointStates.claim(saved.toString(), conf);
        new CheckpointStates(saved.toString(), conf).save(1, Map.of("fingerprint", "f"));
        CheckpointStates.releaseUnused(saved.toString(), conf, claimed);
        assertEquals(List.of("_sparkmc-checkpoint", "state-00001.json"), names(saved));
    }

    /**
     * A run refused after it claimed a directory sparkmc had not marked (its --resume found the user's
     * state-00001.json corrupt) takes its marker away again, though the directory holds other files: they were there
     * before. The old code kept the marker, and a later run took the directory as sparkmc's without looking at what
     * else it held, replacing the user's files.
     */
    @Test
    void aClaimUndoneInADirectoryWithFilesLeavesItUnmarked() throws Exception {
        Configuration conf = new Configuration();
        Path users = Files.createDirectories(tmp.resolve("users"));
        Files.writeString(users.resolve("state-00001.json"), "mine");
        Files.createDirectories(users.resolve("rounds"));
        CheckpointStates.Claimed claimed = CheckpointStates.claim(users.toString(), conf, true);
        assertEquals(CheckpointStates.Claimed.MARKER, claimed);
        CheckpointStates.releaseUnused(users.toString(), conf, claimed);
        assertEquals(List.of("rounds", "state-00001.json"), names(users));
        try (Stream<Path> all = Files.list(users)) {
            assertFalse(all.anyMatch(p -> p.getFileName().toString().contains("_sparkmc-checkpoint")));
        }
        Files.delete(users.resolve("state-00001.json"));
        Files.writeString(users.resolve("notes.txt"), "mine");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> CheckpointStates.claim(users.toString(), conf, false));
        assertTrue(e.getMessage().contains("holds files sparkmc did not write (notes.txt)"), e.getMessage());

        // Files added while the run held the directory are not the claim's to judge: the marker stays with them.
        Path added = Files.createDirectories(tmp.resolve("added"));
        Files.writeString(added.resolve("state-00001.json"), "{}");
        CheckpointStates.Claimed again = CheckpointStates.claim(added.toString(), conf, true);
        Files.writeString(added.resolve("state-00002.json"), "{}");
        CheckpointStates.releaseUnused(added.toString(), conf, again);
        assertEquals(List.of("_sparkmc-checkpoint", "state-00001.json", "state-00002.json"), names(added));
    }

    /**
     * The parents a claim created for its directory go with it when the run saved nothing (the old code removed the
     * directory alone and left n1/n2/); a parent that existed, or that holds anything else, stays.
     */
    @Test
    void anUnusedClaimRemovesTheParentsItCreated() throws Exception {
        Configuration conf = new Configuration();
        Files.createDirectories(tmp.resolve("n0"));
        String ck = tmp.resolve("n0/n1/n2/ck").toString();
        String createdFrom = CheckpointStates.highestMissing(ck, conf);
        CheckpointStates.Claimed claimed = CheckpointStates.claim(ck, conf);
        CheckpointStates.releaseUnused(ck, conf, claimed);
        CheckpointStates.removeIfEmpty(ck, conf, claimed, createdFrom);
        assertEquals(List.of(), names(tmp.resolve("n0")));

        String kept = tmp.resolve("k1/k2/ck").toString();
        createdFrom = CheckpointStates.highestMissing(kept, conf);
        claimed = CheckpointStates.claim(kept, conf);
        Files.writeString(tmp.resolve("k1/notes.txt"), "mine");
        CheckpointStates.releaseUnused(kept, conf, claimed);
        CheckpointStates.removeIfEmpty(kept, conf, claimed, createdFrom);
        assertEquals(List.of("notes.txt"), names(tmp.resolve("k1")));
    }

    private static List<String> names(Path dir) throws java.io.IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(f -> !f.startsWith(".")).sorted().toList();
        }
    }

    @Test
    void corruptAndForeignStatesAreRefused() throws Exception {
        Path dir = tmp.resolve("ck");
        CheckpointStates states = new CheckpointStates(dir.toString(), new Configuration());
        states.save(7, new LinkedHashMap<>(Map.of("fingerprint", "seed=1", "n", 7)));
        InvalidInputException foreign = assertThrows(InvalidInputException.class, () -> states.loadNewest("seed=2"));
        assertTrue(foreign.getMessage().contains("other settings (seed: checkpoint 1, now 2)"), foreign.getMessage());
        // A state from before the fingerprint recorded the model's parameters by their SHA-256.
        Path old = tmp.resolve("old");
        CheckpointStates oldStates = new CheckpointStates(old.toString(), new Configuration());
        oldStates.save(3, new LinkedHashMap<>(Map.of("fingerprint", "model=a params={sigma=[15.0, 10.0], J=8.0} seed=1",
                "n", 3)));
        InvalidInputException earlier = assertThrows(InvalidInputException.class,
                () -> oldStates.loadNewest("model=a params-sha256=0f seed=1"));
        assertTrue(earlier.getMessage().contains("written by an earlier sparkmc"), earlier.getMessage());
        // A state whose fingerprint was kept by hand, before fingerprints were derived from the settings records.
        Path handKept = tmp.resolve("hand-kept");
        CheckpointStates handKeptStates = new CheckpointStates(handKept.toString(), new Configuration());
        handKeptStates.save(3, new LinkedHashMap<>(Map.of("fingerprint", "model=a params-sha256=0f seed=1", "n", 3)));
        InvalidInputException handKeptEarlier = assertThrows(InvalidInputException.class,
                () -> handKeptStates.loadNewest(Fingerprint.FORM + " model-name=a params-sha256=0f seed=1"));
        assertTrue(handKeptEarlier.getMessage().contains("written by an earlier sparkmc"),
                handKeptEarlier.getMessage());
        // Only the settings that differ are named, values with spaces included.
        assertEquals("kernel: checkpoint cycle(rwm, slice), now rwm; seed: checkpoint 1, now (none)",
                CheckpointStates.settingsDifference("model=a kernel=cycle(rwm, slice) seed=1 chains=4",
                        "model=a kernel=rwm chains=4"));
        // The digest of a model's parameters and data says what it stands for (it was a bare "params-sha256").
        // A record's kernelName is the --kernel option ("kernel-name" named no option).
        assertEquals("kernel: checkpoint rwm, now slice", CheckpointStates.settingsDifference(
                "kernel-name=rwm model=a seed=1", "kernel-name=slice model=a seed=1"));
        assertEquals("params-sha256 (a digest of the model's parameters and data file: one of them changed): "
                + "checkpoint 0f, now 1e", CheckpointStates.settingsDifference("model=a params-sha256=0f seed=1",
                        "model=a params-sha256=1e seed=1"));
        // smc's digest of its parameters' values (defaults included) names no data file, which smc's does not hold.
        assertEquals("resolved-params-sha256 (a digest of the values of the model's parameters, defaults included: a "
                + "parameter's value changed): checkpoint 0f, now 1e", CheckpointStates.settingsDifference(
                        "model=a resolved-params-sha256=0f seed=1", "model=a resolved-params-sha256=1e seed=1"));
        // A checkpoint of the parameters as given (params-sha256) cannot be compared with one of their values.
        Path given = tmp.resolve("given");
        CheckpointStates givenStates = new CheckpointStates(given.toString(), new Configuration());
        givenStates.save(3, new LinkedHashMap<>(Map.of("fingerprint", Fingerprint.FORM
                + " model=a params-sha256=0f seed=1", "n", 3)));
        String predates = assertThrows(InvalidInputException.class, () -> givenStates.loadNewest(Fingerprint.FORM
                + " model=a resolved-params-sha256=0f seed=1")).getMessage();
        assertTrue(predates.contains("was written by an earlier sparkmc, which fingerprinted the model's parameters "
                + "as they were given (params-sha256), not as the model uses them with its defaults filled in "
                + "(resolved-params-sha256)"), predates);
        // Another job's checkpoint: which settings each side has (it listed every setting, "(none)" on one side).
        assertEquals("it holds another job's state: it has the settings particles, resampling, this job has chains, "
                + "round-size, topics", CheckpointStates.settingsDifference("settings-form=2 seed=1 particles=100 "
                        + "resampling=systematic", "settings-form=2 seed=1 chains=4 round-size=100 topics=5"));

        Path state = dir.resolve("state-00007.json");
        Files.writeString(state, Files.readString(state).replace("\"n\":7", "\"n\":8"));
        Files.deleteIfExists(dir.resolve(".state-00007.json.crc"));
        InvalidInputException corrupt = assertThrows(InvalidInputException.class, () -> states.loadNewest("seed=1"));
        assertTrue(corrupt.getMessage().contains("is corrupt (its SHA-256 does not match"), corrupt.getMessage());

        // The local file system's own checksum, when present, is reported as corruption too.
        states.save(8, new LinkedHashMap<>(Map.of("fingerprint", "seed=1", "n", 8)));
        Path newest = dir.resolve("state-00008.json");
        Files.writeString(newest, Files.readString(newest).replace("\"n\":8", "\"n\":9"));
        InvalidInputException crc = assertThrows(InvalidInputException.class, () -> states.loadNewest("seed=1"));
        assertTrue(crc.getMessage().contains("corrupt"), crc.getMessage());
    }

    /**
     * Digests hash an id, a count and the values' bits: the layout smc's particle blocks always had (so their
     * checkpoints still verify), with NaN in the one form Parquet stores it, so a value read back hashes as written.
     */
    @Test
    void digestsHashIdCountAndValueBitsWithOneNaN() {
        double[] states = {1.5, -0.0, Double.NEGATIVE_INFINITY};
        double[] weights = {-2.25, 1e-300};
        ByteBuffer old = ByteBuffer.allocate(8 + 8 * 5).putInt(4).putInt(2);
        for (double v : new double[] {1.5, -0.0, Double.NEGATIVE_INFINITY, -2.25, 1e-300}) {
            old.putLong(Double.doubleToRawLongBits(v));
        }
        assertEquals("4:" + CheckpointStates.sha256(old.array()), CheckpointStates.digest(4, 2, states, weights));
        assertNotEquals(CheckpointStates.digest(4, 2, states, weights),
                CheckpointStates.digest(4, 2, new double[] {1.5, 0.0, Double.NEGATIVE_INFINITY}, weights));
        double otherNaN = Double.longBitsToDouble(0xfff8000000000000L);
        assertEquals(CheckpointStates.digest(1, 1, new double[] {Double.NaN}),
                CheckpointStates.digest(1, 1, new double[] {otherNaN}));
        assertEquals(List.of("2:b", "10:a"), CheckpointStates.byId(List.of("10:a", "2:b")));
    }

    /**
     * A checkpoint file whose content does not read is damaged (the caller refuses it, exit 2); a lost connection
     * under the same read, or any other failure (a lost executor), is rethrown as it is: "remove the checkpoint
     * directory" would throw good work away.
     */
    @Test
    void onlyAFilesContentMakesADamagedCheckpoint() {
        CheckpointStates.rethrowUnlessDamaged(new org.apache.spark.SparkException("task failed",
                new org.apache.parquet.io.ParquetDecodingException("could not read page")));
        CheckpointStates.rethrowUnlessDamaged(new RuntimeException(new org.apache.hadoop.fs.ChecksumException("crc",
                4)));
        RuntimeException lost = new RuntimeException("ExecutorLostFailure (executor 1 exited)");
        assertTrue(lost == assertThrows(RuntimeException.class, () -> CheckpointStates.rethrowUnlessDamaged(lost)));
        org.apache.spark.SparkException reset = new org.apache.spark.SparkException("task failed",
                new org.apache.parquet.io.ParquetDecodingException("read failed",
                        new java.net.SocketException("Connection reset")));
        IllegalStateException said = assertThrows(IllegalStateException.class,
                () -> CheckpointStates.rethrowUnlessDamaged(reset));
        assertTrue(said.getCause() == reset && said.getMessage().contains("Connection reset"), said.getMessage());
    }
}
