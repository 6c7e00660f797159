package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * Every job that writes an output directory finds an unwritable {@code --out} when it opens the output, before any
 * sampling: exit code 2, one message naming the location and why, no stack trace, nothing left behind. (Before, the
 * jobs sampled everything and then failed at the commit with exit code 1 and Hadoop's "Mkdirs failed" trace.)
 */
class UnwritableOutputTest extends SparkTestBase {
    @TempDir
    Path tmp;

    /** The output goes under a regular file, which no user (root included) can create a directory in. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chains", "lda", "smc", "bn", "diagnose"})
    void anUnwritableOutputFailsBeforeTheRun(String job) throws IOException {
        Path place = Files.createDirectories(tmp.resolve("place"));
        Path file = Files.writeString(place.resolve("a-file"), "not a directory");
        Path out = file.resolve("out");
        List<String> args = new ArrayList<>(List.of(job));
        args.addAll(jobArgs(job));
        args.addAll(List.of("--out", out.toString()));
        BadInputTest.Result r = BadInputTest.runCapturing(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("cannot write output '" + out + "'"), r.err());
        assertTrue(r.err().contains("a-file is a file, not a directory"), "says which path is in the way: " + r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertTrue(r.err().lines().count() <= 2, r.err());
        try (Stream<Path> left = Files.list(place)) {
            assertEquals(List.of(file), left.toList(), "nothing else created");
        }
    }

    /** Small but real runs: on the old code each of these ran to its end before failing. */
    private List<String> jobArgs(String job) throws IOException {
        Path root = TestPaths.projectRoot();
        return switch (job) {
            case "chains" -> List.of("--chains", "2", "--warmup", "50", "--round-size", "50", "--max-rounds", "1");
            case "lda" -> {
                Path text = Files.createDirectories(tmp.resolve("corpus"));
                Files.writeString(text.resolve("a.txt"), "apples pears apples plums\n");
                Files.writeString(text.resolve("b.txt"), "pears plums pears apples\n");
                yield List.of("--text", text.toString(), "--min-df", "1", "--topics", "2", "--sweeps", "5");
            }
            case "smc" -> List.of("--data", root.resolve("data/nile/nile.csv").toString(), "--time-column", "year",
                    "--particles", "200", "--block-size", "100");
            case "bn" -> List.of("--network", root.resolve("data/alarm/alarm.bif").toString(), "--query", "CO",
                    "--samples", "1000", "--block-size", "1000");
            case "diagnose" -> List.of(TestPaths.sharedData().resolve("diagnostics/stan_bern").toString());
            default -> throw new AssertionError(job);
        };
    }
}
