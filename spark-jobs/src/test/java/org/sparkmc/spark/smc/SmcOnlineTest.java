package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * Online mode: a producer drops the Nile series into a directory in batches while the job follows it; the result
 * equals the batch run on the whole file (the same steps in the same order: bit-identical). Deterministic.
 */
class SmcOnlineTest extends SparkTestBase {
    private static final String[] RUN = {"smc", "--time-column", "year", "--particles", "2000", "--block-size", "500",
        "--seed", "31"};

    @TempDir
    Path tmp;

    @Test
    void followingBatchesAsTheyArriveEqualsTheBatchRun() throws Exception {
        Path batchOut = tmp.resolve("batch");
        assertEquals(ExitCode.OK, Main.run(concat(RUN, "--data", SmcTestData.nileFile().toString(), "--out",
                batchOut.toString())));

        Path inbox = Files.createDirectories(tmp.resolve("inbox"));
        List<String> lines = Files.readAllLines(SmcTestData.nileFile());
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> produce(inbox, lines));
        Path onlineOut = tmp.resolve("online");
        int code = Main.run(concat(RUN, "--data", inbox.toString(), "--follow", "--poll-seconds", "0.1", "--out",
                onlineOut.toString()));
        producer.get(60, TimeUnit.SECONDS);
        assertEquals(ExitCode.OK, code);

        assertEquals(Files.readString(batchOut.resolve("filter.csv")), Files.readString(onlineOut.resolve("filter.csv")));
        JsonNode batch = SmcJobTest.summary(batchOut);
        JsonNode online = SmcJobTest.summary(onlineOut);
        assertEquals(batch.get("log_likelihood").asDouble(), online.get("log_likelihood").asDouble(), 0.0);
        assertEquals("online", online.get("mode").asText());
        assertEquals(100, online.get("steps").asInt());
    }

    /** Batches of 7, 30, 1, 40 and 22 rows, each written under a hidden name and renamed, then the end marker. */
    private static void produce(Path inbox, List<String> lines) {
        String header = lines.get(0);
        int[] sizes = {7, 30, 1, 40, 22};
        int at = 1;
        try {
            for (int b = 0; b < sizes.length; b++) {
                Thread.sleep(300);
                StringBuilder batch = new StringBuilder(header).append('\n');
                for (int i = 0; i < sizes[b]; i++) {
                    batch.append(lines.get(at++)).append('\n');
                }
                Path hidden = Files.writeString(inbox.resolve(".batch-" + b + ".tmp"), batch);
                Files.move(hidden, inbox.resolve(String.format("batch-%03d.csv", b)),
                        StandardCopyOption.ATOMIC_MOVE);
            }
            Thread.sleep(300);
            Files.writeString(inbox.resolve(ObservationFeed.END_MARKER), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A directory of batch files without --follow is read once in name order; a late file is an error. */
    @Test
    void aDirectoryIsReadInNameOrderAndLateBatchesAreRefused() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("batches"));
        List<String> lines = Files.readAllLines(SmcTestData.nileFile());
        Files.writeString(dir.resolve("b.csv"), lines.get(0) + "\n" + String.join("\n", lines.subList(51, 101)) + "\n");
        Files.writeString(dir.resolve("a.csv"), lines.get(0) + "\n" + String.join("\n", lines.subList(1, 51)) + "\n");
        Files.writeString(dir.resolve("_notes.txt"), "ignored");
        Path out = tmp.resolve("dir");
        assertEquals(ExitCode.OK, Main.run(concat(RUN, "--data", dir.toString(), "--out", out.toString())));
        Path whole = tmp.resolve("whole");
        assertEquals(ExitCode.OK, Main.run(concat(RUN, "--data", SmcTestData.nileFile().toString(), "--out",
                whole.toString())));
        assertEquals(Files.readString(whole.resolve("filter.csv")), Files.readString(out.resolve("filter.csv")));

        ObservationFeed feed = ObservationFeed.open(dir.toString(),
                org.sparkmc.core.smc.ObservationCsv.Options.defaults().withTimeColumn("year"),
                ObservationFeed.Follow.OFF, 1, new org.apache.hadoop.conf.Configuration());
        assertEquals(50, feed.next().size());
        Files.writeString(dir.resolve("0-late.csv"), lines.get(0) + "\n" + lines.get(1) + "\n");
        org.sparkmc.core.InvalidInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.sparkmc.core.InvalidInputException.class, feed::next);
        assertTrue(e.getMessage().contains("'0-late.csv'") && e.getMessage().contains("name order"), e.getMessage());
    }

    @Test
    void aBadBatchInTheStreamExitsTwoNamingItsFileAndLine() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("bad"));
        Files.writeString(dir.resolve("1.csv"), "year,flow\n1871,1120\n");
        Files.writeString(dir.resolve("2.csv"), "year,flow\n1872,1160\n1873,oops\n");
        Path out = tmp.resolve("bad-out");
        BadInputTest.Result r = BadInputTest.runCapturing(concat(RUN, "--data", dir.toString(), "--out",
                out.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("2.csv line 3"), r.err());
        assertTrue(!Files.exists(out));
    }

    /** A followed directory where no batch arrives before the idle timeout: no step ran, once exit 0 and an output. */
    @Test
    void noBatchBeforeTheIdleTimeoutExitsTwo() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("empty"));
        Path out = tmp.resolve("empty-out");
        BadInputTest.Result r = BadInputTest.runCapturing(concat(RUN, "--data", dir.toString(), "--follow",
                "--poll-seconds", "0.2", "--idle-timeout", "1", "--out", out.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("no batch file arrived in '" + dir + "' within --idle-timeout 1.0 s"), r.err());
        assertTrue(!Files.exists(out));
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
