package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.core.smc.models.LocalLevelModel;
import org.sparkmc.core.smc.models.StochasticVolatilityModel;
import org.sparkmc.spark.LoggedLines;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * The smc job end to end in local mode, from the shipped configs to the files it writes. Statistical checks use a
 * fixed seed; their tolerances were calibrated on 30 independent runs of core's filter (the job is bit-identical to
 * it, {@link SmcDistributedTest}): with N = 20,000 the sd of log p̂ on Nile is 0.082, so |log p̂ − Kalman| &lt; 0.5
 * is 6 sd (false-failure rate below 1e-8 under the usual normal approximation of log p̂); the largest filtering-mean
 * error in 3,000 (run, step) pairs was 0.065 Kalman sd, and the bound is 0.2. The exact statistical tests of the
 * filter (Kalman within Monte Carlo error, unbiasedness of p̂) live in core.
 */
class SmcJobTest extends SparkTestBase {
    private static final String HEADER = "step,t,mean_level,sd_level,ess,resampled,log_likelihood_increment,observed,"
            + "y_flow";

    @TempDir
    Path tmp;

    static JsonNode summary(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }

    /**
     * Issue 17: every progress line splits its step's wall time into the executors' compute and the rest, over two
     * partitions (relayed stages, the default, and a Spark job per step, asked for) and over one (steps in chunks
     * inside one task); the three write the same filter.csv.
     */
    @Test
    void progressLinesSplitComputeAndSync() throws Exception {
        List<String> filter = null;
        for (List<String> how : List.of(List.of("2"), List.of("2", "--sync-via", "jobs"), List.of("1"))) {
            Path out = tmp.resolve("progress-" + String.join("", how));
            List<String> lines = LoggedLines.of(SmcJob.class, () -> {
                List<String> args = new java.util.ArrayList<>(List.of("smc", "--conf",
                        TestPaths.conf("smc-nile.conf").toString(), "--data", SmcTestData.nileFile().toString(),
                        "--particles", "10000", "--out", out.toString(), "--partitions"));
                args.addAll(how);
                assertEquals(ExitCode.OK, Main.run(args.toArray(String[]::new)));
                return null;
            });
            List<String> steps = lines.stream().filter(l -> l.startsWith("step ")).toList();
            assertTrue(steps.get(steps.size() - 1).startsWith("step 100/100"), steps.toString());
            for (String line : steps) {
                assertTrue(line.matches(".*  compute \\d+\\.\\d ms  sync \\d+\\.\\d ms"), line);
            }
            List<String> rows = Files.readAllLines(out.resolve("filter.csv"));
            if (filter != null) {
                assertEquals(filter, rows, "filter.csv with --partitions " + how);
            }
            filter = rows;
        }
    }

    /**
     * A block size far above the particles makes one block of them all: the task's working space was the block size
     * (16 GB of doubles here, an out-of-memory exit), and is now the largest block's.
     */
    @Test
    void aBlockSizeAboveTheParticlesIsOneBlockOfThemAll() throws Exception {
        List<String> filter = null;
        for (String blockSize : List.of("1000", "2000000000")) {
            Path out = tmp.resolve("block-" + blockSize);
            assertEquals(ExitCode.OK, Main.run("smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--data",
                    SmcTestData.nileFile().toString(), "--particles", "1000", "--block-size", blockSize, "--out",
                    out.toString()));
            List<String> rows = Files.readAllLines(out.resolve("filter.csv"));
            if (filter != null) {
                assertEquals(filter, rows);
            }
            filter = rows;
        }
    }

    /**
     * A long series' step rows go to Parquet a task (and a part file) per {@link SmcOutput#ROWS_PER_TASK} steps: one
     * task held every row (89 MB at 10^6 steps, with Spark's task-size warning). The rows read back in step order
     * equal filter.csv's.
     */
    @Test
    void aLongSeriesIsWrittenInTasksOfBoundedSize() throws Exception {
        int steps = SmcOutput.ROWS_PER_TASK + 904;
        StringBuilder csv = new StringBuilder("\"year\",\"flow\"\n");
        java.util.SplittableRandom rng = new java.util.SplittableRandom(5);
        double level = 900;
        for (int t = 1; t <= steps; t++) {
            level += 40 * rng.nextGaussian();
            csv.append(t).append(',').append(Math.round(level + 120 * rng.nextGaussian())).append('\n');
        }
        Path data = Files.writeString(tmp.resolve("long.csv"), csv);
        Path out = tmp.resolve("long");
        int code = Main.run("smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--data", data.toString(),
                "--particles", "200", "--partitions", "1", "--out", out.toString());
        assertEquals(ExitCode.OK, code);
        try (var files = Files.list(out.resolve("filter.parquet"))) {
            assertEquals(2, files.filter(f -> f.getFileName().toString().startsWith("part-")).count());
        }
        List<Row> rows = spark().read().parquet(out.resolve("filter.parquet").toString()).orderBy("step")
                .collectAsList();
        List<String> lines = Files.readAllLines(out.resolve("filter.csv"));
        assertEquals(steps, rows.size());
        for (int n = 0; n < steps; n += 997) {
            String[] f = lines.get(n + 1).split(",");
            assertEquals(Integer.parseInt(f[0]), rows.get(n).getInt(0));
            assertEquals(Double.parseDouble(f[2]), rows.get(n).getDouble(2), 0.0);
        }
    }

    /**
     * The Nile config's filter against Kalman. Tolerances from 200 independent filters of N = 20,000 (core's bootstrap
     * filter, the job's settings): log p̂ − log p has sd 0.076, the worst step's filtering mean errs by 0.028 Kalman sds
     * (root mean square) and its sd by 1.8%. Bounds of 0.35, 0.15 sd and 10% are 4.6 sd for log p̂ and over 5 sd at
     * each of the 100 steps: about 2e-5 false failures in all for a fresh seed.
     */
    @Test
    void nileConfigWritesEveryOutputAndMatchesKalman() throws Exception {
        Path out = tmp.resolve("nile");
        int code = Main.run("smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--data",
                SmcTestData.nileFile().toString(), "--particles", "20000", "--out", out.toString());
        assertEquals(ExitCode.OK, code);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        JsonNode s = summary(out);
        KalmanFilter.Result kalman = KalmanFilter.run(LocalLevelModel.nile().asLinearGaussian(),
                SmcTestData.nile().values());
        assertEquals("smc", s.get("job").asText());
        assertEquals("local-level", s.get("model").asText());
        assertEquals(100, s.get("steps").asInt());
        assertEquals(20000, s.get("particles").asInt());
        assertEquals(4096, s.get("block_size").asInt());
        assertEquals(5, s.get("blocks").asInt());
        assertEquals(2, s.get("partitions").asInt());
        // What it takes to run again: the config's model parameters as the model used them, its time column.
        assertEquals(15099.0, s.get("model_params").get("observation_variance").asDouble(), s::toString);
        assertEquals(1469.1, s.get("model_params").get("level_variance").asDouble(), s::toString);
        assertEquals(1120.0, s.get("model_params").get("initial_mean").asDouble(), s::toString);
        assertEquals("year", s.get("time_column").asText(), s::toString);
        assertEquals(kalman.logLikelihood(), s.get("kalman_log_likelihood").asDouble(), 1e-9);
        double ll = s.get("log_likelihood").asDouble();
        assertTrue(Math.abs(ll - kalman.logLikelihood()) < 0.35, "log p̂ " + ll + " vs Kalman " + kalman.logLikelihood());

        List<String> lines = Files.readAllLines(out.resolve("filter.csv"));
        assertEquals(HEADER, lines.get(0));
        assertEquals(101, lines.size());
        int resampled = 0;
        double sum = 0;
        for (int n = 0; n < 100; n++) {
            String[] f = lines.get(n + 1).split(",");
            assertEquals(n, Integer.parseInt(f[0]));
            assertEquals(1871 + n, Double.parseDouble(f[1]), 0.0);
            double kalmanSd = Math.sqrt(kalman.variance(n, 0));
            assertTrue(Math.abs(Double.parseDouble(f[2]) - kalman.means()[n][0]) < 0.15 * kalmanSd, lines.get(n + 1));
            assertEquals(kalmanSd, Double.parseDouble(f[3]), 0.1 * kalmanSd);
            resampled += Boolean.parseBoolean(f[5]) ? 1 : 0;
            sum += Double.parseDouble(f[6]);
        }
        assertEquals(s.get("resampling_count").asInt(), resampled);
        assertTrue(resampled > 0 && resampled < 100, "resampled " + resampled);
        assertEquals(ll, sum, 1e-9, "the increments add up to log p̂");

        List<Row> rows = spark().read().parquet(out.resolve("filter.parquet").toString()).orderBy("step")
                .collectAsList();
        assertEquals(100, rows.size());
        assertEquals(List.of(HEADER.split(",")), List.of(rows.get(0).schema().fieldNames()));
        for (int n = 0; n < 100; n++) {
            assertEquals(Double.parseDouble(lines.get(n + 1).split(",")[2]), rows.get(n).getDouble(2), 0.0);
        }
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<svg") && html.contains("Kalman") && html.contains("ESS per step"));
        assertTrue(html.contains("4 × 4096 + 1 × 3616"), "20,000 particles are not 5 × 4096");
        // Filter band shaded under the filter mean, the Kalman lines dashed on top, all named in the legend.
        String level = html.substring(html.indexOf("filtering mean of"));
        int band = level.indexOf("fill-opacity=\"0.3\" stroke=\"none\"");
        int mean = level.indexOf("<polyline fill=\"none\" stroke=\"#0072B2\"");
        int dashed = level.indexOf("stroke-dasharray=\"5 4\"");
        assertTrue(band > 0 && band < mean && mean < dashed, level);
        for (String key : new String[] {"particle mean", "particle ±2 sd", "Kalman mean", "Kalman ±2 sd"}) {
            assertTrue(level.contains("class=\"lg\">" + key + "<"), key);
        }
    }

    @Test
    void linearGaussianTrendWithGuidedFilterMatchesKalman() throws Exception {
        Path out = tmp.resolve("trend");
        int code = Main.run("smc", "--conf", TestPaths.conf("smc-nile-trend.conf").toString(), "--data",
                SmcTestData.nileFile().toString(), "--particles", "5000", "--out", out.toString());
        assertEquals(ExitCode.OK, code);
        JsonNode s = summary(out);
        // calibrated: sd of log p̂ 0.14 at N = 5,000 (30 runs); 1.0 is 7 sd
        assertTrue(Math.abs(s.get("log_likelihood").asDouble() - s.get("kalman_log_likelihood").asDouble()) < 1.0,
                s.toString());
        assertTrue(Files.readAllLines(out.resolve("filter.csv")).get(0)
                .startsWith("step,t,mean_x1,sd_x1,mean_x2,sd_x2,ess,"));
    }

    @Test
    void stochasticVolatilityRunsOnSimulatedReturns() throws Exception {
        StochasticVolatilityModel model = new StochasticVolatilityModel(0.91, 1.0, 0.5);
        double[][] sim = model.simulate(60, new Rng(new RandomStreams(5).stream("simulate")));
        StringBuilder csv = new StringBuilder("t,return\n");
        for (int n = 0; n < 60; n++) {
            csv.append(n).append(',').append(sim[1][n]).append('\n');
        }
        Path data = Files.writeString(tmp.resolve("returns.csv"), csv);
        Path out = tmp.resolve("sv");
        int code = Main.run("smc", "--model", "stochastic-volatility", "--param", "phi=0.91", "--data",
                data.toString(), "--particles", "3000", "--block-size", "1000", "--resampling", "residual", "--out",
                out.toString());
        assertEquals(ExitCode.OK, code);
        JsonNode s = summary(out);
        assertTrue(s.get("kalman_log_likelihood").isNull());
        assertEquals(0.91, s.get("model_params").get("phi").asDouble(), s::toString);
        assertTrue(s.get("time_column").isNull(), s::toString); // the default: the column named t
        assertTrue(Double.isFinite(s.get("log_likelihood").asDouble()));
        assertTrue(Files.readAllLines(out.resolve("filter.csv")).get(0)
                .startsWith("step,t,mean_log_volatility,sd_log_volatility,"));
    }
}
