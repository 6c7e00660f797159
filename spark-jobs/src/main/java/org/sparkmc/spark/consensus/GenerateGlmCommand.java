package org.sparkmc.spark.consensus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparkmc generate-glm}: a seeded synthetic GLM table written by the executors ({@link SyntheticGlmData}:
 * every row a pure function of the seed and its index, so the table's rows do not depend on the partitions), with
 * the true coefficients in {@code truth.json} beside it.
 */
@Command(name = "generate-glm", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes OUT/data.parquet, synthetic GLM rows (response y, features N(0,1), an optional "
            + "intercept column of 1s) generated on the executors, and OUT/truth.json with the true coefficients. "
            + "The rows depend only on --seed, the model and their index: not on --partitions.",
            "Exit codes: 0 done, 2 bad input, " + ExitCode.HELP_JVM_ENDS + ", 1 anything else."})
public final class GenerateGlmCommand extends JobCommand {
    @Option(names = "--family", paramLabel = "NAME", defaultValue = "logistic",
            description = "logistic, poisson or gaussian. Default: ${DEFAULT-VALUE}.")
    private String family;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "100000",
            description = "Number of rows (up to 10^8 and beyond). Default: ${DEFAULT-VALUE}.")
    private long rows;

    @Option(names = "--features", paramLabel = "P", defaultValue = "5",
            description = "Feature columns, the intercept included. Default: ${DEFAULT-VALUE}.")
    private int features;

    @Option(names = "--intercept", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "The first feature is the constant 1, named 'intercept'. Default: ${DEFAULT-VALUE}.")
    private boolean intercept;

    @Option(names = "--coefficients", paramLabel = "B", split = ",",
            description = "The true coefficients, one per feature. Default: 1, -1/2, 1/3, -1/4, …")
    private List<Double> coefficients = new ArrayList<>();

    @Option(names = "--sigma", paramLabel = "X", defaultValue = "1",
            description = "gaussian: the true noise sd. Default: ${DEFAULT-VALUE}.")
    private double sigma;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261122",
            description = "Root seed of the rows. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Spark partitions (output files); does not change any row. Default: min(blocks of "
                + SyntheticGlmData.ROWS_PER_STREAM + " rows, Spark's default parallelism).")
    private int partitions;

    @Mixin
    private OutputOptions outputOptions;

    /**
     * The most features a table is made with: each row is a Parquet record of that many values, and consensus holds
     * d × d matrices for each shard's Laplace approximation (10,000 features: 800 MB each). Two billion had run the
     * driver out of memory (exit 1) before Spark wrote a row.
     */
    static final int MAX_FEATURES = 10_000;
    /** The most --rows: 10^15, about 8 PB of features, far under where the row blocks' count would overflow. */
    static final long MAX_ROWS = 1_000_000_000_000_000L;

    @Override
    public Integer call() {
        configFile.checkKeys(spec, Set.of());
        outputOptions.requireOut();
        checkPartitions(partitions);
        if (rows > MAX_ROWS) { // near Long.MAX_VALUE the row blocks' count overflowed, and no row was written
            throw new InvalidInputException("--rows must be ≤ " + MAX_ROWS + ", is " + rows);
        }
        Require.atLeast(rows, 1, "--rows");
        Require.inRange(features, 1, MAX_FEATURES, "--features");
        List<String> names = featureNames(features, intercept);
        Glm glm = Glm.of(Require.oneOf(family, Glm.FAMILIES, "--family"), names, 1);
        double[] truth = truth(glm);
        SyntheticGlmData generator = new SyntheticGlmData(glm, truth, intercept, new RandomStreams(seed));
        try (AtomicOutput output = outputOptions.open(runPaths())) {
            SparkSession spark = outputOptions.session("sparkmc generate-glm");
            spark.sparkContext().setJobDescription("generate-glm: " + rows + " " + family + " rows");
            GlmTableWriter.write(spark, generator, rows, names, partitions, output.staged("data.parquet"));
            output.writeText("truth.json", truthJson(glm, truth, names));
            output.commit();
            spec.commandLine().getOut().printf("generate-glm: %d %s rows in %s/data.parquet, true coefficients in "
                    + "truth.json%n", rows, family, output.target());
            return ExitCode.OK;
        }
    }

    /** "intercept", "x1", … (with an intercept) or "x1", …, "xP". */
    static List<String> featureNames(int p, boolean intercept) {
        List<String> names = new ArrayList<>();
        for (int j = 0; j < p; j++) {
            names.add(intercept && j == 0 ? "intercept" : "x" + (intercept ? j : j + 1));
        }
        return names;
    }

    private double[] truth(Glm glm) {
        int p = glm.features();
        if (!coefficients.isEmpty() && coefficients.size() != p) {
            throw new InvalidInputException("--coefficients gives " + coefficients.size() + " values for " + p
                    + " features");
        }
        if (!coefficients.stream().allMatch(Double::isFinite)) {
            throw new InvalidInputException("--coefficients must be finite numbers, are " + coefficients);
        }
        double[] truth = new double[glm.dimension()];
        for (int j = 0; j < p; j++) {
            truth[j] = coefficients.isEmpty() ? (j % 2 == 0 ? 1.0 : -1.0) / (j + 1) : coefficients.get(j);
        }
        if (glm.dimension() > p) {
            Require.positive(sigma, "--sigma");
            truth[p] = Math.log(sigma);
        } else if (given("--sigma")) { // it was ignored without a word, as consensus's --sigma-prior-scale was
            throw new InvalidInputException("--sigma is the gaussian family's noise scale; the " + family
                    + " family has no σ: drop the option");
        }
        return truth;
    }

    private String truthJson(Glm glm, double[] truth, List<String> names) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("family", family);
        top.put("rows", rows);
        top.put("seed", seed);
        top.put("response", "y");
        top.put("features", names);
        Map<String, Object> coefficients = new LinkedHashMap<>();
        for (int j = 0; j < names.size(); j++) {
            coefficients.put(names.get(j), truth[j]);
        }
        top.put("coefficients", coefficients);
        if (glm.dimension() > glm.features()) {
            top.put("sigma", sigma);
        }
        return SummaryFiles.render(top);
    }
}
