package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkTestBase;

/** generate-glm writes the same rows whatever the partition count: core's SyntheticGlmData rows for the seed. */
class ConsensusGenerateGlmTest extends SparkTestBase {
    @TempDir
    Path tmp;

    /** Coefficients whose rows cannot be drawn end in exit 2 and one line, not a task's crash (exit 1, 500 lines). */
    @Test
    void rowsTheModelCannotDrawExitTwo() {
        Path out = tmp.resolve("overflow");
        org.sparkmc.spark.cli.BadInputTest.Result r = org.sparkmc.spark.cli.BadInputTest.runCapturing("generate-glm",
                "--rows", "1000", "--family", "poisson", "--features", "2", "--coefficients", "22,1", "--out",
                out.toString());
        assertEquals(org.sparkmc.spark.cli.ExitCode.BAD_INPUT, r.code(), r.err());
        org.junit.jupiter.api.Assertions.assertTrue(r.err().contains("synthetic poisson data: row ")
                && !r.err().contains("\tat "), r.err());
        org.junit.jupiter.api.Assertions.assertFalse(Files.exists(out));
    }

    @Test
    void theRowsDoNotDependOnThePartitions() throws Exception {
        String[] options = {"--rows", "10000", "--features", "3", "--seed", "5", "--family", "poisson"};
        String one = ConsensusRuns.generate(tmp.resolve("one"), ConsensusRuns.concat(options, "--partitions", "1"));
        String three = ConsensusRuns.generate(tmp.resolve("three"), ConsensusRuns.concat(options, "--partitions",
                "3"));
        try (var files = Files.list(Path.of(three))) {
            assertEquals(3, files.filter(f -> f.getFileName().toString().endsWith(".parquet")).count());
        }
        List<double[]> a = rows(one);
        List<double[]> b = rows(three);
        assertEquals(10000, a.size());
        // The rows of core's generator for the same seed, in the table's order (row index order, file by file).
        Glm glm = Glm.of("poisson", GenerateGlmCommand.featureNames(3, true), 1);
        SyntheticGlmData.Rows expected = new SyntheticGlmData(glm, new double[] {1, -0.5, 1.0 / 3}, true,
                new RandomStreams(5)).rows(0, 10000);
        List<double[]> core = new ArrayList<>();
        for (int i = 0; i < 10000; i++) {
            core.add(new double[] {expected.responses()[i], expected.features()[3 * i],
                expected.features()[3 * i + 1], expected.features()[3 * i + 2]});
        }
        Comparator<double[]> order = java.util.Arrays::compare;
        a.sort(order);
        b.sort(order);
        core.sort(order);
        for (int i = 0; i < a.size(); i++) {
            assertTrue(java.util.Arrays.equals(a.get(i), b.get(i)), "row " + i);
            assertTrue(java.util.Arrays.equals(a.get(i), core.get(i)), "row " + i);
        }
        String truth = Files.readString(tmp.resolve("one/truth.json"));
        assertTrue(truth.contains("\"x1\" : -0.5") && truth.contains("\"intercept\" : 1.0"), truth);
    }

    private List<double[]> rows(String path) {
        List<double[]> out = new ArrayList<>();
        for (Row r : spark().read().parquet(path).select("y", "intercept", "x1", "x2").collectAsList()) {
            out.add(new double[] {r.getDouble(0), r.getDouble(1), r.getDouble(2), r.getDouble(3)});
        }
        return out;
    }
}
