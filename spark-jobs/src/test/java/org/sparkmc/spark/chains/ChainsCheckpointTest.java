package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.LoggedLines;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.io.CheckpointStates;

/**
 * The chains checkpoint in-process, on real files: a run stopped after two sampling rounds and resumed (on other
 * partitions) writes the same draws and summaries as an uninterrupted run; a round's draws replaced by another
 * round's, a missing part file, or a checkpoint whose state predates the rounds' SHA-256 are refused with exit 2
 * and a message naming the problem, no stack trace. No statistics: every check is exact.
 */
class ChainsCheckpointTest extends SparkTestBase {
    private static final String[] RUN = {"chains", "--model", "bimodal", "--scale", "10", "--chains", "4",
        "--warmup", "200", "--round-size", "200", "--min-ess", "1e9"};
    /** The kernel of {@link #RUN} (the default, rwm), whose codec reads the checkpoint's chain states. */
    private static final org.sparkmc.core.mcmc.Kernel<?> RWM = org.sparkmc.core.catalog.KernelCatalog.create("rwm",
            new org.sparkmc.core.mcmc.KernelSettings(10, true, Double.NaN, 1, 200));

    @TempDir
    Path tmp;

    @Test
    void resumesIdenticallyAndRefusesAlteredOrMissingRoundDraws() throws Exception {
        Path whole = tmp.resolve("whole");
        assertEquals(ExitCode.OK, run("--max-rounds", "3", "--out", whole.toString()).code());
        Path checkpoint = tmp.resolve("checkpoint");
        BadInputTest.Result first = run("--max-rounds", "2", "--partitions", "2", "--checkpoint",
                checkpoint.toString(), "--out", tmp.resolve("part").toString());
        assertEquals(ExitCode.OK, first.code(), first.err());
        assertTrue(Files.exists(checkpoint.resolve("state-00003.json")));
        Path swapped = copy(checkpoint, tmp.resolve("swapped"));
        Path partMissing = copy(checkpoint, tmp.resolve("part-missing"));
        Path old = copy(checkpoint, tmp.resolve("old"));
        Path older = copy(checkpoint, tmp.resolve("older"));

        // Fewer rounds than the checkpoint holds: it committed them all, more than asked, without a word.
        assertRefused(run("--max-rounds", "1", "--checkpoint", checkpoint.toString(), "--resume", "--out",
                tmp.resolve("fewer").toString()), tmp.resolve("fewer"),
                "holds 2 sampling rounds: --max-rounds must be at least 2 to resume it, is 1");

        // (c) A clean resume, on one partition instead of two, finishes as the uninterrupted run did.
        Path resumed = tmp.resolve("resumed");
        BadInputTest.Result r = resume(checkpoint, resumed, "--partitions", "1");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertEquals(ChainsOutputs.draws(spark(), whole), ChainsOutputs.draws(spark(), resumed));
        assertEquals(ChainsOutputs.summary(whole).get("parameters"), ChainsOutputs.summary(resumed).get("parameters"));
        for (String field : List.of("acceptance", "acceptance_per_chain")) { // the restored rounds' counts included
            assertEquals(ChainsOutputs.summary(whole).get(field), ChainsOutputs.summary(resumed).get(field), field);
        }

        // (a) Round 2's draws copied over round 3's: valid Parquet, wrong draws.
        Path round3 = swapped.resolve("rounds/round-00003.parquet");
        deleteTree(round3);
        copy(swapped.resolve("rounds/round-00002.parquet"), round3);
        r = resume(swapped, tmp.resolve("out-swapped"));
        assertRefused(r, tmp.resolve("out-swapped"), "round-00003.parquet are corrupt (their SHA-256 does not match "
                + "the one recorded for round 3)");

        // (b) One part file of round 2 deleted (with its .crc): some chains' draws are gone.
        Path part;
        try (Stream<Path> files = Files.list(partMissing.resolve("rounds/round-00002.parquet"))) {
            part = files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        Files.delete(part);
        Files.deleteIfExists(part.resolveSibling("." + part.getFileName() + ".crc"));
        r = resume(partMissing, tmp.resolve("out-part-missing"));
        assertRefused(r, tmp.resolve("out-part-missing"), "round-00002.parquet are corrupt");

        // A state written before the rounds' draws were verified (no round_sha256), its own SHA-256 valid.
        CheckpointStates states = new CheckpointStates(old.toString(), new Configuration());
        ObjectNode doc = (ObjectNode) states.loadNewest(fingerprint(old));
        doc.remove("round_sha256");
        states.save(3, CheckpointStates.JSON.convertValue(doc, new TypeReference<Map<String, Object>>() { }));
        r = resume(old, tmp.resolve("out-old"));
        assertRefused(r, tmp.resolve("out-old"), "records no SHA-256 for the draws of round 2 (it predates their "
                + "verification)");

        // A state written before the chains' acceptance counts were saved resumes, and says what its figures cover.
        states = new CheckpointStates(older.toString(), new Configuration());
        doc = (ObjectNode) states.loadNewest(fingerprint(older));
        doc.get("states").forEach(chain -> ((ObjectNode) chain).remove(List.of("accepted", "proposed")));
        states.save(3, CheckpointStates.JSON.convertValue(doc, new TypeReference<Map<String, Object>>() { }));
        BadInputTest.Result[] resumedOlder = new BadInputTest.Result[1];
        List<String> warnings = LoggedLines.of(ChainsJob.class, Level.WARN,
                () -> resumedOlder[0] = resume(older, tmp.resolve("out-older")));
        assertEquals(ExitCode.OK, resumedOlder[0].code(), resumedOlder[0].err());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("predates per-chain acceptance counts")),
                warnings.toString());
    }

    /**
     * The stopping rule may change on resume, and the restored draws are judged by the new one: the saved verdict was
     * kept, so a converged checkpoint resumed with a stricter --min-ess stopped at once, "converged", and one that had
     * not converged ran on though the new rule passed its draws.
     */
    @Test
    void aResumedRunJudgesTheRestoredDrawsByItsOwnStoppingRule() {
        Path strict = tmp.resolve("strict");
        assertFalse(bimodalRun("1e9", "1", strict, "a").get("converged").asBoolean());
        JsonNode passed = bimodalRun("1", "3", strict, "b", "--resume");
        assertTrue(passed.get("converged").asBoolean(), passed::toString);
        assertEquals(1, passed.get("rounds").asInt(), "no round beyond the restored one");

        Path lenient = tmp.resolve("lenient");
        assertTrue(bimodalRun("1", "1", lenient, "c").get("converged").asBoolean());
        JsonNode failed = bimodalRun("1e9", "3", lenient, "d", "--resume");
        assertFalse(failed.get("converged").asBoolean(), failed::toString);
        assertEquals(3, failed.get("rounds").asInt(), "the rounds the stricter rule asks for");
    }

    /** A bimodal run that any R-hat passes, held to {@code minEss}, checkpointed; its summary.json. */
    private JsonNode bimodalRun(String minEss, String maxRounds, Path checkpoint, String out, String... more) {
        String[] run = {"chains", "--model", "bimodal", "--scale", "10", "--chains", "4", "--warmup", "200",
            "--round-size", "200", "--max-rhat", "1e9", "--min-ess", minEss, "--max-rounds", maxRounds, "--checkpoint",
            checkpoint.toString(), "--out", tmp.resolve(out).toString()};
        BadInputTest.Result r = BadInputTest.runCapturing(ChainsJobTest.concat(run, more));
        assertEquals(ExitCode.OK, r.code(), r.err());
        return ChainsOutputs.summary(tmp.resolve(out));
    }

    /**
     * A truncated part file of a round's draws failed a Spark task on resume, which logged a 50-line trace before
     * the exit-2 message; it is now found, as a foreign checkpoint is, before Spark starts (the check needs no
     * Spark: it is called here without it), and the command prints one line.
     */
    @Test
    void unreadableOrForeignCheckpointIsRefusedBeforeSparkStarts() throws Exception {
        Path checkpoint = tmp.resolve("checkpoint");
        BadInputTest.Result first = run("--max-rounds", "2", "--checkpoint", checkpoint.toString(), "--out",
                tmp.resolve("first").toString());
        assertEquals(ExitCode.OK, first.code(), first.err());
        String fingerprint = fingerprint(checkpoint);
        InvalidInputException foreign = assertThrows(InvalidInputException.class, () -> new ChainsCheckpoint(
                checkpoint.toString(), new Configuration(), RWM).loadForResume(fingerprint.replace(" seed=20261122",
                    " seed=99"), 2));
        assertTrue(foreign.getMessage().contains("other settings (seed: checkpoint 20261122, now 99)"),
                foreign.getMessage());

        Path part;
        try (Stream<Path> files = Files.list(checkpoint.resolve("rounds/round-00002.parquet"))) {
            part = files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        Files.write(part, Arrays.copyOf(Files.readAllBytes(part), 100));
        Files.deleteIfExists(part.resolveSibling("." + part.getFileName() + ".crc"));
        InvalidInputException truncated = assertThrows(InvalidInputException.class, () -> new ChainsCheckpoint(
                checkpoint.toString(), new Configuration(), RWM).loadForResume(fingerprint, 2));
        // Parquet's reason depends on the bytes left at the cut ("is not a Parquet file", "footer is too large").
        assertTrue(truncated.getMessage().matches("(?s).*round-00002\\.parquet cannot be read \\(.+\\); remove .*"),
                truncated.getMessage());

        Path out = tmp.resolve("out-truncated");
        BadInputTest.Result r = resume(checkpoint, out);
        assertRefused(r, out, "round-00002.parquet cannot be read (");
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());

        deleteTree(checkpoint.resolve("rounds/round-00002.parquet"));
        assertRefused(resume(checkpoint, out), out, "is incomplete: its draws ");
    }

    private static void assertRefused(BadInputTest.Result r, Path out, String expected) {
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    private static BadInputTest.Result run(String... more) {
        return BadInputTest.runCapturing(ChainsJobTest.concat(RUN, more));
    }

    private static BadInputTest.Result resume(Path checkpoint, Path out, String... more) {
        return run(ChainsJobTest.concat(new String[] {"--max-rounds", "3", "--checkpoint", checkpoint.toString(),
            "--resume", "--out", out.toString()}, more));
    }

    /** The fingerprint the state in {@code checkpoint} was written with. */
    private static String fingerprint(Path checkpoint) throws IOException {
        String state = Files.readString(checkpoint.resolve("state-00003.json"), StandardCharsets.UTF_8);
        return CheckpointStates.JSON.readTree(state.substring(0, state.lastIndexOf("\n#sha256:")))
                .get("fingerprint").asText();
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path f : s.toList()) {
                Files.copy(f, to.resolve(from.relativize(f).toString()));
            }
        }
        return to;
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
