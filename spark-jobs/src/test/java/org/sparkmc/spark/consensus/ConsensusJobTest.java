package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkTestBase;

/** The consensus job end to end on generated tables: accuracy against the full-data posterior, and determinism. */
class ConsensusJobTest extends SparkTestBase {
    private static final int ROWS = 20_000;
    private static final int P = 5;
    private static final long DATA_SEED = 11;

    @TempDir
    Path tmp;

    /**
     * Consensus with S = 2 and S = 4 against the exact full-data posterior of the same 20,000 logistic rows (an
     * intercept and 4 N(0, 1) features, coefficients 1, −1/2, 1/3, −1/4, 1/5), sampled on one machine by core's
     * {@link ShardSampler} with S = 1: every combined mean within 0.1 posterior sd of the reference mean, every
     * combined sd within 10% of the reference sd.
     *
     * <p>Both runs use the independence kernel from each (sub-)posterior's Laplace approximation, whose draws are
     * nearly independent here (acceptance 0.86), so 4 chains × 4,000 draws give a bulk ESS of 7,400–8,300: the
     * figures are logged and the test also requires bulk ESS ≥ 2,000 and R-hat < 1.01 for every combined parameter.
     * Monte Carlo error: with ESS ≥ 2,000 on both sides, the difference of two means has sd ≤ √(2/2000) ≈ 0.032
     * posterior sds, so the 0.1 bound is ≥ 3.1 sds of Monte Carlo noise; with the ESS measured (≈ 8,000 each) it
     * is about 6.3 sds (two-sided 3·10⁻¹⁰ per mean; the largest |z| seen was 0.046). An sd estimate's relative
     * error is about 1/√(2·ESS) ≤ 1.6% each, so 10% is ≥ 4.4 sds. Over 10 means and 10 sds the false-failure rate
     * is below 0.2% for a random seed; the seeds are fixed, so the test is deterministic. What it can detect is the
     * combination's own bias (Gaussian sub-posteriors with 5,000–10,000 rows each: a few hundredths of an sd) or a
     * wrong prior power or weighting, which would move the means by many sds.
     */
    @Test
    void consensusMatchesTheFullDataPosterior() {
        String data = ConsensusRuns.generate(tmp.resolve("data"), "--rows", Integer.toString(ROWS), "--features",
                Integer.toString(P), "--seed", Long.toString(DATA_SEED), "--partitions", "2");
        List<String> names = GenerateGlmCommand.featureNames(P, true);
        double[][] reference = reference(names);
        for (int shards : new int[] {2, 4}) {
            Path out = tmp.resolve("s" + shards);
            ConsensusRuns.consensus(data, out, "--shards", Integer.toString(shards), "--kernel", "independence",
                    "--chains", "4", "--warmup", "200", "--iterations", "4000", "--seed", "3");
            List<Row> rows = ConsensusRuns.draws(spark(), out);
            assertEquals(4 * 4000, rows.size());
            for (int j = 0; j < P; j++) {
                double[] x = ConsensusRuns.column(rows, names.get(j));
                double mean = ConsensusRuns.mean(x);
                double sd = ConsensusRuns.sd(x);
                double z = (mean - reference[0][j]) / reference[1][j];
                double ratio = sd / reference[1][j];
                System.out.printf("S=%d %s: mean %.5f (reference %.5f, %.3f sd), sd %.5f (ratio %.4f)%n", shards,
                        names.get(j), mean, reference[0][j], z, sd, ratio);
                assertTrue(Math.abs(z) < 0.1, "S=" + shards + " " + names.get(j) + ": mean off by " + z + " sd");
                assertTrue(Math.abs(ratio - 1) < 0.1, "S=" + shards + " " + names.get(j) + ": sd ratio " + ratio);
            }
            String summary = readString(out.resolve("summary.csv"));
            for (String line : summary.lines().skip(1).toList()) {
                String[] f = line.split(",");
                assertTrue(Double.parseDouble(f[6]) < 1.01 && Double.parseDouble(f[7]) >= 2000, line);
            }
            assertTrue(Files.exists(out.resolve("report.html")) && Files.exists(out.resolve("shard_draws.parquet"))
                    && Files.exists(out.resolve("_SUCCESS")));
        }
    }

    /** The full-data posterior's mean and sd per coefficient: S = 1 on every row, on this thread, no Spark. */
    private static double[][] reference(List<String> names) {
        Glm glm = Glm.of("logistic", names, 1);
        double[] truth = {1, -0.5, 1.0 / 3, -0.25, 0.2};
        SyntheticGlmData.Rows rows = new SyntheticGlmData(glm, truth, true, new RandomStreams(DATA_SEED))
                .rows(0, ROWS);
        ShardSampler.Result r = ShardSampler.run(glm, rows.features(), rows.responses(), 10, 1, 0,
                new ShardSampler.Settings("independence", Double.NaN, 4, 200, 4000), new RandomStreams(99));
        double[][] out = new double[2][P];
        for (int j = 0; j < P; j++) {
            double[] pooled = new double[4 * 4000];
            for (int c = 0; c < 4; c++) {
                System.arraycopy(r.draws()[c][j], 0, pooled, c * 4000, 4000);
            }
            out[0][j] = ConsensusRuns.mean(pooled);
            out[1][j] = ConsensusRuns.sd(pooled);
        }
        System.out.printf("reference acceptance %.3f%n", (double) r.accepted() / r.proposed());
        return out;
    }

    /**
     * The draws depend on the rows, the seed and the number of shards, not on how the table is cut: the same rows as
     * one Parquet file, as three, read in many small partitions, and as a CSV file give identical draws.
     */
    @Test
    void drawsDoNotDependOnFilesOrPartitions() throws Exception {
        String[] generate = {"--rows", "6000", "--features", "3", "--seed", "8"};
        String one = ConsensusRuns.generate(tmp.resolve("one"), ConsensusRuns.concat(generate, "--partitions", "1"));
        String three = ConsensusRuns.generate(tmp.resolve("three"), ConsensusRuns.concat(generate, "--partitions",
                "3"));
        List<Row> draws = ConsensusRuns.sameDrawsFromEveryCopy(spark(), tmp, one, three, "8192", "--shards", "3",
                "--chains", "2", "--warmup", "200", "--iterations", "300", "--seed", "4", "--kernel", "am");
        assertEquals(2 * 300, draws.size());
    }

    /**
     * A Parquet table's columns of every numeric type are read as numbers, and its columns of other types are
     * passed over: float, short and byte features give the draws of the same values stored as doubles (each value
     * is a multiple of 1/4, exact in every type), beside a timestamp, a date and a string the job does not use.
     * Spark ships the table's schema through Kryo, where such types failed the run (exit 1) as unregistered classes.
     */
    @Test
    void everyNumericParquetTypeIsReadAndOtherTypesArePassedOver() {
        List<Row> typed = new ArrayList<>();
        List<Row> doubles = new ArrayList<>();
        RandomStreams streams = new RandomStreams(5);
        var rng = streams.rng("typed table");
        for (int i = 0; i < 300; i++) {
            int a = (int) Math.floor(rng.uniform() * 9) - 4;
            int b = (int) Math.floor(rng.uniform() * 9) - 4;
            int c = (int) Math.floor(rng.uniform() * 3);
            double y = rng.uniform() < 1 / (1 + Math.exp(-a / 4.0 + b / 8.0)) ? 1 : 0;
            typed.add(RowFactory.create(y, (float) (a / 4.0), (short) b, (byte) c,
                    new java.sql.Timestamp(1_700_000_000_000L + i), java.sql.Date.valueOf("2026-12-02"), "r" + i));
            doubles.add(RowFactory.create(y, a / 4.0, (double) b, (double) c));
        }
        String typedPath = tmp.resolve("typed.parquet").toString();
        spark().createDataFrame(typed, DataTypes.createStructType(List.of(
                field("y", DataTypes.DoubleType),
                field("x1", DataTypes.FloatType),
                field("x2", DataTypes.ShortType),
                field("x3", DataTypes.ByteType),
                field("t", DataTypes.TimestampType),
                field("d", DataTypes.DateType),
                field("s", DataTypes.StringType)))).coalesce(1).write().parquet(typedPath);
        String doublePath = tmp.resolve("doubles.parquet").toString();
        spark().createDataFrame(doubles, DataTypes.createStructType(List.of(
                field("y", DataTypes.DoubleType),
                field("x1", DataTypes.DoubleType),
                field("x2", DataTypes.DoubleType),
                field("x3", DataTypes.DoubleType)))).coalesce(1).write()
                .parquet(doublePath);
        String[] run = {"--shards", "2", "--chains", "2", "--warmup", "50", "--iterations", "50", "--seed", "9"};
        ConsensusRuns.consensus(typedPath, tmp.resolve("typed"), run);
        ConsensusRuns.consensus(doublePath, tmp.resolve("doubles"), run);
        assertEquals(ConsensusRuns.draws(spark(), tmp.resolve("doubles")), ConsensusRuns.draws(spark(),
                tmp.resolve("typed")));
    }

    private static StructField field(String name, DataType type) {
        return DataTypes.createStructField(name, type, false);
    }

    /**
     * A relative {@code --data} whose first segment holds a colon ({@code consensus-run:PID/t.csv}) is a path, as
     * for the other jobs, not a URI with a scheme: the job reads it (Hadoop's Path had refused it, after Spark
     * started, with exit 1). CSV, so that the headers are read again by name too. The directory is made in the
     * working directory, as only a relative path has a first segment of its own, and removed after.
     */
    @Test
    void relativeTableWithAColonInItsFirstSegmentIsRead() throws Exception {
        String parquet = ConsensusRuns.generate(tmp.resolve("g"), "--rows", "400", "--features", "2", "--seed", "3");
        Path here = Path.of("").toAbsolutePath();
        Path dir = here.resolve("consensus-run:" + ProcessHandle.current().pid());
        try {
            spark().read().parquet(parquet).coalesce(1).write().option("header", "true")
                    .csv(dir.resolve("t.csv").toString());
            String relative = here.relativize(dir.resolve("t.csv")).toString();
            assertTrue(relative.startsWith("consensus-run:"), relative);
            Path out = tmp.resolve("out");
            ConsensusRuns.consensus(relative, out, "--shards", "2", "--chains", "2", "--warmup", "50",
                    "--iterations", "50");
            assertTrue(Files.exists(out.resolve("_SUCCESS")));
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * Spaces after the commas of a CSV header are dropped, as diagnose drops them, with those around values: the
     * parameters were named ' intercept' and ' x1', with a leading space. The same draws as without the spaces.
     */
    @Test
    void spacesAroundTheFieldsOfACsvTableAreDropped() throws Exception {
        StringBuilder spaced = new StringBuilder("y, intercept, x1\n");
        StringBuilder plain = new StringBuilder("y,intercept,x1\n");
        for (int i = 0; i < 60; i++) {
            double x = ((i * 37) % 61) / 30.0 - 1;
            int y = (i * 13) % 5 < 2 ? 1 : 0;
            spaced.append(y).append(", 1, ").append(x).append(" \n");
            plain.append(y).append(",1,").append(x).append('\n');
        }
        Path withSpaces = Files.writeString(tmp.resolve("spaced.csv"), spaced);
        Path without = Files.writeString(tmp.resolve("plain.csv"), plain);
        String[] run = {"--shards", "2", "--chains", "2", "--warmup", "50", "--iterations", "50"};
        ConsensusRuns.consensus(withSpaces.toString(), tmp.resolve("spaced"), run);
        ConsensusRuns.consensus(without.toString(), tmp.resolve("plain"), run);
        List<String> names = Files.readAllLines(tmp.resolve("spaced/summary.csv")).stream().skip(1)
                .map(l -> l.substring(0, l.indexOf(','))).toList();
        assertTrue(names.contains("intercept") && names.contains("x1")
                && names.stream().noneMatch(n -> n.startsWith(" ")), names.toString());
        assertEquals(ConsensusRuns.draws(spark(), tmp.resolve("plain")), ConsensusRuns.draws(spark(),
                tmp.resolve("spaced")));
    }

    /**
     * Shards whose chains have not converged are warned of, naming them: a run of 40 rows on 8 shards had shard R-hat
     * up to 1.96 and bulk ESS 6, and said so only at INFO. Two chains of 20 draws cannot reach an ESS of 400, so
     * every shard fails here.
     */
    @Test
    void shardsWhoseChainsHaveNotConvergedAreWarnedOf() throws Exception {
        StringBuilder csv = new StringBuilder("y,intercept,x1\n");
        for (int i = 0; i < 40; i++) {
            csv.append((i * 13) % 5 < 2 ? 1 : 0).append(",1,").append(((i * 37) % 61) / 30.0 - 1).append('\n');
        }
        Path data = Files.writeString(tmp.resolve("few.csv"), csv);
        List<String> warnings = org.sparkmc.spark.LoggedLines.of(ConsensusJob.class,
                org.apache.logging.log4j.Level.WARN, () -> {
                    ConsensusRuns.consensus(data.toString(), tmp.resolve("few"), "--shards", "4", "--chains", "2",
                            "--warmup", "20", "--iterations", "20");
                    return null;
                });
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("consensus: the chains of 4 of 4 shards have not "
                + "converged (R-hat < 1.01 and bulk and tail ESS ≥ 400, the chains job's defaults): shard 0 (")
                && w.contains("give more --iterations or --warmup, or fewer shards")), warnings.toString());
    }

    /**
     * The shards' min bulk ESS and max R-hat count lp__, as the chains job and this job's own convergence warning do
     * (a shard whose lp__ mixed worst than its coefficients reported the coefficients' figures): here lp__ is a slow
     * random walk beside independent coefficients, and its ESS and R-hat are the shards' worst.
     */
    @Test
    void shardMinEssAndMaxRhatCountLp() {
        java.util.Random random = new java.util.Random(5);
        double[][] independent = new double[2][400];
        double[][] sticky = new double[2][400];
        for (int c = 0; c < 2; c++) {
            double walk = c * 3;
            for (int i = 0; i < 400; i++) {
                independent[c][i] = random.nextGaussian();
                walk += 0.1 * random.nextGaussian();
                sticky[c][i] = walk;
            }
        }
        org.sparkmc.core.diagnostics.FullParameterSummary b = org.sparkmc.core.diagnostics.FullParameterSummary
                .of("b", independent);
        org.sparkmc.core.diagnostics.FullParameterSummary lp = org.sparkmc.core.diagnostics.FullParameterSummary
                .of("lp__", sticky);
        assertTrue(lp.essBulk() < b.essBulk() && lp.rhat() > b.rhat(), lp + " vs " + b);
        ConsensusResult result = new ConsensusResult(List.of("b"), null, List.of(), List.of(), null,
                List.of(List.of(b, lp)), null, null, Double.NaN, 0, 0);
        assertEquals(lp.essBulk(), result.minShardEss());
        assertEquals(lp.rhat(), result.maxShardRhat());
    }

    /**
     * summary.json's shard figures are the worst over every shard's summaries (lp__ among them) and the shard lines
     * show the same rule; summary.json also records how the table was read, the model built and the kernel's scale,
     * so the run can be given again.
     */
    @Test
    void shardFiguresAndTheSettingsAreRecorded() throws Exception {
        String data = ConsensusRuns.generate(tmp.resolve("lp-data"));
        Path out = tmp.resolve("lp");
        List<String> lines = org.sparkmc.spark.LoggedLines.of(ConsensusJob.class, () -> {
            ConsensusRuns.consensus(data, out, "--shards", "2", "--chains", "2", "--iterations", "100", "--warmup",
                    "50", "--seed", "12");
            return null;
        });
        com.fasterxml.jackson.databind.JsonNode summary = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.resolve("summary.json").toFile());
        double minEss = Double.POSITIVE_INFINITY;
        double maxRhat = 0;
        for (com.fasterxml.jackson.databind.JsonNode shard : summary.get("shard_results")) {
            for (com.fasterxml.jackson.databind.JsonNode p : shard.get("parameters")) {
                maxRhat = Math.max(maxRhat, p.get("rhat").asDouble());
                minEss = Math.min(minEss, p.get("ess_bulk").asDouble());
            }
        }
        assertEquals(minEss, summary.get("min_shard_ess_bulk").asDouble(), summary::toString);
        assertEquals(maxRhat, summary.get("max_shard_rhat").asDouble(), summary::toString);
        com.fasterxml.jackson.databind.JsonNode first = summary.get("shard_results").get(0).get("parameters");
        double shard0Ess = Double.POSITIVE_INFINITY;
        for (com.fasterxml.jackson.databind.JsonNode p : first) {
            shard0Ess = Math.min(shard0Ess, p.get("ess_bulk").asDouble());
        }
        String line = lines.stream().filter(l -> l.startsWith("shard 0/2:") && l.contains("min ESS"))
                .findFirst().orElseThrow();
        assertTrue(line.contains(String.format(java.util.Locale.ROOT, "min ESS bulk %.0f ", shard0Ess)), line);
        assertEquals("parquet", summary.get("format").asText(), summary::toString);
        assertEquals("y", summary.get("response").asText(), summary::toString);
        assertEquals(GenerateGlmCommand.featureNames(P, true).toString(), summary.get("features").toString()
                .replace("\"", "").replace(",", ", "), summary::toString);
        assertTrue(summary.get("scale").isNull(), summary::toString); // the kernel's automatic scale
        assertTrue(summary.get("sigma_prior_scale").isNull(), summary::toString); // logistic: no σ
        Path given = tmp.resolve("given");
        ConsensusRuns.consensus(data, given, "--shards", "2", "--chains", "2", "--iterations", "20", "--warmup",
                "20", "--kernel", "rwm", "--scale", "0.5", "--features", "x2,intercept", "--family", "gaussian",
                "--sigma-prior-scale", "3");
        com.fasterxml.jackson.databind.JsonNode settings = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(given.resolve("summary.json").toFile());
        assertEquals(0.5, settings.get("scale").asDouble(), settings::toString);
        assertEquals("[\"x2\",\"intercept\"]", settings.get("features").toString(), settings::toString);
        assertEquals(3.0, settings.get("sigma_prior_scale").asDouble(), settings::toString);
    }

    private static String readString(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
